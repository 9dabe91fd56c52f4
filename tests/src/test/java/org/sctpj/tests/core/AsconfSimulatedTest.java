package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.sctpj.sim.EndpointNode;
import org.sctpj.sim.Link;
import org.sctpj.sim.LossModel;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.AssociationStats;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.Extension;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.LocalAddressState;
import org.sctpj.stack.SctpEvent.PeerAddressState;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.asconf.AddressReconfiguration;
import org.sctpj.stack.auth.KeyVector;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ChecksumPolicy;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.cause.DeleteLastRemainingAddressCause;
import org.sctpj.stack.wire.cause.DeleteSourceAddressCause;
import org.sctpj.stack.wire.cause.ErrorCause;
import org.sctpj.stack.wire.cause.NoAuthorizationCause;
import org.sctpj.stack.wire.chunk.AsconfAckChunk;
import org.sctpj.stack.wire.chunk.AsconfChunk;
import org.sctpj.stack.wire.chunk.AuthChunk;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.ChunkType;
import org.sctpj.stack.wire.chunk.InitChunk;
import org.sctpj.stack.wire.param.AddIpAddressParameter;
import org.sctpj.stack.wire.param.AddressParameter;
import org.sctpj.stack.wire.param.DeleteIpAddressParameter;
import org.sctpj.stack.wire.param.ErrorCauseIndicationParameter;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.SuccessIndicationParameter;

/**
 * Dynamic address reconfiguration (RFC 5061) between two sctpj endpoints on the simulator, under
 * the conformance monitor (which checks that every ASCONF and ASCONF-ACK is authenticated, that
 * serial numbers start at the Initial TSN and grow by one, and that one ASCONF at most is
 * outstanding): an endpoint adds an address, moves the peer's primary to it and deletes the old
 * one while data flows, in both roles, with nothing lost; lost ASCONF and ASCONF-ACK; and forged
 * input (ASCONF without AUTH, replayed and old serials, deleting the last or the source address,
 * refused kinds), each answered as the RFC says.
 */
class AsconfSimulatedTest {

    static final SctpOptions O = SctpOptions.LAN.toBuilder()
            .sendBufferBytes(32 << 10)
            .enable(Extension.AUTH)
            .enable(Extension.ASCONF)
            .build();

    static final long LIMIT = 60_000_000_000L;
    static final InetAddress A1 = CorePair.ip(10, 0, 1, 1);
    static final InetAddress Z1 = CorePair.ip(10, 0, 1, 2);
    static final InetAddress A2 = CorePair.ip(10, 0, 2, 1);
    static final InetAddress Z2 = CorePair.ip(10, 0, 2, 2);

    static Consumer<Link> lan() {
        return l -> l.delay(Duration.ofMillis(2)).bandwidth(100_000_000L);
    }

    /** One packet seen on a link: when, from where to where, decoded. */
    record Seen(long at, InetAddress src, InetAddress dst, boolean aToZ, SctpPacket packet) {
        boolean has(int type) {
            return packet.chunks().stream().anyMatch(c -> c.type() == type);
        }
    }

    /**
     * A pair joined by one path A1-Z1, plus a second path from the changer's second address (A2-Z1
     * when A changes its addresses, A1-Z2 when Z does), with a transfer from the other side to the
     * changer, so that the changer's old address carries data when it goes.
     */
    static final class Bed {
        final CorePair p;
        final Transfer t;
        final boolean changerIsA;
        final EndpointNode changer;
        final EndpointNode other;
        final InetAddress old;
        final InetAddress added;
        final List<SctpEvent> changerEvents = new ArrayList<>();
        final List<SctpEvent> otherEvents = new ArrayList<>();
        final List<Seen> seen = new ArrayList<>();

