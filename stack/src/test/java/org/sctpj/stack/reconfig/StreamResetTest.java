package org.sctpj.stack.reconfig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.stack.assoc.AssocFixture.PEER_TAG;
import static org.sctpj.stack.assoc.AssocFixture.PEER_TSN;
import static org.sctpj.stack.wire.param.ReconfigurationResponseParameter.RESULT_DENIED;
import static org.sctpj.stack.wire.param.ReconfigurationResponseParameter.RESULT_ERROR_BAD_SEQUENCE_NUMBER;
import static org.sctpj.stack.wire.param.ReconfigurationResponseParameter.RESULT_ERROR_REQUEST_IN_PROGRESS;
import static org.sctpj.stack.wire.param.ReconfigurationResponseParameter.RESULT_ERROR_WRONG_SSN;
import static org.sctpj.stack.wire.param.ReconfigurationResponseParameter.RESULT_IN_PROGRESS;
import static org.sctpj.stack.wire.param.ReconfigurationResponseParameter.RESULT_SUCCESS_PERFORMED;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.Extension;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.ReconfigOutcome;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.assoc.AssocFixture;
import org.sctpj.stack.assoc.Association;
import org.sctpj.stack.assoc.TimerKind;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.ChunkType;
import org.sctpj.stack.wire.chunk.CookieAckChunk;
import org.sctpj.stack.wire.chunk.DataChunk;
import org.sctpj.stack.wire.chunk.IDataChunk;
import org.sctpj.stack.wire.chunk.InitAckChunk;
import org.sctpj.stack.wire.chunk.ReConfigChunk;
import org.sctpj.stack.wire.chunk.SackChunk;
import org.sctpj.stack.wire.chunk.ShutdownChunk;
import org.sctpj.stack.wire.chunk.ShutdownCompleteChunk;
import org.sctpj.stack.wire.param.AddIncomingStreamsRequestParameter;
import org.sctpj.stack.wire.param.AddOutgoingStreamsRequestParameter;
import org.sctpj.stack.wire.param.IncomingSsnResetRequestParameter;
import org.sctpj.stack.wire.param.OutgoingSsnResetRequestParameter;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.ReconfigurationResponseParameter;
import org.sctpj.stack.wire.param.SsnTsnResetRequestParameter;
import org.sctpj.stack.wire.param.StateCookieParameter;
import org.sctpj.stack.wire.param.SupportedExtensionsParameter;
import org.sctpj.stack.wire.param.UnknownParameter;

/**
 * The request/response state machine of RFC 6525 driven by hand on one association (the peer's
 * side written as chunks): each request as requester and as responder, the timer and its
 * retransmission, duplicates, bad sequence numbers and hostile values.
 */
class StreamResetTest {
    static final SctpOptions O =
            SctpOptions.WAN.toBuilder().noDelay(true).enable(Extension.RECONFIG).build();
    static final long RTO = O.rtoInitial().toNanos();

    /** ESTABLISHED as the initiator, RE-CONFIG negotiated: the peer's INIT ACK lists it (RFC 6525 section 3.1). */
    static AssocFixture up() {
        return up(O);
    }

    static AssocFixture up(SctpOptions o) {
        return up(o, ChunkType.RE_CONFIG);
    }

    /** As {@link #up(SctpOptions)}, the peer's INIT ACK listing {@code extensions}. */
    static AssocFixture up(SctpOptions o, int... extensions) {
        AssocFixture f = AssocFixture.cookieWait(o);
        f.deliver(
                f.tcb().localTag,
                new InitAckChunk(
                        PEER_TAG,
                        65536,
                        10,
                        10,
                        PEER_TSN,
                        List.of(
                                new StateCookieParameter(Bytes.fromHex("c0ffee")),
                                SupportedExtensionsParameter.of(extensions))));
        f.sent();
        f.deliver(f.tcb().localTag, new CookieAckChunk());
        f.sent();
        f.events.clear();
        return f;
    }

    static int local(AssocFixture f) {
        return f.tcb().localInitialTsn;
    }

    static void send(AssocFixture f, int stream) {
        f.a.send(SendInfo.of(stream, 0), ByteBuffer.wrap(new byte[] {7, 7, 7}), f.now);
    }

    static List<Chunk> chunks(List<AssocFixture.Out> out) {
        List<Chunk> l = new ArrayList<>();
        for (AssocFixture.Out o : out) {
            l.addAll(o.chunks());
        }
        return l;
    }

    static List<DataChunk> data(List<Chunk> l) {
        return l.stream()
                .filter(c -> c instanceof DataChunk)
                .map(c -> (DataChunk) c)
                .toList();
    }

    static List<Parameter> reconfigParams(List<Chunk> l) {
        List<Parameter> p = new ArrayList<>();
        for (Chunk c : l) {
            if (c instanceof ReConfigChunk r) {
                p.addAll(r.parameters());
            }
        }
        return p;
    }

    static ReconfigurationResponseParameter onlyResponse(AssocFixture f) {
        List<Parameter> p = reconfigParams(chunks(f.sent()));
        assertEquals(1, p.size(), p.toString());
        return assertInstanceOf(ReconfigurationResponseParameter.class, p.get(0));
    }

    static void peer(AssocFixture f, Parameter... params) {
        f.deliver(f.tcb().localTag, ReConfigChunk.of(params));
    }

