package org.sctpj.stack;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.sctpj.stack.addr.AddressPolicy;
import org.sctpj.stack.addr.AddressSelector;
import org.sctpj.stack.addr.CollisionInfo;
import org.sctpj.stack.addr.LocalInterface;
import org.sctpj.stack.assoc.Association;
import org.sctpj.stack.assoc.AssociationHost;
import org.sctpj.stack.assoc.InboundPacket;
import org.sctpj.stack.auth.Authentication;
import org.sctpj.stack.auth.SharedKeys;
import org.sctpj.stack.handshake.CookieSecrets;
import org.sctpj.stack.handshake.Handshake;
import org.sctpj.stack.handshake.InitHandling;
import org.sctpj.stack.handshake.StateCookie;
import org.sctpj.stack.icmp.IcmpHandling;
import org.sctpj.stack.icmp.IcmpReport;
import org.sctpj.stack.llp.Ecn;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Crc32c;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.cause.StaleCookieCause;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.ChunkType;
import org.sctpj.stack.wire.chunk.Chunks;
import org.sctpj.stack.wire.chunk.CookieEchoChunk;
import org.sctpj.stack.wire.chunk.ErrorChunk;
import org.sctpj.stack.wire.chunk.InitChunk;
import org.sctpj.stack.wire.chunk.ShutdownCompleteChunk;

/**
 * An SCTP endpoint (RFC 9260 section 1.3): a local port and address set, and the associations
 * that use them. This is the protocol core's entry point. It is <b>sans-IO</b>: it reads no clock,
 * does no I/O, starts no thread and takes no lock. Its owner feeds it packets and time and takes
 * out packets, events and the next deadline.
 *
 * <h2>Calling contract</h2>
 *
 * <p>One thread (the owner) makes every call. {@code now} is a monotonic time in nanoseconds
 * chosen by the owner (a virtual clock in tests); it never goes backwards.
 *
 * <ol>
 *   <li>Create: {@code new Endpoint(port, localAddresses, options, random, now)}; {@link #listen}
 *       to accept associations; {@link #connect} to start one.
 *   <li>Whenever a packet arrives: {@link #handleInput}; whenever the lower layer reports an
 *       ICMP error about a packet we sent: {@link #handleIcmp}.
 *   <li>Whenever {@code now >= }{@link #nextTimeout()}: {@link #handleTimeout}.
 *   <li>After any of the calls above and after every user command ({@link #send}, {@link
 *       #shutdown}, {@link #abort}, ...): drain {@link #pollTransmit} (send each packet through
 *       the lower layer) and, without an event handler, {@link #pollEvent} (hand each event to the
 *       user) until both are empty, then re-read {@link #nextTimeout()} and sleep until then or
 *       until the next input.
 * </ol>
 *
 * <h2>Delivery: one route, deferred</h2>
 *
 * <p>While the core works on a call, every event and every received message it produces is
 * appended, in order, to one outbox; no code of the user runs meanwhile. When the call's work is
 * done (for {@link #handleInput}: the whole packet processed), just before the outermost call
 * returns, the outbox is handed out in order on the owner thread: to the {@link EventHandler} if
 * one is set ({@link #setEventHandler}), messages seen in place in the packet, which the caller
 * still holds; otherwise it is kept for {@link #pollEvent()}, messages copied out of the packet.
 * A handler may call the endpoint again: those calls do their work at once, and what they produce
 * joins the end of the same outbox, handed out by the same loop (no recursion, no reordering).
 * So user code never runs in the middle of a packet, and sees every association in a consistent
 * state.
 *
 * <h2>Allocation-free forms</h2>
 *
 * <p>For the data path, {@link #pollTransmit(ByteBuffer, long)} writes each packet into a buffer
 * of the caller (a pooled direct buffer, ready for the socket) instead of a new {@link Transmit},
 * {@link #pollEventOrNull()} spares the {@link Optional}, and an {@link EventHandler} sees each
 * received message in place ({@link EventHandler#onMessage}) instead of a copied {@link
 * SctpEvent.MessageReceived}. With them, steady-state bulk transfer allocates (almost) nothing
 * per message (PERFORMANCE.md has the figures).
 *
 * <p>The reference driver following this contract is the stack thread of the {@code timers}
 * module; the deterministic test harness drives two endpoints the same way on a virtual clock.
 *
 * <h2>Association setup</h2>
 *
 * <p>An INIT leaves no state: the INIT ACK carries a signed State Cookie (RFC 9260 section 5.1.3)
 * that binds both Verification Tags, both ports, the local address, the peer's addresses (the
 * INIT's source and those it listed) and a lifetime ({@link StateCookie} says why each). A COOKIE
 * ECHO is routed by its cookie, not by its source address: one whose tags are an association's
 * belongs to that association (section 5.2.4, case D, answered with a COOKIE ACK even once the
 * cookie expired), one with tie-tags to the association it restarts (case A), and only a cookie
 * that concerns no association creates one, so a replayed cookie never makes a second
 * association. A COOKIE ECHO from an address the INIT did not carry is discarded ({@link
 * EndpointStats#cookiesFromUnlistedAddress}); the INIT's source becomes the primary path. An INIT
 * or restart that brings addresses an association does not have is refused with an ABORT carrying
 * the Restart of an Association with New Addresses cause (sections 5.2.1, 5.2.2).
 *
 * <p>Input from the network never throws: malformed packets are counted ({@link #stats()}) and
 * dropped, or answered as RFC 9260 says. Misuse by the caller throws {@link
 * IllegalArgumentException} or {@link IllegalStateException} with a message that says what to do.
 */
public final class Endpoint {

    /** Bound on packets queued by the endpoint itself (OOTB replies, INIT ACKs): beyond it, drop. */
    static final int MAX_ENDPOINT_OUTPUT = 256;

    private record PeerKey(InetAddress address, int port) {}

    private final int localPort;
    private List<InetAddress> localAddresses;
    private final SctpOptions options;
    private final RandomGenerator random;
    private final CookieSecrets secrets;
    private final Host host = new Host();
    private final Map<PeerKey, Schedule.Entry> byPeer = new HashMap<>();
    /**
     * The associations by our own Verification Tag, for COOKIE ECHOs (RFC 9260 section 5.2.4),
     * which belong to an association by their tags whatever address they come from. Kept as
     * associations are created, restart (new tag) and close. When two associations drew the same
     * tag (random 32 bits), the first keeps it here.
     */
    private final Map<Integer, Schedule.Entry> byTag = new HashMap<>();

    /** The live associations, in creation order. */
    private final Map<AssociationId, Schedule.Entry> byId = new LinkedHashMap<>();
    /**
     * Which associations may have a packet to send, and their deadlines: what {@link #pollTransmit},
     * {@link #nextTimeout} and {@link #handleTimeout} use instead of walking every association.
     * Every call into an association goes through {@link #touch} (or is a poll), see {@link Schedule}.
     */
    private final Schedule schedule = new Schedule();

    private final ArrayDeque<Association> draining = new ArrayDeque<>();
    private final ArrayDeque<Transmit> endpointOutput = new ArrayDeque<>();
    /** Everything produced for the user, in order: handed out at the end of each call (see {@link EventHandler}). */
    private final Outbox outbox = new Outbox();
    /** Associations whose free send space grew during the call, for {@link EventHandler#onSendBufferFreed}. */
    private final List<AssociationId> spaceFreed = new ArrayList<>();

    private final InboundPacket inbound = new InboundPacket();
    /** The endpoint pair shared keys new associations copy (RFC 4895 section 6.1). */
    private final SharedKeys keys = new SharedKeys();

    private final Stats stats = new Stats();
    private boolean listening;
    private EventHandler handler;
    /** Tells the probe what changed in one association (made once: nothing allocated per call). */
    private final java.util.function.Consumer<Association> reportToProbe = a -> a.report(this.probe);

    private static final java.util.function.Consumer<Association> IGNORE = a -> {};

    /** Hears of state changes, timeouts and fast retransmissions (see {@link Probe}); null: none. */
    private Probe probe;
    /** Endpoint calls under way (more than one only if the core called itself, which it does not). */
    private int depth;
    /** True while the outbox is being handed to the handler: calls made then do not hand out. */
    private boolean handingOut;

    private InetAddress transmitSource;
    private int transmitEcn;
    private boolean transmitFragmentable;
    /** The state of the association that built the last packet polled; null for the endpoint's own. */
    private Association.State transmitState;

    private List<InetAddress> transmitUserPeers = List.of();
    // The association of the last packet received, to skip the PeerKey lookup while it repeats.
    private InetAddress lastFrom;
    private int lastFromPort = -1;
    private Schedule.Entry lastAssoc;
    private AddressPolicy policy;
    private int nextId = 1;
    /** Shards of the endpoint this one is (see {@link #shard}): ids and tags keep to its class. */
    private int shards = 1;

    private int shardIndex;
    /** The recorder of every input and output, or null (see {@link CoreJournal}). */
    private final CoreJournal journal;
    /** The time of the last call that carried one, for journal entries of calls without. */
    private long journalNow;
    /** Forwards to the handler what the journal has seen: only with a journal. */
    private final JournalTap tap;

    /**
     * An endpoint on {@code localPort} with the given local addresses (at least one; they are
     * announced in INIT when there are several).
     *
     * @param random the source of tags, initial TSNs and nonces: a {@link
     *     java.security.SecureRandom} in production, a seeded generator in tests
     * @param now the current time, to start the cookie secret's period
     */
    public Endpoint(
            int localPort, List<InetAddress> localAddresses, SctpOptions options, RandomGenerator random, long now) {
        this(localPort, localAddresses, options, random, now, null);
    }

