package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.sim.LossModel;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.wire.cause.UserInitiatedAbortCause;

/** Shutdown from either side and both at once, ABORT, heartbeats, path confirmation, peer loss, corruption. */
class TeardownAndPathsTest {
    static final long S = 1_000_000_000L;

    static CorePair up(long seed, int paths, SctpOptions o) {
        CorePair p = new CorePair(seed, paths, o, o, l -> l.delay(Duration.ofMillis(10)));
        p.z.keepEvents(true);
        p.connectAt(0);
        p.sim.runUntil(
                () -> CorePair.saw(p.a, AssociationChangeType.COMMUNICATION_UP)
                        && CorePair.saw(p.z, AssociationChangeType.COMMUNICATION_UP),
                10 * S);
        return p;
    }

    static long messages(CorePair p, boolean atZ) {
        return (atZ ? p.z : p.a)
                .events().stream()
                        .filter(e -> e instanceof SctpEvent.MessageReceived)
                        .count();
    }

    @Test
    void shutdownStartedByTheServerDeliversQueuedDataFirst() {
        CorePair p = up(1, 1, SctpOptions.DEFAULTS);
        AssociationId idz = CorePair.upId(p.z);
        p.sim.at(p.sim.now(), () -> {
            for (int i = 0; i < 50; i++) {
                p.z.endpoint().send(idz, SendInfo.of(0, i), ByteBuffer.wrap(new byte[2000]), p.sim.now());
            }
            p.z.endpoint().shutdown(idz, p.sim.now());
        });
        p.sim.run(p.sim.now() + 10 * S);
        assertEquals(50, messages(p, false), "all 50 queued messages arrive before the shutdown completes");
        assertTrue(CorePair.saw(p.z, AssociationChangeType.SHUTDOWN_COMPLETE));
        assertTrue(CorePair.saw(p.a, AssociationChangeType.SHUTDOWN_COMPLETE));
        assertTrue(p.a.events().stream().anyMatch(e -> e instanceof SctpEvent.ShutdownReceived));
        assertTrue(p.a.endpoint().associations().isEmpty()
                && p.z.endpoint().associations().isEmpty());
    }

    @Test
    void shutdownFromBothSidesAtOnceCompletes() {
        CorePair p = up(2, 1, SctpOptions.DEFAULTS);
        AssociationId idz = CorePair.upId(p.z);
        p.sim.at(p.sim.now(), () -> {
            p.a.endpoint().shutdown(p.assocA, p.sim.now());
            p.z.endpoint().shutdown(idz, p.sim.now());
        });
        p.sim.run(p.sim.now() + 10 * S);
        assertTrue(CorePair.saw(p.a, AssociationChangeType.SHUTDOWN_COMPLETE), "A: " + p.a.events());
        assertTrue(CorePair.saw(p.z, AssociationChangeType.SHUTDOWN_COMPLETE), "Z: " + p.z.events());
        assertTrue(p.a.endpoint().associations().isEmpty()
                && p.z.endpoint().associations().isEmpty());
    }

    /** Whether the SCTP packet in {@code b} (from its position) holds a chunk of {@code type}. */
    static boolean hasChunk(ByteBuffer b, int type) {
        int at = b.position() + 12;
        while (at + 4 <= b.limit()) {
            if ((b.get(at) & 0xff) == type) {
                return true;
            }
            int len = b.getShort(at + 2) & 0xffff;
            if (len < 4) {
                return false;
            }
            at += (len + 3) & ~3;
        }
        return false;
    }

