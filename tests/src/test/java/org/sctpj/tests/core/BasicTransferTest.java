package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;

/** The simplest end-to-end case on the simulator: connect, send, shut down. */
class BasicTransferTest {

    @Test
    void handshakeTransferAndGracefulShutdown() {
        CorePair p =
                new CorePair(1, 1, SctpOptions.DEFAULTS, SctpOptions.DEFAULTS, l -> l.delay(Duration.ofMillis(10)));
        Transfer t = new Transfer(1, 100, 1000, 4, false).attach(p);
        p.connectAt(0);
        assertTrue(p.sim.runUntil(t::complete, 60_000_000_000L), "delivered " + t.deliveredCount);
        assertEquals(0, t.duplicated + t.misordered + t.corrupted);
        p.sim.at(p.sim.now(), () -> p.a.endpoint().shutdown(p.assocA, p.sim.now()));
        assertTrue(p.sim.runUntil(
                () -> CorePair.saw(p.a, AssociationChangeType.SHUTDOWN_COMPLETE), p.sim.now() + 10_000_000_000L));
        assertTrue(p.a.endpoint().associations().isEmpty());
        p.sim.run(p.sim.now() + 1_000_000_000L);
        assertTrue(p.z.endpoint().associations().isEmpty());
    }
}
