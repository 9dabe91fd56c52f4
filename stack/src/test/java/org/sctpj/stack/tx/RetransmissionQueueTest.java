package org.sctpj.stack.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.wire.chunk.DataChunk;

/**
 * {@link RetransmissionQueue}: the byte counts and flight sizes through sending, the cumulative
 * ack, gap acks and reneging (RFC 9260 section 6.2.1), marking for (fast) retransmission and
 * resending, Karn's rule for RTT samples (6.3.1 C5), and draining on abort.
 */
class RetransmissionQueueTest {
    private static final int LEN = TxHarness.LEN;

    @Test
    void theCumulativeAckFreesChunksTheirBytesAndTheirFlight() {
        TxHarness h = new TxHarness(TxHarness.single(), 1);
        Path p = h.paths.get(0);
        h.sendAlternating(3); // 1000..1002
        assertEquals(1003, h.q.nextTsn());
        assertEquals(3 * LEN, h.q.outstandingBytes());
        assertEquals(3 * LEN, h.q.unackedBytes());
        assertEquals(3 * LEN, p.flightSize());
        assertEquals((1 << 20) - 3 * LEN, h.q.peerRwnd(), "the peer's window shrinks by what was sent");

        AckResult r = h.sack(1001);
        assertEquals(1001, h.q.cumAck());
        assertEquals(1, h.q.size());
        assertEquals(LEN, h.q.outstandingBytes());
        assertEquals(LEN, p.flightSize());
        assertEquals(2 * LEN, r.bytesNewlyAcked());
        assertTrue(r.newlyAckedOn(0));
    }

    @Test
    void gapAckedChunksStayOutstandingOutOfTheFlightAndRenegingPutsThemBack() {
        TxHarness h = new TxHarness(TxHarness.single(), 1);
        Path p = h.paths.get(0);
        h.sendAlternating(3);
        h.sack(999, 2, 2); // 1001 gap-acked
        assertTrue(h.chunk(1001).acked);
        assertTrue(h.q.hasGapAcked());
        assertEquals(3 * LEN, h.q.outstandingBytes(), "a gap-acked chunk still holds the send buffer");
        assertEquals(2 * LEN, h.q.unackedBytes());
        assertEquals(2 * LEN, p.flightSize());
        assertFalse(p.t3Running());

        h.sack(999); // 1001 no longer reported: reneged (6.2.1 D iv)
        assertFalse(h.chunk(1001).acked);
        assertFalse(h.q.hasGapAcked());
        assertEquals(3 * LEN, h.q.unackedBytes());
        assertTrue(p.t3Running(), "T3-rtx runs for the reneged chunk");
    }

    @Test
    void anAbandonedChunkHoldsThePeersWindowUntilReportedOrForwarded() {
        // 1000..1003 sent; 1001, 1002 and 1003 abandoned (PR-SCTP) while 1000 is outstanding: the
        // peer may hold them until a FORWARD TSN goes past them, so they keep closing its window
        // (RFC 9260 6.1 A) though they left the flight (replay
        // SIZES_BEYOND_RECEIVE_BUFFER:3199487:0.00:extensions with I-DATA).
        TxHarness h = new TxHarness(TxHarness.single(), 1);
        Path p = h.paths.get(0);
        h.sendAlternating(4);
        h.q.abandon(h.chunk(1001));
        h.q.abandon(h.chunk(1002));
        h.q.abandon(h.chunk(1003));
        assertEquals(LEN, p.flightSize(), "abandoned chunks leave the flight (A2)");
        assertEquals(4 * LEN, h.q.unackedBytes(), "not reported yet: the peer may hold them");

        h.sack(999, 3, 3); // 1002 gap-acked: counted in the peer's a_rwnd from now on
        assertEquals(3 * LEN, h.q.unackedBytes());
        h.q.updatePeerRwnd(10 * LEN);
        assertEquals(7 * LEN, h.q.peerRwnd());

        h.q.forwardTsnSent(999); // covers nothing
        assertEquals(3 * LEN, h.q.unackedBytes());
        h.sack(1000, 2, 2); // 1000 acked cumulatively, 1002 still gap-acked
        assertEquals(2 * LEN, h.q.unackedBytes(), "1001 and 1003 wait for the FORWARD TSN");
        h.q.forwardTsnSent(1003);
        assertEquals(0, h.q.unackedBytes(), "the peer drops what the FORWARD TSN covers");
        h.sack(1003);
        assertEquals(0, h.q.unackedBytes(), "counted once");
        assertEquals(0, h.q.size());
    }