    static DataChunk peerData(int tsn, int stream, int ssn) {
        return new DataChunk(false, false, true, true, tsn, stream, ssn, 0, Bytes.of((byte) 1));
    }

    // ------------------------------------------------------------------ as requester

    @Test
    void outgoingResetWaitsForEarlierMessagesHoldsLaterOnesAndRestartsAtSsnZero() {
        AssocFixture f = up();
        send(f, 1);
        send(f, 1);
        f.a.resetStreams(new int[] {1}, true, false, f.now);
        send(f, 1); // accepted after the call: held
        List<Chunk> out = chunks(f.sent());
        List<DataChunk> d = data(out);
        assertEquals(List.of(0, 1), d.stream().map(DataChunk::ssn).toList(), "only the earlier messages go");
        OutgoingSsnResetRequestParameter req = assertInstanceOf(
                OutgoingSsnResetRequestParameter.class, reconfigParams(out).get(0));
        assertEquals(local(f), req.requestSequenceNumber(), "the first request number is our initial TSN");
        assertEquals(PEER_TSN - 1, req.responseSequenceNumber());
        assertEquals(d.get(1).tsn(), req.sendersLastAssignedTsn());
        assertEquals(List.of(1), req.streams());
        assertTrue(f.tcb().timers.armed(TimerKind.RECONFIG));

        f.deliver(f.tcb().localTag, SackChunk.of(d.get(1).tsn(), 65536));
        peer(f, ReconfigurationResponseParameter.of(req.requestSequenceNumber(), RESULT_SUCCESS_PERFORMED));
        assertEquals(
                List.of(new SctpEvent.StreamReset(f.a.id(), true, ReconfigOutcome.PERFORMED, List.of(1))),
                f.eventsOf(SctpEvent.StreamReset.class));
        assertFalse(f.tcb().timers.armed(TimerKind.RECONFIG));
        List<DataChunk> after = data(chunks(f.sent()));
        assertEquals(1, after.size());
        assertEquals(0, after.get(0).ssn(), "the held message starts the new numbering");
        assertEquals(d.get(1).tsn() + 1, after.get(0).tsn());
    }

    @Test
    void deniedResetReleasesTheHeldMessagesUnderTheOldNumbering() {
        AssocFixture f = up();
        send(f, 2);
        f.a.resetStreams(new int[] {2}, true, false, f.now);
        send(f, 2);
        List<Chunk> out = chunks(f.sent());
        int sn = ((OutgoingSsnResetRequestParameter) reconfigParams(out).get(0)).requestSequenceNumber();
        f.sack(data(out).get(0).tsn());
        peer(f, ReconfigurationResponseParameter.of(sn, RESULT_DENIED));
        assertEquals(
                ReconfigOutcome.DENIED,
                f.eventsOf(SctpEvent.StreamReset.class).get(0).outcome());
        assertEquals(1, data(chunks(f.sent())).get(0).ssn());
    }

    @Test
    void lostRequestIsRetransmittedUnchangedWithBackoffAndCountsAnError() {
        AssocFixture f = up();
        f.a.resetStreams(new int[0], true, false, f.now);
        Parameter first = reconfigParams(chunks(f.sent())).get(0);
        assertEquals(List.of(), ((OutgoingSsnResetRequestParameter) first).streams(), "empty list: every stream");
        f.advance(RTO);
        List<Parameter> again = reconfigParams(chunks(f.sent()));
        assertEquals(List.of(first), again, "same numbers, same last assigned TSN");
        assertEquals(1, f.tcb().associationErrors);
        assertEquals(f.now + 2 * RTO, f.tcb().timers.deadline(TimerKind.RECONFIG), "RTO backed off");
        peer(f, ReconfigurationResponseParameter.of(local(f), RESULT_SUCCESS_PERFORMED));
        assertEquals(0, f.tcb().associationErrors, "an answer shows the peer is there");
        assertEquals(1, f.eventsOf(SctpEvent.StreamReset.class).size());
    }

    @Test
    void inProgressIsAskedAgainAfterAnRtoUnchangedWithoutCountingAnError() {
        AssocFixture f = up();
        f.a.resetStreams(new int[] {0}, true, false, f.now);
        Parameter req = reconfigParams(chunks(f.sent())).get(0);
        peer(f, ReconfigurationResponseParameter.of(local(f), RESULT_IN_PROGRESS));
        assertTrue(f.eventsOf(SctpEvent.StreamReset.class).isEmpty());
        assertTrue(reconfigParams(chunks(f.sent())).isEmpty(), "not at once: after an RTO");
        f.advance(RTO);
        // The same number: Linux does not take a number it answered In progress.
        assertEquals(List.of(req), reconfigParams(chunks(f.sent())));
        assertEquals(0, f.tcb().associationErrors);
        assertEquals(f.now + RTO, f.tcb().timers.deadline(TimerKind.RECONFIG), "no backoff either");
        peer(f, ReconfigurationResponseParameter.of(local(f), RESULT_SUCCESS_PERFORMED));
        assertEquals(
                ReconfigOutcome.PERFORMED,
                f.eventsOf(SctpEvent.StreamReset.class).get(0).outcome());
    }

