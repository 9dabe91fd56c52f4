package org.sctpj.stack.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.cc.Rfc9260CongestionController;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.path.PathStatus;

/**
 * The CMT rules of the sender on two destinations A and B, chunks alternating A, B, A, B...: split
 * fast retransmit, per-destination fast recovery, the pseudo-cumulative-ack cwnd update, the
 * retransmission policy and buffer splitting.
 */
class CmtSenderTest {
    static final class Fx {
        static final int TSN0 = 1000;

        final Path a;
        final Path b;
        final List<Path> paths;
        final DataSender tx;
        final PacketBuilder pb = new PacketBuilder(9000);

        Fx(SctpOptions o, long rwnd) throws Exception {
            a = new Path(0, InetAddress.getByAddress(new byte[] {10, 0, 1, 1}), 1500, o);
            b = new Path(1, InetAddress.getByAddress(new byte[] {10, 0, 2, 1}), 1500, o);
            paths = List.of(a, b);
            Rfc9260CongestionController cc = new Rfc9260CongestionController();
            for (Path p : paths) {
                p.setStatus(PathStatus.ACTIVE);
                cc.init(p, rwnd);
            }
            tx = new DataSender(o, TSN0, 4, rwnd, cc);
        }

        /** Sends n full chunks, alternating A and B, one per packet. */
        void sendAlternating(int n) {
            for (int i = 0; i < n; i++) {
                tx.send(0, 1, false, false, ByteBuffer.wrap(new byte[SenderFixture.FULL]));
                Path p = i % 2 == 0 ? a : b;
                pb.reset(1, 2, 3, p.maxPacketBytes());
                tx.fill(pb, p, paths, 0);
                assertEquals(1, pb.dataChunkCount(), "chunk " + i);
            }
        }

        AckResult sack(int... gaps) {
            int[] s = new int[gaps.length / 2];
            int[] e = new int[gaps.length / 2];
            for (int i = 0; i < s.length; i++) {
                s[i] = gaps[2 * i];
                e[i] = gaps[2 * i + 1];
            }
            return tx.onSack(TSN0 - 1, 1 << 20, s, e, s.length, 0, paths, 1_000_000L);
        }
    }

    static Fx cmt() throws Exception {
        return new Fx(SenderFixture.options(true).toBuilder().cmt(true).build(), 1 << 20);
    }

    @Test
    void acksOfTheOtherDestinationAreNoMissIndications() throws Exception {
        Fx f = cmt();
        f.sendAlternating(8); // TSN0+0 on A is lost; offsets are TSN - TSN0 + 1
        f.sack(2, 2);
        f.sack(2, 2, 4, 4);
        f.sack(2, 2, 4, 4, 6, 6);
        f.sack(2, 2, 4, 4, 6, 6, 8, 8);
        assertEquals(0, f.tx.markedForRetransmission(), "only B's chunks were acknowledged");
        f.sack(2, 4, 6, 6, 8, 8);
        f.sack(2, 6, 8, 8);
        AckResult r = f.sack(2, 8);
        assertEquals(1, r.fastRetransmitsMarked(), "three later chunks on A acknowledged");
        assertTrue(r.enteredFastRecovery());
        assertTrue(f.tx.inFastRecovery(f.a));
        assertFalse(f.tx.inFastRecovery(f.b), "fast recovery is per destination");
    }

    @Test
    void withoutCmtTheSameSacksFastRetransmitEarly() throws Exception {
        Fx plain = new Fx(SenderFixture.options(true), 1 << 20);
        plain.sendAlternating(8);
        plain.sack(2, 2);
        plain.sack(2, 2, 4, 4);
        AckResult r = plain.sack(2, 2, 4, 4, 6, 6);
        assertEquals(1, r.fastRetransmitsMarked(), "HTNA over all destinations");
    }

    @Test
    void delayedAckCountsTwoMissesWhenTwoLaterChunksOnTheDestinationAreAcked() throws Exception {
        Fx dac = new Fx(
                SenderFixture.options(true).toBuilder()
                        .cmt(true)
                        .cmtDelayedAck(true)
                        .build(),
                1 << 20);
        dac.sendAlternating(8);
        dac.sack(2, 4, 6, 6); // TSN0+2 on A: one miss for TSN0
        AckResult r = dac.sack(2, 8); // TSN0+4 and TSN0+6 on A: two more
        assertEquals(1, r.fastRetransmitsMarked());
    }

    @Test
    void slowStartNeedsThePseudoCumulativeAckOfTheDestination() throws Exception {
        Fx f = cmt();
        f.sendAlternating(4);
        // Make both windows fully used, the condition for slow-start growth.
        f.a.setCwnd(f.a.flightSize());
        f.b.setCwnd(f.b.flightSize());
        long cwndA = f.a.cwnd();
        long cwndB = f.b.cwnd();
        f.sack(2, 2); // B's earliest chunk acked: B's pseudo-cumack moves, the cumulative ack does not
        assertEquals(cwndB + 1452, f.b.cwnd(), "B grows in slow start");
        assertEquals(cwndA, f.a.cwnd(), "A got nothing");
    }

    @Test
    void retransmissionsGoToTheDestinationThePolicyPicks() throws Exception {
        Fx f = cmt();
        f.sendAlternating(4);
        f.tx.onT3Expired(f.a, f.paths, 2_000_000L);
        assertEquals(2, f.tx.markedForRetransmission());
        f.a.setStatus(PathStatus.POTENTIALLY_FAILED);
        f.pb.reset(1, 2, 3, f.a.maxPacketBytes());
        f.tx.fill(f.pb, f.a, f.paths, 2_000_000L);
        assertEquals(0, f.pb.dataChunkCount(), "not to the failed destination");
        f.b.setCwnd(1 << 20);
        for (int i = 0; i < 2; i++) {
            f.pb.reset(1, 2, 3, f.b.maxPacketBytes());
            f.tx.fill(f.pb, f.b, f.paths, 2_000_000L);
            assertEquals(1, f.pb.dataChunkCount(), "retransmission " + i + " to B");
        }
        assertEquals(0, f.tx.markedForRetransmission());
    }

    @Test
    void bufferSplittingLimitsEachDestinationToItsShareOfTheWindow() throws Exception {
        Fx s = new Fx(SenderFixture.options(true).toBuilder().cmt(true).build(), 10_000);
        s.a.setCwnd(1 << 20);
        for (int i = 0; i < 10; i++) {
            s.tx.send(0, 1, false, false, ByteBuffer.wrap(new byte[1000]));
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
        assertEquals(5, packets, "half of the 10,000-byte window on A");
        assertTrue(s.a.flightSize() <= 5000);
    }
}
