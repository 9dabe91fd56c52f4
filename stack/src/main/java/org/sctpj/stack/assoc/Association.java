package org.sctpj.stack.assoc;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Extension;
import org.sctpj.stack.IDataFragmentNumbering;
import org.sctpj.stack.PrPolicy;
import org.sctpj.stack.PrStatus;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.StreamSchedulerKind;
import org.sctpj.stack.Transmit;
import org.sctpj.stack.addr.AddressPolicy;
import org.sctpj.stack.auth.Authentication;
import org.sctpj.stack.handshake.StateCookie;
import org.sctpj.stack.icmp.IcmpHandling;
import org.sctpj.stack.icmp.IcmpReport;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.path.PathStatus;
import org.sctpj.stack.rx.DataReceiver;
import org.sctpj.stack.tx.DataSender;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.UnrecognizedAction;
import org.sctpj.stack.wire.cause.ErrorCause;
import org.sctpj.stack.wire.cause.StaleCookieCause;
import org.sctpj.stack.wire.cause.UnrecognizedChunkTypeCause;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.ChunkType;
import org.sctpj.stack.wire.chunk.Chunks;
import org.sctpj.stack.wire.chunk.ErrorChunk;

/**
 * One association: the state machine of RFC 9260 sections 4 to 9 for one peer, fed with the chunks
 * of packets the endpoint routed to it, with time, and with user commands; it produces packets
 * ({@link #pollTransmit}), events (through its {@link AssociationHost}) and its next deadline
 * ({@link #nextTimeout}).
 *
 * <p>This class only dispatches: its state is the {@link Tcb}; each chunk goes to the procedure
 * named after it, each expired timer of the {@link TimerTable} to its owner, each user command to
 * the procedure it starts:
 *
 * <ul>
 *   <li>setup: {@link org.sctpj.stack.handshake.Connect} (INIT, INIT ACK, COOKIE ECHO, COOKIE ACK,
 *       T1), {@link org.sctpj.stack.handshake.InitCollision} (sections 5.2.1 to 5.2.6, restart);
 *   <li>teardown: {@link org.sctpj.stack.teardown.Shutdown} (9.2, T2, T5), {@link
 *       org.sctpj.stack.teardown.Abort} (9.1);
 *   <li>paths: {@link org.sctpj.stack.pathmgmt.HeartbeatHandler} (8.3, 5.4), {@link
 *       org.sctpj.stack.pathmgmt.Failover} (8.1, 8.2, RFC 7829), {@link
 *       org.sctpj.stack.pathmgmt.PathSet} (addresses, primary);
 *   <li>data: {@link DataTransfer} (DATA, SACK, T3-rtx, packet assembly), over {@link DataSender}
 *       and {@link DataReceiver};
 *   <li>stream reconfiguration: {@link org.sctpj.stack.reconfig.StreamReset} (RE-CONFIG and its
 *       timer, RFC 6525).
 * </ul>
 *
 * <p>Not thread-safe: one owner calls everything (see {@link org.sctpj.stack.Endpoint}).
 */
public final class Association {

    /** The association states of RFC 9260 section 4 (CLOSED once finished). */
    public enum State {
        /** INIT sent, waiting for INIT ACK (T1-init running). */
        COOKIE_WAIT,
        /** COOKIE ECHO sent, waiting for COOKIE ACK (T1-cookie running). */
        COOKIE_ECHOED,
        /** Data flows both ways. */
        ESTABLISHED,
        /** The user asked for shutdown; outstanding data is still being delivered. */
        SHUTDOWN_PENDING,
        /** SHUTDOWN sent (T2-shutdown running). */
        SHUTDOWN_SENT,
        /** SHUTDOWN received; our outstanding data is still being delivered. */
        SHUTDOWN_RECEIVED,
        /** SHUTDOWN ACK sent (T2-shutdown running). */
        SHUTDOWN_ACK_SENT,
        /** Finished: nothing more is accepted; queued final chunks may still go out. */
        CLOSED
    }

    private final Tcb t;

    private final TimerTable.Owner timerOwner = new TimerTable.Owner() {
        @Override
        public boolean counts(TimerKind kind) {
            return timerCounts(kind);
        }

        @Override
        public void expired(TimerKind kind, int path, long now) {
            timerExpired(kind, path, now);
        }
    };