    @Test
    void aDeferredResetAskedAgainUnderNewNumbersIsPerformedOnce() {
        AssocFixture f = up();
        f.deliver(f.tcb().localTag, peerData(PEER_TSN, 1, 0));
        f.sent();
        peer(f, new OutgoingSsnResetRequestParameter(PEER_TSN, local(f) - 1, PEER_TSN + 1, List.of(1)));
        assertEquals(RESULT_IN_PROGRESS, onlyResponse(f).result());
        peer(f, new OutgoingSsnResetRequestParameter(PEER_TSN + 1, local(f) - 1, PEER_TSN + 1, List.of(1)));
        assertEquals(RESULT_IN_PROGRESS, onlyResponse(f).result(), "still waiting for TSN 7001");
        f.deliver(f.tcb().localTag, peerData(PEER_TSN + 1, 1, 1));
        f.sent();
        assertEquals(1, f.eventsOf(SctpEvent.StreamReset.class).size());
        peer(f, new OutgoingSsnResetRequestParameter(PEER_TSN + 2, local(f) - 1, PEER_TSN + 1, List.of(1)));
        assertEquals(RESULT_SUCCESS_PERFORMED, onlyResponse(f).result());
        assertEquals(1, f.eventsOf(SctpEvent.StreamReset.class).size(), "not reset a second time");
        f.deliver(f.tcb().localTag, peerData(PEER_TSN + 2, 1, 0));
        assertEquals(3, f.eventsOf(SctpEvent.MessageReceived.class).size());
    }

    @Test
    void unansweredRequestEndsTheAssociationAfterAssociationMaxRetrans() {
        AssocFixture f = up();
        f.a.resetStreams(new int[] {0}, true, false, f.now);
        f.sent();
        for (int i = 0; i <= O.associationMaxRetrans() && !f.closed; i++) {
            f.advance(O.rtoMax().toNanos());
            f.sent();
        }
        assertTrue(f.closed, "the RE-CONFIG timer counts against the association (RFC 6525 section 5.1.1)");
    }

    @Test
    void bothDirectionsGoInOneChunkAndThePeersOutgoingResetAcknowledgesOurIncomingOne() {
        AssocFixture f = up();
        f.a.resetStreams(new int[] {3}, true, true, f.now);
        List<Parameter> p = reconfigParams(chunks(f.sent()));
        assertEquals(2, p.size(), "outgoing + incoming in one RE-CONFIG (RFC 6525 section 3.1)");
        int outSn = ((OutgoingSsnResetRequestParameter) p.get(0)).requestSequenceNumber();
        int inSn = ((IncomingSsnResetRequestParameter) p.get(1)).requestSequenceNumber();
        assertEquals(outSn + 1, inSn);
        // The peer answers our outgoing reset and, as its outgoing reset, our incoming one.
        peer(
                f,
                ReconfigurationResponseParameter.of(outSn, RESULT_SUCCESS_PERFORMED),
                new OutgoingSsnResetRequestParameter(PEER_TSN, inSn, PEER_TSN - 1, List.of(3)));
        assertFalse(f.tcb().timers.armed(TimerKind.RECONFIG), "both requests answered");
        assertEquals(
                List.of(
                        new SctpEvent.StreamReset(f.a.id(), true, ReconfigOutcome.PERFORMED, List.of(3)),
                        new SctpEvent.StreamReset(f.a.id(), false, ReconfigOutcome.PERFORMED, List.of(3))),
                f.eventsOf(SctpEvent.StreamReset.class));
        assertEquals(RESULT_SUCCESS_PERFORMED, onlyResponse(f).result());
    }

    @Test
    void requestsAskedForWhileOneIsOutstandingWaitAndMerge() {
        AssocFixture f = up();
        f.a.resetStreams(new int[] {1}, true, false, f.now);
        f.sent();
        f.a.resetStreams(new int[] {4}, true, false, f.now);
        f.a.resetStreams(new int[] {2}, true, false, f.now);
        assertTrue(reconfigParams(chunks(f.sent())).isEmpty(), "one outstanding request at a time");
        peer(f, ReconfigurationResponseParameter.of(local(f), RESULT_SUCCESS_PERFORMED));
        OutgoingSsnResetRequestParameter next = (OutgoingSsnResetRequestParameter)
                reconfigParams(chunks(f.sent())).get(0);
        assertEquals(local(f) + 1, next.requestSequenceNumber());
        assertEquals(List.of(2, 4), next.streams());
    }

    @Test
    void associationResetWaitsForOurDataThenSwitchesBothDirectionsToTheAnsweredTsns() {
        AssocFixture f = up();
        int tsn = f.sendOne();
        f.a.resetAssociation(f.now);
        send(f, 0); // held until the reset is over
        assertTrue(reconfigParams(chunks(f.sent())).isEmpty(), "our data is not acknowledged yet");
        f.sack(tsn);
        SsnTsnResetRequestParameter req = assertInstanceOf(
                SsnTsnResetRequestParameter.class,
                reconfigParams(chunks(f.sent())).get(0));
        int peerNext = 0x40000000;
        int ourNext = 0x12345678;
        peer(
                f,
                ReconfigurationResponseParameter.of(
                        req.requestSequenceNumber(), RESULT_SUCCESS_PERFORMED, peerNext, ourNext));
        assertEquals(
                List.of(new SctpEvent.AssociationReset(f.a.id(), ReconfigOutcome.PERFORMED, ourNext, peerNext)),
                f.eventsOf(SctpEvent.AssociationReset.class));
        DataChunk d = data(chunks(f.sent())).get(0);
        assertEquals(ourNext, d.tsn());
        assertEquals(0, d.ssn());
        f.deliver(f.tcb().localTag, peerData(peerNext, 0, 0));
        assertEquals(peerNext, f.a.receiver().cumulativeTsn(), "the peer's new numbering is taken");
        assertEquals(1, f.eventsOf(SctpEvent.MessageReceived.class).size());
        assertThrows(IllegalStateException.class, () -> {
            f.a.resetAssociation(f.now);
            f.a.resetAssociation(f.now);
        });
    }

