package org.sctpj.stack.teardown;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.stack.assoc.AssocFixture.PEER_TAG;
import static org.sctpj.stack.assoc.AssocFixture.PEER_TSN;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.assoc.AssocFixture;
import org.sctpj.stack.assoc.Association.State;
import org.sctpj.stack.assoc.TimerKind;
import org.sctpj.stack.assoc.TimerTable;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.DataChunk;
import org.sctpj.stack.wire.chunk.SackChunk;
import org.sctpj.stack.wire.chunk.ShutdownAckChunk;
import org.sctpj.stack.wire.chunk.ShutdownChunk;
import org.sctpj.stack.wire.chunk.ShutdownCompleteChunk;

/**
 * The graceful shutdown of RFC 9260 section 9.2 driven by hand on one association: each state
 * transition, the chunk it sends, and T2-shutdown and T5-shutdown-guard in the timer table.
 */
class ShutdownTest {
    static final SctpOptions O = SctpOptions.WAN;
    static final long RTO = O.rtoInitial().toNanos();

    static long t2(AssocFixture f) {
        return f.tcb().timers.deadline(TimerKind.T2_SHUTDOWN);
    }

    static long t5(AssocFixture f) {
        return f.tcb().timers.deadline(TimerKind.T5_SHUTDOWN_GUARD);
    }

    static <T extends Chunk> T only(AssocFixture f, Class<T> type) {
        AssocFixture.Out out = f.one();
        assertEquals(PEER_TAG, out.vtag());
        assertEquals(1, out.chunks().size(), out.chunks().toString());
        return assertInstanceOf(type, out.chunks().get(0));
    }

    static SctpEvent.AssociationChange lastChange(AssocFixture f) {
        List<SctpEvent.AssociationChange> l = f.eventsOf(SctpEvent.AssociationChange.class);
        assertFalse(l.isEmpty(), "an ASSOCIATION_CHANGE event: " + f.events);
        return l.get(l.size() - 1);
    }

    @Test
    void shutdownWithNothingOutstandingSendsShutdownAndStartsT2AndT5() {
        AssocFixture f = AssocFixture.established(O);
        f.a.shutdown(f.now);
        assertEquals(State.SHUTDOWN_SENT, f.a.state());
        ShutdownChunk s = only(f, ShutdownChunk.class);
        assertEquals(PEER_TSN - 1, s.cumTsnAck());
        assertEquals(f.now + RTO, t2(f));
        assertEquals(f.now + O.shutdownGuardFactor() * O.rtoMax().toNanos(), t5(f));
    }

    @Test
    void shutdownPendingWaitsForItsDataThenSendsShutdown() {
        AssocFixture f = AssocFixture.established(O);
        int tsn = f.sendOne();
        f.a.shutdown(f.now);
        assertEquals(State.SHUTDOWN_PENDING, f.a.state());
        assertEquals(List.of(), f.sent());
        assertEquals(TimerTable.NONE, t2(f));
        f.sack(tsn);
        assertEquals(State.SHUTDOWN_SENT, f.a.state());
        only(f, ShutdownChunk.class);
        assertTrue(t2(f) != TimerTable.NONE && t5(f) != TimerTable.NONE);
    }

    @Test
    void t2ResendsTheShutdownWithBackoffUntilAssociationMaxRetrans() {
        SctpOptions o = O.toBuilder().associationMaxRetrans(2).build();
        AssocFixture f = AssocFixture.shutdownSent(o);
        long first = t2(f);
        f.advance(first - f.now);
        only(f, ShutdownChunk.class);
        assertEquals(1, f.tcb().associationErrors);
        assertEquals(f.now + 2 * RTO, t2(f), "the RTO doubled");
        f.advance(t2(f) - f.now);
        only(f, ShutdownChunk.class);
        assertEquals(State.SHUTDOWN_SENT, f.a.state());
        f.advance(t2(f) - f.now);
        assertEquals(State.CLOSED, f.a.state());
        assertEquals(AssociationChangeType.COMMUNICATION_LOST, lastChange(f).type());
        assertEquals("no answer to SHUTDOWN", lastChange(f).reason());
        assertEquals(Long.MAX_VALUE, f.a.nextTimeout());
    }

    @Test
    void t5GivesUpWithAnAbort() {
        SctpOptions o = O.toBuilder().associationMaxRetrans(1000).build();
        AssocFixture f = AssocFixture.shutdownSent(o);
        long guard = t5(f);
        f.advance(guard - 1 - f.now);
        assertEquals(State.SHUTDOWN_SENT, f.a.state(), "T2 alone does not end it");
        f.sent();
        f.advance(1);
        assertEquals(State.CLOSED, f.a.state());
        assertEquals("shutdown guard timer expired", lastChange(f).reason());
        assertEquals(AssociationChangeType.COMMUNICATION_LOST, lastChange(f).type());
        List<AssocFixture.Out> out = f.sent();
        assertInstanceOf(AbortChunk.class, out.get(out.size() - 1).chunks().get(0));
    }

