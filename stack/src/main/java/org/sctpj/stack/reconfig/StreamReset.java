package org.sctpj.stack.reconfig;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.sctpj.stack.Extension;
import org.sctpj.stack.ReconfigRequestKind;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.ReconfigOutcome;
import org.sctpj.stack.assoc.Association;
import org.sctpj.stack.assoc.InboundPacket;
import org.sctpj.stack.assoc.Tcb;
import org.sctpj.stack.assoc.TimerKind;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.rx.DataReceiver;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Serial;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.Chunks;
import org.sctpj.stack.wire.chunk.ReConfigChunk;
import org.sctpj.stack.wire.param.AddIncomingStreamsRequestParameter;
import org.sctpj.stack.wire.param.AddOutgoingStreamsRequestParameter;
import org.sctpj.stack.wire.param.IncomingSsnResetRequestParameter;
import org.sctpj.stack.wire.param.OutgoingSsnResetRequestParameter;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.ReconfigurationResponseParameter;
import org.sctpj.stack.wire.param.ReconfigurationResponseParameter.NextTsns;
import org.sctpj.stack.wire.param.SsnTsnResetRequestParameter;

/**
 * Stream reconfiguration, RFC 6525: resetting the SSNs of outgoing streams (section 5.1.2) and
 * asking the peer to reset its own (5.1.3), resetting the association's TSNs and every SSN (5.1.4),
 * adding outgoing streams (5.1.5) and asking the peer to add its own (5.1.6), with the
 * request/response state machine of sections 5.1.1 and 5.2.
 *
 * <p>As requester: each request carries the next Re-configuration Request Sequence Number
 * (initialized to our initial TSN); one RE-CONFIG chunk (one request, or the pairs section 3.1
 * allows: outgoing + incoming reset, add outgoing + add incoming) is outstanding at a time, under
 * the {@link TimerKind#RECONFIG} timer: it is retransmitted unchanged when the timer expires, with
 * the RTO backed off and the error counted against the association and the path, as for T3-rtx
 * (section 5.1.1). Requests asked for meanwhile wait and are merged. An outgoing reset holds the
 * streams (messages accepted after the call wait, those before are sent first) and goes out once
 * their last message before the call has its TSN, so the Sender's Last Assigned TSN covers it;
 * the hold ends when the peer answers, the SSNs at 0 if the reset was performed. An SSN/TSN reset
 * holds every stream and waits until nothing is outstanding.
 *
 * <p>As responder: the peer's Request Sequence Numbers must be the one expected (its initial TSN,
 * then +1 each); the last two are remembered with their results, so a retransmitted request gets
 * the same answer, and anything else gets Error - Bad Sequence Number. An outgoing reset of the
 * peer is performed once every TSN up to its Sender's Last Assigned TSN has arrived, and answered
 * In progress until then (section 5.2.2 E2); a retransmission of it is answered Performed once
 * done. The kinds of request accepted are {@link
 * org.sctpj.stack.SctpOptions#acceptedReconfigRequests()}, the others are Denied. Streams that do
 * not exist get Error - Wrong SSN; additions beyond 65535 streams or the inbound stream cap ({@link
 * org.sctpj.stack.SctpOptions#maxInboundStreams()}) are Denied.
 *
 * <p>Hostile input: a RE-CONFIG that does not decode is ignored; unknown parameters are skipped or
 * end the chunk by their two high bits (RFC 9260 section 3.2.1); responses to nothing outstanding
 * are ignored; nothing a peer sends grows this class's state beyond one deferred reset and two
 * remembered results.
 *
 * <p>Both directions at once: the two sides' sequence numbers are independent, so each side's
 * requests are answered on their own. A request for an SSN/TSN reset, or an incoming reset,
 * that arrives while one of our own requests is pending or outstanding is answered Error -
 * Request already in progress (the peer may ask again), as Linux does.
 *
 * <p>Not thread-safe, like the association.
 */
public final class StreamReset {

    /** Most stream numbers per request: a RE-CONFIG with two of them fits any path MTU (1280). */
    public static final int MAX_STREAMS_PER_REQUEST = 256;

    private static final int OUT_RESET = 0;
    private static final int IN_RESET = 1;
    private static final int TSN_RESET = 2;
    private static final int ADD_OUT = 3;
    private static final int ADD_IN = 4;

    private static final int RESULT_NONE = -1;

    /** A request of ours in the outstanding RE-CONFIG. */
    private record Request(int kind, int sn, int[] streams, int count) {}

    private final Tcb t;
    private Set<ReconfigRequestKind> accepted;

    // ---- our requests
    private int nextSn;
    /** Streams whose outgoing reset waits to be sent; {@link #pendOutAll} for all. */
    private final TreeSet<Integer> pendOut = new TreeSet<>();