        Bed(long seed, boolean changerIsA, int messages, Consumer<Link> link, SctpOptions o) {
            p = new CorePair(seed, 1, o, o, link);
            this.changerIsA = changerIsA;
            changer = changerIsA ? p.a : p.z;
            other = changerIsA ? p.z : p.a;
            old = changerIsA ? A1 : Z1;
            added = changerIsA ? A2 : Z2;
            p.net.addPath(changerIsA ? A2 : A1, changerIsA ? Z1 : Z2).both(link);
            t = new Transfer(seed, messages, 700, 4, false);
            Consumer<SctpEvent> send = t.senderPart(other);
            Consumer<SctpEvent> recv = t.receiverPart(changer);
            changer.keepEvents(true).onEvent(e -> {
                changerEvents.add(e);
                recv.accept(e);
            });
            other.keepEvents(true).onEvent(e -> {
                otherEvents.add(e);
                send.accept(e);
            });
            p.sim.addTap((now, name, src, dst, packet) -> {
                Parsed<SctpPacket> d = SctpPacket.decode(packet.duplicate(), ChecksumPolicy.IGNORE);
                if (d.isOk()) {
                    seen.add(new Seen(now, src, dst, name.contains("A>Z"), d.value()));
                }
            });
        }

        AssociationId changerId() {
            return CorePair.upId(changer);
        }

        AssociationId otherId() {
            return CorePair.upId(other);
        }

        boolean local(LocalAddressState s, InetAddress a) {
            return changerEvents.stream()
                    .anyMatch(e -> e instanceof SctpEvent.LocalAddressChange c
                            && c.state() == s
                            && c.address().equals(a));
        }

        long peerEvents(PeerAddressState s, InetAddress a) {
            return otherEvents.stream()
                    .filter(e -> e instanceof SctpEvent.PeerAddressChange c
                            && c.state() == s
                            && c.address().equals(a))
                    .count();
        }

        void now(Runnable r) {
            p.sim.at(p.sim.now(), r);
        }

        void until(java.util.function.BooleanSupplier done, String what) {
            assertTrue(
                    p.sim.runUntil(done, p.sim.now() + LIMIT),
                    what + "; changer's address events "
                            + changerEvents.stream()
                                    .filter(e -> e instanceof SctpEvent.LocalAddressChange)
                                    .toList());
        }

        void finish() {
            until(t::complete, "delivered " + t.deliveredCount);
            assertEquals(0, t.lost(), "lost");
            assertEquals(0, t.duplicated, "duplicated");
            assertEquals(0, t.misordered, "misordered within a stream");
            assertEquals(0, t.corrupted, "corrupted");
        }

        /** Packets of the changer's side ({@code fromChanger}) or the other's carrying {@code type}. */
        List<Seen> with(int type, boolean fromChanger) {
            return seen.stream()
                    .filter(s -> s.aToZ() == (fromChanger == changerIsA) && s.has(type))
                    .toList();
        }
    }

