package org.sctpj.stack.asconf;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sctpj.stack.Extension;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.LocalAddressState;
import org.sctpj.stack.SctpEvent.PeerAddressState;
import org.sctpj.stack.assoc.Association;
import org.sctpj.stack.assoc.InboundPacket;
import org.sctpj.stack.assoc.Tcb;
import org.sctpj.stack.assoc.TimerKind;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.path.PathStatus;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Serial;
import org.sctpj.stack.wire.UnrecognizedAction;
import org.sctpj.stack.wire.cause.DeleteLastRemainingAddressCause;
import org.sctpj.stack.wire.cause.DeleteSourceAddressCause;
import org.sctpj.stack.wire.cause.ErrorCause;
import org.sctpj.stack.wire.cause.IllegalAsconfAckCause;
import org.sctpj.stack.wire.cause.NoAuthorizationCause;
import org.sctpj.stack.wire.cause.ResourceShortageCause;
import org.sctpj.stack.wire.cause.UnrecognizedParametersCause;
import org.sctpj.stack.wire.cause.UnresolvableAddressCause;
import org.sctpj.stack.wire.chunk.AsconfAckChunk;
import org.sctpj.stack.wire.chunk.AsconfChunk;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.ChunkType;
import org.sctpj.stack.wire.chunk.Chunks;
import org.sctpj.stack.wire.param.AddIpAddressParameter;
import org.sctpj.stack.wire.param.AddressParameter;
import org.sctpj.stack.wire.param.DeleteIpAddressParameter;
import org.sctpj.stack.wire.param.ErrorCauseIndicationParameter;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.SetPrimaryAddressParameter;
import org.sctpj.stack.wire.param.SuccessIndicationParameter;
import org.sctpj.stack.wire.param.UnknownParameter;

/**
 * Dynamic address reconfiguration of one association (RFC 5061), both directions.
 *
 * <p><b>Sending</b> (section 5.1): the user's requests (add one of our addresses, delete one, ask
 * the peer to take one of ours as its primary) queue up and go in ASCONF chunks, one outstanding
 * at a time, each with the next Serial Number (the first is our initial TSN, section 4.1.1) and
 * the address the packet leaves from as its Address Parameter. The outstanding ASCONF is
 * retransmitted, unchanged, on its own timer ({@link TimerKind#ASCONF}, the path's RTO, as T3-rtx
 * does): each expiry backs the RTO off and counts an error against the path and the association
 * (which ends it past Association.Max.Retrans), and the ASCONF goes to another active path when
 * there is one. An ASCONF-ACK that matches is read by the rules of section 5.2 (V2): a request
 * with an Error Cause Indication failed; one with a Success Indication succeeded; one without an
 * answer succeeded unless an earlier one of the same ASCONF failed. An ASCONF-ACK when nothing is
 * outstanding, of a serial at or after the next one, ends the association with an ABORT
 * ("Illegal ASCONF-ACK", section 5.3 F0); an older one is ignored. A peer that reports a request
 * type as unrecognized is sent no more of that type (F3a, F3b).
 *
 * <p>An address being added is not used as a source until the peer acknowledged it; an address
 * being deleted stops being used as a source at once (so no ASCONF that deletes it leaves from it,
 * which the peer would refuse) and returns if the peer refuses the deletion.
 *
 * <p><b>Receiving</b> (section 5.2): the peer's Serial Numbers start at its initial TSN. An ASCONF
 * with the next one is processed, parameter by parameter in order, and answered with an
 * ASCONF-ACK to its source address, which is kept; one with an older serial gets that kept
 * ASCONF-ACK again when it answers that serial, else nothing (an old one out of order); one beyond
 * the next is discarded. Add IP Address adds an unconfirmed path (confirmed by HEARTBEAT before
 * data goes there, RFC 9260 section 5.4); Delete IP Address removes the path, its outstanding data
 * marked for retransmission on another, refused with "Request to Delete Last Remaining IP Address"
 * or "Request to Delete Source IP Address"; Set Primary Address makes the path the primary (once
 * confirmed), refused with "Unresolvable Address" for an address of no path. The wildcard address
 * stands for the packet's source (section 4.2.1). A request of a kind the user does not accept
 * ({@link #setAcceptedRequests}) is refused with "Request Refused - No Authorization". After the
 * first failure, each later success is reported with a Success Indication. An ASCONF carrying more
 * than {@link #MAX_PEER_REQUESTS} requests has the excess refused with "Operation Refused Due to
 * Resource Shortage", which keeps the answer within one packet.
 *
 * <p>ASCONF and ASCONF-ACK must be authenticated (section 4.1.1): the association uses {@link
 * Extension#ASCONF} only with AUTH in force and both chunk types in both sides' CHUNKS lists
 * ({@link #start}), and the association discards an unauthenticated one before it comes here.
 *
 * <p>Not thread-safe, like the association.
 */
