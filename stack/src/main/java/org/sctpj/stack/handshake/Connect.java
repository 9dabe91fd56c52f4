package org.sctpj.stack.handshake;

import java.net.InetAddress;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.addr.AddressPolicy;
import org.sctpj.stack.assoc.Association.State;
import org.sctpj.stack.assoc.InboundPacket;
import org.sctpj.stack.assoc.Tcb;
import org.sctpj.stack.assoc.TimerKind;
import org.sctpj.stack.auth.Authentication;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.path.PathStatus;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.cause.InvalidMandatoryParameterCause;
import org.sctpj.stack.wire.cause.ProtocolViolationCause;
import org.sctpj.stack.wire.cause.StaleCookieCause;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.Chunks;
import org.sctpj.stack.wire.chunk.CookieAckChunk;
import org.sctpj.stack.wire.chunk.CookieEchoChunk;
import org.sctpj.stack.wire.chunk.ErrorChunk;
import org.sctpj.stack.wire.chunk.InitAckChunk;
import org.sctpj.stack.wire.chunk.InitChunk;

/**
 * Association setup (RFC 9260 section 5.1) on the side that keeps state: as the initiator, INIT
 * (COOKIE-WAIT, T1-init), the INIT ACK's cookie echoed (COOKIE-ECHOED, T1-cookie), COOKIE ACK
 * (ESTABLISHED); as the responder, the association a valid COOKIE ECHO describes, answered with
 * COOKIE ACK. T1 retransmits until Max.Init.Retransmits; a Stale Cookie error restarts the setup
 * with a Cookie Preservative (section 5.2.6). The answer to an INIT without an association is
 * stateless: {@link Handshake}. Setup chunks for an association that exists: {@link InitCollision}.
 */
public final class Connect {

    private final Tcb t;
    private int t1Count;
    private InitChunk sentInit;
    private Bytes cookieToEcho;
    /** When the last COOKIE ECHO was queued, to time the Stale Cookie error's round trip (5.2.6). */
    private long cookieEchoSentAt;

    private long preservativeMillis;

    /** The setup of the association {@code t} describes. */
    public Connect(Tcb t) {
        this.t = t;
    }

    /**
     * Starts an association towards {@code peers} (RFC 9260 section 5.1 A) along the address
     * policy's {@code plan}, if any: sends INIT to the first address and enters COOKIE-WAIT.
     */
    public void initiate(List<InetAddress> peers, Optional<AddressPolicy.Plan> plan, long now) {
        t.localTag = t.host.newTag();
        t.localInitialTsn = t.host.random().nextInt();
        t.localOutbound = t.o.outboundStreams();
        t.localMaxInbound = t.o.maxInboundStreams();
        for (InetAddress p : plan.map(AddressPolicy.Plan::peers).orElse(List.copyOf(new LinkedHashSet<>(peers)))) {
            t.pathSet.addPath(p, PathStatus.ACTIVE, now);
        }
        t.announce(peers);
        t.userPeers = List.copyOf(new LinkedHashSet<>(peers));
        plan.ifPresent(t.pathSet::applyPlan);
        t.state = State.COOKIE_WAIT;
        t.auth.setLocal(Authentication.offer(t.o, t.host.random()));
        sendInit(now);
    }

    /**
     * Sets up the association a valid COOKIE ECHO describes (RFC 9260 section 5.1 D): ESTABLISHED,
     * COOKIE ACK queued, COMMUNICATION_UP emitted. See {@link
     * org.sctpj.stack.assoc.Association#fromCookie} for the addresses.
     */
    public void accept(StateCookie c, InetAddress from, InetAddress to, long now) {
        InetAddress initSource =
                c.peerAddresses().isEmpty() ? from : c.peerAddresses().get(0);
        t.pathSet.answerFrom(initSource, c.localAddress());
        if (!from.equals(initSource)) {
            t.pathSet.answerFrom(from, to);
        }
        t.localOutbound = c.localOutbound();
        t.localMaxInbound = c.localMaxInbound();
        adoptCookie(c);
        Set<InetAddress> addrs = new LinkedHashSet<>();
        addrs.add(initSource);
        addrs.addAll(c.peerAddresses());
        t.announce(addrs);
        Optional<AddressPolicy.Plan> plan = t.host.planPaths(List.copyOf(addrs), Optional.of(initSource));
        t.pathSet.addPath(initSource, PathStatus.ACTIVE, now);
        for (InetAddress p : plan.map(AddressPolicy.Plan::peers).orElse(List.copyOf(addrs))) {
            // Listed addresses need a heartbeat first (RFC 9260 section 5.4).
            t.pathSet.addPath(p, p.equals(initSource) ? PathStatus.ACTIVE : PathStatus.UNCONFIRMED, now);
        }
        t.primary = 0;
        t.state = State.ESTABLISHED;
        plan.ifPresent(t.pathSet::applyPlan);
        queueCookieAck(from, now);
        emitUp(AssociationChangeType.COMMUNICATION_UP, now);
    }

