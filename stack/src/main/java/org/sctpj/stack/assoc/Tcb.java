package org.sctpj.stack.assoc;

import java.net.InetAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Extension;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.StreamSchedulerKind;
import org.sctpj.stack.asconf.AddressReconfiguration;
import org.sctpj.stack.auth.Authentication;
import org.sctpj.stack.cc.CongestionController;
import org.sctpj.stack.ecn.EcnHandling;
import org.sctpj.stack.forwardtsn.ForwardTsn;
import org.sctpj.stack.handshake.Connect;
import org.sctpj.stack.handshake.InitCollision;
import org.sctpj.stack.handshake.Negotiation;
import org.sctpj.stack.handshake.StateCookie;
import org.sctpj.stack.icmp.IcmpHandling;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.pathmgmt.Failover;
import org.sctpj.stack.pathmgmt.HeartbeatHandler;
import org.sctpj.stack.pathmgmt.PathSet;
import org.sctpj.stack.pmtu.PmtuDiscovery;
import org.sctpj.stack.reconfig.StreamReset;
import org.sctpj.stack.rx.DataReceiver;
import org.sctpj.stack.teardown.Abort;
import org.sctpj.stack.teardown.Shutdown;
import org.sctpj.stack.tx.DataSender;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.ChunkType;

/**
 * The transmission control block of one association (RFC 9260 section 14.1): the state every
 * procedure shares (association state, tags, initial TSNs, stream counts, the paths and the
 * primary, the peer addresses announced, the data sender and receiver, the association's error
 * counter, where the last DATA came from), the queue of control chunks waiting to go out, the
 * {@link TimerTable}, and the procedures themselves, so that one can call another (a shutdown that
 * times out aborts, an acknowledgement brings a path back).
 *
 * <p>It is a plain record of state: its fields are public so that the procedures, each in the
 * package named after it ({@code handshake}, {@code teardown}, {@code pathmgmt}, and {@link
 * DataTransfer} here), read and write them directly; none of these packages is exported. What
 * belongs to one procedure alone (T1's retransmission count, the heartbeat nonces, the CMT round
 * robin) stays in that procedure. {@link Association} owns one and dispatches to the procedures.
 *
 * <p>Not thread-safe, like the association.
 */
public final class Tcb {

    /** A stopped timer's deadline; "none" for times. */
    public static final long NONE = Long.MAX_VALUE;

    /** Bound on {@link #announced}: a peer that lists more cannot restart with the excess ones. */
    public static final int MAX_ANNOUNCED = 4 * StateCookie.MAX_ADDRESSES;

    /** A control chunk waiting to be sent, with its destination and packet Verification Tag. */
    public record Control(Chunk chunk, InetAddress destination, int verificationTag) {}

    /** The endpoint that owns the association. */
    public final AssociationHost host;
    /** The association's id. */
    public final AssociationId id;
    /** The association's options. */
    public final SctpOptions o;
    /** The peer's SCTP port. */
    public final int peerPort;
    /** The association this block belongs to, as the host knows it. */
    public final Association association;

    /** The association state (RFC 9260 section 4). */
    public Association.State state;
    /** Our Verification Tag (our Initiate Tag). */
    public int localTag;
    /** The peer's Verification Tag (its Initiate Tag); 0 before it is known. */
    public int peerTag;
    /** Our initial TSN. */
    public int localInitialTsn;
    /** The outbound streams we ask for. */
    public int localOutbound;
    /** The inbound streams we accept at most. */
    public int localMaxInbound;
    /** Negotiated outbound streams (0 before establishment). */
    public int outboundStreams;
    /** Negotiated inbound streams (0 before establishment). */
    public int inboundStreams;

