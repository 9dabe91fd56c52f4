package org.sctpj.stack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.cause.CookieReceivedWhileShuttingDownCause;
import org.sctpj.stack.wire.cause.RestartWithNewAddressesCause;
import org.sctpj.stack.wire.cause.StaleCookieCause;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.CookieAckChunk;
import org.sctpj.stack.wire.chunk.CookieEchoChunk;
import org.sctpj.stack.wire.chunk.ErrorChunk;
import org.sctpj.stack.wire.chunk.HeartbeatChunk;
import org.sctpj.stack.wire.chunk.InitAckChunk;
import org.sctpj.stack.wire.chunk.InitChunk;
import org.sctpj.stack.wire.chunk.ShutdownAckChunk;
import org.sctpj.stack.wire.chunk.ShutdownChunk;
import org.sctpj.stack.wire.param.AddressParameter;
import org.sctpj.stack.wire.param.CookiePreservativeParameter;
import org.sctpj.stack.wire.param.Ipv4AddressParameter;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.StateCookieParameter;

/**
 * COOKIE ECHO and restart handling against an existing association (RFC 9260 sections 5.1.5, 5.2.1,
 * 5.2.2, 5.2.4): what a cookie binds (tags, ports, the INIT's addresses, its lifetime), replays
 * from other addresses, stale cookies of a live association, and restarts that bring new
 * addresses.
 */
class CookieEchoTest {
    static final int PEER_TAG = 0x11223344;
    static final int NEW_PEER_TAG = 0x55667788;
    /** A second address of the peer, listed in its INIT. */
    static final InetAddress REMOTE2 = Peer.ip(198, 51, 100, 2);
    /** An address the peer never announced. */
    static final InetAddress STRANGER = Peer.ip(203, 0, 113, 9);

    static InitChunk init(int tag, InetAddress... listed) {
        List<Parameter> params = new java.util.ArrayList<>();
        for (InetAddress a : listed) {
            params.add(new Ipv4AddressParameter((Inet4Address) a));
        }
        return new InitChunk(tag, 65536, 10, 10, 1000, params);
    }

    static Bytes cookieOf(InitAckChunk ack) {
        return EndpointSecurityTest.cookieOf(ack);
    }

    static Peer listening(SctpOptions o) {
        return EndpointSecurityTest.listening(o);
    }

    /** INIT from REMOTE with the given tag and listed addresses; returns the INIT ACK. */
    static InitAckChunk initAck(Peer p, int tag, InetAddress... listed) {
        p.deliver(0, init(tag, listed));
        List<SctpPacket> out = p.sent();
        assertEquals(1, out.size(), "one answer to the INIT: " + out);
        assertEquals(tag, out.get(0).verificationTag());
        return assertInstanceOf(InitAckChunk.class, out.get(0).chunks().get(0));
    }

    /** An association with the peer at REMOTE (and REMOTE2 when listed); returns its INIT ACK. */
    static InitAckChunk established(Peer p, InetAddress... listed) {
        InitAckChunk ack = initAck(p, PEER_TAG, listed);
        p.deliver(ack.initiateTag(), new CookieEchoChunk(cookieOf(ack)));
        List<SctpPacket> out = p.sent();
        assertInstanceOf(CookieAckChunk.class, out.get(0).chunks().get(0));
        assertEquals(1, p.ep.associations().size());
        return ack;
    }

    static AssociationInfo info(Peer p) {
        AssociationId id = p.ep.associations().get(0);
        return p.ep.info(id).orElseThrow();
    }

    static long count(Peer p, AssociationChangeType type) {
        return p.events.stream()
                .filter(e -> e instanceof SctpEvent.AssociationChange c && c.type() == type)
                .count();
    }

    static boolean has(SctpPacket pkt, Class<? extends Chunk> type) {
        return pkt.chunks().stream().anyMatch(type::isInstance);
    }

