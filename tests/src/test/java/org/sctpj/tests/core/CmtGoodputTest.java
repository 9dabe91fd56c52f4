package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpOptions;

/**
 * Concurrent Multipath Transfer on the simulator (issue 7, done-when): with two equal paths CMT's
 * goodput is at least 1.8 times one path's; with a 2:1 pair at least 0.9 times the sum of what each
 * path carries alone; everything is delivered, once, in order.
 */
class CmtGoodputTest {
    static final long S = 1_000_000_000L;
    static final long WARMUP = 2 * S;
    static final long END = 12 * S;

    static SctpOptions base() {
        return SctpOptions.LAN.toBuilder().noDelay(true).build();
    }

    static SctpOptions cmt() {
        return base().toBuilder().cmt(true).cmtDelayedAck(true).build();
    }

    /**
     * Goodput in Mb/s delivered to Z's user from 2 s to 12 s of a continuous transfer over paths
     * of the given bandwidths (bit/s), 5 ms one-way delay, 64 KiB queues.
     */
    static double goodput(long seed, SctpOptions oa, SctpOptions oz, long... bandwidths) {
        CorePair p = new CorePair(seed, bandwidths.length, oa, oz, l -> l.delay(Duration.ofMillis(5))
                .queueLimit(64 * 1024));
        // Packets go through pollTransmit(ByteBuffer) as on the stack thread: with CMT a packet
        // started for a path with nothing to send is abandoned, which once corrupted the next one.
        p.a.useBufferTransmit();
        p.z.useBufferTransmit();
        for (int i = 0; i < bandwidths.length; i++) {
            long bw = bandwidths[i];
            p.net.path(i).both(l -> l.bandwidth(bw));
        }
        Transfer t = new Transfer(seed, 10_000_000, 1400, 1, false).attach(p);
        t.series = new Series(100_000_000L, END + 60 * S);
        t.sendUntilNanos = END;
        p.connectAt(0);
        assertTrue(
                p.sim.runUntil(t::complete, END + 60 * S),
                "all sent delivered: sent " + t.sent() + " delivered " + t.deliveredCount);
        assertEquals(0, t.lost() + t.duplicated + t.misordered + t.corrupted, "lost/duplicated/misordered/corrupted");
        return t.series.meanMbps(WARMUP, END);
    }

    @Test
    void twoEqualPathsGiveAtLeast1point8TimesOne() {
        double one = goodput(1, base(), base(), 10_000_000L);
        double single = goodput(1, base(), base(), 10_000_000L, 10_000_000L);
        double both = goodput(1, cmt(), cmt(), 10_000_000L, 10_000_000L);
        System.out.printf(
                "equal paths: one path %.2f Mb/s, two paths without CMT %.2f Mb/s, CMT %.2f Mb/s, ratio %.3f%n",
                one, single, both, both / one);
        assertTrue(both >= 1.8 * one, "CMT " + both + " vs one path " + one);
    }

    @Test
    void twoToOnePairGivesAtLeast0point9TimesTheSum() {
        double fast = goodput(2, base(), base(), 20_000_000L);
        double slow = goodput(2, base(), base(), 10_000_000L);
        double both = goodput(2, cmt(), cmt(), 20_000_000L, 10_000_000L);
        System.out.printf(
                "2:1 paths: fast alone %.2f, slow alone %.2f, sum %.2f, CMT %.2f Mb/s, ratio %.3f%n",
                fast, slow, fast + slow, both, both / (fast + slow));
        assertTrue(both >= 0.9 * (fast + slow), "CMT " + both + " vs sum " + (fast + slow));
    }
}
