package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.sim.Link;
import org.sctpj.stack.PmtuStats;
import org.sctpj.stack.SctpOptions;

/**
 * Path MTU discovery (RFC 8899 with HEARTBEAT + PAD probes) on the simulator, whose links drop
 * packets above their MTU (no ICMP): a path that can carry 9000 bytes is found at once; a path
 * whose MTU falls to 1280 in the middle of a transfer is caught as a black hole and searched down
 * to it; a path raised to 9000 later is found by the next search. Every message arrives, once and
 * in order.
 */
class PmtuSimulatedTest {

    static SctpOptions options(int max) {
        return SctpOptions.DEFAULTS.toBuilder()
                .pmtuDiscovery(true)
                .pmtuMax(max)
                .rtoMin(Duration.ofMillis(200))
                .rtoInitial(Duration.ofMillis(500))
                .delayedAckTime(Duration.ofMillis(50))
                .build();
    }

    static PmtuStats stats(CorePair p) {
        List<PmtuStats> s = p.a.endpoint().pmtuStats(p.assocA).orElseThrow();
        return s.get(0);
    }

    static void check(Transfer t) {
        assertEquals(0, t.duplicated + t.misordered + t.corrupted);
    }

    @Test
    void aPathOf9000IsFoundWithTheFirstProbe() {
        CorePair p = new CorePair(3, 1, options(9000), options(9000), l -> l.delay(Duration.ofMillis(5))
                .mtu(9000));
        Transfer t = new Transfer(3, 300, 20_000, 1, false).attach(p);
        p.connectAt(0);
        assertTrue(p.sim.runUntil(t::complete, 60_000_000_000L), "delivered " + t.deliveredCount);
        check(t);
        PmtuStats s = stats(p);
        assertEquals(9000, s.mtu(), s.toString());
        assertFalse(s.searching(), s.toString());
        assertEquals(0, s.probesLost(), s.toString());
        Link aToZ = p.net.path(0).aToZ();
        assertEquals(0, aToZ.droppedTooBig(), aToZ.toString());
        System.out.printf(
                "PMTU sim 9000: found %d at %.3f s (association up at about 10 ms), %s%n",
                s.mtu(), s.completedAtNanos() / 1e9, s);
    }

    @Test
    void anMtuThatFallsTo1280MidTransferIsFoundAgain() {
        Link[] links = new Link[2];
        CorePair p = new CorePair(5, 1, options(1500), options(1500), l -> l.delay(Duration.ofMillis(5))
                .bandwidth(10_000_000)
                .mtu(1500));
        links[0] = p.net.path(0).aToZ();
        links[1] = p.net.path(0).zToA();
        Transfer t = new Transfer(5, 3000, 4000, 1, false).attach(p);
        p.connectAt(0);
        long drop = 2_000_000_000L;
        p.sim.at(drop, () -> {
            assertEquals(1500, stats(p).mtu(), "found 1500 before the drop");
            links[0].mtu(1280);
            links[1].mtu(1280);
        });
        assertTrue(
                p.sim.runUntil(() -> t.complete() && !stats(p).searching(), 300_000_000_000L),
                "delivered " + t.deliveredCount + ", " + stats(p));
        check(t);
        PmtuStats s = stats(p);
        assertTrue(s.blackHoles() >= 1, s.toString());
        assertEquals(1280, s.mtu(), "1280 is a common MTU, probed before the sizes around it: " + s);
        assertTrue(links[0].fragmented() > 0, "chunks cut for 1500 went as fragments: " + links[0]);
        System.out.printf(
                "PMTU sim 1500 -> 1280: found %d, %.3f s after the drop (black hole seen at %.3f s, search"
                        + " took %.3f s), %d black hole(s),"
                        + " %d packets dropped too big, %d sent fragmentable; %s%n",
                s.mtu(),
                (s.completedAtNanos() - drop) / 1e9,
                (s.startedAtNanos() - drop) / 1e9,
                (s.completedAtNanos() - s.startedAtNanos()) / 1e9,
                s.blackHoles(),
                links[0].droppedTooBig(),
                links[0].fragmented(),
                s);
    }

    @Test
    void anMtuRaisedTo9000IsFoundByTheNextSearch() {
        CorePair p = new CorePair(7, 1, options(9000), options(9000), l -> l.delay(Duration.ofMillis(5))
                .mtu(1500));
        p.connectAt(0);
        p.sim.run(60_000_000_000L);
        PmtuStats before = stats(p);
        assertEquals(1500, before.mtu(), before.toString());
        assertFalse(before.searching(), before.toString());
        long raise = p.sim.now();
        p.net.path(0).both(l -> l.mtu(9000));
        p.sim.run(raise + 700_000_000_000L);
        PmtuStats after = stats(p);
        assertEquals(9000, after.mtu(), after.toString());
        long droppedBefore = p.net.path(0).aToZ().droppedTooBig();
        // A 20,000-byte message now goes in 3 DATA packets (not 14 of 1,500 bytes).
        Link aToZ = p.net.path(0).aToZ();
        long sentBefore = aToZ.stats().sent();
        p.sim.at(p.sim.now(), () -> p.a.endpoint()
                .send(p.assocA, org.sctpj.stack.SendInfo.of(0, 1), java.nio.ByteBuffer.allocate(20_000), p.sim.now()));
        assertTrue(
                p.sim.runUntil(
                        () -> p.z.events().stream()
                                .anyMatch(e -> e instanceof org.sctpj.stack.SctpEvent.MessageReceived m
                                        && m.data().length == 20_000),
                        p.sim.now() + 10_000_000_000L),
                "the message arrived");
        assertEquals(3, aToZ.stats().sent() - sentBefore, "three packets of 9000 bytes");
        assertEquals(droppedBefore, aToZ.droppedTooBig());
        System.out.printf(
                "PMTU sim 1500 then 9000: first search found %d at %.3f s; after the raise %d at %.3f s; %s%n",
                before.mtu(), before.completedAtNanos() / 1e9, after.mtu(), after.completedAtNanos() / 1e9, after);
    }
}