    private Association(AssociationHost host, AssociationId id, SctpOptions o, int peerPort) {
        this.t = new Tcb(host, id, o, peerPort, this);
    }

    // ------------------------------------------------------------------ creation

    /**
     * Starts an association towards {@code peers} (RFC 9260 section 5.1 A): sends INIT to the
     * first address and enters COOKIE-WAIT.
     */
    public static Association connect(
            AssociationHost host, AssociationId id, SctpOptions o, int peerPort, List<InetAddress> peers, long now) {
        Optional<AddressPolicy.Plan> plan = host.planPaths(peers, Optional.empty());
        if (plan.isPresent() && plan.get().peers().isEmpty()) {
            throw new IllegalArgumentException("the address policy finds none of " + peers
                    + " usable from this host (no local address of the same family and class, or untrusted"
                    + " private addresses): give other peer addresses or an ExplicitAddressSelector");
        }
        Association a = new Association(host, id, o, peerPort);
        a.t.connect.initiate(peers, plan, now);
        return a;
    }

    /**
     * Builds the association a valid COOKIE ECHO describes (RFC 9260 section 5.1 D): ESTABLISHED,
     * COOKIE ACK queued, COMMUNICATION_UP emitted. {@code from} is the COOKIE ECHO's source, one of
     * the cookie's peer addresses (the endpoint checked it); {@code to} the local address it
     * arrived on (the wildcard address when unknown).
     *
     * <p>The primary path is the INIT's source (the cookie's first peer address), the only address
     * confirmed by the handshake: the INIT ACK went there and the cookie it carried came back
     * (RFC 9260 section 5.4). The COOKIE ECHO's source, when another of the listed addresses, is
     * unconfirmed like the rest, so that a copied cookie replayed from elsewhere cannot choose the
     * association's primary; the COOKIE ACK to it carries a HEARTBEAT that confirms it.
     */
    public static Association fromCookie(
            AssociationHost host,
            AssociationId id,
            SctpOptions o,
            StateCookie c,
            InetAddress from,
            InetAddress to,
            long now) {
        Association a = new Association(host, id, o, c.peerPort());
        a.t.connect.accept(c, from, to, now);
        return a;
    }

    // ------------------------------------------------------------------ accessors

    /** This association's id. */
    public AssociationId id() {
        return t.id;
    }

    /** The current state. */
    public State state() {
        return t.state;
    }

    /** The peer's port. */
    public int peerPort() {
        return t.peerPort;
    }

    /** Our Verification Tag. */
    public int localTag() {
        return t.localTag;
    }

    /** The peer's Verification Tag. */
    public int peerTag() {
        return t.peerTag;
    }

    /** The peer's addresses, primary first. */
    public List<InetAddress> peerAddresses() {
        return t.peerAddresses();
    }

    /**
     * The peer addresses the user gave to connect, which RFC 9260 section 5.4 (rule 1) takes as
     * confirmed; empty when the peer initiated the association.
     */
    public List<InetAddress> userPeers() {
        return t.userPeers;
    }

    /** The paths (one per peer address), in index order. */
    public List<Path> paths() {
        return t.paths;
    }

    /** The primary path's address. */
    public InetAddress primaryAddress() {
        return t.primaryAddress();
    }

    /**
     * The dynamic address reconfiguration of this association (RFC 5061): add and delete our
     * addresses, ask the peer to change its primary (see {@link
     * org.sctpj.stack.asconf.AddressReconfiguration}).
     */
    public org.sctpj.stack.asconf.AddressReconfiguration addressReconfiguration() {
        return t.asconf;
    }

    /** Negotiated outbound streams (0 before establishment). */
    public int outboundStreams() {
        return t.outboundStreams;
    }

    /** Negotiated inbound streams (0 before establishment). */
    public int inboundStreams() {
        return t.inboundStreams;
    }

    /** The extensions the association uses (both sides announced them); empty before the handshake. */
    public Set<Extension> extensions() {
        return Collections.unmodifiableSet(EnumSet.copyOf(t.extensions));
    }

    /**
     * How this association numbers the I-DATA fragments after a message's first one now ({@link
     * IDataFragmentNumbering#RFC8260} or {@link IDataFragmentNumbering#LINUX_6_1}); with {@link
     * IDataFragmentNumbering#AUTO} configured, says whether it has switched to the peer's Linux
     * numbering. Meaningless without I-DATA.
     */
    public IDataFragmentNumbering iDataFragmentNumbering() {
        return t.tx == null ? IDataFragmentNumbering.RFC8260 : t.tx.fragmentNumbering();
    }