    /** Takes tags, TSNs and stream counts from a cookie and builds the data path. */
    private void adoptCookie(StateCookie c) {
        t.localTag = c.localTag();
        t.peerTag = c.peerTag();
        t.localInitialTsn = c.localInitialTsn();
        startFromCookie(c);
    }

    /**
     * What a State Cookie carries about the peer, taken by every path that builds an association
     * from one (COOKIE ECHO received, the collision cases of RFC 9260 section 5.2.4, a restart):
     * the extensions both sides announced, AUTH's key vectors (RFC 4895 section 6.1) and the data
     * path (section 5.1).
     */
    void startFromCookie(StateCookie c) {
        t.negotiate(c.peerExtensions(), c.peerAdaptation());
        t.auth.adopt(c.localAuth(), c.peerAuth());
        t.data.startDataPath(
                c.localInitialTsn(), c.peerInitialTsn(), c.peerRwnd(), c.peerOutbound(), c.peerMaxInbound());
    }

    private void sendInit(long now) {
        Path p = t.paths.get(t.primary);
        sentInit = Handshake.buildInit(
                t.host, t.o, p.address(), t.localTag, t.localInitialTsn, preservativeMillis, t.auth.local());
        t.queue(sentInit, p.address(), 0);
        startT1(TimerKind.T1_INIT, now + p.rto().rto());
    }

    private void sendCookieEcho(long now) {
        Path p = t.paths.get(t.primary);
        t.queue(new CookieEchoChunk(cookieToEcho), p.address(), t.peerTag);
        cookieEchoSentAt = now;
        startT1(TimerKind.T1_COOKIE, now + p.rto().rto());
    }

    /**
     * INIT ACK in COOKIE-WAIT (RFC 9260 section 5.1 C): checks it, takes the peer's tag, addresses
     * and parameters, echoes its cookie (COOKIE-ECHOED, T1-cookie). An INIT ACK without a cookie or
     * with invalid mandatory fields, or one with a host name address, ends the setup with an ABORT.
     */
    void onInitAck(InboundPacket pkt, int i, long now) {
        Parsed<? extends Chunk> p = Chunks.decode(pkt.buffer(), pkt.offset(i), pkt.length(i));
        if (!p.isOk() || !(p.value() instanceof InitAckChunk ack)) {
            return;
        }
        InitHandling.PeerParams pp = InitHandling.read(ack.parameters());
        if (ack.initiateTag() == 0 || ack.outboundStreams() == 0 || ack.inboundStreams() == 0 || pp.cookie == null) {
            // RFC 9260 section 5.1 C/E: an INIT ACK without a cookie or with invalid mandatory
            // fields is a protocol error.
            t.queue(AbortChunk.of(false, new InvalidMandatoryParameterCause()), pkt.from(), ack.initiateTag());
            t.abort.close(AssociationChangeType.CANT_START, List.of(), "invalid INIT ACK", now);
            return;
        }
        if (pp.abortCause != null) {
            t.queue(AbortChunk.of(false, pp.abortCause), pkt.from(), ack.initiateTag());
            t.abort.close(AssociationChangeType.CANT_START, List.of(), "INIT ACK with a host name address", now);
            return;
        }
        String authRefusal = t.auth.local() == null ? null : Authentication.refusal(pp.auth);
        if (authRefusal != null) {
            // RFC 4895 section 6.1: an unusable RANDOM (or HMAC-ALGO) aborts the association.
            t.queue(AbortChunk.of(false, ProtocolViolationCause.of(authRefusal)), pkt.from(), ack.initiateTag());
            t.abort.close(AssociationChangeType.CANT_START, List.of(), "INIT ACK with " + authRefusal, now);
            return;
        }
        if (!pp.toReport.isEmpty()) {
            // RFC 9260 section 3.2.1: report unrecognized parameters in an ERROR bundled with the COOKIE ECHO.
            t.queue(
                    new ErrorChunk(List.of(InitHandling.unrecognizedCause(pp.toReport))),
                    pkt.from(),
                    ack.initiateTag());
        }
        t.peerTag = ack.initiateTag();
        // The INIT ACK's source becomes confirmed; listed addresses need a heartbeat (5.4).
        Path src = t.pathSet.addPath(pkt.from(), PathStatus.ACTIVE, now);
        t.pathSet.answerFrom(pkt.from(), pkt.to());
        if (src != null) {
            src.setStatus(PathStatus.ACTIVE);
        }
        t.pathSet.addListedPaths(pkt.from(), pp.addresses, now);
        t.negotiate(pp.extensions, pp.adaptation);
        t.auth.adopt(t.auth.local(), pp.auth);
        t.data.startDataPath(
                t.localInitialTsn, ack.initialTsn(), ack.aRwnd(), ack.outboundStreams(), ack.inboundStreams());
        cookieToEcho = pp.cookie;
        t.state = State.COOKIE_ECHOED;
        t1Count = 0;
        sendCookieEcho(now);
    }