    /**
     * As {@link #Endpoint(int, List, SctpOptions, RandomGenerator, long)}, with {@code journal}
     * (null for none) seeing every input and output from the start, its random draws included
     * ({@link CoreJournal#random} may replace {@code random}).
     */
    public Endpoint(
            int localPort,
            List<InetAddress> localAddresses,
            SctpOptions options,
            RandomGenerator random,
            long now,
            CoreJournal journal) {
        if (localPort <= 0 || localPort > 65535) {
            throw new IllegalArgumentException("local port must be 1..65535, was " + localPort);
        }
        if (localAddresses.isEmpty()) {
            throw new IllegalArgumentException("give at least one local address (the address to bind)");
        }
        this.localPort = localPort;
        this.localAddresses = List.copyOf(localAddresses);
        this.options = options;
        this.journal = journal;
        this.tap = journal == null ? null : new JournalTap();
        if (journal != null) {
            random = journal.random(random);
            journalNow = now;
            journal.created(localPort, this.localAddresses, options, now);
        }
        this.random = random;
        this.secrets = new CookieSecrets(random, options.cookieSecretRotation().toNanos(), now);
    }

    /** The local port. */
    public int localPort() {
        return localPort;
    }

    /** The local addresses. */
    public List<InetAddress> localAddresses() {
        return localAddresses;
    }

    /** The options associations are created with. */
    public SctpOptions options() {
        return options;
    }

    /**
     * Lets {@code selector} choose addresses for the associations created from now on (see {@link
     * AddressPolicy}): the addresses listed in INIT and INIT ACK, which peer addresses are used
     * and in which order (from {@link #connect} and from the peer's INIT / INIT ACK; the primary
     * is the first path of the selector's matching), the source address towards each peer
     * address (the matching's pairs), and the CMT path set (the matching's peer addresses).
     *
     * <p>Without a policy (the default) the endpoint announces {@link #localAddresses()}, uses
     * every peer address in the order given and picks sources by longest prefix. The policy's
     * addresses must be ones the lower layer can send from and receive on.
     *
     * @param host the host's interfaces (for example {@code Interfaces.localInterfaces()} of
     *     {@code llp-raw})
     * @param selector {@link org.sctpj.stack.addr.DefaultAddressSelector#INSTANCE} for the rules of
     *     multi-domain clusters, or an {@link org.sctpj.stack.addr.ExplicitAddressSelector} with
     *     the user's lists
     * @param collisions what is known about colliding private addresses ({@link
     *     CollisionInfo#NONE} when nothing is)
     */
    public void setAddressPolicy(List<LocalInterface> host, AddressSelector selector, CollisionInfo collisions) {
        setAddressPolicy(new AddressPolicy(host, selector, collisions));
    }

    /** As {@link #setAddressPolicy(List, AddressSelector, CollisionInfo)}; {@code null} removes the policy. */
    public void setAddressPolicy(AddressPolicy policy) {
        if (journal != null) {
            journal.command("setAddressPolicy", journalNow, handingOut, policy == null ? "none" : policy);
        }
        this.policy = policy;
    }

    /** The address policy, if one is set. */
    public Optional<AddressPolicy> addressPolicy() {
        return Optional.ofNullable(policy);
    }

    /** Accept (true) or refuse (false, the default) associations initiated by peers. */
    public void listen(boolean on) {
        if (journal != null) {
            journal.command("listen", journalNow, handingOut, on);
        }
        listening = on;
    }

    /** Whether peers may initiate associations. */
    public boolean isListening() {
        return listening;
    }

    // ------------------------------------------------------------------ user commands

    /**
     * Starts an association to {@code peerPort} at the given peer addresses (the first is the
     * primary path; with an {@linkplain #setAddressPolicy address policy}, they are ranked and
     * filtered first, and the primary is the first of the policy's paths). The result arrives as
     * an {@link SctpEvent.AssociationChange} event: COMMUNICATION_UP, or CANT_START.
     *
     * @throws IllegalStateException if an association with one of these addresses and port exists
     * @throws IllegalArgumentException if the address policy finds none of the addresses usable
     */
    public AssociationId connect(List<InetAddress> peers, int peerPort, long now) {
        return connect(peers, peerPort, options, now);
    }

    /** As {@link #connect(List, int, long)}, with options for this association only. */
    public AssociationId connect(List<InetAddress> peers, int peerPort, SctpOptions opts, long now) {
        if (journal != null) {
            journal.command("connect", journalNow = now, handingOut, List.copyOf(peers), peerPort, opts);
        }
        if (peers.isEmpty()) {
            throw new IllegalArgumentException("give at least one peer address");
        }
        if (peerPort <= 0 || peerPort > 65535) {
            throw new IllegalArgumentException("peer port must be 1..65535, was " + peerPort);
        }
        for (InetAddress p : peers) {
            Schedule.Entry existing = byPeer.get(new PeerKey(p, peerPort));
            if (existing != null) {
                throw new IllegalStateException("an association with " + p + ":" + peerPort + " exists already ("
                        + existing.a.id() + "): use it, or shut it down first");
            }
        }
        AssociationId id = newId();
        call(() -> added(Association.connect(host, id, opts, peerPort, peers, now)));
        return id;
    }

    /**
     * Sends a message (non-blocking). Returns {@link SendStatus#WOULD_BLOCK} when the send buffer
     * has no room for it; nothing is taken then.
     *
     * @throws IllegalArgumentException for an unknown association, a stream that does not exist,
     *     an empty message or one over the maximum message size
     * @throws IllegalStateException if the association is not established or is shutting down
     */
    public SendStatus send(AssociationId id, SendInfo info, ByteBuffer data, long now) {
        if (journal != null) {
            journal.send(id, info, data, journalNow = now, handingOut);
        }
        Association a = assoc(id);
        enter();
        SendStatus s;
        try {
            s = a.send(info, data, now);
        } catch (RuntimeException | Error e) {
            exit(false, e);
            throw e;
        }
        exit(false, null);
        return s;
    }

    /**
     * As {@link #send(AssociationId, SendInfo, ByteBuffer, long)}, for a message in {@code
     * array[0..length)} that the core keeps, without a copy, once it returns {@link
     * SendStatus#ACCEPTED}: the caller must not touch the array afterwards. For an API that
     * already copied the message to hand it over from another thread.
     */
    public SendStatus sendOwned(AssociationId id, SendInfo info, byte[] array, int length, long now) {
        if (journal != null) {
            journal.send(id, info, ByteBuffer.wrap(array, 0, length), journalNow = now, handingOut);
        }
        Association a = assoc(id);
        enter();
        SendStatus s;
        try {
            s = a.sendOwned(info, array, length, now);
        } catch (RuntimeException | Error e) {
            exit(false, e);
            throw e;
        }
        exit(false, null);
        return s;
    }

    /** Starts a graceful shutdown of the association (RFC 9260 section 9.2). */
    public void shutdown(AssociationId id, long now) {
        if (journal != null) {
            journal.command("shutdown", journalNow = now, handingOut, id);
        }
        Association a = assoc(id);
        call(() -> a.shutdown(now));
    }

    /** Aborts the association with a User-Initiated Abort cause carrying {@code reason}. */
    public void abort(AssociationId id, byte[] reason, long now) {
        if (journal != null) {
            journal.command("abort", journalNow = now, handingOut, id, reason.clone());
        }
        Association a = assoc(id);
        call(() -> a.abort(Bytes.of(reason), now));
    }

    /**
     * The application is done with {@code bytes} of the association's delivered messages: with
     * {@link SctpOptions#deferredReceiveRelease()} they stop counting against the receive window
     * (a window-update SACK follows when it opened enough, RFC 9260 section 6.2). Does nothing
     * without that option, and for an association that is gone (the application may read its last
     * messages after the end).
     */
    public void releaseReceived(AssociationId id, long bytes) {
        if (journal != null) {
            journal.command("releaseReceived", journalNow, handingOut, id, bytes);
        }
        Schedule.Entry e = byId.get(id);
        if (e == null) {
            return;
        }
        schedule.touch(e);
        call(() -> e.a.releaseReceived(bytes));
    }

    /** Sets the send-space threshold of the association (see {@link SctpEvent.SendSpaceAvailable}). */
    public void setSendThreshold(AssociationId id, long bytes) {
        if (journal != null) {
            journal.command("setSendThreshold", journalNow, handingOut, id, bytes);
        }
        assoc(id).setSendThreshold(bytes);
    }

    /**
     * Sets the PR-SCTP policy of the association's messages sent without one of their own (RFC
     * 7496 section 4.4, SCTP_DEFAULT_PRINFO; {@link PrPolicy#RELIABLE} to send reliably, the
     * initial default). Takes effect for the next send.
     */
    public void setDefaultPrPolicy(AssociationId id, PrPolicy policy) {
        if (journal != null) {
            journal.command("setDefaultPrPolicy", journalNow, handingOut, id, policy);
        }
        assoc(id).setDefaultPrPolicy(java.util.Objects.requireNonNull(policy, "policy: use PrPolicy.RELIABLE"));
    }

    /**
     * The association's abandoned messages per policy (RFC 7496 section 4.5, SCTP_PR_ASSOC_STATUS),
     * or empty when it is gone.
     */
    public Optional<PrStatus> prStatus(AssociationId id) {
        Association a = peek(id);
        return a == null ? Optional.empty() : Optional.of(a.prStatus());
    }

    /**
     * The abandoned messages of outbound stream {@code streamId} of the association (RFC 7496
     * section 4.5, SCTP_PR_STREAM_STATUS), or empty when it is gone.
     *
     * @throws IllegalArgumentException for a stream id outside 0..65535
     */
    public Optional<PrStatus> prStatus(AssociationId id, int streamId) {
        org.sctpj.stack.wire.Wire.checkU16("streamId", streamId);
        Association a = peek(id);
        return a == null ? Optional.empty() : Optional.of(a.prStatus(streamId));
    }

