package org.sctpj.tools;

import com.sun.nio.sctp.MessageInfo;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.sctpj.api.callback.CallbackRuntime;
import org.sctpj.api.callback.CallbackSocket;
import org.sctpj.api.callback.Callbacks;
import org.sctpj.api.socket.SctpProvider;
import org.sctpj.api.socket.SctpjChannel;
import org.sctpj.api.socket.SctpjMessageInfo;
import org.sctpj.api.socket.SctpjServerChannel;
import org.sctpj.api.socket.SctpjSocketOptions;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * The bandwidth benchmark of the source thesis: a client sends messages of one size as fast as
 * the association takes them, for a time or a byte count, then shuts down gracefully; the rate is
 * the bytes sent over the time until SHUTDOWN_COMPLETE (every byte acknowledged by the receiver).
 * One size after another (a sweep), each on a fresh association.
 */
final class Perf {
    private Perf() {}

    static final String USAGE =
            """
              perf [options]         bandwidth benchmark (default: loopback sweep in one process)
                --mode M             loopback (default; server and client in this process), server, client
                --api A              callback (default; send from the send-space callback) or socket (blocking threads)
                --sizes LIST         message sizes, e.g. 100,1000,1400,4096,65536 (the default)
                --duration D         per size (default 3s); or --bytes N per size (e.g. 100M)
                --threshold T        send-callback threshold: on (= message size, default), off (0), or bytes
                --streams N          spread messages over N streams (default 1)
                --unordered          send unordered
                --profile P          lan (default: thesis cluster profile) or wan (RFC 9260 defaults)
                --host H             loopback/client: the server address (127.0.0.1); server: the address to bind
                --port P             server SCTP port (loopback: ephemeral; server/client: 5001)
                --udp-port U         local UDP port (server default 9899; loopback and client: ephemeral)
                --remote-udp-port U  client: the server's UDP port (default 9899)
                --quiet              no live progress line
            """;

    record Result(int size, long bytes, long messages, double seconds, double cpuPercent) {}

    /** Runs the perf command; returns the exit status. */
    static int run(String[] argv) throws Exception {
        Args a = new Args(argv, Set.of("unordered", "quiet"));
        String mode = a.get("mode", "loopback");
        String api = a.get("api", "callback");
        if (!api.equals("callback") && !api.equals("socket")) {
            throw new IllegalArgumentException("--api is callback or socket, was " + api);
        }
        List<Integer> sizes = new ArrayList<>();
        for (String s : a.get("sizes", "100,1000,1400,4096,65536").split(",")) {
            sizes.add((int) Args.bytes(s));
        }
        Config c = new Config(
                api,
                a.duration("duration", Duration.ofSeconds(3)),
                a.getBytes("bytes", -1),
                a.get("threshold", "on"),
                a.getInt("streams", 1),
                a.flag("unordered"),
                Net.profile(a.get("profile", "lan"), false),
                InetAddress.getByName(a.get("host", "127.0.0.1")),
                a.getInt("port", mode.equals("loopback") ? 0 : 5001),
                a.getInt("udp-port", mode.equals("server") ? 9899 : 0),
                a.getInt("remote-udp-port", 9899),
                !a.flag("quiet"));
        try (StackRuntime rt = StackRuntime.start(2, StackConfig.DEFAULT.withName("perf"))) {
            switch (mode) {
                case "server" -> {
                    Server s = startServer(rt, c);
                    System.out.printf(
                            "perf server (%s API) on %s SCTP port %d, UDP port %d; Ctrl-C to stop%n",
                            api, c.host.getHostAddress(), s.sctpPort, s.udpPort);
                    Thread.currentThread().join();
                    return 0;
                }
                case "client" -> {
                    return sweep(rt, c, sizes, c.port, c.remoteUdpPort);
                }
                case "loopback" -> {
                    Server s = startServer(rt, c);
                    try {
                        System.out.printf(
                                "sctpj perf: loopback over UDP encapsulation on %s (%s API, %s profile, "
                                        + "threshold %s, %d stream(s)%s), %s per size%n",
                                c.host.getHostAddress(),
                                api,
                                a.get("profile", "lan"),
                                c.threshold,
                                c.streams,
                                c.unordered ? ", unordered" : "",
                                c.byteLimit > 0 ? c.byteLimit + " bytes" : c.duration.toMillis() / 1000.0 + " s");
                        return sweep(rt, c, sizes, s.sctpPort, s.udpPort);
                    } finally {
                        s.close();
                    }
                }
                default -> throw new IllegalArgumentException("--mode is loopback, server or client, was " + mode);
            }
        }
    }