    /** Adds the second address, makes it the peer's primary and deletes the first, while data flows. */
    static void moveAddress(Bed b) {
        b.p.connectAt(0);
        b.until(() -> b.t.sent() >= 300, "sent " + b.t.sent());
        b.now(() -> b.changer.endpoint().addLocalAddress(b.added, b.p.sim.now()));
        b.until(() -> b.local(LocalAddressState.ADDED, b.added), "ADDED");
        b.until(() -> b.peerEvents(PeerAddressState.CONFIRMED, b.added) > 0, "the peer confirmed the new address");
        b.now(() -> b.changer.endpoint().setPeerPrimary(b.changerId(), b.added, b.p.sim.now()));
        b.until(() -> b.local(LocalAddressState.MADE_PRIMARY, b.added), "MADE_PRIMARY");
        long[] removedAt = new long[1];
        b.now(() -> {
            removedAt[0] = b.p.sim.now();
            b.changer.endpoint().removeLocalAddress(b.old, b.p.sim.now());
        });
        b.until(() -> b.local(LocalAddressState.REMOVED, b.old), "REMOVED");
        long ackedAt = b.p.sim.now();
        long deliveredThen = b.t.deliveredCount;
        b.finish();
        assertTrue(deliveredThen < b.t.plan.size() - 500, "data flowed after the move: " + deliveredThen);

        // The peer: the new address is its only one of ours, and its primary.
        Endpoint other = b.other.endpoint();
        assertEquals(List.of(b.added), addresses(other, b.otherId()));
        assertEquals(b.added, other.info(b.otherId()).orElseThrow().primary());
        assertEquals(1, b.peerEvents(PeerAddressState.ADDED, b.added));
        assertEquals(1, b.peerEvents(PeerAddressState.MADE_PRIMARY, b.added));
        assertEquals(1, b.peerEvents(PeerAddressState.REMOVED, b.old));
        // Nothing left the changer from the old address after it asked for its deletion, nor went
        // to it from the peer after the peer answered (allowing for packets already on the link).
        assertEquals(
                List.of(),
                b.seen.stream()
                        .filter(s ->
                                s.at() > removedAt[0] + 5_000_000L && s.src().equals(b.old))
                        .map(Seen::packet)
                        .toList(),
                "packets from the deleted address");
        assertEquals(
                List.of(),
                b.seen.stream()
                        .filter(s -> s.at() > ackedAt + 5_000_000L && s.dst().equals(b.old))
                        .map(Seen::packet)
                        .toList(),
                "packets to the deleted address");
        // Data reached the changer at the new address.
        assertTrue(b.seen.stream().anyMatch(s -> s.dst().equals(b.added) && s.has(ChunkType.DATA)));
        // Three ASCONFs (serials one apart), each answered; every one authenticated.
        List<AsconfChunk> asconfs = chunks(b.with(ChunkType.ASCONF, true), AsconfChunk.class);
        assertEquals(3, asconfs.size(), "one ASCONF per request here, none lost: " + asconfs);
        assertEquals(asconfs.get(0).serialNumber() + 1, asconfs.get(1).serialNumber());
        assertEquals(asconfs.get(1).serialNumber() + 1, asconfs.get(2).serialNumber());
        for (Seen s : b.seen) {
            if (s.has(ChunkType.ASCONF) || s.has(ChunkType.ASCONF_ACK)) {
                assertEquals(ChunkType.AUTH, s.packet().chunks().get(0).type(), "AUTH first: " + s.packet());
            }
        }
        // The first serial is the changer's Initial TSN (RFC 5061 section 4.1.1).
        assertEquals(initialTsn(b, true), asconfs.get(0).serialNumber());
    }

    /** The peer addresses of an association, as its info lists them. */
    static List<InetAddress> addresses(Endpoint e, AssociationId id) {
        return e.info(id).orElseThrow().paths().stream().map(x -> x.address()).toList();
    }

    static int initialTsn(Bed b, boolean ofChanger) {
        for (Seen s : b.seen) {
            if (s.aToZ() == (ofChanger == b.changerIsA)) {
                for (Chunk c : s.packet().chunks()) {
                    if (c instanceof InitChunk i) {
                        return i.initialTsn();
                    }
                    if (c instanceof org.sctpj.stack.wire.chunk.InitAckChunk i) {
                        return i.initialTsn();
                    }
                }
            }
        }
        throw new AssertionError("no INIT or INIT ACK");
    }

    static <T extends Chunk> List<T> chunks(List<Seen> packets, Class<T> type) {
        List<T> out = new ArrayList<>();
        for (Seen s : packets) {
            for (Chunk c : s.packet().chunks()) {
                if (type.isInstance(c)) {
                    out.add(type.cast(c));
                }
            }
        }
        return out;
    }

    @Test
    void theClientMovesToANewAddressWhileDataFlowsAndNothingIsLost() {
        moveAddress(new Bed(1, true, 3000, lan(), O));
    }

    @Test
    void theServerMovesToANewAddressWhileDataFlowsAndNothingIsLost() {
        moveAddress(new Bed(2, false, 3000, lan(), O));
    }