    /**
     * Switches the association's stream scheduler (RFC 8260 section 3; the socket option
     * SCTP_PLUGGABLE_SS of section 4.3.2): from the next chunk of new data on, the streams take
     * turns by {@code kind}. Every queued message stays queued, in its stream's order; a message
     * partly sent as DATA is finished first. The per-stream values go back to their defaults
     * ({@link StreamSchedulerKind#defaultStreamValue()}). Before establishment the choice is kept
     * for when the association is up. The initial scheduler is {@link
     * SctpOptions#streamScheduler()}.
     *
     * @throws IllegalArgumentException for an unknown association
     * @throws NullPointerException for a null kind
     */
    public void setStreamScheduler(AssociationId id, StreamSchedulerKind kind) {
        if (journal != null) {
            journal.command("setStreamScheduler", journalNow, handingOut, id, kind);
        }
        assoc(id).setStreamScheduler(kind);
    }

    /**
     * The association's stream scheduler.
     *
     * @throws IllegalArgumentException for an unknown association
     */
    public StreamSchedulerKind streamScheduler(AssociationId id) {
        return assoc(id).streamScheduler();
    }

    /**
     * Sets the stream scheduler's value of one outbound stream (RFC 8260 section 4.3.3, the socket
     * option SCTP_SS_VALUE): the priority under {@link StreamSchedulerKind#PRIORITY} (0, the
     * default, is served first; 0..65535), the weight under {@link
     * StreamSchedulerKind#WEIGHTED_FAIR_QUEUEING} (1, the default, to 65535). Takes effect at the
     * stream's next turn; lasts until the scheduler is switched.
     *
     * @throws IllegalArgumentException for an unknown association, a stream that is not open, or a
     *     value out of the scheduler's range (the message gives the range)
     * @throws IllegalStateException before the association is established, or if its scheduler has
     *     no per-stream value (switch to one that has first)
     */
    public void setStreamValue(AssociationId id, int streamId, int value) {
        if (journal != null) {
            journal.command("setStreamValue", journalNow, handingOut, id, streamId, value);
        }
        assoc(id).setStreamValue(streamId, value);
    }

    /**
     * The stream scheduler's value of one outbound stream (its default if never set).
     *
     * @throws IllegalArgumentException for an unknown association or a stream that is not open
     * @throws IllegalStateException before the association is established
     */
    public int streamValue(AssociationId id, int streamId) {
        return assoc(id).streamValue(streamId);
    }

    /**
     * Resets the Stream Sequence Numbers of {@code streams} of the association (RFC 6525): of our
     * outgoing streams (section 5.1.2: the peer's receiver is told that the next message on each
     * starts at SSN 0) and/or, by asking the peer, of its outgoing streams towards us (section
     * 5.1.3). An empty array means every stream. Messages accepted on our reset streams after
     * this call wait until the peer answered; those accepted before are sent first. The outcome
     * comes as {@link SctpEvent.StreamReset} events, one per direction.
     *
     * @throws IllegalArgumentException for an unknown association, a stream that does not exist,
     *     or neither direction
     * @throws IllegalStateException when RE-CONFIG was not negotiated with the peer or the
     *     association is not established
     */
    public void resetStreams(AssociationId id, int[] streams, boolean outgoing, boolean incoming, long now) {
        if (journal != null) {
            journal.command("resetStreams", journalNow = now, handingOut, id, streams.clone(), outgoing, incoming);
        }
        Association a = assoc(id);
        int[] copy = streams.clone();
        call(() -> a.resetStreams(copy, outgoing, incoming, now));
    }

    /**
     * Resets the association's TSNs and every stream's SSNs in both directions (RFC 6525 section
     * 5.1.4): every stream waits until our data sent so far is acknowledged and the peer
     * answered. The outcome comes as an {@link SctpEvent.AssociationReset} event.
     *
     * @throws IllegalArgumentException for an unknown association
     * @throws IllegalStateException when RE-CONFIG was not negotiated, the association is not
     *     established, or an association reset is already under way
     */
    public void resetAssociation(AssociationId id, long now) {
        if (journal != null) {
            journal.command("resetAssociation", journalNow = now, handingOut, id);
        }
        Association a = assoc(id);
        call(() -> a.resetAssociation(now));
    }

    /**
     * Adds {@code outbound} outgoing streams (RFC 6525 section 5.1.5) and asks the peer to add
     * {@code inbound} streams towards us (section 5.1.6). The outcome comes as {@link
     * SctpEvent.StreamChange} events; new outgoing streams can be used once one reports them.
     *
     * @throws IllegalArgumentException for an unknown association, negative counts, none at all,
     *     or more than 65535 streams in a direction
     * @throws IllegalStateException when RE-CONFIG was not negotiated or the association is not
     *     established
     */
    public void addStreams(AssociationId id, int outbound, int inbound, long now) {
        if (journal != null) {
            journal.command("addStreams", journalNow = now, handingOut, id, outbound, inbound);
        }
        Association a = assoc(id);
        call(() -> a.addStreams(outbound, inbound, now));
    }

    /**
     * Which stream reconfiguration requests the peer may make of the association (RFC 6525
     * section 6.3.1, SCTP_ENABLE_STREAM_RESET); the others are answered Denied. Starts as {@link
     * SctpOptions#acceptedReconfigRequests()}.
     *
     * @throws IllegalArgumentException for an unknown association
     */
    public void setAcceptedReconfigRequests(AssociationId id, java.util.Set<ReconfigRequestKind> kinds) {
        if (journal != null) {
            journal.command("setAcceptedReconfigRequests", journalNow, handingOut, id, java.util.Set.copyOf(kinds));
        }
        assoc(id).setAcceptedReconfigRequests(kinds);
    }

    /**
     * The peer's SCTP port of the association: the one given to connect, or for an association a
     * peer started the source port of its INIT (RFC 9260 section 3.1).
     *
     * @throws IllegalArgumentException for an unknown association
     */
    public int peerPort(AssociationId id) {
        return assoc(id).peerPort();
    }

    // ------------------------------------------------------------------ AUTH keys (RFC 4895, RFC 6458)

    /**
     * Sets the endpoint pair shared key {@code keyId} (0..65535) of the endpoint (RFC 6458 section
     * 8.1.22 SCTP_AUTH_KEY with SCTP_FUTURE_ASSOC): associations made from now on start with it;
     * live ones keep their own keys (use the form with an association for them). Key 0 exists from
     * the start, empty (RFC 4895 section 6.2). A key never travels: both ends must set the same.
     *
     * @throws IllegalArgumentException for an identifier outside 0..65535 or a key over {@link
     *     SharedKeys#MAX_KEY_LENGTH} bytes
     * @throws IllegalStateException when {@link SharedKeys#MAX_KEYS} keys exist already
     */
    public void setAuthKey(int keyId, byte[] key) {
        if (journal != null) {
            journal.command("setAuthKey", journalNow, handingOut, keyId, key.clone());
        }
        keys.set(keyId, key);
    }

    /** Makes {@code keyId} the key new associations send with (SCTP_AUTH_ACTIVE_KEY, endpoint-wide). */
    public void setActiveAuthKey(int keyId) {
        if (journal != null) {
            journal.command("setActiveAuthKey", journalNow, handingOut, keyId);
        }
        keys.activate(keyId);
    }

    /** Deactivates {@code keyId} for new associations (SCTP_AUTH_DEACTIVATE_KEY, endpoint-wide). */
    public void deactivateAuthKey(int keyId) {
        if (journal != null) {
            journal.command("deactivateAuthKey", journalNow, handingOut, keyId);
        }
        keys.deactivate(keyId);
    }

    /** Deletes {@code keyId} for new associations (SCTP_AUTH_DELETE_KEY, endpoint-wide). */
    public void deleteAuthKey(int keyId) {
        if (journal != null) {
            journal.command("deleteAuthKey", journalNow, handingOut, keyId);
        }
        keys.delete(keyId);
    }

    /** The key new associations send with. */
    public int activeAuthKey() {
        return keys.active();
    }

    /**
     * Sets the association's shared key {@code keyId} (RFC 6458 section 8.1.22 SCTP_AUTH_KEY): it
     * verifies what the peer sends with it at once, and is sent with once made active.
     *
     * @throws IllegalArgumentException for an unknown association, an identifier outside
     *     0..65535 or a key too long
     */
    public void setAuthKey(AssociationId id, int keyId, byte[] key) {
        if (journal != null) {
            journal.command("setAuthKey", journalNow, handingOut, id, keyId, key.clone());
        }
        assoc(id).tcb().auth.setKey(keyId, key);
    }

    /**
     * Makes {@code keyId} the key the association sends with (RFC 6458 section 8.1.23
     * SCTP_AUTH_ACTIVE_KEY): the next packet that needs AUTH uses it. Set the same key at the
     * peer first: until then the peer discards what we authenticate with it.
     *
     * @throws IllegalArgumentException for an unknown association or key
     */
    public void setActiveAuthKey(AssociationId id, int keyId) {
        if (journal != null) {
            journal.command("setActiveAuthKey", journalNow, handingOut, id, keyId);
        }
        assoc(id).tcb().auth.activateKey(keyId);
    }

    /**
     * Deactivates the association's key {@code keyId} (RFC 6458 section 8.3.5
     * SCTP_AUTH_DEACTIVATE_KEY): it is no longer sent with, still accepted; a {@link
     * SctpEvent.Authentication} FREE_KEY event says it may be deleted.
     *
     * @throws IllegalStateException for the active key (activate another one first)
     */
    public void deactivateAuthKey(AssociationId id, int keyId) {
        if (journal != null) {
            journal.command("deactivateAuthKey", journalNow, handingOut, id, keyId);
        }
        Association a = assoc(id);
        call(() -> a.tcb().auth.deactivateKey(keyId));
    }

    /**
     * Deletes the association's key {@code keyId} (RFC 6458 section 8.3.4 SCTP_AUTH_DELETE_KEY):
     * what the peer authenticates with it is discarded from now on.
     *
     * @throws IllegalStateException for the active key (activate another one first)
     */
    public void deleteAuthKey(AssociationId id, int keyId) {
        if (journal != null) {
            journal.command("deleteAuthKey", journalNow, handingOut, id, keyId);
        }
        assoc(id).tcb().auth.deleteKey(keyId);
    }