    @Test
    void addStreamsBothWaysAndUseTheNewOutgoingOne() {
        AssocFixture f = up();
        assertEquals(10, f.a.outboundStreams());
        assertThrows(IllegalArgumentException.class, () -> send(f, 11));
        f.a.addStreams(2, 5, f.now);
        List<Parameter> p = reconfigParams(chunks(f.sent()));
        assertEquals(new AddOutgoingStreamsRequestParameter(local(f), 2), p.get(0));
        assertEquals(new AddIncomingStreamsRequestParameter(local(f) + 1, 5), p.get(1));
        peer(
                f,
                ReconfigurationResponseParameter.of(local(f), RESULT_SUCCESS_PERFORMED),
                ReconfigurationResponseParameter.of(local(f) + 1, RESULT_SUCCESS_PERFORMED));
        assertEquals(12, f.a.outboundStreams());
        assertEquals(
                List.of(new SctpEvent.StreamChange(f.a.id(), ReconfigOutcome.PERFORMED, 10, 12)),
                f.eventsOf(SctpEvent.StreamChange.class));
        send(f, 11);
        assertEquals(11, data(chunks(f.sent())).get(0).streamId());
        // The peer adds its outgoing streams in answer to our Add Incoming Streams request.
        peer(f, new AddOutgoingStreamsRequestParameter(PEER_TSN, 5));
        assertEquals(RESULT_SUCCESS_PERFORMED, onlyResponse(f).result());
        assertEquals(15, f.a.inboundStreams());
        f.deliver(f.tcb().localTag, peerData(PEER_TSN, 14, 0));
        assertEquals(14, f.eventsOf(SctpEvent.MessageReceived.class).get(0).streamId());
    }

    @Test
    void thePeersAddOutgoingRequestAnswersOurAddIncomingOneAsLinuxDoes() {
        AssocFixture f = up();
        f.a.addStreams(0, 5, f.now);
        assertEquals(List.of(new AddIncomingStreamsRequestParameter(local(f), 5)), reconfigParams(chunks(f.sent())));
        peer(f, new AddOutgoingStreamsRequestParameter(PEER_TSN, 5)); // no Response parameter besides
        assertEquals(RESULT_SUCCESS_PERFORMED, onlyResponse(f).result());
        assertFalse(f.tcb().timers.armed(TimerKind.RECONFIG), "our request is answered");
        assertEquals(
                List.of(new SctpEvent.StreamChange(f.a.id(), ReconfigOutcome.PERFORMED, 15, 10)),
                f.eventsOf(SctpEvent.StreamChange.class));
        f.advance(10 * RTO);
        assertTrue(reconfigParams(chunks(f.sent())).isEmpty(), "nothing retransmitted");
    }

    @Test
    void noRequestGoesOnceTheShutdownWasSentAndTheWaitingOnesFail() {
        AssocFixture f = up();
        f.a.resetStreams(new int[] {1}, true, false, f.now);
        f.sent();
        f.a.resetStreams(new int[] {2}, true, false, f.now); // waits behind the first
        f.a.shutdown(f.now); // nothing to send: SHUTDOWN goes at once
        List<Chunk> out = chunks(f.sent());
        assertTrue(out.stream().anyMatch(c -> c instanceof ShutdownChunk), out.toString());
        assertTrue(reconfigParams(out).isEmpty(), "no request in SHUTDOWN-SENT");
        // The first request is answered late: the waiting one must not go now either. The answer
        // still counts: the peer did reset its streams.
        peer(f, ReconfigurationResponseParameter.of(local(f), RESULT_SUCCESS_PERFORMED));
        assertTrue(reconfigParams(chunks(f.sent())).isEmpty(), "no request in SHUTDOWN-SENT");
        assertEquals(
                List.of(
                        new SctpEvent.StreamReset(f.a.id(), true, ReconfigOutcome.FAILED, List.of(2)),
                        new SctpEvent.StreamReset(f.a.id(), true, ReconfigOutcome.PERFORMED, List.of(1))),
                f.eventsOf(SctpEvent.StreamReset.class));
        f.advance(10 * RTO);
        assertTrue(reconfigParams(chunks(f.sent())).isEmpty(), "nor a retransmission");
    }

