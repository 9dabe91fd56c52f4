package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.sctpj.sim.Path;
import org.sctpj.stack.SctpOptions;

/**
 * The source thesis's failover schedule (SEEDS.md section 2) on a continuous bulk transfer over two
 * paths with the {@code LAN} profile: primary cut at t=15 s and restored at 35 s, alternate cut at
 * 55 s and restored at 75 s. Nothing is lost, traffic returns to the primary, and the time from the
 * primary's cut to the first data acknowledged over the alternate stays within formula 6.1's bound
 * for the LAN profile, 475 ms.
 */
class FailoverTest {
    static final long S = 1_000_000_000L;
    static final long BOUND_NANOS = 475_000_000L;

    /** Counts DATA-carrying packets per path and time window, and finds the first SACK over a path after a time. */
    static final class Watch {
        final long[][] dataPackets = new long[2][100];
        long firstSackOnAlternateAfterCut = -1;
        long firstSackOnPrimaryAfterSecondCut = -1;
    }

    @Test
    void thesisScheduleLosesNothingAndFailsOverWithinTheLanBound() {
        SctpOptions lan = SctpOptions.LAN.toBuilder()
                .sendBufferBytes(1 << 20)
                .receiveBufferBytes(1 << 20)
                .build();
        CorePair p = new CorePair(23, 2, lan, lan, l -> l.delay(Duration.ofMillis(1))
                .bandwidth(20_000_000)
                .queueLimit(128 * 1024));
        Path primary = p.net.path(0);
        Path alternate = p.net.path(1);
        primary.downAt(15 * S).upAt(35 * S);
        alternate.downAt(55 * S).upAt(75 * S);
        Watch w = new Watch();
        p.sim.addTap((t, link, src, dst, bytes) -> {
            int path = src.equals(p.addrsA.get(0)) || dst.equals(p.addrsA.get(0)) ? 0 : 1;
            boolean fromA = p.addrsA.contains(src);
            int firstChunk = bytes.get(bytes.position() + 12) & 0xff;
            boolean hasData = containsChunk(bytes, 0);
            if (fromA && hasData) {
                int sec = (int) Math.min(99, t / S);
                w.dataPackets[path][sec]++;
            }
            if (!fromA && containsChunk(bytes, 3)) {
                if (path == 1 && t > 15 * S && t < 35 * S && w.firstSackOnAlternateAfterCut < 0) {
                    w.firstSackOnAlternateAfterCut = t;
                }
                if (path == 0 && t > 55 * S && t < 75 * S && w.firstSackOnPrimaryAfterSecondCut < 0) {
                    w.firstSackOnPrimaryAfterSecondCut = t;
                }
            }
            assertTrue(firstChunk >= 0);
        });
        Transfer t = new Transfer(29, 10_000_000, 1000, 1, false).attach(p);
        t.sendUntilNanos = 85 * S;
        p.connectAt(0);
        assertTrue(
                p.sim.runUntil(t::complete, 200 * S),
                "all sent messages delivered; sent " + t.sent() + " delivered " + t.deliveredCount);
        long failover = w.firstSackOnAlternateAfterCut - 15 * S;
        System.out.printf(
                "failover: primary cut at 15 s, first data acknowledged over the alternate after %.1f ms (bound %d ms)%n",
                failover / 1e6, BOUND_NANOS / 1_000_000);
        System.out.printf(
                "messages sent %d, delivered %d, lost %d, duplicated %d, misordered %d%n",
                t.sent(), t.deliveredCount, t.lost(), t.duplicated, t.misordered);
        for (int sec = 10; sec < 90; sec += 5) {
            System.out.printf(
                    "  t=%2d s: DATA packets primary %6d, alternate %6d%n",
                    sec, w.dataPackets[0][sec], w.dataPackets[1][sec]);
        }
        assertEquals(0, t.lost() + t.duplicated + t.misordered + t.corrupted);
        assertTrue(failover > 0 && failover <= BOUND_NANOS, "failover took " + failover / 1e6 + " ms");
        // While the primary is cut, data goes over the alternate.
        assertEquals(0, w.dataPackets[0][20]);
        assertTrue(w.dataPackets[1][20] > 0);
        // After the primary returns (35 s) traffic goes back to it, also while the alternate is cut.
        assertTrue(w.dataPackets[0][45] > 0 && w.dataPackets[1][45] == 0, "back on the primary at 45 s");
        assertTrue(w.dataPackets[0][60] > 0, "primary carries data while the alternate is cut");
        assertTrue(w.dataPackets[0][80] > 0 && w.dataPackets[1][80] == 0, "primary at 80 s");
    }

    /** True if the SCTP packet holds a chunk of this type. */
    static boolean containsChunk(ByteBuffer b, int type) {
        int off = b.position() + 12;
        int end = b.limit();
        while (off + 4 <= end) {
            if ((b.get(off) & 0xff) == type) {
                return true;
            }
            int len = b.getShort(off + 2) & 0xffff;
            if (len < 4) {
                return false;
            }
            off += (len + 3) & ~3;
        }
        return false;
    }
}