    /** The paths, one per peer address, in index order (at most {@link TimerTable#MAX_PATHS}). */
    public final List<Path> paths = new ArrayList<>();
    /** Index of the primary path. */
    public int primary;
    /** Every protocol timer of the association. */
    public final TimerTable timers = new TimerTable();
    /** The congestion controller of every path. */
    public final CongestionController cc;
    /**
     * The source address per peer address: the address policy's pairs, and for the peer address
     * the handshake used, the local address the peer reached (so that the answers leave from the
     * address the peer sent to, whatever the longest-prefix choice would be).
     */
    public final Map<InetAddress, InetAddress> pairedSources = new HashMap<>();
    /** The local address each handshake packet arrived on, per peer address (see {@link PathSet#sourceFor}). */
    public final Map<InetAddress, InetAddress> replySources = new HashMap<>();
    /** Peer addresses whose handshake address is also the closest local one (always used). */
    public final Set<InetAddress> pinnedByPrefix = new HashSet<>();
    /**
     * The peer addresses the peer announced for this association (the addresses of its INIT or
     * INIT ACK and their source, those the user connected to), whether or not they became paths:
     * an INIT or a restart that brings an address outside this set and the paths is refused (RFC
     * 9260 sections 5.2.1, 5.2.2 and 5.2.4). At most {@link #MAX_ANNOUNCED}.
     */
    public final Set<InetAddress> announced = new LinkedHashSet<>();
    /** Set once an address policy gave this association a plan. */
    public boolean policyActive;
    /**
     * The address policy's primary, or the one the peer asked for with Set Primary Address (RFC
     * 5061 section 4.2.4), taken as the primary once the association is established and its path
     * confirmed (null when none is pending).
     */
    public InetAddress pendingPrimary;
    /**
     * Whether {@link #pendingPrimary} came from the peer's Set Primary Address: its adoption is
     * then reported (PeerAddressChange MADE_PRIMARY), as a Set Primary of a confirmed path is.
     */
    public boolean pendingPrimaryFromPeer;
    /**
     * The peer addresses the user gave to connect: confirmed from the start (RFC 9260 section 5.4
     * rule 1). Empty for an association a COOKIE ECHO created.
     */
    public List<InetAddress> userPeers = List.of();

    /** The sending half of the data transfer (null before the handshake gives its parameters). */
    public DataSender tx;
    /** The receiving half of the data transfer (null before the handshake gives its parameters). */
    public DataReceiver rx;
    /** Control chunks waiting to be sent, in order. */
    public final ArrayDeque<Control> controls = new ArrayDeque<>();
    /** Consecutive timeouts counted against the association (RFC 9260 section 8.1). */
    public int associationErrors;
    /** The source of the last DATA received: where the SACK goes (RFC 9260 section 6.4). */
    public InetAddress lastDataSource;
    /**
     * The source of earlier DATA that was a confirmed path when later DATA came from elsewhere: the
     * SACK's destination when {@link #lastDataSource} is unconfirmed (sections 5.4 and 6.4).
     */
    public InetAddress lastConfirmedDataSource;

    /**
     * The extensions this association uses: those both we offered and the peer announced (see
     * {@link org.sctpj.stack.handshake.Negotiation}); set by the handshake before the data path is
     * built, and again on a restart. Empty before.
     */
    public final EnumSet<Extension> extensions = EnumSet.noneOf(Extension.class);
    /** The peer's Adaptation Code Point (RFC 5061 section 4.2.6), or -1 when it sent none. */
    public long peerAdaptation = -1;

    /** The send callback's free-space threshold (see {@link Association#setSendThreshold}). */
    public long sendThreshold;
    /**
     * The stream scheduler the user chose at run time (RFC 8260 section 4.3.2), given to each new
     * {@link #tx}; null: {@link SctpOptions#streamScheduler()}.
     */
    public StreamSchedulerKind streamScheduler;
    /** Whether the sender-dry event was given since the last message was accepted. */
    public boolean wasDry = true;

    /** Setup: INIT, INIT ACK, COOKIE ECHO, COOKIE ACK and T1 (RFC 9260 section 5.1). */
    public final Connect connect;
    /** INIT and COOKIE ECHO for an existing association (RFC 9260 sections 5.2.1 to 5.2.6). */
    public final InitCollision collision;
    /** Graceful shutdown, T2 and T5 (RFC 9260 section 9.2). */
    public final Shutdown shutdown;
    /** ABORT and the end of the association (RFC 9260 section 9.1). */
    public final Abort abort;
    /** The paths, their source addresses and the primary (RFC 9260 sections 5.4 and 10.1). */
    public final PathSet pathSet;
    /** Error counting, SCTP-PF and failover (RFC 9260 sections 8.1 and 8.2, RFC 7829). */
    public final Failover failover;
    /** HEARTBEAT and path confirmation (RFC 9260 sections 8.3 and 5.4). */
    public final HeartbeatHandler heartbeats;
    /** DATA and SACK, packet assembly (RFC 9260 section 6). */
    public final DataTransfer data;
    /** Stream reconfiguration: SSN and SSN/TSN resets, added streams (RFC 6525). */
    public final StreamReset reconfig;
    /** Partial reliability: FORWARD TSN sent and received, abandoned messages (RFC 3758, RFC 7496). */
    public final ForwardTsn forwardTsn;
    /** ICMP errors about our packets (RFC 9260 appendix C, RFC 6951 section 5.5). */
    public final IcmpHandling icmp;
    /** Authenticated chunks: key vectors, shared keys, AUTH checked and added (RFC 4895). */
    public final Authentication auth;

