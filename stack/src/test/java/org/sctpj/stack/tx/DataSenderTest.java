package org.sctpj.stack.tx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.stack.tx.SenderFixture.FULL;
import static org.sctpj.stack.tx.SenderFixture.MS;
import static org.sctpj.stack.tx.SenderFixture.tsn;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.wire.chunk.DataChunk;

class DataSenderTest {

    @Test
    void anOwnedArraySendsItsFirstLengthBytesAndIsRefusedLikeACopyWhenItDoesNotFit() {
        SenderFixture f = SenderFixture.noDelay();
        byte[] owned = new byte[2048]; // larger than the message: only the first 1000 bytes count
        for (int i = 0; i < owned.length; i++) {
            owned[i] = (byte) (i * 7);
        }
        assertEquals(DataSender.SendStatus.ACCEPTED, f.tx.sendOwned(1, 42, false, false, owned, 1000));
        assertEquals(1000, f.tx.bufferedBytes());
        List<DataChunk> c = f.packet(0);
        assertEquals(1, c.size());
        assertArrayEquals(
                java.util.Arrays.copyOf(owned, 1000), c.get(0).userData().toArray());
        assertThrows(IllegalArgumentException.class, () -> f.tx.sendOwned(1, 42, false, false, new byte[10], 11));
        assertThrows(IllegalArgumentException.class, () -> f.tx.sendOwned(1, 42, false, false, new byte[10], 0));
        long free = f.tx.freeBytes();
        byte[] big = new byte[(int) free + 1];
        assertEquals(DataSender.SendStatus.WOULD_BLOCK, f.tx.sendOwned(1, 42, false, false, big, big.length));
        assertEquals(free, f.tx.freeBytes(), "a refused message takes nothing");
    }

    @Test
    void messageOfExactlyOnePacketPayloadGoesInOneChunkAndOneByteMoreFragments() {
        SenderFixture f = SenderFixture.noDelay();
        f.send(1, FULL);
        List<DataChunk> one = f.packet(0);
        assertEquals(1, one.size());
        assertEquals(FULL, one.get(0).userData().length());
        assertEquals(1480, f.pb.length(), "the packet fills the path exactly");
        assertTrue(one.get(0).beginning() && one.get(0).ending());

        f.send(1, FULL + 1);
        List<DataChunk> a = f.packet(0);
        List<DataChunk> b = f.packet(0);
        assertEquals(FULL, a.get(0).userData().length());
        assertTrue(a.get(0).beginning() && !a.get(0).ending());
        assertEquals(1, b.get(0).userData().length());
        assertTrue(!b.get(0).beginning() && b.get(0).ending());
        assertEquals(a.get(0).tsn() + 1, b.get(0).tsn());
        assertEquals(a.get(0).ssn(), b.get(0).ssn());
        assertEquals(1, a.get(0).ssn());
    }

    @Test
    void aMessageThatFitsAnEmptyPacketIsNotSplitButALargerOneFillsTheRoom() {
        SenderFixture f = SenderFixture.noDelay();
        f.p.setCwnd(100_000);
        f.send(1, 1000);
        f.send(2, 1000);
        assertEquals(1, f.packet(0).size());
        assertEquals(1, f.packet(0).size());

        f.send(1, 100);
        f.send(1, 3000);
        List<DataChunk> p1 = f.packet(0);
        assertEquals(2, p1.size());
        assertEquals(100, p1.get(0).userData().length());
        assertEquals(1468 - 116 - 16, p1.get(1).userData().length());
        List<DataChunk> p2 = f.packet(0);
        List<DataChunk> p3 = f.packet(0);
        assertEquals(FULL, p2.get(0).userData().length());
        assertEquals(3000 - 1336 - FULL, p3.get(0).userData().length());
        assertTrue(p3.get(0).ending());
    }

