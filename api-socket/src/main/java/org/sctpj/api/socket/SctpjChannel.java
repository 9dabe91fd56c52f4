package org.sctpj.api.socket;

import com.sun.nio.sctp.IllegalUnbindException;
import com.sun.nio.sctp.InvalidStreamException;
import com.sun.nio.sctp.MessageInfo;
import com.sun.nio.sctp.NotificationHandler;
import com.sun.nio.sctp.SctpChannel;
import com.sun.nio.sctp.SctpSocketOption;
import com.sun.nio.sctp.SctpStandardSocketOptions.InitMaxStreams;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.AlreadyBoundException;
import java.nio.channels.AlreadyConnectedException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ConnectionPendingException;
import java.nio.channels.NoConnectionPendingException;
import java.nio.channels.NotYetConnectedException;
import java.nio.channels.SelectionKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.PrStatus;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.StreamSchedulerKind;

/**
 * A one-to-one SCTP channel on sctpj: a {@link SctpChannel} with one association, like a TCP
 * socket. Open one with {@link SctpProvider#openSctpChannel()} and {@link #connect}, or get one
 * from {@link SctpjServerChannel#accept} or {@link SctpjMultiChannel#branch}.
 *
 * <pre>{@code
 * SctpChannel ch = SctpProvider.defaultProvider().openSctpChannel();
 * ch.setOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, 9899);
 * ch.connect(new InetSocketAddress("192.0.2.1", 5000));
 * ch.send(ByteBuffer.wrap(bytes), MessageInfo.createOutgoing(null, 0));
 * MessageInfo mi = ch.receive(buf, null, null);      // blocks; mi.bytes() == -1 at end of stream
 * ch.close();                                         // graceful shutdown in the background
 * }</pre>
 *
 * <h2>Blocking, timeouts, interruption, selectors</h2>
 *
 * In blocking mode (the default) {@link #connect}, {@link #send} (while the send buffer is full)
 * and {@link #receive} (while nothing is queued) wait; the variants with a {@link Duration} wait
 * at most that long (zero or null: no limit; sctpj). As in NIO, interrupting a thread blocked in
 * one of them closes the channel and the call throws {@link
 * java.nio.channels.ClosedByInterruptException}; closing the channel from another thread makes it
 * throw {@link java.nio.channels.AsynchronousCloseException}. In non-blocking mode ({@link
 * #configureBlocking}) they return at once: connect false, send 0, receive null; register the
 * channel with a selector of {@link SctpProvider#openSelector()} to learn when to call them again
 * ({@code OP_CONNECT}, {@code OP_READ}, {@code OP_WRITE}).
 *
 * <p>Every method may be called from any thread; sends from several threads and receives from
 * several threads are allowed (each message goes to one receiver). The notification handler
 * given to receive runs on the receiving thread.
 */
public final class SctpjChannel extends SctpChannel implements Readiness.Source {

    private final SctpProvider provider;
    private final OptionValues options;
    private final ThreadLocal<Boolean> inHandler = ThreadLocal.withInitial(() -> Boolean.FALSE);
    /** The last send's info, reused by sends that ask for the same. */
    private final Sends.LastSendInfo lastSendInfo = new Sends.LastSendInfo();

    private final Inbox inbox;
    private final Object stateLock = new Object();
    private final Readiness readiness = new Readiness();
    /** finishConnect (or a blocking connect) saw the association up. */
    private volatile boolean connectFinished;
    /** shutdown() was called: sends throw ClosedChannelException, as the JDK documents. */
    private volatile boolean shutdownCalled;

    private volatile Core core;
    private volatile AssocState assoc;
    private InetSocketAddress bindRequest;
    private final List<InetAddress> extraAddresses = new ArrayList<>();
    private final boolean shared;

    SctpjChannel(SctpProvider provider) {
        super(provider);
        this.provider = provider;
        this.options = new OptionValues(provider.defaults(), 0, provider.remoteUdpPort());
        this.inbox = Inbox.of(options);
        this.inbox.listener = readiness;
        this.shared = false;
    }

