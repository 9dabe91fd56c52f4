package org.sctpj.llp.udp;

import java.io.IOException;
import java.net.BindException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import org.sctpj.nativeio.Native;
import org.sctpj.stack.icmp.IcmpReport;
import org.sctpj.stack.llp.LowerLayer;

/**
 * SCTP over UDP (RFC 6951): the {@link LowerLayer} that carries each SCTP packet as the payload of
 * one UDP datagram, over IPv4 and IPv6, through {@link DatagramChannel}s. Open it with {@link
 * #open(UdpConfig)}; give the endpoint {@code encapsulationOverhead(8)} in its options.
 *
 * <h2>RFC 6951 in this class</h2>
 *
 * <ul>
 *   <li>Local port: {@value UdpConfig#DEFAULT_PORT} by default, or {@value UdpConfig#PORT_ENV}, or
 *       the port given in code (see {@link UdpConfig}). One port for every socket of the instance.
 *   <li>Remote port (section 5.4): the UDP source port of the last datagram received from a peer
 *       address is used to send to that address; before any, the port given by {@link
 *       #setRemotePort}, else {@link UdpConfig#defaultRemotePort()}. Learning happens here, per
 *       address, before the core checks the packet's verification tag: a forged datagram can
 *       redirect our packets to another port of the same address until the peer's next packet.
 *   <li>Datagrams whose UDP source port is 0 are dropped (section 5.4) and counted.
 *   <li>Checksums (section 5.3): the UDP checksum is computed and verified by the kernel (always on
 *       for IPv6, on by default for IPv4 on Linux). The SCTP CRC32c is still required: the core
 *       fills it in every packet it builds and checks it on every packet it receives; this class
 *       neither adds nor removes it.
 *   <li>Overhead: 8 bytes of UDP header between the IP header and the SCTP packet ({@link
 *       #encapsulationOverhead()}), which the core subtracts from each path's MTU.
 * </ul>
 *
 * <h2>Threads and memory</h2>
 *
 * <p>As {@link LowerLayer} says, one stack thread makes every call but {@link #wakeup()}. In the
 * default {@link ReceiveMode#SELECTOR} mode the sockets are non-blocking and registered with one
 * {@link Selector}: {@link #receive} reads up to a bounded batch of datagrams into one pooled
 * direct buffer, handing each to the sink before reading the next, and {@link #await} sleeps in the
 * selector. {@link ReceiveMode#RECEIVE_THREAD} moves the reads to one thread per socket (see
 * there). Packets to send that are not in a direct buffer are copied into one pooled direct buffer
 * (the copy the JDK would otherwise make into a temporary one). Neither direction allocates per
 * packet while the peer's address and port stay the same.
 *
 * <p>The JDK offers no {@code recvmmsg}/{@code sendmmsg}: on that path batching is a loop of single
 * system calls with no wake-up in between; {@link #receive} takes as many datagrams as are queued,
 * up to the batch bound, in one call. On Linux, {@link UdpConfig#nativeIo()} ({@link NativeIo#AUTO}
 * by default) replaces the channels with native sockets: {@link #send} holds packets until {@link
 * #flush()} (or {@link #await}, or a full batch) and sends them with UDP GSO and {@code sendmmsg};
 * {@link #receive} uses {@code recvmmsg} and splits UDP GRO-coalesced datagrams; {@link #await} is
 * {@code ppoll} with an eventfd for {@link #wakeup()}. {@link #isNative()} says which path runs.
 *
 * <p>The destination address of a received datagram is not available through {@link
 * DatagramChannel}: the sink gets the socket's bound address, or the wildcard address of the
 * sender's family for a wildcard socket.
 *
 * <p>Addresses after open (RFC 5061, {@link #addAddress}, {@link #removeAddress}): an instance
 * bound to given addresses opens one more socket on an address added later, on the same port, and
 * closes the socket of an address removed; one bound to the wildcard receives on every address
 * already. The socket is bound by the caller (so a refusal comes back to it) and joins the others
 * on the stack thread, at its next call into the layer.
 */
public final class UdpEncapsulation implements LowerLayer {

    /** Bytes of UDP header (RFC 768). */
    public static final int UDP_HEADER_BYTES = 8;