public final class AddressReconfiguration {

    /** Requests of ours put in one ASCONF at most. */
    public static final int MAX_REQUESTS_PER_CHUNK = 16;
    /** Requests of ours waiting at most; beyond, a request is refused with an exception. */
    public static final int MAX_PENDING = 256;
    /** Requests of one ASCONF of the peer processed at most (the rest refused, see class doc). */
    public static final int MAX_PEER_REQUESTS = 64;
    /** Bytes of parameters an ASCONF-ACK of ours carries at most, so that it fits one packet. */
    public static final int MAX_ACK_BYTES = 1024;

    /** The kinds of request an ASCONF carries (RFC 5061 sections 4.2.1 to 4.2.4). */
    public enum Kind {
        /** Add IP Address (section 4.2.1). */
        ADD,
        /** Delete IP Address (section 4.2.2). */
        DELETE,
        /** Set Primary Address (section 4.2.4). */
        SET_PRIMARY
    }

    private record Request(Kind kind, InetAddress address) {}

    private record Sent(Request request, int correlationId) {}

    private final Tcb t;
    private final ArrayDeque<Request> pending = new ArrayDeque<>();
    private final List<Sent> inFlightRequests = new ArrayList<>();
    private AsconfChunk inFlight;
    private Path inFlightPath;
    /** Where the outstanding ASCONF goes again at the next {@link #beforeTransmit} (null: nowhere). */
    private Path resendTo;

    private int nextSerial;
    private int nextCorrelation = 1;
    private int peerSerial;
    private AsconfAckChunk cachedAck;
    private final EnumSet<Kind> unsupported = EnumSet.noneOf(Kind.class);
    private final EnumSet<Kind> accepted = EnumSet.allOf(Kind.class);
    /**
     * Our addresses this association may send from, once any changed (null before: then the
     * endpoint's addresses, {@link org.sctpj.stack.assoc.AssociationHost#sourceFor}).
     */
    private LinkedHashSet<InetAddress> local;

    /** The address reconfiguration of the association {@code t} describes. */
    public AddressReconfiguration(Tcb t) {
        this.t = t;
    }

    /**
     * The data path starts (the handshake completed, or a restart): the Serial Numbers start from
     * the initial TSNs (RFC 5061 section 4.1.1), nothing is outstanding or kept; {@link
     * Extension#ASCONF} is dropped from the association unless AUTH is in force with ASCONF and
     * ASCONF-ACK in both sides' CHUNKS lists (section 4.1.1).
     */
    public void start(int localInitialTsn, int peerInitialTsn) {
        if (t.has(Extension.ASCONF)
                && !(t.auth.inForce()
                        && t.auth.peerRequires(ChunkType.ASCONF)
                        && t.auth.peerRequires(ChunkType.ASCONF_ACK)
                        && t.auth.weRequire(ChunkType.ASCONF)
                        && t.auth.weRequire(ChunkType.ASCONF_ACK))) {
            t.extensions.remove(Extension.ASCONF);
        }
        nextSerial = localInitialTsn;
        peerSerial = peerInitialTsn - 1;
        cachedAck = null;
        inFlight = null;
        resendTo = null;
        inFlightRequests.clear();
        t.timers.stop(TimerKind.ASCONF);
    }

    /** Whether the association can change addresses now (ASCONF negotiated, still up). */
    public boolean usable() {
        return t.has(Extension.ASCONF) && mayRequest();
    }

    private boolean mayRequest() {
        return t.state == Association.State.ESTABLISHED
                || t.state == Association.State.SHUTDOWN_PENDING
                || t.state == Association.State.SHUTDOWN_RECEIVED;
    }

    // ------------------------------------------------------------------ our addresses

