package org.sctpj.api.socket;

import com.sun.nio.sctp.IllegalUnbindException;
import com.sun.nio.sctp.SctpServerChannel;
import com.sun.nio.sctp.SctpSocketOption;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.AlreadyBoundException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NotYetBoundException;
import java.nio.channels.SelectionKey;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Set;

/**
 * A {@link SctpServerChannel} on sctpj: listens for associations and hands each out as its own
 * {@link SctpjChannel}. Open one with {@link SctpProvider#openServerChannel()}.
 *
 * <pre>{@code
 * SctpServerChannel server = SctpProvider.defaultProvider().openServerChannel();
 * server.bind(new InetSocketAddress(5000));
 * while (true) {
 *     SctpChannel ch = server.accept();        // blocks; accept(Duration) waits at most that long
 *     executor.submit(() -> serve(ch));
 * }
 * }</pre>
 *
 * The accepted channels share the server's endpoint (its port, addresses, lower layer and
 * options); it is closed when the server and all of them are closed. Closing the server refuses
 * (aborts) associations that arrive afterwards and those not yet accepted. Interruption and
 * asynchronous close work as in {@link SctpjChannel}. In non-blocking mode accept returns null
 * when no association is waiting; a selector of {@link SctpProvider#openSelector()} reports
 * {@code OP_ACCEPT} when one is.
 */
public final class SctpjServerChannel extends SctpServerChannel implements Readiness.Source {

    private final SctpProvider provider;
    private final OptionValues options;
    private final ArrayDeque<AssocState> pending = new ArrayDeque<>();
    private final Readiness readiness = new Readiness();
    private final Runnable wakeAcceptors = () -> {
        synchronized (pending) {
            pending.notifyAll();
        }
        readiness.signal();
    };
    private volatile Core core;
    private int backlog = 128;

    SctpjServerChannel(SctpProvider provider) {
        super(provider);
        this.provider = provider;
        this.options = new OptionValues(provider.defaults(), provider.localUdpPort(), provider.remoteUdpPort());
    }

    /**
     * Binds to {@code local} and starts listening. {@code null} or a wildcard address binds every
     * usable address of the host (loopback included, link-local not); port 0 picks one from the
     * dynamic range. {@code backlog} (0 or less: 128) bounds the associations that are up and not
     * yet accepted; more are aborted.
     */
    @Override
    public SctpjServerChannel bind(SocketAddress local, int backlog) throws IOException {
        InetSocketAddress l = local == null ? new InetSocketAddress(0) : Ops.inet(local);
        return bind(Ops.expand(l.getAddress(), null, true), l.getPort(), backlog);
    }

    /**
     * Binds to several addresses at once (sctp_bindx; all announced to peers) and listens (sctpj).
     *
     * @param port the SCTP port, 0 for one from the dynamic range
     */
    public SctpjServerChannel bind(List<InetAddress> addresses, int port, int backlog) throws IOException {
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

    /**
     * Unsupported: adding an address to a bound endpoint needs ASCONF (RFC 5061), which sctpj does
     * not have; bind every address at once with {@link #bind(List, int, int)}.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public SctpjServerChannel bindAddress(InetAddress address) {
        throw new UnsupportedOperationException(
                "sctpj has no ASCONF: give every address at bind time with bind(List, port, backlog)");
    }

    /**
     * Unsupported: addresses are fixed at bind time (no ASCONF, RFC 5061).
     *
     * @throws IllegalUnbindException always
     */
    @Override
    public SctpjServerChannel unbindAddress(InetAddress address) {
        throw new IllegalUnbindException("sctpj has no ASCONF: addresses are fixed at bind time");
    }

    /** Stack thread: an association a peer started. */
    private Inbox arrived(AssocState a) {
        synchronized (pending) {
            if (!isOpen() || pending.size() >= backlog) {
                return null;
            }
            Inbox in = Inbox.of(options);
            a.inbox = in;
            // accept takes only associations that are up: wake it again when this one changes.
            a.onStateChange = wakeAcceptors;
            pending.add(a);
            pending.notifyAll();
            readiness.signal();
            return in;
        }
    }

    /** Waits for an association and returns its channel (blocking mode), or null (non-blocking, none). */
    @Override
    public SctpjChannel accept() throws IOException {
        return accept(null);
    }

    /**
     * Waits at most {@code timeout} (zero or null: no limit) for an association and returns its
     * channel, or null when the time ran out (sctpj). The association is up; messages that arrived
     * before accept are waiting in the channel.
     *
     * @throws NotYetBoundException before bind
     */
    public SctpjChannel accept(Duration timeout) throws IOException {
        ensureOpen();
        Core c = core;
        if (c == null) {
            throw new NotYetBoundException();
        }
        long nanos = isBlocking() ? Ops.nanos(timeout) : 0;
        long deadline = nanos > 0 ? System.nanoTime() + nanos : 0;
        AssocState a = null;
        boolean done = false;
        try {
            begin();
            synchronized (pending) {
                while (isOpen()) {
                    a = firstUp();
                    if (a != null) {
                        pending.remove(a);
                        break;
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
        return new SctpjChannel(c, a, a.inbox, o);
    }

    /** The first waiting association that is no longer being set up (held: {@code pending}). */
    private AssocState firstUp() {
        for (AssocState a : pending) {
            if (a.phase != AssocState.CONNECTING) {
                return a;
            }
        }
        return null;
    }

    /** The bound addresses with the port (empty before bind). */
    @Override
    public Set<SocketAddress> getAllLocalAddresses() throws IOException {
        ensureOpen();
        return Ops.localAddresses(core);
    }

    /** The local UDP port of the encapsulation (0 before bind, or for another lower layer; sctpj). */
    public int udpPort() {
        return Ops.udpPort(core);
    }

    /** Reads an option; accepted channels start with the server's values. */
    @Override
    public <T> T getOption(SctpSocketOption<T> name) throws IOException {
        ensureOpen();
        return Sends.getOption(name, options, core, null);
    }

    /** Sets an option (protocol options before bind); accepted channels inherit the values. */
    public <T> SctpjServerChannel setOption(SctpSocketOption<T> name, T value) throws IOException {
        ensureOpen();
        options.set(name, value, core != null);
        Core c = core;
        if (name == SctpjSocketOptions.SCTP_PLUGGABLE_SS && c != null) {
            c.options.set(name, value, true); // associations accepted from now on
        }
        return this;
    }

    /** The options this channel supports. */
    @Override
    public Set<SctpSocketOption<?>> supportedOptions() {
        return OptionValues.ALL;
    }

    /** Nothing to do: accept checks {@link #isBlocking()} when it starts. */
    @Override
    protected void implConfigureBlocking(boolean block) {}

    /** Selector thread: OP_ACCEPT while an association that is up waits to be accepted. */
    @Override
    public int readyOps() {
        if (!isOpen()) {
            return 0;
        }
        synchronized (pending) {
            return firstUp() != null ? SelectionKey.OP_ACCEPT : 0;
        }
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

    @Override
    protected void implCloseSelectableChannel() throws IOException {
        readiness.signal();
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
        c.release(options.get(SctpjSocketOptions.SO_LINGER));
    }
}
