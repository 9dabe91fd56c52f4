package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.PeerAddressState;
import org.sctpj.stack.SctpOptions;

/**
 * SCTP-PF (RFC 7829) in a live association on two paths: the primary is cut at 2 s and restored at
 * 4 s during a bulk transfer. The primary becomes Potentially Failed at its first timeout (PFMR 0),
 * data moves to the alternate, and an answered heartbeat makes it available again; with Primary
 * Path Switchover the alternate stays primary afterwards.
 */
class PotentiallyFailedTest {
    static final long S = 1_000_000_000L;

    record Outcome(CorePair pair, long[] dataAfterRestore, long pfEvents, long availableEvents, long madePrimary) {}

    static Outcome run(SctpOptions o) {
        CorePair p = new CorePair(5, 2, o, o, l -> l.delay(Duration.ofMillis(1))
                .bandwidth(10_000_000)
                .queueLimit(32 * 1024));
        p.net.path(0).downAt(2 * S).upAt(4 * S);
        long[] data = new long[2];
        p.sim.addTap((t, link, src, dst, bytes) -> {
            if (t > 5 * S && p.addrsA.contains(src) && FailoverTest.containsChunk(bytes, 0)) {
                data[src.equals(p.addrsA.get(0)) ? 0 : 1]++;
            }
        });
        Transfer t = new Transfer(3, 10_000_000, 1000, 1, false).attach(p);
        t.sendUntilNanos = 7 * S;
        p.connectAt(0);
        AssociationInfo[] during = new AssociationInfo[1];
        p.sim.at(
                3 * S,
                () -> during[0] = p.a.endpoint().info(t.senderAssociation()).orElseThrow());
        assertTrue(p.sim.runUntil(t::complete, 60 * S));
        assertEquals(0, t.lost() + t.duplicated + t.misordered + t.corrupted);
        // PF is passed through: after PMR (2) more timeouts the primary is inactive.
        assertEquals("INACTIVE", during[0].paths().get(0).status(), "while cut: " + during[0]);
        assertTrue(during[0].paths().get(1).bytesSent() > 0
                && during[0].paths().get(0).errorCount() > 2);
        int pf = -1;
        int unreachable = -1;
        for (int i = 0; i < p.a.events().size(); i++) {
            if (p.a.events().get(i) instanceof SctpEvent.PeerAddressChange c
                    && c.address().equals(p.addrsZ.get(0))) {
                if (c.state() == PeerAddressState.POTENTIALLY_FAILED && pf < 0) {
                    pf = i;
                } else if (c.state() == PeerAddressState.UNREACHABLE && unreachable < 0) {
                    unreachable = i;
                }
            }
        }
        assertTrue(pf >= 0 && unreachable > pf, "POTENTIALLY_FAILED, then UNREACHABLE");
        return new Outcome(
                p,
                data,
                count(p, PeerAddressState.POTENTIALLY_FAILED),
                count(p, PeerAddressState.AVAILABLE),
                count(p, PeerAddressState.MADE_PRIMARY));
    }

    static long count(CorePair p, PeerAddressState s) {
        return p.a.events().stream()
                .filter(e -> e instanceof SctpEvent.PeerAddressChange c && c.state() == s)
                .count();
    }

    static SctpOptions lan() {
        return SctpOptions.LAN.toBuilder().noDelay(true).build();
    }

    @Test
    void primaryGoesPotentiallyFailedAndDataReturnsWhenItAnswers() {
        Outcome o = run(lan());
        assertTrue(o.pfEvents() >= 1, "POTENTIALLY_FAILED reported");
        assertTrue(o.availableEvents() >= 1, "AVAILABLE after restore");
        assertTrue(o.dataAfterRestore()[0] > 0 && o.dataAfterRestore()[1] == 0, "back on the primary");
    }

    @Test
    void primarySwitchoverKeepsTheAlternate() {
        Outcome o = run(lan().toBuilder().primarySwitchover(true).build());
        assertTrue(o.madePrimary() >= 1, "the alternate was made primary");
        assertTrue(o.dataAfterRestore()[1] > 0 && o.dataAfterRestore()[0] == 0, "stays on the alternate");
    }
}