    private boolean pendOutAll;
    /** The peer's Incoming SSN Reset Request our pending outgoing reset answers, else RESULT_NONE. */
    private long pendOutAnswers = RESULT_NONE;

    private final TreeSet<Integer> pendIn = new TreeSet<>();
    private boolean pendInAll;
    private boolean pendTsn;
    private int pendAddOut;
    private int pendAddIn;
    /** The outstanding requests (one or two), empty when none. */
    private final List<Request> outstanding = new ArrayList<>(2);

    private ReConfigChunk inFlight;
    private Path inFlightPath;
    /** The peer answered In progress: the next expiry retransmits without counting an error. */
    private boolean inProgress;

    // ---- the peer's requests
    private int peerNextSn;
    private final int[] lastSn = new int[2];
    private final int[] lastResult = {RESULT_NONE, RESULT_NONE};
    private final NextTsns[] lastTsns = new NextTsns[2];
    private final int[] lastKind = new int[2];
    /** A deferred outgoing reset of the peer (section 5.2.2 E2). */
    private boolean deferred;

    private int deferredSn;
    private int deferredLastTsn;
    private int[] deferredStreams;
    /** The last outgoing reset of the peer performed here: the same one asked again is not done twice. */
    private int performedLastTsn;

    private int[] performedStreams;

    /** The procedure of {@code t}'s association. */
    public StreamReset(Tcb t) {
        this.t = t;
        this.accepted = t.o.acceptedReconfigRequests();
    }

    /**
     * Starts (or, on a restart, starts over) with the handshake's initial TSNs: they are the first
     * Re-configuration Request Sequence Numbers of each side (RFC 6525 section 4.1).
     */
    public void start(int localInitialTsn, int peerInitialTsn) {
        nextSn = localInitialTsn;
        peerNextSn = peerInitialTsn;
        pendOut.clear();
        pendIn.clear();
        pendOutAll = pendInAll = pendTsn = false;
        pendOutAnswers = RESULT_NONE;
        pendAddOut = pendAddIn = 0;
        outstanding.clear();
        inFlight = null;
        inProgress = false;
        lastResult[0] = lastResult[1] = RESULT_NONE;
        deferred = false;
        performedStreams = null;
        t.timers.stop(TimerKind.RECONFIG);
    }

    // ------------------------------------------------------------------ user commands

    /** The kinds of request of the peer this association accepts (RFC 6525 section 6.3.1). */
    public Set<ReconfigRequestKind> acceptedRequests() {
        return accepted;
    }

    /** Sets {@link #acceptedRequests()}. */
    public void setAcceptedRequests(Set<ReconfigRequestKind> kinds) {
        this.accepted = Set.copyOf(kinds.isEmpty() ? EnumSet.noneOf(ReconfigRequestKind.class) : EnumSet.copyOf(kinds));
    }

    /**
     * Resets the SSNs of {@code streams} (all streams when empty): of our outgoing streams
     * (section 5.1.2) and/or, by asking the peer, of its outgoing streams towards us (section
     * 5.1.3). Our messages on those streams accepted from now on wait until the peer answered.
     */
    public void resetStreams(int[] streams, boolean outgoing, boolean incoming, long now) {
        checkUsable();
        if (!outgoing && !incoming) {
            throw new IllegalArgumentException("say which direction to reset: outgoing, incoming or both");
        }
        for (int s : streams) {
            if (s < 0 || (outgoing && s >= t.outboundStreams) || (incoming && s >= t.inboundStreams)) {
                throw new IllegalArgumentException("stream " + s + " does not exist on " + t.id + " (outbound 0.."
                        + (t.outboundStreams - 1) + ", inbound 0.." + (t.inboundStreams - 1)
                        + "): reset only streams of the association");
            }
        }
        if (outgoing) {
            if (streams.length == 0) {
                pendOutAll = true;
                pendOut.clear();
                t.tx.holdAllStreams();
            } else {
                if (!pendOutAll) {
                    for (int s : streams) {
                        pendOut.add(s);
                    }
                }
                t.tx.holdStreams(streams);
            }
        }
        if (incoming) {
            if (streams.length == 0) {
                pendInAll = true;
                pendIn.clear();
            } else if (!pendInAll) {
                for (int s : streams) {
                    pendIn.add(s);
                }
            }
        }
    }

    /**
     * Resets the association's TSNs and every stream's SSNs in both directions (sections 5.1.4 and
     * 5.2.4). Every stream is held; the request goes once all our data was acknowledged.
     *
     * @throws IllegalStateException if an association reset is already under way
     */
    public void resetAssociation(long now) {
        checkUsable();
        if (pendTsn || outstandingKind(TSN_RESET)) {
            throw new IllegalStateException(
                    "an association reset of " + t.id + " is already under way: wait for its AssociationReset event");
        }
        pendTsn = true;
        t.tx.holdAllStreams();
    }

