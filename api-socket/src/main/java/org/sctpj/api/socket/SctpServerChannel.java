package org.sctpj.api.socket;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.AlreadyBoundException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NotYetBoundException;
import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Listens for associations and hands each out as its own {@link SctpChannel} (as {@code
 * com.sun.nio.sctp.SctpServerChannel}).
 *
 * <pre>{@code
 * SctpServerChannel server = SctpServerChannel.open().bind(new InetSocketAddress(5000));
 * while (true) {
 *     SctpChannel ch = server.accept();        // blocks; accept(Duration) waits at most that long
 *     executor.submit(() -> serve(ch));
 * }
 * }</pre>
 *
 * The accepted channels share the server's endpoint (its port, addresses, lower layer and
 * options); it is closed when the server and all of them are closed. Closing the server refuses
 * (aborts) associations that arrive afterwards and those not yet accepted. Interruption and
 * asynchronous close work as in {@link SctpChannel}.
 */
public final class SctpServerChannel extends AbstractInterruptibleChannel {

    private final SctpProvider provider;
    private final OptionValues options;
    private final ArrayDeque<AssocState> pending = new ArrayDeque<>();
    private final Runnable wakeAcceptors = () -> {
        synchronized (pending) {
            pending.notifyAll();
        }
    };
    private volatile boolean blocking = true;
    private volatile Core core;
    private int backlog = 128;

    private SctpServerChannel(SctpProvider provider) {
        this.provider = provider;
        this.options = new OptionValues(provider.defaults(), SctpProvider.defaultServerUdpPort());
    }

    /** An unbound server channel on the default provider. */
    public static SctpServerChannel open() {
        return open(SctpProvider.defaultProvider());
    }

    /** An unbound server channel on {@code provider}. */
    public static SctpServerChannel open(SctpProvider provider) {
        return new SctpServerChannel(Objects.requireNonNull(provider, "provider"));
    }

    /** Binds with a backlog of 128: {@link #bind(SocketAddress, int)}. */
    public SctpServerChannel bind(SocketAddress local) throws IOException {
        return bind(local, 0);
    }

    /**
     * Binds to {@code local} and starts listening. {@code null} or a wildcard address binds every
     * usable address of the host (loopback included, link-local not); port 0 picks one from the
     * dynamic range. {@code backlog} (0 or less: 128) bounds the associations that are up and not
     * yet accepted; more are aborted.
     */
    public SctpServerChannel bind(SocketAddress local, int backlog) throws IOException {
        InetSocketAddress l = local == null ? new InetSocketAddress(0) : Ops.inet(local);
        return bind(Ops.expand(l.getAddress(), null, true), l.getPort(), backlog);
    }

    /**
     * Binds to several addresses at once (sctp_bindx; all announced to peers) and listens (sctpj).
     *
     * @param port the SCTP port, 0 for one from the dynamic range
     */
    public SctpServerChannel bind(List<InetAddress> addresses, int port, int backlog) throws IOException {
        synchronized (pending) {
            ensureOpen();
            if (core != null) {
                throw new AlreadyBoundException();
            }
            this.backlog = backlog <= 0 ? 128 : backlog;
            int p = port == 0 ? Ops.ephemeralPort() : port;
            core = Core.open(provider, options.copy(), p, addresses, this::arrived);
        }
        return this;
    }

    /** Adding addresses to a bound endpoint needs ASCONF (RFC 5061): unsupported; bind them all at once. */
    public SctpServerChannel bindAddress(InetAddress address) {
        throw new UnsupportedOperationException(
                "sctpj has no ASCONF: give every address at bind time with bind(List, port, backlog)");
    }

    /** See {@link #bindAddress}: unsupported. */
    public SctpServerChannel unbindAddress(InetAddress address) {
        throw new UnsupportedOperationException("sctpj has no ASCONF: addresses are fixed at bind time");
    }

    /** Stack thread: an association a peer started. */
    private Inbox arrived(AssocState a) {
        synchronized (pending) {
            if (!isOpen() || pending.size() >= backlog) {
                return null;
            }
            Inbox in = new Inbox(options.get(SctpStandardSocketOptions.SCTP_EVENTS));
            a.inbox = in;
            // accept takes only associations that are up: wake it again when this one changes.
            a.onStateChange = wakeAcceptors;
            pending.add(a);
            pending.notifyAll();
            return in;
        }
    }