    @Test
    void movingUnderLossLosesNothing() {
        moveAddress3(new Bed(
                3,
                true,
                3000,
                l -> lan().andThen(x -> x.loss(LossModel.bernoulli(0.05))).accept(l),
                O));
    }

    @Test
    void deletingThePrimaryMovesTheDataOutstandingOnIt() {
        // No Set Primary first: the peer's primary is the old address when it goes. Near the end of
        // the transfer the old address goes away for good (its link drops everything from then
        // on) and is deleted at once: what the peer sends there until the deletion reaches it is
        // lost, and moved to the new path when the deletion arrives (RFC 5061 section 5.2), without
        // waiting for a T3-rtx timeout or for gaps to trigger a fast retransmit.
        Bed b = new Bed(13, true, 1500, lan(), O);
        b.p.connectAt(0);
        b.until(() -> b.t.sent() >= 300, "sent");
        b.now(() -> b.changer.endpoint().addLocalAddress(b.added, b.p.sim.now()));
        b.until(() -> b.peerEvents(PeerAddressState.CONFIRMED, b.added) > 0, "confirmed");
        b.until(() -> b.t.sent() >= b.t.plan.size() - 200, "most sent");
        AssociationStats before =
                b.other.endpoint().associationStats(b.otherId()).orElseThrow();
        b.now(() -> {
            b.p.net.path(0).zToA().loss(LossModel.bernoulli(1.0));
            b.changer.endpoint().removeLocalAddress(b.old, b.p.sim.now());
        });
        b.until(() -> b.local(LocalAddressState.REMOVED, b.old), "REMOVED");
        assertEquals(b.added, b.other.endpoint().info(b.otherId()).orElseThrow().primary());
        b.finish();
        assertEquals(List.of(b.added), addresses(b.other.endpoint(), b.otherId()));
        // Moved at once: neither a T3-rtx timeout nor a fast retransmit was needed to get it there.
        AssociationStats after =
                b.other.endpoint().associationStats(b.otherId()).orElseThrow();
        assertEquals(before.timeoutRetransmissions(), after.timeoutRetransmissions(), "T3-rtx expirations");
        assertEquals(before.fastRetransmissions(), after.fastRetransmissions(), "fast retransmissions");
        assertTrue(after.chunksRetransmitted() > before.chunksRetransmitted(), "the moved chunks went again");
    }

    @Test
    void aSetPrimaryOfAnAddressNotYetConfirmedIsReportedOnceConfirmed() {
        // Add IP Address and Set Primary Address asked at once (usrsctp sends them one right after
        // the other, before the new path is confirmed): the peer takes the address as its primary
        // when a HEARTBEAT confirms it, and says so then (MADE_PRIMARY after CONFIRMED).
        Bed b = new Bed(14, true, 1500, lan(), O);
        b.p.connectAt(0);
        b.until(() -> b.t.sent() >= 300, "sent");
        b.now(() -> {
            b.changer.endpoint().addLocalAddress(b.added, b.p.sim.now());
            b.changer.endpoint().setPeerPrimary(b.changerId(), b.added, b.p.sim.now());
        });
        b.until(() -> b.local(LocalAddressState.MADE_PRIMARY, b.added), "the changer's MADE_PRIMARY");
        b.until(() -> b.peerEvents(PeerAddressState.MADE_PRIMARY, b.added) > 0, "the peer's MADE_PRIMARY");
        List<PeerAddressState> order = b.otherEvents.stream()
                .filter(e -> e instanceof SctpEvent.PeerAddressChange c
                        && c.address().equals(b.added))
                .map(e -> ((SctpEvent.PeerAddressChange) e).state())
                .toList();
        assertEquals(
                List.of(PeerAddressState.ADDED, PeerAddressState.CONFIRMED, PeerAddressState.MADE_PRIMARY),
                order,
                "reported once, when the path was confirmed");
        assertEquals(b.added, b.other.endpoint().info(b.otherId()).orElseThrow().primary());
        b.finish();
    }

