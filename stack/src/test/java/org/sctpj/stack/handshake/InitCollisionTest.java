package org.sctpj.stack.handshake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.stack.assoc.AssocFixture.PEER;
import static org.sctpj.stack.assoc.AssocFixture.PEER_TAG;
import static org.sctpj.stack.assoc.AssocFixture.STRANGER;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.assoc.AssocFixture;
import org.sctpj.stack.assoc.Association.State;
import org.sctpj.stack.assoc.Tcb;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.cause.CookieReceivedWhileShuttingDownCause;
import org.sctpj.stack.wire.cause.RestartWithNewAddressesCause;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.CookieAckChunk;
import org.sctpj.stack.wire.chunk.CookieEchoChunk;
import org.sctpj.stack.wire.chunk.ErrorChunk;
import org.sctpj.stack.wire.chunk.InitAckChunk;
import org.sctpj.stack.wire.chunk.InitChunk;
import org.sctpj.stack.wire.chunk.ShutdownAckChunk;
import org.sctpj.stack.wire.param.AddressParameter;
import org.sctpj.stack.wire.param.Ipv4AddressParameter;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.StateCookieParameter;

/**
 * Each row of {@link InitCollision}'s table (RFC 9260 sections 5.2.1 to 5.2.5) driven by hand: an
 * association is brought into the row's state, the row's INIT, INIT ACK or COOKIE ECHO is fed in,
 * and the exact answer (chunk and Verification Tag), the state and the tags are checked.
 */
class InitCollisionTest {
    static final SctpOptions O = SctpOptions.WAN;
    static final int NEW_PEER_TAG = 0x55667788;
    static final int NEW_LOCAL_TAG = 0x0badcafe;

    static InitChunk init(int tag, InetAddress... listed) {
        List<Parameter> params = new ArrayList<>();
        for (InetAddress a : listed) {
            params.add(new Ipv4AddressParameter((Inet4Address) a));
        }
        return new InitChunk(tag, 65536, 10, 10, 1000, params);
    }

    /** The state and tags before, to check that they did not change. */
    record Snapshot(State state, int localTag, int peerTag) {
        static Snapshot of(Tcb t) {
            return new Snapshot(t.state, t.localTag, t.peerTag);
        }
    }

    /** The one chunk of the one packet sent, checked for type and Verification Tag. */
    static <T extends Chunk> T answer(AssocFixture f, Class<T> type, int vtag) {
        AssocFixture.Out out = f.one();
        assertEquals(vtag, out.vtag(), "Verification Tag of " + out.chunks());
        assertEquals(1, out.chunks().size(), "alone: " + out.chunks());
        return assertInstanceOf(type, out.chunks().get(0));
    }

    static StateCookie openCookie(AssocFixture f, InitAckChunk ack) {
        for (Parameter p : ack.parameters()) {
            if (p instanceof StateCookieParameter c) {
                return assertInstanceOf(StateCookie.Valid.class, StateCookie.open(c.cookie(), f.secrets, f.now))
                        .cookie();
            }
        }
        throw new AssertionError("INIT ACK without a cookie");
    }

    // ------------------------------------------------------------------ INIT

    @Test
    void initInCookieWaitGetsOurOriginalTagAndTsnWithoutTieTags() {
        AssocFixture f = AssocFixture.cookieWait(O);
        Snapshot before = Snapshot.of(f.tcb());
        f.deliver(0, init(PEER_TAG, STRANGER)); // new addresses are not asked in COOKIE-WAIT
        InitAckChunk ack = answer(f, InitAckChunk.class, PEER_TAG);
        assertEquals(f.tcb().localTag, ack.initiateTag());
        assertEquals(f.tcb().localInitialTsn, ack.initialTsn());
        StateCookie c = openCookie(f, ack);
        assertEquals(0, c.localTieTag());
        assertEquals(0, c.peerTieTag());
        assertEquals(before, Snapshot.of(f.tcb()));
    }

    @Test
    void initInCookieEchoedGetsOurOriginalTagAndTsnWithTheCurrentTagsAsTieTags() {
        AssocFixture f = AssocFixture.cookieEchoed(O);
        Snapshot before = Snapshot.of(f.tcb());
        f.deliver(0, init(NEW_PEER_TAG));
        InitAckChunk ack = answer(f, InitAckChunk.class, NEW_PEER_TAG);
        assertEquals(f.tcb().localTag, ack.initiateTag());
        assertEquals(f.tcb().localInitialTsn, ack.initialTsn());
        StateCookie c = openCookie(f, ack);
        assertEquals(before.localTag(), c.localTieTag());
        assertEquals(PEER_TAG, c.peerTieTag());
        assertEquals(before, Snapshot.of(f.tcb()));
    }