    // ------------------------------------------------------------------ defect 1: replayed cookies

    @Test
    void cookieReplayedFromAThousandOtherSourcesMakesNoAssociation() {
        Peer p = listening(SctpOptions.DEFAULTS);
        InitAckChunk ack = established(p, REMOTE2);
        AssociationInfo before = info(p);
        int replays = Integer.getInteger("sctpj.cookiereplays", 1000);
        long heapBefore = EndpointSecurityTest.usedHeapAfterGc();
        for (int i = 0; i < replays; i++) {
            InetAddress spoofed = Peer.ip(10, (i >> 16) & 0xff, (i >> 8) & 0xff, i & 0xff);
            p.deliverFrom(spoofed, ack.initiateTag(), new CookieEchoChunk(cookieOf(ack)));
            assertEquals(List.of(), p.sent(), "replay from " + spoofed + " is not answered");
        }
        long heapAfter = EndpointSecurityTest.usedHeapAfterGc();
        System.out.printf(
                "%d replays of one cookie from other sources: %d associations, heap after GC %d KiB before, %d KiB"
                        + " after%n",
                replays, p.ep.associations().size(), heapBefore / 1024, heapAfter / 1024);
        assertEquals(1, p.ep.associations().size(), "still the one association");
        AssociationInfo after = info(p);
        assertEquals(Peer.REMOTE, after.primary(), "the primary did not move");
        assertEquals(before.paths().size(), after.paths().size(), "no path was added");
        assertEquals(1, count(p, AssociationChangeType.COMMUNICATION_UP));
        assertEquals(replays, p.ep.stats().cookiesFromUnlistedAddress());
        assertTrue(heapAfter - heapBefore < 8L << 20, "heap grew by " + (heapAfter - heapBefore) + " bytes");
    }

    @Test
    void cookieFromAnAddressTheInitDidNotCarryIsDiscarded() {
        Peer p = listening(SctpOptions.DEFAULTS);
        InitAckChunk ack = initAck(p, PEER_TAG, REMOTE2);
        p.deliverFrom(STRANGER, ack.initiateTag(), new CookieEchoChunk(cookieOf(ack)));
        assertEquals(List.of(), p.sent());
        assertTrue(p.ep.associations().isEmpty(), "no association towards an address the INIT did not carry");
        assertEquals(1, p.ep.stats().cookiesFromUnlistedAddress());
        // The same cookie from the INIT's source still works.
        p.deliver(ack.initiateTag(), new CookieEchoChunk(cookieOf(ack)));
        assertEquals(1, p.ep.associations().size());
        assertEquals(Peer.REMOTE, info(p).primary());
    }

    @Test
    void cookieEchoFromAListedAddressLeavesTheInitSourcePrimary() {
        Peer p = listening(SctpOptions.DEFAULTS);
        InitAckChunk ack = initAck(p, PEER_TAG, REMOTE2);
        p.deliverFrom(REMOTE2, ack.initiateTag(), new CookieEchoChunk(cookieOf(ack)));
        List<Peer.Out> out = p.sentWithDestinations();
        assertEquals(1, p.ep.associations().size());
        AssociationInfo a = info(p);
        assertEquals(Peer.REMOTE, a.primary(), "the INIT's source (where the INIT ACK went) is primary");
        AssociationInfo.PathInfo second = a.paths().stream()
                .filter(x -> x.address().equals(REMOTE2))
                .findFirst()
                .orElseThrow();
        assertEquals("UNCONFIRMED", second.status(), "the COOKIE ECHO's source is not confirmed by it");
        // RFC 9260 section 5.4: a COOKIE ACK to an unconfirmed address travels with a HEARTBEAT.
        SctpPacket first = out.get(0).packet();
        assertEquals(REMOTE2, out.get(0).destination());
        assertEquals(PEER_TAG, first.verificationTag());
        assertInstanceOf(CookieAckChunk.class, first.chunks().get(0));
        assertTrue(has(first, HeartbeatChunk.class), "COOKIE ACK bundled with a HEARTBEAT: " + first.chunks());
    }