    /** The peer's Adaptation Code Point (RFC 5061 section 4.2.6), or -1 when it sent none. */
    public long peerAdaptation() {
        return t.peerAdaptation;
    }

    /** True once CLOSED and every final chunk has been handed out. */
    public boolean isFinished() {
        return t.state == State.CLOSED && t.controls.isEmpty();
    }

    /** The sending half of the data transfer, read-only use (null before establishment). */
    public DataSender sender() {
        return t.tx;
    }

    /** The receiving half of the data transfer, read-only use (null before establishment). */
    public DataReceiver receiver() {
        return t.rx;
    }

    /** Free bytes in the send buffer (0 before establishment). */
    public long sendBufferFree() {
        return t.tx == null ? 0 : t.tx.freeBytes();
    }

    /**
     * Bytes of the send buffer held by data sent and not yet cumulatively acknowledged, less what
     * an NR-SACK acknowledged as non-renegable (0 before establishment).
     */
    public long sendBufferOutstanding() {
        return t.tx == null ? 0 : t.tx.outstandingBytes();
    }

    /**
     * The local address packets to {@code peer} leave from: the address policy's pair for it if
     * there is one, else what the endpoint chooses.
     */
    public InetAddress sourceFor(InetAddress peer) {
        return t.pathSet.sourceFor(peer);
    }

    /** The transmission control block (internal: for the procedures' unit tests). */
    public Tcb tcb() {
        return t;
    }

    // ------------------------------------------------------------------ user commands

    /**
     * Queues a message (RFC 9260 section 10.1 SEND). Accepted only when ESTABLISHED.
     *
     * @throws IllegalStateException if the association is not established or is shutting down
     * @throws IllegalArgumentException for a stream beyond the negotiated count, an empty or
     *     oversized message
     */
    public SendStatus send(SendInfo info, ByteBuffer data, long now) {
        return t.data.send(info, data, now);
    }

    /**
     * As {@link #send}, for a message in {@code array[0..length)} that the association keeps
     * without a copy once accepted (see {@link DataSender#sendOwned}).
     */
    public SendStatus sendOwned(SendInfo info, byte[] array, int length, long now) {
        return t.data.sendOwned(info, array, length, now);
    }

    /**
     * Gives {@code bytes} of delivered messages back to the receive window (with {@link
     * SctpOptions#deferredReceiveRelease()}); see {@link DataReceiver#release}.
     */
    public void releaseReceived(long bytes) {
        if (t.rx != null) {
            t.rx.release(bytes);
        }
    }

    /** Sets the free-space threshold of the send callback (0: after every SACK that frees space). */
    public void setSendThreshold(long bytes) {
        if (bytes < 0 || bytes > t.o.sendBufferBytes()) {
            throw new IllegalArgumentException(
                    "send threshold must be 0.." + t.o.sendBufferBytes() + " (the send buffer size), was " + bytes);
        }
        t.sendThreshold = bytes;
    }

    /**
     * Sets the PR-SCTP policy of messages sent without one (RFC 7496 section 4.4,
     * SCTP_DEFAULT_PRINFO); {@link PrPolicy#RELIABLE} to send reliably.
     */
    public void setDefaultPrPolicy(PrPolicy policy) {
        t.forwardTsn.setDefaultPolicy(policy);
    }

    /** The PR-SCTP policy of messages sent without one. */
    public PrPolicy defaultPrPolicy() {
        return t.forwardTsn.defaultPolicy();
    }

    /** The observability counters of both directions (read on the owner thread). */
    public Counters counters() {
        return t.counters;
    }