    @Test
    void initWhenUpGetsANewTagWithTheCurrentTagsAsTieTags() {
        for (State s :
                List.of(State.ESTABLISHED, State.SHUTDOWN_PENDING, State.SHUTDOWN_SENT, State.SHUTDOWN_RECEIVED)) {
            AssocFixture f = AssocFixture.in(s, O);
            Snapshot before = Snapshot.of(f.tcb());
            f.deliver(0, init(NEW_PEER_TAG));
            InitAckChunk ack = answer(f, InitAckChunk.class, NEW_PEER_TAG);
            assertNotEquals(before.localTag(), ack.initiateTag(), s + ": a new tag");
            assertNotEquals(f.tcb().localInitialTsn, ack.initialTsn(), s + ": a new TSN");
            StateCookie c = openCookie(f, ack);
            assertEquals(before.localTag(), c.localTieTag(), s.name());
            assertEquals(PEER_TAG, c.peerTieTag(), s.name());
            assertEquals(ack.initiateTag(), c.localTag(), s.name());
            assertEquals(before, Snapshot.of(f.tcb()), s + ": the association is unchanged");
        }
    }

    @Test
    void initInShutdownAckSentGetsTheShutdownAck() {
        AssocFixture f = AssocFixture.shutdownAckSent(O);
        Snapshot before = Snapshot.of(f.tcb());
        f.deliver(0, init(NEW_PEER_TAG));
        answer(f, ShutdownAckChunk.class, PEER_TAG);
        assertEquals(before, Snapshot.of(f.tcb()));
    }

    @Test
    void initBringingNewAddressesIsAbortedInEveryStateButCookieWait() {
        for (State s : State.values()) {
            if (s == State.CLOSED || s == State.COOKIE_WAIT) {
                continue;
            }
            for (boolean fromStranger : new boolean[] {true, false}) {
                AssocFixture f = AssocFixture.in(s, O);
                Snapshot before = Snapshot.of(f.tcb());
                if (fromStranger) {
                    f.deliverFrom(STRANGER, 0, init(NEW_PEER_TAG));
                } else {
                    f.deliver(0, init(NEW_PEER_TAG, STRANGER));
                }
                AbortChunk abort = answer(f, AbortChunk.class, NEW_PEER_TAG);
                RestartWithNewAddressesCause cause = assertInstanceOf(
                        RestartWithNewAddressesCause.class, abort.causes().get(0));
                assertEquals(RestartWithNewAddressesCause.of(List.of(AddressParameter.of(STRANGER))), cause, s.name());
                assertEquals(before, Snapshot.of(f.tcb()), s + ": the association is unchanged");
            }
        }
    }

    // ------------------------------------------------------------------ INIT ACK

    @Test
    void initAckInCookieWaitIsAcceptedAndItsCookieEchoed() {
        AssocFixture f = AssocFixture.cookieWait(O);
        f.deliver(
                f.tcb().localTag,
                new InitAckChunk(
                        PEER_TAG,
                        65536,
                        10,
                        10,
                        AssocFixture.PEER_TSN,
                        List.of(new StateCookieParameter(Bytes.fromHex("c0ffee")))));
        CookieEchoChunk echo = answer(f, CookieEchoChunk.class, PEER_TAG);
        assertEquals(Bytes.fromHex("c0ffee"), echo.cookie());
        assertEquals(State.COOKIE_ECHOED, f.a.state());
        assertEquals(PEER_TAG, f.tcb().peerTag);
    }

    @Test
    void initAckInAnyOtherStateIsDiscarded() {
        for (State s : State.values()) {
            if (s == State.CLOSED || s == State.COOKIE_WAIT) {
                continue;
            }
            AssocFixture f = AssocFixture.in(s, O);
            Snapshot before = Snapshot.of(f.tcb());
            f.deliver(
                    f.tcb().localTag,
                    new InitAckChunk(
                            NEW_PEER_TAG, 65536, 10, 10, 1, List.of(new StateCookieParameter(Bytes.fromHex("aa")))));
            assertEquals(List.of(), f.sent(), s.name());
            assertEquals(before, Snapshot.of(f.tcb()), s.name());
        }
    }

    // ------------------------------------------------------------------ COOKIE ECHO