    /** A channel for an association of a shared endpoint (accepted or branched). */
    SctpjChannel(Core core, AssocState assoc, Inbox inbox, OptionValues options) {
        super(core.provider);
        this.provider = core.provider;
        this.options = options;
        this.inbox = inbox;
        this.core = core;
        this.assoc = assoc;
        this.shared = true;
        this.connectFinished = true;
        inbox.listener = readiness;
    }

    // ------------------------------------------------------------------ bind

    /**
     * Chooses the local address and port: {@code null} or a wildcard address means every address of
     * the host usable towards the peer (only loopback when the peer is on loopback); port 0 picks a
     * free port from the dynamic range. The endpoint is created at connect.
     *
     * @throws AlreadyBoundException if bound already
     */
    public SctpjChannel bind(SocketAddress local) throws IOException {
        synchronized (stateLock) {
            ensureOpen();
            if (bindRequest != null || core != null) {
                throw new AlreadyBoundException();
            }
            InetSocketAddress l = local == null ? new InetSocketAddress(0) : Ops.inet(local);
            if (l.getPort() < 0 || l.getPort() > 65535) {
                throw new IllegalArgumentException("port must be 0..65535, was " + l.getPort());
            }
            bindRequest = l;
        }
        return this;
    }

    /**
     * Adds a local address (sctp_bindx ADD). Before connect it is announced to the peer with the
     * others. After connect the association must have negotiated ASCONF (RFC 5061: both ends
     * offer {@link org.sctpj.stack.Extension#ASCONF} and {@link org.sctpj.stack.Extension#AUTH}):
     * the peer is asked to add it (Add IP Address), and a {@link SctpjNotificationHandler} local
     * address notification gives the answer.
     *
     * @throws java.nio.channels.NotYetBoundException before bind
     * @throws java.nio.channels.AlreadyBoundException for an address bound already
     * @throws IllegalStateException after connect when the association has no ASCONF (the message
     *     says what both ends must offer)
     * @throws UnsupportedOperationException after connect when the lower layer cannot receive on a
     *     new address while it runs (UDP encapsulation: bind every address before connect)
     */
    public SctpjChannel bindAddress(InetAddress address) throws IOException {
        Core c;
        AssocState a;
        synchronized (stateLock) {
            ensureOpen();
            if (bindRequest == null) {
                throw new java.nio.channels.NotYetBoundException();
            }
            if (address.isAnyLocalAddress()) {
                throw new IllegalArgumentException("add a concrete address, not the wildcard");
            }
            c = core;
            a = assoc;
            if (c == null) {
                if (extraAddresses.contains(address)) {
                    throw new java.nio.channels.AlreadyBoundException();
                }
                extraAddresses.add(address);
                return this;
            }
        }
        if (a == null || !c.usesAsconf(a)) {
            throw new IllegalStateException("the association did not negotiate ASCONF (RFC 5061), so its addresses"
                    + " cannot change while it runs: offer Extension.ASCONF and Extension.AUTH at both ends, or"
                    + " bind every address before connect");
        }
        try {
            c.addLocalAddress(address);
        } catch (IllegalArgumentException e) {
            throw new java.nio.channels.AlreadyBoundException();
        }
        return this;
    }

    /**
     * Removes a local address (sctp_bindx REM). Before connect, one added with {@link
     * #bindAddress}. After connect the association must have negotiated ASCONF (RFC 5061): nothing
     * leaves from the address any more and the peer is asked to delete it (Delete IP Address).
     *
     * @throws IllegalUnbindException for an address that is not bound, or the last bound address
     * @throws IllegalStateException after connect when the association has no ASCONF (the message
     *     says what both ends must offer)
     */
    public SctpjChannel unbindAddress(InetAddress address) throws IOException {
        Core c;
        AssocState a;
        synchronized (stateLock) {
            ensureOpen();
            c = core;
            a = assoc;
            if (c == null) {
                if (!extraAddresses.remove(address)) {
                    throw new IllegalUnbindException(address + " was not added with bindAddress");
                }
                return this;
            }
        }
        if (a == null || !c.usesAsconf(a)) {
            throw new IllegalStateException("the association did not negotiate ASCONF (RFC 5061), so its addresses"
                    + " cannot change while it runs: offer Extension.ASCONF and Extension.AUTH at both ends");
        }
        try {
            c.removeLocalAddress(address);
        } catch (IllegalArgumentException e) {
            throw new IllegalUnbindException(e.getMessage());
        }
        return this;
    }

