package org.sctpj.stack.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpOptions;

/**
 * The sender's side of the rest of CMT on two destinations A and B (chunks alternating A, B, A,
 * B...): NR-SACK (draft-natarajan-tsvwg-sctp-nrsack-08 section 5: NR-acknowledged chunks leave
 * the send buffer at once and are never reneged nor retransmitted), CUCv2's rtx-pseudo-cumack, and
 * send-buffer splitting. Each rule is checked against its absence on the same sequence.
 */
class CmtNrSackSenderTest {
    static final int TSN0 = CmtSenderTest.Fx.TSN0;
    static final int FULL = SenderFixture.FULL;
    static final int[] NONE = new int[0];

    static CmtSenderTest.Fx fx(SctpOptions.Builder b) throws Exception {
        return new CmtSenderTest.Fx(b.cmt(true).build(), 1 << 20);
    }

    static SctpOptions.Builder base() {
        return SenderFixture.options(true).toBuilder();
    }

    /** An NR-SACK at the initial cumulative ack with one NR gap block. */
    static AckResult nrSack(CmtSenderTest.Fx f, int start, int end) {
        return f.tx.onSack(
                TSN0 - 1, 1 << 20, NONE, NONE, 0, new int[] {start}, new int[] {end}, 1, 0, f.paths, 1_000_000L);
    }

    @Test
    void nrAckedChunksLeaveTheSendBufferAtOnce() throws Exception {
        CmtSenderTest.Fx nr = fx(base());
        nr.sendAlternating(4);
        long free = nr.tx.freeBytes();
        nrSack(nr, 2, 4); // TSN0+1..TSN0+3 non-renegable, TSN0 missing
        assertEquals(free + 3L * FULL, nr.tx.freeBytes(), "three chunks out of the send buffer");
        assertEquals(3L * FULL, nr.tx.nrAckedBytes());
        assertEquals(FULL, nr.tx.outstandingBytes());

        CmtSenderTest.Fx gap = fx(base());
        gap.sendAlternating(4);
        free = gap.tx.freeBytes();
        gap.sack(2, 4); // the same TSNs in a renegable gap block
        assertEquals(free, gap.tx.freeBytes(), "gap-acked chunks stay in the send buffer");

        // The cumulative ack then passes them all: nothing is counted twice.
        nr.tx.onSack(TSN0 + 3, 1 << 20, NONE, NONE, 0, 0, nr.paths, 2_000_000L);
        assertEquals(0, nr.tx.nrAckedBytes());
        assertEquals(0, nr.tx.outstandingBytes());
        assertEquals(nr.tx.freeBytes(), SenderFixture.options(true).sendBufferBytes());
    }

    @Test
    void aWhollyNrAckedMessageLeavesMemoryAndIsNotReportedUnsent() throws Exception {
        CmtSenderTest.Fx f = fx(base());
        f.sendAlternating(4); // four one-chunk messages
        nrSack(f, 2, 4);
        assertEquals(0, f.tx.nrPinnedBytes(), "their arrays went back to the pool");
        assertEquals(1, f.tx.drainUnsent().size(), "only the message never acknowledged fails on abort");

        // A message of three fragments, the last two NR-acknowledged: its data stays until the first is.
        CmtSenderTest.Fx g = fx(base());
        g.a.setCwnd(1 << 20);
        g.tx.send(0, 1, false, false, ByteBuffer.wrap(new byte[3 * FULL]));
        for (int i = 0; i < 3; i++) {
            g.pb.reset(1, 2, 3, g.a.maxPacketBytes());
            g.tx.fill(g.pb, g.a, g.paths, 0);
        }
        long free = g.tx.freeBytes();
        nrSack(g, 2, 3);
        assertEquals(2L * FULL, g.tx.nrPinnedBytes());
        assertEquals(free + 2L * FULL, g.tx.freeBytes());
        nrSack(g, 1, 3);
        assertEquals(0, g.tx.nrPinnedBytes(), "wholly NR-acknowledged now");
        g.tx.onSack(TSN0 + 2, 1 << 20, NONE, NONE, 0, 0, g.paths, 2_000_000L);
        assertEquals(0, g.tx.nrAckedBytes());
        assertEquals(SenderFixture.options(true).sendBufferBytes(), g.tx.freeBytes());
    }

