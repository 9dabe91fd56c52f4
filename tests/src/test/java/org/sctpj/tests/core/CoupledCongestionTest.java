package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sctpj.sim.EndpointNode;
import org.sctpj.sim.Network;
import org.sctpj.sim.Path;
import org.sctpj.sim.Simulator;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpOptions;

/**
 * Fairness of CMT on a shared bottleneck (RFC 6356 goal 2): a CMT association whose two paths both
 * cross one 10 Mb/s link competes with a single-path association over the same link. With
 * independent per-path windows CMT takes about two thirds; with the coupled "linked increases"
 * controller it takes about the share of one flow.
 */
class CoupledCongestionTest {
    static final long S = 1_000_000_000L;

    record Shares(double cmt, double single) {}

    static Shares run(SctpOptions.CongestionControl cc) {
        InetAddress a1 = CorePair.ip(10, 0, 1, 1);
        InetAddress a2 = CorePair.ip(10, 0, 2, 1);
        InetAddress a3 = CorePair.ip(10, 0, 3, 1);
        InetAddress z1 = CorePair.ip(10, 0, 1, 2);
        InetAddress z2 = CorePair.ip(10, 0, 2, 2);
        InetAddress z3 = CorePair.ip(10, 0, 3, 2);
        SctpOptions single = SctpOptions.LAN.toBuilder().noDelay(true).build();
        SctpOptions multi = single.toBuilder()
                .cmt(true)
                .cmtDelayedAck(true)
                .congestionControl(cc)
                .build();
        EndpointNode cmtA = new EndpointNode(new Endpoint(5001, List.of(a1, a2), multi, new SplittableRandom(1), 0));
        EndpointNode cmtZ = new EndpointNode(new Endpoint(5002, List.of(z1, z2), multi, new SplittableRandom(2), 0));
        EndpointNode oneA = new EndpointNode(new Endpoint(6001, List.of(a3), single, new SplittableRandom(3), 0));
        EndpointNode oneZ = new EndpointNode(new Endpoint(6002, List.of(z3), single, new SplittableRandom(4), 0));
        cmtZ.endpoint().listen(true);
        oneZ.endpoint().listen(true);
        Network net = new Network(7, new MultiNode(List.of(cmtA, oneA)), new MultiNode(List.of(cmtZ, oneZ)));
        Path bottleneck = net.addPath(a1, z1);
        bottleneck.both(l -> l.delay(Duration.ofMillis(5)).bandwidth(10_000_000).queueLimit(64 * 1024));
        net.shareLinks(a2, z2, bottleneck);
        net.shareLinks(a3, z3, bottleneck);
        Simulator sim = new Simulator(net);
        long end = 30 * S;
        Transfer tc = new Transfer(1, 10_000_000, 1400, 1, false).attach(cmtA, cmtZ);
        Transfer ts = new Transfer(2, 10_000_000, 1400, 1, false).attach(oneA, oneZ);
        tc.series = new Series(100_000_000L, end + 60 * S);
        ts.series = new Series(100_000_000L, end + 60 * S);
        tc.sendUntilNanos = end;
        ts.sendUntilNanos = end;
        sim.at(0, () -> cmtA.endpoint().connect(List.of(z1, z2), 5002, sim.now()));
        sim.at(0, () -> oneA.endpoint().connect(List.of(z3), 6002, sim.now()));
        assertTrue(sim.runUntil(() -> tc.complete() && ts.complete(), end + 60 * S), "both transfers complete");
        assertEquals(0, tc.lost() + tc.duplicated + tc.misordered + tc.corrupted);
        assertEquals(0, ts.lost() + ts.duplicated + ts.misordered + ts.corrupted);
        Shares r = new Shares(tc.series.meanMbps(5 * S, end), ts.series.meanMbps(5 * S, end));
        System.out.printf(
                "shared 10 Mb/s bottleneck, %s: CMT (2 paths) %.2f Mb/s, single path %.2f Mb/s, CMT share %.2f%n",
                cc, r.cmt(), r.single(), r.cmt() / (r.cmt() + r.single()));
        return r;
    }

    @Test
    void linkedIncreasesKeepCmtFairToASinglePathFlow() {
        Shares uncoupled = run(SctpOptions.CongestionControl.RFC9260);
        Shares coupled = run(SctpOptions.CongestionControl.LINKED_INCREASES);
        double uShare = uncoupled.cmt() / (uncoupled.cmt() + uncoupled.single());
        double cShare = coupled.cmt() / (coupled.cmt() + coupled.single());
        assertTrue(cShare < uShare, "coupling lowers CMT's share: " + cShare + " vs " + uShare);
        assertTrue(cShare <= 0.62, "CMT with LIA takes about one flow's share, took " + cShare);
        assertTrue(coupled.cmt() + coupled.single() >= 9.0, "the bottleneck stays full");
    }
}