    // ------------------------------------------------------------------ connect

    /** Connects to {@code remote}: {@link #connect(List, Duration)} with one address, no time limit. */
    @Override
    public boolean connect(SocketAddress remote) throws IOException {
        return connect(List.of(remote), null);
    }

    /** Connects with these stream counts (0 keeps the channel's {@code SCTP_INIT_MAXSTREAMS}). */
    @Override
    public boolean connect(SocketAddress remote, int maxOutStreams, int maxInStreams) throws IOException {
        if (maxOutStreams < 0 || maxInStreams < 0) {
            throw new IllegalArgumentException("stream counts must not be negative");
        }
        if (maxOutStreams > 0 || maxInStreams > 0) {
            InitMaxStreams cur = options.get(SctpjSocketOptions.SCTP_INIT_MAXSTREAMS);
            setOption(
                    SctpjSocketOptions.SCTP_INIT_MAXSTREAMS,
                    InitMaxStreams.create(
                            maxInStreams > 0 ? maxInStreams : cur.maxInStreams(),
                            maxOutStreams > 0 ? maxOutStreams : cur.maxOutStreams()));
        }
        return connect(remote);
    }

    /** Connects to {@code remote}, waiting at most {@code timeout} (sctpj). */
    public boolean connect(SocketAddress remote, Duration timeout) throws IOException {
        return connect(List.of(remote), timeout);
    }

    /**
     * Connects to a peer known by several addresses (sctp_connectx; all with the same port; the
     * {@code SCTP_PRIMARY_ADDR} option, if set, or else the first, is tried first). In blocking
     * mode waits until the association is up (at most {@code timeout}; zero or null: no limit) and
     * returns true; in non-blocking mode returns false and {@link #finishConnect} completes it.
     *
     * @throws ConnectException if the association could not be set up (CANT_START, aborted)
     * @throws SocketTimeoutException if {@code timeout} passed first (the attempt is aborted)
     * @throws AlreadyConnectedException, ConnectionPendingException as in NIO
     */
    public boolean connect(List<? extends SocketAddress> remotes, Duration timeout) throws IOException {
        if (remotes.isEmpty()) {
            throw new IllegalArgumentException("give at least one peer address");
        }
        long nanos = Ops.nanos(timeout);
        List<InetSocketAddress> peers = new ArrayList<>();
        for (SocketAddress r : remotes) {
            peers.add(Ops.inet(r));
        }
        SocketAddress prim = options.get(SctpjSocketOptions.SCTP_PRIMARY_ADDR);
        if (prim != null && peers.remove(prim)) {
            peers.add(0, (InetSocketAddress) prim);
        }
        synchronized (stateLock) {
            ensureOpen();
            if (assoc != null) {
                if (assoc.phase == AssocState.CONNECTING) {
                    throw new ConnectionPendingException();
                }
                throw new AlreadyConnectedException();
            }
            InetSocketAddress b = bindRequest == null ? new InetSocketAddress(0) : bindRequest;
            List<InetAddress> locals = new ArrayList<>(
                    Ops.clientAddresses(b.getAddress(), peers.get(0).getAddress()));
            for (InetAddress x : extraAddresses) {
                if (!locals.contains(x)) {
                    locals.add(x);
                }
            }
            int port = b.getPort() == 0 ? Ops.ephemeralPort() : b.getPort();
            core = Core.open(provider, options.copy(), port, locals, null);
            assoc = core.connect(peers, inbox, options.get(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT));
        }
        readiness.signal();
        if (!isBlocking()) {
            return false;
        }
        return finishConnect(timeout == null ? Duration.ZERO : timeout, nanos);
    }

