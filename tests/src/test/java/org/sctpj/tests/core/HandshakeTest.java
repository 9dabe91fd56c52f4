package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sctpj.sim.EndpointNode;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.wire.chunk.ChunkType;

/** Association setup under loss, INIT collision, and peer restart (RFC 9260 sections 5.1 and 5.2). */
class HandshakeTest {

    static final SctpOptions OPTS = SctpOptions.DEFAULTS;

    /** Drops the first inbound packet whose first chunk has the given type. */
    static Predicate<ByteBuffer> firstOfType(int type) {
        boolean[] done = {false};
        return b -> {
            if (!done[0] && b.remaining() > 12 && (b.get(b.position() + 12) & 0xff) == type) {
                done[0] = true;
                return true;
            }
            return false;
        };
    }

    @ParameterizedTest(name = "lost {0}")
    @ValueSource(strings = {"INIT", "INIT_ACK", "COOKIE_ECHO", "COOKIE_ACK"})
    void handshakeCompletesWhenOnePacketIsLost(String lost) {
        CorePair p = new CorePair(7, 1, OPTS, OPTS, l -> l.delay(Duration.ofMillis(20)));
        int type =
                switch (lost) {
                    case "INIT" -> ChunkType.INIT;
                    case "INIT_ACK" -> ChunkType.INIT_ACK;
                    case "COOKIE_ECHO" -> ChunkType.COOKIE_ECHO;
                    default -> ChunkType.COOKIE_ACK;
                };
        // INIT and COOKIE ECHO travel A -> Z; INIT ACK and COOKIE ACK travel Z -> A.
        EndpointNode receiver = type == ChunkType.INIT || type == ChunkType.COOKIE_ECHO ? p.z : p.a;
        receiver.dropInbound(firstOfType(type));
        Transfer t = new Transfer(3, 20, 500, 2, false).attach(p);
        p.connectAt(0);
        assertTrue(p.sim.runUntil(t::complete, 30_000_000_000L), "transfer after losing " + lost);
        assertEquals(1, receiver.droppedInbound(), "exactly the one " + lost + " was dropped");
        assertEquals(1, CorePair.count(p.a, AssociationChangeType.COMMUNICATION_UP));
        assertEquals(1, p.z.endpoint().associations().size());
        // The retransmission came after T1 (RTO.Initial = 1 s): the association is up after >= 1 s.
        assertTrue(p.sim.now() >= 1_000_000_000L);
    }

    @Test
    void simultaneousConnectGivesExactlyOneAssociationEachSide() {
        CorePair p = new CorePair(11, 1, OPTS, OPTS, l -> l.delay(Duration.ofMillis(20)));
        p.a.endpoint().listen(true);
        p.sim.at(0, () -> p.a.endpoint().connect(p.addrsZ, CorePair.PORT_Z, 0));
        p.sim.at(0, () -> p.z.endpoint().connect(p.addrsA, CorePair.PORT_A, 0));
        p.sim.run(5_000_000_000L);
        assertEquals(1, p.a.endpoint().associations().size(), "A: " + p.a.events());
        assertEquals(1, p.z.endpoint().associations().size(), "Z: " + p.z.events());
        assertEquals(1, CorePair.count(p.a, AssociationChangeType.COMMUNICATION_UP), "A: " + p.a.events());
        assertEquals(1, CorePair.count(p.z, AssociationChangeType.COMMUNICATION_UP), "Z: " + p.z.events());
        // And the one association carries data both ways.
        var ida = CorePair.upId(p.a);
        var idz = CorePair.upId(p.z);
        p.sim.at(p.sim.now(), () -> {
            p.a.endpoint().send(ida, org.sctpj.stack.SendInfo.of(0, 1), ByteBuffer.wrap(new byte[] {1}), p.sim.now());
            p.z.endpoint().send(idz, org.sctpj.stack.SendInfo.of(0, 2), ByteBuffer.wrap(new byte[] {2}), p.sim.now());
        });
        p.sim.run(p.sim.now() + 2_000_000_000L);
        assertEquals(
                1,
                p.a.events().stream()
                        .filter(e -> e instanceof SctpEvent.MessageReceived)
                        .count());
        assertEquals(
                1,
                p.z.events().stream()
                        .filter(e -> e instanceof SctpEvent.MessageReceived)
                        .count());
    }

    @Test
    void peerRestartIsDetectedAndReported() {
        CorePair p = new CorePair(13, 1, OPTS, OPTS, l -> l.delay(Duration.ofMillis(5)));
        Transfer t = new Transfer(5, 10, 100, 1, false).attach(p);
        p.connectAt(0);
        assertTrue(p.sim.runUntil(t::complete, 10_000_000_000L));
        p.sim.run(p.sim.now() + 1_000_000_000L); // let the last SACKs settle
        p.z.keepEvents(true);
        // A loses all state (process restart) and connects again from the same port.
        long at = p.sim.now();
        p.sim.at(at, () -> {
            Endpoint fresh = new Endpoint(CorePair.PORT_A, p.addrsA, OPTS, new SplittableRandom(99), at);
            p.a.replaceEndpoint(fresh);
            p.a.events().clear();
            fresh.connect(p.addrsZ, CorePair.PORT_Z, at);
        });
        p.sim.run(at + 5_000_000_000L);
        assertTrue(CorePair.saw(p.z, AssociationChangeType.RESTART), "Z saw: " + p.z.events());
        assertTrue(CorePair.saw(p.a, AssociationChangeType.COMMUNICATION_UP), "A saw: " + p.a.events());
        assertEquals(1, p.z.endpoint().associations().size());
        // Data flows on the restarted association.
        var ida = CorePair.upId(p.a);
        p.sim.at(p.sim.now(), () -> p.a.endpoint()
                .send(ida, org.sctpj.stack.SendInfo.of(0, 77), ByteBuffer.wrap(new byte[] {7}), p.sim.now()));
        p.sim.run(p.sim.now() + 2_000_000_000L);
        assertTrue(
                p.z.events().stream().anyMatch(e -> e instanceof SctpEvent.MessageReceived m && m.ppid() == 77),
                "Z got the message after the restart: " + p.z.events());
    }
}
