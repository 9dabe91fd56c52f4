package org.sctpj.stack.pathmgmt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.stack.assoc.AssocFixture.PEER;
import static org.sctpj.stack.assoc.AssocFixture.PEER2;
import static org.sctpj.stack.assoc.AssocFixture.PEER_TAG;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.PeerAddressState;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.assoc.AssocFixture;
import org.sctpj.stack.assoc.TimerKind;
import org.sctpj.stack.path.PathStatus;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.chunk.HeartbeatAckChunk;
import org.sctpj.stack.wire.chunk.HeartbeatChunk;
import org.sctpj.stack.wire.param.HeartbeatInfoParameter;

/** Path heartbeat (RFC 9260 section 8.3) and path confirmation (section 5.4), driven by hand. */
class HeartbeatHandlerTest {
    static final SctpOptions O = SctpOptions.WAN;
    static final long RTO = O.rtoInitial().toNanos();

    @Test
    void anUnconfirmedAddressIsProbedAtOnceAndItsAnswerConfirmsIt() {
        AssocFixture f = AssocFixture.established(O, PEER2);
        assertEquals(PathStatus.UNCONFIRMED, f.tcb().paths.get(1).status());
        assertEquals(f.now, f.a.nextTimeout(), "the probe is due at once");
        f.advance(0);
        List<AssocFixture.Out> out = f.sent();
        assertEquals(1, out.size(), out.toString());
        assertEquals(PEER2, out.get(0).destination());
        assertEquals(PEER_TAG, out.get(0).vtag());
        HeartbeatChunk hb =
                assertInstanceOf(HeartbeatChunk.class, out.get(0).chunks().get(0));
        PathFixtures.answer(f, PEER2, hb);
        assertEquals(PathStatus.ACTIVE, f.tcb().paths.get(1).status());
        assertEquals(
                List.of(new SctpEvent.PeerAddressChange(f.a.id(), PEER2, PeerAddressState.CONFIRMED)),
                f.eventsOf(SctpEvent.PeerAddressChange.class));
    }

    @Test
    void aForgedAnswerConfirmsNothing() {
        AssocFixture f = AssocFixture.established(O, PEER2);
        f.advance(0);
        HeartbeatChunk hb = PathFixtures.heartbeatsTo(f.sent(), PEER2).get(0);
        byte[] info = ((HeartbeatInfoParameter) hb.parameters().get(0)).info().toArray();
        info[5] ^= 1; // the nonce
        f.deliverFrom(
                PEER2, f.tcb().localTag, new HeartbeatAckChunk(List.of(new HeartbeatInfoParameter(Bytes.of(info)))));
        assertEquals(PathStatus.UNCONFIRMED, f.tcb().paths.get(1).status());
        assertTrue(f.events.isEmpty(), f.events.toString());
    }

    @Test
    void theHeartbeatTimerCountsInEstablishedOnly() {
        AssocFixture f = AssocFixture.cookieEchoed(O, PEER2);
        assertEquals(f.now, f.tcb().timers.deadline(TimerKind.HEARTBEAT, 1), "armed for PEER2 ...");
        assertEquals(f.now + RTO, f.a.nextTimeout(), "... but only T1-cookie counts in COOKIE-ECHOED");
        f.deliver(f.tcb().localTag, new org.sctpj.stack.wire.chunk.CookieAckChunk());
        assertEquals(f.now, f.a.nextTimeout(), "in ESTABLISHED the probe is due");
    }

    @Test
    void aPeersHeartbeatIsEchoedToItsSourceExceptDuringSetup() {
        HeartbeatChunk hb = new HeartbeatChunk(List.of(new HeartbeatInfoParameter(Bytes.fromHex("0102030405"))));
        AssocFixture up = AssocFixture.established(O);
        up.deliver(up.tcb().localTag, hb);
        AssocFixture.Out out = up.one();
        assertEquals(PEER, out.destination());
        assertEquals(new HeartbeatAckChunk(hb.parameters()), out.chunks().get(0));

        AssocFixture setup = AssocFixture.cookieEchoed(O);
        setup.deliver(setup.tcb().localTag, hb);
        assertEquals(List.of(), setup.sent());
    }

    @Test
    void anIdleConfirmedPathIsProbedAfterTheIntervalWithJitter() {
        AssocFixture f = AssocFixture.established(O);
        long due = f.tcb().timers.deadline(TimerKind.HEARTBEAT, 0) - f.now;
        long interval = O.heartbeatInterval().toNanos();
        assertTrue(due >= interval + RTO / 2 && due <= interval + RTO + RTO / 2, "HB.interval + RTO +/- RTO/2: " + due);
        f.advance(due - 1);
        assertEquals(List.of(), PathFixtures.heartbeatsTo(f.sent(), PEER));
        f.advance(1);
        assertEquals(1, PathFixtures.heartbeatsTo(f.sent(), PEER).size());
        assertEquals(f.now + RTO, f.tcb().timers.deadline(TimerKind.HEARTBEAT, 0), "now its timeout");
    }
}