    @Test
    void tsnsWrapSsnsCountPerStreamAndFlagsFollowTheMessage() {
        SenderFixture f = SenderFixture.noDelay();
        f.send(3, 10);
        f.send(3, 10);
        f.send(3, 10, true, false);
        f.send(3, 10, false, true);
        List<DataChunk> c = f.packet(0);
        assertEquals(4, c.size());
        int[] tsns = c.stream().mapToInt(DataChunk::tsn).toArray();
        assertEquals(0xFFFFFFFE, tsns[0]);
        assertEquals(0xFFFFFFFF, tsns[1]);
        assertEquals(0, tsns[2]);
        assertEquals(1, tsns[3]);
        assertEquals(0, c.get(0).ssn());
        assertEquals(1, c.get(1).ssn());
        assertEquals(0, c.get(2).ssn());
        assertTrue(c.get(2).unordered());
        assertEquals(2, c.get(3).ssn());
        assertTrue(c.get(3).immediate());
        assertFalse(c.get(1).immediate());
        assertEquals(DataChunk.FLAG_B | DataChunk.FLAG_E, c.get(0).flags());
        assertEquals(
                DataChunk.FLAG_U | DataChunk.FLAG_B | DataChunk.FLAG_E, c.get(2).flags());
        assertEquals(42, c.get(0).ppid());
        assertEquals(2, f.tx.nextTsn());
        f.send(4, 10);
        f.send(3, 10);
        c = f.packet(0);
        assertEquals(0, c.get(0).ssn(), "each stream counts its own SSNs");
        assertEquals(3, c.get(1).ssn());
    }

    @Test
    void theIBitGoesOnTheLastFragmentOnly() {
        SenderFixture f = SenderFixture.noDelay();
        f.send(4, 2000, false, true);
        List<DataChunk> c = f.drain(0);
        assertEquals(2, c.size());
        assertFalse(c.get(0).immediate());
        assertTrue(c.get(1).immediate());
    }

    @Test
    void streamsAreServedRoundRobinAndEachStreamFirstComeFirstServed() {
        SenderFixture f = SenderFixture.noDelay();
        f.send(1, 100);
        f.send(1, 101);
        f.send(2, 102);
        f.send(1, 103);
        f.send(3, 104);
        List<DataChunk> c = f.packet(0);
        // Streams join the rotation in the order they get data: 1, 2, 3.
        assertEquals(List.of(1, 2, 3, 1, 1), c.stream().map(DataChunk::streamId).toList());
        assertEquals(
                List.of(100, 102, 104, 101, 103),
                c.stream().map(d -> d.userData().length()).toList());
    }

    @Test
    void newDataStopsOncePathFlightReachesCwndAndSlowStartOpensItPerSack() {
        SenderFixture f = SenderFixture.noDelay();
        assertEquals(4380, f.p.cwnd());
        for (int i = 0; i < 10; i++) {
            f.send(1, FULL);
        }
        assertEquals(4, f.packets(0), "flight 0, 1452, 2904, 4356 are below cwnd 4380");
        assertEquals(4 * FULL, f.p.flightSize());
        assertEquals(4, f.tx.outstandingCount());

        AckResult r = f.sack(tsn(0), 1 << 20, 10 * MS);
        assertTrue(r.cumAckAdvanced());
        assertEquals(FULL, r.bytesNewlyAcked());
        assertTrue(r.newlyAckedOn(0));
        assertEquals(1L, r.newlyAckedPathMask());
        assertEquals(4380 + FULL, f.p.cwnd());
        assertEquals(2, f.packets(10 * MS));
    }

    @Test
    void peerRwndLimitsNewDataAndAZeroWindowIsProbedWithOneChunk() {
        SenderFixture f = new SenderFixture(SenderFixture.options(true), 3000);
        for (int i = 0; i < 5; i++) {
            f.send(1, 1000);
        }
        assertEquals(3, f.packets(0));
        assertEquals(0, f.tx.peerRwnd());
        f.sack(tsn(0), 1000, MS);
        assertEquals(0, f.tx.peerRwnd(), "a_rwnd 1000 minus 2000 outstanding");
        assertEquals(0, f.packets(MS));
        f.sack(tsn(2), 0, 2 * MS);
        assertEquals(Long.MAX_VALUE, f.p.t3Deadline(), "all acknowledged: T3 stopped");
        List<DataChunk> probe = f.packet(2 * MS);
        assertEquals(1, probe.size());
        assertEquals(tsn(3), probe.get(0).tsn());
        assertTrue(f.p.t3Deadline() != Long.MAX_VALUE);
        assertEquals(0, f.packets(2 * MS), "one probe while it is outstanding");
        f.sack(tsn(3), 5000, 3 * MS);
        assertEquals(5000, f.tx.peerRwnd());
        assertEquals(1, f.packets(3 * MS));
    }