    /**
     * Tells {@code probe} what changed since the last report: the state, each path's status and
     * T3-rtx expirations, fast retransmissions (see {@link org.sctpj.stack.Probe}).
     */
    public void report(org.sctpj.stack.Probe probe) {
        Counters c = t.counters;
        if (c.reportedState != t.state) {
            probe.associationState(
                    t.id, t.host.localPort(), c.reportedState == null ? null : c.reportedState.name(), t.state.name());
            c.reportedState = t.state;
        }
        for (int k = 0; k < t.paths.size(); k++) {
            Path p = t.paths.get(k);
            PathStatus was = p.swapReportedStatus();
            if (was != p.status()) {
                probe.pathStatus(
                        t.id,
                        p.address(),
                        was == null ? null : was.name(),
                        p.status().name());
            }
            long timeouts = p.takeUnreportedT3Expirations();
            if (timeouts > 0) {
                probe.retransmissionTimeout(t.id, p.address(), timeouts, p.rto().rto(), p.cwnd());
            }
        }
        if (c.fastRetransmits != c.reportedFastRetransmits) {
            probe.fastRetransmit(t.id, c.fastRetransmits - c.reportedFastRetransmits);
            c.reportedFastRetransmits = c.fastRetransmits;
        }
    }

    /** Abandoned messages of the association (RFC 7496 section 4.5, SCTP_PR_ASSOC_STATUS). */
    public PrStatus prStatus() {
        return t.forwardTsn.status();
    }

    /** Abandoned messages of outbound stream {@code streamId} (SCTP_PR_STREAM_STATUS). */
    public PrStatus prStatus(int streamId) {
        return t.forwardTsn.status(streamId);
    }

    /**
     * An ICMP error about one of our packets, whose quoted peer address and port are this
     * association's (RFC 9260 appendix C; the rules are {@link IcmpHandling}'s).
     */
    public IcmpHandling.Outcome handleIcmp(IcmpReport report, long now) {
        return t.icmp.onIcmp(report, now);
    }

    /**
     * Switches the stream scheduler (RFC 8260 section 3; SCTP_PLUGGABLE_SS of section 4.3.2),
     * keeping every queued message; before establishment it is remembered for the data path.
     */
    public void setStreamScheduler(StreamSchedulerKind kind) {
        Objects.requireNonNull(kind, "stream scheduler kind: one of StreamSchedulerKind");
        t.streamScheduler = kind;
        if (t.tx != null) {
            t.tx.setStreamScheduler(kind);
        }
    }

    /** The stream scheduler in use (or to be used once established). */
    public StreamSchedulerKind streamScheduler() {
        if (t.tx != null) {
            return t.tx.streamScheduler();
        }
        return t.streamScheduler != null ? t.streamScheduler : t.o.streamScheduler();
    }

    /**
     * Sets the scheduler's value of an outbound stream (RFC 8260 section 4.3.3 SCTP_SS_VALUE): the
     * priority of {@link StreamSchedulerKind#PRIORITY}, the weight of {@link
     * StreamSchedulerKind#WEIGHTED_FAIR_QUEUEING}.
     *
     * @throws IllegalStateException before establishment, or if the scheduler has no value
     * @throws IllegalArgumentException for a stream that is not open or a value out of range
     */
    public void setStreamValue(int streamId, int value) {
        requireDataPath().setStreamValue(streamId, value);
    }

    /** The scheduler's value of an outbound stream. */
    public int streamValue(int streamId) {
        return requireDataPath().streamValue(streamId);
    }

    private DataSender requireDataPath() {
        if (t.tx == null) {
            throw new IllegalStateException(t.id + " is not established yet: its outbound streams are known once"
                    + " COMMUNICATION_UP arrives; set stream values after it");
        }
        return t.tx;
    }

    /**
     * Resets the SSNs of {@code streams} (every stream when empty), of our outgoing streams (RFC
     * 6525 section 5.1.2) and/or of the peer's outgoing streams towards us (section 5.1.3): see
     * {@link org.sctpj.stack.reconfig.StreamReset#resetStreams}.
     *
     * @throws IllegalStateException when RE-CONFIG was not negotiated or the association is not
     *     established
     * @throws IllegalArgumentException for a stream that does not exist, or no direction
     */
    public void resetStreams(int[] streams, boolean outgoing, boolean incoming, long now) {
        t.reconfig.resetStreams(streams, outgoing, incoming, now);
    }

    /**
     * Resets the TSNs and every SSN in both directions (RFC 6525 section 5.1.4); see {@link
     * org.sctpj.stack.reconfig.StreamReset#resetAssociation}.
     */
    public void resetAssociation(long now) {
        t.reconfig.resetAssociation(now);
    }