    /** The key the association sends with (SCTP_AUTH_ACTIVE_KEY). */
    public int activeAuthKey(AssociationId id) {
        return assoc(id).tcb().auth.activeKey();
    }

    /**
     * The chunk types the peer requires us to authenticate (RFC 6458 section 8.2.3
     * SCTP_PEER_AUTH_CHUNKS); empty when the association does not use AUTH.
     */
    public java.util.Set<Integer> peerAuthChunks(AssociationId id) {
        return assoc(id).tcb().auth.peerRequiredChunks();
    }

    /**
     * The chunk types we require the peer to authenticate on this association (RFC 6458 section
     * 8.2.4 SCTP_LOCAL_AUTH_CHUNKS); empty when the association does not use AUTH.
     */
    public java.util.Set<Integer> localAuthChunks(AssociationId id) {
        return assoc(id).tcb().auth.localRequiredChunks();
    }

    /** Makes {@code address} the association's primary path. */
    public void setPrimary(AssociationId id, InetAddress address) {
        if (journal != null) {
            journal.command("setPrimary", journalNow, handingOut, id, address);
        }
        Association a = assoc(id);
        call(() -> a.setPrimary(address));
    }

    /**
     * Adds {@code address} to this endpoint's addresses (RFC 5061, SCTP_BINDX_ADD_ADDR of RFC 6458
     * section 9.1 on a live endpoint): associations set up from now on announce it, and each live
     * association using {@link Extension#ASCONF} asks its peer to add it (Add IP Address); a {@link
     * SctpEvent.LocalAddressChange} (ADDED, or ADD_FAILED with the peer's causes) says how each
     * ended, and the association sends from the address only once ADDED. Associations without
     * ASCONF keep the addresses they had. The lower layer must already receive on the address.
     *
     * @throws IllegalArgumentException if it is an address of the endpoint already, the wildcard
     *     or a multicast address
     */
    public void addLocalAddress(InetAddress address, long now) {
        if (journal != null) {
            journal.command("addLocalAddress", journalNow, handingOut, address);
        }
        if (address == null || address.isAnyLocalAddress() || address.isMulticastAddress()) {
            throw new IllegalArgumentException("pass a unicast address of this host, not " + address);
        }
        if (localAddresses.contains(address)) {
            throw new IllegalArgumentException(address + " is already an address of this endpoint: " + localAddresses);
        }
        call(() -> {
            for (Schedule.Entry e : List.copyOf(byId.values())) {
                schedule.touch(e);
                org.sctpj.stack.asconf.AddressReconfiguration r = e.a.tcb().asconf;
                r.pin(localAddresses);
                if (r.usable()) {
                    r.requestAdd(address, now);
                }
            }
            List<InetAddress> l = new ArrayList<>(localAddresses);
            l.add(address);
            localAddresses = List.copyOf(l);
        });
    }

    /**
     * Removes {@code address} from this endpoint's addresses (RFC 5061, SCTP_BINDX_REM_ADDR of RFC
     * 6458 section 9.1 on a live endpoint): nothing leaves from it any more; each live association
     * using {@link Extension#ASCONF} for which it is not the last address asks its peer to delete
     * it (Delete IP Address), with a {@link SctpEvent.LocalAddressChange} (REMOVED, or
     * REMOVE_FAILED) when the peer answered. An association without ASCONF, or for which it is
     * the last address, cannot tell its peer: the peer keeps sending there until that path fails.
     *
     * @throws IllegalArgumentException if it is not an address of the endpoint, or is its last
     */
    public void removeLocalAddress(InetAddress address, long now) {
        if (journal != null) {
            journal.command("removeLocalAddress", journalNow, handingOut, address);
        }
        if (!localAddresses.contains(address)) {
            throw new IllegalArgumentException(address + " is not an address of this endpoint: " + localAddresses);
        }
        if (localAddresses.size() == 1) {
            throw new IllegalArgumentException(
                    "cannot remove " + address + ", the endpoint's last address: add another one first");
        }
        call(() -> {
            for (Schedule.Entry e : List.copyOf(byId.values())) {
                schedule.touch(e);
                org.sctpj.stack.asconf.AddressReconfiguration r = e.a.tcb().asconf;
                r.pin(localAddresses);
                java.util.Set<InetAddress> mine = r.localAddresses();
                if (r.usable() && mine.contains(address) && mine.size() > 1) {
                    r.requestDelete(address, now);
                } else {
                    r.dropWithoutAsconf(address);
                }
            }
            List<InetAddress> l = new ArrayList<>(localAddresses);
            l.remove(address);
            localAddresses = List.copyOf(l);
        });
    }