    @Test
    void nagleHoldsSmallDataWhileDataIsInFlight() {
        SenderFixture f = new SenderFixture(SenderFixture.options(false), 1 << 20);
        f.send(1, 100);
        assertEquals(1, f.packet(0).size(), "nothing in flight: goes at once");
        f.send(1, 100);
        assertTrue(f.packet(0).isEmpty(), "held while the first is in flight");
        assertTrue(f.tx.hasDataToSend(0));
        f.send(1, 100, false, true);
        assertEquals(2, f.packet(0).size(), "a message with I is not held");

        f.send(1, 100);
        assertTrue(f.packet(0).isEmpty());
        f.sack(tsn(2), 1 << 20, MS);
        assertEquals(1, f.packet(MS).size(), "nothing in flight any more");

        for (int i = 0; i < 14; i++) {
            f.send(2, 100);
        }
        assertEquals(12, f.packet(MS).size(), "enough queued to fill a packet: 12 chunks of 116 bytes");
        assertTrue(f.packet(MS).isEmpty(), "the 2 left over are held");
    }

    @Test
    void noDelaySendsSmallDataAtOnce() {
        SenderFixture f = SenderFixture.noDelay();
        f.send(1, 100);
        f.packet(0);
        f.send(1, 100);
        assertEquals(1, f.packet(0).size());
    }

    @Test
    void maxBurstLimitsPacketsPerEvent() {
        SctpOptions o = SenderFixture.options(true).toBuilder().maxBurst(2).build();
        SenderFixture f = new SenderFixture(o, 1 << 20);
        f.p.setCwnd(100_000);
        for (int i = 0; i < 10; i++) {
            f.send(1, FULL);
        }
        assertEquals(2, f.tx.packetsAllowed(f.p));
        assertEquals(2, f.packets(0));
        assertEquals(0, f.tx.packetsAllowed(f.p));
        f.tx.beginBurst(f.p);
        assertEquals(2, f.packets(0));
    }

    @Test
    void threeMissIndicationsByHtnaTriggerOneFastRetransmitAndFastRecovery() {
        SenderFixture f = SenderFixture.noDelay();
        f.p.setCwnd(100_000);
        for (int i = 0; i < 8; i++) {
            f.send(1, 1000);
        }
        assertEquals(8, f.packets(0));
        // t1 and t3 are lost.
        AckResult r = f.sack(tsn(0), 1 << 20, MS, 2, 2);
        assertEquals(2000, r.bytesNewlyAcked());
        assertEquals(0, r.fastRetransmitsMarked());
        r = f.sack(tsn(0), 1 << 20, 2 * MS, 2, 2, 4, 4);
        assertEquals(0, r.fastRetransmitsMarked());
        assertFalse(r.cumAckAdvanced());
        r = f.sack(tsn(0), 1 << 20, 3 * MS, 2, 2, 4, 5);
        assertEquals(1, r.fastRetransmitsMarked());
        assertTrue(r.enteredFastRecovery());
        assertTrue(f.tx.inFastRecovery());
        assertEquals(50_000, f.p.ssthresh());
        assertEquals(50_000, f.p.cwnd());
        assertEquals(0, f.p.partialBytesAcked());

        List<DataChunk> rtx = f.packet(3 * MS);
        assertEquals(List.of(tsn(1)), rtx.stream().map(DataChunk::tsn).toList());
        assertEquals(1, f.p.chunksRetransmitted());

        r = f.sack(tsn(0), 1 << 20, 4 * MS, 2, 2, 4, 6);
        assertEquals(1, r.fastRetransmitsMarked(), "t3 reaches three misses");
        assertFalse(r.enteredFastRecovery());
        assertEquals(50_000, f.p.cwnd(), "cwnd is not reduced twice in one recovery");
        assertEquals(50_000, f.p.ssthresh());
        assertEquals(
                List.of(tsn(3)), f.packet(4 * MS).stream().map(DataChunk::tsn).toList());

        r = f.sack(tsn(7), 1 << 20, 5 * MS);
        assertTrue(r.cumAckAdvanced());
        assertFalse(f.tx.inFastRecovery(), "the cumulative ack reached the recovery point");
        assertTrue(f.tx.isEmpty());
        assertEquals(0, f.p.flightSize());
    }

