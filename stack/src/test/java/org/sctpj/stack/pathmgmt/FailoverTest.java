package org.sctpj.stack.pathmgmt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.stack.assoc.AssocFixture.PEER;
import static org.sctpj.stack.assoc.AssocFixture.PEER2;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpEvent.PeerAddressState;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.assoc.AssocFixture;
import org.sctpj.stack.assoc.Association.State;
import org.sctpj.stack.assoc.TimerKind;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.path.PathStatus;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.DataChunk;
import org.sctpj.stack.wire.chunk.HeartbeatChunk;

/**
 * Fault management driven by hand (RFC 9260 sections 8.1 and 8.2, SCTP-PF of RFC 7829): error
 * counting per path and per association, Potentially Failed and inactive paths, failover of the
 * data to another path and return to the primary, Primary Path Switchover.
 */
class FailoverTest {
    static final SctpOptions O = SctpOptions.WAN;
    static final long RTO = O.rtoInitial().toNanos();

    static List<PeerAddressState> addressEvents(AssocFixture f, java.net.InetAddress a) {
        List<PeerAddressState> out = new ArrayList<>();
        for (SctpEvent.PeerAddressChange c : f.eventsOf(SctpEvent.PeerAddressChange.class)) {
            if (c.address().equals(a)) {
                out.add(c.state());
            }
        }
        return out;
    }

    static List<AssocFixture.Out> dataPackets(List<AssocFixture.Out> out) {
        List<AssocFixture.Out> d = new ArrayList<>();
        for (AssocFixture.Out o : out) {
            for (Chunk c : o.chunks()) {
                if (c instanceof DataChunk) {
                    d.add(o);
                    break;
                }
            }
        }
        return d;
    }

    /** Runs to the next deadline, answering the HEARTBEATs to PEER and dropping those to PEER2. */
    static void stepAnsweringPeerOnly(AssocFixture f) {
        f.advance(f.a.nextTimeout() - f.now);
        for (HeartbeatChunk hb : PathFixtures.heartbeatsTo(f.sent(), PEER)) {
            PathFixtures.answer(f, PEER, hb);
        }
    }

    @Test
    void unansweredHeartbeatsMakeAPathPotentiallyFailedThenInactive() {
        AssocFixture f = PathFixtures.twoConfirmedPaths(O);
        Path p2 = f.tcb().paths.get(1);
        while (p2.errorCount() == 0) {
            stepAnsweringPeerOnly(f);
        }
        assertEquals(PathStatus.POTENTIALLY_FAILED, p2.status(), "PFMR 0: one error makes it PF");
        assertEquals(List.of(PeerAddressState.POTENTIALLY_FAILED), addressEvents(f, PEER2));
        // Probed at once, then once per RTO without backoff while PF (RFC 7829 section 5.1).
        assertEquals(f.now + RTO, f.tcb().timers.deadline(TimerKind.HEARTBEAT, 1));
        while (p2.status() == PathStatus.POTENTIALLY_FAILED) {
            long before = f.now;
            int errors = p2.errorCount();
            stepAnsweringPeerOnly(f);
            if (p2.errorCount() > errors) {
                assertEquals(before + RTO, f.now, "a PF path's probe times out after one (unbacked) RTO");
            }
        }
        assertEquals(PathStatus.INACTIVE, p2.status());
        assertEquals(O.pathMaxRetrans() + 1, p2.errorCount(), "inactive past Path.Max.Retrans");
        assertEquals(
                List.of(PeerAddressState.POTENTIALLY_FAILED, PeerAddressState.UNREACHABLE), addressEvents(f, PEER2));
        assertEquals(State.ESTABLISHED, f.a.state(), "the answered path keeps the association");
        assertEquals(PathStatus.ACTIVE, f.tcb().paths.get(0).status());
    }