    @Test
    void afterSendingShutdownAckNoHeartbeatReachesAPeerThatMayHaveClosed() {
        // Heartbeats as often as possible; the peer's first SHUTDOWN COMPLETE is lost, so we
        // retransmit SHUTDOWN ACK to a peer that has closed: a HEARTBEAT sent meanwhile would be out
        // of the blue to it and draw an ABORT (RFC 9260 section 8.4), ending in COMMUNICATION_LOST.
        SctpOptions o = SctpOptions.DEFAULTS.toBuilder()
                .heartbeatInterval(Duration.ofMillis(1))
                .build();
        for (long seed = 20; seed < 28; seed++) {
            CorePair p = up(seed, 1, o);
            AssociationId idz = CorePair.upId(p.z);
            int[] completes = {0};
            boolean[] shutdownAckSeen = {false};
            int[] heartbeatsAfter = {0};
            p.a.dropInbound(b -> hasChunk(b, 14) && completes[0]++ == 0);
            p.z.dropInbound(b -> {
                if (hasChunk(b, 8)) {
                    shutdownAckSeen[0] = true;
                } else if (shutdownAckSeen[0] && hasChunk(b, 4)) {
                    heartbeatsAfter[0]++;
                }
                return false;
            });
            p.sim.at(p.sim.now(), () -> p.z.endpoint().shutdown(idz, p.sim.now()));
            p.sim.run(p.sim.now() + 30 * S);
            assertTrue(shutdownAckSeen[0], "seed " + seed + ": no SHUTDOWN ACK");
            assertEquals(0, heartbeatsAfter[0], "seed " + seed + ": HEARTBEATs after our SHUTDOWN ACK");
            assertTrue(
                    CorePair.saw(p.a, AssociationChangeType.SHUTDOWN_COMPLETE), "seed " + seed + ": " + p.a.events());
            assertTrue(CorePair.saw(p.z, AssociationChangeType.SHUTDOWN_COMPLETE), "seed " + seed);
        }
    }

    @Test
    void abortCarriesTheUserReasonAndReturnsUnsentData() {
        CorePair p = up(3, 1, SctpOptions.DEFAULTS);
        p.sim.at(p.sim.now(), () -> {
            for (int i = 0; i < 5; i++) {
                p.a.endpoint().send(p.assocA, SendInfo.of(0, i), ByteBuffer.wrap(new byte[100_000]), p.sim.now());
            }
            p.a.endpoint().abort(p.assocA, "bye".getBytes(), p.sim.now());
        });
        p.sim.run(p.sim.now() + 2 * S);
        SctpEvent.AssociationChange lost = p.z.events().stream()
                .filter(e -> e instanceof SctpEvent.AssociationChange c
                        && c.type() == AssociationChangeType.COMMUNICATION_LOST)
                .map(e -> (SctpEvent.AssociationChange) e)
                .findFirst()
                .orElseThrow(() -> new AssertionError("Z: " + p.z.events()));
        assertEquals(List.of(UserInitiatedAbortCause.of("bye")), lost.causes());
        long failed = p.a.events().stream()
                .filter(e -> e instanceof SctpEvent.SendFailed)
                .count();
        assertTrue(failed >= 1, "unsent messages come back as SendFailed: " + failed);
        assertTrue(p.a.endpoint().associations().isEmpty()
                && p.z.endpoint().associations().isEmpty());
    }

    @Test
    void idleAssociationHeartbeatsAndConfirmsEveryPeerAddress() {
        CorePair p = up(4, 2, SctpOptions.DEFAULTS);
        long[] heartbeats = {0};
        p.sim.addTap((t, link, src, dst, b) -> {
            if (FailoverTest.containsChunk(b, 4)) {
                heartbeats[0]++;
            }
        });
        p.sim.run(p.sim.now() + 300 * S);
        // A listed its second address in the INIT; Z confirms it with a heartbeat before using it
        // (RFC 9260 section 5.4). The addresses A's user gave to connect count as confirmed.
        assertTrue(
                p.z.events().stream()
                        .anyMatch(e -> e instanceof SctpEvent.PeerAddressChange c
                                && c.state() == SctpEvent.PeerAddressState.CONFIRMED
                                && c.address().equals(p.addrsA.get(1))),
                "Z: " + p.z.events());
        // 300 s idle with HB.interval 30 s: each side probes each of the 2 destinations ~8 times.
        assertTrue(heartbeats[0] >= 20 && heartbeats[0] <= 60, "heartbeats seen: " + heartbeats[0]);
        assertEquals(1, p.a.endpoint().associations().size());
    }