    @Test
    void missIndicationsCountOnlyBelowTheHighestNewlyAckedTsn() {
        SenderFixture f = SenderFixture.noDelay();
        for (int i = 0; i < 5; i++) {
            f.send(1, 1000);
        }
        f.drain(0);
        assertEquals(0, f.sack(tsn(0), 1 << 20, MS, 2, 2).fastRetransmitsMarked());
        for (int i = 0; i < 4; i++) {
            assertEquals(0, f.sack(tsn(0), 1 << 20, MS, 2, 2).fastRetransmitsMarked(), "nothing newly acked");
        }
        assertEquals(0, f.sack(tsn(0), 1 << 20, MS, 2, 3).fastRetransmitsMarked());
        assertEquals(1, f.sack(tsn(0), 1 << 20, MS, 2, 4).fastRetransmitsMarked());
    }

    @Test
    void t3ExpiryCollapsesCwndBacksOffAndRetransmitsTheEarliestFirst() {
        SenderFixture f = SenderFixture.noDelay();
        for (int i = 0; i < 3; i++) {
            f.send(1, 1400);
        }
        assertEquals(3, f.packets(0));
        assertEquals(100 * MS, f.p.t3Deadline());
        f.tx.onT3Expired(f.p, f.paths, 100 * MS);
        assertEquals(1500, f.p.cwnd());
        assertEquals(6000, f.p.ssthresh());
        assertEquals(200 * MS, f.p.rto().rto());
        assertEquals(0, f.p.flightSize());
        assertEquals(3, f.tx.markedForRetransmission());
        assertEquals(Long.MAX_VALUE, f.p.t3Deadline());
        assertTrue(f.tx.hasDataToSend(100 * MS));

        List<DataChunk> c = f.packet(100 * MS);
        assertEquals(List.of(tsn(0)), c.stream().map(DataChunk::tsn).toList());
        assertEquals(300 * MS, f.p.t3Deadline());
        assertEquals(1, f.p.chunksRetransmitted());
        assertEquals(1400, f.p.bytesRetransmitted());

        f.sack(tsn(0), 1 << 20, 150 * MS);
        assertFalse(f.p.rto().hasSample(), "Karn: a retransmitted chunk is not measured");
    }

    @Test
    void rttIsMeasuredOnAChunkSentOnce() {
        SenderFixture f = SenderFixture.noDelay();
        f.send(1, 100);
        f.drain(0);
        f.sack(tsn(0), 1 << 20, 50 * MS);
        assertEquals(50 * MS, f.p.rto().srtt());
        assertEquals(25 * MS, f.p.rto().rttvar());
        assertEquals(150 * MS, f.p.rto().rto());
    }

    @Test
    void t3RestartsWhenTheEarliestIsAckedAndStopsWhenAllAre() {
        SenderFixture f = SenderFixture.noDelay();
        for (int i = 0; i < 3; i++) {
            f.send(1, 1400);
        }
        f.drain(0);
        assertEquals(100 * MS, f.p.t3Deadline());
        f.sack(tsn(0), 1 << 20, 20 * MS);
        assertEquals(60 * MS, f.p.rto().rto(), "20 ms sample: 20 + 4 * 10");
        assertEquals(80 * MS, f.p.t3Deadline());
        f.sack(tsn(0), 1 << 20, 30 * MS, 2, 2);
        assertEquals(80 * MS, f.p.t3Deadline(), "the earliest (t1) is still outstanding");
        f.sack(tsn(2), 1 << 20, 40 * MS);
        assertEquals(Long.MAX_VALUE, f.p.t3Deadline());
    }