    /** Observability counters of both directions (see {@link Counters}). */
    public final Counters counters = new Counters();
    /** Explicit congestion notification: CE marks echoed, ECNE and CWR (RFC 9260 appendix A). */
    public final EcnHandling ecn;
    /** Path MTU discovery with probes, black holes and Packet Too Big (RFC 8899). */
    public final PmtuDiscovery pmtu;
    /** Dynamic address reconfiguration: ASCONF and ASCONF-ACK both ways (RFC 5061). */
    public final AddressReconfiguration asconf;

    Tcb(AssociationHost host, AssociationId id, SctpOptions o, int peerPort, Association association) {
        this.host = host;
        this.id = id;
        this.o = o;
        this.peerPort = peerPort;
        this.association = association;
        this.cc = o.congestionController().create(Collections.unmodifiableList(paths));
        this.connect = new Connect(this);
        this.collision = new InitCollision(this);
        this.shutdown = new Shutdown(this);
        this.abort = new Abort(this);
        this.pathSet = new PathSet(this);
        this.failover = new Failover(this);
        this.heartbeats = new HeartbeatHandler(this);
        this.data = new DataTransfer(this);
        this.reconfig = new StreamReset(this);
        this.forwardTsn = new ForwardTsn(this);
        this.icmp = new IcmpHandling(this);
        this.auth = new Authentication(this, host.endpointKeys());
        this.ecn = new EcnHandling(this);
        this.pmtu = new PmtuDiscovery(this);
        this.asconf = new AddressReconfiguration(this);
    }

    /** Whether the association uses {@code e} (both sides announced it). */
    public boolean has(Extension e) {
        return extensions.contains(e);
    }

    /**
     * Takes what the peer announced in its INIT or INIT ACK ({@code peerMask}, {@link
     * Negotiation#bit} per extension) and its Adaptation Code Point (-1: none): the association
     * uses the extensions both sides announced.
     */
    public void negotiate(int peerMask, long adaptation) {
        extensions.clear();
        extensions.addAll(Negotiation.agreed(o, peerMask));
        peerAdaptation = adaptation;
    }

    /** Whether the handshake is still under way (COOKIE-WAIT or COOKIE-ECHOED). */
    public boolean settingUp() {
        return state == Association.State.COOKIE_WAIT || state == Association.State.COOKIE_ECHOED;
    }

    /** Queues a control chunk for {@code dest} in a packet tagged {@code vtag}. */
    public void queue(Chunk chunk, InetAddress dest, int vtag) {
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

    /** The path to {@code a}, or null when it is none of ours (or the peer deleted it). */
    public Path pathOf(InetAddress a) {
        for (int k = 0; k < paths.size(); k++) {
            Path p = paths.get(k);
            if (p.address().equals(a) && !p.removed()) {
                return p;
            }
        }
        return null;
    }

    /** The primary path's address. */
    public InetAddress primaryAddress() {
        return paths.get(primary).address();
    }

    /** The peer's addresses, in path order (those it deleted left out). */
    public List<InetAddress> peerAddresses() {
        List<InetAddress> out = new ArrayList<>(paths.size());
        for (Path p : paths) {
            if (!p.removed()) {
                out.add(p.address());
            }
        }
        return out;
    }

    /** Adds to {@link #announced}, up to its bound. */
    public void announce(Collection<InetAddress> addrs) {
        for (InetAddress x : addrs) {
            if (announced.size() >= MAX_ANNOUNCED) {
                return;
            }
            announced.add(x);
        }
    }

    /** Whether a packet may carry DATA and SACK: the data path exists and the state allows it. */
    public boolean canBundleData() {
        return rx != null
                && tx != null
                && (state == Association.State.ESTABLISHED
                        || state == Association.State.SHUTDOWN_PENDING
                        || state == Association.State.SHUTDOWN_RECEIVED
                        || state == Association.State.SHUTDOWN_SENT);
    }
}
