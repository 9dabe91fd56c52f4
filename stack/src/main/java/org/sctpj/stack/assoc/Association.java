package org.sctpj.stack.assoc;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpEvent.PeerAddressState;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.Transmit;
import org.sctpj.stack.addr.AddressPolicy;
import org.sctpj.stack.path.CmtScheduler;
import org.sctpj.stack.path.CongestionController;
import org.sctpj.stack.path.LinkedIncreasesCongestionController;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.path.PathStatus;
import org.sctpj.stack.path.Rfc9260CongestionController;
import org.sctpj.stack.rx.DataReceiver;
import org.sctpj.stack.tx.AckResult;
import org.sctpj.stack.tx.DataSender;
import org.sctpj.stack.tx.PacketBuilder;
import org.sctpj.stack.tx.UnsentMessage;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.UnrecognizedAction;
import org.sctpj.stack.wire.cause.CookieReceivedWhileShuttingDownCause;
import org.sctpj.stack.wire.cause.ErrorCause;
import org.sctpj.stack.wire.cause.InvalidStreamIdentifierCause;
import org.sctpj.stack.wire.cause.NoUserDataCause;
import org.sctpj.stack.wire.cause.OutOfResourceCause;
import org.sctpj.stack.wire.cause.RestartWithNewAddressesCause;
import org.sctpj.stack.wire.cause.StaleCookieCause;
import org.sctpj.stack.wire.cause.UnrecognizedChunkTypeCause;
import org.sctpj.stack.wire.cause.UserInitiatedAbortCause;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.ChunkType;
import org.sctpj.stack.wire.chunk.Chunks;
import org.sctpj.stack.wire.chunk.CookieAckChunk;
import org.sctpj.stack.wire.chunk.CookieEchoChunk;
import org.sctpj.stack.wire.chunk.DataChunkView;
import org.sctpj.stack.wire.chunk.ErrorChunk;
import org.sctpj.stack.wire.chunk.HeartbeatAckChunk;
import org.sctpj.stack.wire.chunk.HeartbeatChunk;
import org.sctpj.stack.wire.chunk.InitAckChunk;
import org.sctpj.stack.wire.chunk.InitChunk;
import org.sctpj.stack.wire.chunk.SackChunkView;
import org.sctpj.stack.wire.chunk.ShutdownAckChunk;
import org.sctpj.stack.wire.chunk.ShutdownChunk;
import org.sctpj.stack.wire.chunk.ShutdownCompleteChunk;
import org.sctpj.stack.wire.param.AddressParameter;
import org.sctpj.stack.wire.param.HeartbeatInfoParameter;
import org.sctpj.stack.wire.param.Parameter;