    /**
     * Fixes this association's local addresses to {@code endpointAddresses} (the endpoint's before
     * it changes them) if they were not fixed yet: from now on it sends only from those it keeps.
     */
    public void pin(Collection<InetAddress> endpointAddresses) {
        if (local == null) {
            local = new LinkedHashSet<>(endpointAddresses);
        }
    }

    /** Our addresses the association sends from ({@link #pin}), or null while they are the endpoint's. */
    public Set<InetAddress> localAddresses() {
        return local == null ? null : java.util.Collections.unmodifiableSet(local);
    }

    /**
     * Whether {@code src} may be the source of our packets: always until the addresses are pinned,
     * then only those kept (an address being deleted no longer, one being added not yet).
     */
    public boolean mayUseSource(InetAddress src) {
        return local == null || local.contains(src);
    }

    /**
     * Without ASCONF: the endpoint lost {@code a}; the association stops sending from it unless it
     * is the last address it has.
     */
    public void dropWithoutAsconf(InetAddress a) {
        if (local != null && local.size() > 1) {
            local.remove(a);
        }
    }

    /**
     * Asks the peer to add our address {@code a} to the association (RFC 5061 section 4.2.1).
     *
     * @throws IllegalStateException without ASCONF or once the association is shutting down
     * @throws IllegalArgumentException if the association has it already or it is queued
     */
    public void requestAdd(InetAddress a, long now) {
        check(Kind.ADD, a);
        if (local.contains(a) || queued(Kind.ADD, a)) {
            throw new IllegalArgumentException(a + " is already an address of " + t.id + " (or being added)");
        }
        enqueue(new Request(Kind.ADD, a), now);
    }

    /**
     * Asks the peer to delete our address {@code a} from the association (RFC 5061 section 4.2.2);
     * the association stops sending from it at once.
     *
     * @throws IllegalStateException without ASCONF or once the association is shutting down
     * @throws IllegalArgumentException if {@code a} is not one of its addresses, or is its last
     */
    public void requestDelete(InetAddress a, long now) {
        check(Kind.DELETE, a);
        if (!local.contains(a)) {
            throw new IllegalArgumentException(
                    a + " is not an address of " + t.id + " (its addresses: " + local + "): nothing to delete");
        }
        if (local.size() == 1) {
            throw new IllegalArgumentException("cannot delete " + a + ", the last address of " + t.id
                    + " (RFC 5061 section 5.1.2): add another address first");
        }
        local.remove(a);
        t.pairedSources.values().removeIf(a::equals);
        t.replySources.values().removeIf(a::equals);
        enqueue(new Request(Kind.DELETE, a), now);
    }

    /**
     * Asks the peer to take our address {@code a} as its primary destination (RFC 5061 section
     * 4.2.4, SCTP_SET_PEER_PRIMARY_ADDR of RFC 6458 section 8.3.2).
     *
     * @throws IllegalStateException without ASCONF or once the association is shutting down
     * @throws IllegalArgumentException if {@code a} is not one of its addresses (nor being added)
     */
    public void requestSetPrimary(InetAddress a, long now) {
        check(Kind.SET_PRIMARY, a);
        if (!local.contains(a) && !queued(Kind.ADD, a) && !inFlight(Kind.ADD, a)) {
            throw new IllegalArgumentException(a + " is not an address of " + t.id + " (its addresses: " + local
                    + "): add it first, then ask the peer to make it its primary");
        }
        enqueue(new Request(Kind.SET_PRIMARY, a), now);
    }

    private void check(Kind kind, InetAddress a) {
        if (a == null || a.isAnyLocalAddress() || a.isMulticastAddress()) {
            throw new IllegalArgumentException("pass a unicast address, not " + a);
        }
        if (!t.has(Extension.ASCONF)) {
            throw new IllegalStateException(t.id + " does not use ASCONF (RFC 5061): both endpoints must offer"
                    + " Extension.ASCONF and Extension.AUTH (and the peer list ASCONF and ASCONF-ACK in its AUTH"
                    + " CHUNKS) for its addresses to change while it runs");
        }
        if (!mayRequest()) {
            throw new IllegalStateException(t.id + " is " + t.state + ": addresses change only while established");
        }
        if (unsupported.contains(kind)) {
            throw new IllegalStateException("the peer of " + t.id + " does not understand " + kind
                    + " requests (RFC 5061 section 5.3 F3): it refused one as unrecognized");
        }
        if (pending.size() >= MAX_PENDING) {
            throw new IllegalStateException(
                    MAX_PENDING + " address requests of " + t.id + " wait already: wait for the address events first");
        }
        pin(t.host.localAddresses());
    }