    /**
     * Adds {@code outbound} streams of ours (section 5.1.5) and asks the peer to add {@code inbound}
     * streams of its own towards us (section 5.1.6).
     *
     * @throws IllegalArgumentException for negative counts, none at all, or more than 65535
     *     streams in a direction
     */
    public void addStreams(int outbound, int inbound, long now) {
        checkUsable();
        if (outbound < 0 || inbound < 0 || outbound + inbound == 0) {
            throw new IllegalArgumentException(
                    "add at least one stream, and no negative count: outbound " + outbound + ", inbound " + inbound);
        }
        long out = (long) t.outboundStreams + pendAddOut + outboundInFlight() + outbound;
        long in = (long) t.inboundStreams + pendAddIn + inboundInFlight() + inbound;
        if (out > 65535 || in > 65535) {
            throw new IllegalArgumentException("an association has at most 65535 streams each way: " + t.id
                    + " would have " + out + " outbound and " + in + " inbound streams");
        }
        pendAddOut += outbound;
        pendAddIn += inbound;
    }

    private void checkUsable() {
        if (!negotiated()) {
            throw new IllegalStateException("stream reconfiguration is not available on " + t.id
                    + ": the peer did not announce RE-CONFIG support (RFC 6525), or RECONFIG is not among"
                    + " our SctpOptions extensions");
        }
        if (t.state != Association.State.ESTABLISHED || t.tx == null) {
            throw new IllegalStateException(t.id + " is " + t.state
                    + ": streams can be reconfigured only while the association is established");
        }
    }

    /** Whether RE-CONFIG was negotiated. */
    private boolean negotiated() {
        return t.has(Extension.RECONFIG);
    }

    private int outboundInFlight() {
        int n = 0;
        for (Request r : outstanding) {
            n += r.kind == ADD_OUT ? r.count : 0;
        }
        return n;
    }

    private int inboundInFlight() {
        int n = 0;
        for (Request r : outstanding) {
            n += r.kind == ADD_IN ? r.count : 0;
        }
        return n;
    }

    private boolean outstandingKind(int kind) {
        for (Request r : outstanding) {
            if (r.kind == kind) {
                return true;
            }
        }
        return false;
    }

    /** Whether a request of ours is waiting to be sent or outstanding. */
    public boolean busy() {
        return !outstanding.isEmpty()
                || pendOutAll
                || !pendOut.isEmpty()
                || pendInAll
                || !pendIn.isEmpty()
                || pendTsn
                || pendAddOut > 0
                || pendAddIn > 0;
    }

    // ------------------------------------------------------------------ sending requests

    /**
     * Before a packet is built: when nothing is outstanding and a pending request may go, queues
     * its RE-CONFIG and starts the timer.
     */
    public void beforeTransmit(long now) {
        if (t.tx == null || !busy()) {
            return;
        }
        if (!mayRequest()) {
            if (t.state == Association.State.SHUTDOWN_SENT || t.state == Association.State.SHUTDOWN_ACK_SENT) {
                giveUpPending(); // the one outstanding may still be answered before the end
            }
            return;
        }
        if (!outstanding.isEmpty()) {
            return;
        }
        List<Parameter> params = new ArrayList<>(2);
        boolean outPending = pendOutAll || !pendOut.isEmpty();
        boolean inPending = pendInAll || !pendIn.isEmpty();
        if (outPending || inPending) {
            int[] outStreams = outPending ? take(pendOut, pendOutAll) : null;
            if (outPending && t.tx.unsentBeforeHold(outStreams)) {
                return; // the messages accepted before the reset must have their TSNs first
            }
            if (outPending) {
                int answers = pendOutAnswers != RESULT_NONE ? (int) pendOutAnswers : peerNextSn - 1;
                int sn = nextSn++;
                params.add(
                        new OutgoingSsnResetRequestParameter(sn, answers, t.tx.lastAssignedTsn(), boxed(outStreams)));
                outstanding.add(new Request(OUT_RESET, sn, outStreams, 0));
                consume(pendOut, outStreams);
                if (outStreams.length == 0) {
                    pendOutAll = false;
                }
                pendOutAnswers = RESULT_NONE;
            }
            if (inPending) {
                int[] inStreams = take(pendIn, pendInAll);
                int sn = nextSn++;
                params.add(new IncomingSsnResetRequestParameter(sn, boxed(inStreams)));
                outstanding.add(new Request(IN_RESET, sn, inStreams, 0));
                consume(pendIn, inStreams);
                if (inStreams.length == 0) {
                    pendInAll = false;
                }
            }
        } else if (pendTsn) {
            if (t.tx.outstandingCount() > 0 || t.tx.unsentBeforeHold(new int[0])) {
                return; // section 5.1.4: our data goes first, all of it acknowledged
            }
            int sn = nextSn++;
            params.add(new SsnTsnResetRequestParameter(sn));
            outstanding.add(new Request(TSN_RESET, sn, new int[0], 0));
            pendTsn = false;
        } else {
            if (pendAddOut > 0) {
                int sn = nextSn++;
                params.add(new AddOutgoingStreamsRequestParameter(sn, pendAddOut));
                outstanding.add(new Request(ADD_OUT, sn, new int[0], pendAddOut));
                pendAddOut = 0;
            }
            if (pendAddIn > 0) {
                int sn = nextSn++;
                params.add(new AddIncomingStreamsRequestParameter(sn, pendAddIn));
                outstanding.add(new Request(ADD_IN, sn, new int[0], pendAddIn));
                pendAddIn = 0;
            }
        }
        inFlight = new ReConfigChunk(params);
        inProgress = false;
        send(now);
    }

