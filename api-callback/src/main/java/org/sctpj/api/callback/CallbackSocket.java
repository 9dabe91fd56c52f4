package org.sctpj.api.callback;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.sctpj.llp.udp.UdpEncapsulation;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.AssociationStats;
import org.sctpj.stack.CoreJournal;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.PrPolicy;
import org.sctpj.stack.PrStatus;
import org.sctpj.stack.ReconfigRequestKind;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.StreamSchedulerKind;
import org.sctpj.stack.llp.LowerLayer;
import org.sctpj.timers.EndpointHandle;
import org.sctpj.timers.EndpointListener;
import org.sctpj.timers.StackRuntime;
import org.sctpj.timers.StackThread;

/**
 * A non-blocking SCTP socket with callbacks (the callback API of the source thesis): one endpoint
 * (a port and its local addresses) and its associations, driven by one stack thread of a {@link
 * StackRuntime}, or with its associations spread over several ({@link #open(List, SctpOptions,
 * LowerLayerFactory, Callbacks)}: shards). No call blocks on the network.
 *
 * <pre>{@code
 * CallbackSocket s = CallbackSocket.open(runtime, SctpOptions.LAN, udpLayers, callbacks);
 * s.bind(5000, List.of(addr1, addr2));
 * AssociationId id = s.connect(List.of(peer1, peer2), 5000); // COMMUNICATION_UP follows
 * ...
 * if (s.send(id, SendInfo.of(0, ppid), buf) == SendStatus.WOULD_BLOCK) {
 *     // keep buf; retry from onSendSpace (set the threshold to the size you need)
 * }
 * }</pre>
 *
 * <h2>Threads</h2>
 *
 * Every method may be called from any thread, including from inside a callback. All callbacks
 * run on the socket's stack thread ({@link #stackThread()}; with shards, on the thread of the
 * association's shard, {@link #shardOf}); see {@link Callbacks} for when each
 * fires.
 *
 * <p>{@link #send} never waits. The protocol core keeps the only account of each association's
 * send buffer (its free space and the send threshold, see {@link #setSendThreshold}); the socket
 * keeps no copy of it. The stack thread publishes the core's free space after every core call
 * that changed it (a send taken, a SACK that freed space) into one atomic figure: the core's free
 * space less the messages other threads handed over and the core has not taken yet. On any
 * thread {@link #send} reserves the message's size from that figure with one atomic
 * compare-and-set (on the stack thread, inside a callback, after publishing the core's figure
 * afresh), so it never promises more than the core will take. On the stack thread it then calls
 * the core directly; on any other thread it copies the message and hands it to the stack thread
 * through the thread's lock-free command queue; the answer (ACCEPTED or WOULD_BLOCK) is given at
 * once. A message accepted from another thread is never refused later (unless the association
 * ends first: then {@link Callbacks#onSendFailed} hands it back). Messages sent from one thread
 * keep their order; messages sent from different threads have no order between them.
 *
 * <p>{@link #connect}, {@link #shutdown}, {@link #abort} and {@link #listen} from another thread
 * wait only for the stack thread to run the command (microseconds, never a network round trip),
 * so that their errors are thrown to the caller.
 *
 * <h2>Errors</h2>
 *
 * API misuse throws {@link IllegalArgumentException} (bad stream, empty or oversized message,
 * unknown association, bad threshold, bad address) or {@link IllegalStateException} (not bound,
 * closed, association not established, shutting down or closed), each with a message saying what
 * to do. Binding an address the host does not have, or a port in use, throws {@link
 * BindException}.
 */
public final class CallbackSocket implements AutoCloseable {

    private static final int CONNECTING = 0;
    private static final int UP = 1;
    private static final int ENDING = 2;

    /** The socket's view of one association; phase and send space are read by any thread. */
    private static final class Assoc {
        final AssociationId id;
        volatile int phase = CONNECTING;
        volatile int outboundStreams;
        /**
         * What {@link #send} may take: the core's free send-buffer space as last published, less
         * the messages accepted and not yet taken by the core (reserved). Never above what the
         * core will take: a send's reservation ends only after the core's new figure is published.
         */
        final AtomicLong available = new AtomicLong();
        /** Stack thread only: the core's figure last published into {@link #available}. */
        long published;
        /** Bytes released by application threads, not yet given to the core (deferred release). */
        final AtomicLong toRelease = new AtomicLong();
        /** Messages accepted on other threads, waiting for the stack thread (see {@link Handoff}). */
        final Handoff handoff = new Handoff();

        Assoc(AssociationId id) {
            this.id = id;
        }
    }

    /**
     * The messages of one association that application threads handed over and the stack thread
     * has not taken yet, with one command per batch instead of one per message: the first message
     * into an empty hand-off schedules a drain on the stack thread, later ones join it until the
     * drain takes the whole batch. Scheduling happens under the lock that guards the list, so a
     * thread that finds a drain scheduled knows it is already queued ahead of any command that
     * thread gives next (a message sent before {@code shutdown} reaches the core before it).
     * Per message this saves the command object, its queue node, and the stack thread's wake-up
     * check; the list's arrays are reused.
     */
    private static final class Handoff {
        SendInfo[] infos = new SendInfo[16];
        byte[][] datas = new byte[16][];
        int count;
        boolean scheduled;
        /** Stack thread only: the batch being applied (swapped with the list above). */
        SendInfo[] takenInfos = new SendInfo[16];

        byte[][] takenDatas = new byte[16][];

        /** Appends a message (caller holds the lock); true if a drain must be scheduled. */
        boolean add(SendInfo info, byte[] data) {
            if (count == infos.length) {
                infos = java.util.Arrays.copyOf(infos, count * 2);
                datas = java.util.Arrays.copyOf(datas, count * 2);
            }
            infos[count] = info;
            datas[count] = data;
            count++;
            if (scheduled) {
                return false;
            }
            scheduled = true;
            return true;
        }

        /** Undoes the last {@link #add} whose drain could not be scheduled (caller holds the lock). */
        void undoLast() {
            count--;
            infos[count] = null;
            datas[count] = null;
            scheduled = false;
        }

        /** Stack thread: takes the whole batch (into takenInfos/takenDatas) and returns its size. */
        synchronized int take() {
            SendInfo[] i = infos;
            byte[][] d = datas;
            int n = count;
            infos = takenInfos;
            datas = takenDatas;
            takenInfos = i;
            takenDatas = d;
            count = 0;
            scheduled = false;
            return n;
        }
    }

    private static final System.Logger LOG = System.getLogger(CallbackSocket.class.getName());

    /** The socket's shards: thread k drives shard k's endpoint (issue 15; one shard by default). */
    private final StackThread[] threads;
    /** Shard 0's thread: the socket's thread for what concerns no one association. */
    private final StackThread thread;
    /**
     * Addresses removed from the endpoints that the lower layer still receives on, each with the
     * shards whose associations still use it; a shard takes itself out on its own stack thread, and
     * the last one out drops the address from the lower layer.
     */
    private final ConcurrentHashMap<InetAddress, Set<EndpointHandle>> leaving = new ConcurrentHashMap<>();

    private final SctpOptions requestedOptions;
    private final LowerLayerFactory layers;
    private final Callbacks callbacks;
    private final ConcurrentHashMap<AssociationId, Assoc> assocs = new ConcurrentHashMap<>();
    /** A stream of an association: at most one message per stream is delivered in parts at a time. */
    private record PartKey(AssociationId association, int streamId) {}

    private final CountDownLatch closedLatch = new CountDownLatch(1);
    private final Object bindLock = new Object();
    /** Shard 0's endpoint handle, null before bind. */
    private volatile EndpointHandle handle;
    /** Every shard's endpoint handle (index: shard), null before bind. */
    private volatile EndpointHandle[] handles;
    /** The lower layer the shards share, null with one shard. */
    private volatile org.sctpj.timers.SharedLayer shared;
    /** Shards whose endpoint has not closed yet. */
    private final java.util.concurrent.atomic.AtomicInteger shardsOpen;

    private volatile SctpOptions options;
    private volatile long sendThreshold;
    private volatile int boundPort;
    private final java.util.concurrent.atomic.AtomicInteger highestId = new java.util.concurrent.atomic.AtomicInteger();
    private volatile boolean closed;
    private volatile CoreJournal.Factory journals;
    /** The endpoint's journal, closed with the endpoint; null when not recording. */
    private volatile CoreJournal journal;