    record Config(
            String api,
            Duration duration,
            long byteLimit,
            String threshold,
            int streams,
            boolean unordered,
            SctpOptions options,
            InetAddress host,
            int port,
            int udpPort,
            int remoteUdpPort,
            boolean progress) {}

    // ------------------------------------------------------------------ server

    /** A sink: counts what arrives, per association; prints a line per finished association in server mode. */
    static final class Server implements AutoCloseable {
        int sctpPort;
        int udpPort;
        AutoCloseable closer;

        @Override
        public void close() throws Exception {
            closer.close();
        }
    }

    static Server startServer(StackRuntime rt, Config c) throws IOException {
        Server srv = new Server();
        srv.sctpPort = c.port == 0 ? 5001 + (int) (Math.random() * 1000) : c.port;
        boolean announce = c.port != 0 || c.udpPort != 0;
        if (c.api.equals("callback")) {
            int[] udp = new int[1];
            ConcurrentHashMap<AssociationId, long[]> counts = new ConcurrentHashMap<>();
            CallbackSocket s = CallbackSocket.open(
                    rt.threads().get(0), c.options, Net.udp(c.udpPort, null, 0, udp), new Callbacks() {
                        @Override
                        public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                            long[] n = counts.computeIfAbsent(m.association(), k -> new long[] {System.nanoTime(), 0});
                            n[1] += m.data().length;
                        }

                        @Override
                        public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange ch) {
                            long[] n = counts.remove(ch.association());
                            if (announce && n != null && ch.type() != AssociationChangeType.COMMUNICATION_UP) {
                                report(ch.association().value(), n[1], System.nanoTime() - n[0]);
                            }
                        }
                    });
            s.bind(srv.sctpPort, List.of(c.host));
            s.listen();
            srv.udpPort = udp[0];
            srv.closer = s::close;
        } else {
            SctpjServerChannel sc =
                    SctpProvider.of(CallbackRuntime.of(rt), c.options).openServerChannel();
            sc.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, c.udpPort);
            sc.bind(new InetSocketAddress(c.host, srv.sctpPort));
            srv.udpPort = sc.udpPort();
            Thread acceptor = new Thread(
                    () -> {
                        try {
                            while (true) {
                                SctpjChannel ch = sc.accept();
                                Thread reader = new Thread(() -> drain(ch, announce), "perf-reader");
                                reader.setDaemon(true);
                                reader.start();
                            }
                        } catch (IOException e) {
                            // closed
                        }
                    },
                    "perf-acceptor");
            acceptor.setDaemon(true);
            acceptor.start();
            srv.closer = sc::close;
        }
        return srv;
    }

    private static void drain(SctpjChannel ch, boolean announce) {
        ByteBuffer buf = ByteBuffer.allocateDirect(256 * 1024);
        long n = 0;
        long t0 = System.nanoTime();
        try (ch) {
            int id = ch.association().associationID();
            while (true) {
                buf.clear();
                MessageInfo mi = ch.receive(buf, null, null);
                if (mi == null || mi.bytes() < 0) {
                    break;
                }
                n += mi.bytes();
            }
            if (announce) {
                report(id, n, System.nanoTime() - t0);
            }
        } catch (IOException e) {
            // the channel was closed
        }
    }

    private static void report(int assoc, long bytes, long nanos) {
        System.out.printf(
                "association %d: %d bytes in %.2f s = %.1f MB/s%n",
                assoc, bytes, nanos / 1e9, bytes / 1e6 / (nanos / 1e9));
    }

    // ------------------------------------------------------------------ client

    static int sweep(StackRuntime rt, Config c, List<Integer> sizes, int serverPort, int serverUdpPort)
            throws Exception {
        List<Result> results = new ArrayList<>();
        for (int size : sizes) {
            Result r = c.api.equals("callback")
                    ? runCallback(rt, c, size, serverPort, serverUdpPort)
                    : runSocket(rt, c, size, serverPort, serverUdpPort);
            results.add(r);
            if (c.progress) {
                System.out.print("\r" + " ".repeat(78) + "\r");
            }
            System.out.flush();
        }
        printTable(System.out, results);
        return 0;
    }

    static void printTable(PrintStream out, List<Result> results) {
        out.println();
        out.printf("%8s %10s %10s %12s %7s%n", "size", "MB/s", "Mbit/s", "messages/s", "CPU %");
        for (Result r : results) {
            double mbs = r.bytes / 1e6 / r.seconds;
            out.printf("%8d %10.1f %10.1f %12.0f %7.0f%n", r.size, mbs, mbs * 8, r.messages / r.seconds, r.cpuPercent);
        }
        out.println("(MB = 10^6 bytes; rate = bytes sent / time until the graceful shutdown completed, i.e. all"
                + " acknowledged; CPU % = process CPU time / wall time, both sides when in one process)");
    }

    private static SendInfo info(Config c, long i) {
        return new SendInfo((int) (i % c.streams), 0, c.unordered, false);
    }

    private static long threshold(Config c, int size) {
        return switch (c.threshold) {
            case "on" -> size;
            case "off" -> 0;
            default -> Args.bytes(c.threshold);
        };
    }

    static Result runCallback(StackRuntime rt, Config c, int size, int serverPort, int serverUdpPort) throws Exception {
        ByteBuffer payload = ByteBuffer.allocate(size);
        AtomicLong sent = new AtomicLong();
        AtomicLong count = new AtomicLong();
        CountDownLatch up = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        String[] how = {""};
        long limit = c.byteLimit;
        var stop = new java.util.concurrent.atomic.AtomicBoolean();
        Callbacks cb = new Callbacks() {
            @Override
            public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {}

            void pump(CallbackSocket s, AssociationId id) {
                long i = count.get();
                while (!stop.get() && (limit < 0 || sent.get() < limit)) {
                    if (s.send(id, info(c, i), payload.duplicate()) != SendStatus.ACCEPTED) {
                        break;
                    }
                    i++;
                    sent.addAndGet(size);
                    count.set(i);
                }
            }

            @Override
            public void onSendSpace(CallbackSocket s, AssociationId id, long free) {
                pump(s, id);
            }

            @Override
            public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange ch) {
                if (ch.type() == AssociationChangeType.COMMUNICATION_UP) {
                    up.countDown();
                    pump(s, ch.association());
                } else {
                    how[0] = ch.type().name() + " " + ch.reason();
                    if (!stop.get()) {
                        System.err.println("association ended early: " + how[0]);
                    }
                    up.countDown();
                    done.countDown();
                }
            }
        };
        try (CallbackSocket s =
                CallbackSocket.open(rt.threads().get(1), c.options, Net.udp(0, c.host, serverUdpPort, null), cb)) {
            s.setSendThreshold(Math.min(threshold(c, size), c.options.sendBufferBytes()));
            s.bind(30000 + (int) (Math.random() * 19000), List.of(c.host));
            long cpu0 = cpu();
            long t0 = System.nanoTime();
            AssociationId id = s.connect(List.of(c.host), serverPort);
            if (!up.await(10, TimeUnit.SECONDS) || done.getCount() == 0) {
                throw new IOException("association to " + c.host + ":" + serverPort + " did not come up: " + how[0]);
            }
            waitAndShow(c, size, t0, sent, count, () -> limit > 0 && sent.get() >= limit);
            stop.set(true);
            s.shutdown(id);
            if (!done.await(60, TimeUnit.SECONDS)) {
                throw new IOException("the shutdown did not complete");
            }
            long t1 = System.nanoTime();
            return new Result(size, sent.get(), count.get(), (t1 - t0) / 1e9, cpuPercent(cpu0, t1 - t0));
        }
    }

    static Result runSocket(StackRuntime rt, Config c, int size, int serverPort, int serverUdpPort) throws Exception {
        ByteBuffer payload = ByteBuffer.allocateDirect(size);
        AtomicLong sent = new AtomicLong();
        AtomicLong count = new AtomicLong();
        try (SctpjChannel ch =
                SctpProvider.of(CallbackRuntime.of(rt), c.options).openSctpChannel()) {
            ch.setOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, serverUdpPort);
            long cpu0 = cpu();
            long t0 = System.nanoTime();
            ch.connect(new InetSocketAddress(c.host, serverPort), Duration.ofSeconds(10));
            long end = c.byteLimit > 0 ? Long.MAX_VALUE : t0 + c.duration.toNanos();
            Thread sender = new Thread(
                    () -> {
                        try {
                            long i = 0;
                            while (System.nanoTime() < end && (c.byteLimit < 0 || sent.get() < c.byteLimit)) {
                                MessageInfo mi = SctpjMessageInfo.createOutgoing(null, (int) (i % c.streams))
                                        .unordered(c.unordered);
                                ch.send(payload.duplicate(), mi);
                                i++;
                                sent.addAndGet(size);
                                count.set(i);
                            }
                        } catch (IOException e) {
                            System.err.println("send failed: " + e);
                        }
                    },
                    "perf-sender");
            sender.start();
            waitAndShow(c, size, t0, sent, count, () -> !sender.isAlive());
            sender.join();
            ch.shutdown();
            ByteBuffer sink = ByteBuffer.allocate(64);
            while (true) {
                MessageInfo mi = ch.receive(sink, null, null, Duration.ofSeconds(60));
                if (mi == null) {
                    throw new IOException("the shutdown did not complete");
                }
                if (mi.bytes() < 0) {
                    break;
                }
                sink.clear();
            }
            long t1 = System.nanoTime();
            return new Result(size, sent.get(), count.get(), (t1 - t0) / 1e9, cpuPercent(cpu0, t1 - t0));
        }
    }

    private static void waitAndShow(
            Config c, int size, long t0, AtomicLong sent, AtomicLong count, java.util.function.BooleanSupplier done)
            throws InterruptedException {
        long end = c.byteLimit > 0 ? Long.MAX_VALUE : t0 + c.duration.toNanos();
        long lastT = t0;
        long lastB = 0;
        while (System.nanoTime() < end && !done.getAsBoolean()) {
            Thread.sleep(Math.max(1, Math.min(250, (end - System.nanoTime()) / 1_000_000)));
            long now = System.nanoTime();
            long b = sent.get();
            if (c.progress) {
                double rate = (b - lastB) / 1e6 / ((now - lastT) / 1e9);
                System.out.printf(
                        "\r  size %6d  %5.1f s  %8.1f MB/s  %9.1f MB sent  %10d messages   ",
                        size, (now - t0) / 1e9, rate, b / 1e6, count.get());
                System.out.flush();
            }
            lastT = now;
            lastB = b;
        }
    }

    private static long cpu() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    private static double cpuPercent(long cpu0, long wallNanos) {
        long cpu1 = cpu();
        return cpu0 < 0 || cpu1 < 0 ? Double.NaN : 100.0 * (cpu1 - cpu0) / wallNanos;
    }
}