    @Test
    void cookieReplayedFromAnAddressOfTheAssociationIsARetransmission() {
        Peer p = listening(SctpOptions.DEFAULTS);
        InitAckChunk ack = established(p, REMOTE2);
        p.deliverFrom(REMOTE2, ack.initiateTag(), new CookieEchoChunk(cookieOf(ack)));
        List<SctpPacket> out = p.sent();
        assertEquals(1, out.size(), "one answer: " + out);
        assertEquals(PEER_TAG, out.get(0).verificationTag());
        assertInstanceOf(CookieAckChunk.class, out.get(0).chunks().get(0));
        assertEquals(1, p.ep.associations().size(), "case D: no second association");
        assertEquals(1, count(p, AssociationChangeType.COMMUNICATION_UP));
        assertEquals(Peer.REMOTE, info(p).primary());
    }

    @Test
    void afterTheAssociationIsGoneItsCookieIsNewAgain() {
        Peer p = listening(SctpOptions.DEFAULTS);
        InitAckChunk ack = established(p);
        p.deliver(ack.initiateTag(), AbortChunk.of(false));
        assertTrue(p.ep.associations().isEmpty());
        p.sent();
        // The tag index forgot the closed association: within its life the cookie is handled as
        // any cookie without an association (RFC 9260 section 5.1.5), not dropped by the old one.
        p.deliver(ack.initiateTag(), new CookieEchoChunk(cookieOf(ack)));
        List<SctpPacket> out = p.sent();
        assertInstanceOf(CookieAckChunk.class, out.get(0).chunks().get(0));
        assertEquals(1, p.ep.associations().size());
    }

    // ------------------------------------------------------------------ defect 5: stale cookies

    static final SctpOptions SHORT_COOKIE = SctpOptions.DEFAULTS.toBuilder()
            .validCookieLife(Duration.ofSeconds(1))
            .build();

    @Test
    void expiredCookieOfTheEstablishedAssociationGetsACookieAck() {
        Peer p = listening(SHORT_COOKIE);
        InitAckChunk ack = established(p);
        p.now += Duration.ofSeconds(2).toNanos();
        p.deliver(ack.initiateTag(), new CookieEchoChunk(cookieOf(ack)));
        List<SctpPacket> out = p.sent();
        assertEquals(1, out.size(), "one answer: " + out);
        assertEquals(PEER_TAG, out.get(0).verificationTag());
        assertInstanceOf(CookieAckChunk.class, out.get(0).chunks().get(0), "5.2.4 step 3: valid, case D");
        assertEquals(0, p.ep.stats().staleCookies());
        assertEquals(1, p.ep.associations().size());
    }

    @Test
    void expiredRestartCookieGetsAStaleCookieErrorWithThePeersTag() {
        Peer p = listening(SHORT_COOKIE);
        established(p);
        AssociationInfo before = info(p);
        // The peer restarts: a new INIT from the same address, answered with tie-tags.
        InitAckChunk restartAck = initAck(p, NEW_PEER_TAG);
        p.now += Duration.ofSeconds(2).toNanos();
        p.deliver(restartAck.initiateTag(), new CookieEchoChunk(cookieOf(restartAck)));
        List<SctpPacket> out = p.sent();
        assertEquals(1, out.size(), "one answer: " + out);
        assertEquals(
                NEW_PEER_TAG,
                out.get(0).verificationTag(),
                "the ERROR carries the tag of the peer that sent the cookie, or the peer drops it");
        ErrorChunk err = assertInstanceOf(ErrorChunk.class, out.get(0).chunks().get(0));
        assertInstanceOf(StaleCookieCause.class, err.causes().get(0));
        assertEquals(0, count(p, AssociationChangeType.RESTART));
        assertEquals(before.primary(), info(p).primary());
        assertEquals(1, p.ep.stats().staleCookies());
    }

