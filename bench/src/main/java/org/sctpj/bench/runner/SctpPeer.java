package org.sctpj.bench.runner;

import com.sun.nio.sctp.AbstractNotificationHandler;
import com.sun.nio.sctp.AssociationChangeNotification;
import com.sun.nio.sctp.HandlerResult;
import com.sun.nio.sctp.MessageInfo;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.sctpj.api.callback.CallbackRuntime;
import org.sctpj.api.callback.CallbackSocket;
import org.sctpj.api.callback.Callbacks;
import org.sctpj.api.callback.LowerLayerFactory;
import org.sctpj.api.socket.SctpProvider;
import org.sctpj.api.socket.SctpjAssociationChangeNotification;
import org.sctpj.api.socket.SctpjChannel;
import org.sctpj.api.socket.SctpjMessageInfo;
import org.sctpj.api.socket.SctpjServerChannel;
import org.sctpj.api.socket.SctpjSocketOptions;
import org.sctpj.llp.raw.RawIpLowerLayer;
import org.sctpj.llp.udp.UdpConfig;
import org.sctpj.llp.udp.UdpEncapsulation;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * One sctpj benchmark process over UDP encapsulation on 127.0.0.1 (LAN profile, MTU 1500), with
 * either the callback API ({@code api=callback}, {@link CallbackSocket}) or the blocking socket API
 * ({@code api=socket}, {@link SctpjChannel} and {@link SctpjServerChannel} of {@code api-socket}, as
 * an application uses them). Modes: {@code sink} and {@code bulk} (throughput), {@code echo} and
 * {@code ping} (30-byte round trips with the I bit and no Nagle delay). Servers bind UDP port 0
 * and print {@code PEER-READY udp=PORT}; every process ends with one {@code PEER-RESULT} line.
 * Both APIs run on one stack thread of the same {@link StackRuntime} with the same protocol
 * options ({@link SctpOptions#LAN}) and the same lower layer ({@link UdpEncapsulation}).
 */
final class SctpPeer {
    static final int SERVER_PORT = 5001;
    static final int CLIENT_PORT = 5002;
    static final InetAddress LOCAL = InetAddress.getLoopbackAddress();
    /** How long a client waits for its association to come up. */
    static final int HANDSHAKE_SECONDS = 10;

    private final String mode;
    private final Args args;
    private final boolean socketApi;
    /** {@code api=socket-nio}: the socket API's non-blocking channels on one of its selectors. */
    private final boolean nonBlocking;

    /**
     * {@code llp=raw}: SCTP straight over IP (protocol 132, {@link RawIpLowerLayer}, root) instead
     * of UDP encapsulation; callback API only. Every raw SCTP socket of a network namespace gets
     * every SCTP packet in it, so on one host each process also reads (and drops, as not sent to
     * its address) the other's packets: give the two processes different addresses ({@code
     * local=}), or namespaces of their own.
     */
    private final boolean raw;
    /** {@code local=}: our address (default 127.0.0.1). */
    private final InetAddress local;
    /** {@code peer=}: the server's address, for clients (default 127.0.0.1). */
    private final InetAddress peer;

    private final StackRuntime runtime;
    private UdpEncapsulation udp;
    /** llp=raw: the layer, whose counters go on the result line. */
    private volatile RawIpLowerLayer rawLayer;

    private final CountDownLatch up = new CountDownLatch(1);
    private final CountDownLatch ended = new CountDownLatch(1);
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile AssociationId assoc;
    /** How the association ended (or failed to start), for the log: the event and its reason. */
    private volatile String endedBy = "";

    SctpPeer(String mode, Args args) {
        this.mode = mode;
        this.args = args;
        this.socketApi = args.str("api", "callback").startsWith("socket");
        this.nonBlocking = args.str("api", "callback").equals("socket-nio");
        this.raw = args.str("llp", "udp").equals("raw");
        // idle-spins=N: the stack thread spins N idle turns and yields as many before it blocks
        // (IdleStrategy.backoff), for experiments; default: it blocks at once (park)
        int spins = args.integer("idle-spins", 0);
        StackConfig sc = StackConfig.DEFAULT.withName("bench");
        this.runtime = StackRuntime.start(
                1, spins > 0 ? sc.withIdle(org.sctpj.timers.IdleStrategy.backoff(spins, spins)) : sc);
        try {
            this.local = InetAddress.getByName(args.str("local", LOCAL.getHostAddress()));
            this.peer = InetAddress.getByName(args.str("peer", LOCAL.getHostAddress()));
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException("local= and peer= take IP addresses: " + e.getMessage(), e);
        }
        if ((raw || !local.equals(LOCAL) || !peer.equals(LOCAL)) && socketApi) {
            throw new IllegalArgumentException("llp=raw, local= and peer= are for api=callback only");
        }
    }

    private SctpOptions options() {
        SctpOptions.Builder b = SctpOptions.LAN.toBuilder();
        // The handshake gets the client's whole wait (HANDSHAKE_SECONDS). With the LAN profile's
        // Max.Init.Retransmits (8) at its RTO.Max (100 ms) an INIT or COOKIE ECHO is given up after
        // about 0.9 s, and on a loaded machine a fresh JVM's first answer took longer: its first
        // COOKIE ECHO loads and interprets the association code (570 ms measured at load 8 on
        // loopback), so runs failed with CANT_START (issue 16 item 5). Only the handshake changes;
        // the data phase runs with the LAN profile as it is.
        // (init-retransmits=8 restores the LAN profile's value, to see the failure.)
        b.maxInitRetransmits(args.integer("init-retransmits", (int)
                Math.ceil(HANDSHAKE_SECONDS * 1000.0 / SctpOptions.LAN.rtoMax().toMillis())));
        // rto-min-ms= / rto-max-ms=: other RTO bounds than the LAN profile's 20 / 100 ms, for
        // experiments (e.g. usrsctp's default RTO.Min of 1 s)
        int rtoMin = args.integer("rto-min-ms", 0);
        int rtoMax = args.integer("rto-max-ms", 0);
        if (rtoMin > 0 || rtoMax > 0) {
            java.time.Duration min = java.time.Duration.ofMillis(rtoMin > 0 ? rtoMin : 20);
            java.time.Duration max = java.time.Duration.ofMillis(Math.max(rtoMax > 0 ? rtoMax : 100, rtoMin));
            b.rtoMin(min).rtoMax(max).rtoInitial(max);
        }
        int mtu = args.integer("mtu", 0); // the link's MTU (the namespace mode's veth), else the LAN profile's
        if (mtu > 0) {
            b.pathMtu(mtu);
        }
        if (mode.equals("echo") || mode.equals("ping")) {
            b.noDelay(true);
        }
        return b.build();
    }

    private LowerLayerFactory layers(int remoteUdp) {
        if (raw) {
            // raw-send-batch=1: one sendmsg per packet, the raw path before its sends were batched;
            // raw-kernel-filter=0: no socket filter, the raw path before the kernel dropped packets
            // to other addresses; raw-no-icmp=1: the layer's nftables guard against the host's ICMP
            // Protocol Unreachable for inbound SCTP (the namespace mode)
            return (port, addresses) -> rawLayer = RawIpLowerLayer.builder()
                    .ipv6(false)
                    .sendBatch(args.integer("raw-send-batch", 64))
                    .kernelFilter(args.integer("raw-kernel-filter", 1) != 0)
                    .suppressProtocolUnreachable(args.integer("raw-no-icmp", 0) != 0)
                    .localAddresses(addresses)
                    .receiveBufferFor(options())
                    .open();
        }
        return (port, addresses) -> {
            UdpConfig.Builder c = UdpConfig.builder().localPort(0).bindAddresses(addresses);
            if (remoteUdp > 0) {
                c.defaultRemotePort(remoteUdp);
            }
            udp = UdpEncapsulation.open(c.build());
            return udp;
        };
    }

    int run() throws Exception {
        double timeout = args.dbl("timeout", 60);
        try {
            if (nonBlocking) {
                return switch (mode) {
                    case "sink" -> selectorSink(timeout);
                    case "bulk" -> socketBulk(timeout);
                    default -> throw new IllegalArgumentException("api=socket-nio modes: sink bulk, not " + mode);
                };
            }
            if (socketApi) {
                return switch (mode) {
                    case "sink" -> socketSink(timeout);
                    case "bulk" -> socketBulk(timeout);
                    case "echo" -> socketEcho(timeout);
                    case "ping" -> socketPing(timeout);
                    default -> throw new IllegalArgumentException("sctp modes: sink bulk echo ping, not " + mode);
                };
            }
            return switch (mode) {
                case "sink" -> sink(timeout);
                case "bulk" -> bulk(timeout);
                case "echo" -> echo(timeout);
                case "ping" -> ping(timeout);
                default -> throw new IllegalArgumentException("sctp modes: sink bulk echo ping, not " + mode);
            };
        } finally {
            runtime.close();
        }
    }

    /** Callbacks common to every callback-API mode: association state. */
    private abstract class Base implements Callbacks {
        @Override
        public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {}

        @Override
        public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
            switch (c.type()) {
                case COMMUNICATION_UP -> {
                    assoc = c.association();
                    up.countDown();
                }
                case SHUTDOWN_COMPLETE, COMMUNICATION_LOST, CANT_START -> {
                    endedBy = c.type() + (c.reason() == null || c.reason().isEmpty() ? "" : " (" + c.reason() + ")");
                    up.countDown();
                    ended.countDown();
                }
                default -> {}
            }
        }
    }

    private CallbackSocket server(Callbacks cb) throws Exception {
        CallbackSocket s = CallbackSocket.open(runtime, options(), layers(0), cb);
        s.bind(SERVER_PORT, List.of(local));
        s.listen();
        System.out.println("PEER-READY udp=" + (raw ? 0 : udp.localPort()));
        System.out.flush();
        return s;
    }

    private CallbackSocket client(Callbacks cb) throws Exception {
        CallbackSocket s = CallbackSocket.open(runtime, options(), layers(args.integer("remote-udp", 9899)), cb);
        s.bind(CLIENT_PORT, List.of(local));
        long t0 = System.nanoTime();
        s.connect(List.of(peer), SERVER_PORT);
        boolean event = up.await(HANDSHAKE_SECONDS, TimeUnit.SECONDS);
        if (!event || assoc == null) {
            throw new IllegalStateException("association did not come up: "
                    + (event ? endedBy + " after " : "no association event within ")
                    + String.format(java.util.Locale.ROOT, "%.2f s", (System.nanoTime() - t0) / 1e9));
        }
        return s;
    }

    private static void result(String status, String rest) {
        System.out.println("PEER-RESULT status=" + status + " " + rest);
        System.out.flush();
    }

    // ------------------------------------------------------------------ throughput

    private int sink(double timeout) throws Exception {
        RateMeter meter = new RateMeter(args.dbl("warmup", 0.5));
        CallbackSocket s = server(new Base() {
            /** The zero-copy form: count the bytes where they lie in the packet, as a sink would. */
            @Override
            public void onMessage(
                    CallbackSocket s, AssociationId id, int streamId, int ppid, boolean unordered, ByteBuffer data) {
                meter.add(data.remaining());
            }

            /** The copying form, still used while a notification waits (e.g. data with the COOKIE ACK). */
            @Override
            public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                meter.add(m.data().length);
            }
        });
        ended.await((long) (timeout * 1e9), TimeUnit.NANOSECONDS);
        s.close();
        if (!endedBy.startsWith("SHUTDOWN_COMPLETE")) {
            System.out.println("PEER-NOTE association ended: " + (endedBy.isEmpty() ? "(no end event)" : endedBy));
        }
        result(ended.getCount() == 0 ? "ok" : "timeout", meter.result() + rawCounters() + udpCounters());
        return 0;
    }

    private int bulk(double timeout) throws Exception {
        int size = args.integer("size", 1000);
        long threshold = args.integer("threshold", 0);
        long durationNanos = (long) (args.dbl("duration", 2) * 1e9);
        AtomicLong sent = new AtomicLong();
        SendInfo info = SendInfo.of(0, 51);
        ByteBuffer message = ByteBuffer.allocate(size);
        long[] stopAt = {Long.MAX_VALUE};
        // The sender's CPU per GB is measured over the second half of its sending (the JIT's work
        // is mostly done by then), or from warmup= seconds after the start when that is shorter.
        long measureAfter = (long) (Math.min(args.dbl("warmup", 1.5), args.dbl("duration", 2) / 2) * 1e9);
        long[] measureAt = {Long.MAX_VALUE};
        CpuMeter cpu = new CpuMeter();
        boolean[] finished = {false};
        AtomicLong callbacks = new AtomicLong();
        CallbackSocket s = client(new Base() {
            @Override
            public void onSendSpace(CallbackSocket s, AssociationId id, long free) {
                callbacks.incrementAndGet();
                pump(s, id);
            }

            void pump(CallbackSocket s, AssociationId id) {
                if (finished[0]) {
                    return;
                }
                long n = 0;
                while (true) {
                    if ((n & 15) == 0) {
                        long now = System.nanoTime();
                        if (now >= stopAt[0]) {
                            cpu.stop((sent.get() + n) * size);
                            finished[0] = true;
                            done.countDown();
                            break;
                        }
                        if (now >= measureAt[0] && !cpu.started()) {
                            cpu.start((sent.get() + n) * size);
                        }
                    }
                    message.clear();
                    if (s.send(id, info, message) != SendStatus.ACCEPTED) {
                        break;
                    }
                    n++;
                }
                sent.addAndGet(n);
            }

            @Override
            public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
                super.onAssociationChange(s, c);
                if (c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP) {
                    s.setSendThreshold(threshold);
                    long now = System.nanoTime();
                    stopAt[0] = now + durationNanos;
                    measureAt[0] = now + measureAfter;
                    pump(s, c.association());
                }
            }
        });
        long t0 = System.nanoTime();
        long deadline = t0 + (long) (timeout * 1e9);
        // Until the sending ends, or the association does (then no send callback comes again).
        while (!done.await(10, TimeUnit.MILLISECONDS) && ended.getCount() > 0 && System.nanoTime() < deadline) {
            // wait
        }
        long sendEnd = System.nanoTime();
        boolean closed;
        if (ended.getCount() == 0) {
            System.out.println("PEER-NOTE association ended while sending: " + endedBy);
            closed = false;
        } else {
            s.shutdown(assoc);
            closed = ended.await((long) (timeout * 1e9), TimeUnit.NANOSECONDS);
            if (closed && !endedBy.startsWith("SHUTDOWN_COMPLETE")) {
                // after the sending: the sink's figure (bytes delivered) stands; the log says how
                System.out.println("PEER-NOTE association ended during the shutdown: " + endedBy);
            }
        }
        long t1 = System.nanoTime();
        s.close();
        bulkResult(closed, sent.get(), size, t0, sendEnd, t1, callbacks.get(), cpu.result() + udpCounters());
        if (raw) {
            System.out.println("PEER-RAW" + rawCounters()); // a line of its own: the result line is parsed
        }
        return 0;
    }

    /**
     * With llp=raw, the raw layer's counters (read from this thread once the association ended:
     * plain counters of the stack thread, for the log only), else nothing.
     */
    /**
     * Over UDP, the layer's system calls for sending and receiving and the datagrams it moved
     * (read once the association ended: plain counters of the stack thread, for the log), else
     * nothing.
     */
    private String udpCounters() {
        UdpEncapsulation u = udp;
        if (u == null) {
            return "";
        }
        var st = u.stats();
        return " udp_native=" + u.isNative() + " udp_received=" + st.received() + " udp_sent=" + st.sent()
                + " udp_receive_calls=" + st.receiveSystemCalls() + " udp_send_calls=" + st.sendSystemCalls();
    }

    private String rawCounters() {
        RawIpLowerLayer l = rawLayer;
        if (l == null) {
            return "";
        }
        var st = l.stats();
        return " raw_received=" + st.received() + " raw_not_local=" + st.notLocal() + " raw_sent=" + st.sent()
                + " raw_send_dropped=" + st.sendDropped() + " raw_kernel_dropped=" + st.kernelDropped()
                + " raw_too_big=" + st.tooBig() + " raw_icmp=" + st.icmpErrors();
    }

    /** The bulk sender's result line (both APIs). */
    private static void bulkResult(
            boolean closed, long sent, int size, long t0, long sendEnd, long t1, long callbacks, String cpu) {
        result(
                closed ? "ok" : "timeout",
                String.format(
                        java.util.Locale.ROOT,
                        "tx_msgs=%d tx_bytes=%d send_s=%.3f acked_s=%.3f tx_mb_per_s=%.3f send_callbacks=%d%s",
                        sent,
                        sent * size,
                        (sendEnd - t0) / 1e9,
                        (t1 - t0) / 1e9,
                        sent * size / ((t1 - t0) / 1e9) / 1e6,
                        callbacks,
                        cpu));
    }

    // ------------------------------------------------------------------ latency

    private int echo(double timeout) throws Exception {
        AtomicLong echoed = new AtomicLong();
        CallbackSocket s = server(new Base() {
            @Override
            public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                echoed.incrementAndGet();
                s.send(m.association(), new SendInfo(m.streamId(), m.ppid(), false, true), ByteBuffer.wrap(m.data()));
            }
        });
        ended.await((long) (timeout * 1e9), TimeUnit.NANOSECONDS);
        s.close();
        result(ended.getCount() == 0 ? "ok" : "timeout", "echoed=" + echoed.get() + udpCounters());
        return 0;
    }

    private int ping(double timeout) throws Exception {
        int size = args.integer("size", 30);
        Warmup warm = Warmup.of(args);
        int messages = args.integer("messages", 5000);
        Rtt rtt = new Rtt(messages);
        SendInfo info = new SendInfo(0, 51, false, true);
        long[] t0 = {0};
        CallbackSocket s = client(new Base() {
            @Override
            public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                long t = System.nanoTime();
                if (warm.counts(t)) {
                    rtt.add(t - t0[0]);
                }
                if (rtt.count() >= messages) {
                    done.countDown();
                    return;
                }
                t0[0] = System.nanoTime();
                s.send(assoc, info, ByteBuffer.allocate(size));
            }
        });
        s.stackThread().execute(() -> {
            t0[0] = System.nanoTime();
            s.send(assoc, info, ByteBuffer.allocate(size));
        });
        done.await((long) (timeout * 1e9), TimeUnit.NANOSECONDS);
        s.shutdown(assoc);
        ended.await(5, TimeUnit.SECONDS);
        s.close(false, Duration.ZERO);
        result(rtt.count() == messages ? "ok" : "timeout", rtt.result() + udpCounters());
        return 0;
    }

    // ------------------------------------------------------------------ socket API (api=socket)

    /*
     * What an application of api-socket writes: a server channel and accept, a client channel and
     * connect, then blocking send and receive from the main thread; the stack thread runs
     * underneath (the provider's runtime). The provider gets the same runtime, protocol defaults
     * (LAN) and lower layer as the callback modes: UDP encapsulation opened by the channels
     * themselves from the UDP port options, which build the same UdpConfig as layers() (local
     * port, bound addresses; the remote UDP port is set per peer address at connect).
     */

    /** Receive buffer size: the largest message of the runner (64 KiB) arrives in one receive. */
    private static final int RECEIVE_BUFFER = 64 * 1024;

    private SctpProvider provider() {
        return SctpProvider.of(CallbackRuntime.of(runtime), SctpOptions.LAN);
    }

    /** Remembers how the association ended (for the log when it was not a clean shutdown). */
    private static final class EndNote extends AbstractNotificationHandler<Void> {
        volatile AssociationChangeNotification last;

        @Override
        public HandlerResult handleNotification(AssociationChangeNotification n, Void attachment) {
            last = n;
            return HandlerResult.CONTINUE;
        }

        void print() {
            AssociationChangeNotification n = last;
            if (n != null
                    && n.event() != AssociationChangeNotification.AssocChangeEvent.COMM_UP
                    && n.event() != AssociationChangeNotification.AssocChangeEvent.SHUTDOWN) {
                System.out.println("PEER-NOTE association ended: " + n.event() + " "
                        + ((SctpjAssociationChangeNotification) n).reason());
            }
        }
    }

    /**
     * A server channel on 127.0.0.1:SERVER_PORT, UDP port 0 (printed), {@code SO_LINGER} 5 s: close
     * waits for the shutdown to complete, so the peer sees SHUTDOWN COMPLETE before this process
     * exits (the default, a background shutdown, would die with the process).
     */
    private SctpjServerChannel socketServer(boolean noDelay) throws Exception {
        SctpjServerChannel server = provider().openServerChannel();
        server.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0);
        server.setOption(SctpjSocketOptions.SCTP_NODELAY, noDelay);
        server.setOption(SctpjSocketOptions.SO_LINGER, 5);
        server.setOption(SctpjSocketOptions.SCTP_RECEIVE_SPIN, spin()); // accepted channels inherit it
        server.bind(new InetSocketAddress(LOCAL, SERVER_PORT));
        System.out.println("PEER-READY udp=" + server.udpPort());
        System.out.flush();
        return server;
    }

    /** {@code spin=MICROS}: SCTP_RECEIVE_SPIN of the socket API's channels (default 0). */
    private Duration spin() {
        return Duration.ofNanos(1000L * args.integer("spin", 0));
    }

    /** A client channel from 127.0.0.1:CLIENT_PORT to the server, whose UDP port is {@code remote-udp}. */
    private SctpjChannel socketClient(boolean noDelay) throws Exception {
        SctpjChannel ch = provider().openSctpChannel();
        ch.setOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, args.integer("remote-udp", 9899));
        ch.setOption(SctpjSocketOptions.SCTP_NODELAY, noDelay);
        ch.setOption(SctpjSocketOptions.SCTP_RECEIVE_SPIN, spin());
        ch.bind(new InetSocketAddress(LOCAL, CLIENT_PORT));
        ch.connect(new InetSocketAddress(LOCAL, SERVER_PORT), Duration.ofSeconds(10));
        return ch;
    }

    /**
     * How long one receive waits at most: the loops around it check their deadline after each, so
     * a receive that times out only costs a turn of the loop; one Duration for all of them (a new
     * one per receive was the sink's third allocation per message).
     */
    private static final Duration RECEIVE_WAIT = Duration.ofMillis(200);

    /** At most {@link #RECEIVE_WAIT}: what a receive may wait before {@code deadline} (System.nanoTime). */
    private static Duration left(long deadline) {
        long left = deadline - System.nanoTime();
        return left >= RECEIVE_WAIT.toNanos() ? RECEIVE_WAIT : Duration.ofNanos(Math.max(1, left));
    }

    /**
     * Receives until the end of stream (true) or the deadline (false), discarding what comes: the
     * wait for the association's end after a shutdown.
     */
    private static boolean drainToEnd(SctpjChannel ch, EndNote note, long deadline) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(RECEIVE_BUFFER);
        while (System.nanoTime() < deadline) {
            b.clear();
            MessageInfo mi = ch.receive(b, null, note, left(deadline));
            if (mi != null && mi.bytes() < 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Sink: accept, then receive into one reused heap buffer until the end of stream, counting the
     * bytes. Heap, not direct: the socket API queues each message as a byte[] and copies it into
     * the caller's buffer, so a heap buffer makes that copy a plain array copy, and nothing here
     * goes on to a channel that would profit from a direct one.
     */
    private int socketSink(double timeout) throws Exception {
        RateMeter meter = new RateMeter(args.dbl("warmup", 0.5));
        long deadline = System.nanoTime() + (long) (timeout * 1e9);
        EndNote note = new EndNote();
        boolean eof = false;
        try (SctpjServerChannel server = socketServer(false)) {
            // accept() with no time limit: accept(Duration) can miss an association that is still
            // being set up when it wakes and then sleep out its whole time (reported); the runner
            // kills a server that is never connected to.
            SctpjChannel ch = server.accept();
            if (ch != null) {
                try (ch) {
                    ByteBuffer dst = ByteBuffer.allocate(RECEIVE_BUFFER);
                    // The clock is read when a receive timed out and every 16 messages, as the
                    // callback sender reads it: a read per message (about 90 ns on this VM's
                    // kvm-clock) was a cost of the harness, not of the API measured.
                    for (long n = 0; ((n & 15) != 0 || System.nanoTime() < deadline); n++) {
                        dst.clear();
                        MessageInfo mi = ch.receive(dst, null, note, RECEIVE_WAIT);
                        if (mi == null) {
                            n = -1; // timed out: look at the clock next
                            continue;
                        }
                        if (mi.bytes() < 0) {
                            eof = true;
                            break;
                        }
                        meter.add(mi.bytes());
                    }
                }
            }
        }
        note.print();
        result(eof ? "ok" : "timeout", meter.result());
        return 0;
    }

    /**
     * Sink on a selector (api=socket-nio): the server channel and the accepted channel are
     * non-blocking and registered with a selector of the provider; on OP_READ it receives until
     * nothing is queued, as an event loop does.
     */
    private int selectorSink(double timeout) throws Exception {
        RateMeter meter = new RateMeter(args.dbl("warmup", 0.5));
        long deadline = System.nanoTime() + (long) (timeout * 1e9);
        EndNote note = new EndNote();
        boolean eof = false;
        ByteBuffer dst = ByteBuffer.allocate(RECEIVE_BUFFER);
        try (SctpjServerChannel server = socketServer(false);
                Selector sel = provider().openSelector()) {
            server.configureBlocking(false);
            server.register(sel, SelectionKey.OP_ACCEPT);
            SctpjChannel ch = null;
            loop:
            while (System.nanoTime() < deadline) {
                sel.select(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                for (SelectionKey k : sel.selectedKeys()) {
                    if (k.isAcceptable() && ch == null && (ch = server.accept()) != null) {
                        ch.configureBlocking(false);
                        ch.register(sel, SelectionKey.OP_READ);
                    } else if (k.isReadable()) {
                        MessageInfo mi;
                        while ((mi = ch.receive(dst.clear(), null, note)) != null) {
                            if (mi.bytes() < 0) {
                                eof = true;
                                break loop;
                            }
                            meter.add(mi.bytes());
                        }
                    }
                }
                sel.selectedKeys().clear();
            }
            if (ch != null) {
                ch.close();
            }
        }
        note.print();
        result(eof ? "ok" : "timeout", meter.result());
        return 0;
    }

    /**
     * Bulk: connect, blocking sends of one reused heap buffer (as the callback sender) for the
     * duration, then shutdown and wait for the end of stream (every message acknowledged and
     * SHUTDOWN COMPLETE), as the callback sender waits for SHUTDOWN_COMPLETE. With {@code
     * api=socket-nio} the sends are non-blocking and the sender waits for OP_WRITE on a selector
     * when one returns 0, as an event loop does.
     */
    private int socketBulk(double timeout) throws Exception {
        int size = args.integer("size", 1000);
        long durationNanos = (long) (args.dbl("duration", 2) * 1e9);
        ByteBuffer message = ByteBuffer.allocate(size);
        MessageInfo info = SctpjMessageInfo.createOutgoing(null, 0).payloadProtocolID(51);
        EndNote note = new EndNote();
        long sent = 0;
        try (SctpjChannel ch = socketClient(false);
                Selector sel = nonBlocking ? provider().openSelector() : null) {
            SelectionKey key = null;
            if (nonBlocking) {
                // api=socket-nio: send until a send returns 0, then wait for OP_WRITE
                ch.configureBlocking(false);
                key = ch.register(sel, SelectionKey.OP_WRITE);
            }
            long t0 = System.nanoTime();
            long stop = t0 + durationNanos;
            // the clock every 16 sends, as the callback sender reads it (not once per message)
            for (long n = 0; (n & 15) != 0 || System.nanoTime() < stop; n++) {
                message.clear();
                if (ch.send(message, info) > 0) {
                    sent++;
                } else if (sel != null) {
                    n = -1; // look at the clock after the wait
                    sel.select(Math.max(1, (stop - System.nanoTime()) / 1_000_000));
                    sel.selectedKeys().clear();
                }
            }
            long sendEnd = System.nanoTime();
            if (key != null) {
                key.cancel();
                sel.selectNow();
                ch.configureBlocking(true);
            }
            ch.shutdown();
            boolean closed = drainToEnd(ch, note, sendEnd + (long) (timeout * 1e9));
            long t1 = System.nanoTime();
            note.print();
            bulkResult(closed, sent, size, t0, sendEnd, t1, 0, "");
        }
        return 0;
    }

    /** Echo: accept, then send every message back on its stream with its PPID, the I bit set. */
    private int socketEcho(double timeout) throws Exception {
        long deadline = System.nanoTime() + (long) (timeout * 1e9);
        EndNote note = new EndNote();
        MessageInfo out = SctpjMessageInfo.createOutgoing(null, 0).sackImmediately(true);
        long echoed = 0;
        boolean eof = false;
        try (SctpjServerChannel server = socketServer(true)) {
            // accept() with no time limit: accept(Duration) can miss an association that is still
            // being set up when it wakes and then sleep out its whole time (reported); the runner
            // kills a server that is never connected to.
            SctpjChannel ch = server.accept();
            if (ch != null) {
                try (ch) {
                    ByteBuffer buf = ByteBuffer.allocate(RECEIVE_BUFFER);
                    boolean timedOut = false;
                    while (!timedOut || System.nanoTime() < deadline) {
                        buf.clear();
                        MessageInfo mi = ch.receive(buf, null, note, RECEIVE_WAIT);
                        timedOut = mi == null; // the clock only then
                        if (mi == null) {
                            continue;
                        }
                        if (mi.bytes() < 0) {
                            eof = true;
                            break;
                        }
                        buf.flip();
                        ch.send(buf, out.streamNumber(mi.streamNumber()).payloadProtocolID(mi.payloadProtocolID()));
                        echoed++;
                    }
                }
            }
        }
        note.print();
        result(eof ? "ok" : "timeout", "echoed=" + echoed);
        return 0;
    }

    /** Ping: send a message (I bit) and block in receive for its echo, timing each round trip. */
    private int socketPing(double timeout) throws Exception {
        int size = args.integer("size", 30);
        Warmup warm = Warmup.of(args);
        int messages = args.integer("messages", 5000);
        Rtt rtt = new Rtt(messages);
        MessageInfo info =
                SctpjMessageInfo.createOutgoing(null, 0).payloadProtocolID(51).sackImmediately(true);
        EndNote note = new EndNote();
        try (SctpjChannel ch = socketClient(true)) {
            ByteBuffer b = ByteBuffer.allocate(size);
            ByteBuffer r = ByteBuffer.allocate(RECEIVE_BUFFER);
            while (rtt.count() < messages) {
                b.clear();
                r.clear();
                long t = System.nanoTime();
                ch.send(b, info);
                MessageInfo mi = ch.receive(r, null, note, Duration.ofSeconds(5));
                if (mi == null || mi.bytes() < 0) {
                    break; // no echo within 5 s, or the association ended: status says so
                }
                long t1 = System.nanoTime();
                if (warm.counts(t1)) {
                    rtt.add(t1 - t);
                }
            }
            ch.shutdown();
            drainToEnd(ch, note, System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
        }
        note.print();
        result(rtt.count() == messages ? "ok" : "timeout", rtt.result());
        return 0;
    }
}