    @Test
    void aPeerThatVanishesIsDeclaredUnreachable() {
        SctpOptions o = SctpOptions.LAN;
        CorePair p = up(5, 1, o);
        p.net.path(0).downAt(p.sim.now() + S);
        p.sim.run(p.sim.now() + 60 * S);
        assertTrue(CorePair.saw(p.a, AssociationChangeType.COMMUNICATION_LOST), "A: " + p.a.events());
        assertTrue(p.a.events().stream()
                .anyMatch(e -> e instanceof SctpEvent.PeerAddressChange c
                        && c.state() == SctpEvent.PeerAddressState.UNREACHABLE));
        assertTrue(p.a.endpoint().associations().isEmpty());
    }

    @Test
    void corruptedPacketsAreCountedAsDroppedAndTheTransferCompletes() {
        CorePair p = new CorePair(6, 1, SctpOptions.DEFAULTS, SctpOptions.DEFAULTS, l -> l.delay(Duration.ofMillis(5))
                .corrupt(0.05)
                .loss(LossModel.none()));
        Transfer t = new Transfer(6, 500, 1200, 4, false).attach(p);
        p.connectAt(0);
        assertTrue(p.sim.runUntil(t::complete, 300 * S));
        long bad = p.a.endpoint().stats().badChecksum() + p.z.endpoint().stats().badChecksum();
        long corrupted = p.net.totals().corruptedDelivered();
        System.out.printf(
                "corruption: %d packets corrupted on the links, %d dropped as bad checksums%n", corrupted, bad);
        assertTrue(corrupted > 0);
        assertEquals(corrupted, bad, "every corrupted packet is caught by CRC32c and counted");
        assertEquals(0, t.lost() + t.duplicated + t.misordered + t.corrupted);
    }

    @Test
    void allStreamsUpTo65535CanBeUsed() {
        SctpOptions o = SctpOptions.DEFAULTS.toBuilder().outboundStreams(65535).build();
        CorePair p = up(7, 1, o);
        assertEquals(65535, p.a.endpoint().info(p.assocA).orElseThrow().outboundStreams());
        p.sim.at(p.sim.now(), () -> {
            p.a.endpoint().send(p.assocA, SendInfo.of(65534, 9), ByteBuffer.wrap(new byte[] {1}), p.sim.now());
            p.a.endpoint().send(p.assocA, SendInfo.of(0, 8), ByteBuffer.wrap(new byte[] {2}), p.sim.now());
        });
        p.sim.run(p.sim.now() + 2 * S);
        assertTrue(
                p.z.events().stream().anyMatch(e -> e instanceof SctpEvent.MessageReceived m && m.streamId() == 65534));
        assertEquals(2, messages(p, true));
    }

    @Test
    void senderDryAndSendSpaceEvents() {
        CorePair p = up(8, 1, SctpOptions.DEFAULTS);
        p.sim.at(p.sim.now(), () -> {
            p.a.endpoint().setSendThreshold(p.assocA, 0);
            p.a.endpoint().send(p.assocA, SendInfo.of(0, 1), ByteBuffer.wrap(new byte[5000]), p.sim.now());
        });
        p.sim.run(p.sim.now() + 2 * S);
        assertTrue(p.a.events().stream().anyMatch(e -> e instanceof SctpEvent.SenderDry));
        assertTrue(p.a.events().stream()
                .anyMatch(e -> e instanceof SctpEvent.SendSpaceAvailable s
                        && s.freeBytes() == SctpOptions.DEFAULTS.sendBufferBytes()));
    }
}