    /** Our endpoint as the client, in COOKIE-ECHOED with the peer PEER_TAG; returns our INIT. */
    static InitChunk cookieEchoed(Peer p) {
        p.ep.connect(List.of(Peer.REMOTE), Peer.REMOTE_PORT, p.now);
        InitChunk ours =
                assertInstanceOf(InitChunk.class, p.sent().get(0).chunks().get(0));
        p.deliver(
                ours.initiateTag(),
                new InitAckChunk(
                        PEER_TAG, 65536, 10, 10, 1, List.of(new StateCookieParameter(Bytes.of(new byte[] {1, 2, 3, 4
                        })))));
        assertInstanceOf(CookieEchoChunk.class, p.sent().get(0).chunks().get(0));
        return ours;
    }

    @Test
    void staleCookieErrorAsksForNoMoreThanOneSecondBeyondTheRoundTrip() {
        Peer p = new Peer(SctpOptions.DEFAULTS, 5);
        InitChunk ours = cookieEchoed(p);
        p.now += Duration.ofMillis(200).toNanos();
        // The cookie arrived 30 s late (a peer with a short cookie life, a long delay).
        p.deliver(ours.initiateTag(), new ErrorChunk(List.of(new StaleCookieCause(30_000_000))));
        List<SctpPacket> out = p.sent();
        InitChunk again = assertInstanceOf(InitChunk.class, out.get(0).chunks().get(0), "a new INIT: " + out);
        long increment = again.parameters().stream()
                .filter(x -> x instanceof CookiePreservativeParameter)
                .mapToLong(x -> Integer.toUnsignedLong(((CookiePreservativeParameter) x).lifeSpanIncrementMillis()))
                .findFirst()
                .orElseThrow();
        // RFC 9260 section 5.2.6: based on the 200 ms round trip, at most 1 s more.
        assertTrue(increment >= 200 && increment <= 1200, "Cookie Preservative of " + increment + " ms");
    }

    // ------------------------------------------------------------------ defect 9: new addresses

    static void assertRefusedWithNewAddresses(SctpPacket pkt, int tag, InetAddress... added) {
        assertEquals(tag, pkt.verificationTag(), "ABORT tagged with the INIT's Initiate Tag");
        AbortChunk abort = assertInstanceOf(AbortChunk.class, pkt.chunks().get(0));
        assertFalse(abort.tBit());
        RestartWithNewAddressesCause cause = assertInstanceOf(
                RestartWithNewAddressesCause.class, abort.causes().get(0));
        List<InetAddress> listed = cause.decodeAddresses().value().stream()
                .map(x -> ((AddressParameter) x).address())
                .toList();
        assertEquals(List.of(added), listed);
    }

    @Test
    void initThatAddsAnAddressDoesNotRestartTheAssociation() {
        Peer p = listening(SctpOptions.DEFAULTS);
        established(p);
        p.deliver(0, init(NEW_PEER_TAG, STRANGER));
        List<SctpPacket> out = p.sent();
        assertEquals(1, out.size(), "one answer: " + out);
        assertRefusedWithNewAddresses(out.get(0), NEW_PEER_TAG, STRANGER);
        assertEquals("ESTABLISHED", info(p).state());
        assertEquals(0, count(p, AssociationChangeType.COMMUNICATION_LOST));
        // A restart without new addresses is still answered with an INIT ACK.
        initAck(p, NEW_PEER_TAG);
    }