    /** Whether a connect was started and has not completed. */
    @Override
    public boolean isConnectionPending() {
        return assoc != null && !connectFinished && isOpen();
    }

    /**
     * Completes a connect: in blocking mode waits for it; in non-blocking mode returns whether it
     * is up.
     *
     * @throws ConnectException if setup failed
     * @throws NoConnectionPendingException if connect was not called
     */
    @Override
    public boolean finishConnect() throws IOException {
        return finishConnect(Duration.ZERO);
    }

    /** As {@link #finishConnect()}, waiting at most {@code timeout} (blocking mode; sctpj). */
    public boolean finishConnect(Duration timeout) throws IOException {
        return finishConnect(timeout, Ops.nanos(timeout));
    }

    private boolean finishConnect(Duration timeout, long nanos) throws IOException {
        ensureOpen();
        AssocState a = assoc;
        if (a == null) {
            throw new NoConnectionPendingException();
        }
        if (a.phase == AssocState.CONNECTING && isBlocking()) {
            long deadline = nanos < 0 ? 0 : System.nanoTime() + nanos;
            boolean done = false;
            boolean inTime;
            try {
                begin();
                inTime = a.awaitSetup(deadline);
                done = true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                inTime = false;
            } finally {
                end(done);
            }
            if (!inTime) {
                core.abort(a, "connect timed out");
                throw new SocketTimeoutException("association to " + a.primary + " not up within " + timeout);
            }
        }
        return switch (a.phase) {
            case AssocState.CONNECTING -> false;
            case AssocState.ENDED -> {
                if (core.isClosed()) {
                    throw new ClosedChannelException();
                }
                throw new ConnectException("association to " + a.primary + " could not be set up: " + a.endReason);
            }
            default -> {
                connectFinished = true;
                yield true;
            }
        };
    }

    // ------------------------------------------------------------------ data

    /**
     * Sends one message (the buffer's remaining bytes) as {@code info} says; {@code info} null uses
     * {@code SCTP_DEFAULT_SNDINFO}. Blocks while the send buffer is full (blocking mode).
     *
     * @return the number of bytes sent: all of them, or 0 (non-blocking mode, buffer full)
     * @throws InvalidStreamException for a stream the association does not have
     * @throws NotYetConnectedException before connect completes
     * @throws ClosedChannelException after {@link #shutdown} or close
     * @throws java.net.SocketException if the peer shut down or the association ended
     */
    @Override
    public int send(ByteBuffer src, MessageInfo info) throws IOException {
        return send(src, info, null);
    }

    /** As {@link #send(ByteBuffer, MessageInfo)}, waiting at most {@code timeout} for space, then returning 0 (sctpj). */
    public int send(ByteBuffer src, MessageInfo info, Duration timeout) throws IOException {
        ensureOpen();
        AssocState a = connected();
        if (shutdownCalled) {
            throw new ClosedChannelException();
        }
        SendInfo si = lastSendInfo.of(info, options);
        boolean done = false;
        try {
            begin();
            int n = core.send(a, src, si, isBlocking(), Ops.nanos(timeout));
            done = true;
            return n;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        } finally {
            end(done);
        }
    }

