package org.sctpj.api.socket;

import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.IllegalUnbindException;
import com.sun.nio.sctp.MessageInfo;
import com.sun.nio.sctp.NotificationHandler;
import com.sun.nio.sctp.SctpMultiChannel;
import com.sun.nio.sctp.SctpSocketOption;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AlreadyBoundException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NotYetBoundException;
import java.nio.channels.SelectionKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.PrStatus;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.StreamSchedulerKind;

/**
 * A one-to-many SCTP channel on sctpj, a {@link SctpMultiChannel}: one endpoint carrying many
 * associations, each message naming its association. Open one with {@link
 * SctpProvider#openMultiChannel()}. Peers' associations are accepted automatically once bound; a
 * send to an address with no association sets one up first (and waits for it, even in
 * non-blocking mode). {@link #branch} peels an association off into its own {@link SctpjChannel}.
 *
 * <pre>{@code
 * SctpMultiChannel ch = SctpProvider.defaultProvider().openMultiChannel();
 * ch.bind(new InetSocketAddress(5000));
 * MessageInfo mi = ch.receive(buf, null, null);     // from any association
 * buf.flip();
 * ch.send(buf, MessageInfo.createOutgoing(mi.association(), null, mi.streamNumber()));
 * }</pre>
 *
 * Blocking, timeouts, interruption, asynchronous close and selectors work as in {@link
 * SctpjChannel} ({@code OP_READ}: a message or notification is queued; {@code OP_WRITE}: no
 * association of the channel is waiting for send space). The notification handler given to
 * receive runs on the receiving thread.
 */
public final class SctpjMultiChannel extends SctpMultiChannel implements Readiness.Source {

    private final SctpProvider provider;
    private final OptionValues options;
    private final ThreadLocal<Boolean> inHandler = ThreadLocal.withInitial(() -> Boolean.FALSE);
    /** The last send's info, reused by sends that ask for the same. */
    private final Sends.LastSendInfo lastSendInfo = new Sends.LastSendInfo();

    private final Inbox inbox;
    private final Object stateLock = new Object();
    private final Readiness readiness = new Readiness();
    private volatile Core core;
    private int backlog;

    SctpjMultiChannel(SctpProvider provider) {
        super(provider);
        this.provider = provider;
        this.options = new OptionValues(provider.defaults(), provider.localUdpPort(), provider.remoteUdpPort());
        this.inbox = Inbox.of(options);
        this.inbox.listener = readiness;
    }

    /**
     * Binds to {@code local} ({@code null} or wildcard: every usable address, loopback included;
     * port 0: one from the dynamic range) and accepts associations from peers. {@code backlog}
     * above 0 bounds the live associations peers may start; more are aborted.
     */
    @Override
    public SctpjMultiChannel bind(SocketAddress local, int backlog) throws IOException {
        InetSocketAddress l = local == null ? new InetSocketAddress(0) : Ops.inet(local);
        return bind(Ops.expand(l.getAddress(), null, true), l.getPort(), backlog);
    }

    /** Binds to several addresses at once (sctp_bindx; sctpj). */
    public SctpjMultiChannel bind(List<InetAddress> addresses, int port, int backlog) throws IOException {
        synchronized (stateLock) {
            ensureOpen();
            if (core != null) {
                throw new AlreadyBoundException();
            }
            this.backlog = backlog;
            int p = port == 0 ? Ops.ephemeralPort() : port;
            core = Core.open(provider, options.copy(), p, addresses, this::arrived);
        }
        return this;
    }

    private Inbox arrived(AssocState a) {
        if (!isOpen() || (backlog > 0 && core.associations().size() >= backlog)) {
            return null;
        }
        return inbox;
    }

    /**
     * Adds a local address to the bound channel (sctp_bindx ADD, RFC 5061): new associations
     * announce it, and each live association that negotiated ASCONF (both ends offer {@link
     * org.sctpj.stack.Extension#ASCONF} and {@link org.sctpj.stack.Extension#AUTH}) asks its peer
     * to add it; the others keep their addresses.
     *
     * @throws java.nio.channels.NotYetBoundException before bind
     * @throws java.nio.channels.AlreadyBoundException for an address bound already
     * @throws UnsupportedOperationException when the lower layer cannot receive on a new address
     *     while it runs (UDP encapsulation: give every address to bind)
     */
    @Override
    public SctpjMultiChannel bindAddress(InetAddress address) throws IOException {
        ensureOpen();
        Core c = core;
        if (c == null) {
            throw new java.nio.channels.NotYetBoundException();
        }
        try {
            c.addLocalAddress(address);
        } catch (IllegalArgumentException e) {
            throw new java.nio.channels.AlreadyBoundException();
        }
        return this;
    }