    /**
     * A message of three fragments with a 10 ms lifetime, its middle fragment NR-acknowledged: when
     * its lifetime ends it is abandoned (RFC 3758) and the NR-acknowledged fragment leaves every
     * count with it; once the cumulative ack passes the message, the send buffer is whole again.
     */
    @Test
    void abandoningAPartlyNrAckedMessageLeavesTheCountsConsistent() throws Exception {
        CmtSenderTest.Fx g = fx(base());
        g.tx.setPartialReliability(true);
        g.a.setCwnd(1 << 20);
        g.tx.send(0, 1, false, false, ByteBuffer.wrap(new byte[3 * FULL]), org.sctpj.stack.PrPolicy.timeToLive(10), 0);
        for (int i = 0; i < 3; i++) {
            g.pb.reset(1, 2, 3, g.a.maxPacketBytes());
            g.tx.fill(g.pb, g.a, g.paths, 0);
        }
        nrSack(g, 2, 2);
        assertEquals(FULL, g.tx.nrPinnedBytes());
        g.tx.onT3Expired(g.a, g.paths, 50_000_000L); // past its lifetime: abandoned
        assertEquals(1, g.tx.prStatus().total().sent(), "abandoned after some of it was sent");
        assertEquals(0, g.tx.nrAckedBytes());
        assertEquals(0, g.tx.nrPinnedBytes());
        assertEquals(0, g.tx.outstandingBytes());
        g.tx.onSack(TSN0 + 2, 1 << 20, NONE, NONE, 0, 0, g.paths, 60_000_000L);
        assertEquals(0, g.tx.outstandingCount());
        assertEquals(SenderFixture.options(true).sendBufferBytes(), g.tx.freeBytes());
    }

    /**
     * Hostile NR-SACKs (blocks out of order, overlapping the renegable ones, beyond the TSNs sent,
     * the same block repeated) throw nothing and leave the counts within their bounds.
     */
    @Test
    void hostileNrSacksKeepTheCountsWithinBounds() throws Exception {
        CmtSenderTest.Fx f = fx(base());
        f.sendAlternating(6);
        long buffer = SenderFixture.options(true).sendBufferBytes();
        int[][][] sacks = {
            {{4, 6}, {2, 3, 9, 9}},
            {{2, 3}, {6, 6, 2, 3, 40_000, 65_535}},
            {{}, {1, 65_535}},
            {{3, 3, 3, 3}, {3, 3, 3, 3}},
            {{}, {}},
        };
        for (int[][] sk : sacks) {
            int[] gs = new int[sk[0].length / 2];
            int[] ge = new int[gs.length];
            int[] ns = new int[sk[1].length / 2];
            int[] ne = new int[ns.length];
            for (int i = 0; i < gs.length; i++) {
                gs[i] = sk[0][2 * i];
                ge[i] = sk[0][2 * i + 1];
            }
            for (int i = 0; i < ns.length; i++) {
                ns[i] = sk[1][2 * i];
                ne[i] = sk[1][2 * i + 1];
            }
            f.tx.onSack(TSN0 - 1, 1 << 20, gs, ge, gs.length, ns, ne, ns.length, 0, f.paths, 1_000_000L);
            assertTrue(f.tx.nrAckedBytes() >= 0 && f.tx.nrAckedBytes() <= 6L * FULL);
            assertTrue(f.tx.outstandingBytes() >= 0 && f.tx.outstandingBytes() + f.tx.nrAckedBytes() == 6L * FULL);
            assertTrue(f.tx.freeBytes() <= buffer);
        }
        f.tx.onSack(TSN0 + 5, 1 << 20, NONE, NONE, 0, 0, f.paths, 2_000_000L);
        assertEquals(buffer, f.tx.freeBytes());
        assertEquals(0, f.tx.nrAckedBytes());
    }