    /**
     * Adds outgoing streams (RFC 6525 section 5.1.5) and asks the peer to add incoming ones
     * (section 5.1.6); see {@link org.sctpj.stack.reconfig.StreamReset#addStreams}.
     */
    public void addStreams(int outbound, int inbound, long now) {
        t.reconfig.addStreams(outbound, inbound, now);
    }

    /** Which stream reconfiguration requests of the peer are accepted (RFC 6525 section 6.3.1). */
    public void setAcceptedReconfigRequests(java.util.Set<org.sctpj.stack.ReconfigRequestKind> kinds) {
        t.reconfig.setAcceptedRequests(kinds);
    }

    /** Makes {@code address} the primary path (RFC 9260 section 10.1 SET PRIMARY). */
    public void setPrimary(InetAddress address) {
        t.pathSet.setPrimary(address);
    }

    /** Sets the MTU of the path to {@code address}. */
    public void setPathMtu(InetAddress address, int mtu) {
        t.pathSet.setPathMtu(address, mtu);
    }

    /**
     * Graceful shutdown (RFC 9260 section 9.2): no more data is accepted; once all outstanding
     * data is acknowledged, SHUTDOWN is sent. Before establishment this is an abort.
     */
    public void shutdown(long now) {
        t.shutdown.shutdown(now);
    }

    /** Aborts (RFC 9260 section 9.1): ABORT with a User-Initiated Abort cause carrying {@code reason}. */
    public void abort(Bytes reason, long now) {
        t.abort.abort(reason, now);
    }

    // ------------------------------------------------------------------ input

    /**
     * Processes a packet routed to this association. The endpoint has verified the checksum and
     * framing and matched the packet to us by address and port; the Verification Tag is checked
     * here (RFC 9260 section 8.5).
     */
    public void handlePacket(InboundPacket pkt, long now) {
        handlePacket(pkt, 0, now);
    }

    /**
     * As {@link #handlePacket(InboundPacket, long)}, starting at chunk {@code start}: the endpoint
     * passes 1 after it built this association from the COOKIE ECHO in chunk 0.
     */
    public void handlePacket(InboundPacket pkt, int start, long now) {
        handlePacket(pkt, start, false, now);
    }