    @Test
    void addressesBeyondWhatACookieKeepsAreNotNew() {
        // The peer has 16 addresses (as many as a cookie keeps) and restarts listing one more: the
        // 17th would never become part of any association, so it does not refuse the restart.
        InetAddress[] listed = new InetAddress[15];
        for (int i = 0; i < listed.length; i++) {
            listed[i] = Peer.ip(198, 51, 100, 10 + i);
        }
        Peer p = listening(SctpOptions.DEFAULTS);
        established(p, listed);
        InetAddress[] more = java.util.Arrays.copyOf(listed, 16);
        more[15] = STRANGER;
        initAck(p, NEW_PEER_TAG, more);
        // One of the first 16 that is new is refused.
        more[0] = STRANGER;
        more[15] = listed[0];
        p.deliver(0, init(NEW_PEER_TAG, more));
        List<SctpPacket> out = p.sent();
        assertRefusedWithNewAddresses(out.get(0), NEW_PEER_TAG, STRANGER);
    }

    @Test
    void initFromANewSourceListingAnAddressOfTheAssociationIsRefused() {
        Peer p = listening(SctpOptions.DEFAULTS);
        established(p);
        p.deliverFrom(STRANGER, 0, init(NEW_PEER_TAG, Peer.REMOTE));
        List<Peer.Out> out = p.sentWithDestinations();
        assertEquals(1, out.size(), "one answer: " + out);
        assertEquals(STRANGER, out.get(0).destination());
        assertRefusedWithNewAddresses(out.get(0).packet(), NEW_PEER_TAG, STRANGER);
        assertEquals(1, p.ep.associations().size());
        assertEquals("ESTABLISHED", info(p).state());
    }

    @Test
    void initInCookieEchoedThatAddsAnAddressIsRefused() {
        Peer p = new Peer(SctpOptions.DEFAULTS, 5);
        cookieEchoed(p);
        // RFC 9260 section 5.2.1: in COOKIE-ECHOED, an INIT that adds an address is refused.
        p.deliver(0, init(NEW_PEER_TAG, STRANGER));
        List<SctpPacket> out = p.sent();
        assertEquals(1, out.size(), "one answer: " + out);
        assertRefusedWithNewAddresses(out.get(0), NEW_PEER_TAG, STRANGER);
        assertEquals("COOKIE_ECHOED", info(p).state());
    }

    @Test
    void restartWithoutNewAddressesKeepsTheAssociationReachableByItsNewTag() {
        Peer p = listening(SctpOptions.DEFAULTS);
        InitAckChunk first = established(p, REMOTE2);
        InitAckChunk restartAck = initAck(p, NEW_PEER_TAG, REMOTE2);
        p.deliver(restartAck.initiateTag(), new CookieEchoChunk(cookieOf(restartAck)));
        List<SctpPacket> out = p.sent();
        assertEquals(NEW_PEER_TAG, out.get(0).verificationTag());
        assertInstanceOf(CookieAckChunk.class, out.get(0).chunks().get(0));
        assertEquals(1, count(p, AssociationChangeType.RESTART));
        assertEquals(1, p.ep.associations().size());
        // The restart cookie replayed from the other address is now a retransmission (case D).
        p.deliverFrom(REMOTE2, restartAck.initiateTag(), new CookieEchoChunk(cookieOf(restartAck)));
        out = p.sent();
        assertEquals(1, out.size(), "one answer: " + out);
        assertInstanceOf(CookieAckChunk.class, out.get(0).chunks().get(0));
        assertEquals(NEW_PEER_TAG, out.get(0).verificationTag());
        // The first cookie is now of an earlier incarnation: no table row matches, discarded.
        p.deliver(first.initiateTag(), new CookieEchoChunk(cookieOf(first)));
        assertEquals(List.of(), p.sent());
        assertEquals(1, p.ep.associations().size());
        assertEquals(1, count(p, AssociationChangeType.RESTART));
        assertEquals(1, count(p, AssociationChangeType.COMMUNICATION_UP));
    }