    /**
     * Receives one message into {@code dst}, handing the notifications met on the way to {@code
     * handler} (null: they are skipped). Blocks while nothing is queued (blocking mode). A message
     * larger than {@code dst} comes in parts ({@link MessageInfo#isComplete()} false until the
     * last). So does a message the stack delivers in parts before it has all of it (partial
     * delivery, RFC 9260 section 6.9: one that reaches {@link
     * org.sctpj.stack.SctpOptions#partialDeliveryPoint()} or would not fit in the receive buffer),
     * so that a message of any size passes through a receive buffer of any size: its bytes leave
     * the buffer as they are read. While a message comes in parts, no other message of its stream
     * is received; messages of other streams may come between its parts, so put the parts
     * together per {@link MessageInfo#streamNumber()}. If the association ends before the last
     * part, the rest never comes (the association change notification follows).
     *
     * @return the message's info; {@code bytes() == -1} once the association has ended or the peer
     *     shut down and every message was read (end of stream); null if the handler returned
     *     RETURN, or (non-blocking) nothing was queued
     * @throws IllegalReceiveException if called from inside the handler
     */
    @Override
    public <T> MessageInfo receive(ByteBuffer dst, T attachment, NotificationHandler<T> handler) throws IOException {
        return receive(dst, attachment, handler, null);
    }

    /** As {@link #receive(ByteBuffer, Object, NotificationHandler)}, waiting at most {@code timeout}, then returning null (sctpj). */
    public <T> MessageInfo receive(ByteBuffer dst, T attachment, NotificationHandler<T> handler, Duration timeout)
            throws IOException {
        Ops.checkNotInHandler(inHandler);
        ensureOpen();
        AssocState a = assoc;
        if (a == null || a.phase == AssocState.CONNECTING && inbox.isEmpty()) {
            throw new NotYetConnectedException();
        }
        long nanos = isBlocking() ? Ops.nanos(timeout) : 0;
        boolean done = false;
        try {
            begin();
            SctpjMessageInfo r = Ops.receive(inbox, dst, attachment, handler, nanos, a, inHandler);
            done = r != Ops.CLOSED;
            return done ? r : null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } finally {
            end(done);
        }
    }

    // ------------------------------------------------------------------ state

    /**
     * The association, or null until a connect completed: until a blocking connect returned, or
     * {@link #finishConnect} returned true, as in the JDK (Netty, for one, tells that a channel
     * became active by this turning non-null). After the association ended it is still the last
     * one.
     */
    @Override
    public SctpjAssociation association() throws IOException {
        ensureOpen();
        AssocState a = assoc;
        return a == null || !connectFinished ? null : a.view;
    }

    /** The local addresses with the port (empty before connect). */
    @Override
    public Set<SocketAddress> getAllLocalAddresses() throws IOException {
        ensureOpen();
        return Ops.localAddresses(core);
    }

    /** The peer's addresses with its port (empty before connect). */
    @Override
    public Set<SocketAddress> getRemoteAddresses() throws IOException {
        ensureOpen();
        AssocState a = assoc;
        return a == null ? Set.of() : new LinkedHashSet<>(a.remotes);
    }

    /**
     * Starts a graceful shutdown (RFC 9260 section 9.2) without closing the channel: messages sent
     * are still delivered, further sends throw {@link ClosedChannelException}, receive goes on
     * until the end of stream.
     */
    @Override
    public SctpjChannel shutdown() throws IOException {
        ensureOpen();
        AssocState a = connected();
        shutdownCalled = true;
        core.shutdown(a);
        return this;
    }

    /** Aborts the association at once (ABORT carrying {@code reason}); sctpj, not in the JDK API. */
    public SctpjChannel abort(String reason) throws IOException {
        ensureOpen();
        AssocState a = assoc;
        if (a == null) {
            throw new NotYetConnectedException();
        }
        core.abort(a, reason == null ? "" : reason);
        return this;
    }

    /**
     * Resets the Stream Sequence Numbers of {@code streams} (every stream when empty) of our
     * outgoing streams and/or, by asking the peer, of its outgoing streams towards us (RFC 6525
     * sections 5.1.2 and 5.1.3; sctpj, as the socket option SCTP_RESET_STREAMS of RFC 6525 section
     * 6.3.2). Messages sent on our reset streams after this call wait until the peer answered;
     * those sent before go first. The outcome comes as {@link StreamResetNotification}s (subscribe
     * {@link SctpjSocketOptions.Event#STREAM_RESET}).
     *
     * @throws IllegalArgumentException for a stream that does not exist, or neither direction
     * @throws IllegalStateException when the peer did not announce RE-CONFIG support (or it is off
     *     in our options), or the association is not established
     */
    public SctpjChannel resetStreams(int[] streams, boolean outgoing, boolean incoming) throws IOException {
        ensureOpen();
        core.resetStreams(connected(), streams, outgoing, incoming);
        return this;
    }