    private boolean queued(Kind kind, InetAddress a) {
        return pending.contains(new Request(kind, a));
    }

    private boolean inFlight(Kind kind, InetAddress a) {
        for (Sent s : inFlightRequests) {
            if (s.request().equals(new Request(kind, a))) {
                return true;
            }
        }
        return false;
    }

    private void enqueue(Request r, long now) {
        pending.add(r); // sent by the next beforeTransmit
    }

    /**
     * Before a packet is built: the outstanding ASCONF goes again when its timer asked for it, or,
     * with none outstanding, the next ASCONF takes the pending requests (RFC 5061 section 5.1).
     * Both only in a state that allows requests (checked here, as the packet is built, so that a
     * shutdown begun in between gives them up instead).
     */
    public void beforeTransmit(long now) {
        if (resendTo != null && inFlight != null) {
            Path p = resendTo;
            resendTo = null;
            if (mayRequest()) {
                send(p, now);
            } else {
                giveUp();
            }
            return;
        }
        if (inFlight != null || pending.isEmpty() || !t.has(Extension.ASCONF)) {
            return;
        }
        if (!mayRequest()) {
            giveUpPending();
            return;
        }
        List<Parameter> params = new ArrayList<>();
        while (!pending.isEmpty() && params.size() < MAX_REQUESTS_PER_CHUNK) {
            Request r = pending.poll();
            if (unsupported.contains(r.kind())) {
                failed(r, List.of());
                continue;
            }
            int corr = nextCorrelation++;
            params.add(
                    switch (r.kind()) {
                        case ADD -> AddIpAddressParameter.of(corr, r.address());
                        case DELETE -> DeleteIpAddressParameter.of(corr, r.address());
                        case SET_PRIMARY -> SetPrimaryAddressParameter.of(corr, r.address());
                    });
            inFlightRequests.add(new Sent(r, corr));
        }
        if (params.isEmpty()) {
            return;
        }
        Path p = t.failover.dataPath();
        inFlight = new AsconfChunk(nextSerial++, lookupAddress(p), params);
        send(p, now);
    }

    /**
     * The ASCONF's Address Parameter (RFC 5061 section 4.1.1): one of our addresses the peer
     * knows, the one the packet leaves from.
     */
    private AddressParameter lookupAddress(Path p) {
        InetAddress src = t.pathSet.sourceFor(p.address());
        if (src == null
                || src.isAnyLocalAddress()
                || (src instanceof Inet4Address) != (p.address() instanceof Inet4Address)) {
            // The wildcard of the destination's family: "use the packet's source" (section 4.2.1).
            src = wildcard(p.address());
        }
        return AddressParameter.of(src);
    }

