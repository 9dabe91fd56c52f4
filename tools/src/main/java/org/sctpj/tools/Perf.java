package org.sctpj.tools;

import com.sun.nio.sctp.MessageInfo;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.sctpj.api.callback.CallbackSocket;
import org.sctpj.api.callback.Callbacks;
import org.sctpj.api.callback.LowerLayerFactory;
import org.sctpj.api.socket.SctpjChannel;
import org.sctpj.api.socket.SctpjMessageInfo;
import org.sctpj.api.socket.SctpjServerChannel;
import org.sctpj.api.socket.SctpjSocketOptions;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.AssociationStats;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;
import org.sctpj.trace.PcapCapture;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code perf}: the bandwidth benchmark of the source thesis: a client sends messages of one size
 * as fast as the association takes them, for a time or a byte count, then shuts down gracefully;
 * the rate is the bytes sent over the time until SHUTDOWN_COMPLETE (every byte acknowledged by the
 * receiver). One size after another (a sweep), each on a fresh association. Output: a table
 * (default), CSV ({@code --csv}) or JSON ({@code --json}) on standard output, optionally a PNG plot
 * ({@code --plot FILE}); a live progress line on standard error when it is a terminal.
 */
@Command(
        name = "perf",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Bandwidth benchmark (default: loopback sweep, server and client in this process).")
public final class Perf implements Callable<Integer> {

    /** Where the client and server run. */
    enum Mode {
        /** Server and client in this process. */
        loopback,
        /** A server only, until interrupted. */
        server,
        /** A client to a server elsewhere. */
        client
    }

    /** Which API sends. */
    enum Api {
        /** Callback API, sending from the send-space callback. */
        callback,
        /** Blocking socket API: a sender thread, a reader thread per association. */
        socket
    }

    /** The protocol profile. */
    enum Profile {
        /** The thesis's cluster profile. */
        lan,
        /** RFC 9260 defaults. */
        wan
    }

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--mode", paramLabel = "M", description = "loopback (default), server or client")
    Mode mode = Mode.loopback;

    @Option(names = "--api", paramLabel = "A", description = "callback (default) or socket")
    Api api = Api.callback;

    @Option(
            names = "--sizes",
            paramLabel = "LIST",
            split = ",",
            converter = Args.MessageSize.class,
            description = "message sizes in bytes (default 100,1000,1400,4096,65536)")
    List<Integer> sizes = List.of(100, 1000, 1400, 4096, 65536);

    @Option(
            names = "--duration",
            paramLabel = "D",
            converter = Args.PositiveDuration.class,
            description = "per size (default 3s; also 500ms, 2m)")
    Duration duration = Duration.ofSeconds(3);

    @Option(
            names = "--bytes",
            paramLabel = "N",
            converter = Args.PositiveBytes.class,
            description = "per size instead of a duration (e.g. 100M = 10^8 bytes)")
    Long byteLimit;

    @Option(
            names = "--threshold",
            paramLabel = "T",
            converter = Args.Threshold.class,
            description = "send-callback threshold: on (= message size, default), off, or bytes")
    String threshold = "on";

    @Option(
            names = "--streams",
            paramLabel = "N",
            converter = Args.StreamCount.class,
            description = "spread messages over N streams (default 1)")
    int streams = 1;

    @Option(names = "--unordered", description = "send unordered")
    boolean unordered;

    @Option(names = "--profile", paramLabel = "P", description = "lan (default) or wan")
    Profile profile = Profile.lan;

    @Option(
            names = "--host",
            paramLabel = "H",
            description = "loopback/client: the server address (127.0.0.1); server: the address to bind")
    String host = "127.0.0.1";

    @Option(
            names = "--port",
            paramLabel = "P",
            converter = Args.Port.class,
            description = "server SCTP port (loopback: ephemeral; server/client: 5001)")
    Integer port;

    @Option(
            names = "--udp-port",
            paramLabel = "U",
            converter = Args.Port.class,
            description = "local UDP port (server: 9899; loopback and client: ephemeral)")
    Integer udpPort;

    @Option(
            names = "--remote-udp-port",
            paramLabel = "U",
            converter = Args.Port.class,
            description = "client: the server's UDP port (9899)")
    int remoteUdpPort = 9899;

    @Option(names = "--csv", description = "results as CSV on standard output")
    boolean csv;

    @Option(names = "--json", description = "results as JSON on standard output")
    boolean json;

    @Option(names = "--plot", paramLabel = "FILE", description = "also write a PNG of throughput against size")
    Path plot;

    @Option(
            names = "--pcap",
            paramLabel = "FILE",
            description = "capture the traffic to a pcap file (loopback and server: the server's side; client: the"
                    + " client's)")
    Path pcap;

    @Option(names = "--progress", description = "draw the progress line even when not on a terminal")
    boolean progress;

    @Option(names = "--quiet", description = "no progress line")
    boolean quiet;

    /** Picocli's constructor. */
    public Perf() {}

    /**
     * One size's outcome; {@code sender} is the client association's counters when it stopped
     * sending, before the shutdown (null when the association was gone).
     */
    record Result(int size, long bytes, long messages, double seconds, double cpuPercent, AssociationStats sender) {
        double megabytesPerSecond() {
            return bytes / 1e6 / seconds;
        }
    }

    /** Runs the perf command; returns the exit status. */
    @Override
    public Integer call() throws Exception {
        if (csv && json) {
            throw new ParameterException(spec.commandLine(), "--csv and --json exclude each other: choose one");
        }
        Args.checkWritable(spec.commandLine(), "--plot", plot);
        Args.checkWritable(spec.commandLine(), "--pcap", pcap);
        InetAddress address = Args.address(spec.commandLine(), host);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter log = csv || json ? spec.commandLine().getErr() : out;
        Config c = new Config(
                api.name(),
                duration,
                byteLimit == null ? -1 : byteLimit,
                threshold,
                streams,
                unordered,
                Net.profile(profile.name(), false),
                address,
                port != null ? port : mode == Mode.loopback ? 0 : 5001,
                udpPort != null ? udpPort : mode == Mode.server ? 9899 : 0,
                remoteUdpPort,
                !quiet && (progress || System.console() != null),
                out,
                log,
                new LowerLayerFactory.Decorator[2]);
        int[] capturedPort = {0};
        try (PcapCapture capture = pcap == null ? null : PcapCapture.open(pcap);
                Closeable said = () -> Net.sayCaptured(log, capture, capturedPort[0]);
                StackRuntime rt = StackRuntime.start(2, StackConfig.DEFAULT.withName("perf"));
                // Closed first: associations still ending (a SHUTDOWN COMPLETE on its way) end
                // gracefully instead of being aborted when the process goes.
                Closeable ending = () -> rt.close(true, Net.GRACE.toNanos())) {
            c.capture[mode == Mode.client ? 1 : 0] = Net.wrapper(capture);
            capturedPort[0] = mode == Mode.client ? c.remoteUdpPort : c.udpPort;
            switch (mode) {
                case server -> {
                    Server s = startServer(rt, c);
                    capturedPort[0] = s.udpPort;
                    log.printf(
                            "perf server (%s API) on %s SCTP port %d, UDP port %d; Ctrl-C to stop%n",
                            api, c.host.getHostAddress(), s.sctpPort, s.udpPort);
                    log.flush();
                    Thread.currentThread().join();
                    return 0;
                }
                case client -> {
                    return sweep(rt, c, sizes, c.port, c.remoteUdpPort);
                }
                default -> {
                    Server s = startServer(rt, c);
                    capturedPort[0] = s.udpPort;
                    try {
                        log.printf(
                                "sctpj perf: loopback over UDP encapsulation on %s (%s API, %s profile, "
                                        + "threshold %s, %d stream(s)%s), %s per size%n",
                                c.host.getHostAddress(),
                                api,
                                profile,
                                c.threshold,
                                c.streams,
                                c.unordered ? ", unordered" : "",
                                c.byteLimit > 0 ? c.byteLimit + " bytes" : c.duration.toMillis() / 1000.0 + " s");
                        log.flush();
                        return sweep(rt, c, sizes, s.sctpPort, s.udpPort);
                    } finally {
                        s.close();
                    }
                }
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
            boolean progress,
            PrintWriter out,
            PrintWriter log,
            LowerLayerFactory.Decorator[] capture) {} // server's, client's; null: none

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
                    rt.threads().get(0), c.options, Net.udp(c.udpPort, null, 0, udp, c.capture[0]), new Callbacks() {
                        @Override
                        public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                            long[] n = counts.computeIfAbsent(m.association(), k -> new long[] {System.nanoTime(), 0});
                            n[1] += m.data().length;
                        }

                        @Override
                        public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange ch) {
                            long[] n = counts.remove(ch.association());
                            if (announce && n != null && ch.type() != AssociationChangeType.COMMUNICATION_UP) {
                                report(c.log, ch.association().value(), n[1], System.nanoTime() - n[0]);
                            }
                        }
                    });
            s.bind(srv.sctpPort, List.of(c.host));
            s.listen();
            srv.udpPort = udp[0];
            srv.closer = () -> s.close(true, Net.GRACE); // a SHUTDOWN COMPLETE may still be on its way
        } else {
            SctpjServerChannel sc = Net.provider(rt, c.options, c.capture[0]).openServerChannel();
            sc.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, c.udpPort);
            sc.bind(new InetSocketAddress(c.host, srv.sctpPort));
            srv.udpPort = sc.udpPort();
            Thread acceptor = new Thread(
                    () -> {
                        try {
                            while (true) {
                                SctpjChannel ch = sc.accept();
                                Thread reader = new Thread(() -> drain(c.log, ch, announce), "perf-reader");
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

    private static void drain(PrintWriter log, SctpjChannel ch, boolean announce) {
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
                report(log, id, n, System.nanoTime() - t0);
            }
        } catch (IOException e) {
            // the channel was closed
        }
    }

    private static void report(PrintWriter log, int assoc, long bytes, long nanos) {
        log.printf(
                "association %d: %d bytes in %.2f s = %.1f MB/s%n",
                assoc, bytes, nanos / 1e9, bytes / 1e6 / (nanos / 1e9));
        log.flush();
    }

    // ------------------------------------------------------------------ client

    int sweep(StackRuntime rt, Config c, List<Integer> sizes, int serverPort, int serverUdpPort) throws Exception {
        List<Result> results = new ArrayList<>();
        PrintWriter err = spec.commandLine().getErr();
        for (int size : sizes) {
            Result r = c.api.equals("callback")
                    ? runCallback(rt, c, size, serverPort, serverUdpPort)
                    : runSocket(rt, c, size, serverPort, serverUdpPort);
            results.add(r);
            if (c.progress) {
                err.print("\r" + " ".repeat(78) + "\r");
                err.flush();
            }
        }
        if (csv) {
            Report.csv(c.out, results);
        } else if (json) {
            Report.json(c.out, results, describe(c));
        } else {
            Report.table(c.out, results);
        }
        c.out.flush();
        if (plot != null) {
            Report.plot(plot, results, describe(c));
            c.log.println("plot written to " + plot);
        }
        return 0;
    }

    private String describe(Config c) {
        return mode + ", " + api + " API, " + profile + " profile, threshold " + c.threshold + ", " + c.streams
                + " stream(s)" + (c.unordered ? ", unordered" : "")
                + (c.byteLimit > 0 ? ", " + c.byteLimit + " bytes" : ", " + c.duration.toMillis() / 1000.0 + " s")
                + " per size";
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

    Result runCallback(StackRuntime rt, Config c, int size, int serverPort, int serverUdpPort) throws Exception {
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
                    try {
                        if (s.send(id, info(c, i), payload.duplicate()) != SendStatus.ACCEPTED) {
                            break;
                        }
                    } catch (IllegalStateException e) {
                        break; // the association is ending: its change event says how, and the run fails
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
                    up.countDown();
                    done.countDown();
                }
            }
        };
        try (CallbackSocket s = CallbackSocket.open(
                rt.threads().get(1), c.options, Net.udp(0, c.host, serverUdpPort, null, c.capture[1]), cb)) {
            s.setSendThreshold(Math.min(threshold(c, size), c.options.sendBufferBytes()));
            s.bind(30000 + (int) (Math.random() * 19000), List.of(c.host));
            long cpu0 = cpu();
            long t0 = System.nanoTime();
            AssociationId id = s.connect(List.of(c.host), serverPort);
            if (!up.await(10, TimeUnit.SECONDS) || done.getCount() == 0) {
                throw new IOException("association to " + c.host + ":" + serverPort + " did not come up: " + how[0]);
            }
            waitAndShow(
                    c,
                    size,
                    System.nanoTime(),
                    sent,
                    count,
                    () -> (limit > 0 && sent.get() >= limit) || done.getCount() == 0);
            if (done.getCount() == 0) {
                throw new IOException("the association ended early at " + sent.get() + " bytes: " + how[0]);
            }
            stop.set(true);
            AssociationStats st = s.stats(id);
            s.shutdown(id);
            if (!done.await(60, TimeUnit.SECONDS)) {
                throw new IOException("the shutdown did not complete");
            }
            long t1 = System.nanoTime();
            return new Result(size, sent.get(), count.get(), (t1 - t0) / 1e9, cpuPercent(cpu0, t1 - t0), st);
        }
    }

    Result runSocket(StackRuntime rt, Config c, int size, int serverPort, int serverUdpPort) throws Exception {
        ByteBuffer payload = ByteBuffer.allocateDirect(size);
        AtomicLong sent = new AtomicLong();
        AtomicLong count = new AtomicLong();
        Exception[] failure = {null};
        try (SctpjChannel ch = Net.provider(rt, c.options, c.capture[1]).openSctpChannel()) {
            ch.setOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, serverUdpPort);
            long cpu0 = cpu();
            long t0 = System.nanoTime();
            ch.connect(new InetSocketAddress(c.host, serverPort), Duration.ofSeconds(10));
            long upAt = System.nanoTime(); // the sending window starts once the association is up
            long end = c.byteLimit > 0 ? Long.MAX_VALUE : upAt + c.duration.toNanos();
            Thread sender = new Thread(
                    () -> {
                        try {
                            long i = 0;
                            // At least one message, even if the thread started after the window.
                            while ((i == 0 || System.nanoTime() < end)
                                    && (c.byteLimit < 0 || sent.get() < c.byteLimit)) {
                                MessageInfo mi = SctpjMessageInfo.createOutgoing(null, (int) (i % c.streams))
                                        .unordered(c.unordered);
                                ch.send(payload.duplicate(), mi);
                                i++;
                                sent.addAndGet(size);
                                count.set(i);
                            }
                        } catch (IOException | RuntimeException e) {
                            failure[0] = e; // reported on the caller's thread: one line, no stack trace
                        }
                    },
                    "perf-sender");
            sender.start();
            waitAndShow(c, size, upAt, sent, count, () -> !sender.isAlive());
            sender.join();
            AssociationStats st = ch.stats();
            if (failure[0] != null) {
                throw new IOException(
                        "send failed at " + sent.get() + " bytes: " + failure[0].getMessage(), failure[0]);
            }
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
            return new Result(size, sent.get(), count.get(), (t1 - t0) / 1e9, cpuPercent(cpu0, t1 - t0), st);
        }
    }

    /** Shows progress from {@code t0}, when the association came up, until the sending window ends. */
    private void waitAndShow(
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
                PrintWriter err = spec.commandLine().getErr();
                err.printf(
                        "\r  size %6d  %5.1f s  %8.1f MB/s  %9.1f MB sent  %10d messages   ",
                        size, (now - t0) / 1e9, rate, b / 1e6, count.get());
                err.flush();
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