    /**
     * Seen with usrsctp: its SHUTDOWN overtook its answer to our outgoing reset, which came after
     * our SHUTDOWN ACK. The answer still counts (the request used to fail when the SHUTDOWN ACK
     * went, and the answer was then ignored); a request never answered fails when the association
     * ends, once.
     */
    @Test
    void anAnswerAfterOurShutdownAckStillCountsAndNoAnswerFailsAtTheEnd() {
        for (boolean answered : new boolean[] {true, false}) {
            AssocFixture f = up();
            f.a.resetStreams(new int[] {1}, true, false, f.now);
            assertEquals(1, reconfigParams(chunks(f.sent())).size());
            f.deliver(f.tcb().localTag, new ShutdownChunk(local(f) - 1));
            f.sent();
            assertEquals(Association.State.SHUTDOWN_ACK_SENT, f.a.state());
            assertTrue(f.eventsOf(SctpEvent.StreamReset.class).isEmpty(), "not failed while its answer may come");
            if (answered) {
                peer(f, ReconfigurationResponseParameter.of(local(f), RESULT_SUCCESS_PERFORMED));
            }
            f.deliver(f.tcb().localTag, new ShutdownCompleteChunk(false));
            assertTrue(f.closed);
            assertEquals(
                    List.of(new SctpEvent.StreamReset(
                            f.a.id(), true, answered ? ReconfigOutcome.PERFORMED : ReconfigOutcome.FAILED, List.of(1))),
                    f.eventsOf(SctpEvent.StreamReset.class));
        }
    }

    /**
     * An outstanding request whose timer expires after our SHUTDOWN went fails and is not
     * retransmitted, and the timer stops (it once stayed due: the simulated matrices stalled).
     */
    @Test
    void anUnansweredRequestFailsWhenItsTimerExpiresAfterOurShutdown() {
        AssocFixture f = up();
        f.a.resetStreams(new int[] {1}, true, false, f.now);
        f.sent();
        f.a.shutdown(f.now);
        f.sent();
        long at = f.tcb().timers.deadline(TimerKind.RECONFIG);
        f.a.handleTimeout(at);
        assertFalse(f.tcb().timers.armed(TimerKind.RECONFIG));
        assertTrue(f.a.nextTimeout() > at, "no timer left due");
        assertTrue(reconfigParams(chunks(f.sent())).isEmpty(), "no retransmission");
        assertEquals(
                List.of(new SctpEvent.StreamReset(f.a.id(), true, ReconfigOutcome.FAILED, List.of(1))),
                f.eventsOf(SctpEvent.StreamReset.class));
    }

    // ------------------------------------------------------------------ as responder

    @Test
    void peersOutgoingResetIsPerformedAtOnceWhenItsDataIsAllIn() {
        AssocFixture f = up();
        f.deliver(f.tcb().localTag, peerData(PEER_TSN, 1, 0), peerData(PEER_TSN + 1, 1, 1));
        f.sent();
        peer(f, new OutgoingSsnResetRequestParameter(PEER_TSN, local(f) - 1, PEER_TSN + 1, List.of(1)));
        ReconfigurationResponseParameter r = onlyResponse(f);
        assertEquals(PEER_TSN, r.responseSequenceNumber());
        assertEquals(RESULT_SUCCESS_PERFORMED, r.result());
        assertEquals(
                List.of(new SctpEvent.StreamReset(f.a.id(), false, ReconfigOutcome.PERFORMED, List.of(1))),
                f.eventsOf(SctpEvent.StreamReset.class));
        f.deliver(f.tcb().localTag, peerData(PEER_TSN + 2, 1, 0));
        assertEquals(3, f.eventsOf(SctpEvent.MessageReceived.class).size(), "SSN 0 again is the next message");
    }

    @Test
    void peersOutgoingResetAheadOfItsDataIsDeferredThenPerformed() {
        AssocFixture f = up();
        f.deliver(f.tcb().localTag, peerData(PEER_TSN, 1, 0));
        f.sent();
        OutgoingSsnResetRequestParameter req =
                new OutgoingSsnResetRequestParameter(PEER_TSN, local(f) - 1, PEER_TSN + 1, List.of(1));
        peer(f, req);
        assertEquals(RESULT_IN_PROGRESS, onlyResponse(f).result(), "TSN 7001 has not arrived (section 5.2.2 E2)");
        assertTrue(f.eventsOf(SctpEvent.StreamReset.class).isEmpty());
        f.deliver(f.tcb().localTag, peerData(PEER_TSN + 1, 1, 1));
        assertEquals(1, f.eventsOf(SctpEvent.StreamReset.class).size(), "performed once the TSN is in");
        assertEquals(2, f.eventsOf(SctpEvent.MessageReceived.class).size());
        f.sent();
        peer(f, req); // the retransmission after In progress
        assertEquals(RESULT_SUCCESS_PERFORMED, onlyResponse(f).result());
        assertEquals(1, f.eventsOf(SctpEvent.StreamReset.class).size(), "a retransmission resets nothing again");
    }

    /**
     * RFC 6525 section 5.2.2 E2: while the reset is deferred, data after the Sender's Last Assigned
     * TSN on a stream being reset is held until the reset is done. Here the first message after
     * the reset (SSN 0 again, TSN 7002) overtakes the last one before it (SSN 1, TSN 7001): all
     * three arrive, in the sender's order.
     */
    @Test
    void dataAfterADeferredResetWaitsForItAndComesInTheSendersOrder() {
        AssocFixture f = up();
        assertEquals(List.of(1, 2, 3), overtakenDeferredReset(f, StreamResetTest::data));
        assertEquals(1, f.eventsOf(SctpEvent.StreamReset.class).size());
    }

    /** The same over I-DATA: the MIDs start at 0 again after the reset (RFC 8260 section 2.3.1). */
    @Test
    void iDataAfterADeferredResetWaitsForItAndComesInTheSendersOrder() {
        AssocFixture f = up(O.toBuilder().enable(Extension.I_DATA).build(), ChunkType.RE_CONFIG, ChunkType.I_DATA);
        assertEquals(List.of(1, 2, 3), overtakenDeferredReset(f, StreamResetTest::iData));
    }