    private CallbackSocket(StackThread[] threads, SctpOptions options, LowerLayerFactory layers, Callbacks callbacks) {
        this.threads = threads;
        this.thread = threads[0];
        this.shardsOpen = new java.util.concurrent.atomic.AtomicInteger(threads.length);
        this.requestedOptions = options;
        this.options = options;
        this.layers = layers;
        this.callbacks = callbacks;
    }

    /**
     * A new, unbound socket on the runtime's next shard.
     *
     * @param options the protocol options of its associations
     * @param layers opens the lower layer at {@link #bind}
     * @param callbacks receives messages and notifications, on the stack thread
     */
    public static CallbackSocket open(
            StackRuntime runtime, SctpOptions options, LowerLayerFactory layers, Callbacks callbacks) {
        Objects.requireNonNull(runtime, "runtime");
        return open(runtime.next(), options, layers, callbacks);
    }

    /** A new, unbound socket driven by {@code thread}. */
    public static CallbackSocket open(
            StackThread thread, SctpOptions options, LowerLayerFactory layers, Callbacks callbacks) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(layers, "layers");
        Objects.requireNonNull(callbacks, "callbacks");
        return new CallbackSocket(new StackThread[] {thread}, options, layers, callbacks);
    }

    /**
     * A new, unbound socket whose associations are spread over {@code threads}, one shard each
     * (issue 15): each shard is an endpoint of its own on its thread, all on the socket's one port
     * and one lower layer (shared: {@link org.sctpj.timers.SharedLayer}); an association stays on
     * the shard it was made on for its whole life, and its callbacks run on that shard's thread. An
     * association this socket starts goes to the shard of its first peer address and port, one a
     * peer starts to the shard its INIT reached ({@link org.sctpj.timers.Shards}). Every method
     * works as with one thread; {@link #isSocketThread()} is true on any of them, and the methods
     * that run tasks ({@link #execute}, {@link #whenIdle}, {@link #atTurnEnd}) use the caller's
     * shard, or shard 0. With one thread this is {@link #open(StackThread, SctpOptions,
     * LowerLayerFactory, Callbacks)}.
     *
     * @throws IllegalArgumentException for no thread, more than 1,024, or a thread listed twice
     */
    public static CallbackSocket open(
            List<StackThread> threads, SctpOptions options, LowerLayerFactory layers, Callbacks callbacks) {
        Objects.requireNonNull(threads, "threads");
        if (threads.isEmpty() || threads.size() > 1024 || new HashSet<>(threads).size() != threads.size()) {
            throw new IllegalArgumentException("give 1..1024 distinct stack threads, one per shard: " + threads);
        }
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(layers, "layers");
        Objects.requireNonNull(callbacks, "callbacks");
        return new CallbackSocket(threads.toArray(new StackThread[0]), options, layers, callbacks);
    }

    // ------------------------------------------------------------------ setup

    /**
     * Binds the socket to SCTP port {@code port} on {@code addresses} (several for multihoming;
     * all are announced to peers) and opens the lower layer.
     *
     * @throws IllegalArgumentException for a port outside 1..65535, no address, a duplicate or a
     *     wildcard address
     * @throws IllegalStateException if already bound or closed
     * @throws BindException if an address is not one of this host's, or the port is in use
     * @throws IOException if the lower layer cannot be opened
     */
    public void bind(int port, List<InetAddress> addresses) throws IOException {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be 1..65535, was " + port);
        }
        Objects.requireNonNull(addresses, "addresses");
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("give at least one local address to bind");
        }
        if (new HashSet<>(addresses).size() != addresses.size()) {
            throw new IllegalArgumentException("an address is listed twice: " + addresses);
        }
        for (InetAddress a : addresses) {
            Objects.requireNonNull(a, "address");
            if (a.isAnyLocalAddress()) {
                throw new IllegalArgumentException("bind concrete addresses (" + a
                        + " is the wildcard): SCTP announces each bound address to the peer");
            }
            if (!isLocal(a)) {
                throw new BindException(a.getHostAddress()
                        + " is not an address of this host: bind one of the addresses of its interfaces");
            }
        }
        synchronized (bindLock) {
            ensureOpen();
            if (handle != null) {
                throw new IllegalStateException("the socket is bound already (port " + handle.lowerLayer()
                        + "): open another socket for another port");
            }
            LowerLayer layer = layers.open(port, List.copyOf(addresses), requestedOptions);
            SctpOptions o = requestedOptions.encapsulationOverhead() == layer.encapsulationOverhead()
                    ? requestedOptions
                    : requestedOptions.toBuilder()
                            .encapsulationOverhead(layer.encapsulationOverhead())
                            .build();
            int n = threads.length;
            try {
                CoreJournal.Factory f = journals;
                if (f != null && n > 1) {
                    throw new IllegalStateException("a journal records one endpoint: record a socket of one shard"
                            + " (open it on one stack thread), not of " + n);
                }
                journal = f == null ? null : f.open(port, layer.getClass().getSimpleName());
                org.sctpj.timers.SharedLayer sl = n == 1 ? null : org.sctpj.timers.SharedLayer.share(layer, n);
                EndpointHandle[] hs = new EndpointHandle[n];
                for (int k = 0; k < n; k++) {
                    Endpoint ep = new Endpoint(port, addresses, o, new SecureRandom(), thread.now(), journal);
                    if (n > 1) {
                        ep.shard(n, k);
                    }
                    hs[k] = threads[k].register(ep, sl == null ? layer : sl.view(k), new Listener(k));
                }
                options = o;
                boundPort = port;
                shared = sl;
                handles = hs;
                handle = hs[0];
            } catch (RuntimeException e) {
                layer.close();
                throw e;
            }
        }
    }

    /**
     * Records every input and output of the socket's endpoint into the journal {@code factory}
     * makes at {@link #bind} (for example the {@code journal} module's recorder, for a replay or an
     * export to pcap later). Off by default; the journal is closed when the socket is.
     *
     * @throws IllegalStateException if already bound
     */
    public void recordTo(CoreJournal.Factory factory) {
        synchronized (bindLock) {
            if (handle != null) {
                throw new IllegalStateException("recordTo must come before bind: a journal starts with the endpoint");
            }
            journals = factory;
        }
    }

    private static boolean isLocal(InetAddress a) {
        if (a.isLoopbackAddress()) {
            return true;
        }
        try {
            return NetworkInterface.getByInetAddress(a) != null;
        } catch (SocketException e) {
            return false;
        }
    }

    /**
     * Accepts associations initiated by peers from now on; each announces itself with a
     * COMMUNICATION_UP {@link Callbacks#onAssociationChange}.
     *
     * @throws IllegalStateException if not bound, or closed
     */
    public void listen() {
        for (EndpointHandle h : boundAll()) {
            call(h, () -> {
                h.endpoint().listen(true);
                return null;
            });
        }
    }

    /**
     * Starts an association to {@code port} at {@code peers} (the first is the primary path).
     * Returns its id at once; COMMUNICATION_UP (or CANT_START) follows through {@link
     * Callbacks#onAssociationChange}. Sends before COMMUNICATION_UP are refused.
     *
     * @throws IllegalArgumentException for no peer address or a port outside 1..65535
     * @throws IllegalStateException if not bound or closed, or an association to one of these
     *     peers exists already
     */
    public AssociationId connect(List<InetAddress> peers, int port) {
        Objects.requireNonNull(peers, "peers");
        EndpointHandle[] hs = boundAll();
        EndpointHandle h = hs.length == 1 || peers.isEmpty()
                ? hs[0]
                : hs[org.sctpj.timers.Shards.ofPeer(peers.get(0), port, hs.length)];
        return call(h, () -> {
            AssociationId id = h.endpoint().connect(List.copyOf(peers), port, thread.now());
            track(id);
            return id;
        });
    }

    // ------------------------------------------------------------------ data

    /**
     * Sends one message without blocking: ACCEPTED (it will be delivered reliably, or handed back
     * by {@link Callbacks#onSendFailed} if the association ends first; {@code data}'s position
     * has advanced to its limit) or WOULD_BLOCK (the send buffer cannot take all of it now;
     * nothing was taken; retry from {@link Callbacks#onSendSpace}).
     *
     * <p>With a partial reliability policy ({@link SendInfo#withPrPolicy}, or the association's
     * default, {@link #setDefaultPrPolicy}) the message may instead be abandoned by it (a lifetime
     * that ends, a retransmission limit, or a more important message that needs the room) and
     * handed back by {@link Callbacks#onSendFailed} with its data, {@link
     * SctpEvent.SendFailed#abandoned()} true. A message with the priority policy that does not
     * fit is handed to the stack thread, which may make room for it by abandoning less important
     * ones: off the stack thread this call then waits for the stack thread.
     *
     * @param data the message, from position to limit (copied; the caller may reuse the buffer)
     * @throws IllegalArgumentException for an unknown association, a stream the peer did not
     *     grant, an empty message or one over {@link SctpOptions#maxMessageSize()}
     * @throws IllegalStateException if the association is not established yet, shutting down or
     *     closed, or the socket is closed
     */
    public SendStatus send(AssociationId association, SendInfo info, ByteBuffer data) {
        Objects.requireNonNull(info, "info");
        Objects.requireNonNull(data, "data");
        Assoc a = established(association);
        int len = data.remaining();
        if (len == 0) {
            throw new IllegalArgumentException("a message must carry at least one byte (SCTP has no empty messages)");
        }
        int max = options.maxMessageSize();
        if (len > max) {
            throw new IllegalArgumentException("message of " + len + " bytes exceeds the maximum message size " + max
                    + ": split it, or raise SctpOptions.maxMessageSize (and sendBufferBytes)");
        }
        int streams = a.outboundStreams;
        if (info.streamId() >= streams) {
            throw new IllegalArgumentException("stream " + info.streamId() + " does not exist on " + association
                    + ": the peer granted " + streams + " outbound streams (0.." + (streams - 1) + ")");
        }
        EndpointHandle h = bound(association);
        if (h.thread().isStackThread()) {
            return sendOnStack(h, a, info, data, len);
        }
        if (!reserve(a, len)) {
            if (isPriority(info)) {
                // Only the core knows what less important messages could give way (RFC 7496 3.2).
                return call(h, () -> sendOnStack(h, a, info, data, len));
            }
            return SendStatus.WOULD_BLOCK;
        }
        byte[] copy = new byte[len];
        data.get(copy);
        Handoff ho = a.handoff;
        synchronized (ho) {
            if (ho.add(info, copy)) {
                try {
                    h.thread().execute(() -> drainHandoff(h, a));
                } catch (IllegalStateException e) {
                    ho.undoLast();
                    a.available.addAndGet(len);
                    data.position(data.position() - len);
                    throw new IllegalStateException("the socket's stack thread is closed: " + e.getMessage(), e);
                }
            }
        }
        return SendStatus.ACCEPTED;
    }

    /** On the stack thread: the messages other threads handed over enter the core, in order. */
    private void drainHandoff(EndpointHandle h, Assoc a) {
        Handoff ho = a.handoff;
        int n = ho.take();
        SendInfo[] infos = ho.takenInfos;
        byte[][] datas = ho.takenDatas;
        for (int i = 0; i < n; i++) {
            SendInfo info = infos[i];
            byte[] data = datas[i];
            infos[i] = null;
            datas[i] = null;
            applySend(h, a, info, data);
        }
    }

    private static boolean isPriority(SendInfo info) {
        return info.prPolicy().map(p -> p.kind() == PrPolicy.Kind.PRIORITY).orElse(false);
    }

    /** Takes {@code len} bytes from what send may take, if there are that many. */
    private static boolean reserve(Assoc a, int len) {
        long cur;
        do {
            cur = a.available.get();
            if (cur < len) {
                return false;
            }
        } while (!a.available.compareAndSet(cur, cur - len));
        return true;
    }

    /**
     * On the stack thread: reserves the message (so that no other thread counts the same space;
     * when the published figure is short, after publishing the core's own afresh), lets the core
     * take it, then publishes the core's new figure and ends the reservation in one atomic step
     * (so that the figure never exceeds the core's).
     */
    private SendStatus sendOnStack(EndpointHandle h, Assoc a, SendInfo info, ByteBuffer data, int len) {
        Endpoint ep = h.endpoint();
        if (!reserve(a, len)) {
            publish(a);
            if (!reserve(a, len)) {
                if (isPriority(info) && a.available.get() == a.published) {
                    // No room, and no other thread's message on its way to the core: the core may
                    // make room by abandoning less important messages (RFC 7496 section 3.2).
                    SendStatus s = ep.send(a.id, info, data, thread.now());
                    publish(a);
                    return s;
                }
                return SendStatus.WOULD_BLOCK;
            }
        }
        SendStatus s;
        try {
            s = ep.send(a.id, info, data, thread.now());
        } catch (RuntimeException e) {
            a.available.addAndGet(len);
            throw e;
        }
        publish(a, ep.sendBufferFree(a.id).orElse(a.published), len);
        return s;
    }

    /** On the stack thread: a message accepted on another thread enters the core. */
    private void applySend(EndpointHandle h, Assoc a, SendInfo info, byte[] copy) {
        if (h.isClosed() || assocs.get(a.id) != a) {
            sendFailed(a.id, info, copy);
            return;
        }
        try {
            // The copy made on the sending thread is handed to the core as it is (no second copy).
            Endpoint ep = h.endpoint();
            SendStatus s = ep.sendOwned(a.id, info, copy, copy.length, thread.now());
            // The core has it: its new figure is published as the reservation ends.
            publish(a, ep.sendBufferFree(a.id).orElse(a.published), copy.length);
            if (s == SendStatus.ACCEPTED) {
                return;
            }
        } catch (RuntimeException e) {
            // The association ended or started shutting down after the reservation.
            a.available.addAndGet(copy.length);
        }
        sendFailed(a.id, info, copy);
    }

    private void sendFailed(AssociationId id, SendInfo info, byte[] copy) {
        SctpEvent.SendFailed f =
                new SctpEvent.SendFailed(id, info.streamId(), info.ppid(), info.unordered(), copy, false);
        guarded(() -> callbacks.onSendFailed(this, f));
    }

    /**
     * Sets the send callback's threshold, at any time, from any thread: {@link
     * Callbacks#onSendSpace} fires after a SACK frees space only if the free space is then at
     * least {@code bytes}; 0 fires after every SACK that frees space. Typically the size of the
     * next message. Applies to every association of the socket, present and future: it is the
     * protocol core's threshold of each ({@link Endpoint#setSendThreshold}), which decides when
     * the callback fires. Set on the stack thread (in a callback) it applies at once; from another
     * thread, from the stack thread's next turn.
     *
     * @throws IllegalArgumentException outside 0..{@link SctpOptions#sendBufferBytes()}
     */
    public void setSendThreshold(long bytes) {
        int max = options.sendBufferBytes();
        if (bytes < 0 || bytes > max) {
            throw new IllegalArgumentException("send threshold must be 0.." + max
                    + " bytes (0: after every SACK that frees space; at most the send buffer, "
                    + "SctpOptions.sendBufferBytes), was " + bytes);
        }
        sendThreshold = bytes;
        EndpointHandle[] hs = handles;
        if (hs == null) {
            return; // applied to each association as it comes up
        }
        for (int k = 0; k < hs.length; k++) {
            EndpointHandle h = hs[k];
            int shard = k;
            if (h.thread().isStackThread()) {
                applySendThreshold(h, shard);
                continue;
            }
            try {
                h.execute(() -> applySendThreshold(h, shard));
            } catch (IllegalStateException e) {
                // the stack thread is closed: no association left to apply it to
            }
        }
    }

    /** Shard's stack thread: the socket's threshold becomes the core's for every association of the shard. */
    private void applySendThreshold(EndpointHandle h, int shard) {
        long t = sendThreshold;
        for (Assoc a : assocs.values()) {
            if (shardOf(a.id) == shard) {
                applySendThreshold(h, a, t);
            }
        }
    }

    private static void applySendThreshold(EndpointHandle h, Assoc a, long t) {
        try {
            h.endpoint().setSendThreshold(a.id, t);
        } catch (IllegalArgumentException e) {
            // the association is gone (its end is being handed out)
        }
    }

    /**
     * With {@link SctpOptions#deferredReceiveRelease()}: the application is done with {@code bytes}
     * of the association's received messages, which stop counting against the receive window the
     * peer sees. From any thread; releases from other threads are gathered and handed to the stack
     * thread in one command until it has taken them (so a release per message costs little). Does
     * nothing without that option or for an association that is gone.
     *
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public void releaseReceived(AssociationId association, long bytes) {
        Objects.requireNonNull(association, "association");
        if (bytes < 0) {
            throw new IllegalArgumentException("released bytes must be >= 0, was " + bytes);
        }
        if (bytes == 0 || !options.deferredReceiveRelease()) {
            return;
        }
        Assoc a = assocs.get(association);
        EndpointHandle[] hs = handles;
        if (a == null || hs == null) {
            return;
        }
        EndpointHandle h = hs[shardOf(association)];
        if (h.thread().isStackThread()) {
            h.endpoint().releaseReceived(association, bytes);
            return;
        }
        if (a.toRelease.getAndAdd(bytes) == 0) {
            try {
                h.execute(() -> h.endpoint().releaseReceived(association, a.toRelease.getAndSet(0)));
            } catch (IllegalStateException e) {
                // the stack thread is closed: nothing left to release
            }
        }
    }

    /** The send callback's threshold (0 by default). */
    public long sendThreshold() {
        return sendThreshold;
    }

    /**
     * The bytes {@link #send} can take now on the association, from any thread: the core's free
     * send-buffer space as the stack thread last published it, less messages handed over and not
     * yet taken by the core.
     *
     * @throws IllegalArgumentException for an unknown or closed association
     */
    public long sendBufferFree(AssociationId association) {
        return Math.max(0, known(association).available.get());
    }

    // ------------------------------------------------------------------ stream scheduling

    /**
     * Switches the association's stream scheduler (RFC 8260 section 3; the socket option
     * SCTP_PLUGGABLE_SS of section 4.3.2): which stream's queued message goes next. Every queued
     * message stays queued, in its stream's order; the per-stream values go back to their
     * defaults. The scheduler every association starts with is {@link
     * SctpOptions#streamScheduler()}. Any thread; waits for the stack thread when called elsewhere.
     * For example, in {@link Callbacks#onAssociationChange} at COMMUNICATION_UP:
     *
     * <pre>{@code
     * socket.setStreamScheduler(id, StreamSchedulerKind.PRIORITY);
     * socket.setStreamValue(id, 1, 10); // bulk on stream 1 waits while stream 0 has data
     * }</pre>
     *
     * @throws IllegalArgumentException for an unknown or closed association
     */
    public void setStreamScheduler(AssociationId association, StreamSchedulerKind kind) {
        Objects.requireNonNull(kind, "kind: one of StreamSchedulerKind");
        known(association);
        EndpointHandle h = bound(association);
        call(h, () -> {
            h.endpoint().setStreamScheduler(association, kind);
            return null;
        });
    }

    // ------------------------------------------------------------------ AUTH keys (RFC 4895, RFC 6458)

    /**
     * Sets the endpoint pair shared key {@code keyId} (0..65535) for associations made from now on
     * (RFC 6458 section 8.1.22 SCTP_AUTH_KEY with SCTP_FUTURE_ASSOC); key 0, empty, exists from
     * the start. Both ends must set the same key; it never travels. Used when {@link
     * org.sctpj.stack.Extension#AUTH} is offered. Any thread, after bind; waits for the stack
     * thread when called elsewhere.
     *
     * @throws IllegalArgumentException for an identifier outside 0..65535 or a key too long
     * @throws IllegalStateException before bind, or when the endpoint has too many keys
     */
    public void setAuthKey(int keyId, byte[] key) {
        byte[] copy = key.clone();
        authKeys(e -> e.setAuthKey(keyId, copy));
    }

    /** Makes {@code keyId} the key new associations send with (SCTP_AUTH_ACTIVE_KEY, endpoint-wide). */
    public void setActiveAuthKey(int keyId) {
        authKeys(e -> e.setActiveAuthKey(keyId));
    }

    /** Deactivates {@code keyId} for new associations (SCTP_AUTH_DEACTIVATE_KEY, endpoint-wide). */
    public void deactivateAuthKey(int keyId) {
        authKeys(e -> e.deactivateAuthKey(keyId));
    }

    /** Deletes {@code keyId} for new associations (SCTP_AUTH_DELETE_KEY, endpoint-wide). */
    public void deleteAuthKey(int keyId) {
        authKeys(e -> e.deleteAuthKey(keyId));
    }

    /**
     * Sets the association's shared key {@code keyId} (SCTP_AUTH_KEY): it verifies what the peer
     * sends with it at once, and is sent with once made active. Waits for the stack thread when
     * called elsewhere.
     *
     * @throws IllegalArgumentException for an unknown association, identifier or a key too long
     */
    public void setAuthKey(AssociationId association, int keyId, byte[] key) {
        known(association);
        byte[] copy = key.clone();
        authKeys(association, e -> e.setAuthKey(association, keyId, copy));
    }

    /**
     * Makes {@code keyId} the key the association sends with (RFC 6458 section 8.1.23
     * SCTP_AUTH_ACTIVE_KEY). Set it at the peer first: until then the peer discards what we
     * authenticate with it.
     */
    public void setActiveAuthKey(AssociationId association, int keyId) {
        known(association);
        authKeys(association, e -> e.setActiveAuthKey(association, keyId));
    }

    /**
     * Deactivates the association's key {@code keyId} (RFC 6458 section 8.3.5
     * SCTP_AUTH_DEACTIVATE_KEY): no longer sent with, still accepted; {@link
     * Callbacks#onAuthentication} reports FREE_KEY when it may be deleted.
     *
     * @throws IllegalStateException for the active key (activate another one first)
     */
    public void deactivateAuthKey(AssociationId association, int keyId) {
        known(association);
        authKeys(association, e -> e.deactivateAuthKey(association, keyId));
    }

    /**
     * Deletes the association's key {@code keyId} (RFC 6458 section 8.3.4 SCTP_AUTH_DELETE_KEY).
     *
     * @throws IllegalStateException for the active key (activate another one first)
     */
    public void deleteAuthKey(AssociationId association, int keyId) {
        known(association);
        authKeys(association, e -> e.deleteAuthKey(association, keyId));
    }

    /** The key the association sends with (SCTP_AUTH_ACTIVE_KEY). */
    public int activeAuthKey(AssociationId association) {
        known(association);
        EndpointHandle h = bound(association);
        return call(h, () -> h.endpoint().activeAuthKey(association));
    }

    /** The chunk types the peer requires us to authenticate (RFC 6458 section 8.2.3 SCTP_PEER_AUTH_CHUNKS). */
    public java.util.Set<Integer> peerAuthChunks(AssociationId association) {
        known(association);
        EndpointHandle h = bound(association);
        return call(h, () -> h.endpoint().peerAuthChunks(association));
    }

    /** The chunk types we require the peer to authenticate (RFC 6458 section 8.2.4 SCTP_LOCAL_AUTH_CHUNKS). */
    public java.util.Set<Integer> localAuthChunks(AssociationId association) {
        known(association);
        EndpointHandle h = bound(association);
        return call(h, () -> h.endpoint().localAuthChunks(association));
    }

    private void authKeys(java.util.function.Consumer<org.sctpj.stack.Endpoint> op) {
        for (EndpointHandle h : boundAll()) {
            call(h, () -> {
                op.accept(h.endpoint());
                return null;
            });
        }
    }

    /** As {@link #authKeys(java.util.function.Consumer)} for one association: on its shard only. */
    private void authKeys(AssociationId association, java.util.function.Consumer<org.sctpj.stack.Endpoint> op) {
        EndpointHandle h = bound(association);
        call(h, () -> {
            op.accept(h.endpoint());
            return null;
        });
    }

    /**
     * The association's stream scheduler.
     *
     * @throws IllegalArgumentException for an unknown or closed association
     */
    public StreamSchedulerKind streamScheduler(AssociationId association) {
        known(association);
        EndpointHandle h = bound(association);
        return call(h, () -> h.endpoint().streamScheduler(association));
    }

    /**
     * Sets the stream scheduler's value of one outbound stream (RFC 8260 section 4.3.3
     * SCTP_SS_VALUE): the priority under {@link StreamSchedulerKind#PRIORITY} (lower first, 0 to
     * 65535, default 0), the weight under {@link StreamSchedulerKind#WEIGHTED_FAIR_QUEUEING} (1 to
     * 65535, default 1). Any thread; waits for the stack thread when called elsewhere.
     *
     * @throws IllegalArgumentException for an unknown association, a stream that is not open or a
     *     value out of range
     * @throws IllegalStateException before COMMUNICATION_UP, or when the scheduler has no
     *     per-stream value (switch to PRIORITY or WEIGHTED_FAIR_QUEUEING first)
     */
    public void setStreamValue(AssociationId association, int streamId, int value) {
        known(association);
        EndpointHandle h = bound(association);
        call(h, () -> {
            h.endpoint().setStreamValue(association, streamId, value);
            return null;
        });
    }

    /**
     * The stream scheduler's value of one outbound stream (its default when never set).
     *
     * @throws IllegalArgumentException for an unknown association or a stream that is not open
     * @throws IllegalStateException before COMMUNICATION_UP
     */
    public int streamValue(AssociationId association, int streamId) {
        known(association);
        EndpointHandle h = bound(association);
        return call(h, () -> h.endpoint().streamValue(association, streamId));
    }

    // ------------------------------------------------------------------ stream reconfiguration

    /**
     * Resets the Stream Sequence Numbers of {@code streams} (every stream when empty) of our
     * outgoing streams and/or, by asking the peer, of its outgoing streams towards us (RFC 6525
     * sections 5.1.2 and 5.1.3). Messages sent on our reset streams after this call wait until the
     * peer answered; those sent before go first. The outcome comes through {@link
     * Callbacks#onStreamReset}, once per direction. Waits for the stack thread when called
     * elsewhere.
     *
     * @throws IllegalArgumentException for an unknown association, a stream that does not exist,
     *     or neither direction
     * @throws IllegalStateException when the peer did not announce RE-CONFIG support (or it is off
     *     in our options), or the association is not established
     */
    public void resetStreams(AssociationId association, int[] streams, boolean outgoing, boolean incoming) {
        known(association);
        EndpointHandle h = bound(association);
        int[] copy = streams.clone();
        call(h, () -> {
            h.endpoint().resetStreams(association, copy, outgoing, incoming, thread.now());
            return null;
        });
    }

    /**
     * Resets the association's TSNs and every stream's SSNs in both directions (RFC 6525 section
     * 5.1.4), once what was sent so far is acknowledged. The outcome comes through {@link
     * Callbacks#onAssociationReset}. Waits for the stack thread when called elsewhere.
     *
     * @throws IllegalArgumentException for an unknown association
     * @throws IllegalStateException when RE-CONFIG is not available, the association is not
     *     established, or an association reset is already under way
     */
    public void resetAssociation(AssociationId association) {
        known(association);
        EndpointHandle h = bound(association);
        call(h, () -> {
            h.endpoint().resetAssociation(association, thread.now());
            return null;
        });
    }

    /**
     * Adds {@code outbound} streams of ours and asks the peer to add {@code inbound} streams
     * towards us (RFC 6525 sections 5.1.5 and 5.1.6). The outcome comes through {@link
     * Callbacks#onStreamChange}; a new outgoing stream can be used from that callback on. Waits for
     * the stack thread when called elsewhere.
     *
     * @throws IllegalArgumentException for an unknown association, negative counts, none at all,
     *     or more than 65535 streams in a direction
     * @throws IllegalStateException when RE-CONFIG is not available or the association is not
     *     established
     */
    public void addStreams(AssociationId association, int outbound, int inbound) {
        known(association);
        EndpointHandle h = bound(association);
        call(h, () -> {
            h.endpoint().addStreams(association, outbound, inbound, thread.now());
            return null;
        });
    }

    /**
     * Which stream reconfiguration requests the peer may make of the association (RFC 6525
     * section 6.3.1, SCTP_ENABLE_STREAM_RESET); the others are answered Denied. Starts as {@link
     * SctpOptions#acceptedReconfigRequests()}. Waits for the stack thread when called elsewhere.
     *
     * @throws IllegalArgumentException for an unknown association
     */
    public void setAcceptedReconfigRequests(AssociationId association, Set<ReconfigRequestKind> kinds) {
        known(association);
        EndpointHandle h = bound(association);
        Set<ReconfigRequestKind> copy = Set.copyOf(kinds);
        call(h, () -> {
            h.endpoint().setAcceptedReconfigRequests(association, copy);
            return null;
        });
    }

    // ------------------------------------------------------------------ ending

    /**
     * Starts a graceful shutdown of the association (RFC 9260 section 9.2): messages already
     * accepted are still delivered; new sends are refused. SHUTDOWN_COMPLETE follows through
     * {@link Callbacks#onAssociationChange}.
     *
     * @throws IllegalArgumentException for an unknown or closed association
     * @throws IllegalStateException if it is not established (abort it instead)
     */
    public void shutdown(AssociationId association) {
        Assoc a = known(association);
        EndpointHandle h = bound(association);
        call(h, () -> {
            if (a.phase == CONNECTING) {
                throw new IllegalStateException(
                        association + " is not established yet: abort it, or wait for COMMUNICATION_UP");
            }
            a.phase = ENDING;
            h.endpoint().shutdown(association, thread.now());
            return null;
        });
    }

    /**
     * Aborts the association at once (an ABORT with a User-Initiated Abort cause carrying {@code
     * reason}); unacknowledged messages come back through {@link Callbacks#onSendFailed}, then
     * COMMUNICATION_LOST through {@link Callbacks#onAssociationChange}.
     *
     * @throws IllegalArgumentException for an unknown or closed association
     */
    public void abort(AssociationId association, String reason) {
        Assoc a = known(association);
        EndpointHandle h = bound(association);
        byte[] r = (reason == null ? "" : reason).getBytes(StandardCharsets.UTF_8);
        call(h, () -> {
            a.phase = ENDING;
            h.endpoint().abort(association, r, thread.now());
            return null;
        });
    }

    /** Closes abortively: {@code close(false, Duration.ZERO)}. */
    @Override
    public void close() {
        close(false, Duration.ZERO);
    }

    /**
     * Closes the socket: with {@code graceful}, shuts every association down and waits up to
     * {@code linger} for them to complete, then aborts those left; otherwise aborts them at once.
     * Then the lower layer is closed and {@link Callbacks#onClosed} runs. Waits for all that
     * unless called on the stack thread. Idempotent.
     */
    public void close(boolean graceful, Duration linger) {
        synchronized (bindLock) {
            if (!closed) {
                closed = true;
                EndpointHandle[] hs = handles;
                if (hs == null) {
                    closedLatch.countDown();
                    guarded(() -> callbacks.onClosed(this));
                    return;
                }
                for (Assoc a : assocs.values()) {
                    a.phase = ENDING;
                }
                for (EndpointHandle h : hs) {
                    h.close(graceful, linger.toNanos());
                }
            }
        }
        if (!isSocketThread() && thread.isRunning()) {
            try {
                closedLatch.await(linger.toNanos() + TimeUnit.SECONDS.toNanos(10), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // ------------------------------------------------------------------ queries

    /**
     * The stack thread that runs this socket's callbacks; with several shards, shard 0's (see
     * {@link #stackThreads()}).
     */
    public StackThread stackThread() {
        return thread;
    }

    /** The stack threads of the socket's shards, shard 0 first (one unless opened on several). */
    public List<StackThread> stackThreads() {
        return List.of(threads);
    }

    /** The shard that owns association {@code id} (0 with one shard). */
    public int shardOf(AssociationId id) {
        return org.sctpj.timers.Shards.ofAssociation(id.value(), threads.length);
    }

    /** The bound SCTP port, or 0 before {@link #bind}. */
    public int localPort() {
        return boundPort;
    }

    /** The options in force (after {@link #bind}, with the lower layer's encapsulation overhead). */
    public SctpOptions options() {
        return options;
    }

    /** The live associations (established, being set up or shutting down). */
    public List<AssociationId> associations() {
        return new ArrayList<>(assocs.keySet());
    }

    /** True once {@link #close} was called. */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Sets the partial reliability policy of the association's messages sent without one of
     * their own (RFC 7496 section 4.4, SCTP_DEFAULT_PRINFO); {@link PrPolicy#RELIABLE}, the
     * initial default, to send reliably. From any thread; applies to the sends that reach the
     * stack thread after it. The policies act only on associations that negotiated PR-SCTP (RFC
     * 3758) for data already sent; see {@link PrPolicy}.
     *
     * @throws IllegalArgumentException for an unknown or closed association
     */
    public void setDefaultPrPolicy(AssociationId association, PrPolicy policy) {
        Objects.requireNonNull(policy, "policy: use PrPolicy.RELIABLE for reliable delivery");
        known(association);
        EndpointHandle h = bound(association);
        call(h, () -> {
            h.endpoint().setDefaultPrPolicy(association, policy);
            return null;
        });
    }

    /**
     * The association's abandoned messages per policy, unsent and sent (RFC 7496 section 4.5,
     * SCTP_PR_ASSOC_STATUS). Waits for the stack thread when called elsewhere.
     *
     * @throws IllegalArgumentException for an unknown or closed association
     */
    public PrStatus prStatus(AssociationId association) {
        known(association);
        EndpointHandle h = bound(association);
        return call(h, () -> h.endpoint()
                .prStatus(association)
                .orElseThrow(() -> new IllegalArgumentException(association + " is closed")));
    }

    /**
     * The abandoned messages of outbound stream {@code streamId} of the association (RFC 7496
     * section 4.5, SCTP_PR_STREAM_STATUS). Waits for the stack thread when called elsewhere.
     *
     * @throws IllegalArgumentException for an unknown or closed association, or a stream id
     *     outside 0..65535
     */
    public PrStatus prStatus(AssociationId association, int streamId) {
        known(association);
        EndpointHandle h = bound(association);
        return call(h, () -> h.endpoint()
                .prStatus(association, streamId)
                .orElseThrow(() -> new IllegalArgumentException(association + " is closed")));
    }

    /**
     * The peer's SCTP port of the association (for an association the peer started, the source
     * port of its INIT). Waits for the stack thread when called elsewhere.
     *
     * @throws IllegalArgumentException for an unknown or closed association
     */
    public int peerPort(AssociationId association) {
        EndpointHandle h = bound(association);
        return call(h, () -> h.endpoint().peerPort(association));
    }

    /**
     * Makes {@code peer} the association's primary path (RFC 9260 section 5.1.2; RFC 6458
     * SCTP_PRIMARY_ADDR): new data goes there while it is active. A {@link
     * Callbacks#onPeerAddressChange} MADE_PRIMARY follows on the stack thread. Waits for the stack
     * thread when called elsewhere.
     *
     * @throws IllegalArgumentException for an unknown or closed association, or an address that is
     *     not one of the peer's
     */
    public void setPrimary(AssociationId association, InetAddress peer) {
        known(association);
        EndpointHandle h = bound(association);
        call(h, () -> {
            h.endpoint().setPrimary(association, peer);
            return null;
        });
    }

    /**
     * Adds {@code address}, an address of this host, to the bound socket (RFC 5061 Add IP Address;
     * {@code sctp_bindx(SCTP_BINDX_ADD_ADDR)} of RFC 6458 section 9.1 on a live socket): the
     * lower layer starts receiving on it, new associations announce it, and each live association
     * that negotiated {@link org.sctpj.stack.Extension#ASCONF} asks its peer to add it; {@link
     * Callbacks#onLocalAddressChange} reports each answer, and an association sends from the
     * address once ADDED. Associations without ASCONF keep their addresses. Waits for the stack
     * thread when called elsewhere.
     *
     * @throws IllegalStateException before bind
     * @throws IllegalArgumentException for the wildcard, a multicast address or one bound already
     * @throws BindException when {@code address} is not an address of this host
     * @throws UnsupportedOperationException when the lower layer cannot add an address while it
     *     runs (UDP encapsulation binds its addresses at {@link #bind}; raw IP can)
     * @throws IOException when the lower layer failed to add it
     */
    public void addLocalAddress(InetAddress address) throws IOException {
        Objects.requireNonNull(address, "address");
        EndpointHandle h = bound();
        if (!address.isAnyLocalAddress() && !isLocal(address)) {
            throw new BindException(address.getHostAddress()
                    + " is not an address of this host: add one of the addresses of its interfaces");
        }
        List<InetAddress> bound = call(() -> h.endpoint().localAddresses());
        if (bound.contains(address)) {
            throw new IllegalArgumentException(address + " is bound already: " + bound);
        }
        h.lowerLayer().addAddress(address);
        for (EndpointHandle s : boundAll()) {
            call(s, () -> {
                s.endpoint().addLocalAddress(address, thread.now());
                return null;
            });
        }
    }

    /**
     * Removes {@code address} from the bound socket (RFC 5061 Delete IP Address; {@code
     * sctp_bindx(SCTP_BINDX_REM_ADDR)}): nothing leaves from it any more, and each live association
     * that negotiated ASCONF and has another address asks its peer to delete it ({@link
     * Callbacks#onLocalAddressChange} REMOVED or REMOVE_FAILED). The lower layer keeps receiving on
     * the address until no association uses it any more ({@link
     * org.sctpj.stack.Endpoint#localAddressInUse}: every peer asked answered, or the association
     * ended): a peer may send there until it processed the deletion, and over UDP encapsulation a
     * socket closed too early would answer it with ICMP Port Unreachable, which that peer must take
     * as an ABORT (RFC 6951 section 5.5). Waits for the stack thread when called elsewhere.
     *
     * @throws IllegalStateException before bind
     * @throws IllegalArgumentException for an address not bound, or the last one
     */
    public void removeLocalAddress(InetAddress address) throws IOException {
        Objects.requireNonNull(address, "address");
        EndpointHandle h = bound();
        Set<EndpointHandle> users = ConcurrentHashMap.newKeySet();
        for (EndpointHandle s : boundAll()) {
            call(s, () -> {
                s.endpoint().removeLocalAddress(address, s.thread().now());
                if (s.endpoint().localAddressInUse(address)) {
                    users.add(s); // taken out by releaseAddresses
                }
                return null;
            });
        }
        if (users.isEmpty()) {
            h.lowerLayer().removeAddress(address);
            return;
        }
        leaving.put(address, users);
        for (EndpointHandle s : users) {
            // a shard whose last user of the address ended while the others were asked
            call(s, () -> {
                releaseAddresses(s);
                return null;
            });
        }
    }

    /**
     * Stack thread of {@code h}'s shard, after an address answer or an association's end: the
     * shard stops holding the removed addresses none of its associations uses any more, and the
     * lower layer stops receiving on those no shard holds.
     */
    private void releaseAddresses(EndpointHandle h) {
        if (leaving.isEmpty()) {
            return;
        }
        for (java.util.Map.Entry<InetAddress, Set<EndpointHandle>> e : leaving.entrySet()) {
            InetAddress a = e.getKey();
            Set<EndpointHandle> users = e.getValue();
            if (users.contains(h) && !h.endpoint().localAddressInUse(a)) {
                users.remove(h);
                if (users.isEmpty() && leaving.remove(a, users)) {
                    try {
                        h.lowerLayer().removeAddress(a);
                    } catch (IOException | RuntimeException x) {
                        LOG.log(System.Logger.Level.WARNING, "the lower layer did not drop " + a + ": " + x);
                    }
                }
            }
        }
    }

    /**
     * Asks the peer of {@code association} to send to our {@code address} as its primary (RFC 5061
     * Set Primary Address; RFC 6458 SCTP_SET_PEER_PRIMARY_ADDR); {@link
     * Callbacks#onLocalAddressChange} MADE_PRIMARY (or SET_PRIMARY_FAILED) gives the answer. Waits
     * for the stack thread when called elsewhere.
     *
     * @throws IllegalArgumentException for an unknown or closed association, or an address that is
     *     not one of the association's
     * @throws IllegalStateException when the association did not negotiate ASCONF (both ends must
     *     offer {@link org.sctpj.stack.Extension#ASCONF} and {@link
     *     org.sctpj.stack.Extension#AUTH}), or is not established
     */
    public void setPeerPrimary(AssociationId association, InetAddress address) {
        known(association);
        EndpointHandle h = bound(association);
        call(h, () -> {
            h.endpoint().setPeerPrimary(association, address, thread.now());
            return null;
        });
    }

    /**
     * A snapshot of the association's state from the core (paths, RTO, cwnd, ...). Waits for the
     * stack thread when called elsewhere.
     *
     * @throws IllegalArgumentException for an unknown or closed association
     */
    public AssociationInfo info(AssociationId association) {
        known(association);
        EndpointHandle h = bound(association);
        return call(h, () -> h.endpoint()
                .info(association)
                .orElseThrow(() -> new IllegalArgumentException(association + " is closed")));
    }

    /**
     * The association's counters in both directions and per path: messages and bytes, duplicates,
     * out-of-order arrivals, SACKs, timeout and fast retransmissions, RTT, cwnd ({@link
     * AssociationStats}). Waits for the stack thread when called elsewhere.
     *
     * @throws IllegalArgumentException for an unknown or closed association
     */
    public AssociationStats stats(AssociationId association) {
        known(association);
        EndpointHandle h = bound(association);
        return call(h, () -> h.endpoint()
                .associationStats(association)
                .orElseThrow(() -> new IllegalArgumentException(association + " is closed")));
    }

    // ------------------------------------------------------------------ internals

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the socket is closed: open a new one");
        }
    }

    /** Shard 0's handle, for what concerns no one association. */
    private EndpointHandle bound() {
        return boundAll()[0];
    }

    /** Every shard's handle. */
    private EndpointHandle[] boundAll() {
        ensureOpen();
        EndpointHandle[] hs = handles;
        if (hs == null) {
            throw new IllegalStateException("the socket is not bound: call bind(port, addresses) first");
        }
        return hs;
    }

    /** The handle of the shard that owns {@code association}. */
    private EndpointHandle bound(AssociationId association) {
        EndpointHandle[] hs = boundAll();
        return hs[shardOf(association)];
    }

    private Assoc known(AssociationId id) {
        Objects.requireNonNull(id, "association");
        Assoc a = assocs.get(id);
        if (a == null) {
            if (id.value() > 0 && id.value() <= highestId.get()) {
                throw new IllegalArgumentException(id + " is closed: open a new association with connect()");
            }
            throw new IllegalArgumentException(id + " is not an association of this socket (never opened here)");
        }
        return a;
    }

    private Assoc established(AssociationId id) {
        ensureOpen();
        Assoc a = known(id);
        switch (a.phase) {
            case CONNECTING -> throw new IllegalStateException(
                    id + " is not established yet: wait for COMMUNICATION_UP in onAssociationChange");
            case ENDING -> throw new IllegalStateException(id + " is shutting down or closing: no new messages");
            default -> {
                return a;
            }
        }
    }

    /** Stack thread: start tracking an association the core created. */
    private Assoc track(AssociationId id) {
        Assoc a = assocs.computeIfAbsent(id, Assoc::new);
        highestId.accumulateAndGet(id.value(), Math::max);
        return a;
    }

    /** Runs {@code task} on shard 0's stack thread (directly when already there) and returns its result. */
    private <T> T call(Supplier<T> task) {
        EndpointHandle[] hs = handles;
        return call(hs == null ? null : hs[0], thread, task);
    }

    /** Runs {@code task} on the stack thread of {@code h}'s shard and returns its result. */
    private <T> T call(EndpointHandle h, Supplier<T> task) {
        return call(h, h.thread(), task);
    }

    private <T> T call(EndpointHandle h, StackThread thread, Supplier<T> task) {
        if (thread.isStackThread()) {
            return task.get();
        }
        CompletableFuture<T> f = new CompletableFuture<>();
        thread.execute(() -> {
            try {
                if (h != null && h.isClosed()) {
                    throw new IllegalStateException("the socket is closed: open a new one");
                }
                f.complete(task.get());
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        try {
            return f.join();
        } catch (CompletionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) {
                r.addSuppressed(
                        new Exception("called from " + Thread.currentThread().getName()));
                throw r;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    /** Stack thread: publishes the core's free send space of the association to other threads. */
    private void publish(Assoc a) {
        publish(a, handles[shardOf(a.id)].endpoint().sendBufferFree(a.id).orElse(a.published), 0);
    }

    /**
     * Stack thread: {@code coreFree} is the core's figure now; {@code reservationEnds} bytes
     * reserved for a message the core has now taken are given back in the same atomic step.
     */
    private static void publish(Assoc a, long coreFree, long reservationEnds) {
        long delta = coreFree - a.published + reservationEnds;
        a.published = coreFree;
        if (delta != 0) {
            a.available.addAndGet(delta);
        }
    }

    private void guarded(Runnable callback) {
        try {
            callback.run();
        } catch (RuntimeException | Error e) {
            boolean handled;
            try {
                handled = callbacks.onCallbackError(this, e);
            } catch (RuntimeException | Error e2) {
                e.addSuppressed(e2);
                handled = false;
            }
            if (!handled) {
                throw e; // the stack thread reports it and goes on
            }
        }
    }

    /**
     * Turns the core's events into callbacks, on the stack thread, as the endpoint hands them out
     * at the end of each core call.
     */
    private final class Listener implements EndpointListener {
        /** The shard whose endpoint this listener hears (its callbacks run on that shard's thread). */
        private final int shard;
        /**
         * Messages delivered in parts that {@link Callbacks#onMessagePart} left to the socket,
         * gathered per association and stream until their last part (this shard's thread only).
         */
        private final java.util.HashMap<PartKey, java.io.ByteArrayOutputStream> gathering = new java.util.HashMap<>();

        Listener(int shard) {
            this.shard = shard;
        }

        /** The receive callback in place: no copy, no event object, no lambda per message. */
        @Override
        public void onMessage(
                EndpointHandle h,
                AssociationId association,
                int streamId,
                int ppid,
                boolean unordered,
                ByteBuffer data) {
            try {
                callbacks.onMessage(CallbackSocket.this, association, streamId, ppid, unordered, data);
            } catch (RuntimeException | Error e) {
                boolean handled;
                try {
                    handled = callbacks.onCallbackError(CallbackSocket.this, e);
                } catch (RuntimeException | Error e2) {
                    e.addSuppressed(e2);
                    handled = false;
                }
                if (!handled) {
                    throw e; // the stack thread reports it and goes on
                }
            }
        }

        @Override
        public void onSendBufferFreed(EndpointHandle h, AssociationId association, long freeBytes) {
            Assoc a = assocs.get(association);
            if (a != null) {
                publish(a, freeBytes, 0);
            }
        }

        @Override
        public void onEvent(EndpointHandle h, SctpEvent event) {
            if (event instanceof SctpEvent.MessageReceived m) {
                guarded(() -> callbacks.onMessage(CallbackSocket.this, m));
            } else if (event instanceof SctpEvent.MessagePart m) {
                onPart(m);
            } else if (event instanceof SctpEvent.PartialDeliveryAborted a) {
                gathering.remove(new PartKey(a.association(), a.streamId()));
                guarded(() -> callbacks.onPartialDeliveryAborted(CallbackSocket.this, a));
            } else if (event instanceof SctpEvent.SendSpaceAvailable s) {
                Assoc a = assocs.get(s.association());
                if (a == null) {
                    return;
                }
                // The core decided (its threshold); publish its figure before anyone is woken.
                publish(a);
                long free = a.published;
                if (a.phase == UP) {
                    guarded(() -> callbacks.onSendSpace(CallbackSocket.this, a.id, free));
                }
            } else if (event instanceof SctpEvent.AssociationChange c) {
                onChange(c);
                releaseAddresses(h);
                guarded(() -> callbacks.onAssociationChange(CallbackSocket.this, c));
            } else if (event instanceof SctpEvent.PeerAddressChange p) {
                guarded(() -> callbacks.onPeerAddressChange(CallbackSocket.this, p));
            } else if (event instanceof SctpEvent.ShutdownReceived r) {
                Assoc a = assocs.get(r.association());
                if (a != null) {
                    a.phase = ENDING;
                }
                guarded(() -> callbacks.onShutdown(CallbackSocket.this, r));
            } else if (event instanceof SctpEvent.SendFailed f) {
                guarded(() -> callbacks.onSendFailed(CallbackSocket.this, f));
            } else if (event instanceof SctpEvent.RemoteError r) {
                guarded(() -> callbacks.onRemoteError(CallbackSocket.this, r));
            } else if (event instanceof SctpEvent.SenderDry d) {
                Assoc a = assocs.get(d.association());
                if (a != null) {
                    publish(a);
                }
                guarded(() -> callbacks.onSenderDry(CallbackSocket.this, d.association()));
            } else if (event instanceof SctpEvent.AdaptationIndication ai) {
                guarded(() -> callbacks.onAdaptationIndication(CallbackSocket.this, ai));
            } else if (event instanceof SctpEvent.StreamReset r) {
                guarded(() -> callbacks.onStreamReset(CallbackSocket.this, r));
            } else if (event instanceof SctpEvent.AssociationReset r) {
                guarded(() -> callbacks.onAssociationReset(CallbackSocket.this, r));
            } else if (event instanceof SctpEvent.StreamChange c) {
                Assoc a = assocs.get(c.association());
                if (a != null) {
                    a.outboundStreams = c.outboundStreams(); // added streams can be sent on from now
                }
                guarded(() -> callbacks.onStreamChange(CallbackSocket.this, c));
            } else if (event instanceof SctpEvent.Authentication au) {
                guarded(() -> callbacks.onAuthentication(CallbackSocket.this, au));
            } else if (event instanceof SctpEvent.LocalAddressChange lc) {
                releaseAddresses(h);
                guarded(() -> callbacks.onLocalAddressChange(CallbackSocket.this, lc));
            } else if (event instanceof SctpEvent.PathMtuChange m) {
                guarded(() -> callbacks.onPathMtuChange(CallbackSocket.this, m));
            } else if (event instanceof SctpEvent.EcnCongestion ec) {
                guarded(() -> callbacks.onEcnCongestion(CallbackSocket.this, ec));
            }
        }

        /**
         * A part of a message: to {@link Callbacks#onMessagePart}, or, when that leaves it, gathered
         * until the last part and then handed to {@link Callbacks#onMessage} whole.
         */
        private void onPart(SctpEvent.MessagePart m) {
            PartKey key = new PartKey(m.association(), m.streamId());
            java.io.ByteArrayOutputStream g = gathering.get(key);
            if (g == null) {
                boolean[] taken = {false};
                guarded(() -> taken[0] = callbacks.onMessagePart(CallbackSocket.this, m));
                if (taken[0]) {
                    return;
                }
                g = new java.io.ByteArrayOutputStream();
                gathering.put(key, g);
            }
            g.writeBytes(m.data());
            if (m.last()) {
                gathering.remove(key);
                SctpEvent.MessageReceived whole = new SctpEvent.MessageReceived(
                        m.association(), m.streamId(), m.ppid(), m.unordered(), g.toByteArray());
                guarded(() -> callbacks.onMessage(CallbackSocket.this, whole));
            }
        }

        private void onChange(SctpEvent.AssociationChange c) {
            switch (c.type()) {
                case COMMUNICATION_UP, RESTART -> {
                    Assoc a = track(c.association());
                    a.outboundStreams = c.outboundStreams();
                    applySendThreshold(handles[shard], a, sendThreshold);
                    publish(a);
                    if (!closed && a.phase == CONNECTING) {
                        a.phase = UP;
                    }
                }
                case COMMUNICATION_LOST, SHUTDOWN_COMPLETE, CANT_START -> {
                    gathering.keySet().removeIf(k -> k.association().equals(c.association()));
                    Assoc a = assocs.remove(c.association());
                    if (a != null) {
                        a.phase = ENDING;
                    }
                }
            }
        }

        @Override
        public void onClosed(EndpointHandle h) {
            boolean wasClosed = closed;
            closed = true;
            for (Assoc a : assocs.values()) {
                if (shardOf(a.id) == shard) {
                    a.phase = ENDING;
                    assocs.remove(a.id);
                }
            }
            EndpointHandle[] hs = handles;
            if (!wasClosed && hs != null) {
                for (EndpointHandle o : hs) {
                    if (o != h) {
                        o.close(false, 0); // a shard ended on its own (its layer failed): the socket ends whole
                    }
                }
            }
            if (shardsOpen.decrementAndGet() > 0) {
                return;
            }
            for (Assoc a : assocs.values()) {
                a.phase = ENDING;
            }
            assocs.clear();
            if (journal instanceof AutoCloseable c) {
                guarded(() -> {
                    try {
                        c.close();
                    } catch (Exception e) {
                        throw new IllegalStateException("closing the journal: " + e, e);
                    }
                });
            }
            closedLatch.countDown();
            guarded(() -> callbacks.onClosed(CallbackSocket.this));
        }
    }

    // ------------------------------------------------------------------ the socket's thread

    /**
     * Whether the calling thread is the socket's thread: true inside a callback or a task given to
     * {@link #execute}; with several shards, on any shard's thread. Any thread.
     */
    public boolean isSocketThread() {
        return current() != null;
    }

    /**
     * Whether the calling thread is the thread of the shard that owns {@code association} (the one
     * its callbacks run on). Any thread.
     */
    public boolean isSocketThread(AssociationId association) {
        return threads[shardOf(association)].isStackThread();
    }

    /** The socket's stack thread the caller runs on, or null. */
    private StackThread current() {
        for (StackThread t : threads) {
            if (t.isStackThread()) {
                return t;
            }
        }
        return null;
    }

    /**
     * Runs {@code task} on the socket's thread, after the commands (sends included) the calling
     * thread handed over before it; called on the socket's thread itself, it runs there once the
     * current callback and the work queued before it are done. Never blocks. A task that throws is
     * reported to the runtime's error reporter and the thread goes on. Runs even once the socket is
     * closed, as long as its thread lives.
     *
     * @throws IllegalStateException if the socket's thread is closed (the runtime was closed)
     */
    public void execute(Runnable task) {
        StackThread t = current();
        (t != null ? t : thread).execute(task);
    }

    /**
     * As {@link #execute(Runnable)}, on the thread of the shard that owns {@code association}
     * (where its callbacks run): a task that reads what those callbacks write needs no lock.
     *
     * @throws IllegalStateException if that thread is closed
     */
    public void execute(AssociationId association, Runnable task) {
        threads[shardOf(association)].execute(task);
    }

    /**
     * On the socket's thread (inside a callback or a task): runs {@code task} there once the thread
     * has caught up with its input (just before it would wait for more), or after 1 ms while it
     * stays busy. For work done once per burst of input rather than once per message, such as
     * waking an application thread that waits for messages.
     *
     * @throws IllegalStateException if called on another thread (use {@link #execute} there)
     */
    public void whenIdle(Runnable task) {
        StackThread t = current();
        (t != null ? t : thread).whenIdle(task);
    }

    /**
     * On the socket's thread (inside a callback or a task): runs {@code task} there at the end of
     * the thread's current round of work (the commands, packets, timers and callbacks it handles
     * now), before it looks for more.
     *
     * @throws IllegalStateException if called on another thread (use {@link #execute} there)
     */
    public void atTurnEnd(Runnable task) {
        StackThread t = current();
        (t != null ? t : thread).atTurnEnd(task);
    }

    // ------------------------------------------------------------------ UDP encapsulation

    /**
     * The local UDP port of the socket's UDP encapsulation (RFC 6951; the lower layer {@link
     * UdpLayers#factory} opens), the one the system chose when 0 was asked; 0 before {@link #bind}
     * or when the lower layer is not UDP encapsulation. Any thread.
     */
    public int udpLocalPort() {
        EndpointHandle h = handle;
        UdpEncapsulation u = h == null ? null : udp(h.lowerLayer());
        return u != null ? u.localPort() : 0;
    }

    /**
     * Sends the packets for {@code peer} to its UDP port {@code port} (RFC 6951 section 5.4), until
     * a packet from that address shows another. Call it before {@link #connect} to a peer that
     * does not listen on UDP port {@value UdpLayers#DEFAULT_PORT}. Any thread; waits for the
     * socket's thread when called elsewhere.
     *
     * @throws IllegalArgumentException for a port outside 1..65535
     * @throws IllegalStateException if the socket is not bound or closed, or its lower layer is not
     *     UDP encapsulation (open it with {@link UdpLayers#factory})
     */
    public void setUdpRemotePort(InetAddress peer, int port) {
        Objects.requireNonNull(peer, "peer");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("remote UDP port must be 1..65535, was " + port);
        }
        EndpointHandle h = bound();
        UdpEncapsulation u = udp(h.lowerLayer());
        if (u == null) {
            throw new IllegalStateException(
                    "the socket's lower layer is " + h.lowerLayer().getClass().getSimpleName()
                            + ", not UDP encapsulation: open the socket with UdpLayers.factory to use UDP ports");
        }
        org.sctpj.timers.SharedLayer sl = shared;
        call(() -> {
            if (sl != null) {
                sl.locked(() -> u.setRemotePort(peer, port)); // the shards share the layer
            } else {
                u.setRemotePort(peer, port);
            }
            return null;
        });
    }

    /** The UDP encapsulation beneath {@code layer}'s decorators ({@link LowerLayer#inner()}), or null. */
    private static UdpEncapsulation udp(LowerLayer layer) {
        for (LowerLayer l = layer; l != null; l = l.inner()) {
            if (l instanceof UdpEncapsulation u) {
                return u;
            }
        }
        return null;
    }
}