    @Test
    void collisionInCookieWaitTakesThePeersAddressesFromItsInit() {
        // We connect; the peer connects at the same time, our INIT ACK to its INIT (section 5.2.1)
        // comes back in its COOKIE ECHO before any answer to our INIT: case B of section 5.2.4.
        Peer p = new Peer(SctpOptions.DEFAULTS, 5);
        p.ep.connect(List.of(Peer.REMOTE), Peer.REMOTE_PORT, p.now);
        p.sent();
        InitAckChunk ack = initAck(p, PEER_TAG, REMOTE2);
        p.deliver(ack.initiateTag(), new CookieEchoChunk(cookieOf(ack)));
        List<SctpPacket> out = p.sent();
        assertInstanceOf(CookieAckChunk.class, out.get(0).chunks().get(0));
        assertEquals(PEER_TAG, out.get(0).verificationTag());
        AssociationInfo a = info(p);
        assertEquals("ESTABLISHED", a.state());
        assertEquals(Peer.REMOTE, a.primary());
        assertEquals(
                List.of(Peer.REMOTE, REMOTE2),
                a.paths().stream().map(AssociationInfo.PathInfo::address).toList(),
                "the address the peer's INIT listed is a path");
    }

    // ------------------------------------------------------------------ SHUTDOWN-ACK-SENT

    /** The peer shuts down: we answer with SHUTDOWN ACK and are in SHUTDOWN-ACK-SENT. */
    static void peerShutsDown(Peer p, InitAckChunk ack) {
        p.deliver(ack.initiateTag(), new ShutdownChunk(ack.initialTsn() - 1));
        List<SctpPacket> out = p.sent();
        assertTrue(out.stream().anyMatch(x -> has(x, ShutdownAckChunk.class)), "SHUTDOWN ACK: " + out);
        assertEquals("SHUTDOWN_ACK_SENT", info(p).state());
    }

    @Test
    void restartCookieWhileShuttingDownGetsShutdownAckAndAnError() {
        Peer p = listening(SctpOptions.DEFAULTS);
        InitAckChunk ack = established(p);
        InitAckChunk restartAck = initAck(p, NEW_PEER_TAG);
        peerShutsDown(p, ack);
        p.deliver(restartAck.initiateTag(), new CookieEchoChunk(cookieOf(restartAck)));
        List<SctpPacket> out = p.sent();
        assertTrue(out.stream().anyMatch(x -> has(x, ShutdownAckChunk.class)), "SHUTDOWN ACK again: " + out);
        assertTrue(
                out.stream()
                        .flatMap(x -> x.chunks().stream())
                        .anyMatch(c -> c instanceof ErrorChunk e
                                && e.causes().get(0) instanceof CookieReceivedWhileShuttingDownCause),
                "Cookie Received While Shutting Down: " + out);
        assertEquals(0, count(p, AssociationChangeType.RESTART), "RFC 9260 5.2.4 A: no new association");
        assertEquals("SHUTDOWN_ACK_SENT", info(p).state());
    }

    @Test
    void initInShutdownAckSentGetsTheShutdownAckUnlessItAddsAnAddress() {
        Peer p = listening(SctpOptions.DEFAULTS);
        InitAckChunk ack = established(p);
        peerShutsDown(p, ack);
        // Section 9.2: an INIT of the association's addresses (its SHUTDOWN COMPLETE was lost).
        p.deliver(0, init(NEW_PEER_TAG));
        List<SctpPacket> out = p.sent();
        assertEquals(1, out.size(), "one answer: " + out);
        assertInstanceOf(ShutdownAckChunk.class, out.get(0).chunks().get(0));
        assertEquals(PEER_TAG, out.get(0).verificationTag());
        // One that adds an address is refused as in section 5.2.2.
        p.deliver(0, init(NEW_PEER_TAG, STRANGER));
        out = p.sent();
        assertEquals(1, out.size(), "one answer: " + out);
        assertRefusedWithNewAddresses(out.get(0), NEW_PEER_TAG, STRANGER);
        assertEquals("SHUTDOWN_ACK_SENT", info(p).state());
    }
}