    /** A chunk of one whole message: TSN, stream, SSN or MID, and its one byte. */
    interface MessageChunk {
        Chunk of(int tsn, int stream, int seq, int payload);
    }

    /**
     * Message 1 (seq 0), the peer's reset of stream 1 ahead of message 2 (seq 1), then message 3
     * (seq 0, after the reset) before message 2; returns the payloads delivered, in order.
     */
    private static List<Integer> overtakenDeferredReset(AssocFixture f, MessageChunk c) {
        f.deliver(f.tcb().localTag, c.of(PEER_TSN, 1, 0, 1));
        f.sent();
        peer(f, new OutgoingSsnResetRequestParameter(PEER_TSN, local(f) - 1, PEER_TSN + 1, List.of(1)));
        assertEquals(RESULT_IN_PROGRESS, onlyResponse(f).result());
        f.deliver(f.tcb().localTag, c.of(PEER_TSN + 2, 1, 0, 3));
        f.deliver(f.tcb().localTag, c.of(PEER_TSN + 1, 1, 1, 2));
        List<Integer> got = new ArrayList<>();
        for (SctpEvent.MessageReceived m : f.eventsOf(SctpEvent.MessageReceived.class)) {
            got.add((int) m.data()[0]);
        }
        return got;
    }

    private static IDataChunk iData(int tsn, int stream, int mid, int payload) {
        return new IDataChunk(false, false, true, true, tsn, stream, mid, 0, Bytes.of((byte) payload));
    }

    private static DataChunk data(int tsn, int stream, int ssn, int payload) {
        return new DataChunk(false, false, true, true, tsn, stream, ssn, 0, Bytes.of((byte) payload));
    }

    @Test
    void duplicatesGetTheSameAnswerAndOtherNumbersAreBad() {
        AssocFixture f = up();
        OutgoingSsnResetRequestParameter req =
                new OutgoingSsnResetRequestParameter(PEER_TSN, local(f) - 1, PEER_TSN - 1, List.of(9));
        peer(f, req);
        assertEquals(RESULT_SUCCESS_PERFORMED, onlyResponse(f).result());
        peer(f, req);
        assertEquals(RESULT_SUCCESS_PERFORMED, onlyResponse(f).result());
        assertEquals(1, f.eventsOf(SctpEvent.StreamReset.class).size());
        peer(f, new OutgoingSsnResetRequestParameter(PEER_TSN + 5, local(f) - 1, PEER_TSN - 1, List.of(9)));
        ReconfigurationResponseParameter bad = onlyResponse(f);
        assertEquals(RESULT_ERROR_BAD_SEQUENCE_NUMBER, bad.result());
        assertEquals(PEER_TSN + 5, bad.responseSequenceNumber());
        peer(f, new OutgoingSsnResetRequestParameter(PEER_TSN - 3, local(f) - 1, PEER_TSN - 1, List.of(9)));
        assertEquals(RESULT_ERROR_BAD_SEQUENCE_NUMBER, onlyResponse(f).result());
        peer(f, new SsnTsnResetRequestParameter(PEER_TSN)); // an old number of another kind
        assertEquals(RESULT_ERROR_BAD_SEQUENCE_NUMBER, onlyResponse(f).result());
        peer(f, new OutgoingSsnResetRequestParameter(PEER_TSN + 1, local(f) - 1, PEER_TSN - 1, List.of(8)));
        assertEquals(RESULT_SUCCESS_PERFORMED, onlyResponse(f).result(), "the next number is new");
        assertEquals(2, f.eventsOf(SctpEvent.StreamReset.class).size());
    }

    @Test
    void wrongStreamsDisabledKindsAndHugeAdditionsAreRefused() {
        AssocFixture f = up();
        peer(f, new OutgoingSsnResetRequestParameter(PEER_TSN, local(f) - 1, PEER_TSN - 1, List.of(10)));
        assertEquals(RESULT_ERROR_WRONG_SSN, onlyResponse(f).result(), "stream 10 of 10 does not exist");
        peer(f, new IncomingSsnResetRequestParameter(PEER_TSN + 1, List.of(65535)));
        assertEquals(RESULT_ERROR_WRONG_SSN, onlyResponse(f).result());
        peer(f, new AddOutgoingStreamsRequestParameter(PEER_TSN + 2, 65535));
        assertEquals(RESULT_DENIED, onlyResponse(f).result(), "10 + 65535 streams is beyond the cap");
        assertEquals(10, f.a.inboundStreams());
        f.a.setAcceptedReconfigRequests(Set.of());
        peer(f, new OutgoingSsnResetRequestParameter(PEER_TSN + 3, local(f) - 1, PEER_TSN - 1, List.of(1)));
        assertEquals(RESULT_DENIED, onlyResponse(f).result());
        peer(f, new SsnTsnResetRequestParameter(PEER_TSN + 4));
        assertEquals(RESULT_DENIED, onlyResponse(f).result());
        peer(f, new AddOutgoingStreamsRequestParameter(PEER_TSN + 5, 1));
        assertEquals(RESULT_DENIED, onlyResponse(f).result());
        assertTrue(f.eventsOf(SctpEvent.StreamReset.class).isEmpty());
        assertTrue(f.eventsOf(SctpEvent.StreamChange.class).isEmpty());
    }