    /** Up to {@link #MAX_STREAMS_PER_REQUEST} streams of {@code set}; none (all streams) when {@code all}. */
    private static int[] take(TreeSet<Integer> set, boolean all) {
        if (all) {
            return new int[0];
        }
        int[] out = new int[Math.min(set.size(), MAX_STREAMS_PER_REQUEST)];
        int i = 0;
        for (Integer s : set) {
            if (i == out.length) {
                break;
            }
            out[i++] = s;
        }
        return out;
    }

    private static void consume(TreeSet<Integer> set, int[] streams) {
        if (streams.length == 0) {
            set.clear();
        }
        for (int s : streams) {
            set.remove(s);
        }
    }

    private static List<Integer> boxed(int[] a) {
        List<Integer> l = new ArrayList<>(a.length);
        for (int x : a) {
            l.add(x);
        }
        return l;
    }

    private void send(long now) {
        Path p = t.failover.dataPath();
        inFlightPath = p;
        t.queue(inFlight, p.address(), t.peerTag);
        t.timers.start(TimerKind.RECONFIG, now + p.rto().rto());
    }

    /**
     * The {@link TimerKind#RECONFIG} timer expired (RFC 6525 section 5.1.1): the outstanding
     * RE-CONFIG goes again, unchanged, to the path new data takes; the RTO of the path it went to
     * backs off and the error counts against that path and the association, as for T3-rtx (RFC
     * 9260 section 6.3.3), unless the peer had answered In progress.
     */
    public void onTimer(long now) {
        if (inFlight == null || t.tx == null) {
            return;
        }
        if (!mayRequest()) {
            giveUp();
            return;
        }
        if (!inProgress) {
            Path p = inFlightPath != null && t.paths.contains(inFlightPath) ? inFlightPath : t.failover.dataPath();
            if (!t.failover.controlTimedOut(p, now)) {
                return;
            }
        }
        inProgress = false;
        send(now);
    }

    // ------------------------------------------------------------------ input

    /**
     * A RE-CONFIG chunk (RFC 6525 section 5.2): each parameter in turn, requests answered in one
     * RE-CONFIG of responses, responses matched to our outstanding requests.
     */
    public void onReConfig(InboundPacket pkt, int i, long now) {
        if (t.tx == null || t.rx == null) {
            return;
        }
        // In SHUTDOWN-ACK-SENT only the answer to our outstanding request counts: the peer may
        // have sent it before our SHUTDOWN ACK reached it (RFC 9260 section 9.2 ends data, not
        // the answers to what was asked before).
        boolean responsesOnly = t.state == Association.State.SHUTDOWN_ACK_SENT;
        if (!responsesOnly && !t.canBundleData()) {
            return;
        }
        Parsed<? extends Chunk> p = Chunks.decode(pkt.buffer(), pkt.offset(i), pkt.length(i));
        if (!p.isOk() || !(p.value() instanceof ReConfigChunk c)) {
            return;
        }
        List<Parameter> answers = new ArrayList<>(2);
        for (Parameter param : c.parameters()) {
            if (responsesOnly && !(param instanceof ReconfigurationResponseParameter)) {
                continue;
            }
            if (param instanceof OutgoingSsnResetRequestParameter r) {
                acknowledgeIncoming(r.responseSequenceNumber());
                answer(OUT_RESET, r.requestSequenceNumber(), () -> peerOutgoingReset(r), answers);
            } else if (param instanceof IncomingSsnResetRequestParameter r) {
                answer(IN_RESET, r.requestSequenceNumber(), () -> peerIncomingReset(r), answers);
            } else if (param instanceof SsnTsnResetRequestParameter r) {
                answer(TSN_RESET, r.requestSequenceNumber(), this::peerTsnReset, answers);
            } else if (param instanceof AddOutgoingStreamsRequestParameter r) {
                acknowledgeAddIncoming();
                answer(ADD_OUT, r.requestSequenceNumber(), () -> peerAddOutgoing(r.newStreams()), answers);
            } else if (param instanceof AddIncomingStreamsRequestParameter r) {
                answer(ADD_IN, r.requestSequenceNumber(), () -> peerAddIncoming(r.newStreams()), answers);
            } else if (param instanceof ReconfigurationResponseParameter r) {
                onResponse(r, now);
            } else {
                // An unknown parameter (RFC 9260 section 3.2.1): "00" and "01" stop here.
                if ((param.type() & 0x8000) == 0) {
                    break;
                }
            }
            if (t.state == Association.State.CLOSED) {
                return;
            }
        }
        if (!answers.isEmpty()) {
            InetAddress to = t.pathSet.replyTo(pkt.from());
            for (int k = 0; k < answers.size(); k += ReConfigChunk.MAX_PARAMETERS) {
                t.queue(
                        new ReConfigChunk(
                                answers.subList(k, Math.min(answers.size(), k + ReConfigChunk.MAX_PARAMETERS))),
                        to,
                        t.peerTag);
            }
        }
    }