    private static final InetAddress ANY4 = any(new byte[4]);
    private static final InetAddress ANY6 = any(new byte[16]);

    /** One bound socket: a {@link DatagramChannel}, or a native file descriptor ({@link NativeUdp}). */
    static final class Sock {
        final DatagramChannel channel;
        final InetSocketAddress local;
        final boolean ipv4;
        final boolean ipv6;
        ReceiveThread reader;
        /** Native path: the socket's descriptor, its family, and whether GSO and GRO are on. */
        int fd = -1;

        boolean family6;
        boolean gso;
        boolean gro;
        /** Native path: whether IP_RECVERR / IPV6_RECVERR is on (ICMP errors are read). */
        boolean recverr;
        /**
         * Selector path: the last read found the socket empty and the selector has not been asked
         * since, so the next {@link #receive} does not read it (see {@link #readSocket}).
         */
        boolean foundEmpty;
        /**
         * Native path: the first read after a wait took fewer datagrams than it asked for (the
         * socket was empty after them), so the next {@link #receive} does not read this socket:
         * see {@link NativeUdp#receive}.
         */
        boolean skipAfterReply;

        Sock(DatagramChannel channel, InetSocketAddress local, boolean ipv4, boolean ipv6) {
            this.channel = channel;
            this.local = local;
            this.ipv4 = ipv4;
            this.ipv6 = ipv6;
        }
    }

    /** Hands one received datagram to the current sink; used by the receive threads' queues. */
    interface Delivery {
        void deliver(ByteBuffer datagram, InetSocketAddress from, InetAddress to);

        /** As {@link #deliver(ByteBuffer, InetSocketAddress, InetAddress)}, with the datagram's ECN codepoint. */
        default void deliver(ByteBuffer datagram, InetSocketAddress from, InetAddress to, int ecn) {
            deliver(datagram, from, to);
        }

        /** Hands an ICMP error the native path read to the current sink (RFC 9260 appendix C). */
        default void icmp(IcmpReport report) {}
    }

    private final UdpConfig config;
    /** The bound sockets; replaced (never changed in place) by the stack thread, {@link #applyChanges}. */
    private volatile Sock[] socks;
    /** Address changes for the stack thread: a bound {@link Sock} to add, or an {@link InetAddress} to drop. */
    private final ConcurrentLinkedQueue<Object> changes = new ConcurrentLinkedQueue<>();

    private volatile boolean changed;
    private final Selector selector;
    private final ByteBuffer receiveBuffer;
    private final ByteBuffer sendBuffer;
    private final NativeUdp nat;
    private final RemotePorts ports;
    private final Delivery delivery = new Delivery() {
        @Override
        public void deliver(ByteBuffer datagram, InetSocketAddress from, InetAddress to) {
            UdpEncapsulation.this.deliver(datagram, from, to, 0);
        }

        @Override
        public void deliver(ByteBuffer datagram, InetSocketAddress from, InetAddress to, int ecn) {
            UdpEncapsulation.this.deliver(datagram, from, to, ecn);
        }

        @Override
        public void icmp(IcmpReport report) {
            sink.icmp(report);
        }
    };
    private PacketSink sink;
    private int cursor;
    private boolean closed;

    private long received;
    private long droppedZeroPort;
    private long sent;
    private long sendDropped;
    private long receiveCalls;

    private volatile Thread stackThread;
    private volatile boolean sleeping;
    private volatile boolean wakeupPending;

    private UdpEncapsulation(UdpConfig config, List<Sock> socks, Selector selector, boolean nativeIo)
            throws IOException {
        this.config = config;
        this.socks = socks.toArray(new Sock[0]);
        this.selector = selector;
        this.receiveBuffer = selector != null ? ByteBuffer.allocateDirect(config.maxDatagramBytes()) : null;
        this.sendBuffer = nativeIo ? null : ByteBuffer.allocateDirect(65535);
        this.nat = nativeIo ? new NativeUdp(config, this.socks) : null;
        this.ports = new RemotePorts(config.defaultRemotePort(), config.maxLearnedPorts());
    }