    @Test
    void caseAPeerRestartTakesTheNewTagsAndSaysRestart() {
        AssocFixture f = AssocFixture.established(O);
        Tcb t = f.tcb();
        int oldLocal = t.localTag;
        f.cookieEcho(PEER, NEW_LOCAL_TAG, f.cookie(NEW_LOCAL_TAG, NEW_PEER_TAG, oldLocal, PEER_TAG));
        answer(f, CookieAckChunk.class, NEW_PEER_TAG);
        assertEquals(new Snapshot(State.ESTABLISHED, NEW_LOCAL_TAG, NEW_PEER_TAG), Snapshot.of(t));
        SctpEvent.AssociationChange up =
                f.eventsOf(SctpEvent.AssociationChange.class).get(0);
        assertEquals(AssociationChangeType.RESTART, up.type());
    }

    @Test
    void caseAInShutdownAckSentGetsShutdownAckAndAnError() {
        AssocFixture f = AssocFixture.shutdownAckSent(O);
        Snapshot before = Snapshot.of(f.tcb());
        f.cookieEcho(PEER, NEW_LOCAL_TAG, f.cookie(NEW_LOCAL_TAG, NEW_PEER_TAG, before.localTag(), PEER_TAG));
        AssocFixture.Out out = f.one();
        assertEquals(PEER_TAG, out.vtag());
        assertEquals(2, out.chunks().size(), out.chunks().toString());
        assertInstanceOf(ShutdownAckChunk.class, out.chunks().get(0));
        ErrorChunk e = assertInstanceOf(ErrorChunk.class, out.chunks().get(1));
        assertInstanceOf(CookieReceivedWhileShuttingDownCause.class, e.causes().get(0));
        assertEquals(before, Snapshot.of(f.tcb()));
    }

    @Test
    void caseARestartWithNewAddressesIsAborted() {
        AssocFixture f = AssocFixture.established(O);
        Snapshot before = Snapshot.of(f.tcb());
        f.cookieEcho(PEER, NEW_LOCAL_TAG, f.cookie(NEW_LOCAL_TAG, NEW_PEER_TAG, before.localTag(), PEER_TAG, STRANGER));
        AbortChunk abort = answer(f, AbortChunk.class, NEW_PEER_TAG);
        assertInstanceOf(RestartWithNewAddressesCause.class, abort.causes().get(0));
        assertEquals(before, Snapshot.of(f.tcb()));
        assertTrue(f.events.isEmpty(), f.events.toString());
    }

    @Test
    void caseBCollisionWhileSettingUpTakesThePeersTagAndComesUp() {
        for (State s : List.of(State.COOKIE_WAIT, State.COOKIE_ECHOED)) {
            AssocFixture f = AssocFixture.in(s, O);
            int local = f.tcb().localTag;
            f.cookieEcho(PEER, local, f.cookie(local, NEW_PEER_TAG, 0, 0));
            answer(f, CookieAckChunk.class, NEW_PEER_TAG);
            assertEquals(new Snapshot(State.ESTABLISHED, local, NEW_PEER_TAG), Snapshot.of(f.tcb()), s.name());
            assertEquals(
                    AssociationChangeType.COMMUNICATION_UP,
                    f.eventsOf(SctpEvent.AssociationChange.class).get(0).type());
            f.advance(10_000_000_000L);
            assertTrue(
                    f.sent().stream().flatMap(o -> o.chunks().stream()).noneMatch(CookieEchoChunk.class::isInstance),
                    s + ": T1 stopped");
        }
    }

    @Test
    void caseBCollisionWhenUpTakesThePeersNewTagWithoutAnotherUpEvent() {
        AssocFixture f = AssocFixture.established(O);
        int local = f.tcb().localTag;
        f.cookieEcho(PEER, local, f.cookie(local, NEW_PEER_TAG, 0, 0));
        answer(f, CookieAckChunk.class, NEW_PEER_TAG);
        assertEquals(new Snapshot(State.ESTABLISHED, local, NEW_PEER_TAG), Snapshot.of(f.tcb()));
        assertTrue(f.eventsOf(SctpEvent.AssociationChange.class).isEmpty(), f.events.toString());
    }

    @Test
    void caseCLateCookieOfAnEarlierAttemptIsDiscarded() {
        for (State s : List.of(State.COOKIE_ECHOED, State.ESTABLISHED)) {
            AssocFixture f = AssocFixture.in(s, O);
            Snapshot before = Snapshot.of(f.tcb());
            f.cookieEcho(PEER, NEW_LOCAL_TAG, f.cookie(NEW_LOCAL_TAG, PEER_TAG, 0, 0));
            assertEquals(List.of(), f.sent(), s.name());
            assertEquals(before, Snapshot.of(f.tcb()), s.name());
        }
    }