    /**
     * Sets the association's AUTH shared key {@code keyId} (RFC 4895; RFC 6458 section 8.1.22
     * SCTP_AUTH_KEY; sctpj): it verifies what the peer sends with it at once. Both ends must set
     * the same key; it never travels.
     *
     * @throws IllegalArgumentException for an identifier outside 0..65535 or a key too long
     */
    public SctpChannel setAuthKey(int keyId, byte[] key) throws IOException {
        ensureOpen();
        core.authKey(connected(), 0, keyId, key.clone());
        return this;
    }

    /**
     * Makes {@code keyId} the key the association sends with (RFC 6458 section 8.1.23
     * SCTP_AUTH_ACTIVE_KEY; sctpj). Set it at the peer first.
     */
    public SctpChannel setActiveAuthKey(int keyId) throws IOException {
        ensureOpen();
        core.authKey(connected(), 1, keyId, null);
        return this;
    }

    /**
     * Deactivates the association's key {@code keyId} (RFC 6458 section 8.3.5
     * SCTP_AUTH_DEACTIVATE_KEY; sctpj); an {@link AuthenticationNotification} FREE_KEY follows.
     *
     * @throws IllegalStateException for the active key
     */
    public SctpChannel deactivateAuthKey(int keyId) throws IOException {
        ensureOpen();
        core.authKey(connected(), 2, keyId, null);
        return this;
    }

    /**
     * Deletes the association's key {@code keyId} (RFC 6458 section 8.3.4 SCTP_AUTH_DELETE_KEY;
     * sctpj).
     *
     * @throws IllegalStateException for the active key
     */
    public SctpChannel deleteAuthKey(int keyId) throws IOException {
        ensureOpen();
        core.authKey(connected(), 3, keyId, null);
        return this;
    }

    /**
     * Resets the association's TSNs and every SSN in both directions (RFC 6525 section 5.1.4;
     * SCTP_RESET_ASSOC of section 6.3.3; sctpj). The outcome comes as an {@link
     * AssociationResetNotification}.
     *
     * @throws IllegalStateException when RE-CONFIG is not available, the association is not
     *     established, or an association reset is already under way
     */
    public SctpjChannel resetAssociation() throws IOException {
        ensureOpen();
        core.resetAssociation(connected());
        return this;
    }

    /**
     * Adds {@code outbound} streams of ours and asks the peer to add {@code inbound} streams towards
     * us (RFC 6525 sections 5.1.5 and 5.1.6; SCTP_ADD_STREAMS of section 6.3.4; sctpj). The outcome
     * comes as {@link StreamChangeNotification}s.
     *
     * @throws IllegalArgumentException for negative counts, none at all, or more than 65535 streams
     * @throws IllegalStateException when RE-CONFIG is not available or the association is not
     *     established
     */
    public SctpjChannel addStreams(int outbound, int inbound) throws IOException {
        ensureOpen();
        core.addStreams(connected(), outbound, inbound);
        return this;
    }

    /**
     * Which stream reconfiguration requests the peer may make (RFC 6525 section 6.3.1,
     * SCTP_ENABLE_STREAM_RESET; sctpj): the others are answered Denied.
     */
    public SctpjChannel setAcceptedReconfigRequests(java.util.Set<org.sctpj.stack.ReconfigRequestKind> kinds)
            throws IOException {
        ensureOpen();
        core.setAcceptedReconfigRequests(connected(), java.util.Set.copyOf(kinds));
        return this;
    }