    @Test
    void anAbandonedChunkLeavesTheUnackedBytesWhenTheCumulativeAckPassesIt() {
        TxHarness h = new TxHarness(TxHarness.single(), 1);
        h.sendAlternating(2);
        h.q.abandon(h.chunk(1001));
        assertEquals(2 * LEN, h.q.unackedBytes());
        h.sack(1001);
        assertEquals(0, h.q.unackedBytes());
    }

    @Test
    void markingTakesAChunkOutOfTheFlightAndResendingPutsItBack() {
        TxHarness h = new TxHarness(TxHarness.single(), 2);
        Path a = h.paths.get(0);
        Path b = h.paths.get(1);
        SentChunk c = h.send(0, 0);
        h.send(0, 0);
        h.q.markFast(c);
        assertTrue(c.marked && c.fast && c.fastDone);
        assertEquals(1, h.q.markedCount());
        assertEquals(1, h.q.fastPending());
        assertEquals(LEN, a.flightSize());

        c.missCount = 3;
        h.q.resent(c, b, 5);
        assertFalse(c.marked || c.fast);
        assertTrue(c.fastDone, "never fast-retransmitted twice");
        assertEquals(0, h.q.markedCount());
        assertEquals(0, h.q.fastPending());
        assertEquals(2, c.sendCount);
        assertEquals(0, c.missCount);
        assertEquals(LEN, b.flightSize(), "in flight on the path it was resent to");
        assertEquals(LEN, a.flightSize());

        SentChunk d = h.chunk(1001);
        h.q.markFast(d);
        h.q.endFastRetransmit();
        assertFalse(d.fast, "after the packet's worth, fast marks wait for the window like others");
        assertTrue(d.marked);
        assertEquals(0, h.q.fastPending());
    }

    @Test
    void onlyAChunkSentOnceGivesAnRttSample() {
        TxHarness resent = new TxHarness(TxHarness.single(), 1);
        SentChunk c = resent.send(0, 0);
        assertTrue(c.rttProbe, "the first chunk on the path measures the RTT");
        assertFalse(resent.send(0, 0).rttProbe, "one measurement at a time per path");
        resent.q.mark(c);
        resent.q.resent(c, resent.paths.get(0), 1);
        resent.sack(1001);
        assertFalse(resent.paths.get(0).rto().hasSample(), "Karn: no sample from a retransmitted chunk");

        TxHarness once = new TxHarness(TxHarness.single(), 1);
        once.send(0, 0);
        once.sack(1000);
        assertTrue(once.paths.get(0).rto().hasSample());
    }

    @Test
    void drainReturnsEachOutstandingMessageOnceAndEmptiesTheFlight() {
        TxHarness h = new TxHarness(TxHarness.single(), 1);
        Path p = h.paths.get(0);
        h.send(0, 0);
        OutboundMessage two = h.pool.message().init(1, 0, false, false, new byte[2 * LEN], 2 * LEN);
        for (int k = 0; k < 2; k++) {
            int flags = k == 0 ? DataChunk.FLAG_B : DataChunk.FLAG_E;
            h.q.sentNew(h.pool.chunk().init(h.q.nextTsn(), two, k * LEN, LEN, flags), p, 0, false);
        }
        two.sentOffset = 2 * LEN;
        List<UnsentMessage> out = new ArrayList<>();
        java.util.Set<OutboundMessage> added = h.q.drainInto(out);
        assertEquals(2, out.size(), "the message of two fragments comes once");
        assertTrue(out.get(0).partiallySent());
        assertEquals(2 * LEN, out.get(1).data().length);
        assertTrue(added.contains(two), "the send queue skips it");
        assertEquals(2, added.size());
        assertEquals(0, h.q.size());
        assertEquals(0, h.q.outstandingBytes());
        assertEquals(0, p.flightSize());
        assertTrue(new TxHarness(TxHarness.single(), 1).q.drainInto(out).isEmpty(), "nothing outstanding");
    }
}