    /** As {@link #moveAddress} without the exact ASCONF count (loss retransmits some). */
    static void moveAddress3(Bed b) {
        b.p.connectAt(0);
        b.until(() -> b.t.sent() >= 300, "sent " + b.t.sent());
        b.now(() -> b.changer.endpoint().addLocalAddress(b.added, b.p.sim.now()));
        b.until(() -> b.local(LocalAddressState.ADDED, b.added), "ADDED");
        b.now(() -> b.changer.endpoint().setPeerPrimary(b.changerId(), b.added, b.p.sim.now()));
        b.until(() -> b.local(LocalAddressState.MADE_PRIMARY, b.added), "MADE_PRIMARY");
        b.until(() -> b.peerEvents(PeerAddressState.CONFIRMED, b.added) > 0, "confirmed");
        b.now(() -> b.changer.endpoint().removeLocalAddress(b.old, b.p.sim.now()));
        b.until(() -> b.local(LocalAddressState.REMOVED, b.old), "REMOVED");
        b.finish();
        assertEquals(List.of(b.added), addresses(b.other.endpoint(), b.otherId()));
    }

    /** Drops the first {@code n} inbound packets that carry a chunk of {@code type}. */
    static Predicate<ByteBuffer> dropFirst(int type, int n) {
        int[] left = {n};
        return buf -> {
            Parsed<SctpPacket> d = SctpPacket.decode(buf.duplicate(), ChecksumPolicy.IGNORE);
            if (left[0] > 0 && d.isOk() && d.value().chunks().stream().anyMatch(c -> c.type() == type)) {
                left[0]--;
                return true;
            }
            return false;
        };
    }

    @Test
    void aLostAsconfIsRetransmittedUnchanged() {
        Bed b = new Bed(4, true, 500, lan(), O);
        b.other.dropInbound(dropFirst(ChunkType.ASCONF, 2));
        b.p.connectAt(0);
        b.until(() -> b.t.sent() >= 100, "sent");
        b.now(() -> b.changer.endpoint().addLocalAddress(b.added, b.p.sim.now()));
        b.until(() -> b.local(LocalAddressState.ADDED, b.added), "ADDED after two losses");
        List<AsconfChunk> sent = chunks(b.with(ChunkType.ASCONF, true), AsconfChunk.class);
        assertEquals(3, sent.size(), "sent twice more after two losses: " + sent);
        assertEquals(1, sent.stream().distinct().count(), "the same ASCONF each time: " + sent);
        assertEquals(1, b.peerEvents(PeerAddressState.ADDED, b.added));
        b.finish();
    }

    @Test
    void aLostAsconfAckIsAnsweredFromTheCacheWithoutDoingTheRequestTwice() {
        Bed b = new Bed(5, true, 500, lan(), O);
        b.changer.dropInbound(dropFirst(ChunkType.ASCONF_ACK, 1));
        b.p.connectAt(0);
        b.until(() -> b.t.sent() >= 100, "sent");
        b.now(() -> b.changer.endpoint().addLocalAddress(b.added, b.p.sim.now()));
        b.until(() -> b.local(LocalAddressState.ADDED, b.added), "ADDED after the lost ASCONF-ACK");
        assertEquals(
                2, chunks(b.with(ChunkType.ASCONF, true), AsconfChunk.class).size());
        List<AsconfAckChunk> acks = chunks(b.with(ChunkType.ASCONF_ACK, false), AsconfAckChunk.class);
        assertEquals(2, acks.size());
        assertEquals(acks.get(0), acks.get(1), "the cached ASCONF-ACK again (RFC 5061 5.2 E2)");
        assertEquals(1, b.peerEvents(PeerAddressState.ADDED, b.added), "the request was done once");
        b.finish();
    }