    /** Paths, RTO, congestion windows and buffer state of the association, or null once it ended (sctpj). */
    public AssociationInfo info() throws IOException {
        ensureOpen();
        AssocState a = connected();
        return core.info(a);
    }

    /**
     * The association's counters in both directions and per path (messages, bytes, duplicates,
     * SACKs, timeout and fast retransmissions, RTT, cwnd), or null once it ended (sctpj).
     */
    public org.sctpj.stack.AssociationStats stats() throws IOException {
        ensureOpen();
        return core.stats(connected());
    }

    /**
     * The association's messages abandoned by their time to live, per policy, unsent and sent
     * (RFC 7496 section 4.5, SCTP_PR_ASSOC_STATUS; sctpj), or null once it ended.
     */
    public PrStatus prStatus() throws IOException {
        ensureOpen();
        return core.prStatus(connected(), -1);
    }

    /**
     * The messages of outbound stream {@code streamNumber} abandoned (SCTP_PR_STREAM_STATUS;
     * sctpj), or null once the association ended.
     *
     * @throws IllegalArgumentException for a stream number outside 0..65535
     */
    public PrStatus prStatus(int streamNumber) throws IOException {
        ensureOpen();
        org.sctpj.stack.wire.Wire.checkU16("streamNumber", streamNumber);
        return core.prStatus(connected(), streamNumber);
    }

    /** The local UDP port of the encapsulation (0 before connect, or for another lower layer; sctpj). */
    public int udpPort() {
        return Ops.udpPort(core);
    }

    /** Nothing to do: every blocking call checks {@link #isBlocking()} when it starts. */
    @Override
    protected void implConfigureBlocking(boolean block) {}

    /**
     * Selector thread: what a call would do now without blocking. OP_CONNECT once a pending
     * connect completed or failed; OP_READ while a message or notification is queued or the end of
     * stream has come; OP_WRITE while the association can take a message (or a send would throw).
     */
    @Override
    public int readyOps() {
        AssocState a = assoc;
        if (a == null || !isOpen()) {
            return 0;
        }
        int r = 0;
        if (a.phase != AssocState.CONNECTING && !connectFinished) {
            r |= SelectionKey.OP_CONNECT;
        }
        if (!inbox.isEmpty() || a.phase == AssocState.ENDED || a.phase == AssocState.PEER_SHUTDOWN) {
            r |= SelectionKey.OP_READ;
        }
        if (a.phase != AssocState.CONNECTING && (a.phase != AssocState.UP || !a.sendBlocked())) {
            r |= SelectionKey.OP_WRITE;
        }
        return r;
    }

    @Override
    public Readiness readiness() {
        return readiness;
    }

    // ------------------------------------------------------------------ options

    /** Reads an option (see {@link SctpjSocketOptions}). */
    @Override
    public <T> T getOption(SctpSocketOption<T> name) throws IOException {
        ensureOpen();
        return Sends.getOption(name, options, core, assoc);
    }

    /**
     * Sets an option (see {@link SctpjSocketOptions} for when each may be set). {@code
     * SCTP_PRIMARY_ADDR} on a connected channel makes that peer address the primary path at once
     * (RFC 9260 section 5.1.2); {@code SCTP_SET_PEER_PRIMARY_ADDR} asks the peer to take one of our
     * addresses as its primary (RFC 5061, needs ASCONF at both ends).
     *
     * @throws IllegalStateException for a protocol option after connect
     * @throws UnsupportedOperationException for an option or value sctpj does not support
     * @throws IllegalArgumentException for a primary address that is not one of the peer's
     */
    @Override
    public <T> SctpjChannel setOption(SctpSocketOption<T> name, T value) throws IOException {
        ensureOpen();
        if (name == SctpjSocketOptions.SCTP_PRIMARY_ADDR && assoc != null) {
            core.setPrimary(connected(), Ops.inet((SocketAddress) value));
            return this;
        }
        if (name == SctpjSocketOptions.SCTP_SET_PEER_PRIMARY_ADDR && assoc != null) {
            core.setPeerPrimary(connected(), Ops.inet((SocketAddress) value));
            return this;
        }
        options.set(name, value, core != null);
        if (name == SctpjSocketOptions.SCTP_EVENTS) {
            inbox.events = options.get(SctpjSocketOptions.SCTP_EVENTS);
        }
        if (name == SctpjSocketOptions.SCTP_RECEIVE_SPIN) {
            inbox.spinNanos = options.get(SctpjSocketOptions.SCTP_RECEIVE_SPIN).toNanos();
        }
        AssocState a = assoc;
        if (name == SctpjSocketOptions.SCTP_PLUGGABLE_SS && a != null) {
            core.setStreamScheduler(a, (StreamSchedulerKind) value);
        }
        return this;
    }