    /** The result of a request: a code, and the TSNs of a performed SSN/TSN reset. */
    private record Result(int code, NextTsns tsns) {
        static Result of(int code) {
            return new Result(code, null);
        }
    }

    @FunctionalInterface
    private interface Handler {
        Result handle();
    }

    /**
     * The sequence number check of RFC 6525 section 5.2.1 for a request of {@code kind} numbered
     * {@code sn}: the expected one is handled and remembered; one of the two before it is a
     * retransmission and gets the remembered answer (an In progress one is looked at again);
     * anything else gets Error - Bad Sequence Number.
     */
    private void answer(int kind, int sn, Handler handler, List<Parameter> answers) {
        if (sn == peerNextSn) {
            Result r = handler.handle();
            remember(sn, kind, r);
            peerNextSn++;
            if (!(kind == IN_RESET && r.code == ReconfigurationResponseParameter.RESULT_SUCCESS_PERFORMED)) {
                answers.add(response(sn, r));
            }
            return;
        }
        int k = rememberedIndex(sn);
        if (k < 0 || lastKind[k] != kind) {
            answers.add(ReconfigurationResponseParameter.of(
                    sn, ReconfigurationResponseParameter.RESULT_ERROR_BAD_SEQUENCE_NUMBER));
            return;
        }
        if (lastResult[k] == ReconfigurationResponseParameter.RESULT_IN_PROGRESS && kind == TSN_RESET) {
            Result again = peerTsnReset();
            lastResult[k] = again.code;
            lastTsns[k] = again.tsns;
        }
        if (kind == IN_RESET
                && lastResult[k] == ReconfigurationResponseParameter.RESULT_SUCCESS_PERFORMED
                && (pendOutAnswers == Integer.toUnsignedLong(sn) || outstandingKind(OUT_RESET))) {
            return; // our outgoing reset is the answer: it is on its way or will be retransmitted
        }
        answers.add(response(sn, new Result(lastResult[k], lastTsns[k])));
    }

    private static ReconfigurationResponseParameter response(int sn, Result r) {
        return r.tsns == null
                ? ReconfigurationResponseParameter.of(sn, r.code)
                : ReconfigurationResponseParameter.of(sn, r.code, r.tsns.sendersNextTsn(), r.tsns.receiversNextTsn());
    }

    private void remember(int sn, int kind, Result r) {
        lastSn[1] = lastSn[0];
        lastResult[1] = lastResult[0];
        lastTsns[1] = lastTsns[0];
        lastKind[1] = lastKind[0];
        lastSn[0] = sn;
        lastResult[0] = r.code;
        lastTsns[0] = r.tsns;
        lastKind[0] = kind;
    }

    private int rememberedIndex(int sn) {
        for (int k = 0; k < 2; k++) {
            if (lastResult[k] != RESULT_NONE && lastSn[k] == sn) {
                return k;
            }
        }
        return -1;
    }

    /** Section 5.2.2 E1: an outgoing reset of the peer that answers our incoming reset request. */
    private void acknowledgeIncoming(int responseSn) {
        for (int k = 0; k < outstanding.size(); k++) {
            Request r = outstanding.get(k);
            if (r.kind == IN_RESET && r.sn == responseSn) {
                outstanding.remove(k);
                afterAnswer();
                return;
            }
        }
    }

    /**
     * The peer's Add Outgoing Streams Request also answers our outstanding Add Incoming Streams
     * Request (section 5.2.6: the peer adds its outgoing streams in turn); Linux sends no
     * Re-configuration Response besides, so this is the only answer it gives.
     */
    private void acknowledgeAddIncoming() {
        for (int k = 0; k < outstanding.size(); k++) {
            if (outstanding.get(k).kind == ADD_IN) {
                outstanding.remove(k);
                afterAnswer();
                return;
            }
        }
    }