    /**
     * As {@link #handlePacket(InboundPacket, int, long)}; {@code authenticated}: the chunks from
     * {@code start} on follow an AUTH chunk that verified (RFC 4895 section 6.3).
     *
     * <p>With AUTH in force, a chunk of a type we require to be authenticated that does not follow
     * a verified AUTH chunk in its packet is silently discarded; an AUTH chunk that does not verify
     * discards the rest of the packet (with an ERROR for an HMAC Identifier we did not request).
     */
    public void handlePacket(InboundPacket pkt, int start, boolean authenticated, long now) {
        if (t.state == State.CLOSED) {
            return;
        }
        if (start == 0 && !verificationTagOk(pkt, firstNonAuth(pkt))) {
            return;
        }
        boolean hadData = false;
        boolean immediate = false;
        boolean closedDuring = false;
        for (int i = start; i < pkt.chunkCount() && !closedDuring; i++) {
            int type = pkt.type(i);
            if (!authenticated && t.auth.weRequire(type)) {
                continue; // RFC 4895 section 6.3: silently discarded
            }
            switch (type) {
                case ChunkType.AUTH -> {
                    if (!t.auth.inForce()) {
                        closedDuring |= !onUnrecognized(pkt, i);
                    } else if (t.auth.onAuth(pkt, i) == Authentication.Verdict.OK) {
                        authenticated = true;
                    } else {
                        closedDuring = true; // the rest of the packet is discarded (section 6.3)
                    }
                }
                case ChunkType.DATA, ChunkType.I_DATA -> {
                    int r = type == ChunkType.DATA ? t.data.onData(pkt, i, now) : t.data.onIData(pkt, i, now);
                    if (r < 0) {
                        closedDuring = true;
                    } else if (r > 0) {
                        hadData = true;
                        immediate |= (pkt.flags(i) & 0x08) != 0;
                    }
                }
                case ChunkType.SACK -> t.data.onSack(pkt, i, now);
                case ChunkType.NR_SACK -> {
                    if (t.has(Extension.NR_SACK)) {
                        t.data.onNrSack(pkt, i, now);
                    } else if (!onUnrecognized(pkt, i)) {
                        closedDuring = true; // not negotiated: an unrecognized chunk
                    }
                }
                case ChunkType.INIT -> t.collision.onInit(pkt, i, now);
                case ChunkType.INIT_ACK -> t.collision.onInitAck(pkt, i, now);
                case ChunkType.COOKIE_ECHO -> {
                    // Only first in a packet (RFC 9260 section 6.10), where the endpoint hands it to
                    // handleCookieEcho: one further down is ignored.
                }
                case ChunkType.COOKIE_ACK -> t.collision.onCookieAck(now);
                case ChunkType.HEARTBEAT -> t.heartbeats.onHeartbeat(pkt, i);
                case ChunkType.HEARTBEAT_ACK -> t.heartbeats.onHeartbeatAck(pkt, i, now);
                case ChunkType.ABORT -> {
                    t.abort.onAbort(pkt, i, now);
                    closedDuring = true;
                }
                case ChunkType.SHUTDOWN -> t.shutdown.onShutdown(pkt, i, now);
                case ChunkType.SHUTDOWN_ACK -> t.shutdown.onShutdownAck(pkt, now);
                case ChunkType.SHUTDOWN_COMPLETE -> t.shutdown.onShutdownComplete(now);
                case ChunkType.ERROR -> onError(pkt, i, now);
                case ChunkType.RE_CONFIG -> {
                    if (!t.has(Extension.RECONFIG)) {
                        closedDuring |= !onUnrecognized(pkt, i);
                    } else {
                        t.reconfig.onReConfig(pkt, i, now);
                    }
                }
                case ChunkType.FORWARD_TSN -> {
                    if (t.has(Extension.PR_SCTP)) {
                        t.forwardTsn.onForwardTsn(pkt, i, now);
                    } else if (!onUnrecognized(pkt, i)) {
                        closedDuring = true; // not negotiated: an unrecognized chunk (RFC 3758 section 3.3.1)
                    }
                }
                case ChunkType.ECNE -> {
                    if (t.has(Extension.ECN)) {
                        t.ecn.onEcne(pkt, i);
                    } else if (!onUnrecognized(pkt, i)) {
                        closedDuring = true; // not negotiated: an unrecognized chunk (RFC 9260 appendix A)
                    }
                }
                case ChunkType.CWR -> {
                    if (t.has(Extension.ECN)) {
                        t.ecn.onCwr(pkt, i);
                    } else if (!onUnrecognized(pkt, i)) {
                        closedDuring = true;
                    }
                }
                case ChunkType.ASCONF -> {
                    if (!t.has(Extension.ASCONF)) {
                        closedDuring |= !onUnrecognized(pkt, i);
                    } else if (authenticated) {
                        t.asconf.onAsconf(pkt, i, now); // RFC 5061 section 4.1.1: only authenticated
                    }
                }
                case ChunkType.ASCONF_ACK -> {
                    if (!t.has(Extension.ASCONF)) {
                        closedDuring |= !onUnrecognized(pkt, i);
                    } else if (authenticated) {
                        t.asconf.onAsconfAck(pkt, i, now);
                    }
                }
                case ChunkType.I_FORWARD_TSN -> {
                    if (t.has(Extension.PR_SCTP) && t.has(Extension.I_DATA)) {
                        t.forwardTsn.onIForwardTsn(pkt, i, now);
                    } else if (!onUnrecognized(pkt, i)) {
                        closedDuring = true; // not negotiated: an unrecognized chunk (RFC 8260 section 2.3)
                    }
                }
                default -> {
                    if (!onUnrecognized(pkt, i)) {
                        closedDuring = true; // "stop processing": the rest of the packet is discarded
                    }
                }
            }
            if (t.state == State.CLOSED) {
                closedDuring = true;
            }
        }
        if (hadData) {
            t.ecn.onPacket(pkt, start); // before the SACK is due, so that the ECNE goes with it
        }
        t.data.afterPacket(hadData, immediate, now);
        t.reconfig.afterPacket(now);
    }

    /**
     * The type of the packet's first chunk that is not AUTH: an AUTH chunk goes first (RFC 4895
     * section 6.2) where the Verification Tag rules of the chunk after it apply.
     */
    private static int firstNonAuth(InboundPacket pkt) {
        return pkt.type(0) == ChunkType.AUTH && pkt.chunkCount() > 1 ? pkt.type(1) : pkt.type(0);
    }

