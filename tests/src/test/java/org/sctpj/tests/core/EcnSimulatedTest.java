package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.sim.Link;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.EcnStats;
import org.sctpj.stack.Extension;
import org.sctpj.stack.SctpOptions;

/**
 * Explicit congestion notification (RFC 9260 appendix A) end to end on the simulator: a 10 Mbit/s
 * bottleneck whose queue marks ECN-capable packets Congestion Experienced above 30 KB (an AQM
 * threshold far below its limit, so nothing is ever dropped). The sender's window must fall on the
 * echoed marks, once per window of data, with nothing lost and nothing retransmitted, and every
 * message must arrive once and in order. Without ECN negotiated the same link marks nothing.
 */
class EcnSimulatedTest {

    static final SctpOptions ECN = SctpOptions.DEFAULTS.toBuilder()
            .enable(Extension.ECN)
            .rtoMin(Duration.ofMillis(200))
            .rtoInitial(Duration.ofMillis(500))
            .delayedAckTime(Duration.ofMillis(50))
            .build();

    static void bottleneck(Link l) {
        l.delay(Duration.ofMillis(10)).bandwidth(10_000_000).queueLimit(4 << 20).ceMarkAbove(30_000);
    }

    /** What a run saw: every cwnd decrease on A's path (before, after, time), and the end state. */
    record Run(CorePair pair, Transfer transfer, List<long[]> decreases, long doneNanos) {}

    static Run run(SctpOptions o) {
        CorePair p = new CorePair(7, 1, o, o, EcnSimulatedTest::bottleneck);
        Transfer t = new Transfer(7, 3000, 1000, 1, false).attach(p);
        p.connectAt(0);
        List<long[]> decreases = new ArrayList<>();
        long[] last = {-1};
        boolean done = p.sim.runUntil(
                () -> {
                    if (p.assocA != null) {
                        p.a.endpoint().info(p.assocA).ifPresent(i -> {
                            long cwnd = i.paths().get(0).cwnd();
                            if (last[0] >= 0 && cwnd < last[0]) {
                                decreases.add(new long[] {last[0], cwnd, p.sim.now()});
                            }
                            last[0] = cwnd;
                        });
                    }
                    return t.complete();
                },
                120_000_000_000L);
        assertTrue(done, "delivered " + t.deliveredCount + " of " + t.plan.size());
        assertEquals(0, t.duplicated + t.misordered + t.corrupted);
        return new Run(p, t, decreases, p.sim.now());
    }

    @Test
    void ceMarksReduceTheWindowOncePerWindowWithNothingLost() {
        Run r = run(ECN);
        CorePair p = r.pair();
        assertTrue(p.a.endpoint().info(p.assocA).orElseThrow().extensions().contains(Extension.ECN));
        Link aToZ = p.net.path(0).aToZ();
        assertTrue(aToZ.ceMarked() > 0, "the queue marked CE: " + aToZ);
        assertEquals(0, aToZ.stats().droppedQueue() + aToZ.stats().droppedLoss(), "nothing dropped: " + aToZ);
        AssociationInfo.PathInfo path =
                p.a.endpoint().info(p.assocA).orElseThrow().paths().get(0);
        assertEquals(0, path.bytesRetransmitted(), "nothing retransmitted");
        EcnStats sender = p.a.endpoint().ecnStats(p.assocA).orElseThrow();
        EcnStats receiver =
                p.z.endpoint().ecnStats(p.z.endpoint().associations().get(0)).orElseThrow();
        assertEquals(aToZ.ceMarked(), receiver.ceMarked(), "every mark seen (each marked packet carried DATA)");
        assertTrue(sender.windowReductions() > 0, sender.toString());
        // Once per window: many marks, few reductions, and every cwnd decrease is one of them.
        assertTrue(
                sender.windowReductions() < receiver.ceMarked(),
                "reductions " + sender.windowReductions() + " for " + receiver.ceMarked() + " marks");
        assertEquals(sender.windowReductions(), r.decreases().size(), "only ECN reduced the window");
        for (long[] d : r.decreases()) {
            // Halved as a fast retransmit would; the SACK behind the ECNE in the same packet may
            // have added up to one MTU before the next sample.
            long halved = Math.max(d[0] / 2, 4L * 1500);
            assertTrue(d[1] >= halved && d[1] <= halved + 1500, d[0] + " -> " + d[1]);
        }
        assertTrue(sender.cwrSent() > 0 && receiver.cwrReceived() > 0, sender + " / " + receiver);
        StringBuilder sb = new StringBuilder();
        for (long[] d : r.decreases()) {
            sb.append(String.format(" %.3fs:%d->%d", d[2] / 1e9, d[0], d[1]));
        }
        System.out.printf(
                "ECN sim: %d messages in %.3f s, %d CE marks, %d ECNE sent, %d reductions, %d CWR;"
                        + " cwnd decreases%s%n",
                r.transfer().plan.size(),
                r.doneNanos() / 1e9,
                receiver.ceMarked(),
                receiver.ecneSent(),
                sender.windowReductions(),
                sender.cwrSent(),
                sb);
    }

    @Test
    void withoutEcnNothingIsMarked() {
        Run r = run(SctpOptions.DEFAULTS.toBuilder()
                .rtoMin(Duration.ofMillis(200))
                .rtoInitial(Duration.ofMillis(500))
                .delayedAckTime(Duration.ofMillis(50))
                .build());
        CorePair p = r.pair();
        assertFalse(p.a.endpoint().info(p.assocA).orElseThrow().extensions().contains(Extension.ECN));
        assertEquals(0, p.net.path(0).aToZ().ceMarked(), "Not-ECT packets are never marked");
        assertEquals(0, p.a.endpoint().ecnStats(p.assocA).orElseThrow().windowReductions());
    }
}