    /** The peer's Outgoing SSN Reset Request (section 5.2.2). */
    private Result peerOutgoingReset(OutgoingSsnResetRequestParameter r) {
        if (!accepted.contains(ReconfigRequestKind.STREAM_RESET)) {
            return Result.of(ReconfigurationResponseParameter.RESULT_DENIED);
        }
        int[] streams = unboxed(r.streams());
        for (int s : streams) {
            if (s >= t.rx.inboundStreams()) {
                return Result.of(ReconfigurationResponseParameter.RESULT_ERROR_WRONG_SSN);
            }
        }
        if (Serial.le(r.sendersLastAssignedTsn(), t.rx.cumulativeTsn())) {
            deferred = false;
            if (!(r.sendersLastAssignedTsn() == performedLastTsn && Arrays.equals(streams, performedStreams))) {
                performIncomingReset(r.sendersLastAssignedTsn(), streams);
            }
            // else: the same reset asked again under a new number after In progress; done already
            return Result.of(ReconfigurationResponseParameter.RESULT_SUCCESS_PERFORMED);
        }
        // A newer request (the peer asks again under a new number) supersedes a deferred one.
        // E2: deferred reset processing until the cumulative TSN reaches the last assigned TSN.
        deferred = true;
        deferredSn = r.requestSequenceNumber();
        deferredLastTsn = r.sendersLastAssignedTsn();
        deferredStreams = streams;
        t.rx.deferReset(deferredLastTsn, streams); // later data on those streams waits (E2)
        return Result.of(ReconfigurationResponseParameter.RESULT_IN_PROGRESS);
    }

    private void performIncomingReset(int lastTsn, int[] streams) {
        performedLastTsn = lastTsn;
        performedStreams = streams;
        t.rx.resetStreams(streams);
        t.host.emit(new SctpEvent.StreamReset(t.id, false, ReconfigOutcome.PERFORMED, boxed(streams)));
    }

    /**
     * After a packet's chunks: a deferred outgoing reset of the peer is performed once the
     * cumulative TSN reached its Sender's Last Assigned TSN (section 5.2.2 E2 and E3), and the
     * remembered answer becomes Performed for the retransmission of the request.
     */
    public void afterPacket(long now) {
        if (!deferred || t.rx == null || !Serial.le(deferredLastTsn, t.rx.cumulativeTsn())) {
            return;
        }
        deferred = false;
        performIncomingReset(deferredLastTsn, deferredStreams);
        int k = rememberedIndex(deferredSn);
        if (k >= 0) {
            lastResult[k] = ReconfigurationResponseParameter.RESULT_SUCCESS_PERFORMED;
        }
        deferredStreams = null;
        t.data.deliverMessages(); // those that waited for the reset (E2)
    }

    /** The peer's Incoming SSN Reset Request (section 5.2.3): answered by our outgoing reset. */
    private Result peerIncomingReset(IncomingSsnResetRequestParameter r) {
        if (!accepted.contains(ReconfigRequestKind.STREAM_RESET)) {
            return Result.of(ReconfigurationResponseParameter.RESULT_DENIED);
        }
        int[] streams = unboxed(r.streams());
        for (int s : streams) {
            if (s >= t.outboundStreams) {
                return Result.of(ReconfigurationResponseParameter.RESULT_ERROR_WRONG_SSN);
            }
        }
        if (!outstanding.isEmpty() || pendOutAll || !pendOut.isEmpty()) {
            return Result.of(ReconfigurationResponseParameter.RESULT_ERROR_REQUEST_IN_PROGRESS);
        }
        if (streams.length == 0) {
            pendOutAll = true;
            t.tx.holdAllStreams();
        } else {
            for (int s : streams) {
                pendOut.add(s);
            }
            t.tx.holdStreams(streams);
        }
        pendOutAnswers = Integer.toUnsignedLong(r.requestSequenceNumber());
        return Result.of(ReconfigurationResponseParameter.RESULT_SUCCESS_PERFORMED);
    }

    /**
     * The peer's SSN/TSN Reset Request (section 5.2.4): In progress while our own data is not all
     * acknowledged; then G1 to G5: the next TSN we expect jumps by 2^31 past what we received, ours
     * goes on, every SSN is 0.
     */
    private Result peerTsnReset() {
        if (!accepted.contains(ReconfigRequestKind.ASSOCIATION_RESET)) {
            return Result.of(ReconfigurationResponseParameter.RESULT_DENIED);
        }
        if (busy()) {
            return Result.of(ReconfigurationResponseParameter.RESULT_ERROR_REQUEST_IN_PROGRESS);
        }
        if (t.tx.outstandingCount() > 0 || t.tx.queuedMessages() > 0) {
            return Result.of(ReconfigurationResponseParameter.RESULT_IN_PROGRESS);
        }
        int remote = t.rx.cumulativeTsn() + 1 + Integer.MIN_VALUE; // G1: + 2^31
        int local = t.tx.nextTsn(); // G2
        resetTsns(local, remote);
        return new Result(ReconfigurationResponseParameter.RESULT_SUCCESS_PERFORMED, new NextTsns(local, remote));
    }