    @Test
    void theLastAddressCannotBeRemovedAndWithoutAsconfNothingChanges() {
        Bed b = new Bed(6, true, 200, lan(), O);
        b.p.connectAt(0);
        b.finish();
        assertThrows(IllegalArgumentException.class, () -> b.changer.endpoint().removeLocalAddress(A1, 0));
        SctpOptions plain = SctpOptions.LAN.toBuilder().enable(Extension.AUTH).build();
        Bed c = new Bed(7, true, 200, lan(), plain);
        c.p.connectAt(0);
        c.finish();
        assertFalse(c.changer
                .endpoint()
                .info(c.changerId())
                .orElseThrow()
                .extensions()
                .contains(Extension.ASCONF));
        IllegalStateException e = assertThrows(
                IllegalStateException.class, () -> c.changer.endpoint().setPeerPrimary(c.changerId(), A1, 0));
        assertTrue(e.getMessage().contains("Extension.ASCONF"), e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> SctpOptions.LAN.toBuilder().enable(Extension.ASCONF).build());
    }

    // ------------------------------------------------------------------ forged input

    /** What the forging needs: Z's tag, the association key and A's next ASCONF serial. */
    record Forge(Bed b, int zTag, byte[] key, int firstSerial) {
        /** A packet A1>Z: AUTH (when {@code signed}) then {@code c}, handed to Z. */
        void toZ(boolean signed, Chunk c, InetAddress from) {
            toZ(signed, c, from, zTag);
        }

        /** As above with the Verification Tag {@code tag}. */
        void toZ(boolean signed, Chunk c, InetAddress from, int tag) {
            AuthChunk auth = signed ? new AuthChunk(0, 3, Bytes.of(new byte[32])) : null;
            ByteBuffer raw = AuthSimulatedTest.forge(tag, auth, signed ? key : null, c);
            b.p.sim.at(b.p.sim.now(), () -> {
                // the monitor learns what Z received, as for a packet off a link (an answer to an
                // out-of-the-blue packet reflects its tag, RFC 9260 section 8.4)
                b.p.sim.monitor().onDeliver(org.sctpj.sim.Side.Z, raw.duplicate(), from, Z1);
                b.p.z.handleInput(raw, from, Z1, b.p.sim.now());
            });
            b.p.sim.run(b.p.sim.now() + 200_000_000L);
        }

        List<AsconfAckChunk> acks() {
            return chunks(b.seen.stream().filter(s -> !s.aToZ()).toList(), AsconfAckChunk.class);
        }
    }

    /** A pair (A with {@code paths} addresses) up and quiet, A's ASCONF-ACKs dropped (A sent no ASCONF). */
    static Forge forge(long seed, int paths) {
        Bed b = new Bed(seed, true, 50, lan(), O);
        if (paths == 2) {
            b.p.a.endpoint().addLocalAddress(A2, 0); // announced in the INIT: two paths at Z from the start
        }
        b.p.a.dropInbound(dropFirst(ChunkType.ASCONF_ACK, Integer.MAX_VALUE));
        b.p.connectAt(0);
        b.finish();
        int zTag = b.seen.stream()
                .filter(Seen::aToZ)
                .reduce((x, y) -> y)
                .orElseThrow()
                .packet()
                .verificationTag();
        List<SctpPacket> aToZ =
                b.seen.stream().filter(Seen::aToZ).map(Seen::packet).toList();
        List<SctpPacket> zToA =
                b.seen.stream().filter(s -> !s.aToZ()).map(Seen::packet).toList();
        byte[] key = KeyVector.associationKey(
                new byte[0],
                AuthSimulatedTest.vectorOf(aToZ, ChunkType.INIT).bytes(),
                AuthSimulatedTest.vectorOf(zToA, ChunkType.INIT_ACK).bytes());
        return new Forge(b, zTag, key, initialTsn(b, true));
    }

    static AsconfChunk add(int serial, InetAddress a) {
        return AsconfChunk.of(serial, AddressParameter.of(A1), AddIpAddressParameter.of(7, a));
    }