    /**
     * Removes a local address from the bound channel (sctp_bindx REM, RFC 5061): nothing leaves
     * from it any more; each live association that negotiated ASCONF and has another address asks
     * its peer to delete it.
     *
     * @throws IllegalUnbindException for an address that is not bound, or the last one
     */
    @Override
    public SctpjMultiChannel unbindAddress(InetAddress address) throws IOException {
        ensureOpen();
        Core c = core;
        if (c == null) {
            throw new IllegalUnbindException("the channel is not bound");
        }
        try {
            c.removeLocalAddress(address);
        } catch (IllegalArgumentException e) {
            throw new IllegalUnbindException(e.getMessage());
        }
        return this;
    }

    /** The live associations of this channel (branched ones excluded). */
    @Override
    public Set<Association> associations() throws IOException {
        ensureOpen();
        Set<Association> s = new LinkedHashSet<>();
        Core c = core;
        if (c != null) {
            for (AssocState a : c.associations()) {
                if (a.inbox == inbox && a.view != null && !a.ended()) {
                    s.add(a.view);
                }
            }
        }
        return s;
    }

    /**
     * Sends one message on the association {@code info} names, or to {@code info.address()}: if no
     * association to that address exists, one is set up first (blocking until it is up). {@code
     * info} null is refused here (a one-to-many send must name its peer).
     *
     * @return the bytes sent, or 0 (non-blocking mode, buffer full)
     */
    @Override
    public int send(ByteBuffer src, MessageInfo info) throws IOException {
        return send(src, info, null);
    }

    /** As {@link #send(ByteBuffer, MessageInfo)}, waiting at most {@code timeout} for setup and space (sctpj). */
    public int send(ByteBuffer src, MessageInfo info, Duration timeout) throws IOException {
        Objects.requireNonNull(info, "info: name the association or the peer address");
        ensureOpen();
        Core c = bound();
        SendInfo si = lastSendInfo.of(info, options);
        long nanos = Ops.nanos(timeout);
        boolean done = false;
        try {
            begin();
            AssocState a = find(c, info, nanos);
            int n = c.send(a, src, si, isBlocking(), nanos);
            done = true;
            return n;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        } finally {
            end(done);
        }
    }

    private AssocState find(Core c, MessageInfo info, long nanos) throws IOException, InterruptedException {
        if (info.association() != null) {
            AssocState a = c.association(Ops.id(info.association()));
            if (a == null || a.inbox != inbox) {
                throw new IllegalArgumentException(
                        info.association() + " is not a live association of this channel (ended, or branched off)");
            }
            return a;
        }
        InetSocketAddress to = Ops.inet(info.address());
        for (AssocState a : c.associations()) {
            if (a.inbox == inbox && !a.ended() && a.remotes.contains(to)) {
                return a;
            }
        }
        for (AssocState a : c.associations()) {
            if (a.inbox == inbox && !a.ended() && (a.peerPort == 0 || a.peerPort == to.getPort())) {
                for (InetSocketAddress r : a.remotes) {
                    if (r.getAddress().equals(to.getAddress())) {
                        return a;
                    }
                }
            }
        }
        AssocState a = c.connect(List.of(to), inbox, options.get(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT));
        long deadline = nanos < 0 ? 0 : System.nanoTime() + nanos;
        if (!a.awaitSetup(deadline)) {
            c.abort(a, "setup timed out");
            throw new java.net.SocketTimeoutException("association to " + to + " not up in time");
        }
        if (a.phase == AssocState.ENDED) {
            throw new ConnectException("association to " + to + " could not be set up: " + a.endReason);
        }
        return a;
    }

    /**
     * Receives one message from any association of this channel, handing notifications to {@code
     * handler} (null: skipped); see {@link SctpjChannel#receive}. Never reports end of stream.
     */
    @Override
    public <T> MessageInfo receive(ByteBuffer dst, T attachment, NotificationHandler<T> handler) throws IOException {
        return receive(dst, attachment, handler, null);
    }

    /** As {@link #receive(ByteBuffer, Object, NotificationHandler)}, waiting at most {@code timeout} (sctpj). */
    public <T> MessageInfo receive(ByteBuffer dst, T attachment, NotificationHandler<T> handler, Duration timeout)
            throws IOException {
        Ops.checkNotInHandler(inHandler);
        ensureOpen();
        bound();
        long nanos = isBlocking() ? Ops.nanos(timeout) : 0;
        boolean done = false;
        try {
            begin();
            SctpjMessageInfo r = Ops.receive(inbox, dst, attachment, handler, nanos, null, inHandler);
            done = r != Ops.CLOSED;
            return done ? r : null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } finally {
            end(done);
        }
    }