    @Test
    void peersIncomingResetIsAnsweredByOurOutgoingResetNotByAResponse() {
        AssocFixture f = up();
        send(f, 5);
        f.sent();
        IncomingSsnResetRequestParameter req = new IncomingSsnResetRequestParameter(PEER_TSN, List.of(5));
        peer(f, req);
        List<Parameter> p = reconfigParams(chunks(f.sent()));
        assertEquals(1, p.size(), p.toString());
        OutgoingSsnResetRequestParameter out = assertInstanceOf(OutgoingSsnResetRequestParameter.class, p.get(0));
        assertEquals(PEER_TSN, out.responseSequenceNumber(), "our outgoing reset answers the peer's request");
        assertEquals(List.of(5), out.streams());
        peer(f, req); // retransmitted by the peer: our own request is the answer
        assertTrue(reconfigParams(chunks(f.sent())).isEmpty());
        peer(f, ReconfigurationResponseParameter.of(out.requestSequenceNumber(), RESULT_SUCCESS_PERFORMED));
        assertEquals(
                List.of(new SctpEvent.StreamReset(f.a.id(), true, ReconfigOutcome.PERFORMED, List.of(5))),
                f.eventsOf(SctpEvent.StreamReset.class));
    }

    @Test
    void peersIncomingResetWhileOursIsOutstandingIsAlreadyInProgress() {
        AssocFixture f = up();
        f.a.resetStreams(new int[] {1}, true, false, f.now);
        f.sent();
        peer(f, new IncomingSsnResetRequestParameter(PEER_TSN, List.of(2)));
        assertEquals(RESULT_ERROR_REQUEST_IN_PROGRESS, onlyResponse(f).result());
    }

    @Test
    void peersAssociationResetIsInProgressWhileOurDataIsOutThenPerformed() {
        AssocFixture f = up();
        int tsn = f.sendOne();
        f.deliver(f.tcb().localTag, peerData(PEER_TSN, 0, 0));
        f.sent();
        peer(f, new SsnTsnResetRequestParameter(PEER_TSN));
        assertEquals(RESULT_IN_PROGRESS, onlyResponse(f).result(), "our TSN is not acknowledged yet");
        f.sack(tsn);
        peer(f, new SsnTsnResetRequestParameter(PEER_TSN)); // asked again
        ReconfigurationResponseParameter r = onlyResponse(f);
        assertEquals(RESULT_SUCCESS_PERFORMED, r.result());
        int ourNext = tsn + 1;
        int peerNext = PEER_TSN + 1 + Integer.MIN_VALUE;
        assertEquals(ourNext, r.nextTsns().orElseThrow().sendersNextTsn(), "G2: our numbering goes on");
        assertEquals(peerNext, r.nextTsns().orElseThrow().receiversNextTsn(), "G1: 2^31 past what we received");
        assertEquals(
                List.of(new SctpEvent.AssociationReset(f.a.id(), ReconfigOutcome.PERFORMED, ourNext, peerNext)),
                f.eventsOf(SctpEvent.AssociationReset.class));
        f.deliver(f.tcb().localTag, peerData(peerNext, 0, 0));
        assertEquals(2, f.eventsOf(SctpEvent.MessageReceived.class).size(), "SSN 0 at the new TSN is taken");
        send(f, 0);
        assertEquals(0, data(chunks(f.sent())).get(0).ssn());
    }

    @Test
    void peersAddIncomingIsAnsweredAndFollowedByOurAddOutgoing() {
        AssocFixture f = up();
        peer(f, new AddIncomingStreamsRequestParameter(PEER_TSN, 3));
        List<Parameter> p = reconfigParams(chunks(f.sent()));
        assertEquals(2, p.size(), p.toString());
        assertEquals(ReconfigurationResponseParameter.of(PEER_TSN, RESULT_SUCCESS_PERFORMED), p.get(0));
        assertEquals(new AddOutgoingStreamsRequestParameter(local(f), 3), p.get(1));
    }

    @Test
    void hostileChunksChangeNothingAndNeverThrow() {
        AssocFixture f = up();
        // A response to nothing outstanding.
        peer(f, ReconfigurationResponseParameter.of(12345, RESULT_SUCCESS_PERFORMED));
        // An unknown parameter with "00" high bits: the rest of the chunk is not processed.
        peer(f, new UnknownParameter(0x0042, Bytes.of((byte) 1)), new SsnTsnResetRequestParameter(PEER_TSN));
        // With "10": skipped, the next one is processed.
        peer(f, new UnknownParameter(0x8042, Bytes.of((byte) 1)), new AddOutgoingStreamsRequestParameter(PEER_TSN, 0));
        assertEquals(
                ReconfigurationResponseParameter.RESULT_SUCCESS_NOTHING_TO_DO,
                onlyResponse(f).result());
        // A RE-CONFIG without any parameter does not decode: ignored.
        f.deliver(f.tcb().localTag, new org.sctpj.stack.wire.chunk.UnknownChunk(0x82, 0, Bytes.of(new byte[0])));
        assertTrue(f.sent().stream().allMatch(o -> o.chunks().stream().noneMatch(c -> c instanceof ReConfigChunk)));
        assertTrue(f.eventsOf(SctpEvent.AssociationReset.class).isEmpty());
        assertFalse(f.closed);
    }