    @Test
    void anAsconfWithoutAuthIsDiscardedAndTheSameSignedOneIsTaken() {
        Forge f = forge(8, 1);
        InetAddress a3 = CorePair.ip(10, 0, 3, 1);
        f.toZ(false, add(f.firstSerial(), a3), A1);
        assertEquals(List.of(), f.acks(), "an unauthenticated ASCONF was answered");
        assertEquals(0, f.b().peerEvents(PeerAddressState.ADDED, a3));
        f.toZ(true, add(f.firstSerial(), a3), A1);
        assertEquals(1, f.acks().size(), "the authenticated one is answered");
        assertEquals(List.of(), f.acks().get(0).parameters(), "success, nothing to report");
        assertEquals(1, f.b().peerEvents(PeerAddressState.ADDED, a3));
    }

    @Test
    void replayedAndOldSerialsAreAnsweredFromTheCacheOrIgnored() {
        Forge f = forge(9, 1);
        InetAddress a3 = CorePair.ip(10, 0, 3, 1);
        InetAddress a4 = CorePair.ip(10, 0, 4, 1);
        int s = f.firstSerial();
        f.toZ(true, add(s + 1, a3), A1); // beyond the next serial: discarded (RFC 5061 5.2 E3)
        assertEquals(List.of(), f.acks());
        f.toZ(true, add(s, a3), A1);
        f.toZ(true, add(s, a3), A1); // replayed: the cached answer, the request not done again
        assertEquals(2, f.acks().size());
        assertEquals(f.acks().get(0), f.acks().get(1));
        assertEquals(1, f.b().peerEvents(PeerAddressState.ADDED, a3));
        f.toZ(true, add(s + 1, a4), A1);
        f.toZ(true, add(s, a4), A1); // older than the newest: no cached answer for it any more, ignored
        assertEquals(3, f.acks().size());
        assertEquals(s + 1, f.acks().get(2).serialNumber());
        assertEquals(0, f.b().peerEvents(PeerAddressState.ADDED, a3) - 1);
    }

    @Test
    void anAsconfFromAnAddressZDoesNotKnowFindsItsAssociationByItsAddressParameter() throws Exception {
        // RFC 5061 section 5.2: A, moved to A3, asks from A3 to add "the packet's source" (the
        // wildcard); Z knows no association of A3, so the Address Parameter (A1) finds it. Hostile
        // variants first: the same ASCONF without AUTH, and signed but with another Verification
        // Tag (an attacker naming A1 cannot steer a packet into A1's association), change nothing.
        Forge f = forge(15, 1);
        InetAddress a3 = CorePair.ip(10, 0, 3, 1);
        f.b().p.net.addPath(a3, Z1).both(lan()); // so that Z's answer to A3 travels (and is seen)
        AsconfChunk c = AsconfChunk.of(
                f.firstSerial(),
                AddressParameter.of(A1),
                AddIpAddressParameter.of(7, java.net.InetAddress.getByName("0.0.0.0")));
        f.toZ(false, c, a3);
        f.toZ(true, c, a3, f.zTag() ^ 0x5a5a5a5a);
        assertEquals(List.of(), f.acks(), "answered without AUTH, or with another association's tag");
        assertEquals(0, f.b().peerEvents(PeerAddressState.ADDED, a3));
        f.toZ(true, c, a3);
        assertEquals(1, f.acks().size(), "the authenticated one from A3 is answered");
        assertEquals(List.of(), f.acks().get(0).parameters(), "success, nothing to report");
        assertEquals(1, f.b().peerEvents(PeerAddressState.ADDED, a3));
        assertTrue(addresses(f.b().p.z.endpoint(), f.b().otherId()).contains(a3));
    }