/**
 * One association: the state machine of RFC 9260 sections 4 to 9 for one peer, fed with the chunks
 * of packets the endpoint routed to it, with time, and with user commands; it produces packets
 * ({@link #pollTransmit}), events (through its {@link AssociationHost}) and its next deadline
 * ({@link #nextTimeout}). Data transfer itself lives in {@link DataSender} and {@link
 * DataReceiver}; per-destination state in {@link Path}.
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

    private static final long NONE = Long.MAX_VALUE;

    /** A control chunk waiting to be sent, with its destination and packet Verification Tag. */
    private record Control(Chunk chunk, InetAddress destination, int verificationTag) {}

    private final AssociationHost host;
    private final AssociationId id;
    private final SctpOptions o;
    private final int peerPort;
    private State state;

    private int localTag;
    private int peerTag;
    private int localInitialTsn;
    private int localOutbound;
    private int localMaxInbound;
    private int outboundStreams;
    private int inboundStreams;

    private final List<Path> paths = new ArrayList<>();
    private int primary;
    private final Heartbeats heartbeats = new Heartbeats();
    private final CongestionController cc;
    /** CMT: the path after the one that last got data, for round robin over destinations. */
    private int nextCmtPath;
    /**
     * The source address per peer address: the address policy's pairs, and for the peer address
     * the handshake used, the local address the peer reached (so that the answers leave from the
     * address the peer sent to, whatever the longest-prefix choice would be).
     */
    private final Map<InetAddress, InetAddress> pairedSources = new HashMap<>();
    /** The local address each handshake packet arrived on, per peer address (see {@link #sourceFor}). */
    private final Map<InetAddress, InetAddress> replySources = new HashMap<>();
    /** Peer addresses whose handshake address is also the closest local one (always used). */
    private final java.util.Set<InetAddress> pinnedByPrefix = new java.util.HashSet<>();
    /**
     * The peer addresses the peer announced for this association (the addresses of its INIT or
     * INIT ACK and their source, those the user connected to), whether or not they became paths:
     * an INIT or a restart that brings an address outside this set and the paths is refused (RFC
     * 9260 sections 5.2.1, 5.2.2 and 5.2.4). At most {@link #MAX_ANNOUNCED}.
     */
    private final Set<InetAddress> announced = new LinkedHashSet<>();
    /** Bound on {@link #announced}: a peer that lists more cannot restart with the excess ones. */
    static final int MAX_ANNOUNCED = 4 * StateCookie.MAX_ADDRESSES;
    /** Set once an address policy gave this association a plan. */
    private boolean policyActive;
    /**
     * The address policy's primary, taken as the primary once the association is established and
     * its path confirmed (null when none is pending).
     */
    private InetAddress pendingPrimary;
    /**
     * The peer addresses the user gave to connect: confirmed from the start (RFC 9260 section 5.4
     * rule 1). Empty for an association a COOKIE ECHO created.
     */
    private List<InetAddress> userPeers = List.of();

    private DataSender tx;
    private DataReceiver rx;
    private final PacketBuilder pb;
    private final SackChunkWriter sackWriter;
    private final ArrayDeque<Control> controls = new ArrayDeque<>();
    private final long[] rttOut = new long[1];
    // Reused on the data path so that a packet of DATA or SACK allocates nothing.
    private final DataChunkView dataView = new DataChunkView();
    private final SackChunkView sackView = new SackChunkView();
    private int[] gapStarts = new int[16];
    private int[] gapEnds = new int[16];
    private static final int[] NO_GAPS = new int[0];
    private final DataReceiver.MessageSink messageSink = new DataReceiver.MessageSink() {
        @Override
        public void message(
                int streamId, int ppid, boolean unordered, byte[] array, ByteBuffer buf, int offset, int length) {
            deliver(streamId, ppid, unordered, array, buf, offset, length);
        }

        @Override
        public void part(int streamId, int ppid, boolean unordered, byte[] array, boolean last) {
            host.emit(new SctpEvent.MessagePart(id, streamId, ppid, unordered, array, last));
        }
    };

    // Setup timers (T1-init / T1-cookie), RFC 9260 section 5.1.
    private long t1Deadline = NONE;
    private int t1Count;
    private InitChunk sentInit;
    private Bytes cookieToEcho;
    /** When the last COOKIE ECHO was queued, to time the Stale Cookie error's round trip (5.2.6). */
    private long cookieEchoSentAt;

    private long preservativeMillis;

    // Shutdown timers, RFC 9260 section 9.2.
    private long t2Deadline = NONE;
    private long t5Deadline = NONE;

    private int associationErrors;
    /** The source of the last DATA received: where the SACK goes (RFC 9260 section 6.4). */
    private InetAddress lastDataSource;
    /**
     * The source of earlier DATA that was a confirmed path when later DATA came from elsewhere: the
     * SACK's destination when {@link #lastDataSource} is unconfirmed (sections 5.4 and 6.4).
     */
    private InetAddress lastConfirmedDataSource;
    /** The source address of the last packet built. */
    private InetAddress lastSource;

    private long sendThreshold;
    private boolean wasDry = true;

    private Association(AssociationHost host, AssociationId id, SctpOptions o, int peerPort) {
        this.host = host;
        this.id = id;
        this.o = o;
        this.peerPort = peerPort;
        this.pb = new PacketBuilder(65535);
        this.sackWriter = new SackChunkWriter(pb);
        this.cc = o.congestionControl() == SctpOptions.CongestionControl.LINKED_INCREASES
                ? new LinkedIncreasesCongestionController(paths)
                : new Rfc9260CongestionController();
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
        a.localTag = Handshake.randomTag(host.random());
        a.localInitialTsn = host.random().nextInt();
        a.localOutbound = o.outboundStreams();
        a.localMaxInbound = o.maxInboundStreams();
        for (InetAddress p : plan.map(AddressPolicy.Plan::peers).orElse(List.copyOf(new LinkedHashSet<>(peers)))) {
            a.addPath(p, PathStatus.ACTIVE, now);
        }
        a.announce(peers);
        a.userPeers = List.copyOf(new LinkedHashSet<>(peers));
        plan.ifPresent(a::applyPlan);
        a.state = State.COOKIE_WAIT;
        a.sendInit(now);
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
        InetAddress initSource =
                c.peerAddresses().isEmpty() ? from : c.peerAddresses().get(0);
        a.answerFrom(initSource, c.localAddress());
        if (!from.equals(initSource)) {
            a.answerFrom(from, to);
        }
        a.localOutbound = c.localOutbound();
        a.localMaxInbound = c.localMaxInbound();
        a.adoptCookie(c, now);
        Set<InetAddress> addrs = new LinkedHashSet<>();
        addrs.add(initSource);
        addrs.addAll(c.peerAddresses());
        a.announce(addrs);
        Optional<AddressPolicy.Plan> plan = host.planPaths(List.copyOf(addrs), Optional.of(initSource));
        a.addPath(initSource, PathStatus.ACTIVE, now);
        for (InetAddress p : plan.map(AddressPolicy.Plan::peers).orElse(List.copyOf(addrs))) {
            // Listed addresses need a heartbeat first (RFC 9260 section 5.4).
            a.addPath(p, p.equals(initSource) ? PathStatus.ACTIVE : PathStatus.UNCONFIRMED, now);
        }
        a.primary = 0;
        a.state = State.ESTABLISHED;
        plan.ifPresent(a::applyPlan);
        a.queueCookieAck(from, now);
        a.emitUp(AssociationChangeType.COMMUNICATION_UP, now);
        return a;
    }

    /** Adds to {@link #announced}, up to its bound. */
    private void announce(java.util.Collection<InetAddress> addrs) {
        for (InetAddress x : addrs) {
            if (announced.size() >= MAX_ANNOUNCED) {
                return;
            }
            announced.add(x);
        }
    }

    /**
     * The addresses of {@code offered} that are not part of this association (neither announced
     * by the peer nor a path), at most {@link StateCookie#MAX_ADDRESSES} of them.
     */
    private List<InetAddress> newAddresses(List<InetAddress> offered) {
        List<InetAddress> out = new ArrayList<>();
        for (InetAddress x : offered) {
            if (!announced.contains(x) && pathOf(x) == null && !out.contains(x)) {
                out.add(x);
                if (out.size() == StateCookie.MAX_ADDRESSES) {
                    break;
                }
            }
        }
        return out;
    }

    /**
     * Refuses an INIT or a restart that brings {@code added} (RFC 9260 sections 5.2.1, 5.2.2 and
     * 5.2.4 A): an ABORT with a Restart of an Association with New Addresses cause listing them,
     * tagged with the restarting peer's new tag, to {@code dest}. The association is unchanged.
     */
    private void refuseNewAddresses(List<InetAddress> added, InetAddress dest, int newPeerTag) {
        List<Parameter> params = new ArrayList<>(added.size());
        for (InetAddress x : added) {
            params.add(AddressParameter.of(x));
        }
        queue(AbortChunk.of(false, RestartWithNewAddressesCause.of(params)), dest, newPeerTag);
    }

    /**
     * The COOKIE ACK for a COOKIE ECHO from {@code from}: to it when it is a confirmed path; when
     * it is unconfirmed, bundled with a HEARTBEAT that confirms it (RFC 9260 section 5.4 allows a
     * COOKIE ACK to an unconfirmed address only so); to the primary when it is no path of ours.
     */
    private void queueCookieAck(InetAddress from, long now) {
        Path p = pathOf(from);
        if (p == null) {
            queue(new CookieAckChunk(), primaryAddress(), peerTag);
            return;
        }
        queue(new CookieAckChunk(), from, peerTag);
        if (p.status() == PathStatus.UNCONFIRMED) {
            Bytes info = heartbeats.send(p.index(), from, now, p.rto().rto(), host.random());
            queue(new HeartbeatChunk(List.of(new HeartbeatInfoParameter(info))), from, peerTag);
        }
    }

    /** Takes tags, TSNs and stream counts from a cookie and builds the data path. */
    private void adoptCookie(StateCookie c, long now) {
        localTag = c.localTag();
        peerTag = c.peerTag();
        localInitialTsn = c.localInitialTsn();
        startDataPath(c.localInitialTsn(), c.peerInitialTsn(), c.peerRwnd(), c.peerOutbound(), c.peerMaxInbound());
    }

    private void startDataPath(int myInitialTsn, int peerInitialTsn, int peerRwnd, int peerOs, int peerMis) {
        if (rx != null) {
            reportPartialDeliveriesAborted(); // a restart: the old receiver's messages in parts end here
        }
        outboundStreams = Math.min(localOutbound, peerMis);
        inboundStreams = Math.min(peerOs, localMaxInbound);
        tx = new DataSender(o, myInitialTsn, outboundStreams, Integer.toUnsignedLong(peerRwnd), cc);
        rx = new DataReceiver(o, peerInitialTsn, inboundStreams);
        // Messages are taken (deliverMessages) before each packet's processing returns and handed
        // out before the endpoint call returns, so the receiver may refer to the packet.
        rx.keepReferences(true);
        for (Path p : paths) {
            cc.init(p, Integer.toUnsignedLong(peerRwnd));
        }
    }

    private Path addPath(InetAddress addr, PathStatus status, long now) {
        for (Path p : paths) {
            if (p.address().equals(addr)) {
                return p;
            }
        }
        if (paths.size() >= StateCookie.MAX_ADDRESSES) {
            return null;
        }
        Path p = new Path(paths.size(), addr, o.pathMtu(), o);
        p.setStatus(status);
        paths.add(p);
        if (tx != null) {
            cc.init(p, tx.peerRwnd());
        }
        // Unconfirmed addresses are probed at once (RFC 9260 section 5.4); others after HB.interval.
        heartbeats.ensure(paths.size(), status == PathStatus.UNCONFIRMED ? now : now + heartbeatDelay(p));
        host.peerAddressesChanged(this);
        return p;
    }

    /**
     * Takes the address policy's decisions: the CMT path set, the source address per path, and
     * its primary (at once if that path is confirmed and the association established, else when
     * both hold; see {@link #adoptPendingPrimary}).
     */
    private void applyPlan(AddressPolicy.Plan plan) {
        policyActive = true;
        for (Path p : paths) {
            p.setInCmtSet(plan.inCmtSet(p.address()));
        }
        pairedSources.putAll(plan.sources());
        pendingPrimary = plan.primary().orElse(null);
        adoptPendingPrimary();
    }

    /**
     * Remembers that the handshake with {@code peer} arrived on {@code local}, so that replies to
     * {@code peer} leave from it: a peer expects answers from the address it contacted. Kept only
     * when {@code local} is at least as close to {@code peer} (longest common prefix) as the
     * endpoint's own choice, or when an address policy is active: a multihomed peer that answers
     * from its second address must not have that path's packets sent from the first path's
     * address, or a cut of the first path would take the second one down too.
     */
    private void answerFrom(InetAddress peer, InetAddress local) {
        if (local == null || local.isAnyLocalAddress()) {
            return;
        }
        replySources.put(peer, local);
        if (commonPrefix(local, peer) >= commonPrefix(host.sourceFor(peer), peer)) {
            pinnedByPrefix.add(peer);
        }
    }

    /** Bits two addresses share from the left (0 across families). */
    static int commonPrefix(InetAddress x, InetAddress y) {
        byte[] a = x.getAddress();
        byte[] b = y.getAddress();
        if (a.length != b.length) {
            return 0;
        }
        int bits = 0;
        for (int i = 0; i < a.length; i++) {
            int d = (a[i] ^ b[i]) & 0xff;
            if (d != 0) {
                return bits + Integer.numberOfLeadingZeros(d) - 24;
            }
            bits += 8;
        }
        return bits;
    }

    /** Makes the policy's pending primary the primary once established with its path confirmed. */
    private void adoptPendingPrimary() {
        if (pendingPrimary == null || state == State.COOKIE_WAIT || state == State.COOKIE_ECHOED) {
            return;
        }
        Path p = pathOf(pendingPrimary);
        if (p == null) {
            pendingPrimary = null;
        } else if (p.status() == PathStatus.ACTIVE) {
            primary = p.index();
            pendingPrimary = null;
        }
    }

    // ------------------------------------------------------------------ accessors

    /** This association's id. */
    public AssociationId id() {
        return id;
    }

    /** The current state. */
    public State state() {
        return state;
    }

    /** The peer's port. */
    public int peerPort() {
        return peerPort;
    }

    /** Our Verification Tag. */
    public int localTag() {
        return localTag;
    }

    /** The peer's Verification Tag. */
    public int peerTag() {
        return peerTag;
    }

    /** The peer's addresses, primary first. */
    public List<InetAddress> peerAddresses() {
        List<InetAddress> out = new ArrayList<>(paths.size());
        for (Path p : paths) {
            out.add(p.address());
        }
        return out;
    }

    /**
     * The peer addresses the user gave to connect, which RFC 9260 section 5.4 (rule 1) takes as
     * confirmed; empty when the peer initiated the association.
     */
    public List<InetAddress> userPeers() {
        return userPeers;
    }

    /** The paths (one per peer address), in index order. */
    public List<Path> paths() {
        return paths;
    }

    /** The primary path's address. */
    public InetAddress primaryAddress() {
        return paths.get(primary).address();
    }

    /** Negotiated outbound streams (0 before establishment). */
    public int outboundStreams() {
        return outboundStreams;
    }

    /** Negotiated inbound streams (0 before establishment). */
    public int inboundStreams() {
        return inboundStreams;
    }

    /** True once CLOSED and every final chunk has been handed out. */
    public boolean isFinished() {
        return state == State.CLOSED && controls.isEmpty();
    }

    /** The sending half of the data transfer, read-only use (null before establishment). */
    public DataSender sender() {
        return tx;
    }

    /** The receiving half of the data transfer, read-only use (null before establishment). */
    public DataReceiver receiver() {
        return rx;
    }

    /** Free bytes in the send buffer (0 before establishment). */
    public long sendBufferFree() {
        return tx == null ? 0 : tx.freeBytes();
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
        checkSendable(info);
        return accepted(tx.send(info.streamId(), info.ppid(), info.unordered(), info.immediate(), data));
    }

    /**
     * As {@link #send}, for a message in {@code array[0..length)} that the association keeps
     * without a copy once accepted (see {@link DataSender#sendOwned}).
     */
    public SendStatus sendOwned(SendInfo info, byte[] array, int length, long now) {
        checkSendable(info);
        return accepted(tx.sendOwned(info.streamId(), info.ppid(), info.unordered(), info.immediate(), array, length));
    }

    private void checkSendable(SendInfo info) {
        switch (state) {
            case ESTABLISHED -> {}
            case COOKIE_WAIT, COOKIE_ECHOED -> throw new IllegalStateException(
                    id + " is not established yet: wait for the COMMUNICATION_UP event before sending");
            case CLOSED -> throw new IllegalStateException(id + " is closed: open a new association");
            default -> throw new IllegalStateException(id + " is shutting down (" + state + "): no new data");
        }
        if (info.streamId() >= outboundStreams) {
            throw new IllegalArgumentException("stream " + info.streamId() + " does not exist on " + id
                    + ": the peer granted " + outboundStreams + " outbound streams (0.." + (outboundStreams - 1) + ")");
        }
    }

    private SendStatus accepted(DataSender.SendStatus s) {
        if (s == DataSender.SendStatus.WOULD_BLOCK) {
            return SendStatus.WOULD_BLOCK;
        }
        wasDry = false;
        return SendStatus.ACCEPTED;
    }

    /**
     * Gives {@code bytes} of delivered messages back to the receive window (with {@link
     * SctpOptions#deferredReceiveRelease()}); see {@link DataReceiver#release}.
     */
    public void releaseReceived(long bytes) {
        if (rx != null) {
            rx.release(bytes);
        }
    }

    /** Sets the free-space threshold of the send callback (0: after every SACK that frees space). */
    public void setSendThreshold(long bytes) {
        if (bytes < 0 || bytes > o.sendBufferBytes()) {
            throw new IllegalArgumentException(
                    "send threshold must be 0.." + o.sendBufferBytes() + " (the send buffer size), was " + bytes);
        }
        sendThreshold = bytes;
    }

    /** Makes {@code address} the primary path (RFC 9260 section 10.1 SET PRIMARY). */
    public void setPrimary(InetAddress address) {
        for (Path p : paths) {
            if (p.address().equals(address)) {
                primary = p.index();
                pendingPrimary = null;
                host.emit(new SctpEvent.PeerAddressChange(id, address, PeerAddressState.MADE_PRIMARY));
                return;
            }
        }
        throw new IllegalArgumentException(
                address + " is not an address of the peer of " + id + ": " + peerAddresses());
    }

    /** Sets the MTU of the path to {@code address}. */
    public void setPathMtu(InetAddress address, int mtu) {
        if (mtu < 576 || mtu > 65535) {
            throw new IllegalArgumentException("MTU must be 576..65535, was " + mtu);
        }
        for (Path p : paths) {
            if (p.address().equals(address)) {
                p.setMtu(mtu);
                return;
            }
        }
        throw new IllegalArgumentException(address + " is not an address of the peer of " + id);
    }

    /**
     * Graceful shutdown (RFC 9260 section 9.2): no more data is accepted; once all outstanding
     * data is acknowledged, SHUTDOWN is sent. Before establishment this is an abort.
     */
    public void shutdown(long now) {
        switch (state) {
            case ESTABLISHED -> {
                state = State.SHUTDOWN_PENDING;
                progressShutdown(now);
            }
            case COOKIE_WAIT, COOKIE_ECHOED -> abort(Bytes.EMPTY, now);
            default -> {} // already shutting down or closed
        }
    }

    /** Aborts (RFC 9260 section 9.1): ABORT with a User-Initiated Abort cause carrying {@code reason}. */
    public void abort(Bytes reason, long now) {
        if (state == State.CLOSED) {
            return;
        }
        if (state != State.COOKIE_WAIT) {
            queue(AbortChunk.of(false, new UserInitiatedAbortCause(reason)), primaryAddress(), peerTag);
        }
        close(
                state == State.COOKIE_WAIT || state == State.COOKIE_ECHOED
                        ? AssociationChangeType.CANT_START
                        : AssociationChangeType.COMMUNICATION_LOST,
                List.of(),
                "aborted by the local user",
                now);
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
        if (state == State.CLOSED) {
            return;
        }
        if (start == 0 && !verificationTagOk(pkt, pkt.type(0))) {
            return;
        }
        boolean hadData = false;
        boolean immediate = false;
        boolean closedDuring = false;
        for (int i = start; i < pkt.chunkCount() && !closedDuring; i++) {
            int type = pkt.type(i);
            switch (type) {
                case ChunkType.DATA -> {
                    int r = onData(pkt, i, now);
                    if (r < 0) {
                        closedDuring = true;
                    } else if (r > 0) {
                        hadData = true;
                        immediate |= (pkt.flags(i) & 0x08) != 0;
                    }
                }
                case ChunkType.SACK -> onSack(pkt, i, now);
                case ChunkType.INIT -> onInit(pkt, i, now);
                case ChunkType.INIT_ACK -> onInitAck(pkt, i, now);
                case ChunkType.COOKIE_ECHO -> {
                    // Only first in a packet (RFC 9260 section 6.10), where the endpoint hands it to
                    // handleCookieEcho: one further down is ignored.
                }
                case ChunkType.COOKIE_ACK -> onCookieAck(now);
                case ChunkType.HEARTBEAT -> onHeartbeat(pkt, i);
                case ChunkType.HEARTBEAT_ACK -> onHeartbeatAck(pkt, i, now);
                case ChunkType.ABORT -> {
                    onAbort(pkt, i, now);
                    closedDuring = true;
                }
                case ChunkType.SHUTDOWN -> onShutdown(pkt, i, now);
                case ChunkType.SHUTDOWN_ACK -> onShutdownAck(pkt, now);
                case ChunkType.SHUTDOWN_COMPLETE -> onShutdownComplete(now);
                case ChunkType.ERROR -> onError(pkt, i, now);
                default -> {
                    if (!onUnrecognized(pkt, i)) {
                        closedDuring = true; // "stop processing": the rest of the packet is discarded
                    }
                }
            }
            if (state == State.CLOSED) {
                closedDuring = true;
            }
        }
        if (rx != null && state != State.CLOSED) {
            rx.onPacketProcessed(hadData, immediate, now);
            deliverMessages();
            if (hadData && state == State.SHUTDOWN_SENT) {
                // RFC 9260 section 9.2: answer each packet with DATA with a SHUTDOWN, restart T2.
                queueShutdown(now);
            }
        }
    }

    /** RFC 9260 sections 8.5 and 8.5.1. */
    private boolean verificationTagOk(InboundPacket pkt, int first) {
        int vtag = pkt.verificationTag();
        switch (first) {
            case ChunkType.INIT:
                return vtag == 0 && pkt.chunkCount() == 1;
            case ChunkType.ABORT:
            case ChunkType.SHUTDOWN_COMPLETE: {
                boolean t = (pkt.flags(0) & 1) != 0;
                return t ? vtag == peerTag && peerTag != 0 : vtag == localTag;
            }
            case ChunkType.COOKIE_ECHO:
                return false; // the endpoint hands a COOKIE ECHO to handleCookieEcho (section 5.2.4)
            case ChunkType.INIT_ACK:
                return vtag == localTag && pkt.chunkCount() == 1;
            default:
                return vtag == localTag;
        }
    }

    /** DATA: returns 1 if new data was taken, 0 otherwise, -1 if the association was aborted. */
    private int onData(InboundPacket pkt, int i, long now) {
        if (rx == null
                || !(state == State.ESTABLISHED || state == State.SHUTDOWN_PENDING || state == State.SHUTDOWN_SENT)) {
            return 0; // RFC 9260 section 9.2: no new data after SHUTDOWN was received
        }
        DataChunkView d = dataView;
        if (!d.wrap(pkt.buffer(), pkt.offset(i), pkt.length(i))) {
            // RFC 9260 section 6.2: a DATA chunk with no user data is answered with ABORT.
            int tsn = pkt.length(i) >= 8 ? pkt.buffer().getInt(pkt.offset(i) + 4) : 0;
            protocolAbort(new NoUserDataCause(tsn), "DATA chunk with no user data", now);
            return -1;
        }
        noteDataSource(pkt.from());
        DataReceiver.DataResult r = rx.onData(
                d.tsn(),
                d.streamId(),
                d.ssn(),
                d.ppid(),
                d.flags(),
                d.buffer(),
                d.userDataOffset(),
                d.userDataLength(),
                now);
        if (r == DataReceiver.DataResult.DROPPED_CANNOT_TAKE) {
            // The receive buffer is full of a message that can never be delivered: say so (RFC
            // 9260 section 3.3.10.4) rather than let both sides wait forever.
            protocolAbort(
                    OutOfResourceCause.INSTANCE,
                    "cannot take a message: the receive buffer (" + o.receiveBufferBytes()
                            + " bytes) is full of a message that cannot be delivered"
                            + (o.partialDeliveryPoint() == 0
                                    ? " (partial delivery is off: partialDeliveryPoint 0)"
                                    : ""),
                    now);
            return -1;
        }
        if (r == DataReceiver.DataResult.INVALID_STREAM) {
            // RFC 9260 section 6.5: acknowledge the TSN and report the stream.
            queue(
                    new ErrorChunk(List.of(new InvalidStreamIdentifierCause(d.streamId()))),
                    replyTo(pkt.from()),
                    peerTag);
        }
        return 1;
    }

    private void onSack(InboundPacket pkt, int i, long now) {
        if (tx == null || state == State.COOKIE_WAIT || state == State.COOKIE_ECHOED) {
            return;
        }
        SackChunkView s = sackView;
        if (!s.wrap(pkt.buffer(), pkt.offset(i), pkt.length(i))) {
            return;
        }
        int n = s.gapBlockCount();
        if (n > gapStarts.length) {
            gapStarts = new int[Math.max(n, gapStarts.length * 2)];
            gapEnds = new int[gapStarts.length];
        }
        int[] starts = gapStarts;
        int[] ends = gapEnds;
        for (int g = 0; g < n; g++) {
            starts[g] = s.gapStart(g);
            ends[g] = s.gapEnd(g);
        }
        long freeBefore = tx.freeBytes();
        AckResult r =
                tx.onSack(s.cumTsnAck(), Integer.toUnsignedLong(s.aRwnd()), starts, ends, n, s.dupCount(), paths, now);
        afterAck(r, freeBefore, now);
    }

    /** Error counters, path recovery and the send events after acknowledged data. */
    private void afterAck(AckResult r, long freeBefore, long now) {
        if (r.anyNewlyAcked()) {
            associationErrors = 0;
            for (int k = 0; k < paths.size(); k++) {
                Path p = paths.get(k);
                if (r.newlyAckedOn(p.index())) {
                    p.resetErrorCount();
                    p.recordAck(now);
                    if (p.status() == PathStatus.INACTIVE || p.status() == PathStatus.POTENTIALLY_FAILED) {
                        setPathStatus(p, PathStatus.ACTIVE);
                    }
                }
            }
        }
        long free = tx.freeBytes();
        if (free > freeBefore) {
            host.sendSpaceFreed(id);
        }
        if (free > freeBefore && free >= sendThreshold) {
            host.emit(new SctpEvent.SendSpaceAvailable(id, free));
        }
        if (tx.isEmpty() && !wasDry) {
            wasDry = true;
            host.emit(new SctpEvent.SenderDry(id));
        }
        progressShutdown(now);
    }

    private void onInit(InboundPacket pkt, int i, long now) {
        Parsed<? extends Chunk> p = Chunks.decode(pkt.buffer(), pkt.offset(i), pkt.length(i));
        if (!p.isOk() || !(p.value() instanceof InitChunk init)) {
            return;
        }
        if (state != State.COOKIE_WAIT && init.initiateTag() != 0) {
            // RFC 9260 sections 5.2.1 (COOKIE-ECHOED) and 5.2.2: an INIT that adds addresses to the
            // association must not restart it (someone else could take it over): ABORT, tagged
            // with the INIT's Initiate Tag, listing the new addresses; the association is unchanged.
            // In SHUTDOWN-ACK-SENT only an INIT of the association's addresses gets the SHUTDOWN
            // ACK (section 9.2).
            // Only as many as a cookie keeps: the rest would never become part of the association.
            List<InetAddress> offered = new ArrayList<>();
            offered.add(pkt.from());
            offered.addAll(InitHandling.read(init.parameters()).addresses);
            List<InetAddress> added =
                    newAddresses(offered.subList(0, Math.min(offered.size(), StateCookie.MAX_ADDRESSES)));
            if (!added.isEmpty()) {
                refuseNewAddresses(added, pkt.from(), init.initiateTag());
                return;
            }
        }
        int tag;
        int tsn;
        int tieLocal;
        int tiePeer;
        if (state == State.COOKIE_WAIT || state == State.COOKIE_ECHOED) {
            // RFC 9260 section 5.2.1: answer with our original Initiate Tag and TSN; keep state.
            tag = localTag;
            tsn = localInitialTsn;
            tieLocal = 0;
            tiePeer = 0;
            if (state == State.COOKIE_ECHOED) {
                tieLocal = localTag;
                tiePeer = peerTag;
            }
        } else if (state == State.SHUTDOWN_ACK_SENT) {
            // RFC 9260 section 9.2: an INIT in SHUTDOWN-ACK-SENT is answered by the SHUTDOWN ACK.
            queue(new ShutdownAckChunk(), replyTo(pkt.from()), peerTag);
            return;
        } else {
            // RFC 9260 section 5.2.2: a new random tag, and tie-tags so the COOKIE ECHO can be
            // recognised as a restart (case A) or a collision (case B).
            tag = Handshake.randomTag(host.random());
            tsn = host.random().nextInt();
            tieLocal = localTag;
            tiePeer = peerTag;
        }
        Handshake.answerInit(host, o, init, peerPort, pkt.from(), pkt.to(), tag, tsn, tieLocal, tiePeer, now)
                .ifPresent(a -> queue(a.chunk(), pkt.from(), a.verificationTag()));
    }

    private void onInitAck(InboundPacket pkt, int i, long now) {
        if (state != State.COOKIE_WAIT) {
            return; // RFC 9260 section 5.2.3: discard
        }
        Parsed<? extends Chunk> p = Chunks.decode(pkt.buffer(), pkt.offset(i), pkt.length(i));
        if (!p.isOk() || !(p.value() instanceof InitAckChunk ack)) {
            return;
        }
        InitHandling.PeerParams pp = InitHandling.read(ack.parameters());
        if (ack.initiateTag() == 0 || ack.outboundStreams() == 0 || ack.inboundStreams() == 0 || pp.cookie == null) {
            // RFC 9260 section 5.1 C/E: an INIT ACK without a cookie or with invalid mandatory
            // fields is a protocol error.
            queue(
                    AbortChunk.of(false, new org.sctpj.stack.wire.cause.InvalidMandatoryParameterCause()),
                    pkt.from(),
                    ack.initiateTag());
            close(AssociationChangeType.CANT_START, List.of(), "invalid INIT ACK", now);
            return;
        }
        if (pp.abortCause != null) {
            queue(AbortChunk.of(false, pp.abortCause), pkt.from(), ack.initiateTag());
            close(AssociationChangeType.CANT_START, List.of(), "INIT ACK with a host name address", now);
            return;
        }
        if (!pp.toReport.isEmpty()) {
            // RFC 9260 section 3.2.1: report unrecognized parameters in an ERROR bundled with the COOKIE ECHO.
            queue(new ErrorChunk(List.of(InitHandling.unrecognizedCause(pp.toReport))), pkt.from(), ack.initiateTag());
        }
        peerTag = ack.initiateTag();
        // The INIT ACK's source becomes confirmed; listed addresses need a heartbeat (5.4).
        Path src = addPath(pkt.from(), PathStatus.ACTIVE, now);
        answerFrom(pkt.from(), pkt.to());
        if (src != null) {
            src.setStatus(PathStatus.ACTIVE);
        }
        addListedPaths(pkt.from(), pp.addresses, now);
        startDataPath(localInitialTsn, ack.initialTsn(), ack.aRwnd(), ack.outboundStreams(), ack.inboundStreams());
        cookieToEcho = pp.cookie;
        state = State.COOKIE_ECHOED;
        t1Count = 0;
        sendCookieEcho(now);
    }

    /**
     * Takes the peer's listed addresses (of its INIT ACK, or of its INIT in a cookie) as
     * unconfirmed paths (RFC 9260 section 5.4), those the address policy keeps when there is one,
     * with {@code keep} (a confirmed address) kept in any case.
     */
    private void addListedPaths(InetAddress keep, List<InetAddress> listed, long now) {
        Set<InetAddress> known = new LinkedHashSet<>();
        known.add(keep);
        known.addAll(peerAddresses());
        known.addAll(listed);
        announce(known);
        Optional<AddressPolicy.Plan> plan = host.planPaths(List.copyOf(known), Optional.of(keep));
        for (InetAddress a : listed) {
            if (plan.isEmpty() || plan.get().peers().contains(a)) {
                addPath(a, PathStatus.UNCONFIRMED, now);
            }
        }
        plan.ifPresent(this::applyPlan);
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
        if (state == State.CLOSED) {
            return;
        }
        if (onCookieEcho(c, pkt.from(), now) && pkt.verificationTag() == localTag) {
            handlePacket(pkt, 1, now);
        }
    }

    /**
     * RFC 9260 section 5.2.4, Table 5: a COOKIE ECHO for an existing association. Returns whether
     * the cookie was accepted (the rest of its packet is then processed).
     */
    private boolean onCookieEcho(StateCookie c, InetAddress from, long now) {
        boolean localMatch = c.localTag() == localTag;
        boolean peerMatch = c.peerTag() == peerTag;
        boolean tiesMatch = c.localTieTag() == localTag && c.peerTieTag() == peerTag;
        if (!localMatch && !peerMatch && tiesMatch && c.localTieTag() != 0) {
            // Case A: the peer restarted.
            if (state == State.SHUTDOWN_ACK_SENT) {
                queue(new ShutdownAckChunk(), from, peerTag);
                queue(new ErrorChunk(List.of(new CookieReceivedWhileShuttingDownCause())), from, peerTag);
                return false;
            }
            List<InetAddress> added = newAddresses(c.peerAddresses());
            if (!added.isEmpty()) {
                // Section 5.2.2: a restart must not bring addresses the association does not have.
                refuseNewAddresses(added, from, c.peerTag());
                return false;
            }
            restart(c, from, now);
            return true;
        } else if (localMatch && !peerMatch) {
            // Case B: INIT collision; take the peer's new tag and TSN.
            boolean wasUp = state != State.COOKIE_WAIT && state != State.COOKIE_ECHOED;
            peerTag = c.peerTag();
            if (!wasUp) {
                // In COOKIE-WAIT the peer's INIT (in the cookie) is all we know of its addresses.
                addListedPaths(primaryAddress(), c.peerAddresses(), now);
            }
            announce(c.peerAddresses());
            startDataPath(c.localInitialTsn(), c.peerInitialTsn(), c.peerRwnd(), c.peerOutbound(), c.peerMaxInbound());
            t1Deadline = NONE;
            if (!wasUp) {
                state = State.ESTABLISHED;
                cookieToEcho = null;
                adoptPendingPrimary();
                emitUp(AssociationChangeType.COMMUNICATION_UP, now);
            }
            queueCookieAck(from, now);
            return true;
        } else if (localMatch && peerMatch) {
            // Case D: a retransmitted (or replayed) COOKIE ECHO; enter ESTABLISHED if still setting
            // up. Nothing else changes: not the primary, not the paths.
            if (state == State.COOKIE_WAIT || state == State.COOKIE_ECHOED) {
                t1Deadline = NONE;
                state = State.ESTABLISHED;
                cookieToEcho = null;
                adoptPendingPrimary();
                emitUp(AssociationChangeType.COMMUNICATION_UP, now);
            }
            queueCookieAck(from, now);
            return true;
        }
        // Case C (!localMatch, peerMatch, no tie-tags: a late COOKIE ECHO of an earlier attempt)
        // and any other combination: silently discard.
        return false;
    }

    /** Peer restart (section 5.2.4 A): new tags and TSNs, unacknowledged data reported failed. */
    private void restart(StateCookie c, InetAddress from, long now) {
        reportUnsent();
        t1Deadline = NONE;
        t2Deadline = NONE;
        t5Deadline = NONE;
        controls.clear();
        int previousTag = localTag;
        localTag = c.localTag();
        peerTag = c.peerTag();
        localInitialTsn = c.localInitialTsn();
        host.localTagChanged(this, previousTag);
        for (Path p : paths) {
            p.stopT3();
            p.resetErrorCount();
        }
        startDataPath(c.localInitialTsn(), c.peerInitialTsn(), c.peerRwnd(), c.peerOutbound(), c.peerMaxInbound());
        associationErrors = 0;
        wasDry = true;
        state = State.ESTABLISHED;
        queueCookieAck(from, now);
        emitUp(AssociationChangeType.RESTART, now);
    }

    private void onCookieAck(long now) {
        if (state != State.COOKIE_ECHOED) {
            return; // RFC 9260 section 5.2.5
        }
        t1Deadline = NONE;
        cookieToEcho = null;
        state = State.ESTABLISHED;
        adoptPendingPrimary();
        emitUp(AssociationChangeType.COMMUNICATION_UP, now);
    }

    private void onHeartbeat(InboundPacket pkt, int i) {
        if (state == State.COOKIE_WAIT || state == State.COOKIE_ECHOED) {
            // RFC 9260 section 5.1: until the COOKIE ACK arrives, nothing but the COOKIE ECHO goes
            // to the peer. A peer that is already up (our COOKIE ACK is late or lost) probes again.
            return;
        }
        Parsed<? extends Chunk> p = Chunks.decode(pkt.buffer(), pkt.offset(i), pkt.length(i));
        if (p.isOk() && p.value() instanceof HeartbeatChunk hb) {
            // RFC 9260 section 8.3: echo the Heartbeat Information to the source address.
            queue(new HeartbeatAckChunk(hb.parameters()), pkt.from(), peerTag);
        }
    }

    private void onHeartbeatAck(InboundPacket pkt, int i, long now) {
        Parsed<? extends Chunk> p = Chunks.decode(pkt.buffer(), pkt.offset(i), pkt.length(i));
        if (!p.isOk() || !(p.value() instanceof HeartbeatAckChunk ack)) {
            return;
        }
        for (Parameter param : ack.parameters()) {
            if (param instanceof HeartbeatInfoParameter info) {
                int idx = heartbeats.match(info.info(), now, rttOut);
                if (idx < 0) {
                    return;
                }
                Path path = paths.get(idx);
                path.rto().sample(rttOut[0]);
                path.resetErrorCount();
                path.recordAck(now);
                associationErrors = 0;
                if (path.status() == PathStatus.UNCONFIRMED) {
                    setPathStatus(path, PathStatus.ACTIVE);
                    host.emit(new SctpEvent.PeerAddressChange(id, path.address(), PeerAddressState.CONFIRMED));
                } else if (path.status() == PathStatus.INACTIVE || path.status() == PathStatus.POTENTIALLY_FAILED) {
                    setPathStatus(path, PathStatus.ACTIVE);
                }
                heartbeats.schedule(idx, now + heartbeatDelay(path));
                return;
            }
        }
    }

    private void onAbort(InboundPacket pkt, int i, long now) {
        Parsed<? extends Chunk> p = Chunks.decode(pkt.buffer(), pkt.offset(i), pkt.length(i));
        List<ErrorCause> causes = p.isOk() && p.value() instanceof AbortChunk a ? a.causes() : List.of();
        if (state == State.SHUTDOWN_ACK_SENT && (pkt.flags(i) & 1) != 0) {
            // RFC 9260 section 9.2: in SHUTDOWN-ACK-SENT every DATA chunk has been acknowledged both
            // ways (the peer sent SHUTDOWN with nothing outstanding; we sent SHUTDOWN ACK with
            // nothing outstanding). An ABORT with the T bit says the peer has no association left
            // (section 8.4): it closed after a SHUTDOWN COMPLETE that was lost, and answered one of
            // our packets still in flight as out of the blue. The shutdown is complete, nothing was
            // lost: report it so, not as COMMUNICATION_LOST.
            close(
                    AssociationChangeType.SHUTDOWN_COMPLETE,
                    causes,
                    "shutdown complete (the peer had closed: ABORT with the T bit in SHUTDOWN-ACK-SENT)",
                    now);
            return;
        }
        close(
                state == State.COOKIE_WAIT || state == State.COOKIE_ECHOED
                        ? AssociationChangeType.CANT_START
                        : AssociationChangeType.COMMUNICATION_LOST,
                causes,
                "ABORT received",
                now);
    }

    private void onShutdown(InboundPacket pkt, int i, long now) {
        Parsed<? extends Chunk> p = Chunks.decode(pkt.buffer(), pkt.offset(i), pkt.length(i));
        if (!p.isOk() || !(p.value() instanceof ShutdownChunk s) || tx == null) {
            return;
        }
        switch (state) {
            case ESTABLISHED, SHUTDOWN_PENDING, SHUTDOWN_RECEIVED -> {
                long freeBefore = tx.freeBytes();
                AckResult r = tx.onSack(
                        s.cumTsnAck(), tx.peerRwnd() + tx.outstandingBytes(), NO_GAPS, NO_GAPS, 0, 0, paths, now);
                if (state != State.SHUTDOWN_RECEIVED) {
                    state = State.SHUTDOWN_RECEIVED;
                    host.emit(new SctpEvent.ShutdownReceived(id));
                }
                afterAck(r, freeBefore, now);
            }
            case SHUTDOWN_ACK_SENT -> queue(
                    new ShutdownAckChunk(), replyTo(pkt.from()), peerTag); // our SHUTDOWN ACK was lost
            case SHUTDOWN_SENT -> {
                // RFC 9260 section 9.2: both sides shut down at once.
                state = State.SHUTDOWN_ACK_SENT;
                queueShutdownAck(now);
            }
            default -> {}
        }
    }

    private void onShutdownAck(InboundPacket pkt, long now) {
        if (state == State.SHUTDOWN_SENT || state == State.SHUTDOWN_ACK_SENT) {
            queue(new ShutdownCompleteChunk(false), replyTo(pkt.from()), peerTag);
            close(AssociationChangeType.SHUTDOWN_COMPLETE, List.of(), "shutdown complete", now);
        }
        // In COOKIE-WAIT / COOKIE-ECHOED the endpoint treats it as out of the blue (8.5.1 E);
        // the tag check already dropped it unless it carried our tag.
    }

    private void onShutdownComplete(long now) {
        if (state == State.SHUTDOWN_ACK_SENT) {
            close(AssociationChangeType.SHUTDOWN_COMPLETE, List.of(), "shutdown complete", now);
        }
    }

    private void onError(InboundPacket pkt, int i, long now) {
        Parsed<? extends Chunk> p = Chunks.decode(pkt.buffer(), pkt.offset(i), pkt.length(i));
        if (!p.isOk() || !(p.value() instanceof ErrorChunk e)) {
            return;
        }
        for (ErrorCause c : e.causes()) {
            if (c instanceof StaleCookieCause stale && state == State.COOKIE_ECHOED) {
                // RFC 9260 section 5.2.6: retry with a Cookie Preservative asking for twice the
                // staleness, but no more than 1 s beyond the round trip of the COOKIE ECHO and
                // this ERROR (a long cookie life makes replays easier).
                if (++t1Count > o.maxInitRetransmits()) {
                    close(AssociationChangeType.CANT_START, List.of(), "stale cookies until retries ran out", now);
                    return;
                }
                long rttMillis = Math.max(0, now - cookieEchoSentAt) / 1_000_000;
                preservativeMillis = Math.max(
                        1, Math.min(2L * Integer.toUnsignedLong(stale.stalenessMicros()) / 1000, rttMillis + 1000));
                state = State.COOKIE_WAIT;
                cookieToEcho = null;
                tx = null;
                rx = null;
                sendInit(now);
                return;
            }
        }
        host.emit(new SctpEvent.RemoteError(id, e.causes()));
    }

    /**
     * An unrecognized chunk type (RFC 9260 section 3.2): report and/or skip by its two high bits.
     * Returns false when the rest of the packet must be discarded.
     */
    private boolean onUnrecognized(InboundPacket pkt, int i) {
        int type = pkt.type(i);
        UnrecognizedAction action = UnrecognizedAction.ofChunkType(type);
        if (action.report() && peerTag != 0) {
            byte[] raw = new byte[pkt.length(i)];
            pkt.buffer().get(pkt.offset(i), raw);
            queue(new ErrorChunk(List.of(new UnrecognizedChunkTypeCause(Bytes.of(raw)))), replyTo(pkt.from()), peerTag);
        }
        return action.continueProcessing();
    }

    // ------------------------------------------------------------------ output

    private void queue(Chunk chunk, InetAddress dest, int vtag) {
        int t = chunk.type();
        if (t == ChunkType.SHUTDOWN || t == ChunkType.SHUTDOWN_ACK) {
            // One SHUTDOWN (or SHUTDOWN ACK) says all there is to say: a newer one replaces one
            // still queued, so a packet never carries two (RFC 9260 sections 6.10 and 9.2). Two
            // get queued when one packet both completes our data (progressShutdown) and carries
            // DATA that SHUTDOWN-SENT answers with a SHUTDOWN, or repeats a SHUTDOWN.
            controls.removeIf(c -> c.chunk().type() == t);
        }
        controls.add(new Control(chunk, dest, vtag));
    }

    private int maxPacket(Path p) {
        return maxPacket(p.address(), p.mtu());
    }

    private int maxPacket(InetAddress dest, int mtu) {
        int ip = dest instanceof Inet6Address ? 40 : 20;
        return mtu - ip - o.encapsulationOverhead();
    }

    private Path pathOf(InetAddress a) {
        for (int k = 0; k < paths.size(); k++) {
            Path p = paths.get(k);
            if (p.address().equals(a)) {
                return p;
            }
        }
        return null;
    }

    /**
     * The path new data and retransmissions go to (one destination at a time, without CMT):
     *
     * <ul>
     *   <li>the primary while it is active: with SCTP-PF (the default, PFMR 0) that is until its
     *       first timeout, after which it is Potentially Failed; with SCTP-PF off, until
     *       Path.Max.Retrans is exceeded (the plain failover of RFC 4960 that RFC 7829 improves on);
     *   <li>otherwise the active path with the fewest errors;
     *   <li>with none active, the Potentially Failed path with the fewest errors, ties going to
     *       the one most recently acknowledged (RFC 7829 section 5.1);
     *   <li>with everything inactive, the primary (or any confirmed path): the dormant state.
     * </ul>
     */
    Path dataPath() {
        Path p = paths.get(primary);
        if (p.status() == PathStatus.ACTIVE) {
            return p;
        }
        Path best = null;
        for (int k = 0; k < paths.size(); k++) {
            Path q = paths.get(k);
            if (q.status() == PathStatus.ACTIVE && (best == null || q.errorCount() < best.errorCount())) {
                best = q;
            }
        }
        if (best != null) {
            return best;
        }
        for (Path q : paths) {
            if (q.status() == PathStatus.POTENTIALLY_FAILED
                    && (best == null
                            || q.errorCount() < best.errorCount()
                            || (q.errorCount() == best.errorCount() && q.lastAckNanos() > best.lastAckNanos()))) {
                best = q;
            }
        }
        if (best != null) {
            return best;
        }
        // Everything is inactive: keep trying the primary (or any confirmed path).
        return p.status() == PathStatus.UNCONFIRMED ? firstConfirmed() : p;
    }

    /**
     * Whether DATA may be bundled into a packet to {@code p}: with CMT, when p takes new data (or,
     * with no active path, it is {@link #dataPath()}); without, when p is {@link #dataPath()}.
     */
    private boolean carriesData(Path p) {
        if (o.cmt() && CmtScheduler.takesNewData(p)) {
            return true;
        }
        return p == dataPath();
    }

    private Path firstConfirmed() {
        for (Path q : paths) {
            if (q.status() != PathStatus.UNCONFIRMED) {
                return q;
            }
        }
        return paths.get(primary);
    }

    /** The next packet to send, if any (a new array per packet: see {@link #pollTransmit(ByteBuffer, long)}). */
    public Optional<Transmit> pollTransmit(long now) {
        InetAddress dest = build(now);
        return dest == null ? Optional.empty() : Optional.of(new Transmit(pb.finish(), lastSource, dest));
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
        int start = out.position();
        pb.target(out);
        try {
            InetAddress dest = build(now);
            if (dest == null) {
                out.position(start);
                return null;
            }
            int n = pb.finishInPlace();
            out.limit(start + n);
            out.position(start);
            return dest;
        } finally {
            pb.targetOwn();
        }
    }

    /** The local address the last packet of {@link #pollTransmit} goes out from. */
    public InetAddress transmitSource() {
        return lastSource;
    }

    /** Builds the next packet in {@link #pb}; returns its destination, or null when none is due. */
    private InetAddress build(long now) {
        Control c = controls.peek();
        if (c != null) {
            InetAddress dest = c.destination();
            int vtag = c.verificationTag();
            Path p = pathOf(dest);
            pb.reset(host.localPort(), peerPort, vtag, maxPacket(dest, p != null ? p.mtu() : o.pathMtu()));
            boolean alone = false;
            while (!alone
                    && (c = controls.peek()) != null
                    && c.destination().equals(dest)
                    && c.verificationTag() == vtag) {
                alone = isAlone(c.chunk());
                if (alone && !pb.isEmpty()) {
                    break; // INIT, INIT ACK and SHUTDOWN COMPLETE travel alone (RFC 9260 section 6.10)
                }
                if (!pb.tryAdd(c.chunk())) {
                    if (pb.isEmpty()) {
                        controls.poll(); // larger than the path can carry: drop rather than stall
                        continue;
                    }
                    break;
                }
                controls.poll();
            }
            if (!pb.isEmpty()) {
                // Nothing but the control chunks to an unconfirmed address: a HEARTBEAT ACK or a
                // probe goes there, a SACK or DATA must not (RFC 9260 section 5.4).
                if (!alone && p != null && p.status() != PathStatus.UNCONFIRMED && vtag == peerTag && canBundleData()) {
                    bundleSack(now);
                    if (carriesData(p)) {
                        tx.fill(pb, p, paths, now);
                    }
                }
                return finish(dest);
            }
        }
        if (!canBundleData()) {
            return null;
        }
        if (rx.sackNeeded(now)) {
            Path p = sackPath();
            startPacket(p);
            bundleSack(now);
            if (carriesData(p)) {
                tx.fill(pb, p, paths, now);
            }
            return finish(p.address());
        }
        if (tx.hasDataToSend(now) && o.cmt() && CmtScheduler.activeCount(paths) > 0) {
            return cmtTransmit(now);
        }
        if (tx.hasDataToSend(now)) {
            Path p = dataPath();
            if (p.flightSize() == 0
                    && p.lastSendNanos() != Long.MIN_VALUE
                    && now - p.lastSendNanos() > p.rto().rto()) {
                // RFC 9260 section 7.2.1: after an idle RTO the window decays before new data goes.
                cc.onIdle(p);
            }
            startPacket(p);
            bundleSack(now);
            tx.fill(pb, p, paths, now);
            if (!pb.isEmpty()) {
                return finish(p.address());
            }
        }
        return null;
    }

    /**
     * CMT: the next packet of DATA, from the active destinations in turn (round robin, one packet
     * each), each within its own cwnd; empty when none may send.
     */
    private InetAddress cmtTransmit(long now) {
        int n = paths.size();
        for (int k = 0; k < n; k++) {
            int idx = (nextCmtPath + k) % n;
            Path p = paths.get(idx);
            if (!CmtScheduler.takesNewData(p)) {
                continue;
            }
            if (p.flightSize() == 0
                    && p.lastSendNanos() != Long.MIN_VALUE
                    && now - p.lastSendNanos() > p.rto().rto()) {
                cc.onIdle(p);
            }
            startPacket(p);
            bundleSack(now);
            tx.fill(pb, p, paths, now);
            if (!pb.isEmpty()) {
                nextCmtPath = (idx + 1) % n;
                return finish(p.address());
            }
        }
        return null;
    }

    /**
     * Where an answer to a packet from {@code from} goes: back to it (RFC 9260 section 6.4), unless
     * it is a path still unconfirmed, where only HEARTBEATs may go (section 5.4): then to the path
     * new data takes.
     */
    private InetAddress replyTo(InetAddress from) {
        Path p = pathOf(from);
        return p != null && p.status() == PathStatus.UNCONFIRMED ? dataPath().address() : from;
    }

    /** Remembers where DATA came from, and the confirmed source before it when the source changes. */
    private void noteDataSource(InetAddress from) {
        if (lastDataSource != null && !lastDataSource.equals(from)) {
            Path prev = pathOf(lastDataSource);
            if (prev != null && prev.status() != PathStatus.UNCONFIRMED) {
                lastConfirmedDataSource = lastDataSource;
            }
        }
        lastDataSource = from;
    }

    /**
     * Where a SACK goes: to the source of the DATA it answers (RFC 9260 section 6.4), but never to
     * an unconfirmed address (section 5.4 allows only HEARTBEATs there). Then to an earlier source
     * of the DATA it acknowledges that is confirmed (6.4 allows any of them), else to the path new
     * data takes (the primary while it is active).
     */
    private Path sackPath() {
        Path p = lastDataSource != null ? pathOf(lastDataSource) : null;
        if (p != null && p.status() != PathStatus.UNCONFIRMED) {
            return p;
        }
        Path q = lastConfirmedDataSource != null ? pathOf(lastConfirmedDataSource) : null;
        if (q != null && q.status() != PathStatus.UNCONFIRMED) {
            return q;
        }
        return dataPath();
    }

    private static boolean isAlone(Chunk c) {
        int t = c.type();
        return t == ChunkType.INIT || t == ChunkType.INIT_ACK || t == ChunkType.SHUTDOWN_COMPLETE;
    }

    private boolean canBundleData() {
        return rx != null
                && tx != null
                && (state == State.ESTABLISHED
                        || state == State.SHUTDOWN_PENDING
                        || state == State.SHUTDOWN_RECEIVED
                        || state == State.SHUTDOWN_SENT);
    }

    private void startPacket(Path p) {
        pb.reset(host.localPort(), peerPort, peerTag, maxPacket(p));
    }

    /**
     * Puts the SACK in the packet being built when one is due or delayed (RFC 9260 sections 6.2 and
     * 6.10): DATA going out, an answer to the peer's DATA for instance, carries the acknowledgement
     * instead of leaving it to the delayed-SACK timer. If the packet then takes no DATA, the SACK
     * leaves alone, earlier than the delay would have sent it.
     */
    private void bundleSack(long now) {
        if (rx.sackNeeded(now) || rx.sackDeadline() != NONE) {
            rx.writeSack(sackWriter, pb.remaining());
        }
    }

    /** The packet in {@link #pb} goes to {@code dest}: notes its source, returns dest. */
    private InetAddress finish(InetAddress dest) {
        lastSource = sourceFor(dest);
        return dest;
    }

    /**
     * The local address packets to {@code peer} leave from: the address policy's pair for it if
     * there is one, else what the endpoint chooses.
     */
    public InetAddress sourceFor(InetAddress peer) {
        InetAddress src = pairedSources.get(peer);
        if (src == null && (policyActive || pinnedByPrefix.contains(peer))) {
            // Answer from where the peer reached us (see answerFrom for when that holds).
            src = replySources.get(peer);
        }
        return src != null ? src : host.sourceFor(peer);
    }

    // ------------------------------------------------------------------ timers

    /** The earliest deadline of this association, or {@link Long#MAX_VALUE}. */
    public long nextTimeout() {
        if (state == State.CLOSED) {
            return NONE;
        }
        long m = Math.min(t1Deadline, Math.min(t2Deadline, t5Deadline));
        for (int k = 0; k < paths.size(); k++) {
            m = Math.min(m, paths.get(k).t3Deadline());
        }
        if (o.heartbeatEnabled() && state == State.ESTABLISHED) {
            m = Math.min(m, heartbeats.next());
        }
        if (canBundleData()) {
            // Only while a SACK can be sent: in COOKIE-ECHOED and SHUTDOWN-ACK-SENT build() sends
            // none, and a deadline nothing clears would be due again at once, forever.
            m = Math.min(m, rx.sackDeadline());
        }
        return m;
    }

    /** Runs every timer due at {@code now}. */
    public void handleTimeout(long now) {
        if (state == State.CLOSED) {
            return;
        }
        if (t1Deadline <= now) {
            onT1(now);
        }
        if (state != State.CLOSED && t5Deadline <= now) {
            // RFC 9260 section 9.2: T5-shutdown-guard: give up and ABORT.
            queue(AbortChunk.of(false), primaryAddress(), peerTag);
            close(AssociationChangeType.COMMUNICATION_LOST, List.of(), "shutdown guard timer expired", now);
            return;
        }
        if (state != State.CLOSED && t2Deadline <= now) {
            onT2(now);
        }
        for (int i = 0; i < paths.size() && state != State.CLOSED; i++) {
            Path p = paths.get(i);
            if (p.t3Deadline() <= now && tx != null) {
                onT3(p, now);
            }
        }
        if (state != State.CLOSED && o.heartbeatEnabled() && tx != null) {
            heartbeatTimers(now);
        }
    }

    private void onT1(long now) {
        Path p = paths.get(primary);
        if (++t1Count > o.maxInitRetransmits()) {
            close(
                    AssociationChangeType.CANT_START,
                    List.of(),
                    "no answer to INIT/COOKIE ECHO after " + o.maxInitRetransmits() + " retransmissions",
                    now);
            return;
        }
        p.rto().backoff();
        if (state == State.COOKIE_WAIT) {
            queue(sentInit, p.address(), 0);
            t1Deadline = now + p.rto().rto();
        } else if (state == State.COOKIE_ECHOED) {
            queue(new CookieEchoChunk(cookieToEcho), p.address(), peerTag);
            cookieEchoSentAt = now;
            t1Deadline = now + p.rto().rto();
        } else {
            t1Deadline = NONE;
        }
    }

    private void onT2(long now) {
        if (++associationErrors > o.associationMaxRetrans()) {
            close(AssociationChangeType.COMMUNICATION_LOST, List.of(), "no answer to SHUTDOWN", now);
            return;
        }
        Path p = dataPath();
        p.rto().backoff();
        if (state == State.SHUTDOWN_SENT) {
            queue(new ShutdownChunk(rx.cumulativeTsn()), p.address(), peerTag);
        } else if (state == State.SHUTDOWN_ACK_SENT) {
            queue(new ShutdownAckChunk(), p.address(), peerTag);
        }
        t2Deadline = now + p.rto().rto();
    }

    private void onT3(Path p, long now) {
        boolean answeredProbe = tx.answeredProbeTimesOut();
        tx.onT3Expired(p, paths, now);
        if (answeredProbe) {
            return; // RFC 9260 6.1 A: the peer keeps answering, its window is just closed
        }
        pathError(p, now);
        if (state != State.CLOSED) {
            countAssociationError(now);
        }
    }

    /**
     * HEARTBEAT timers (RFC 9260 section 8.3) run in ESTABLISHED only. Before it, RFC 9260 section
     * 5.1 allows nothing but the COOKIE ECHO until the COOKIE ACK: a peer that lost the COOKIE ECHO
     * has no association and answers a HEARTBEAT with an ABORT, ending the setup. In the shutdown
     * states the answer to a HEARTBEAT can arrive after this side closed, and draws an out-of-the-
     * blue ABORT (section 8.4 rule 8) that turns the peer's clean close into COMMUNICATION_LOST;
     * T3-rtx and T2-shutdown watch the paths there instead (sections 6.3.3 and 9.2).
     */
    private void heartbeatTimers(long now) {
        if (state != State.ESTABLISHED) {
            return;
        }
        for (int i = 0; i < paths.size() && state != State.CLOSED; i++) {
            Path p = paths.get(i);
            if (heartbeats.timeout(i) <= now) {
                heartbeats.expire(i);
                pathError(p, now);
                if (state == State.CLOSED) {
                    return;
                }
                if (p.status() != PathStatus.UNCONFIRMED) {
                    countAssociationError(now);
                }
                if (state == State.CLOSED) {
                    return;
                }
                if (p.status() == PathStatus.POTENTIALLY_FAILED) {
                    // RFC 7829 section 5.1: probe a PF destination once per RTO, without backoff.
                    heartbeats.schedule(i, now);
                } else {
                    p.rto().backoff();
                    heartbeats.schedule(
                            i,
                            now
                                    + (p.status() == PathStatus.UNCONFIRMED
                                            ? p.rto().rto()
                                            : heartbeatDelay(p)));
                }
            }
            if (state != State.CLOSED && heartbeats.due(i) <= now && !heartbeats.outstanding(i)) {
                boolean idle = p.lastSendNanos() == Long.MIN_VALUE
                        || now - p.lastSendNanos() >= o.heartbeatInterval().toNanos();
                if (idle || p.status() != PathStatus.ACTIVE) {
                    Bytes info = heartbeats.send(i, p.address(), now, p.rto().rto(), host.random());
                    queue(new HeartbeatChunk(List.of(new HeartbeatInfoParameter(info))), p.address(), peerTag);
                } else {
                    heartbeats.schedule(i, p.lastSendNanos() + heartbeatDelay(p));
                }
            }
        }
    }

    /** HB.interval + RTO, with a jitter of +/- 50% of the RTO (RFC 9260 section 8.3). */
    private long heartbeatDelay(Path p) {
        long rto = p.rto().rto();
        long jitter = rto <= 1 ? 0 : host.random().nextLong(rto) - rto / 2;
        return o.heartbeatInterval().toNanos() + rto + jitter;
    }

    /**
     * A timeout on path p (RFC 9260 section 8.2): past Path.Max.Retrans errors it is inactive; with
     * SCTP-PF, past PFMR errors it is Potentially Failed and probed at once (RFC 7829 section 5.1).
     */
    private void pathError(Path p, long now) {
        p.incrementErrorCount();
        boolean up = p.status() == PathStatus.ACTIVE || p.status() == PathStatus.POTENTIALLY_FAILED;
        if (p.errorCount() > o.pathMaxRetrans() && up) {
            setPathStatus(p, PathStatus.INACTIVE);
        } else if (p.status() == PathStatus.ACTIVE
                && o.potentiallyFailedEnabled()
                && p.errorCount() > o.pfMaxRetrans()) {
            setPathStatus(p, PathStatus.POTENTIALLY_FAILED);
            if (!heartbeats.outstanding(p.index())) {
                heartbeats.schedule(p.index(), now);
            }
        }
        if (o.primarySwitchover() && p.index() == primary && p.status() != PathStatus.ACTIVE) {
            switchPrimary();
        }
    }

    /**
     * RFC 7829 section 6, Primary Path Switchover: the primary failed (PF or inactive), so the
     * active path with the fewest errors becomes the primary and stays so after the old one
     * recovers.
     */
    private void switchPrimary() {
        Path best = null;
        for (Path q : paths) {
            if (q.status() == PathStatus.ACTIVE && (best == null || q.errorCount() < best.errorCount())) {
                best = q;
            }
        }
        if (best != null && best.index() != primary) {
            primary = best.index();
            host.emit(new SctpEvent.PeerAddressChange(id, best.address(), PeerAddressState.MADE_PRIMARY));
        }
    }

    /** A timeout counted against the association (RFC 9260 section 8.1). */
    private void countAssociationError(long now) {
        if (++associationErrors > o.associationMaxRetrans()) {
            close(
                    AssociationChangeType.COMMUNICATION_LOST,
                    List.of(),
                    "peer unreachable: " + associationErrors + " consecutive timeouts",
                    now);
        }
    }

    private void setPathStatus(Path p, PathStatus s) {
        PathStatus old = p.status();
        if (old == s) {
            return;
        }
        p.setStatus(s);
        if (s == PathStatus.ACTIVE && pendingPrimary != null) {
            adoptPendingPrimary();
        }
        if (s == PathStatus.INACTIVE) {
            host.emit(new SctpEvent.PeerAddressChange(id, p.address(), PeerAddressState.UNREACHABLE));
        } else if (s == PathStatus.POTENTIALLY_FAILED) {
            host.emit(new SctpEvent.PeerAddressChange(id, p.address(), PeerAddressState.POTENTIALLY_FAILED));
        } else if (s == PathStatus.ACTIVE && (old == PathStatus.INACTIVE || old == PathStatus.POTENTIALLY_FAILED)) {
            host.emit(new SctpEvent.PeerAddressChange(id, p.address(), PeerAddressState.AVAILABLE));
        }
    }

    // ------------------------------------------------------------------ procedures

    private void sendInit(long now) {
        Path p = paths.get(primary);
        sentInit = Handshake.buildInit(host, o, p.address(), localTag, localInitialTsn, preservativeMillis);
        queue(sentInit, p.address(), 0);
        t1Deadline = now + p.rto().rto();
    }

    private void sendCookieEcho(long now) {
        Path p = paths.get(primary);
        queue(new CookieEchoChunk(cookieToEcho), p.address(), peerTag);
        cookieEchoSentAt = now;
        t1Deadline = now + p.rto().rto();
    }

    private void progressShutdown(long now) {
        if (tx == null || !tx.isEmpty()) {
            return;
        }
        if (state == State.SHUTDOWN_PENDING) {
            state = State.SHUTDOWN_SENT;
            queueShutdown(now);
            t5Deadline = now + o.shutdownGuardFactor() * o.rtoMax().toNanos();
        } else if (state == State.SHUTDOWN_RECEIVED) {
            state = State.SHUTDOWN_ACK_SENT;
            queueShutdownAck(now);
        }
    }

    private void queueShutdown(long now) {
        Path p = dataPath();
        queue(new ShutdownChunk(rx.cumulativeTsn()), p.address(), peerTag);
        t2Deadline = now + p.rto().rto();
    }

    private void queueShutdownAck(long now) {
        Path p = dataPath();
        queue(new ShutdownAckChunk(), p.address(), peerTag);
        t2Deadline = now + p.rto().rto();
    }

    private void protocolAbort(ErrorCause cause, String why, long now) {
        queue(AbortChunk.of(false, cause), primaryAddress(), peerTag);
        close(AssociationChangeType.COMMUNICATION_LOST, List.of(), why, now);
    }

    private void emitUp(AssociationChangeType type, long now) {
        for (Path p : paths) {
            if (p.status() != PathStatus.UNCONFIRMED) {
                heartbeats.schedule(p.index(), now + heartbeatDelay(p));
            }
        }
        host.emit(new SctpEvent.AssociationChange(id, type, outboundStreams, inboundStreams, List.of(), type.name()));
    }

    private void deliverMessages() {
        DataReceiver r = rx;
        try {
            while (r.pollMessage(messageSink)) {
                // each message went to deliver()
            }
        } finally {
            // What could not be delivered yet must not keep pointing into the packet.
            r.detachReferences();
        }
    }

    private void deliver(
            int streamId, int ppid, boolean unordered, byte[] array, ByteBuffer buf, int offset, int length) {
        host.deliver(id, streamId, ppid, unordered, array, buf, offset, length);
    }

    /**
     * The partial delivery event's aborted indication (RFC 6458 section 6.1.7) for each message
     * being delivered in parts whose last part will not come.
     */
    private void reportPartialDeliveriesAborted() {
        for (DataReceiver.PartialDelivery p : rx.partialDeliveries()) {
            host.emit(
                    new SctpEvent.PartialDeliveryAborted(id, p.streamId(), p.ssn(), p.unordered(), p.deliveredBytes()));
        }
    }

    private void reportUnsent() {
        if (tx == null) {
            return;
        }
        for (UnsentMessage u : tx.drainUnsent()) {
            host.emit(new SctpEvent.SendFailed(id, u.streamId(), u.ppid(), u.unordered(), u.data(), u.partiallySent()));
        }
    }

    private void close(AssociationChangeType type, List<ErrorCause> causes, String reason, long now) {
        if (state == State.CLOSED) {
            return;
        }
        if (rx != null) {
            deliverMessages();
            reportPartialDeliveriesAborted();
        }
        reportUnsent();
        state = State.CLOSED;
        t1Deadline = t2Deadline = t5Deadline = NONE;
        for (Path p : paths) {
            p.stopT3();
        }
        host.emit(new SctpEvent.AssociationChange(id, type, outboundStreams, inboundStreams, causes, reason));
        host.closed(this);
    }

    @Override
    public String toString() {
        return id + "[" + state + " local=0x" + Integer.toHexString(localTag) + " peer=0x"
                + Integer.toHexString(peerTag) + " " + peerAddresses() + ":" + peerPort + "]";
    }
}