    /** Waits for an association and returns its channel (blocking mode), or null (non-blocking, none). */
    public SctpChannel accept() throws IOException {
        return accept(null);
    }

    /**
     * Waits at most {@code timeout} (zero or null: no limit) for an association and returns its
     * channel, or null when the time ran out (sctpj). The association is up; messages that arrived
     * before accept are waiting in the channel.
     *
     * @throws NotYetBoundException before bind
     */
    public SctpChannel accept(Duration timeout) throws IOException {
        ensureOpen();
        Core c = core;
        if (c == null) {
            throw new NotYetBoundException();
        }
        long nanos = blocking ? Ops.nanos(timeout) : 0;
        long deadline = nanos > 0 ? System.nanoTime() + nanos : 0;
        AssocState a = null;
        boolean done = false;
        try {
            begin();
            synchronized (pending) {
                while (isOpen()) {
                    AssocState head = pending.poll();
                    if (head != null && head.phase != AssocState.CONNECTING) {
                        a = head;
                        break;
                    }
                    if (head != null) {
                        pending.addFirst(head); // not up yet
                    }
                    if (nanos == 0) {
                        break;
                    }
                    long left = nanos < 0 ? 0 : deadline - System.nanoTime();
                    if (nanos > 0 && left <= 0) {
                        break;
                    }
                    if (nanos < 0) {
                        pending.wait();
                    } else {
                        pending.wait(Math.max(1, left / 1_000_000));
                    }
                }
            }
            done = a != null || isOpen(); // closed while waiting: AsynchronousCloseException
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            end(done);
        }
        if (a == null) {
            return null;
        }
        c.retain();
        OptionValues o = options.copy();
        return new SctpChannel(c, a, a.inbox, o);
    }

    /** The bound addresses with the port (empty before bind). */
    public Set<SocketAddress> getAllLocalAddresses() throws IOException {
        ensureOpen();
        Core c = core;
        return c == null ? Set.of() : Ops.withPort(c.localAddresses, c.localPort);
    }

    /** The local UDP port of the encapsulation (0 before bind, or for another lower layer; sctpj). */
    public int udpPort() {
        Core c = core;
        return c == null ? 0 : c.udpPort();
    }

    /** Reads an option; accepted channels start with the server's values. */
    public <T> T getOption(SctpSocketOption<T> name) throws IOException {
        ensureOpen();
        return Sends.getOption(name, options, core, null);
    }

    /** Sets an option (protocol options before bind); accepted channels inherit the values. */
    public <T> SctpServerChannel setOption(SctpSocketOption<T> name, T value) throws IOException {
        ensureOpen();
        options.set(name, value, core != null);
        Core c = core;
        if (name == SctpStandardSocketOptions.SCTP_PLUGGABLE_SS && c != null) {
            c.options.set(name, value, true); // associations accepted from now on
        }
        return this;
    }

    /** The options this channel supports. */
    public Set<SctpSocketOption<?>> supportedOptions() {
        return OptionValues.ALL;
    }

    /** Switches between blocking (the default) and non-blocking accept. */
    public SctpServerChannel configureBlocking(boolean block) throws IOException {
        ensureOpen();
        blocking = block;
        return this;
    }

    /** Whether accept blocks. */
    public boolean isBlocking() {
        return blocking;
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!isOpen()) {
            throw new ClosedChannelException();
        }
    }

    @Override
    protected void implCloseChannel() throws IOException {
        Core c = core;
        if (c == null) {
            return;
        }
        c.stopAccepting();
        AssocState[] left;
        synchronized (pending) {
            left = pending.toArray(new AssocState[0]);
            pending.clear();
            pending.notifyAll();
        }
        for (AssocState a : left) {
            try {
                c.abort(a, "the server channel was closed before accepting the association");
            } catch (IOException | RuntimeException e) {
                // endpoint gone
            }
        }
        c.release(options.get(SctpStandardSocketOptions.SO_LINGER));
    }
}