    private void resetTsns(int local, int remote) {
        for (DataReceiver.PartialDelivery pd : t.rx.resetTsn(remote)) {
            t.host.emit(new SctpEvent.PartialDeliveryAborted(
                    t.id, pd.streamId(), pd.ssn(), pd.unordered(), pd.deliveredBytes()));
        }
        t.tx.resetTsn(local);
        t.host.emit(new SctpEvent.AssociationReset(t.id, ReconfigOutcome.PERFORMED, local, remote));
    }

    /** The peer's Add Outgoing Streams Request (section 5.2.5): our inbound streams grow. */
    private Result peerAddOutgoing(int n) {
        if (!accepted.contains(ReconfigRequestKind.ADD_STREAMS)) {
            return Result.of(ReconfigurationResponseParameter.RESULT_DENIED);
        }
        if (n == 0) {
            return Result.of(ReconfigurationResponseParameter.RESULT_SUCCESS_NOTHING_TO_DO);
        }
        int in = t.rx.inboundStreams() + n;
        if (in > Math.min(65535, t.o.maxInboundStreams())) {
            return Result.of(ReconfigurationResponseParameter.RESULT_DENIED);
        }
        t.rx.setInboundStreams(in);
        t.inboundStreams = in;
        t.host.emit(new SctpEvent.StreamChange(t.id, ReconfigOutcome.PERFORMED, in, t.outboundStreams));
        return Result.of(ReconfigurationResponseParameter.RESULT_SUCCESS_PERFORMED);
    }

    /** The peer's Add Incoming Streams Request (section 5.2.6): we add outgoing streams in turn. */
    private Result peerAddIncoming(int n) {
        if (!accepted.contains(ReconfigRequestKind.ADD_STREAMS)) {
            return Result.of(ReconfigurationResponseParameter.RESULT_DENIED);
        }
        if (n == 0) {
            return Result.of(ReconfigurationResponseParameter.RESULT_SUCCESS_NOTHING_TO_DO);
        }
        if ((long) t.outboundStreams + pendAddOut + outboundInFlight() + n > 65535) {
            return Result.of(ReconfigurationResponseParameter.RESULT_DENIED);
        }
        pendAddOut += n;
        return Result.of(ReconfigurationResponseParameter.RESULT_SUCCESS_PERFORMED);
    }

    /** A Re-configuration Response (section 5.2.7) to one of our outstanding requests. */
    private void onResponse(ReconfigurationResponseParameter r, long now) {
        int k = 0;
        while (k < outstanding.size() && outstanding.get(k).sn != r.responseSequenceNumber()) {
            k++;
        }
        if (k == outstanding.size()) {
            return; // answers nothing outstanding: a late duplicate, or made up
        }
        Request q = outstanding.get(k);
        t.associationErrors = 0;
        int code = r.result();
        if (code == ReconfigurationResponseParameter.RESULT_IN_PROGRESS) {
            // Ask again after an RTO, unchanged and without counting an error (the peer waits for
            // our data). The same Request Sequence Number: Linux answers In progress without
            // taking the number, so a new one would be a Bad Sequence Number there; a peer that
            // took it (usrsctp, us) answers the retransmission with the result it has by then.
            inProgress = true;
            Path p = t.failover.dataPath();
            t.timers.start(TimerKind.RECONFIG, now + p.rto().rto());
            return;
        }
        outstanding.remove(k);
        ReconfigOutcome outcome = code == ReconfigurationResponseParameter.RESULT_SUCCESS_PERFORMED
                ? ReconfigOutcome.PERFORMED
                : code == ReconfigurationResponseParameter.RESULT_DENIED
                        ? ReconfigOutcome.DENIED
                        : ReconfigOutcome.FAILED;
        switch (q.kind) {
            case OUT_RESET -> {
                t.tx.releaseStreams(q.streams, outcome == ReconfigOutcome.PERFORMED);
                t.host.emit(new SctpEvent.StreamReset(t.id, true, outcome, boxed(q.streams)));
            }
            case IN_RESET -> {
                if (outcome != ReconfigOutcome.PERFORMED) {
                    t.host.emit(new SctpEvent.StreamReset(t.id, false, outcome, boxed(q.streams)));
                }
            }
            case TSN_RESET -> {
                Optional<NextTsns> tsns = r.nextTsns();
                if (outcome == ReconfigOutcome.PERFORMED && tsns.isPresent() && t.tx.outstandingCount() == 0) {
                    resetTsns(tsns.get().receiversNextTsn(), tsns.get().sendersNextTsn());
                } else {
                    t.tx.releaseStreams(new int[0], false);
                    t.host.emit(new SctpEvent.AssociationReset(
                            t.id,
                            outcome == ReconfigOutcome.PERFORMED ? ReconfigOutcome.FAILED : outcome,
                            t.tx.nextTsn(),
                            t.rx.cumulativeTsn() + 1));
                }
            }
            case ADD_OUT -> {
                if (outcome == ReconfigOutcome.PERFORMED) {
                    t.outboundStreams += q.count;
                    t.tx.setOutboundStreams(t.outboundStreams);
                }
                t.host.emit(new SctpEvent.StreamChange(t.id, outcome, t.inboundStreams, t.outboundStreams));
            }
            case ADD_IN -> {
                if (outcome != ReconfigOutcome.PERFORMED) {
                    t.host.emit(new SctpEvent.StreamChange(t.id, outcome, t.inboundStreams, t.outboundStreams));
                }
            }
            default -> {}
        }
        afterAnswer();
    }