    @Test
    void dataFailsOverWhenThePrimaryTimesOutAndReturnsWhenItIsBack() {
        AssocFixture f = PathFixtures.twoConfirmedPaths(O);
        f.a.send(org.sctpj.stack.SendInfo.of(0, 0), java.nio.ByteBuffer.wrap(new byte[] {1}), f.now);
        List<AssocFixture.Out> first = dataPackets(f.sent());
        assertEquals(PEER, first.get(0).destination(), "new data goes to the primary");
        f.advance(f.tcb().paths.get(0).t3Deadline() - f.now); // T3-rtx of the primary
        assertEquals(PathStatus.POTENTIALLY_FAILED, f.tcb().paths.get(0).status());
        assertEquals(1, f.tcb().associationErrors);
        assertEquals(PEER2, f.tcb().failover.dataPath().address());
        List<AssocFixture.Out> out = f.sent();
        assertEquals(PEER2, dataPackets(out).get(0).destination(), "the retransmission fails over");
        List<HeartbeatChunk> probe = PathFixtures.heartbeatsTo(out, PEER);
        assertEquals(1, probe.size(), "the PF primary is probed at once");
        PathFixtures.answer(f, PEER, probe.get(0));
        assertEquals(PathStatus.ACTIVE, f.tcb().paths.get(0).status());
        assertEquals(0, f.tcb().associationErrors, "an answer clears the association's counter");
        assertEquals(PEER, f.tcb().failover.dataPath().address(), "back to the primary");
        assertEquals(List.of(PeerAddressState.POTENTIALLY_FAILED, PeerAddressState.AVAILABLE), addressEvents(f, PEER));
        assertEquals(PEER, f.a.primaryAddress());
    }

    @Test
    void primaryPathSwitchoverKeepsTheNewPrimary() {
        AssocFixture f = PathFixtures.twoConfirmedPaths(
                O.toBuilder().primarySwitchover(true).build());
        f.sendOne();
        f.advance(f.tcb().paths.get(0).t3Deadline() - f.now);
        assertEquals(PEER2, f.a.primaryAddress());
        assertTrue(addressEvents(f, PEER2).contains(PeerAddressState.MADE_PRIMARY), f.events.toString());
        PathFixtures.answer(f, PEER, PathFixtures.heartbeatsTo(f.sent(), PEER).get(0));
        assertEquals(PathStatus.ACTIVE, f.tcb().paths.get(0).status());
        assertEquals(PEER2, f.a.primaryAddress(), "the switch stays after the old primary recovers");
        assertEquals(PEER2, f.tcb().failover.dataPath().address());
    }

    @Test
    void consecutiveTimeoutsPastAssociationMaxRetransEndTheAssociation() {
        SctpOptions o = O.toBuilder().associationMaxRetrans(3).build();
        AssocFixture f = AssocFixture.established(o);
        f.sendOne();
        while (f.a.state() != State.CLOSED) {
            assertTrue(f.tcb().associationErrors <= 3, "closed as soon as the count passes the limit");
            f.advance(f.a.nextTimeout() - f.now);
            f.sent();
        }
        assertEquals(4, f.tcb().associationErrors);
        List<SctpEvent.AssociationChange> c = f.eventsOf(SctpEvent.AssociationChange.class);
        assertEquals(
                AssociationChangeType.COMMUNICATION_LOST, c.get(c.size() - 1).type());
        assertEquals(
                "peer unreachable: 4 consecutive timeouts", c.get(c.size() - 1).reason());
    }

    @Test
    void anAcknowledgementClearsTheCountersAndBringsThePathBack() {
        AssocFixture f = AssocFixture.established(O);
        int tsn = f.sendOne();
        f.advance(f.tcb().paths.get(0).t3Deadline() - f.now);
        f.sent();
        assertEquals(PathStatus.POTENTIALLY_FAILED, f.tcb().paths.get(0).status());
        assertTrue(f.tcb().associationErrors > 0);
        f.sack(tsn);
        assertEquals(0, f.tcb().associationErrors);
        assertEquals(0, f.tcb().paths.get(0).errorCount());
        assertEquals(PathStatus.ACTIVE, f.tcb().paths.get(0).status());
    }
}