    private static InetAddress wildcard(InetAddress like) {
        try {
            return InetAddress.getByAddress(new byte[like instanceof Inet4Address ? 4 : 16]);
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private void send(Path p, long now) {
        inFlightPath = p;
        t.queue(inFlight, p.address(), t.peerTag);
        t.timers.start(TimerKind.ASCONF, now + p.rto().rto());
    }

    /**
     * The {@link TimerKind#ASCONF} timer expired (RFC 5061 section 5.1 C4-C5): the RTO of the path
     * it went to backs off, the error counts against that path and the association (which may end
     * it), and the same ASCONF goes again, to another active path when there is one.
     */
    public void onTimer(long now) {
        t.timers.stop(TimerKind.ASCONF);
        if (inFlight == null) {
            return;
        }
        if (!mayRequest()) {
            giveUp();
            return;
        }
        Path p = inFlightPath != null && !inFlightPath.removed() && t.paths.contains(inFlightPath)
                ? inFlightPath
                : t.failover.dataPath();
        if (t.failover.controlTimedOut(p, now)) {
            resendTo = alternate(p); // queued by beforeTransmit, in this round of transmissions
        }
    }

    /** An active path other than {@code p} when there is one, else the path new data takes. */
    private Path alternate(Path p) {
        for (Path q : t.paths) {
            if (q != p && q.status() == PathStatus.ACTIVE) {
                return q;
            }
        }
        return t.failover.dataPath();
    }

    /** The association ends: what is outstanding or queued fails. */
    public void onClose() {
        t.timers.stop(TimerKind.ASCONF);
        giveUp();
    }

    private void giveUp() {
        for (Sent s : inFlightRequests) {
            failed(s.request(), List.of());
        }
        inFlightRequests.clear();
        inFlight = null;
        resendTo = null;
        giveUpPending();
    }

    private void giveUpPending() {
        while (!pending.isEmpty()) {
            failed(pending.poll(), List.of());
        }
    }

    /** ASCONF-ACK (RFC 5061 section 5.2 V1-V2, section 5.3 F0 and F3). */
    public void onAsconfAck(InboundPacket pkt, int i, long now) {
        Parsed<? extends Chunk> d = Chunks.decode(pkt.buffer(), pkt.offset(i), pkt.length(i));
        if (!d.isOk() || !(d.value() instanceof AsconfAckChunk ack)) {
            return;
        }
        int serial = ack.serialNumber();
        if (inFlight == null || serial != inFlight.serialNumber()) {
            if (inFlight == null && Serial.ge(serial, nextSerial)) {
                // F0: an acknowledgement of an ASCONF never sent.
                t.abort.protocolAbort(
                        IllegalAsconfAckCause.EMPTY,
                        "ASCONF-ACK of serial " + Integer.toUnsignedString(serial) + " with none outstanding",
                        now);
            }
            return; // an old or duplicate one
        }
        t.timers.stop(TimerKind.ASCONF);
        t.associationErrors = 0;
        if (inFlightPath != null) {
            inFlightPath.resetErrorCount();
        }
        Map<Integer, Parameter> answers = new HashMap<>();
        for (Parameter p : ack.parameters()) {
            if (p instanceof ErrorCauseIndicationParameter e) {
                answers.putIfAbsent(e.correlationId(), e);
            } else if (p instanceof SuccessIndicationParameter s) {
                answers.putIfAbsent(s.correlationId(), s);
            }
        }
        List<Sent> done = new ArrayList<>(inFlightRequests);
        inFlightRequests.clear();
        inFlight = null;
        boolean failedBefore = false;
        for (Sent s : done) {
            Parameter a = answers.get(s.correlationId());
            if (a instanceof ErrorCauseIndicationParameter e) {
                failedBefore = true;
                for (ErrorCause c : e.causes()) {
                    if (c instanceof UnrecognizedParametersCause) {
                        unsupported.add(s.request().kind()); // F3a, F3b
                        if (s.request().kind() != Kind.SET_PRIMARY) {
                            unsupported.add(s.request().kind() == Kind.ADD ? Kind.DELETE : Kind.ADD);
                        }
                    }
                }
                failed(s.request(), e.causes());
            } else if (a instanceof SuccessIndicationParameter || !failedBefore) {
                succeeded(s.request());
            } else {
                failed(s.request(), List.of());
            }
            if (t.state == Association.State.CLOSED) {
                return;
            }
        }
    }

    private void succeeded(Request r) {
        switch (r.kind()) {
            case ADD -> {
                local.add(r.address());
                t.host.emit(new SctpEvent.LocalAddressChange(t.id, r.address(), LocalAddressState.ADDED, List.of()));
            }
            case DELETE -> t.host.emit(
                    new SctpEvent.LocalAddressChange(t.id, r.address(), LocalAddressState.REMOVED, List.of()));
            case SET_PRIMARY -> t.host.emit(
                    new SctpEvent.LocalAddressChange(t.id, r.address(), LocalAddressState.MADE_PRIMARY, List.of()));
        }
    }

    private void failed(Request r, List<ErrorCause> causes) {
        LocalAddressState s =
                switch (r.kind()) {
                    case ADD -> LocalAddressState.ADD_FAILED;
                    case DELETE -> {
                        if (local != null) {
                            local.add(r.address()); // still ours: the peer keeps sending to it
                        }
                        yield LocalAddressState.REMOVE_FAILED;
                    }
                    case SET_PRIMARY -> LocalAddressState.SET_PRIMARY_FAILED;
                };
        t.host.emit(new SctpEvent.LocalAddressChange(t.id, r.address(), s, causes));
    }

    // ------------------------------------------------------------------ the peer's requests

    /** The kinds of request the peer may make (all by default); others are refused (No Authorization). */
    public void setAcceptedRequests(Set<Kind> kinds) {
        accepted.clear();
        accepted.addAll(kinds);
    }

    /** The kinds of request the peer may make. */
    public Set<Kind> acceptedRequests() {
        return java.util.Collections.unmodifiableSet(EnumSet.copyOf(accepted));
    }

    /** ASCONF from the peer (RFC 5061 section 5.2, serial number rules E1-E5). */
    public void onAsconf(InboundPacket pkt, int i, long now) {
        if (!mayRequest() && t.state != Association.State.SHUTDOWN_SENT) {
            return;
        }
        Parsed<? extends Chunk> d = Chunks.decode(pkt.buffer(), pkt.offset(i), pkt.length(i));
        if (!d.isOk() || !(d.value() instanceof AsconfChunk c)) {
            return;
        }
        int serial = c.serialNumber();
        int expected = peerSerial + 1;
        if (serial == expected) {
            AsconfAckChunk ack = process(c, pkt.from(), now);
            if (t.state == Association.State.CLOSED) {
                return;
            }
            peerSerial = serial;
            cachedAck = ack;
            t.queue(ack, pkt.from(), t.peerTag);
        } else if (Serial.lt(serial, expected)) {
            // E2: a retransmission whose answer was lost gets it again; an older one, nothing.
            if (cachedAck != null && cachedAck.serialNumber() == serial) {
                t.queue(cachedAck, pkt.from(), t.peerTag);
            }
        }
        // E3 (beyond the next serial): silently discarded.
    }

    private AsconfAckChunk process(AsconfChunk c, InetAddress from, long now) {
        Answers out = new Answers();
        int n = 0;
        for (Parameter p : c.parameters()) {
            int corr = correlationId(p);
            ErrorCause refusal;
            if (n++ >= MAX_PEER_REQUESTS) {
                out.refuseRest(p, corr);
                break; // V2: those after it count as failed
            }
            if (p instanceof AddIpAddressParameter a) {
                refusal = accepted.contains(Kind.ADD) ? add(a, resolve(a.address(), from), now) : refuse(p);
            } else if (p instanceof DeleteIpAddressParameter del) {
                refusal = accepted.contains(Kind.DELETE)
                        ? delete(del, resolve(del.address(), from), from, now)
                        : refuse(p);
            } else if (p instanceof SetPrimaryAddressParameter s) {
                refusal = accepted.contains(Kind.SET_PRIMARY) ? setPrimary(s, resolve(s.address(), from)) : refuse(p);
            } else {
                UnrecognizedAction action = UnrecognizedAction.ofParameterType(p.type());
                if (action.report()
                        && !out.fail(
                                p,
                                corr,
                                ErrorCauseIndicationParameter.of(corr, UnrecognizedParametersCause.of(List.of(p))))) {
                    break;
                }
                if (!action.continueProcessing()) {
                    break;
                }
                continue;
            }
            if (t.state == Association.State.CLOSED) {
                break;
            }
            if (refusal != null) {
                if (!out.fail(p, corr, ErrorCauseIndicationParameter.of(corr, refusal))) {
                    break;
                }
            } else if (out.failed && !out.add(p, corr, new SuccessIndicationParameter(corr))) {
                break; // V2: a success is said after a failure
            }
        }
        return new AsconfAckChunk(c.serialNumber(), out.list);
    }

    /**
     * The parameters of an ASCONF-ACK being built, kept within {@link #MAX_ACK_BYTES} so that the
     * answer fits one packet whatever the ASCONF held (echoed requests can be large): once the
     * next answer would not fit, the request gets "Operation Refused Due to Resource Shortage"
     * with only its type and Correlation ID echoed, and processing stops (V2: the rest failed).
     */
    private static final class Answers {
        final List<Parameter> list = new ArrayList<>();
        int bytes;
        boolean failed;

        /** Adds {@code a}, the answer to {@code request}; false when it did not fit (see class doc). */
        boolean add(Parameter request, int corr, Parameter a) {
            if (bytes + a.encodedLength() > MAX_ACK_BYTES) {
                refuseRest(request, corr);
                return false;
            }
            list.add(a);
            bytes += a.encodedLength();
            return true;
        }

        boolean fail(Parameter request, int corr, Parameter a) {
            failed = true;
            return add(request, corr, a);
        }

        /** The short refusal of {@code request}: its type and Correlation ID only. */
        void refuseRest(Parameter request, int corr) {
            byte[] id = {(byte) (corr >>> 24), (byte) (corr >>> 16), (byte) (corr >>> 8), (byte) corr};
            list.add(ErrorCauseIndicationParameter.of(
                    corr, ResourceShortageCause.of(new UnknownParameter(request.type(), Bytes.of(id)))));
            failed = true;
        }
    }

    private static NoAuthorizationCause refuse(Parameter p) {
        return NoAuthorizationCause.of(p);
    }

    /** The Correlation ID of a request; for one we do not know, its first four value bytes. */
    private static int correlationId(Parameter p) {
        if (p instanceof AddIpAddressParameter a) {
            return a.correlationId();
        }
        if (p instanceof DeleteIpAddressParameter d) {
            return d.correlationId();
        }
        if (p instanceof SetPrimaryAddressParameter s) {
            return s.correlationId();
        }
        if (p instanceof UnknownParameter u && u.value().length() >= 4) {
            Bytes v = u.value();
            return ((v.get(0) & 0xff) << 24) | ((v.get(1) & 0xff) << 16) | ((v.get(2) & 0xff) << 8) | (v.get(3) & 0xff);
        }
        return 0;
    }

    /** The address a request names: the packet's source for the wildcard (section 4.2.1). */
    private static InetAddress resolve(AddressParameter a, InetAddress from) {
        InetAddress x = a.address();
        return x.isAnyLocalAddress() ? from : x;
    }

    private ErrorCause add(AddIpAddressParameter p, InetAddress a, long now) {
        if (a.isMulticastAddress() || a.isAnyLocalAddress()) {
            return UnresolvableAddressCause.of(p.address()); // no destination we could send to
        }
        if (t.pathOf(a) != null) {
            return null; // known already: nothing to do
        }
        Path path = t.pathSet.addPath(a, PathStatus.UNCONFIRMED, now);
        if (path == null) {
            return ResourceShortageCause.of(p); // as many paths as the association keeps
        }
        t.announce(List.of(a));
        t.host.emit(new SctpEvent.PeerAddressChange(t.id, a, PeerAddressState.ADDED));
        return null;
    }

    private ErrorCause delete(DeleteIpAddressParameter p, InetAddress a, InetAddress from, long now) {
        Path path = t.pathOf(a);
        if (path == null) {
            return null; // not part of the association: nothing to delete, not an error
        }
        if (t.pathSet.livePaths() <= 1) {
            return DeleteLastRemainingAddressCause.of(p);
        }
        if (a.equals(from)) {
            return DeleteSourceAddressCause.of(p);
        }
        t.pathSet.removePath(a, from, now);
        t.host.emit(new SctpEvent.PeerAddressChange(t.id, a, PeerAddressState.REMOVED));
        return null;
    }

    private ErrorCause setPrimary(SetPrimaryAddressParameter p, InetAddress a) {
        Path path = t.pathOf(a);
        if (path == null) {
            return UnresolvableAddressCause.of(p.address());
        }
        if (path.status() == PathStatus.ACTIVE) {
            t.pathSet.setPrimary(a);
        } else {
            t.pendingPrimary = a; // taken once a HEARTBEAT confirms it (RFC 9260 section 5.4),
            t.pendingPrimaryFromPeer = true; // and reported then (MADE_PRIMARY)
            t.pathSet.adoptPendingPrimary();
        }
        return null;
    }

    /**
     * Whether the association still uses our address {@code a}: it sends from it, or its peer has
     * not answered our request to delete it (and may still send there until it does).
     */
    public boolean holds(InetAddress a) {
        return local != null && local.contains(a) || queued(Kind.DELETE, a) || inFlight(Kind.DELETE, a);
    }

    /** Whether an ASCONF of ours is outstanding (for tests and the user). */
    public boolean outstanding() {
        return inFlight != null;
    }

    /** Requests of ours not yet sent. */
    public int pendingCount() {
        return pending.size();
    }

    @Override
    public String toString() {
        return "ASCONF[next=" + Integer.toUnsignedString(nextSerial) + " peer=" + Integer.toUnsignedString(peerSerial)
                + (inFlight != null ? " outstanding" : "") + " pending=" + pending.size() + "]";
    }
}