    /** Starts a graceful shutdown of one association. */
    @Override
    public SctpjMultiChannel shutdown(Association association) throws IOException {
        ensureOpen();
        bound().shutdown(mine(association));
        return this;
    }

    /** Aborts one association (sctpj). */
    public SctpjMultiChannel abort(Association association, String reason) throws IOException {
        ensureOpen();
        bound().abort(mine(association), reason == null ? "" : reason);
        return this;
    }

    /** {@link SctpjChannel#resetStreams} for one association (RFC 6525 sections 5.1.2 and 5.1.3; sctpj). */
    public SctpjMultiChannel resetStreams(Association association, int[] streams, boolean outgoing, boolean incoming)
            throws IOException {
        ensureOpen();
        bound().resetStreams(mine(association), streams, outgoing, incoming);
        return this;
    }

    /** {@link SctpjChannel#resetAssociation} for one association (RFC 6525 section 5.1.4; sctpj). */
    public SctpjMultiChannel resetAssociation(Association association) throws IOException {
        ensureOpen();
        bound().resetAssociation(mine(association));
        return this;
    }

    /** {@link SctpjChannel#addStreams} for one association (RFC 6525 sections 5.1.5 and 5.1.6; sctpj). */
    public SctpjMultiChannel addStreams(Association association, int outbound, int inbound) throws IOException {
        ensureOpen();
        bound().addStreams(mine(association), outbound, inbound);
        return this;
    }

    /** {@link SctpjChannel#setAcceptedReconfigRequests} for one association (RFC 6525 section 6.3.1; sctpj). */
    public SctpjMultiChannel setAcceptedReconfigRequests(
            Association association, java.util.Set<org.sctpj.stack.ReconfigRequestKind> kinds) throws IOException {
        ensureOpen();
        bound().setAcceptedReconfigRequests(mine(association), java.util.Set.copyOf(kinds));
        return this;
    }

    /** The peer addresses of an association, with the peer's port. */
    @Override
    public Set<SocketAddress> getRemoteAddresses(Association association) throws IOException {
        ensureOpen();
        return new LinkedHashSet<>(mine(association).remotes);
    }

    /** Paths, RTO, congestion windows of an association, or null once it ended (sctpj). */
    public AssociationInfo info(Association association) throws IOException {
        ensureOpen();
        return bound().info(mine(association));
    }

    /**
     * The association's messages abandoned by their time to live, per policy, unsent and sent
     * (RFC 7496 section 4.5, SCTP_PR_ASSOC_STATUS; sctpj), or null once it ended.
     */
    public PrStatus prStatus(Association association) throws IOException {
        ensureOpen();
        return bound().prStatus(mine(association), -1);
    }

    /**
     * Peels the association off (sctp_peeloff): from now on its messages and notifications go to
     * the returned channel, including those already queued here and not yet received.
     */
    @Override
    public SctpjChannel branch(Association association) throws IOException {
        ensureOpen();
        Core c = bound();
        AssocState a = mine(association);
        Inbox to = new Inbox(inbox.events);
        to.spinNanos = inbox.spinNanos;
        c.onStack(a.id, () -> {
            a.moveTo(to);
            inbox.moveTo(a, to);
            return null;
        });
        c.retain();
        return new SctpjChannel(c, a, to, options.copy());
    }

    private AssocState mine(Association association) {
        Objects.requireNonNull(association, "association");
        Core c = bound();
        AssocState a = c.association(Ops.id(association));
        if (a == null || a.inbox != inbox) {
            throw new IllegalArgumentException(association + " is not a live association of this channel");
        }
        return a;
    }

    /** The bound addresses with the port (empty before bind). */
    @Override
    public Set<SocketAddress> getAllLocalAddresses() throws IOException {
        ensureOpen();
        return Ops.localAddresses(core);
    }

    /** The local UDP port of the encapsulation (0 before bind; sctpj). */
    public int udpPort() {
        return Ops.udpPort(core);
    }

    /** Reads an option (the association argument of the JDK API is accepted and ignored: options are per channel). */
    @Override
    public <T> T getOption(SctpSocketOption<T> name, Association association) throws IOException {
        ensureOpen();
        return Sends.getOption(name, options, core, association == null ? null : mine(association));
    }