    /**
     * Opens and binds the sockets the configuration asks for.
     *
     * @throws BindException if the UDP port is in use (the message names the port and {@value
     *     UdpConfig#PORT_ENV}) or a bind address is not an address of this host
     * @throws IOException for other socket errors
     */
    public static UdpEncapsulation open(UdpConfig config) throws IOException {
        if (useNative(config)) {
            return openNative(config);
        }
        List<Sock> socks = new ArrayList<>();
        Selector selector = null;
        boolean threads = config.receiveMode() == ReceiveMode.RECEIVE_THREAD;
        try {
            int port = config.localPort();
            List<InetAddress> addrs = config.bindAddresses();
            if (addrs.isEmpty()) {
                socks.add(bind(config, null, port));
            } else {
                for (InetAddress a : addrs) {
                    checkLocal(a);
                }
                for (InetAddress a : addrs) {
                    Sock s = bind(config, a, port);
                    socks.add(s);
                    port = s.local.getPort(); // an ephemeral port is shared by all sockets
                }
            }
            if (!threads) {
                selector = Selector.open();
                for (Sock s : socks) {
                    s.channel.configureBlocking(false);
                    s.channel.register(selector, SelectionKey.OP_READ);
                }
            }
            UdpEncapsulation u = new UdpEncapsulation(config, socks, selector, false);
            if (threads) {
                for (Sock s : socks) {
                    s.reader = new ReceiveThread(
                            s.channel,
                            u,
                            config.receiveQueueDepth(),
                            config.maxDatagramBytes(),
                            "sctpj-udp-rx-" + s.local);
                }
                for (Sock s : socks) {
                    s.reader.start();
                }
            }
            return u;
        } catch (IOException | RuntimeException e) {
            for (Sock s : socks) {
                try {
                    s.channel.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            if (selector != null) {
                selector.close();
            }
            throw e;
        }
    }

    /**
     * Whether {@link UdpConfig#nativeIo()} asks for the native path and it can be used.
     *
     * @throws IOException if it is {@link NativeIo#ON} and the native path cannot be used
     */
    private static boolean useNative(UdpConfig config) throws IOException {
        NativeIo mode = config.nativeIo();
        if (mode == NativeIo.OFF) {
            return false;
        }
        String why = config.receiveMode() != ReceiveMode.SELECTOR
                ? "it needs ReceiveMode.SELECTOR (the stack thread reads the sockets), not " + config.receiveMode()
                : NativeUdp.unavailableReason();
        if (why == null) {
            return true;
        }
        if (mode == NativeIo.ON) {
            throw new IOException("UdpConfig.nativeIo is ON but the native UDP path (GSO/GRO, sendmmsg/recvmmsg)"
                    + " cannot be used: " + why + ". Use NativeIo.AUTO to fall back to DatagramChannel, or OFF.");
        }
        return false;
    }

    private static UdpEncapsulation openNative(UdpConfig config) throws IOException {
        List<Sock> socks = new ArrayList<>();
        try {
            int port = config.localPort();
            List<InetAddress> addrs = config.bindAddresses();
            if (addrs.isEmpty()) {
                socks.add(NativeUdp.bind(config, null, port));
            } else {
                for (InetAddress a : addrs) {
                    checkLocal(a);
                }
                for (InetAddress a : addrs) {
                    Sock s = NativeUdp.bind(config, a, port);
                    socks.add(s);
                    port = s.local.getPort(); // an ephemeral port is shared by all sockets
                }
            }
            return new UdpEncapsulation(config, socks, null, true);
        } catch (IOException | RuntimeException e) {
            NativeUdp.closeAll(socks);
            throw e;
        }
    }

    private static void checkLocal(InetAddress a) throws IOException {
        // a loopback address is the host's whether or not an interface lists it (127.0.0.0/8 on Linux)
        if (!a.isAnyLocalAddress() && !a.isLoopbackAddress() && NetworkInterface.getByInetAddress(a) == null) {
            throw new BindException(a.getHostAddress()
                    + " is not an address of this host: bind one of its interface addresses, or none for the"
                    + " wildcard address");
        }
    }

    private static Sock bind(UdpConfig config, InetAddress address, int port) throws IOException {
        DatagramChannel ch;
        boolean v4;
        boolean v6;
        if (address == null) {
            ch = DatagramChannel.open(); // IPv6 dual-stack when the host has IPv6, else IPv4
            v4 = true;
            v6 = false; // known after bind, from the bound address's family
        } else if (address instanceof Inet4Address) {
            ch = DatagramChannel.open(StandardProtocolFamily.INET);
            v4 = true;
            v6 = false;
        } else {
            ch = DatagramChannel.open(StandardProtocolFamily.INET6);
            v4 = address.isAnyLocalAddress();
            v6 = true;
        }
        try {
            ch.setOption(StandardSocketOptions.SO_RCVBUF, config.receiveBufferBytes());
            ch.setOption(StandardSocketOptions.SO_SNDBUF, config.sendBufferBytes());
            InetSocketAddress want =
                    address == null ? new InetSocketAddress(port) : new InetSocketAddress(address, port);
            try {
                ch.bind(want);
            } catch (BindException e) {
                BindException b = new BindException("cannot bind UDP port " + port + " on "
                        + want.getAddress().getHostAddress() + " (" + e.getMessage() + "): if another SCTP-over-UDP"
                        + " stack uses it, choose another port with UdpConfig.builder().localPort(p) or the"
                        + " environment variable " + UdpConfig.PORT_ENV + ", or 0 for an ephemeral port");
                b.initCause(e);
                throw b;
            }
            InetSocketAddress local = (InetSocketAddress) ch.getLocalAddress();
            if (address == null) {
                v6 = local.getAddress() instanceof Inet6Address;
            }
            return new Sock(ch, local, v4, v6);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    private static InetAddress any(byte[] zeros) {
        try {
            return InetAddress.getByAddress(zeros);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    // ------------------------------------------------------------------ LowerLayer

    @Override
    public void send(ByteBuffer sctp, InetAddress source, InetAddress destination) throws IOException {
        send(sctp, source, destination, 0);
    }

    /**
     * As {@link #send(ByteBuffer, InetAddress, InetAddress)}, with the ECN codepoint for the IP
     * header ({@link org.sctpj.stack.llp.Ecn}): the native path sets it per datagram (IP_TOS /
     * IPV6_TCLASS control message); the {@code DatagramChannel} path cannot and sends Not-ECT.
     */
    @Override
    public void send(ByteBuffer sctp, InetAddress source, InetAddress destination, int ecn) throws IOException {
        ensureOpen();
        Sock s = socketFor(source, destination);
        int p = sctp.position();
        int sctpPort = sctp.remaining() >= 4 ? ((sctp.get(p + 2) & 0xff) << 8) | (sctp.get(p + 3) & 0xff) : -1;
        InetSocketAddress target = ports.target(destination, sctpPort);
        if (nat != null) {
            nat.send(s, sctp, target, ecn & 3, (ecn & FRAGMENTABLE) != 0);
            return;
        }
        ByteBuffer b = sctp;
        if (!b.isDirect()) {
            ByteBuffer d = sendBuffer;
            d.clear();
            d.put(b.duplicate());
            d.flip();
            b = d;
        }
        if (s.channel.send(b, target) == 0) {
            sendDropped++;
        } else {
            sent++;
        }
    }

    /** On the native path, sends what {@link #send} held (see {@link NativeUdp}); else nothing to do. */
    @Override
    public void flush() throws IOException {
        ensureOpen();
        if (nat != null) {
            nat.flush();
        }
    }

    private Sock socketFor(InetAddress source, InetAddress destination) throws IOException {
        Sock family = null;
        boolean v4 = destination instanceof Inet4Address;
        for (Sock s : socks) {
            if (v4 ? !s.ipv4 : !s.ipv6) {
                continue;
            }
            if (source != null && s.local.getAddress().equals(source)) {
                return s;
            }
            if (family == null) {
                family = s;
            }
        }
        if (family == null) {
            throw new IOException("no " + (v4 ? "IPv4" : "IPv6") + " socket is bound, so " + destination
                    + " cannot be reached: bind an address of that family, or none for the dual-stack wildcard");
        }
        return family;
    }

    @Override
    public int receive(PacketSink sink, int max) throws IOException {
        ensureOpen();
        applyChanges();
        int limit = Math.min(max, config.receiveBatch());
        if (limit <= 0) {
            return 0;
        }
        this.sink = sink;
        try {
            if (nat != null) {
                return nat.receive(delivery, limit);
            }
            int n = 0;
            int count = socks.length;
            for (int k = 0; k < count && n < limit; k++) {
                Sock s = socks[(cursor + k) % count];
                n += s.reader != null
                        ? s.reader.drain(delivery, s.local.getAddress(), limit - n)
                        : readSocket(s, limit - n);
            }
            cursor = count == 1 ? 0 : (cursor + 1) % count;
            return n;
        } finally {
            this.sink = null;
        }
    }

    /**
     * Reads up to {@code max} datagrams from a non-blocking socket. A read that finds the socket
     * empty costs a system call; the stack thread calls {@link #receive} at the start of every
     * turn, so a turn right after one that emptied the socket mostly pays one for nothing (a bulk
     * sender's turn after the one that read a SACK and sent the burst it allowed). So after a
     * read found the socket empty, the next call skips it, and the one after reads again; {@link
     * #await} asks the selector, whose answer is current, and reading resumes at once. A thread
     * that never idles thus still reads every second turn; one that idles loses nothing.
     */
    private int readSocket(Sock s, int max) throws IOException {
        if (s.foundEmpty) {
            s.foundEmpty = false;
            return 0;
        }
        ByteBuffer b = receiveBuffer;
        int n = 0;
        while (n < max) {
            b.clear();
            receiveCalls++;
            InetSocketAddress from = (InetSocketAddress) s.channel.receive(b);
            if (from == null) {
                s.foundEmpty = true;
                break;
            }
            if (from.getPort() == 0) {
                droppedZeroPort++;
                continue;
            }
            b.flip();
            deliver(b, from, s.local.getAddress(), 0);
            n++;
        }
        return n;
    }

    private void deliver(ByteBuffer datagram, InetSocketAddress from, InetAddress to, int ecn) {
        int p = datagram.position();
        ports.learn(
                from, datagram.remaining() >= 2 ? ((datagram.get(p) & 0xff) << 8) | (datagram.get(p + 1) & 0xff) : -1);
        received++;
        InetAddress a = from.getAddress();
        sink.packet(datagram, a, to.isAnyLocalAddress() ? (a instanceof Inet4Address ? ANY4 : ANY6) : to, ecn);
    }

    @Override
    public void await(long timeoutNanos) throws IOException {
        ensureOpen();
        applyChanges();
        if (nat != null) {
            nat.await(timeoutNanos);
            return;
        }
        if (selector != null) {
            if (timeoutNanos <= 0) {
                selector.selectNow();
            } else {
                // Selector timeouts are in milliseconds: round up, so that the caller wakes at or
                // after its deadline rather than spinning just before it.
                long ms = timeoutNanos / 1_000_000L + (timeoutNanos % 1_000_000L == 0 ? 0 : 1);
                selector.select(ms);
            }
            selector.selectedKeys().clear();
            for (Sock s : socks) {
                s.foundEmpty = false; // the selector was asked: read every socket next
            }
            return;
        }
        if (timeoutNanos <= 0 || wakeupPending || anyQueued()) {
            wakeupPending = false;
            return;
        }
        stackThread = Thread.currentThread();
        sleeping = true;
        try {
            if (!wakeupPending && !anyQueued()) {
                LockSupport.parkNanos(this, timeoutNanos);
            }
        } finally {
            sleeping = false;
            wakeupPending = false;
        }
    }

    private boolean anyQueued() {
        for (Sock s : socks) {
            if (s.reader.hasPacket()) {
                return true;
            }
        }
        return false;
    }

    /** Called by a receive thread after it queued a datagram. */
    void signalStackThread() {
        if (sleeping) {
            Thread t = stackThread;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    @Override
    public void wakeup() {
        if (nat != null) {
            nat.wakeup();
            return;
        }
        if (selector != null) {
            selector.wakeup();
            return;
        }
        wakeupPending = true;
        Thread t = stackThread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    public int encapsulationOverhead() {
        return UDP_HEADER_BYTES;
    }

    /**
     * Receives on {@code address} too (RFC 5061: an address added to a live endpoint, {@link
     * org.sctpj.stack.Endpoint#addLocalAddress}): binds one more socket to it on this instance's
     * port, which joins the others at the stack thread's next call. Nothing to do when a wildcard
     * socket of its family already receives everything, or a socket is bound to it. Any thread.
     *
     * @throws BindException if it is not an address of this host, or the port is taken there
     * @throws IllegalArgumentException for the wildcard or a multicast address
     * @throws IOException for other socket errors, or once closed
     */
    @Override
    public void addAddress(InetAddress address) throws IOException {
        ensureOpen();
        if (address.isAnyLocalAddress() || address.isMulticastAddress()) {
            throw new IllegalArgumentException("add a unicast address of this host, not " + address);
        }
        boolean v4 = address instanceof Inet4Address;
        Sock[] now = socks;
        for (Sock s : now) {
            InetAddress bound = s.local.getAddress();
            if (bound.equals(address) || bound.isAnyLocalAddress() && (v4 ? s.ipv4 : s.ipv6)) {
                return;
            }
        }
        for (Object c : changes) {
            if (c instanceof Sock s && s.local.getAddress().equals(address)) {
                return;
            }
        }
        checkLocal(address);
        int port = now[0].local.getPort();
        Sock s = nat != null ? NativeUdp.bind(config, address, port) : bind(config, address, port);
        changes.add(s);
        changed = true;
        wakeup();
    }

    /**
     * Stops receiving on {@code address}: its socket (one bound to it, never the wildcard one nor
     * the last one) closes at the stack thread's next call; datagrams still queued on it are lost,
     * as on a host that dropped the address. Any thread.
     */
    @Override
    public void removeAddress(InetAddress address) {
        if (closed) {
            return;
        }
        changes.add(address);
        changed = true;
        wakeup();
    }

    /**
     * Stack thread, at the start of {@link #receive} and {@link #await} (never inside a delivery,
     * where the core may send): takes the sockets {@link #addAddress} bound and closes those {@link
     * #removeAddress} named, then publishes the new set (the native path's poll set and the
     * selector's registrations follow). The core sends from an added address only after the peer
     * acknowledged it, and from a removed one no more, so sends need not wait for this.
     */
    private void applyChanges() throws IOException {
        if (!changed) {
            return;
        }
        changed = false;
        List<Sock> l = new ArrayList<>(List.of(socks));
        List<Sock> gone = new ArrayList<>();
        for (Object c = changes.poll(); c != null; c = changes.poll()) {
            if (c instanceof Sock s) {
                if (selector != null) {
                    s.channel.configureBlocking(false);
                    s.channel.register(selector, SelectionKey.OP_READ);
                } else if (nat == null) {
                    s.reader = new ReceiveThread(
                            s.channel,
                            this,
                            config.receiveQueueDepth(),
                            config.maxDatagramBytes(),
                            "sctpj-udp-rx-" + s.local);
                    s.reader.start();
                }
                l.add(s);
            } else {
                for (Sock s : l) {
                    if (l.size() > 1 && s.local.getAddress().equals(c)) {
                        l.remove(s);
                        gone.add(s);
                        break;
                    }
                }
            }
        }
        if (nat != null) {
            if (!gone.isEmpty()) {
                nat.flush(); // what is held for a socket going goes first
            }
            nat.setSockets(l.toArray(new Sock[0]));
        }
        socks = l.toArray(new Sock[0]);
        cursor = 0;
        for (Sock s : gone) {
            closeSocket(s);
        }
        if (selector != null && !gone.isEmpty()) {
            // a channel registered with a selector keeps its port until the selector drops its
            // cancelled key, at the next selection
            selector.selectNow();
            selector.selectedKeys().clear();
            for (Sock s : socks) {
                s.foundEmpty = false;
            }
        }
    }

    private void closeSocket(Sock s) {
        if (nat != null) {
            NativeUdp.closeAll(List.of(s));
            return;
        }
        try {
            s.channel.close();
        } catch (IOException e) {
            // closing a socket we no longer use: nothing to do about it
        }
        if (s.reader != null) {
            try {
                s.reader.stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        for (Object c = changes.poll(); c != null; c = changes.poll()) {
            if (c instanceof Sock s) {
                closeSocket(s); // bound by addAddress, never taken in
            }
        }
        if (nat != null) {
            nat.close();
            return;
        }
        IOException first = null;
        for (Sock s : socks) {
            try {
                s.channel.close();
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        for (Sock s : socks) {
            if (s.reader != null) {
                try {
                    s.reader.stop();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        if (selector != null) {
            selector.close();
        }
        if (first != null) {
            throw first;
        }
    }

    private void ensureOpen() throws ClosedChannelException {
        if (closed) {
            throw new ClosedChannelException();
        }
    }

    // ------------------------------------------------------------------ configuration and state

    /** The configuration this instance was opened with. */
    public UdpConfig config() {
        return config;
    }

    /** The local UDP port (the one the system chose when the configuration said 0). */
    public int localPort() {
        return socks[0].local.getPort();
    }

    /** The bound local socket addresses, one per socket. */
    public List<InetSocketAddress> localAddresses() {
        List<InetSocketAddress> l = new ArrayList<>(socks.length);
        for (Sock s : socks) {
            l.add(s.local);
        }
        return List.copyOf(l);
    }

    /**
     * Sets the remote UDP encapsulation port for {@code address} (for example before connecting to
     * a peer that does not listen on {@link UdpConfig#defaultRemotePort()}). A port learned later
     * from a packet of that address replaces it (RFC 6951 section 5.4). Stack thread only.
     */
    public void setRemotePort(InetAddress address, int port) {
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("remote UDP port must be 1..65535, was " + port);
        }
        ports.set(address, port);
    }

    /** The UDP port packets to {@code address} are sent to now: learned, set, or the default. */
    public int remotePort(InetAddress address) {
        return ports.port(address);
    }

    /**
     * A snapshot of the counters. Call it on the stack thread (or accept slightly stale values).
     */
    public UdpStats stats() {
        long zero = droppedZeroPort;
        long waits = 0;
        for (Sock s : socks) {
            if (s.reader != null) {
                zero += s.reader.droppedZeroPort;
                waits += s.reader.queueFullWaits;
            }
        }
        if (nat != null) {
            return new UdpStats(
                    received,
                    nat.droppedZeroPort,
                    nat.sent,
                    nat.sendDropped,
                    0,
                    ports.learnedCount(),
                    nat.sendCalls,
                    nat.receiveCalls,
                    nat.gsoSends,
                    nat.groDatagrams,
                    nat.gsoFallbacks,
                    nat.truncated,
                    nat.icmpErrors,
                    nat.icmpReported);
        }
        return new UdpStats(
                received,
                zero,
                sent,
                sendDropped,
                waits,
                ports.learnedCount(),
                sent + sendDropped,
                receiveCalls,
                0,
                0,
                0,
                0,
                0,
                0);
    }

    /** Whether this instance runs on the native path ({@link UdpConfig#nativeIo()}). */
    public boolean isNative() {
        return nat != null;
    }

    /** The sockets' state, for tests: whether GSO (UDP_SEGMENT) is used on each. */
    boolean[] gsoBySocket() {
        boolean[] b = new boolean[socks.length];
        for (int i = 0; i < socks.length; i++) {
            b[i] = socks[i].gso;
        }
        return b;
    }

    /** For tests: whether the next {@link #receive} skips the socket (its last read found it empty). */
    boolean skipsNextRead() {
        return socks[0].foundEmpty;
    }

    /** For tests: whether GRO is on for each socket. */
    boolean[] groBySocket() {
        boolean[] b = new boolean[socks.length];
        for (int i = 0; i < socks.length; i++) {
            b[i] = socks[i].gro;
        }
        return b;
    }

    /** For tests: sets an int socket option on every native socket; false if the kernel refused. */
    boolean setSocketOptionForTest(int level, int option, int value) throws IOException {
        boolean ok = true;
        for (Sock s : socks) {
            ok &= Native.trySetIntOption(s.fd, level, option, value);
        }
        return ok;
    }

    /** For tests: turns GSO off on every socket, as after a failed GSO send. */
    void disableGsoForTest() {
        for (Sock s : socks) {
            s.gso = false;
        }
    }

    /** The receive mode in use. */
    public ReceiveMode receiveMode() {
        return config.receiveMode();
    }
}