    /** The options this channel supports. */
    @Override
    public Set<SctpSocketOption<?>> supportedOptions() {
        return OptionValues.ALL;
    }

    /**
     * Sets the stream scheduler's value of one outbound stream of the association (RFC 8260
     * section 4.3.3 SCTP_SS_VALUE): the priority under {@link StreamSchedulerKind#PRIORITY}
     * (lower first; 0, the default, to 65535), the weight under {@link
     * StreamSchedulerKind#WEIGHTED_FAIR_QUEUEING} (1, the default, to 65535). Choose the scheduler
     * with {@link SctpjSocketOptions#SCTP_PLUGGABLE_SS}; a switch resets the values.
     *
     * @throws NotYetConnectedException before connect completes
     * @throws IllegalArgumentException for a stream that is not open or a value out of range
     * @throws IllegalStateException if the scheduler has no per-stream value (switch first)
     */
    public void setStreamValue(int streamId, int value) throws IOException {
        ensureOpen();
        core.setStreamValue(connected(), streamId, value);
    }

    /**
     * The stream scheduler's value of one outbound stream (its default when never set).
     *
     * @throws NotYetConnectedException before connect completes
     */
    public int streamValue(int streamId) throws IOException {
        ensureOpen();
        return core.streamValue(connected(), streamId);
    }

    // ------------------------------------------------------------------ internals

    private void ensureOpen() throws ClosedChannelException {
        if (!isOpen()) {
            throw new ClosedChannelException();
        }
    }

    private AssocState connected() {
        AssocState a = assoc;
        if (a == null || a.phase == AssocState.CONNECTING) {
            throw new NotYetConnectedException();
        }
        return a;
    }

    /**
     * Closes the channel: with {@code SO_LINGER} negative (default) the association shuts down
     * gracefully in the background; 0 aborts it; positive shuts down and waits up to that many
     * seconds, then aborts.
     */
    @Override
    protected void implCloseSelectableChannel() throws IOException {
        inbox.close();
        Core c;
        AssocState a;
        synchronized (stateLock) {
            c = core;
            a = assoc;
        }
        if (c == null) {
            readiness.signal();
            return;
        }
        int linger = options.get(SctpjSocketOptions.SO_LINGER);
        try {
            if (a != null && !a.ended()) {
                if (linger == 0) {
                    c.abort(a, "channel closed with SO_LINGER 0");
                } else {
                    c.shutdown(a);
                    if (linger > 0) {
                        boolean ended;
                        try {
                            ended = a.awaitEnd(System.nanoTime()
                                    + Duration.ofSeconds(linger).toNanos());
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            ended = false;
                        }
                        if (!ended) {
                            c.abort(a, "linger time passed");
                        }
                    }
                }
            }
        } catch (ClosedChannelException | RuntimeException e) {
            // the endpoint is gone already
        } finally {
            c.release(shared ? -1 : linger);
            readiness.signal();
        }
    }

    @Override
    public String toString() {
        AssocState a = assoc;
        return "SctpjChannel[" + (isOpen() ? "" : "closed, ") + (a == null ? "unconnected" : "association " + a.view)
                + "]";
    }
}