    /**
     * Whether a live association still uses our {@code address} after {@link #removeLocalAddress}:
     * one for which it is the last address, or whose peer has not yet answered the request to
     * delete it (it may send there until it does). A lower layer keeps receiving on the address
     * until this turns false (the {@link SctpEvent.LocalAddressChange} REMOVED or REMOVE_FAILED
     * events, and association ends, are when to look again).
     */
    public boolean localAddressInUse(InetAddress address) {
        for (Schedule.Entry e : byId.values()) {
            if (e.a.tcb().asconf.holds(address)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Asks the peer of association {@code id} to send to our {@code address} as its primary
     * (RFC 5061 section 4.2.4 Set Primary Address; SCTP_SET_PEER_PRIMARY_ADDR of RFC 6458 section
     * 8.3.2); a {@link SctpEvent.LocalAddressChange} MADE_PRIMARY (or SET_PRIMARY_FAILED) gives
     * the answer.
     *
     * @throws IllegalArgumentException for an unknown association, or an address that is not one
     *     of the association's (nor being added)
     * @throws IllegalStateException when the association does not use {@link Extension#ASCONF} (the
     *     message says what both ends must offer), or is not established
     */
    public void setPeerPrimary(AssociationId id, InetAddress address, long now) {
        if (journal != null) {
            journal.command("setPeerPrimary", journalNow, handingOut, id, address);
        }
        Association a = assoc(id);
        call(() -> a.tcb().asconf.requestSetPrimary(address, now));
    }

    /**
     * Which requests the peer of association {@code id} may make of its addresses with ASCONF
     * (all by default); one of another kind is refused with "Request Refused - No Authorization"
     * (RFC 5061 section 4.3).
     */
    public void setAcceptedAddressRequests(
            AssociationId id, java.util.Set<org.sctpj.stack.asconf.AddressReconfiguration.Kind> kinds) {
        if (journal != null) {
            journal.command("setAcceptedAddressRequests", journalNow, handingOut, id, java.util.Set.copyOf(kinds));
        }
        assoc(id).tcb().asconf.setAcceptedRequests(kinds);
    }

    /** Sets the MTU of the path to {@code address}. */
    public void setPathMtu(AssociationId id, InetAddress address, int mtu) {
        if (journal != null) {
            journal.command("setPathMtu", journalNow, handingOut, id, address, mtu);
        }
        assoc(id).setPathMtu(address, mtu);
    }

    /**
     * Free bytes in the association's send buffer now (0 before it is established), or empty when
     * the association is gone: cheaper than {@link #info} for callers that check on every SACK.
     */
    public java.util.OptionalLong sendBufferFree(AssociationId id) {
        Association a = peek(id);
        return a == null ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(a.sendBufferFree());
    }

    /**
     * Bytes of the association's send buffer held by data sent and not yet cumulatively
     * acknowledged (RFC 9260 section 6.2.1), less what an NR-SACK acknowledged as non-renegable
     * ({@link Extension#NR_SACK}); the rest of the used buffer is data not sent yet. Empty when the
     * association is gone.
     */
    public java.util.OptionalLong sendBufferOutstanding(AssociationId id) {
        Association a = peek(id);
        return a == null ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(a.sendBufferOutstanding());
    }

    /** The live associations. */
    public List<AssociationId> associations() {
        return List.copyOf(byId.keySet());
    }

    /** A snapshot of an association's state, if it exists. */
    public Optional<AssociationInfo> info(AssociationId id) {
        Association a = peek(id);
        return a == null ? Optional.empty() : Optional.of(AssociationInfo.of(a));
    }

    /** The counters of an association, both directions and per path, if it exists. */
    public Optional<AssociationStats> associationStats(AssociationId id) {
        Association a = peek(id);
        return a == null ? Optional.empty() : Optional.of(AssociationStats.of(a));
    }

    /**
     * Sets who hears of state changes, path status changes, T3-rtx expirations and fast
     * retransmissions ({@link Probe}); null for none (the default). Owner thread.
     */
    public void setProbe(Probe probe) {
        this.probe = probe;
        schedule.trackTouched(probe != null);
    }

    /**
     * Tells the probe, if one is set and enabled, what changed in each association that ran since
     * the last report (no other can have changed).
     */
    private void reportToProbe() {
        Probe p = probe;
        schedule.takeTouched(p != null && p.enabled() ? reportToProbe : IGNORE);
    }

    /**
     * What explicit congestion notification (RFC 9260 appendix A) did on an association so far, if
     * it exists: all zero unless it negotiated {@link Extension#ECN}.
     */
    public Optional<EcnStats> ecnStats(AssociationId id) {
        Association a = peek(id);
        return a == null ? Optional.empty() : Optional.of(a.tcb().ecn.stats());
    }

    /** What path MTU discovery (RFC 8899) did on each path of an association, if it exists. */
    public Optional<List<PmtuStats>> pmtuStats(AssociationId id) {
        Association a = peek(id);
        return a == null ? Optional.empty() : Optional.of(a.tcb().pmtu.stats());
    }

    /**
     * The association {@code id} for a command that may change it: it is {@linkplain #touch
     * touched} (so that what the command makes it send, and its new deadlines, are seen).
     *
     * @throws IllegalArgumentException when it is not a live association
     */
    private Association assoc(AssociationId id) {
        Schedule.Entry e = byId.get(id);
        if (e == null) {
            throw new IllegalArgumentException(
                    id + " is not a live association of this endpoint (closed or never opened)");
        }
        schedule.touch(e);
        return e.a;
    }

    /** The association {@code id} for reading only (nothing in it changes), or null. */
    private Association peek(AssociationId id) {
        Schedule.Entry e = byId.get(id);
        return e == null ? null : e.a;
    }

    /** {@code e} is about to run code for an input or a timer: see {@link Schedule#touch}. */
    private Association touch(Schedule.Entry e) {
        schedule.touch(e);
        return e.a;
    }

    /** A new association: into the maps and the schedule. */
    private void added(Association a) {
        Schedule.Entry e = entryOf(a);
        byTag.putIfAbsent(a.localTag(), e);
        schedule.touch(e);
    }

    /** The entry of {@code a}, made on first use (its paths are registered while it is built). */
    private Schedule.Entry entryOf(Association a) {
        Schedule.Entry e = byId.get(a.id());
        if (e == null) {
            e = new Schedule.Entry(a);
            byId.put(a.id(), e);
        }
        return e;
    }

    // ------------------------------------------------------------------ input

    /**
     * A packet arrived from {@code from} to {@code to} (the SCTP packet: common header and chunks,
     * from the buffer's position to its limit; the buffer is not kept).
     */
    public void handleInput(ByteBuffer packet, InetAddress from, InetAddress to, long now) {
        handleInput(packet, from, to, Ecn.NOT_ECT, now);
    }

    /**
     * As {@link #handleInput(ByteBuffer, InetAddress, InetAddress, long)}, with the ECN codepoint
     * the packet's IP header carried ({@link Ecn}), for lower layers that can read it: a Congestion
     * Experienced mark on a packet with DATA of an association that negotiated {@link
     * Extension#ECN} is echoed to the peer (RFC 9260 appendix A).
     */
    public void handleInput(ByteBuffer packet, InetAddress from, InetAddress to, int ecn, long now) {
        if (journal != null) {
            journal.packetIn(packet, from, to, ecn, journalNow = now);
        }
        enter();
        try {
            input(packet, from, to, ecn, now);
        } catch (RuntimeException | Error e) {
            exit(true, e);
            throw e;
        }
        exit(true, null);
    }

    private void input(ByteBuffer packet, InetAddress from, InetAddress to, int ecn, long now) {
        stats.received++;
        int n = packet.remaining();
        if (n >= SctpPacket.HEADER_LENGTH && !Crc32c.verify(packet, packet.position(), n)) {
            stats.badChecksum++;
            if (journal != null) {
                journal.badChecksum();
            }
            return;
        }
        Parsed<InboundPacket> framed = inbound.frame(packet, from, to);
        if (!framed.isOk()) {
            stats.malformed++;
            return;
        }
        InboundPacket pkt = framed.value();
        pkt.setEcn(ecn);
        if (pkt.destinationPort() != localPort) {
            stats.wrongPort++;
            return;
        }
        if (pkt.type(0) == ChunkType.COOKIE_ECHO) {
            cookieEcho(pkt, 0, now); // routed by the cookie, not by the source address
            return;
        }
        if (pkt.type(0) == ChunkType.AUTH && pkt.chunkCount() > 1 && pkt.type(1) == ChunkType.COOKIE_ECHO) {
            cookieEcho(pkt, 1, now); // RFC 4895 section 6.3: an authenticated COOKIE ECHO
            return;
        }
        Schedule.Entry a;
        if (lastAssoc != null && pkt.sourcePort() == lastFromPort && from.equals(lastFrom)) {
            a = lastAssoc;
        } else {
            a = byPeer.get(new PeerKey(from, pkt.sourcePort()));
            if (a != null) {
                lastAssoc = a;
                lastFrom = from;
                lastFromPort = pkt.sourcePort();
            }
        }
        if (a != null) {
            touch(a).handlePacket(pkt, now);
            return;
        }
        a = asconfOwner(pkt);
        if (a != null) {
            touch(a).handlePacket(pkt, now); // an ASCONF from an address the association does not know yet
            return;
        }
        outOfTheBlue(pkt, now);
    }

    /**
     * RFC 5061 section 5.2: a packet from an address no association knows whose first chunk (after
     * an AUTH chunk) is an ASCONF belongs to the association of the ASCONF's Address Parameter (a
     * peer that moved to a new address asks from it to add it). The association then judges the
     * packet as any other: a Verification Tag not its own drops it, and the ASCONF is taken only
     * after a verified AUTH chunk (section 4.1.1), so a forged Address Parameter naming another
     * association gains nothing. Null for any other packet.
     */
    private Schedule.Entry asconfOwner(InboundPacket pkt) {
        int n = pkt.chunkCount();
        int i = n > 0 && pkt.type(0) == ChunkType.ASCONF
                ? 0
                : n > 1 && pkt.type(0) == ChunkType.AUTH && pkt.type(1) == ChunkType.ASCONF ? 1 : -1;
        if (i < 0 || byPeer.isEmpty()) {
            return null;
        }
        Parsed<? extends Chunk> d = Chunks.decode(pkt.buffer(), pkt.offset(i), pkt.length(i));
        if (!d.isOk()
                || !(d.value() instanceof org.sctpj.stack.wire.chunk.AsconfChunk c)
                || !(c.address() instanceof org.sctpj.stack.wire.param.AddressParameter ap)
                || ap.address().isAnyLocalAddress()) {
            return null;
        }
        return byPeer.get(new PeerKey(ap.address(), pkt.sourcePort()));
    }

    /**
     * An ICMP or ICMPv6 error about a packet we sent, as the lower layer reports it (RFC 9260
     * appendix C; RFC 6951 section 5.5 over UDP encapsulation). The association is found by the
     * quoted peer address and port (ICMP5: none, and the report is ignored); it then acts only if
     * the quoted Verification Tag is its peer's, or for a quoted INIT, if the Initiate Tag is its
     * own (ICMP6), so a blind ICMP cannot end an association. What it does then is {@link
     * org.sctpj.stack.icmp.IcmpHandling}'s: a Port Unreachable over UDP or a Protocol Unreachable
     * ends the setup in COOKIE-WAIT (CANT_START) or the association (COMMUNICATION_LOST); a host or
     * network unreachable counts as an error of its path; a Packet Too Big is recorded, and with
     * {@link SctpOptions#pmtuDiscovery()} lowers the path's MTU (RFC 8899 section 4.6.2). Ignored
     * when the association's {@link SctpOptions#icmpHandling()} is off. Counted in {@link
     * #stats()}. Never throws for any report.
     */
    public void handleIcmp(IcmpReport report, long now) {
        if (journal != null) {
            journal.icmp(report, journalNow = now);
        }
        enter();
        try {
            icmp(report, now);
        } catch (RuntimeException | Error e) {
            exit(false, e);
            throw e;
        }
        exit(false, null);
    }

    private void icmp(IcmpReport report, long now) {
        stats.icmpReceived++;
        Schedule.Entry a = report.sourcePort() == localPort
                ? byPeer.get(new PeerKey(report.destination(), report.destinationPort()))
                : null;
        IcmpHandling.Outcome o = a == null ? IcmpHandling.Outcome.NOT_VERIFIED : touch(a).handleIcmp(report, now);
        switch (o) {
            case NOT_VERIFIED -> stats.icmpNotVerified++;
            case ACTED, RECORDED -> stats.icmpActedOn++;
            default -> {}
        }
    }

    /** RFC 9260 section 8.4, and section 5.1 for INIT and COOKIE ECHO without an association. */
    private void outOfTheBlue(InboundPacket pkt, long now) {
        int first = pkt.type(0);
        if (first == ChunkType.INIT) {
            initWithoutAssociation(pkt, now);
            return;
        }
        stats.outOfTheBlue++;
        int vtag = pkt.verificationTag();
        if (pkt.contains(ChunkType.ABORT)) {
            return; // 8.4 (2)
        }
        switch (first) {
            case ChunkType.SHUTDOWN_ACK ->
            // 8.4 (5): SHUTDOWN COMPLETE with the T bit, reflecting the packet's tag.
            reply(pkt, vtag, new ShutdownCompleteChunk(true));
            case ChunkType.SHUTDOWN_COMPLETE, ChunkType.COOKIE_ACK -> {
                // 8.4 (6), (7): discard
            }
            case ChunkType.ERROR -> {
                // 8.4 (7): discard (a Stale Cookie error or anything else needs no answer)
            }
            default ->
            // 8.4 (8): ABORT with the T bit, reflecting the packet's tag.
            reply(pkt, vtag, AbortChunk.of(true));
        }
    }

    /**
     * Every COOKIE ECHO (RFC 9260 sections 5.1.5 and 5.2.4). The cookie is opened first: it says
     * whose it is. An authentic cookie binds
     *
     * <ul>
     *   <li>both Verification Tags, which the packet must carry (ours) and which tie it to an
     *       existing association: a COOKIE ECHO whose tags are an association's belongs to it (case
     *       D) from whichever of the cookie's addresses it comes, and is answered by that
     *       association, never by a new one; with tie-tags, to the association they name (case A);
     *   <li>both ports, which the packet must carry;
     *   <li>the local address the INIT arrived on, which the association answers from;
     *   <li>the peer addresses: the INIT's source first, then those the INIT listed. A COOKIE ECHO
     *       from any other address is discarded and counted ({@link
     *       EndpointStats#cookiesFromUnlistedAddress}): a copied cookie can neither be used from
     *       elsewhere nor make an association towards an address the peer never claimed. The
     *       INIT's source, where the INIT ACK with the cookie went, is the new association's only
     *       confirmed address and its primary; the COOKIE ECHO's source does not choose it;
     *   <li>its lifetime: an expired cookie is answered with a Stale Cookie error tagged with the
     *       cookie's peer tag (the tag of the peer that sent it), unless both its tags are those of
     *       an existing association (5.2.4 step 3: then it is a retransmission, case D).
     * </ul>
     *
     * A cookie that concerns no association creates one (5.1.5), once: replaying it afterwards
     * finds that association by its tags.
     *
     * <p>{@code ci} is the COOKIE ECHO's chunk: 1 when an AUTH chunk precedes it (RFC 4895 section
     * 6.3). Without an association, the AUTH chunk is checked with the key vectors the cookie
     * carries and the endpoint's shared keys, and the packet is discarded unless it verifies; a
     * COOKIE ECHO without AUTH is discarded when the cookie's association would use AUTH and we
     * require COOKIE ECHO to be authenticated. An existing association checks with its own.
     */
    private void cookieEcho(InboundPacket pkt, int ci, long now) {
        int vtag = pkt.verificationTag();
        boolean known = byTag.get(vtag) != null || byPeer.get(new PeerKey(pkt.from(), pkt.sourcePort())) != null;
        if (!known) {
            stats.outOfTheBlue++;
        }
        if (!listening && !known) {
            if (!pkt.contains(ChunkType.ABORT)) {
                reply(pkt, vtag, AbortChunk.of(true)); // 8.4 (8): nobody listens
            }
            return;
        }
        Parsed<? extends Chunk> p = Chunks.decode(pkt.buffer(), pkt.offset(ci), pkt.length(ci));
        if (!p.isOk() || !(p.value() instanceof CookieEchoChunk echo)) {
            stats.malformed++;
            return;
        }
        StateCookie.Opened opened = StateCookie.open(echo.cookie(), secrets, now);
        StateCookie c;
        long staleness = -1;
        if (opened instanceof StateCookie.Valid valid) {
            c = valid.cookie();
        } else if (opened instanceof StateCookie.Stale stale) {
            c = stale.cookie();
            staleness = stale.stalenessMicros();
        } else {
            stats.badCookies++;
            return; // forged or altered: silently discarded (5.1.5 step 2)
        }
        if (vtag != c.localTag() || c.peerPort() != pkt.sourcePort() || c.localPort() != localPort) {
            stats.badCookies++;
            return;
        }
        if (!c.peerAddresses().contains(pkt.from())) {
            stats.cookiesFromUnlistedAddress++;
            return;
        }
        Schedule.Entry owner = cookieOwner(c);
        if (owner != null
                && (staleness < 0 || (owner.a.localTag() == c.localTag() && owner.a.peerTag() == c.peerTag()))) {
            touch(owner).handleCookieEcho(pkt, ci, c, now);
            return;
        }
        boolean authenticated = false;
        if (ci == 1) {
            if (Authentication.verifyWith(pkt, 0, c.localAuth(), c.peerAuth(), keys) != Authentication.Verdict.OK) {
                stats.badCookies++;
                return;
            }
            authenticated = true;
        } else if (c.localAuth() != null
                && c.peerAuth() != null
                && c.localAuth().chunks() != null
                && c.localAuth().chunks().contains(ChunkType.COOKIE_ECHO)) {
            stats.badCookies++;
            return; // RFC 4895 section 6.3: we require COOKIE ECHO to be authenticated
        }
        if (staleness >= 0) {
            // 5.1.5 step 3 / 5.2.4 step 3: Stale Cookie error, tagged for the peer that sent it.
            stats.staleCookies++;
            reply(pkt, c.peerTag(), new ErrorChunk(List.of(new StaleCookieCause((int)
                    Math.min(staleness, 0xffffffffL)))));
            return;
        }
        if (!listening) {
            reply(pkt, vtag, AbortChunk.of(true));
            return;
        }
        AssociationId id = newId();
        Association a = Association.fromCookie(host, id, options, c, pkt.from(), pkt.to(), now);
        added(a);
        a.handlePacket(pkt, ci + 1, authenticated, now); // chunks bundled after the COOKIE ECHO
    }

    /**
     * The association an authentic cookie concerns (RFC 9260 section 5.2.4): the one whose tag is
     * the cookie's (cases B and D), else the one its local tie-tag names (case A), else one that
     * has any of its peer addresses (case C, or a conflicting cookie: never a second association
     * over the same addresses); null when none.
     */
    private Schedule.Entry cookieOwner(StateCookie c) {
        Schedule.Entry a = byTag.get(c.localTag());
        if (a != null && a.a.peerPort() == c.peerPort()) {
            return a;
        }
        if (c.localTieTag() != 0) {
            a = byTag.get(c.localTieTag());
            if (a != null && a.a.peerPort() == c.peerPort()) {
                return a;
            }
        }
        return ownerOfAny(c.peerAddresses(), c.peerPort());
    }

    /** The association with any of {@code addresses} (at most the first 16 are looked at) and {@code port}. */
    private Schedule.Entry ownerOfAny(List<InetAddress> addresses, int port) {
        int n = Math.min(addresses.size(), StateCookie.MAX_ADDRESSES);
        for (int i = 0; i < n; i++) {
            Schedule.Entry a = byPeer.get(new PeerKey(addresses.get(i), port));
            if (a != null) {
                return a;
            }
        }
        return null;
    }

    /**
     * An INIT that arrived from an address and port of no association (RFC 9260 section 5.1, 8.4
     * rule 3, 8.5.1 A). One that lists an address of an association is that association's (section
     * 5.2.2: it refuses the new source address); any other is answered statelessly.
     */
    private void initWithoutAssociation(InboundPacket pkt, long now) {
        if (pkt.verificationTag() != 0 || pkt.chunkCount() != 1) {
            stats.outOfTheBlue++;
            return; // 8.5.1 A: an INIT travels alone with tag 0
        }
        Parsed<? extends Chunk> p = Chunks.decode(pkt.buffer(), pkt.offset(0), pkt.length(0));
        if (!p.isOk() || !(p.value() instanceof InitChunk init)) {
            stats.outOfTheBlue++;
            stats.malformed++;
            return;
        }
        Schedule.Entry owner =
                byPeer.isEmpty() ? null : ownerOfAny(InitHandling.read(init.parameters()).addresses, pkt.sourcePort());
        if (owner != null) {
            touch(owner).handlePacket(pkt, now);
            return;
        }
        stats.outOfTheBlue++;
        if (!listening) {
            // 8.4 (3): nobody listens: ABORT tagged with the INIT's Initiate Tag.
            reply(pkt, init.initiateTag(), AbortChunk.of(false));
            return;
        }
        Handshake.answerInit(
                        host,
                        options,
                        init,
                        pkt.sourcePort(),
                        pkt.from(),
                        pkt.to(),
                        unusedTag(),
                        random.nextInt(),
                        0,
                        0,
                        Authentication.offer(options, random),
                        now)
                .ifPresent(ans -> reply(pkt, ans.verificationTag(), ans.chunk()));
    }

    /** A random non-zero tag that no association of ours uses. */
    private int unusedTag() {
        int t;
        do {
            t = newTag();
        } while (byTag.containsKey(t));
        return t;
    }

    /** A random non-zero tag of this shard's class (see {@link #shard}). */
    private int newTag() {
        int t = Handshake.randomTag(random);
        if (shards == 1) {
            return t;
        }
        while (true) {
            long u = Integer.toUnsignedLong(t);
            long v = u - u % shards + shardIndex;
            if (v > 0xffff_ffffL) {
                v -= shards;
            }
            if (v != 0) {
                return (int) v;
            }
            t = Handshake.randomTag(random);
        }
    }

    /** The next association id: of this shard's class (see {@link #shard}). */
    private AssociationId newId() {
        AssociationId id = new AssociationId(nextId);
        nextId += shards;
        return id;
    }

    /**
     * Makes this endpoint shard {@code index} of {@code count} that share one port and one lower
     * layer, each on its own thread (issue 15): the Verification Tags it chooses for its
     * associations (RFC 9260 section 5.3.1) are all {@code index} modulo {@code count} (unsigned),
     * so that a receiver sharing the socket can hand each packet to its shard by the tag alone,
     * and its association ids are {@code index + 1} modulo {@code count}, so that ids of all shards
     * differ and say their shard. A tag keeps 32 - log2(count) random bits. Call it right after
     * construction, before any association exists.
     *
     * @throws IllegalArgumentException for a count outside 1..1024 or an index outside 0..count-1
     * @throws IllegalStateException once an association was made
     */
    public void shard(int count, int index) {
        if (journal != null) {
            journal.command("shard", journalNow, handingOut, count, index);
        }
        if (count < 1 || count > 1024 || index < 0 || index >= count) {
            throw new IllegalArgumentException("shard " + index + " of " + count + ": count 1..1024, index 0..count-1");
        }
        if (nextId != shardIndex + 1) {
            throw new IllegalStateException("shard the endpoint before its first association");
        }
        shards = count;
        shardIndex = index;
        nextId = index + 1;
    }

    private void reply(InboundPacket pkt, int vtag, Chunk chunk) {
        if (endpointOutput.size() >= MAX_ENDPOINT_OUTPUT) {
            stats.outputDropped++;
            return;
        }
        SctpPacket out = SctpPacket.of(pkt.destinationPort(), pkt.sourcePort(), vtag, chunk);
        endpointOutput.add(new Transmit(out.toBytes(), pkt.to(), pkt.from()));
    }

    // ------------------------------------------------------------------ time

    /**
     * The earliest deadline of any association, or {@link Long#MAX_VALUE} when none. Its cost grows
     * with the associations that ran since the last call, not with those that stayed idle.
     */
    public long nextTimeout() {
        return schedule.nextTimeout();
    }

    /** Runs every timer due at {@code now}. */
    public void handleTimeout(long now) {
        if (journal != null) {
            journal.timeout(journalNow = now);
        }
        enter();
        try {
            // Only the associations with a timer due: taken off the heap, run, and back in (touched).
            schedule.settle();
            Schedule.Entry e;
            while ((e = schedule.pollDue(now)) != null) {
                touch(e).handleTimeout(now);
            }
        } catch (RuntimeException | Error e) {
            exit(false, e);
            throw e;
        }
        exit(false, null);
    }

    // ------------------------------------------------------------------ output

    /**
     * The allocation-free form of {@link #pollTransmit(long)}: writes the next packet (checksum
     * filled) into {@code out} from its position and returns its destination, or returns {@code
     * null} when there is nothing to send now. On return with a packet, {@code out}'s position is
     * unchanged and its limit is the end of the packet (hand it to the lower layer as it is);
     * {@link #transmitSource()} is the address to send it from. Without a packet, {@code out}'s
     * position and limit are as they were.
     *
     * @param out a writable buffer with room for the largest packet of any path (a pooled direct
     *     buffer of 65535 bytes fits all); less room makes smaller DATA packets
     */
    public InetAddress pollTransmit(ByteBuffer out, long now) {
        if (journal == null) {
            return poll(out, now);
        }
        int room = out.remaining();
        InetAddress d = poll(out, journalNow = now);
        if (d == null) {
            journal.noTransmit(room, now);
        } else {
            journal.transmit(out, transmitSource, d, room, now);
        }
        return d;
    }

    private InetAddress poll(ByteBuffer out, long now) {
        Transmit t = endpointOutput.poll();
        if (t != null) {
            stats.sent++;
            int start = out.position();
            out.put(t.packet());
            out.limit(out.position());
            out.position(start);
            transmitSource = t.source();
            transmitEcn = t.ecn();
            transmitFragmentable = t.fragmentable();
            noteSender(null);
            return t.destination();
        }
        while (!draining.isEmpty()) {
            Association a = draining.peek();
            InetAddress d = a.pollTransmit(out, now);
            if (d != null) {
                stats.sent++;
                transmitSource = a.transmitSource();
                transmitEcn = a.transmitEcn();
                transmitFragmentable = a.transmitFragmentable();
                noteSender(a);
                return d;
            }
            draining.poll();
        }
        Schedule.Entry e;
        while ((e = schedule.nextReady()) != null) {
            Association a = e.a;
            InetAddress d = a.pollTransmit(out, now);
            schedule.polled(e, d != null);
            if (d != null) {
                stats.sent++;
                transmitSource = a.transmitSource();
                transmitEcn = a.transmitEcn();
                transmitFragmentable = a.transmitFragmentable();
                noteSender(a);
                return d;
            }
        }
        return null;
    }

    /**
     * Association visits so far: each poll of an association for a packet, each run of its timers
     * and each read of its deadline. A figure of the bookkeeping's cost that does not depend on the
     * machine's load: it grows with the associations that have work, not with those that are idle
     * (issue 15; the scale benchmarks report it per message and per idle second).
     */
    public long associationVisits() {
        return schedule.visits();
    }

    /**
     * For tests: checks the bookkeeping against a walk of every association. Call only when {@link
     * #pollTransmit} has just returned nothing. Every association's deadline must be in the heap
     * exactly, and no association may have a packet to send (a poll of each, into {@code scratch}:
     * one that returns a packet was missing from the ready queue, a wake-up lost). Returns null
     * when all agree, else what differs. The polls it makes count as polls (their deadlines are read
     * again).
     */
    String checkBookkeeping(ByteBuffer scratch, long now) {
        if (schedule.readySize() != 0) {
            return schedule.readySize() + " associations still ready: drain pollTransmit first";
        }
        schedule.settle();
        StringBuilder err = new StringBuilder();
        long min = Long.MAX_VALUE;
        int timed = 0;
        for (Schedule.Entry e : byId.values()) {
            long k = e.a.nextTimeout();
            min = Math.min(min, k);
            timed += k == Long.MAX_VALUE ? 0 : 1;
            if (!schedule.holds(e, k)) {
                err.append(e.a)
                        .append(": deadline ")
                        .append(k)
                        .append(" but the heap holds ")
                        .append(e.heapIndex < 0 ? "none" : Long.toString(e.key))
                        .append("; ");
            }
        }
        if (!schedule.heapOrdered()) {
            err.append("heap out of order; ");
        }
        if (schedule.heapSize() != timed) {
            err.append("heap holds ")
                    .append(schedule.heapSize())
                    .append(" of ")
                    .append(timed)
                    .append("; ");
        }
        if (nextTimeout() != min) {
            err.append("nextTimeout ")
                    .append(nextTimeout())
                    .append(" but the minimum is ")
                    .append(min)
                    .append("; ");
        }
        for (Schedule.Entry e : List.copyOf(byId.values())) {
            scratch.clear();
            InetAddress d = e.a.pollTransmit(scratch, now);
            schedule.polled(e, false); // its deadline is read again; it stays out of the ready queue
            if (d != null) {
                err.append(e.a)
                        .append(" had a packet to send outside the ready queue (chunks")
                        .append(chunkTypes(scratch))
                        .append("); ");
            }
        }
        for (Association a : draining) {
            scratch.clear();
            if (a.pollTransmit(scratch, now) != null) {
                err.append(a).append(" (closing) had a packet to send outside the draining queue; ");
            }
        }
        return err.length() == 0 ? null : err.toString();
    }

    /** The chunk types of the packet in {@code b} (position to limit), for messages. */
    private static String chunkTypes(ByteBuffer b) {
        StringBuilder sb = new StringBuilder();
        int i = b.position() + SctpPacket.HEADER_LENGTH;
        while (i + 4 <= b.limit()) {
            sb.append(' ').append(b.get(i) & 0xff);
            int len = b.getShort(i + 2) & 0xffff;
            if (len < 4) {
                break;
            }
            i += (len + 3) & ~3;
        }
        return sb.toString();
    }

    /** For tests: the bookkeeping itself. */
    Schedule scheduleForTest() {
        return schedule;
    }

    /** The local address the last packet of {@link #pollTransmit(ByteBuffer, long)} goes out from. */
    public InetAddress transmitSource() {
        return transmitSource;
    }

    /**
     * The ECN codepoint ({@link Ecn}) the lower layer puts in the IP header of the last packet of
     * {@link #pollTransmit(ByteBuffer, long)}: {@link Ecn#ECT_0} for a packet with new DATA of an
     * association that negotiated {@link Extension#ECN} (RFC 9260 appendix A; retransmissions and
     * control packets go Not-ECT, as RFC 3168 section 6.1.5 asks of TCP), otherwise {@link
     * Ecn#NOT_ECT}.
     */
    public int transmitEcn() {
        return transmitEcn;
    }

    /**
     * Whether the last packet of {@link #pollTransmit(ByteBuffer, long)} is larger than its path's
     * MTU and may be fragmented by IP (see {@link Transmit#fragmentable()}): pass {@link
     * org.sctpj.stack.llp.LowerLayer#FRAGMENTABLE} to the lower layer with it.
     */
    public boolean transmitFragmentable() {
        return transmitFragmentable;
    }

    /**
     * The state (RFC 9260 section 4) that the association which built the last polled packet was in
     * when it built it, or empty when the endpoint built that packet itself (an INIT ACK of a
     * listening endpoint, an answer to an out-of-the-blue packet). Read-only, for conformance
     * checks of what a state may send (RFC 9260 sections 4 and 5.1).
     */
    public Optional<String> transmitState() {
        return transmitState == null ? Optional.empty() : Optional.of(transmitState.name());
    }

    /** Records who built the packet just polled ({@code null}: the endpoint itself), for the accessors below. */
    private void noteSender(Association a) {
        transmitState = a == null ? null : a.state();
        transmitUserPeers = a == null ? List.of() : a.userPeers();
    }

    /**
     * The peer addresses the user gave to connect the association which built the last polled
     * packet (confirmed from the start, RFC 9260 section 5.4 rule 1), empty when the endpoint built
     * that packet itself or the peer initiated the association. Read-only, for conformance checks
     * of where packets may go.
     */
    public List<InetAddress> transmitUserPeers() {
        return transmitUserPeers;
    }

    /** The next packet to send, or empty when there is nothing to send now. */
    public Optional<Transmit> pollTransmit(long now) {
        if (journal == null) {
            return poll(now);
        }
        Optional<Transmit> t = poll(journalNow = now);
        if (t.isEmpty()) {
            journal.noTransmit(-1, now);
        } else {
            Transmit x = t.get();
            journal.transmit(ByteBuffer.wrap(x.packet()), x.source(), x.destination(), -1, now);
        }
        return t;
    }

    private Optional<Transmit> poll(long now) {
        Transmit t = endpointOutput.poll();
        if (t != null) {
            stats.sent++;
            noteSender(null);
            return Optional.of(t);
        }
        while (!draining.isEmpty()) {
            Association a = draining.peek();
            Optional<Transmit> out = a.pollTransmit(now);
            if (out.isPresent()) {
                stats.sent++;
                noteSender(a);
                return out;
            }
            draining.poll();
        }
        // Round robin over the associations that may have something, so that one busy association
        // cannot starve the others.
        Schedule.Entry e;
        while ((e = schedule.nextReady()) != null) {
            Association a = e.a;
            Optional<Transmit> out = a.pollTransmit(now);
            schedule.polled(e, out.isPresent());
            if (out.isPresent()) {
                stats.sent++;
                noteSender(a);
                return out;
            }
        }
        return Optional.empty();
    }

    /**
     * The next event for the user, or empty. Without an {@linkplain #setEventHandler event
     * handler} every event and message waits here (a message as a {@link
     * SctpEvent.MessageReceived} that owns its bytes) until polled; with one, everything went to
     * the handler and this is empty.
     */
    public Optional<SctpEvent> pollEvent() {
        return Optional.ofNullable(pollEventOrNull());
    }

    /** As {@link #pollEvent()} without the {@link Optional}: the next event, or {@code null} when none. */
    public SctpEvent pollEventOrNull() {
        SctpEvent e = outbox.poll();
        if (journal != null && e != null) {
            journal.event(e, true);
        }
        return e;
    }

    /**
     * Hands everything the endpoint produces for its user (events, and received messages seen in
     * place) to {@code handler}, at the end of each endpoint call; see {@link EventHandler} for
     * when it runs and what it may do. {@code null} goes back to {@link #pollEvent()}. What waits
     * for polling when a handler is set is handed to it at once (unless this is called from inside
     * the handler: then it takes over the rest of the sequence being handed out). Owner thread
     * only.
     */
    public void setEventHandler(EventHandler handler) {
        if (journal != null) {
            journal.command("setEventHandler", journalNow, handingOut, handler != null);
        }
        this.handler = handler;
        if (handler != null && depth == 0 && !handingOut) {
            handOut();
        }
    }

    /** The event handler, or {@code null} when events wait for {@link #pollEvent()}. */
    public EventHandler eventHandler() {
        return handler;
    }

    /**
     * Runs {@code work} as one endpoint call: {@link #enter}, the work, {@link #exit} (the hand-out),
     * with an exception of the work thrown after the hand-out. The calls made per message or
     * per timer ({@code send}, {@code sendOwned}, {@code handleInput}, {@code handleTimeout}) spell
     * the same steps out, so that they create no lambda on the data path.
     */
    private void call(Runnable work) {
        enter();
        try {
            work.run();
        } catch (RuntimeException | Error e) {
            exit(false, e);
            throw e;
        }
        exit(false, null);
    }

    /** A call of the owner enters the core. */
    private void enter() {
        depth++;
    }

    /**
     * A call of the owner leaves the core: its work is done, so the outbox goes to the handler now
     * (unless this call was made by the handler itself: then the hand-out under way takes what it
     * added), or, without a handler, is kept for {@link #pollEvent()}. Messages still inside the
     * packet buffer of {@code packetCall} are copied when they are not handed out before the call
     * returns. An exception of the handler is thrown from here, or added to {@code pending} (the
     * call's own exception, which the caller throws).
     */
    private void exit(boolean packetCall, Throwable pending) {
        if (--depth > 0) {
            return;
        }
        if (probe != null) {
            reportToProbe();
        }
        if (handingOut || handler == null) {
            if (packetCall) {
                outbox.detachViews();
            }
            if (handler == null) {
                spaceFreed.clear();
            }
            return;
        }
        try {
            handOut();
        } catch (RuntimeException | Error e) {
            if (pending == null) {
                throw e;
            }
            pending.addSuppressed(e);
        }
    }

    /**
     * Hands the outbox to the handler in order, what the handler's own calls add included, then
     * the send-space figures of {@link EventHandler#onSendBufferFreed}. Every entry goes out even
     * if the handler throws; the first exception is thrown at the end.
     */
    private void handOut() {
        handingOut = true;
        Throwable first = null;
        try {
            EventHandler h;
            while ((h = handler) != null) {
                try {
                    if (!outbox.isEmpty()) {
                        outbox.handOutNext(tap == null ? h : tap.to(h));
                    } else if (!spaceFreed.isEmpty()) {
                        AssociationId id = spaceFreed.remove(0);
                        Association a = peek(id);
                        if (a != null) {
                            long free = a.sendBufferFree();
                            if (journal != null) {
                                journal.sendBufferFreed(id, free);
                            }
                            h.onSendBufferFreed(id, free);
                        }
                    } else {
                        break;
                    }
                } catch (RuntimeException | Error e) {
                    if (first == null) {
                        first = e;
                    } else if (first != e) {
                        first.addSuppressed(e);
                    }
                }
            }
        } finally {
            handingOut = false;
            if (handler == null) {
                outbox.detachViews(); // the handler was removed: the rest waits for pollEvent
                spaceFreed.clear();
            }
        }
        if (first instanceof RuntimeException r) {
            throw r;
        }
        if (first instanceof Error err) {
            throw err;
        }
    }

    /**
     * The owner reports the lower layer's count of packets its socket dropped unread ({@link
     * org.sctpj.stack.llp.LowerLayer#receiveDropped()}), for {@link
     * EndpointStats#lowerLayerDropped()}: the core cannot see those drops itself.
     */
    public void noteLowerLayerDropped(long total) {
        stats.lowerLayerDropped = total;
    }

    /** Counters of what the endpoint received, dropped and sent. */
    public EndpointStats stats() {
        return stats.snapshot();
    }

    /** Mutable counters behind {@link EndpointStats}. */
    private static final class Stats {
        long received;
        long badChecksum;
        long malformed;
        long wrongPort;
        long outOfTheBlue;
        long staleCookies;
        long badCookies;
        long cookiesFromUnlistedAddress;
        long outputDropped;
        long sent;
        long icmpReceived;
        long icmpNotVerified;
        long icmpActedOn;
        long lowerLayerDropped;

        EndpointStats snapshot() {
            return new EndpointStats(
                    received,
                    badChecksum,
                    malformed,
                    wrongPort,
                    outOfTheBlue,
                    staleCookies,
                    badCookies,
                    cookiesFromUnlistedAddress,
                    outputDropped,
                    sent,
                    icmpReceived,
                    icmpNotVerified,
                    icmpActedOn,
                    lowerLayerDropped);
        }
    }

    /** Shows the journal each event and message on its way to the handler. */
    private final class JournalTap implements EventHandler {
        private EventHandler target;

        JournalTap to(EventHandler h) {
            target = h;
            return this;
        }

        @Override
        public void onEvent(SctpEvent event) {
            journal.event(event, false);
            target.onEvent(event);
        }

        @Override
        public void onMessage(AssociationId association, int streamId, int ppid, boolean unordered, ByteBuffer data) {
            journal.message(association, streamId, ppid, unordered, data);
            target.onMessage(association, streamId, ppid, unordered, data);
        }
    }

    /** The endpoint's services to its associations. */
    private final class Host implements AssociationHost {
        @Override
        public SctpOptions options() {
            return options;
        }

        @Override
        public RandomGenerator random() {
            return random;
        }

        @Override
        public int localPort() {
            return localPort;
        }

        @Override
        public List<InetAddress> localAddresses() {
            return localAddresses;
        }

        @Override
        public InetAddress sourceFor(InetAddress destination) {
            if (policy != null) {
                Optional<InetAddress> s = policy.sourceFor(destination);
                if (s.isPresent()) {
                    return s.get();
                }
            }
            return chooseSource(localAddresses, destination);
        }

        @Override
        public List<InetAddress> announceTo(InetAddress peer) {
            return policy == null ? localAddresses : policy.announce(peer);
        }

        @Override
        public Optional<AddressPolicy.Plan> planPaths(List<InetAddress> peers, Optional<InetAddress> keep) {
            return policy == null ? Optional.empty() : Optional.of(policy.plan(peers, keep));
        }

        @Override
        public int newTag() {
            return Endpoint.this.newTag();
        }

        @Override
        public CookieSecrets cookieSecrets() {
            return secrets;
        }

        @Override
        public SharedKeys endpointKeys() {
            return keys;
        }

        @Override
        public void emit(SctpEvent event) {
            outbox.addEvent(event);
        }

        @Override
        public void deliver(
                AssociationId association,
                int streamId,
                int ppid,
                boolean unordered,
                byte[] array,
                ByteBuffer buf,
                int offset,
                int length) {
            outbox.addMessage(association, streamId, ppid, unordered, array, buf, offset, length);
        }

        @Override
        public void sendSpaceFreed(AssociationId id) {
            if (!spaceFreed.contains(id)) {
                spaceFreed.add(id);
            }
        }

        @Override
        public void peerAddressesChanged(Association a) {
            lastAssoc = null;
            Schedule.Entry e = entryOf(a);
            unregisterPeers(e);
            List<InetAddress> now = List.copyOf(a.peerAddresses());
            for (InetAddress p : now) {
                byPeer.putIfAbsent(new PeerKey(p, a.peerPort()), e);
            }
            e.registered = now;
        }

        @Override
        public void localTagChanged(Association a, int previousTag) {
            Schedule.Entry e = entryOf(a);
            byTag.remove(previousTag, e);
            byTag.putIfAbsent(a.localTag(), e);
        }

        @Override
        public void closed(Association a) {
            if (probe != null && probe.enabled()) {
                a.report(probe); // CLOSED, the last word of an association the probe knew
            }
            lastAssoc = null;
            Schedule.Entry e = byId.remove(a.id());
            if (e != null) {
                unregisterPeers(e);
                byTag.remove(a.localTag(), e);
                schedule.touch(e); // its deadline is none now: the heap lets go of it
            }
            draining.add(a);
        }

        /** Removes {@code e} from the peer map (only the keys that map to it: O(its addresses)). */
        private void unregisterPeers(Schedule.Entry e) {
            int port = e.a.peerPort();
            for (InetAddress p : e.registered) {
                byPeer.remove(new PeerKey(p, port), e);
            }
            e.registered = List.of();
        }
    }

    /**
     * The local address to send from towards {@code destination}: one of the same family sharing
     * the longest prefix with it (so that each path of a multihomed pair keeps to its own
     * network), else the first local address.
     */
    public static InetAddress chooseSource(List<InetAddress> locals, InetAddress destination) {
        if (locals.size() == 1) {
            return locals.get(0); // the only choice (and no address copied per packet)
        }
        InetAddress best = null;
        int bestLen = -1;
        boolean v4 = destination instanceof Inet4Address;
        byte[] d = v4 ? null : destination.getAddress();
        for (int i = 0; i < locals.size(); i++) {
            InetAddress l = locals.get(i);
            if ((l instanceof Inet4Address) != v4) {
                continue;
            }
            // An Inet4Address's hash code is its address: compare without copying the bytes.
            int len = v4
                    ? Integer.numberOfLeadingZeros(l.hashCode() ^ destination.hashCode())
                    : commonPrefix(l.getAddress(), d);
            if (len > bestLen) {
                best = l;
                bestLen = len;
            }
        }
        return best != null ? best : locals.get(0);
    }

    private static int commonPrefix(byte[] a, byte[] b) {
        int bits = 0;
        for (int i = 0; i < a.length; i++) {
            int x = (a[i] ^ b[i]) & 0xff;
            if (x == 0) {
                bits += 8;
            } else {
                return bits + Integer.numberOfLeadingZeros(x) - 24;
            }
        }
        return bits;
    }
}
