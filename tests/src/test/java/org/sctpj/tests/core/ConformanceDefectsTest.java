package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sctpj.sim.Side;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.wire.chunk.ChunkType;

/**
 * Defects of issue 10 that the conformance monitor (which runs in every simulated test and fails it
 * at the first packet that breaks a rule) or the test's own assertions catch: HEARTBEATs before the
 * COOKIE ACK and during shutdown, two SHUTDOWN chunks in one packet, an answer's DATA that
 * leaves the pending SACK behind, and a SACK sent to an address the sender had not confirmed.
 */
class ConformanceDefectsTest {

    /**
     * Defect 2: with two paths and the first COOKIE ECHO lost, T1-cookie also ran the HEARTBEAT
     * timers, and a HEARTBEAT went to the second address (learnt from the INIT ACK, unconfirmed) in
     * COOKIE-ECHOED (RFC 9260
     * section 5.1 allows only the COOKIE ECHO). The peer, with no association yet, answered it with
     * an ABORT and the setup ended CANT_START.
     */
    @ParameterizedTest(name = "one-way delay {0} ms")
    @ValueSource(ints = {1, 5, 10, 20, 40})
    void multihomedSetupWithTheCookieEchoLostSendsNoHeartbeatAndComesUp(int delayMs) {
        CorePair p =
                new CorePair(delayMs, 2, SctpOptions.LAN, SctpOptions.LAN, l -> l.delay(Duration.ofMillis(delayMs)));
        p.z.dropInbound(HandshakeTest.firstOfType(ChunkType.COOKIE_ECHO));
        // A knows one of Z's addresses; the INIT ACK lists the other, unconfirmed until a HEARTBEAT.
        p.sim.at(0, () -> p.assocA = p.a.endpoint().connect(List.of(p.addrsZ.get(0)), CorePair.PORT_Z, 0));
        p.sim.runUntil(() -> CorePair.saw(p.a, AssociationChangeType.COMMUNICATION_UP), 5_000_000_000L);
        assertEquals(1, p.z.droppedInbound());
        assertFalse(CorePair.saw(p.a, AssociationChangeType.CANT_START), "setup failed: " + p.a.events());
        assertTrue(CorePair.saw(p.a, AssociationChangeType.COMMUNICATION_UP), "never came up: " + p.a.events());
    }