    /** RFC 9260 sections 8.5 and 8.5.1. */
    private boolean verificationTagOk(InboundPacket pkt, int first) {
        int vtag = pkt.verificationTag();
        switch (first) {
            case ChunkType.INIT:
                return vtag == 0 && pkt.chunkCount() == 1;
            case ChunkType.ABORT:
            case ChunkType.SHUTDOWN_COMPLETE: {
                boolean tBit = (pkt.flags(0) & 1) != 0;
                return tBit ? vtag == t.peerTag && t.peerTag != 0 : vtag == t.localTag;
            }
            case ChunkType.COOKIE_ECHO:
                return false; // the endpoint hands a COOKIE ECHO to handleCookieEcho (section 5.2.4)
            case ChunkType.INIT_ACK:
                return vtag == t.localTag && pkt.chunkCount() == 1;
            default:
                return vtag == t.localTag;
        }
    }

    /**
     * A COOKIE ECHO (first chunk of {@code pkt}) whose authentic cookie {@code c} the endpoint
     * found to concern this association (RFC 9260 section 5.2.4): by our tag (cases B and D), by
     * our tie-tag (case A), or by one of its peer addresses. The endpoint has checked the MAC, the
     * ports, that the packet carries the cookie's tag and that it comes from one of the cookie's
     * peer addresses; a stale cookie comes here only when both its tags are this association's
     * (step 3: then it is valid, case D). When the cookie is accepted, the chunks bundled after it
     * are processed; otherwise the whole packet is discarded.
     */
    public void handleCookieEcho(InboundPacket pkt, StateCookie c, long now) {
        handleCookieEcho(pkt, 0, c, now);
    }

    /**
     * As {@link #handleCookieEcho(InboundPacket, StateCookie, long)} for a COOKIE ECHO at chunk
     * {@code ci}: 1 when an AUTH chunk precedes it (RFC 4895 section 6.3). The AUTH chunk is
     * checked with this association's keys when it has AUTH in force, else with the cookie's key
     * vectors; one that does not verify discards the packet, and so does a COOKIE ECHO without
     * AUTH when we require COOKIE ECHO to be authenticated.
     */
    public void handleCookieEcho(InboundPacket pkt, int ci, StateCookie c, long now) {
        if (t.state == State.CLOSED) {
            return;
        }
        boolean authenticated = false;
        if (ci == 1) {
            Authentication.Verdict v = t.auth.inForce()
                    ? t.auth.onAuth(pkt, 0)
                    : Authentication.verifyWith(pkt, 0, c.localAuth(), c.peerAuth(), t.host.endpointKeys());
            if (v != Authentication.Verdict.OK) {
                return;
            }
            authenticated = true;
        } else if (t.auth.weRequire(ChunkType.COOKIE_ECHO)) {
            return;
        }
        if (t.collision.onCookieEcho(c, pkt.from(), now) && pkt.verificationTag() == t.localTag) {
            handlePacket(pkt, ci + 1, authenticated, now);
        }
    }

    /** ERROR: a Stale Cookie error restarts the setup (5.2.6); any other is reported to the user. */
    private void onError(InboundPacket pkt, int i, long now) {
        Parsed<? extends Chunk> p = Chunks.decode(pkt.buffer(), pkt.offset(i), pkt.length(i));
        if (!p.isOk() || !(p.value() instanceof ErrorChunk e)) {
            return;
        }
        for (ErrorCause c : e.causes()) {
            if (c instanceof StaleCookieCause stale && t.state == State.COOKIE_ECHOED) {
                t.connect.onStaleCookie(stale, now);
                return;
            }
        }
        t.host.emit(new SctpEvent.RemoteError(t.id, e.causes()));
    }

    /**
     * An unrecognized chunk type (RFC 9260 section 3.2): report and/or skip by its two high bits.
     * Returns false when the rest of the packet must be discarded.
     */
    private boolean onUnrecognized(InboundPacket pkt, int i) {
        int type = pkt.type(i);
        UnrecognizedAction action = UnrecognizedAction.ofChunkType(type);
        if (action.report() && t.peerTag != 0) {
            byte[] raw = new byte[pkt.length(i)];
            pkt.buffer().get(pkt.offset(i), raw);
            t.queue(
                    new ErrorChunk(List.of(new UnrecognizedChunkTypeCause(Bytes.of(raw)))),
                    t.pathSet.replyTo(pkt.from()),
                    t.peerTag);
        }
        return action.continueProcessing();
    }