    @Test
    void renegedGapAckedChunksAreOutstandingAgainAndRetransmittedOnT3() {
        SenderFixture f = SenderFixture.noDelay();
        for (int i = 0; i < 4; i++) {
            f.send(1, 1000);
        }
        f.drain(0);
        int cum = tsn(0) - 1;
        AckResult r = f.sack(cum, 1 << 20, MS, 2, 3);
        assertEquals(2000, r.bytesNewlyAcked());
        assertFalse(r.cumAckAdvanced());
        assertEquals(2000, f.p.flightSize());
        assertEquals(1 << 20, f.tx.peerRwnd() + 2000);
        r = f.sack(cum, 1 << 20, 2 * MS, 3, 3);
        assertEquals(0, r.bytesNewlyAcked());
        assertEquals((1 << 20) - 3000, f.tx.peerRwnd(), "t1 counts as outstanding again");
        assertTrue(f.p.t3Deadline() != Long.MAX_VALUE);
        f.tx.onT3Expired(f.p, f.paths, f.p.t3Deadline());
        assertEquals(3, f.tx.markedForRetransmission(), "t0, the reneged t1 and t3");
    }

    @Test
    void staleSacksAreIgnoredAndSacksForUnsentTsnsAreViolations() {
        SenderFixture f = SenderFixture.noDelay();
        for (int i = 0; i < 3; i++) {
            f.send(1, 1000);
        }
        f.drain(0);
        f.sack(tsn(1), 1 << 20, MS);
        AckResult r = f.sack(tsn(0), 100, MS);
        assertTrue(r.ignored());
        assertFalse(r.protocolViolation());
        assertEquals((1 << 20) - 1000, f.tx.peerRwnd(), "the stale a_rwnd is not applied");
        r = f.sack(tsn(3), 1 << 20, MS);
        assertTrue(r.protocolViolation());
        assertEquals(tsn(1), f.tx.cumulativeAckTsn());
    }

    @Test
    void sendRejectsMisuseAndBlocksWhenTheBufferIsFull() {
        SctpOptions o = SenderFixture.options(true).toBuilder()
                .sendBufferBytes(3000)
                .maxMessageSize(2000)
                .build();
        SenderFixture f = new SenderFixture(o, 1 << 20);
        assertThrows(IllegalArgumentException.class, () -> f.send(16, 10));
        assertThrows(IllegalArgumentException.class, () -> f.send(-1, 10));
        assertThrows(IllegalArgumentException.class, () -> f.send(1, 0));
        assertThrows(IllegalArgumentException.class, () -> f.send(1, 2001));
        f.send(1, 2000);
        assertEquals(2000, f.tx.bufferedBytes());
        assertEquals(1000, f.tx.freeBytes());
        ByteBuffer b = ByteBuffer.allocate(1001);
        assertEquals(DataSender.SendStatus.WOULD_BLOCK, f.tx.send(1, 0, false, false, b));
        assertEquals(0, b.position());
        f.drain(0);
        assertEquals(2000, f.tx.bufferedBytes(), "sent but not acknowledged");
        f.sack(tsn(1), 1 << 20, MS);
        assertEquals(0, f.tx.bufferedBytes());
        assertEquals(DataSender.SendStatus.ACCEPTED, f.tx.send(1, 0, false, false, b));
        assertEquals(1001, b.position());
        f.tx.setOutboundStreams(2);
        assertThrows(IllegalArgumentException.class, () -> f.send(2, 10));
    }

    @Test
    void drainUnsentReturnsEveryMessageNotFullyAcknowledged() {
        SenderFixture f = SenderFixture.noDelay();
        f.send(1, 100);
        f.send(1, 3000);
        f.packet(0); // the 100-byte message and a fragment of the 3000-byte one
        f.send(2, 50, true, false);
        f.sack(tsn(0), 1 << 20, MS);
        List<UnsentMessage> u = f.tx.drainUnsent();
        assertEquals(2, u.size());
        assertEquals(3000, u.get(0).data().length);
        assertTrue(u.get(0).partiallySent());
        assertEquals(2, u.get(1).streamId());
        assertTrue(u.get(1).unordered());
        assertFalse(u.get(1).partiallySent());
        assertTrue(f.tx.isEmpty());
        assertEquals(0, f.tx.bufferedBytes());
        assertEquals(0, f.p.flightSize());
    }
}