    /**
     * Defect 3: HEARTBEATs went on in SHUTDOWN-PENDING and SHUTDOWN-SENT; one answered after the
     * association closed drew an out-of-the-blue ABORT. Here A shuts down with data in flight while
     * every SACK is lost for a second, so its association stays in SHUTDOWN-PENDING across several
     * heartbeat intervals (LAN profile: 50 ms); then the shutdown must complete cleanly on both sides.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(ints = {1, 2, 3})
    void shutdownWithDataInFlightSendsNoHeartbeatAndClosesCleanly(int seed) {
        CorePair p = new CorePair(seed, 2, SctpOptions.LAN, SctpOptions.LAN, l -> l.delay(Duration.ofMillis(2)));
        p.a.dropInbound(b -> p.sim.now() < 1_000_000_000L && TeardownAndPathsTest.hasChunk(b, ChunkType.SACK));
        p.a.onEvent(e -> {
            if (e instanceof SctpEvent.AssociationChange c && c.type() == AssociationChangeType.COMMUNICATION_UP) {
                for (int i = 0; i < 5; i++) {
                    p.a.endpoint().send(c.association(), SendInfo.of(0, i), ByteBuffer.wrap(new byte[1000]), p.a.now());
                }
                p.a.endpoint().shutdown(c.association(), p.a.now());
            }
        });
        p.connectAt(0);
        runUntilBothClosed(p);
        assertTrue(p.a.droppedInbound() > 3, "SACKs were lost for a while: " + p.a.droppedInbound());
        assertTrue(CorePair.saw(p.a, AssociationChangeType.SHUTDOWN_COMPLETE), "A: " + p.a.events());
        assertTrue(CorePair.saw(p.z, AssociationChangeType.SHUTDOWN_COMPLETE), "Z: " + p.z.events());
        assertFalse(CorePair.saw(p.z, AssociationChangeType.COMMUNICATION_LOST), "Z: " + p.z.events());
    }

    /**
     * Defect 8: Z answers each message at once (an echo); the answer's DATA must carry the SACK for
     * the message it answers (RFC 9260 sections 6.2 and 6.10) instead of leaving it to the delayed
     * SACK timer. Defect 7: A shuts down right after sending, so the echo's packet (SACK for all of
     * A's data, then DATA) both completes A's data, which queues a SHUTDOWN, and brings DATA, which
     * SHUTDOWN-SENT answers with a SHUTDOWN: two SHUTDOWN chunks were bundled (the monitor fails the
     * run on that).
     */
    @ParameterizedTest(name = "{0} messages")
    @ValueSource(ints = {1, 3})
    void anEchoCarriesTheSackAndAShutdownMeetingItSendsOneShutdown(int messages) {
        CorePair p = new CorePair(
                messages, 1, SctpOptions.DEFAULTS, SctpOptions.DEFAULTS, l -> l.delay(Duration.ofMillis(10)));
        List<String> zData = new ArrayList<>();
        p.sim.addTap((now, link, src, dst, b) -> {
            if (link.endsWith("Z>A") && TeardownAndPathsTest.hasChunk(b, ChunkType.DATA)) {
                zData.add(TeardownAndPathsTest.hasChunk(b, ChunkType.SACK) ? "DATA+SACK" : "DATA");
            }
        });
        AssociationId[] zAssoc = new AssociationId[1];
        p.z.onEvent(e -> {
            if (e instanceof SctpEvent.AssociationChange c && c.type() == AssociationChangeType.COMMUNICATION_UP) {
                zAssoc[0] = c.association();
            } else if (e instanceof SctpEvent.MessageReceived m) {
                p.z.endpoint().send(zAssoc[0], SendInfo.of(0, 1), ByteBuffer.wrap(m.data()), p.z.now());
            }
        });
        p.a.onEvent(e -> {
            if (e instanceof SctpEvent.AssociationChange c && c.type() == AssociationChangeType.COMMUNICATION_UP) {
                for (int i = 0; i < messages; i++) {
                    p.a.endpoint().send(c.association(), SendInfo.of(0, 1), ByteBuffer.wrap(new byte[100]), p.a.now());
                }
                p.a.endpoint().shutdown(c.association(), p.a.now());
            }
        });
        p.connectAt(0);
        runUntilBothClosed(p);
        assertFalse(zData.isEmpty(), "Z echoed nothing");
        assertEquals("DATA+SACK", zData.get(0), "Z's packets of DATA: " + zData);
        assertTrue(CorePair.saw(p.a, AssociationChangeType.SHUTDOWN_COMPLETE), "A: " + p.a.events());
        assertTrue(CorePair.saw(p.z, AssociationChangeType.SHUTDOWN_COMPLETE), "Z: " + p.z.events());
        assertEquals(0, p.sim.network().unroutable(Side.A) + p.sim.network().unroutable(Side.Z));
    }

    /**
     * Found by the scenario matrix under the monitor: with the first COOKIE ECHO lost, Z comes up
     * on the retransmission and probes A's second address at once; the HEARTBEAT reached A before
     * the COOKIE ACK, and A answered it in COOKIE-ECHOED (RFC 9260 section 5.1 allows only the
     * COOKIE ECHO until the COOKIE ACK). The replay of that run must now pass.
     */
    @org.junit.jupiter.api.Test
    void noHeartbeatAckBeforeTheCookieAck() {
        ScenarioMatrixTest.Outcome o = ScenarioMatrixTest.run(ScenarioMatrixTest.Scenario.COOKIE_ECHO_LOST, 39696, 0);
        assertTrue(o.ok(), o.toString());
    }