    /**
     * Whether a request may be sent now: in ESTABLISHED, SHUTDOWN-PENDING and SHUTDOWN-RECEIVED.
     * Once SHUTDOWN or SHUTDOWN ACK went out (RFC 9260 section 9.2), no new request goes, nor a
     * retransmission.
     */
    private boolean mayRequest() {
        return t.state == Association.State.ESTABLISHED
                || t.state == Association.State.SHUTDOWN_PENDING
                || t.state == Association.State.SHUTDOWN_RECEIVED;
    }

    /**
     * The association ends (any way: SHUTDOWN COMPLETE, ABORT, failure): every request still
     * unanswered or not sent ends with a FAILED event, before the association's own event.
     */
    public void onClose() {
        if (t.tx != null && busy()) {
            giveUp();
        }
    }

    /**
     * The association is shutting down past the point where requests may go, and the outstanding
     * one is not retransmitted: every request pending or outstanding ends with a FAILED event.
     */
    private void giveUp() {
        for (Request q : outstanding) {
            failed(q.kind, q.streams);
        }
        outstanding.clear();
        giveUpPending();
        afterAnswer(); // nothing outstanding: the timer stops
    }

    /**
     * The association is shutting down past the point where requests may go: every request not
     * sent yet ends with a FAILED event, and the held streams are released (with nothing held, as
     * the shutdown waited for the send buffer to empty). The outstanding one waits for its answer
     * until its timer expires or the association ends.
     */
    private void giveUpPending() {
        if (!pendOutAll
                && pendOut.isEmpty()
                && !pendInAll
                && pendIn.isEmpty()
                && !pendTsn
                && pendAddOut == 0
                && pendAddIn == 0) {
            return;
        }
        if (pendOutAll || !pendOut.isEmpty()) {
            failed(OUT_RESET, take(pendOut, pendOutAll));
        }
        if (pendInAll || !pendIn.isEmpty()) {
            failed(IN_RESET, take(pendIn, pendInAll));
        }
        if (pendTsn) {
            failed(TSN_RESET, new int[0]);
        }
        if (pendAddOut > 0) {
            failed(ADD_OUT, new int[0]);
        } else if (pendAddIn > 0) {
            failed(ADD_IN, new int[0]);
        }
        pendOut.clear();
        pendIn.clear();
        pendOutAll = pendInAll = pendTsn = false;
        pendOutAnswers = RESULT_NONE;
        pendAddOut = pendAddIn = 0;
        t.tx.releaseStreams(new int[0], false);
        afterAnswer();
    }

    private void failed(int kind, int[] streams) {
        switch (kind) {
            case OUT_RESET, IN_RESET -> t.host.emit(
                    new SctpEvent.StreamReset(t.id, kind == OUT_RESET, ReconfigOutcome.FAILED, boxed(streams)));
            case TSN_RESET -> t.host.emit(new SctpEvent.AssociationReset(
                    t.id, ReconfigOutcome.FAILED, t.tx.nextTsn(), t.rx.cumulativeTsn() + 1));
            default -> t.host.emit(
                    new SctpEvent.StreamChange(t.id, ReconfigOutcome.FAILED, t.inboundStreams, t.outboundStreams));
        }
    }

    /** Once every request of the outstanding RE-CONFIG was answered, the timer stops. */
    private void afterAnswer() {
        if (outstanding.isEmpty()) {
            inFlight = null;
            inProgress = false;
            t.timers.stop(TimerKind.RECONFIG);
        }
    }

    private static int[] unboxed(List<Integer> l) {
        int[] a = new int[l.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = l.get(i);
        }
        return a;
    }

    @Override
    public String toString() {
        return "StreamReset[next=" + Integer.toUnsignedString(nextSn) + " peerNext="
                + Integer.toUnsignedString(peerNextSn) + " outstanding=" + outstanding.size() + " pendOut="
                + (pendOutAll ? "all" : pendOut) + " pendIn=" + (pendInAll ? "all" : pendIn) + " tsn=" + pendTsn
                + " addOut=" + pendAddOut + " addIn=" + pendAddIn + " deferred=" + deferred + " "
                + Arrays.toString(lastSn) + "]";
    }
}