    /**
     * COOKIE ACK in COOKIE-ECHOED (RFC 9260 section 5.1 E): ESTABLISHED. In any other state {@link
     * InitCollision#onCookieAck} discards it (5.2.5).
     */
    void onCookieAck(long now) {
        enterEstablished(now);
    }

    /**
     * The setup completes (a COOKIE ACK, or a COOKIE ECHO of an INIT collision, section 5.2.4 B
     * and D): T1 stops, ESTABLISHED, the policy's primary taken, COMMUNICATION_UP.
     */
    void enterEstablished(long now) {
        stopT1();
        cookieToEcho = null;
        t.state = State.ESTABLISHED;
        t.pathSet.adoptPendingPrimary();
        emitUp(AssociationChangeType.COMMUNICATION_UP, now);
    }

    /**
     * A Stale Cookie error in COOKIE-ECHOED (RFC 9260 section 5.2.6): retry with a Cookie
     * Preservative asking for twice the staleness, but no more than 1 s beyond the round trip of
     * the COOKIE ECHO and this ERROR (a long cookie life makes replays easier); back to COOKIE-WAIT
     * with a new INIT, within Max.Init.Retransmits.
     */
    public void onStaleCookie(StaleCookieCause stale, long now) {
        if (++t1Count > t.o.maxInitRetransmits()) {
            t.abort.close(AssociationChangeType.CANT_START, List.of(), "stale cookies until retries ran out", now);
            return;
        }
        long rttMillis = Math.max(0, now - cookieEchoSentAt) / 1_000_000;
        preservativeMillis =
                Math.max(1, Math.min(2L * Integer.toUnsignedLong(stale.stalenessMicros()) / 1000, rttMillis + 1000));
        t.state = State.COOKIE_WAIT;
        cookieToEcho = null;
        t.tx = null;
        t.rx = null;
        sendInit(now);
    }

    /**
     * T1-init or T1-cookie expired (RFC 9260 section 5.1): the INIT or COOKIE ECHO again to the
     * primary with the RTO backed off, until Max.Init.Retransmits, then CANT_START.
     */
    public void onT1(long now) {
        Path p = t.paths.get(t.primary);
        if (++t1Count > t.o.maxInitRetransmits()) {
            t.abort.close(
                    AssociationChangeType.CANT_START,
                    List.of(),
                    "no answer to INIT/COOKIE ECHO after " + t.o.maxInitRetransmits() + " retransmissions",
                    now);
            return;
        }
        p.rto().backoff();
        if (t.state == State.COOKIE_WAIT) {
            t.queue(sentInit, p.address(), 0);
            startT1(TimerKind.T1_INIT, now + p.rto().rto());
        } else if (t.state == State.COOKIE_ECHOED) {
            t.queue(new CookieEchoChunk(cookieToEcho), p.address(), t.peerTag);
            cookieEchoSentAt = now;
            startT1(TimerKind.T1_COOKIE, now + p.rto().rto());
        } else {
            stopT1();
        }
    }

    /** Stops T1-init and T1-cookie. */
    public void stopT1() {
        t.timers.stop(TimerKind.T1_INIT);
        t.timers.stop(TimerKind.T1_COOKIE);
    }

    /** Runs T1 of {@code kind} (T1-init or T1-cookie) until {@code at}; the other one stops. */
    private void startT1(TimerKind kind, long at) {
        stopT1();
        t.timers.start(kind, at);
    }

    /**
     * The COOKIE ACK for a COOKIE ECHO from {@code from}: to it when it is a confirmed path; when
     * it is unconfirmed, bundled with a HEARTBEAT that confirms it (RFC 9260 section 5.4 allows a
     * COOKIE ACK to an unconfirmed address only so); to the primary when it is no path of ours.
     */
    void queueCookieAck(InetAddress from, long now) {
        Path p = t.pathOf(from);
        if (p == null) {
            t.queue(new CookieAckChunk(), t.primaryAddress(), t.peerTag);
            return;
        }
        t.queue(new CookieAckChunk(), from, t.peerTag);
        if (p.status() == PathStatus.UNCONFIRMED) {
            t.heartbeats.send(p, now);
        }
    }

    /** The association is up (or restarted): heartbeats start, the user is told. */
    void emitUp(AssociationChangeType type, long now) {
        t.heartbeats.scheduleConfirmed(now);
        t.pmtu.start(now);
        t.host.emit(new SctpEvent.AssociationChange(
                t.id, type, t.outboundStreams, t.inboundStreams, List.of(), type.name()));
        if (t.peerAdaptation >= 0) {
            // RFC 6458 section 6.1.6: the peer's Adaptation Layer Indication, after the
            // association's COMMUNICATION_UP (or RESTART).
            t.host.emit(new SctpEvent.AdaptationIndication(t.id, t.peerAdaptation));
        }
        t.auth.afterUp();
    }
}