    // ------------------------------------------------------------------ output

    /** The next packet to send, if any (a new array per packet: see {@link #pollTransmit(ByteBuffer, long)}). */
    public Optional<Transmit> pollTransmit(long now) {
        return t.data.pollTransmit(now);
    }

    /**
     * The allocation-free form of {@link #pollTransmit(long)}: writes the next packet (checksum
     * filled) into {@code out} from its position, and returns its destination; {@link
     * #transmitSource()} is the address to send it from. On return {@code out}'s position is
     * unchanged and its limit is the end of the packet. Returns {@code null}, leaving {@code out}'s
     * position and limit as they were, when there is nothing to send.
     *
     * @param out a writable buffer (direct, for the socket) with room for the largest packet of
     *     any path (65535 bytes fits all); less room makes smaller packets
     */
    public InetAddress pollTransmit(ByteBuffer out, long now) {
        return t.data.pollTransmit(out, now);
    }

    /** The local address the last packet of {@link #pollTransmit} goes out from. */
    public InetAddress transmitSource() {
        return t.data.transmitSource();
    }

    /** The ECN codepoint of the last packet of {@link #pollTransmit} ({@link org.sctpj.stack.llp.Ecn}). */
    public int transmitEcn() {
        return t.data.transmitEcn();
    }

    /** Whether the last packet of {@link #pollTransmit} may be fragmented by IP (larger than its path's MTU). */
    public boolean transmitFragmentable() {
        return t.data.transmitFragmentable();
    }

    // ------------------------------------------------------------------ timers

    /** The earliest deadline of this association, or {@link Long#MAX_VALUE}. */
    public long nextTimeout() {
        if (t.state == State.CLOSED) {
            return Tcb.NONE;
        }
        return t.timers.nextTimeout(timerOwner);
    }

    /** Runs every timer due at {@code now}. */
    public void handleTimeout(long now) {
        if (t.state == State.CLOSED) {
            return;
        }
        t.timers.handleTimeout(now, timerOwner);
    }

    /**
     * Which timers count in the current state. None once CLOSED. Heartbeats only in ESTABLISHED
     * (see {@link org.sctpj.stack.pathmgmt.HeartbeatHandler#onTimer}). The delayed SACK only while
     * a SACK can be sent: in COOKIE-ECHOED and SHUTDOWN-ACK-SENT no SACK is sent, and a deadline
     * nothing clears would be due again at once, forever.
     */
    private boolean timerCounts(TimerKind kind) {
        if (t.state == State.CLOSED) {
            return false;
        }
        return switch (kind) {
            case HEARTBEAT -> t.o.heartbeatEnabled() && t.state == State.ESTABLISHED;
            case DELAYED_SACK -> t.canBundleData();
            case PMTU -> t.state == State.ESTABLISHED;
            case ASCONF, PR_LIFETIME -> t.tx != null;
            default -> true;
        };
    }

    /** The one timer dispatch: each expired timer to the procedure that owns it. */
    private void timerExpired(TimerKind kind, int path, long now) {
        switch (kind) {
            case T1_INIT, T1_COOKIE -> t.connect.onT1(now);
            case T5_SHUTDOWN_GUARD -> t.shutdown.onT5(now);
            case T2_SHUTDOWN -> t.shutdown.onT2(now);
            case T3_RTX -> {
                if (t.tx != null) {
                    t.data.onT3(t.paths.get(path), now);
                }
            }
            case HEARTBEAT -> {
                if (t.tx != null) {
                    t.heartbeats.onTimer(path, now);
                    t.data.trimIfIdle();
                }
            }
            case DELAYED_SACK -> {} // the SACK is due: the next pollTransmit sends it (rx.sackNeeded)
            case RECONFIG -> t.reconfig.onTimer(now);
            case PMTU -> t.pmtu.onTimer(path, now);
            case ASCONF -> t.asconf.onTimer(now);
            case PR_LIFETIME -> t.tx.onLifetimeTimer(now); // the touch of this expiry makes the next poll
        }
    }

    @Override
    public String toString() {
        return t.id + "[" + t.state + " local=0x" + Integer.toHexString(t.localTag) + " peer=0x"
                + Integer.toHexString(t.peerTag) + " " + t.peerAddresses() + ":" + t.peerPort + "]";
    }
}
