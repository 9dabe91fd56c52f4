package org.sctpj.api.socket;

import com.sun.nio.sctp.AssociationChangeNotification.AssocChangeEvent;
import com.sun.nio.sctp.InvalidStreamException;
import com.sun.nio.sctp.PeerAddressChangeNotification.AddressChangeEvent;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.sctpj.api.callback.CallbackSocket;
import org.sctpj.api.callback.Callbacks;
import org.sctpj.api.socket.SctpjSocketOptions.Event;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.PrStatus;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.StreamSchedulerKind;

/**
 * One endpoint of the socket API: a {@link CallbackSocket} whose callbacks fill the inboxes of the
 * channels that share it (a server and its accepted channels, a one-to-many channel and its
 * branches). Closed when the last channel using it lets it go.
 */
final class Core implements Callbacks {

    /** Closes endpoints after their linger time (one daemon thread for the process). */
    private static final ScheduledExecutorService LINGER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "sctpj-socket-linger");
        t.setDaemon(true);
        return t;
    });

    final SctpProvider provider;
    final OptionValues options;
    final SctpOptions sctpOptions;
    final int localPort;
    final List<InetAddress> localAddresses;
    final int receiveQueueLimit;
    /**
     * A reader waiting for messages is woken when the stack thread has caught up with its input,
     * or sooner once this many bytes arrived (at most an eighth of the window, so the window
     * never closes on messages nobody was told about).
     */
    private final long wakeBatchBytes;
    /**
     * Read bytes released to the receive window in one command (see {@link AssocState#consumed}):
     * the same eighth of the window, at most 64 KiB.
     */
    final long releaseBatchBytes;

    private final ConcurrentHashMap<AssociationId, AssocState> assocs = new ConcurrentHashMap<>();
    /** Stack thread: where a peer-initiated association goes; null refuses (aborts) it. */
    private volatile Function<AssocState, Inbox> acceptor;

    private CallbackSocket socket;
    /** The socket's end-of-turn and idle tasks, for the inboxes. */
    private final Inbox.Turns turns = new Inbox.Turns() {
        @Override
        public void atTurnEnd(Runnable task) {
            socket.atTurnEnd(task);
        }

        @Override
        public void whenIdle(Runnable task) {
            socket.whenIdle(task);
        }
    };

    private int users = 1;
    private volatile boolean closed;

    private Core(SctpProvider provider, OptionValues options, int port, List<InetAddress> addresses) {
        this.provider = provider;
        this.options = options;
        this.sctpOptions = options.sctpOptions(provider.defaults());
        this.localPort = port;
        this.localAddresses = List.copyOf(addresses);
        this.receiveQueueLimit = options.get(SctpjSocketOptions.SCTP_RECEIVE_QUEUE_LIMIT);
        this.wakeBatchBytes = Math.min(64 * 1024, Math.max(1, sctpOptions.receiveBufferBytes() / 8));
        this.releaseBatchBytes = wakeBatchBytes;
    }

    /**
     * Opens and binds an endpoint. {@code acceptor} non-null: listens, and gives each association
     * a peer starts an inbox (or null to refuse it).
     */
    static Core open(
            SctpProvider provider,
            OptionValues options,
            int port,
            List<InetAddress> addresses,
            Function<AssocState, Inbox> acceptor)
            throws IOException {
        Core c = new Core(provider, options, port, addresses);
        int udpPort = options.get(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT);
        c.socket = provider.runtime().open(c.sctpOptions, provider.layers(udpPort), c);
        try {
            c.socket.bind(port, addresses);
        } catch (IOException | RuntimeException e) {
            c.closed = true;
            c.socket.close();
            throw e;
        }
        if (acceptor != null) {
            c.acceptor = acceptor;
            c.socket.listen();
        }
        return c;
    }

    boolean isClosed() {
        return closed;
    }

    /** The local UDP port of the encapsulation, or 0 for another lower layer. */
    int udpPort() {
        return socket.udpLocalPort();
    }

    /** Stops accepting new associations (those that arrive are aborted). */
    void stopAccepting() {
        acceptor = null;
    }

    /** Another channel shares this endpoint. */
    synchronized void retain() {
        users++;
    }

    /**
     * A channel lets the endpoint go; the last one closes it: gracefully in the background
     * ({@code lingerSeconds} negative), abortively (0), or gracefully waiting up to that many
     * seconds.
     */
    void release(int lingerSeconds) {
        synchronized (this) {
            if (--users > 0) {
                return;
            }
            closed = true;
        }
        for (AssocState a : assocs.values()) {
            a.wakeAll();
        }
        if (lingerSeconds == 0) {
            socket.close(false, Duration.ZERO);
        } else if (lingerSeconds > 0) {
            socket.close(true, Duration.ofSeconds(lingerSeconds));
        } else {
            // Finish the shutdowns in the background, and keep the endpoint a little longer (like
            // TCP's TIME-WAIT): if our last SHUTDOWN COMPLETE is lost, the peer retransmits its
            // SHUTDOWN ACK, and only a live endpoint can answer it (RFC 9260 section 8.4 (5));
            // with the lower layer closed the peer would end in COMMUNICATION_LOST.
            CallbackSocket s = socket;
            long wait = Math.min(2 * sctpOptions.rtoMax().toMillis(), 5_000);
            LINGER.schedule(
                    () -> {
                        try {
                            s.execute(() -> s.close(true, Duration.ofSeconds(30)));
                        } catch (IllegalStateException e) {
                            s.close();
                        }
                    },
                    wait,
                    TimeUnit.MILLISECONDS);
        }
    }

    List<AssocState> associations() {
        return new ArrayList<>(assocs.values());
    }

    AssocState association(AssociationId id) {
        return assocs.get(id);
    }

    /** Runs {@code task} on the stack thread and waits for its result. */
    <T> T onStack(Supplier<T> task) throws IOException {
        return onStack(null, task);
    }

    /**
     * Runs {@code task} on the stack thread of {@code association}'s shard (where its callbacks run,
     * so that the task sees what they wrote; any of the socket's threads when null) and waits for
     * its result.
     */
    <T> T onStack(AssociationId association, Supplier<T> task) throws IOException {
        if (association == null ? socket.isSocketThread() : socket.isSocketThread(association)) {
            return task.get();
        }
        CompletableFuture<T> f = new CompletableFuture<>();
        Runnable run = () -> {
            try {
                f.complete(task.get());
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        };
        try {
            if (association == null) {
                socket.execute(run);
            } else {
                socket.execute(association, run);
            }
        } catch (IllegalStateException e) {
            throw new ClosedChannelException();
        }
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IOException(e.getCause());
        }
    }

    /** Starts an association to {@code peers} (same port; the first is the primary). */
    AssocState connect(List<InetSocketAddress> peers, Inbox inbox, int remoteUdp) throws IOException {
        int port = peers.get(0).getPort();
        List<InetAddress> addrs = new ArrayList<>();
        for (InetSocketAddress p : peers) {
            if (p.getPort() != port) {
                throw new IllegalArgumentException("all peer addresses of one association share one port: " + peers);
            }
            addrs.add(p.getAddress());
        }
        return onStack(() -> {
            if (socket.udpLocalPort() != 0) {
                for (InetAddress a : addrs) {
                    socket.setUdpRemotePort(a, remoteUdp);
                }
            }
            AssociationId id = socket.connect(addrs, port);
            applyScheduler(id);
            AssocState a = new AssocState(this, id, port, inbox);
            a.primary = peers.get(0);
            a.remotes = List.copyOf(peers);
            assocs.put(id, a);
            return a;
        });
    }

    /**
     * Sends one message: blocks (up to {@code timeoutNanos}; negative: no limit) while the send
     * buffer is full, unless {@code blocking} is false.
     *
     * @return the bytes sent, or 0 if the buffer stayed full
     */
    int send(AssocState a, ByteBuffer src, SendInfo info, boolean blocking, long timeoutNanos)
            throws IOException, InterruptedException {
        int len = src.remaining();
        long deadline = 0; // read from the clock only if this has to wait
        SctpjAssociation v = a.view;
        if (v != null && info.streamId() >= v.maxOutboundStreams()) {
            throw new InvalidStreamException("stream " + info.streamId() + " does not exist: the association has "
                    + v.maxOutboundStreams() + " outbound streams (0.." + (v.maxOutboundStreams() - 1) + ")");
        }
        if (len == 0) {
            throw new IllegalArgumentException("a message must carry at least one byte (SCTP has no empty messages)");
        }
        int max = sctpOptions.maxMessageSize();
        if (len > max) {
            throw new IllegalArgumentException("message of " + len + " bytes exceeds the maximum message size " + max
                    + ": split it, or raise SO_SNDBUF");
        }
        // Priority-policy messages may make room by abandoning others (RFC 7496 section 3.2), which
        // only the core can decide, and a send on the stack thread goes straight in: both take the
        // callback API's path, after what waits in the ring.
        boolean direct = socket.isSocketThread() || isPriority(info);
        while (true) {
            long epoch = a.spaceEpoch();
            checkSendable(a);
            boolean accepted;
            try {
                if (direct) {
                    if (socket.isSocketThread()) {
                        a.sends.drainNow();
                    }
                    accepted = socket.send(a.id, info, src) == SendStatus.ACCEPTED;
                } else {
                    accepted = a.sends.offer(socket, src, info) == SendRing.ACCEPTED;
                }
            } catch (IllegalStateException e) {
                if (closed || a.phase != AssocState.UP) {
                    checkSendable(a);
                }
                throw e;
            }
            if (accepted) {
                return len;
            }
            if (!blocking) {
                // Not writable until the stack frees room for this message (OP_WRITE).
                a.markSendBlocked(len, () -> freeSpace(a));
                return 0;
            }
            if (deadline == 0 && timeoutNanos >= 0) {
                deadline = System.nanoTime() + Math.max(1, timeoutNanos);
            }
            if (!a.awaitSpace(epoch, len, deadline)) {
                return 0;
            }
        }
    }

    private static boolean isPriority(SendInfo info) {
        return info.prPolicy().isPresent() && info.prPolicy().get().kind() == org.sctpj.stack.PrPolicy.Kind.PRIORITY;
    }

    /** The socket the associations run on (for the send rings' drains, on the stack thread). */
    CallbackSocket socket() {
        return socket;
    }

    /**
     * Any thread: the bytes a send can place now (less what waits in the association's send
     * ring), or a lot once the association is gone.
     */
    private long freeSpace(AssocState a) {
        long waiting = a.sends.pending();
        try {
            return socket.sendBufferFree(a.id) - waiting;
        } catch (IllegalArgumentException | IllegalStateException e) {
            return Long.MAX_VALUE;
        }
    }

    /** Any thread: the application read {@code bytes} of the association's messages. */
    void released(AssocState a, long bytes) {
        if (!closed && a.id != null) {
            socket.releaseReceived(a.id, bytes);
        }
    }

    private void checkSendable(AssocState a) throws IOException {
        if (closed) {
            throw new ClosedChannelException();
        }
        switch (a.phase) {
            case AssocState.CONNECTING -> throw new java.nio.channels.NotYetConnectedException();
            case AssocState.LOCAL_SHUTDOWN -> throw new ClosedChannelException();
            case AssocState.PEER_SHUTDOWN -> throw new SocketException(
                    "the peer shut association " + a.id.value() + " down: no more messages can be sent");
            case AssocState.ENDED -> {
                if (a.localShutdown) {
                    throw new ClosedChannelException(); // as the JDK documents after shutdown()
                }
                throw new SocketException("association " + a.id.value() + " has ended (" + a.endReason + ")");
            }
            default -> {}
        }
    }

    /** Starts a graceful shutdown (aborts an association still being set up). */
    void shutdown(AssocState a) throws IOException {
        onStack(a.id, () -> {
            a.localShutdown = true;
            a.sends.drainNow(); // the messages sent before shutdown() go first
            if (a.phase == AssocState.UP || a.phase == AssocState.PEER_SHUTDOWN) {
                a.phase = AssocState.LOCAL_SHUTDOWN;
                socket.shutdown(a.id);
            } else if (a.phase == AssocState.CONNECTING) {
                socket.abort(a.id, "closed during setup");
            }
            return null;
        });
    }

    /** Aborts the association (ABORT with a User-Initiated Abort cause carrying {@code reason}). */
    void abort(AssocState a, String reason) throws IOException {
        ifLive(a, id -> socket.abort(id, reason));
    }

    /** Runs {@code action} with the association's id on the stack thread, unless it has ended. */
    private void ifLive(AssocState a, java.util.function.Consumer<AssociationId> action) throws IOException {
        onStack(a.id, () -> {
            if (a.phase != AssocState.ENDED && socket.associations().contains(a.id)) {
                action.accept(a.id);
            }
            return null;
        });
    }

    /**
     * Makes {@code peer} the association's primary path (RFC 9260 section 5.1.2; RFC 6458
     * SCTP_PRIMARY_ADDR).
     *
     * @throws IllegalArgumentException if {@code peer} is not one of the association's peer
     *     addresses
     */
    void setPrimary(AssocState a, InetSocketAddress peer) throws IOException {
        if (a.peerPort != 0 && peer.getPort() != 0 && peer.getPort() != a.peerPort) {
            throw new IllegalArgumentException(
                    peer + " is not an address of the peer (its port is " + a.peerPort + ")");
        }
        onStack(a.id, () -> {
            if (a.phase == AssocState.ENDED || !socket.associations().contains(a.id)) {
                throw new IllegalStateException("association " + a.id.value() + " has ended");
            }
            socket.setPrimary(a.id, peer.getAddress());
            a.primary = new InetSocketAddress(peer.getAddress(), a.peerPort);
            return null;
        });
    }

    /**
     * Adds a local address to the live endpoint (RFC 5061 Add IP Address): see {@link
     * CallbackSocket#addLocalAddress}.
     */
    void addLocalAddress(InetAddress address) throws IOException {
        socket.addLocalAddress(address);
    }

    /** Removes a local address from the live endpoint: see {@link CallbackSocket#removeLocalAddress}. */
    void removeLocalAddress(InetAddress address) throws IOException {
        socket.removeLocalAddress(address);
    }

    /** Whether the association negotiated ASCONF (RFC 5061), so its addresses can change live. */
    boolean usesAsconf(AssocState a) throws IOException {
        AssociationInfo i = info(a);
        return i != null && i.extensions().contains(org.sctpj.stack.Extension.ASCONF);
    }

    /**
     * Asks the peer to take our {@code local} address as its primary (RFC 5061 Set Primary
     * Address; SCTP_SET_PEER_PRIMARY_ADDR).
     */
    void setPeerPrimary(AssocState a, InetSocketAddress local) throws IOException {
        onStack(a.id, () -> {
            if (a.phase == AssocState.ENDED || !socket.associations().contains(a.id)) {
                throw new IllegalStateException("association " + a.id.value() + " has ended");
            }
            socket.setPeerPrimary(a.id, local.getAddress());
            return null;
        });
    }

    /** The association's abandoned messages (RFC 7496 section 4.5), or null once it ended. */
    PrStatus prStatus(AssocState a, int streamId) throws IOException {
        return onStack(
                a.id,
                () -> socket.associations().contains(a.id)
                        ? (streamId < 0 ? socket.prStatus(a.id) : socket.prStatus(a.id, streamId))
                        : null);
    }

    AssociationInfo info(AssocState a) throws IOException {
        return onStack(a.id, () -> socket.associations().contains(a.id) ? socket.info(a.id) : null);
    }

    /** The association's counters, or null once it ended. */
    org.sctpj.stack.AssociationStats stats(AssocState a) throws IOException {
        return onStack(a.id, () -> socket.associations().contains(a.id) ? socket.stats(a.id) : null);
    }

    // ------------------------------------------------------------------ callbacks (stack thread)

    private AssocState state(AssociationId id) {
        AssocState a = assocs.get(id);
        if (a != null) {
            return a;
        }
        Function<AssocState, Inbox> acc = acceptor;
        a = new AssocState(this, id, 0, null);
        Inbox in = acc == null ? null : acc.apply(a);
        if (in == null) {
            a.phase = AssocState.ENDED;
            a.endReason = "refused: no channel accepts associations";
            socket.abort(id, "no channel accepts associations");
            return null;
        }
        a.inbox = in;
        a.peerPort = socket.peerPort(id);
        assocs.put(id, a);
        applyScheduler(id);
        return a;
    }

    /**
     * Stack thread: a new association starts with the channel's SCTP_PLUGGABLE_SS, which may have
     * changed since the endpoint was bound with {@link #sctpOptions}.
     */
    private void applyScheduler(AssociationId id) {
        StreamSchedulerKind k = options.get(SctpjSocketOptions.SCTP_PLUGGABLE_SS);
        if (k != sctpOptions.streamScheduler()) {
            socket.setStreamScheduler(id, k);
        }
    }

    /** Switches the stream scheduler of a live association (RFC 8260 section 4.3.2); ignored once it ended. */
    void setStreamScheduler(AssocState a, StreamSchedulerKind kind) throws IOException {
        ifLive(a, id -> socket.setStreamScheduler(id, kind));
    }

    /** The association's stream scheduler, or null once it is gone. */
    StreamSchedulerKind streamScheduler(AssocState a) throws IOException {
        return onStack(a.id, () -> socket.associations().contains(a.id) ? socket.streamScheduler(a.id) : null);
    }

    /** Sets a stream's scheduler value (RFC 8260 section 4.3.3 SCTP_SS_VALUE). */
    void setStreamValue(AssocState a, int streamId, int value) throws IOException {
        onStack(a.id, () -> {
            socket.setStreamValue(live(a), streamId, value);
            return null;
        });
    }

    /** A stream's scheduler value. */
    int streamValue(AssocState a, int streamId) throws IOException {
        return onStack(a.id, () -> socket.streamValue(live(a), streamId));
    }

    /** Stack thread: the id of {@code a} while the core has it. */
    private AssociationId live(AssocState a) {
        if (a.phase == AssocState.ENDED || !socket.associations().contains(a.id)) {
            throw new IllegalStateException("association " + a.id.value() + " has ended: stream values are gone");
        }
        return a.id;
    }

    @Override
    public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
        queue(s, m.association(), m.streamId(), m.ppid(), m.unordered(), m.data(), true);
    }

    /**
     * A part of a message delivered in parts: queued as it is, read with {@link
     * MessageInfo#isComplete()} false until the end of the last part, so that its bytes are
     * released (and the receive window reopens) as the application reads them.
     */
    @Override
    public boolean onMessagePart(CallbackSocket s, SctpEvent.MessagePart m) {
        queue(s, m.association(), m.streamId(), m.ppid(), m.unordered(), m.data(), m.last());
        return true;
    }

    /**
     * The zero-copy callback: one copy, from the packet straight into the channel's ring (no
     * object per message).
     */
    @Override
    public void onMessage(
            CallbackSocket s,
            AssociationId association,
            int streamId,
            int ppid,
            boolean unordered,
            java.nio.ByteBuffer data) {
        AssocState a = receiving(s, association, data.remaining());
        if (a != null) {
            a.inbox.add(turns, a, streamId, ppid, unordered, data, wakeBatchBytes);
        }
    }

    private void queue(
            CallbackSocket s,
            AssociationId association,
            int streamId,
            int ppid,
            boolean unordered,
            byte[] data,
            boolean last) {
        AssocState a = receiving(s, association, data.length);
        if (a != null) {
            a.inbox.add(turns, a, streamId, ppid, unordered, data, data.length, last, wakeBatchBytes);
        }
    }

    /** Stack thread only: the association a message last arrived on (one map lookup per change). */
    private AssocState lastReceiving;

    /**
     * Stack thread: the association {@code length} more bytes may be queued for, or null when it
     * has no channel or (aborted here) the application holds more than SCTP_RECEIVE_QUEUE_LIMIT
     * unread. The unread count is the association's queued bytes less what the readers report
     * read, which is read afresh only when the estimate from the last reading passes the limit.
     */
    private AssocState receiving(CallbackSocket s, AssociationId association, int length) {
        AssocState a = lastReceiving;
        if (a == null || !a.id.equals(association)) {
            a = state(association);
            lastReceiving = a;
        }
        if (a == null || a.inbox == null) {
            return null;
        }
        if (a.queuedIn + length - a.seenRead > receiveQueueLimit) {
            a.seenRead = a.read.get();
            if (a.queuedIn + length - a.seenRead > receiveQueueLimit) {
                s.abort(
                        a.id,
                        "receiver overrun: the application holds more than " + receiveQueueLimit
                                + " unread bytes (SCTP_RECEIVE_QUEUE_LIMIT)");
                return null;
            }
        }
        a.queuedIn += length;
        return a;
    }

    @Override
    public void onSendSpace(CallbackSocket s, AssociationId id, long freeBytes) {
        AssocState a = assocs.get(id);
        if (a != null) {
            a.sends.resume();
            a.spaceFreed(freeBytes);
        }
    }

    @Override
    public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
        AssocChangeEvent ev;
        AssocState a;
        switch (c.type()) {
            case COMMUNICATION_UP, RESTART -> {
                a = state(c.association());
                if (a == null) {
                    return;
                }
                a.view = new SctpjAssociation(this, a.id, c.inboundStreams(), c.outboundStreams());
                AssociationInfo info = s.info(a.id);
                List<InetSocketAddress> rs = new ArrayList<>();
                for (AssociationInfo.PathInfo p : info.paths()) {
                    rs.add(new InetSocketAddress(p.address(), a.peerPort));
                }
                a.remotes = List.copyOf(rs);
                a.primary = new InetSocketAddress(info.primary(), a.peerPort);
                if (a.phase == AssocState.CONNECTING) {
                    a.phase = AssocState.UP;
                }
                ev = c.type() == SctpEvent.AssociationChangeType.RESTART
                        ? AssocChangeEvent.RESTART
                        : AssocChangeEvent.COMM_UP;
            }
            default -> {
                a = assocs.remove(c.association());
                lastReceiving = null;
                if (a == null) {
                    return;
                }
                if (a.view == null) {
                    a.view = new SctpjAssociation(this, a.id, 0, 0);
                }
                a.endReason = c.type() + ": " + c.reason();
                ev = switch (c.type()) {
                    case SHUTDOWN_COMPLETE -> AssocChangeEvent.SHUTDOWN;
                    case CANT_START -> AssocChangeEvent.CANT_START;
                    default -> AssocChangeEvent.COMM_LOST;
                };
            }
        }
        Inbox in = a.inbox;
        if (in != null) {
            in.note(Event.ASSOCIATION_CHANGE, new SctpjAssociationChangeNotification(a.view, ev, c.reason()));
        }
        // The notification is queued before the end shows: a receiver must not report the end of
        // stream while the notification of that end is still to come.
        if (ev != AssocChangeEvent.COMM_UP && ev != AssocChangeEvent.RESTART) {
            a.phase = AssocState.ENDED;
        }
        a.wakeAll();
    }

    @Override
    public void onPeerAddressChange(CallbackSocket s, SctpEvent.PeerAddressChange p) {
        AssocState a = assocs.get(p.association());
        if (a == null || a.inbox == null) {
            return;
        }
        AddressChangeEvent ev =
                switch (p.state()) {
                    case AVAILABLE -> AddressChangeEvent.ADDR_AVAILABLE;
                    case UNREACHABLE, POTENTIALLY_FAILED -> AddressChangeEvent.ADDR_UNREACHABLE;
                    case CONFIRMED -> AddressChangeEvent.ADDR_CONFIRMED;
                    case MADE_PRIMARY -> AddressChangeEvent.ADDR_MADE_PRIMARY;
                    case ADDED -> AddressChangeEvent.ADDR_ADDED; // RFC 5061: the peer added it
                    case REMOVED -> AddressChangeEvent.ADDR_REMOVED;
                };
        InetSocketAddress addr = new InetSocketAddress(p.address(), a.peerPort);
        if (ev == AddressChangeEvent.ADDR_MADE_PRIMARY) {
            a.primary = addr;
        }
        a.inbox.note(
                Event.PEER_ADDRESS_CHANGE,
                new SctpjPeerAddressChangeNotification(
                        a.view, addr, ev, p.state() == SctpEvent.PeerAddressState.POTENTIALLY_FAILED));
    }

    @Override
    public void onShutdown(CallbackSocket s, SctpEvent.ShutdownReceived r) {
        AssocState a = assocs.get(r.association());
        if (a == null) {
            return;
        }
        if (a.inbox != null) {
            a.inbox.note(Event.SHUTDOWN, new SctpjShutdownNotification(a.view));
        }
        if (a.phase == AssocState.UP) {
            a.phase = AssocState.PEER_SHUTDOWN;
        }
        a.wakeAll();
    }

    @Override
    public void onSendFailed(CallbackSocket s, SctpEvent.SendFailed f) {
        AssocState a = assocs.get(f.association());
        if (a == null || a.inbox == null) {
            return;
        }
        a.inbox.note(
                Event.SEND_FAILED,
                new SctpjSendFailedNotification(
                        a.view,
                        a.primary,
                        ByteBuffer.wrap(f.data()).asReadOnlyBuffer(),
                        f.partiallySent() ? 1 : 0,
                        f.streamId(),
                        f.abandoned()));
    }

    @Override
    public void onRemoteError(CallbackSocket s, SctpEvent.RemoteError r) {
        AssocState a = assocs.get(r.association());
        if (a != null && a.inbox != null) {
            a.inbox.note(Event.REMOTE_ERROR, new RemoteErrorNotification(a.view, r.causes()));
        }
    }

    @Override
    public void onPartialDeliveryAborted(CallbackSocket s, SctpEvent.PartialDeliveryAborted e) {
        AssocState a = assocs.get(e.association());
        if (a != null && a.inbox != null) {
            a.inbox.note(
                    Event.PARTIAL_DELIVERY_ABORTED,
                    new PartialDeliveryAbortedNotification(
                            a.view, e.streamId(), e.sequenceNumber(), e.unordered(), e.deliveredBytes()));
        }
    }

    @Override
    public void onSenderDry(CallbackSocket s, AssociationId id) {
        AssocState a = assocs.get(id);
        if (a != null && a.inbox != null) {
            a.inbox.note(Event.SENDER_DRY, new SenderDryNotification(a.view));
        }
    }

    @Override
    public void onAdaptationIndication(CallbackSocket s, SctpEvent.AdaptationIndication ai) {
        AssocState a = assocs.get(ai.association());
        if (a != null && a.inbox != null) {
            a.inbox.note(Event.ADAPTATION_INDICATION, new AdaptationIndicationNotification(a.view, ai.indication()));
        }
    }

    @Override
    public void onStreamReset(CallbackSocket s, SctpEvent.StreamReset r) {
        AssocState a = assocs.get(r.association());
        if (a != null && a.inbox != null) {
            a.inbox.note(
                    Event.STREAM_RESET, new StreamResetNotification(a.view, r.outgoing(), r.outcome(), r.streams()));
        }
    }

    @Override
    public void onAssociationReset(CallbackSocket s, SctpEvent.AssociationReset r) {
        AssocState a = assocs.get(r.association());
        if (a != null && a.inbox != null) {
            a.inbox.note(
                    Event.ASSOCIATION_RESET,
                    new AssociationResetNotification(a.view, r.outcome(), r.localTsn(), r.remoteTsn()));
        }
    }

    @Override
    public void onStreamChange(CallbackSocket s, SctpEvent.StreamChange c) {
        AssocState a = assocs.get(c.association());
        if (a != null && c.outcome() == SctpEvent.ReconfigOutcome.PERFORMED) {
            // The association's view carries the stream counts (as after a restart).
            a.view = new SctpjAssociation(this, a.id, c.inboundStreams(), c.outboundStreams());
        }
        if (a != null && a.inbox != null) {
            a.inbox.note(
                    Event.STREAM_CHANGE,
                    new StreamChangeNotification(a.view, c.outcome(), c.inboundStreams(), c.outboundStreams()));
        }
    }

    @Override
    public void onAuthentication(CallbackSocket s, SctpEvent.Authentication e) {
        AssocState a = assocs.get(e.association());
        if (a != null && a.inbox != null) {
            a.inbox.note(Event.AUTHENTICATION, new AuthenticationNotification(a.view, e.indication(), e.keyId()));
        }
    }

    @Override
    public void onLocalAddressChange(CallbackSocket s, SctpEvent.LocalAddressChange c) {
        AssocState a = assocs.get(c.association());
        if (a != null && a.inbox != null) {
            a.inbox.note(
                    Event.LOCAL_ADDRESS_CHANGE,
                    new LocalAddressChangeNotification(a.view, c.address(), c.state(), c.causes()));
        }
    }

    @Override
    public void onPathMtuChange(CallbackSocket s, SctpEvent.PathMtuChange m) {
        AssocState a = assocs.get(m.association());
        if (a != null && a.inbox != null) {
            a.inbox.note(
                    Event.PATH_MTU_CHANGE,
                    new PathMtuChangeNotification(a.view, m.path(), m.oldMtu(), m.newMtu(), m.reason()));
        }
    }

    @Override
    public void onEcnCongestion(CallbackSocket s, SctpEvent.EcnCongestion e) {
        AssocState a = assocs.get(e.association());
        if (a != null && a.inbox != null) {
            a.inbox.note(
                    Event.ECN_CONGESTION,
                    new EcnCongestionNotification(a.view, e.path(), e.cwndBefore(), e.cwndAfter()));
        }
    }

    /**
     * AUTH key management of RFC 6458 sections 8.1.22, 8.1.23, 8.3.4 and 8.3.5 on the stack
     * thread; {@code op} is 0 set (with {@code key}), 1 activate, 2 deactivate, 3 delete. See
     * {@link CallbackSocket#setAuthKey(org.sctpj.stack.AssociationId, int, byte[])}.
     */
    void authKey(AssocState a, int op, int keyId, byte[] key) throws IOException {
        onStack(a.id, () -> {
            switch (op) {
                case 0 -> socket.setAuthKey(a.id, keyId, key);
                case 1 -> socket.setActiveAuthKey(a.id, keyId);
                case 2 -> socket.deactivateAuthKey(a.id, keyId);
                default -> socket.deleteAuthKey(a.id, keyId);
            }
            return null;
        });
    }

    /** Stream reconfiguration of RFC 6525 on the stack thread; see {@link CallbackSocket#resetStreams}. */
    void resetStreams(AssocState a, int[] streams, boolean outgoing, boolean incoming) throws IOException {
        onStack(a.id, () -> {
            socket.resetStreams(a.id, streams, outgoing, incoming);
            return null;
        });
    }

    /** See {@link CallbackSocket#resetAssociation}. */
    void resetAssociation(AssocState a) throws IOException {
        onStack(a.id, () -> {
            socket.resetAssociation(a.id);
            return null;
        });
    }

    /** See {@link CallbackSocket#addStreams}. */
    void addStreams(AssocState a, int outbound, int inbound) throws IOException {
        onStack(a.id, () -> {
            socket.addStreams(a.id, outbound, inbound);
            return null;
        });
    }

    /** See {@link CallbackSocket#setAcceptedReconfigRequests}. */
    void setAcceptedReconfigRequests(AssocState a, java.util.Set<org.sctpj.stack.ReconfigRequestKind> kinds)
            throws IOException {
        onStack(a.id, () -> {
            socket.setAcceptedReconfigRequests(a.id, kinds);
            return null;
        });
    }

    @Override
    public void onClosed(CallbackSocket s) {
        closed = true;
        for (AssocState a : assocs.values()) {
            if (a.phase != AssocState.ENDED) {
                a.endReason = "the endpoint was closed";
                a.phase = AssocState.ENDED;
            }
            a.wakeAll();
        }
        assocs.clear();
        lastReceiving = null;
    }
}