    /**
     * Found by 72,000 scenario runs (2 of them): A closes after the SHUTDOWN ACK, its SHUTDOWN
     * COMPLETE is lost, and a packet Z sent earlier (a HEARTBEAT while Z was still ESTABLISHED, a
     * SACK for a duplicate) reaches A after that: A answers it as out of the blue with an ABORT (T
     * bit), and Z, in SHUTDOWN-ACK-SENT with every message acknowledged both ways, reported
     * COMMUNICATION_LOST instead of the clean close it was. The replays of both runs must pass.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"COOKIE_ACK_LOST:143056836:0.15", "SHUTDOWN_IN_FLIGHT:278091624:0.30"})
    void anAbortAfterThePeerClosedEndsShutdownAckSentCleanly(String replay) {
        String[] f = replay.split(":");
        ScenarioMatrixTest.Outcome o = ScenarioMatrixTest.run(
                ScenarioMatrixTest.Scenario.valueOf(f[0]), Long.parseLong(f[1]), Double.parseDouble(f[2]));
        assertTrue(o.ok(), o.toString());
    }

    /**
     * RFC 9260 section 5.4: nothing but a HEARTBEAT (and the exceptions bundled with one) goes to
     * an address the sender has not confirmed. A connects to both of Z's addresses (confirmed for
     * A, rule 1) and makes the second its primary, so its DATA reaches Z from its second address;
     * Z learnt that one from the INIT's address list and its probes of it never come back (A drops
     * Z's HEARTBEATs), so it stays unconfirmed for Z. Z sent its SACKs to the DATA's source anyway
     * (section 6.4's SHOULD, which 5.4's MUST NOT overrides), and the monitor failed the run; now
     * they go to the confirmed path and the messages are acknowledged.
     */
    @org.junit.jupiter.api.Test
    void theSackForDataFromAnUnconfirmedAddressGoesToAConfirmedOne() {
        CorePair p = new CorePair(7, 2, SctpOptions.DEFAULTS, SctpOptions.DEFAULTS, l -> l.delay(Duration.ofMillis(5)));
        p.a.dropInbound(b -> TeardownAndPathsTest.hasChunk(b, ChunkType.HEARTBEAT));
        List<String> sackDestinations = new ArrayList<>();
        p.sim.addTap((now, link, src, dst, b) -> {
            if (link.endsWith("Z>A") && TeardownAndPathsTest.hasChunk(b, ChunkType.SACK)) {
                sackDestinations.add(dst.getHostAddress());
            }
        });
        p.a.onEvent(e -> {
            if (e instanceof SctpEvent.AssociationChange c && c.type() == AssociationChangeType.COMMUNICATION_UP) {
                p.a.endpoint().setPrimary(c.association(), p.addrsZ.get(1));
                for (int i = 0; i < 3; i++) {
                    p.a.endpoint().send(c.association(), SendInfo.of(0, i), ByteBuffer.wrap(new byte[500]), p.a.now());
                }
            }
        });
        p.connectAt(0);
        p.sim.runUntil(
                () -> p.z.events().stream()
                                        .filter(e -> e instanceof SctpEvent.MessageReceived)
                                        .count()
                                == 3
                        && p.a.endpoint()
                                        .info(p.assocA)
                                        .orElseThrow()
                                        .transfer()
                                        .outstandingBytes()
                                == 0,
                5_000_000_000L);
        AssociationInfo a = p.a.endpoint().info(p.assocA).orElseThrow();
        assertTrue(a.paths().get(1).bytesSent() > 0, "A's DATA went to Z's second address: " + a.paths());
        assertEquals(0, a.transfer().outstandingBytes(), "everything acknowledged");
        AssociationInfo z = p.z.endpoint().info(CorePair.upId(p.z)).orElseThrow();
        assertEquals("UNCONFIRMED", z.paths().get(1).status(), "A's second address, for Z: " + z.paths());
        assertTrue(p.a.droppedInbound() > 0, "Z probed A's second address");
        assertFalse(sackDestinations.isEmpty(), "Z sent no SACK");
        assertEquals(
                List.of(p.addrsA.get(0).getHostAddress()),
                sackDestinations.stream().distinct().toList());
    }

    /**
     * Found by the scenario matrix once the monitor checked RFC 9260 section 5.4 (nothing but
     * HEARTBEATs to an unconfirmed address): with A connected to Z's first address only and the
     * first COOKIE ECHO lost, a SHUTDOWN ACK (Z, a SHUTDOWN repeated from A's second address) and a
     * SHUTDOWN COMPLETE (A, the SHUTDOWN ACK from Z's second address) went back to the source, still
     * unconfirmed; and Z bundled its pending SACK into a HEARTBEAT probing A's second address. The
     * replays of those runs must pass.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {"COOKIE_ECHO_LOST:5678024:0.15", "COOKIE_ECHO_LOST:5828485:0.15", "COOKIE_ECHO_LOST:2795508:0.05"
            })
    void answersAndProbesToAnUnconfirmedAddressCarryNothingElse(String replay) {
        String[] f = replay.split(":");
        ScenarioMatrixTest.Outcome o = ScenarioMatrixTest.run(
                ScenarioMatrixTest.Scenario.valueOf(f[0]), Long.parseLong(f[1]), Double.parseDouble(f[2]));
        assertTrue(o.ok(), o.toString());
    }

    static void runUntilBothClosed(CorePair p) {
        p.sim.runUntil(
                () -> CorePair.saw(p.a, AssociationChangeType.SHUTDOWN_COMPLETE)
                        && CorePair.saw(p.z, AssociationChangeType.SHUTDOWN_COMPLETE),
                20_000_000_000L);
    }
}