    @Test
    void nrAckedChunksAreNeverRenegedNorRetransmitted() throws Exception {
        CmtSenderTest.Fx nr = fx(base());
        nr.sendAlternating(4);
        nrSack(nr, 2, 4);
        // A later SACK leaves them out (the receiver would renege): they stay acknowledged.
        nr.tx.onSack(TSN0 - 1, 1 << 20, NONE, NONE, 0, 0, nr.paths, 1_500_000L);
        assertEquals(1, nr.tx.nrReneged() > 0 ? 1 : 0, "the broken promise is counted");
        nr.tx.onT3Expired(nr.b, nr.paths, 2_000_000L);
        nr.tx.onT3Expired(nr.a, nr.paths, 2_000_000L);
        assertEquals(1, nr.tx.markedForRetransmission(), "only the chunk never acknowledged");

        CmtSenderTest.Fx gap = fx(base());
        gap.sendAlternating(4);
        gap.sack(2, 4);
        gap.tx.onSack(TSN0 - 1, 1 << 20, NONE, NONE, 0, 0, gap.paths, 1_500_000L); // reneged (6.2.1 D iv)
        gap.tx.onT3Expired(gap.b, gap.paths, 2_000_000L);
        gap.tx.onT3Expired(gap.a, gap.paths, 2_000_000L);
        assertEquals(4, gap.tx.markedForRetransmission(), "renegable chunks are sent again");
    }

    /**
     * B carries new data (TSN0+1, TSN0+3) and, after A timed out, a retransmission of TSN0: the
     * earliest chunk in flight on B is that retransmission. A SACK of TSN0+1 advances B's
     * pseudo-cumack of new data: with CUCv2 B's slow start grows; with one pseudo-cumack for both
     * (the retransmission still unacknowledged) it does not.
     */
    @Test
    void cucV2LetsNewDataGrowTheWindowWhileARetransmissionIsInFlight() throws Exception {
        assertEquals(FULL, slowStartGrowthOfB(true));
        assertEquals(0, slowStartGrowthOfB(false));
    }

    private static long slowStartGrowthOfB(boolean cucV2) throws Exception {
        CmtSenderTest.Fx f = fx(base().cmtRtxPseudoCumack(cucV2));
        f.sendAlternating(4);
        f.tx.onT3Expired(f.a, f.paths, 2_000_000L); // TSN0 and TSN0+2 marked; B has the larger ssthresh
        f.pb.reset(1, 2, 3, f.b.maxPacketBytes());
        f.tx.fill(f.pb, f.b, f.paths, 2_000_000L);
        assertEquals(1, f.pb.dataChunkCount(), "TSN0 retransmitted to B");
        assertEquals(3L * FULL, f.b.flightSize());
        f.b.setCwnd(f.b.flightSize()); // fully used: slow start may grow
        long before = f.b.cwnd();
        f.tx.onSack(TSN0 - 1, 1 << 20, new int[] {2}, new int[] {2}, 1, 0, f.paths, 3_000_000L);
        return f.b.cwnd() - before;
    }

    @Test
    void sendBufferSplittingLimitsEachDestinationToItsShareOfTheSendBuffer() throws Exception {
        assertEquals(5, packetsOnAUntilBlocked(true), "half of the 10,000-byte send buffer on A");
        assertEquals(10, packetsOnAUntilBlocked(false), "the whole send buffer on A");
    }

    private static int packetsOnAUntilBlocked(boolean split) throws Exception {
        CmtSenderTest.Fx s =
                fx(base().sendBufferBytes(10_000).maxMessageSize(1000).sendBufferSplitting(split));
        s.a.setCwnd(1 << 20);
        for (int i = 0; i < 10; i++) {
            assertEquals(
                    DataSender.SendStatus.ACCEPTED, s.tx.send(0, 1, false, false, ByteBuffer.wrap(new byte[1000])));
        }
        int packets = 0;
        while (true) {
            s.pb.reset(1, 2, 3, 1200);
            s.tx.fill(s.pb, s.a, s.paths, 0);
            if (s.pb.isEmpty()) {
                break;
            }
            packets++;
        }
        assertTrue(packets > 0);
        return packets;
    }
}