    @Test
    void withoutNegotiationTheCallsAreRefusedAndTheChunkIsAnUnrecognizedOne() {
        AssocFixture f = AssocFixture.established(O); // the peer's INIT ACK lists no extension
        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> f.a.resetStreams(new int[0], true, false, f.now));
        assertTrue(e.getMessage().contains("did not announce RE-CONFIG"), e.getMessage());
        peer(f, new SsnTsnResetRequestParameter(PEER_TSN));
        // Type 130 has the high bits "10": skipped without a report (RFC 9260 section 3.2).
        assertTrue(reconfigParams(chunks(f.sent())).isEmpty());
        assertTrue(f.eventsOf(SctpEvent.AssociationReset.class).isEmpty());
    }

    @Test
    void aMessageHalfDeliveredWhenTheTsnsRestartGetsPartialDeliveryAborted() {
        AssocFixture f = up(O.toBuilder().partialDeliveryPoint(100).build());
        // The first fragment of a message of the peer, more than the partial delivery point.
        f.deliver(
                f.tcb().localTag, new DataChunk(false, false, true, false, PEER_TSN, 2, 0, 0, Bytes.of(new byte[300])));
        f.sent();
        assertEquals(1, f.eventsOf(SctpEvent.MessagePart.class).size(), "delivery in parts began");
        f.a.resetAssociation(f.now);
        SsnTsnResetRequestParameter req = assertInstanceOf(
                SsnTsnResetRequestParameter.class,
                reconfigParams(chunks(f.sent())).get(0));
        peer(f, ReconfigurationResponseParameter.of(req.requestSequenceNumber(), RESULT_SUCCESS_PERFORMED, 5, 9));
        List<SctpEvent> ev = f.events.stream()
                .filter(e -> e instanceof SctpEvent.PartialDeliveryAborted || e instanceof SctpEvent.AssociationReset)
                .toList();
        assertEquals(2, ev.size(), ev.toString());
        SctpEvent.PartialDeliveryAborted pd = assertInstanceOf(SctpEvent.PartialDeliveryAborted.class, ev.get(0));
        assertEquals(2, pd.streamId());
        assertEquals(300, pd.deliveredBytes());
        assertInstanceOf(SctpEvent.AssociationReset.class, ev.get(1));
        // The rest of the old message never completes: the next message of stream 2 is SSN 0 at TSN 5.
        f.deliver(f.tcb().localTag, peerData(5, 2, 0));
        assertEquals(1, f.eventsOf(SctpEvent.MessageReceived.class).size());
    }

    @Test
    void randomReConfigChunksNeverThrowAndKeepTheStateBounded() {
        AssocFixture f = up();
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(42);
        for (int i = 0; i < 20_000; i++) {
            int sn = rnd.nextBoolean() ? PEER_TSN + rnd.nextInt(-3, 4) : rnd.nextInt();
            List<Integer> streams = new ArrayList<>();
            for (int k = rnd.nextInt(0, 6); k > 0; k--) {
                streams.add(rnd.nextInt(0, rnd.nextBoolean() ? 12 : 65536));
            }
            Parameter p =
                    switch (rnd.nextInt(7)) {
                        case 0 -> new OutgoingSsnResetRequestParameter(
                                sn, rnd.nextInt(), PEER_TSN + rnd.nextInt(-2, 3), streams);
                        case 1 -> new IncomingSsnResetRequestParameter(sn, streams);
                        case 2 -> new SsnTsnResetRequestParameter(sn);
                        case 3 -> new AddOutgoingStreamsRequestParameter(sn, rnd.nextInt(0, 65536));
                        case 4 -> new AddIncomingStreamsRequestParameter(sn, rnd.nextInt(0, 65536));
                        case 5 -> ReconfigurationResponseParameter.of(
                                local(f) + rnd.nextInt(-2, 3), rnd.nextInt(0, 8), rnd.nextInt(), rnd.nextInt());
                        default -> new UnknownParameter(rnd.nextInt(0, 0x10000), Bytes.of((byte) 1));
                    };
            if (rnd.nextInt(10) == 0) {
                peer(f, p, ReconfigurationResponseParameter.of(rnd.nextInt(), RESULT_DENIED));
            } else {
                peer(f, p);
            }
            if (f.a.outboundStreams() < 10 || f.closed) {
                break;
            }
            f.sent();
        }
        // (Time stands still: an unanswered request of ours would rightly end the association.)
        assertFalse(f.closed, "nothing the peer says in RE-CONFIG ends the association: " + f.events);
        assertTrue(f.a.inboundStreams() <= 65535 && f.a.outboundStreams() <= 65535);
        assertTrue(f.tcb().reconfig.toString().length() < 4096, f.tcb().reconfig.toString());
    }

    @Test
    void userErrorsSayWhatToDo() {
        AssocFixture f = up();
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> f.a.resetStreams(new int[] {10}, true, false, f.now));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> f.a.resetStreams(new int[] {1}, false, false, f.now));
        assertThrows(IllegalArgumentException.class, () -> f.a.addStreams(0, 0, f.now));
        assertThrows(IllegalArgumentException.class, () -> f.a.addStreams(65535, 0, f.now));
        AssocFixture closing = up();
        closing.a.shutdown(closing.now);
        IllegalStateException s =
                assertThrows(IllegalStateException.class, () -> closing.a.resetAssociation(closing.now));
        assertTrue(s.getMessage().contains("only while the association is established"), s.getMessage());
    }
}