    @Test
    void shutdownAckInShutdownSentIsAnsweredWithShutdownCompleteAndCloses() {
        AssocFixture f = AssocFixture.shutdownSent(O);
        f.deliver(f.tcb().localTag, new ShutdownAckChunk());
        ShutdownCompleteChunk c = only(f, ShutdownCompleteChunk.class);
        assertFalse(c.tBit());
        assertEquals(State.CLOSED, f.a.state());
        assertEquals(AssociationChangeType.SHUTDOWN_COMPLETE, lastChange(f).type());
        assertTrue(f.closed);
        assertEquals(TimerTable.NONE, t2(f));
        assertEquals(TimerTable.NONE, t5(f));
    }

    @Test
    void dataInShutdownSentIsAnsweredWithAnotherShutdownAndT2Restarts() {
        AssocFixture f = AssocFixture.shutdownSent(O);
        f.now += RTO / 2;
        f.deliver(f.tcb().localTag, new DataChunk(false, false, true, true, PEER_TSN, 0, 0, 1, Bytes.fromHex("01")));
        AssocFixture.Out out = f.one();
        assertTrue(
                out.chunks().stream().anyMatch(SackChunk.class::isInstance),
                out.chunks().toString());
        ShutdownChunk s = (ShutdownChunk) out.chunks().stream()
                .filter(ShutdownChunk.class::isInstance)
                .findFirst()
                .orElseThrow();
        assertEquals(PEER_TSN, s.cumTsnAck());
        assertEquals(f.now + RTO, t2(f));
    }

    @Test
    void shutdownsCrossingGoToShutdownAckSent() {
        AssocFixture f = AssocFixture.shutdownSent(O);
        f.deliver(f.tcb().localTag, new ShutdownChunk(PEER_TSN - 1));
        assertEquals(State.SHUTDOWN_ACK_SENT, f.a.state());
        only(f, ShutdownAckChunk.class);
        assertEquals(f.now + RTO, t2(f));
    }

    @Test
    void peersShutdownWithNothingOutstandingIsAnsweredWithShutdownAck() {
        AssocFixture f = AssocFixture.established(O);
        f.deliver(f.tcb().localTag, new ShutdownChunk(PEER_TSN - 1));
        assertEquals(State.SHUTDOWN_ACK_SENT, f.a.state());
        only(f, ShutdownAckChunk.class);
        assertEquals(1, f.eventsOf(SctpEvent.ShutdownReceived.class).size());
        assertEquals(f.now + RTO, t2(f));
        assertEquals(TimerTable.NONE, t5(f), "T5 guards our own SHUTDOWN only");
    }

    @Test
    void shutdownReceivedAnswersOnceOurDataIsAcknowledged() {
        AssocFixture f = AssocFixture.established(O);
        int tsn = f.sendOne();
        f.deliver(f.tcb().localTag, new ShutdownChunk(PEER_TSN - 1));
        assertEquals(State.SHUTDOWN_RECEIVED, f.a.state());
        assertEquals(List.of(), f.sent());
        f.deliver(f.tcb().localTag, new ShutdownChunk(tsn)); // the SHUTDOWN's Cumulative TSN Ack
        assertEquals(State.SHUTDOWN_ACK_SENT, f.a.state());
        only(f, ShutdownAckChunk.class);
        assertEquals(1, f.eventsOf(SctpEvent.ShutdownReceived.class).size(), "reported once");
    }

    @Test
    void inShutdownAckSentT2ResendsAndShutdownCompleteCloses() {
        AssocFixture f = AssocFixture.shutdownAckSent(O);
        f.deliver(f.tcb().localTag, new ShutdownChunk(PEER_TSN - 1)); // our SHUTDOWN ACK was lost
        only(f, ShutdownAckChunk.class);
        f.advance(t2(f) - f.now);
        only(f, ShutdownAckChunk.class);
        assertEquals(f.now + 2 * RTO, t2(f));
        f.deliver(f.tcb().localTag, new ShutdownCompleteChunk(false));
        assertEquals(State.CLOSED, f.a.state());
        assertEquals(AssociationChangeType.SHUTDOWN_COMPLETE, lastChange(f).type());
    }

    @Test
    void abortWithTheTBitInShutdownAckSentIsAShutdownComplete() {
        AssocFixture f = AssocFixture.shutdownAckSent(O);
        f.deliver(PEER_TAG, AbortChunk.of(true));
        assertEquals(State.CLOSED, f.a.state());
        assertEquals(AssociationChangeType.SHUTDOWN_COMPLETE, lastChange(f).type());
    }

    @Test
    void shutdownBeforeEstablishmentIsAnAbort() {
        AssocFixture f = AssocFixture.cookieEchoed(O);
        f.a.shutdown(f.now);
        assertEquals(State.CLOSED, f.a.state());
        assertEquals(AssociationChangeType.CANT_START, lastChange(f).type());
        assertInstanceOf(AbortChunk.class, f.one().chunks().get(0));
    }
}