    @Test
    void caseDDuplicateCookieCompletesTheSetupOrIsJustAcknowledged() {
        AssocFixture f = AssocFixture.cookieEchoed(O);
        int local = f.tcb().localTag;
        f.cookieEcho(PEER, local, f.cookie(local, PEER_TAG, 0, 0));
        answer(f, CookieAckChunk.class, PEER_TAG);
        assertEquals(new Snapshot(State.ESTABLISHED, local, PEER_TAG), Snapshot.of(f.tcb()));
        assertEquals(1, f.eventsOf(SctpEvent.AssociationChange.class).size());

        f.cookieEcho(PEER, local, f.cookie(local, PEER_TAG, 0, 0)); // once more, now established
        answer(f, CookieAckChunk.class, PEER_TAG);
        assertEquals(new Snapshot(State.ESTABLISHED, local, PEER_TAG), Snapshot.of(f.tcb()));
        assertEquals(1, f.eventsOf(SctpEvent.AssociationChange.class).size(), "no second COMMUNICATION_UP");
    }

    @Test
    void aCookieWithOtherTagsAndForeignTieTagsIsDiscarded() {
        AssocFixture f = AssocFixture.established(O);
        Snapshot before = Snapshot.of(f.tcb());
        f.cookieEcho(PEER, NEW_LOCAL_TAG, f.cookie(NEW_LOCAL_TAG, NEW_PEER_TAG, 0x1234, 0x5678));
        assertEquals(List.of(), f.sent());
        assertEquals(before, Snapshot.of(f.tcb()));
    }

    // ------------------------------------------------------------------ COOKIE ACK

    @Test
    void cookieAckOutsideCookieEchoedIsDiscarded() {
        for (State s : State.values()) {
            if (s == State.CLOSED || s == State.COOKIE_ECHOED) {
                continue;
            }
            AssocFixture f = AssocFixture.in(s, O);
            Snapshot before = Snapshot.of(f.tcb());
            f.deliver(f.tcb().localTag, new CookieAckChunk());
            assertEquals(before, Snapshot.of(f.tcb()), s.name());
            assertTrue(f.eventsOf(SctpEvent.AssociationChange.class).isEmpty(), s.name());
        }
    }

    // ------------------------------------------------------------------ the decisions alone

    @Test
    void theDecisionFunctionsGiveTheTablesRows() {
        assertEquals(InitCollision.Action.INIT_ACK_ORIGINAL_TAGS, InitCollision.forInit(State.COOKIE_WAIT, true));
        assertEquals(
                InitCollision.Action.INIT_ACK_ORIGINAL_TAGS_TIE_TAGS,
                InitCollision.forInit(State.COOKIE_ECHOED, false));
        assertEquals(InitCollision.Action.ABORT_NEW_ADDRESSES, InitCollision.forInit(State.COOKIE_ECHOED, true));
        assertEquals(InitCollision.Action.SHUTDOWN_ACK, InitCollision.forInit(State.SHUTDOWN_ACK_SENT, false));
        assertEquals(
                InitCollision.Action.INIT_ACK_NEW_TAGS_TIE_TAGS, InitCollision.forInit(State.SHUTDOWN_SENT, false));
        // Table 5 of section 5.2.4: our tags 1/2.
        assertEquals(InitCollision.Action.RESTART, cookie(State.ESTABLISHED, 3, 4, 1, 2, false));
        assertEquals(InitCollision.Action.ABORT_NEW_ADDRESSES, cookie(State.ESTABLISHED, 3, 4, 1, 2, true));
        assertEquals(InitCollision.Action.SHUTDOWN_ACK_AND_ERROR, cookie(State.SHUTDOWN_ACK_SENT, 3, 4, 1, 2, true));
        assertEquals(InitCollision.Action.COLLISION, cookie(State.ESTABLISHED, 1, 4, 0, 0, false));
        assertEquals(InitCollision.Action.DISCARD, cookie(State.ESTABLISHED, 3, 2, 0, 0, false));
        assertEquals(InitCollision.Action.DUPLICATE, cookie(State.ESTABLISHED, 1, 2, 7, 8, false));
        assertEquals(InitCollision.Action.DISCARD, cookie(State.ESTABLISHED, 3, 4, 0, 0, false));
        assertEquals(InitCollision.Action.ACCEPT, InitCollision.forInitAck(State.COOKIE_WAIT));
        assertEquals(InitCollision.Action.DISCARD, InitCollision.forInitAck(State.ESTABLISHED));
        assertEquals(InitCollision.Action.ACCEPT, InitCollision.forCookieAck(State.COOKIE_ECHOED));
        assertEquals(InitCollision.Action.DISCARD, InitCollision.forCookieAck(State.ESTABLISHED));
    }

    private static InitCollision.Action cookie(State s, int cl, int cp, int lt, int pt, boolean newAddrs) {
        return InitCollision.forCookieEcho(s, 1, 2, cl, cp, lt, pt, newAddrs);
    }
}