    /**
     * Sets an option for the channel (protocol options before bind), or with {@code association}
     * for one association: {@code SCTP_PRIMARY_ADDR} (its primary path, at once), {@code
     * SCTP_SET_PEER_PRIMARY_ADDR} (asks the peer to take one of our addresses as its primary, RFC
     * 5061; needs ASCONF at both ends) and {@code SCTP_PLUGGABLE_SS} (its stream scheduler).
     *
     * @throws UnsupportedOperationException for another option with an association: set it on
     *     the channel (association null)
     */
    @Override
    public <T> SctpjMultiChannel setOption(SctpSocketOption<T> name, T value, Association association)
            throws IOException {
        ensureOpen();
        boolean scheduler = name == SctpjSocketOptions.SCTP_PLUGGABLE_SS;
        if (association != null && name == SctpjSocketOptions.SCTP_PRIMARY_ADDR) {
            bound().setPrimary(mine(association), Ops.inet((java.net.SocketAddress) value));
            return this;
        }
        if (name == SctpjSocketOptions.SCTP_SET_PEER_PRIMARY_ADDR) {
            if (association == null) {
                throw new IllegalArgumentException("SCTP_SET_PEER_PRIMARY_ADDR concerns one association: give it");
            }
            bound().setPeerPrimary(mine(association), Ops.inet((java.net.SocketAddress) value));
            return this;
        }
        if (association != null) {
            if (!scheduler) {
                throw new UnsupportedOperationException("per-association options other than SCTP_PRIMARY_ADDR and"
                        + " SCTP_PLUGGABLE_SS are not supported yet: set them on the channel (association null)");
            }
            if (!(value instanceof StreamSchedulerKind k)) {
                throw new IllegalArgumentException(name + " takes a StreamSchedulerKind (e.g. PRIORITY)");
            }
            bound().setStreamScheduler(mine(association), k);
            return this;
        }
        options.set(name, value, core != null);
        if (name == SctpjSocketOptions.SCTP_EVENTS) {
            inbox.events = options.get(SctpjSocketOptions.SCTP_EVENTS);
        }
        if (name == SctpjSocketOptions.SCTP_RECEIVE_SPIN) {
            inbox.spinNanos = options.get(SctpjSocketOptions.SCTP_RECEIVE_SPIN).toNanos();
        }
        Core c = core;
        if (scheduler && c != null) {
            c.options.set(name, value, true); // associations set up from now on
            for (AssocState a : c.associations()) {
                if (a.inbox == inbox) {
                    c.setStreamScheduler(a, (StreamSchedulerKind) value);
                }
            }
        }
        return this;
    }

    /**
     * Sets the stream scheduler's value of one outbound stream of {@code association} (RFC 8260
     * section 4.3.3 SCTP_SS_VALUE; see {@link SctpjChannel#setStreamValue}).
     *
     * @throws IllegalArgumentException for a stream that is not open or a value out of range
     * @throws IllegalStateException before the association is up, or if its scheduler has no
     *     per-stream value (switch first with {@link SctpjSocketOptions#SCTP_PLUGGABLE_SS})
     */
    public void setStreamValue(Association association, int streamId, int value) throws IOException {
        ensureOpen();
        bound().setStreamValue(mine(association), streamId, value);
    }

    /** The stream scheduler's value of one outbound stream of {@code association}. */
    public int streamValue(Association association, int streamId) throws IOException {
        ensureOpen();
        return bound().streamValue(mine(association), streamId);
    }

    /** The options this channel supports. */
    @Override
    public Set<SctpSocketOption<?>> supportedOptions() {
        return OptionValues.ALL;
    }

    /** Nothing to do: every blocking call checks {@link #isBlocking()} when it starts. */
    @Override
    protected void implConfigureBlocking(boolean block) {}

    /**
     * Selector thread: OP_READ while a message or notification is queued; OP_WRITE while the
     * channel is bound and none of its associations waits for send space.
     */
    @Override
    public int readyOps() {
        if (!isOpen() || core == null) {
            return 0;
        }
        int r = inbox.isEmpty() ? 0 : SelectionKey.OP_READ;
        if (inbox.blockedSenders.get() == 0) {
            r |= SelectionKey.OP_WRITE;
        }
        return r;
    }

    @Override
    public Readiness readiness() {
        return readiness;
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!isOpen()) {
            throw new ClosedChannelException();
        }
    }

    private Core bound() {
        Core c = core;
        if (c == null) {
            throw new NotYetBoundException();
        }
        return c;
    }

    /** Shuts down (or, with SO_LINGER 0, aborts) this channel's associations; branches stay. */
    @Override
    protected void implCloseSelectableChannel() throws IOException {
        inbox.close();
        Core c = core;
        if (c == null) {
            return;
        }
        c.stopAccepting();
        int linger = options.get(SctpjSocketOptions.SO_LINGER);
        List<AssocState> mine = new ArrayList<>();
        for (AssocState a : c.associations()) {
            if (a.inbox == inbox) {
                mine.add(a);
            }
        }
        for (AssocState a : mine) {
            try {
                if (linger == 0) {
                    c.abort(a, "channel closed with SO_LINGER 0");
                } else {
                    c.shutdown(a);
                }
            } catch (IOException | RuntimeException e) {
                // endpoint gone
            }
        }
        c.release(linger);
    }
}