    @Test
    void deletingTheLastAddressIsRefusedWithItsCause() {
        Forge f = forge(10, 1);
        DeleteIpAddressParameter del = DeleteIpAddressParameter.of(3, A1);
        f.toZ(true, AsconfChunk.of(f.firstSerial(), AddressParameter.of(A1), del), A1);
        AsconfAckChunk ack = f.acks().get(0);
        assertEquals(1, ack.parameters().size(), ack.toString());
        ErrorCauseIndicationParameter e =
                (ErrorCauseIndicationParameter) ack.parameters().get(0);
        assertEquals(3, e.correlationId());
        assertTrue(e.causes().get(0) instanceof DeleteLastRemainingAddressCause, e.toString());
        assertEquals(List.of(A1), addresses(f.b().p.z.endpoint(), f.b().otherId()));
    }

    @Test
    void deletingTheSourceAddressIsRefusedAndLaterSuccessesAreIndicated() {
        Forge f = forge(11, 2);
        InetAddress a3 = CorePair.ip(10, 0, 3, 1);
        // Delete A1 from A1 (refused), then add A3: after a failure the success is said explicitly.
        f.toZ(
                true,
                AsconfChunk.of(
                        f.firstSerial(),
                        AddressParameter.of(A1),
                        DeleteIpAddressParameter.of(3, A1),
                        AddIpAddressParameter.of(4, a3)),
                A1);
        List<Parameter> ps = f.acks().get(0).parameters();
        assertEquals(2, ps.size(), ps.toString());
        List<ErrorCause> causes = ((ErrorCauseIndicationParameter) ps.get(0)).causes();
        assertTrue(causes.get(0) instanceof DeleteSourceAddressCause, causes.toString());
        assertEquals(new SuccessIndicationParameter(4), ps.get(1));
        assertEquals(1, f.b().peerEvents(PeerAddressState.ADDED, a3));
        assertTrue(addresses(f.b().p.z.endpoint(), f.b().otherId()).contains(A1));
    }

    @Test
    void aKindTheUserDoesNotAcceptIsRefusedWithNoAuthorization() {
        Forge f = forge(12, 1);
        f.b().p
                .z
                .endpoint()
                .setAcceptedAddressRequests(f.b().otherId(), java.util.EnumSet.of(AddressReconfiguration.Kind.DELETE));
        InetAddress a3 = CorePair.ip(10, 0, 3, 1);
        f.toZ(true, add(f.firstSerial(), a3), A1);
        ErrorCauseIndicationParameter e =
                (ErrorCauseIndicationParameter) f.acks().get(0).parameters().get(0);
        assertTrue(e.causes().get(0) instanceof NoAuthorizationCause, e.toString());
        assertEquals(0, f.b().peerEvents(PeerAddressState.ADDED, a3));
    }

    @Test
    void aHugeUnknownRequestIsRefusedWithinBoundsAndTheAssociationLives() {
        Forge f = forge(14, 1);
        InetAddress a3 = CorePair.ip(10, 0, 3, 1);
        // Skip-and-report parameters (RFC 9260 3.2.1, upper bits 11): each would be echoed back.
        org.sctpj.stack.wire.param.UnknownParameter huge =
                new org.sctpj.stack.wire.param.UnknownParameter(0xC0FF, Bytes.of(new byte[30_000]));
        f.toZ(
                true,
                new AsconfChunk(
                        f.firstSerial(), AddressParameter.of(A1), List.of(huge, huge, AddIpAddressParameter.of(9, a3))),
                A1);
        assertEquals(1, f.acks().size(), "answered");
        AsconfAckChunk ack = f.acks().get(0);
        assertTrue(ack.encodedLength() < 1500, "the answer fits a packet: " + ack.encodedLength());
        // The first echo would not fit: refused as a resource shortage, and nothing after it done.
        assertEquals(1, ack.parameters().size(), ack.toString());
        assertTrue(
                ((ErrorCauseIndicationParameter) ack.parameters().get(0))
                                .causes()
                                .get(0)
                        instanceof org.sctpj.stack.wire.cause.ResourceShortageCause,
                ack.toString());
        assertEquals(0, f.b().peerEvents(PeerAddressState.ADDED, a3));
        assertTrue(f.b().p.z.endpoint().info(f.b().otherId()).isPresent(), "the association lives");
    }
}
