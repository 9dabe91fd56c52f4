package org.sctpj.bench.core;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.sctpj.api.callback.CallbackSocket;
import org.sctpj.api.callback.Callbacks;
import org.sctpj.api.callback.UdpLayers;
import org.sctpj.journal.JournalRecorder;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * The journal's cost in the callback loopback bulk run (as {@code ./sctpj perf} does it: server and
 * client in one process, each on its own stack thread, UDP encapsulation on 127.0.0.1, LAN options,
 * send threshold at the message size): runs without recording (A) and with (B), alternated A B A B
 * in one process after {@code --warmup} uncounted rounds of both (JIT), and prints each run's
 * throughput and the process's CPU time per GB sent, their medians and B's medians over A's.
 *
 * <pre>
 * java $CHRONICLE_FLAGS -cp bench/target/benchmarks.jar org.sctpj.bench.core.JournalCost \
 *     [--size 1000] [--seconds 3] [--rounds 4] [--warmup 1] [--record both|client|server] [--headers-only]
 *     [--full-outputs] [--memory MIB] [--drop] [--dir DIR]
 * </pre>
 *
 * The journal has the recorder's defaults (outputs by digest, 16 MiB of batch buffers, the
 * endpoint's thread waits when they are full) unless {@code --full-outputs} (outputs whole), {@code
 * --headers-only}, {@code --memory} or {@code --drop} (batches dropped rather than waited for)
 * say otherwise; with {@code --drop} each B run also prints the entries dropped.
 *
 * Throughput is user bytes sent over the time from connect to the end of the graceful shutdown (all
 * acknowledged), MB = 10^6 bytes. The journals go to DIR (default a temporary directory) and are
 * deleted after each run.
 */
public final class JournalCost {

    private JournalCost() {}

    /** Runs the comparison; see the class comment for the options. */
    public static void main(String[] args) throws Exception {
        int size = 1000;
        double seconds = 3;
        int rounds = 4;
        int warmup = 1;
        String record = "both";
        boolean headersOnly = false;
        boolean digests = true;
        long memory = 16L << 20;
        boolean drop = false;
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--size" -> size = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--record" -> record = args[++i];
                case "--headers-only" -> headersOnly = true;
                case "--digests" -> digests = true;
                case "--full-outputs" -> digests = false;
                case "--memory" -> memory = Long.parseLong(args[++i]) << 20;
                case "--drop" -> drop = true;
                case "--dir" -> dir = Path.of(args[++i]);
                default -> {
                    System.err.println("unknown option " + args[i] + ": --size N --seconds S --rounds N --warmup N"
                            + " --record both|client|server --headers-only --full-outputs --memory MIB --drop"
                            + " --dir DIR");
                    System.exit(2);
                }
            }
        }
        if (!List.of("both", "client", "server").contains(record)) {
            System.err.println("--record takes both, client or server, not " + record);
            System.exit(2);
        }
        Path base = dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("sctpj-journal-cost");
        List<Double> a = new ArrayList<>();
        List<Double> b = new ArrayList<>();
        List<Double> cpuA = new ArrayList<>();
        List<Double> cpuB = new ArrayList<>();
        System.out.printf(
                Locale.ROOT,
                "callback loopback bulk, %d-byte messages, %.1f s per run, %d rounds A (no journal) B (journal: %s%s)%n"
                        + "load average at start: " + loadAverage() + "%n",
                size,
                seconds,
                rounds,
                record,
                (headersOnly ? ", headers only" : digests ? ", outputs by digest" : ", outputs whole") + ", "
                        + (memory >> 20) + " MiB of buffers" + (drop ? ", dropping when behind" : ""));
        for (int w = 0; w < warmup; w++) {
            run(size, seconds, "none", settings(false, false, memory, false), base.resolve("w" + w));
            Path jw = base.resolve("wb" + w);
            run(size, seconds, record, settings(headersOnly, digests, memory, drop), jw);
            delete(jw);
            System.out.printf(Locale.ROOT, "warm-up round %d (A and B) not counted%n", w + 1);
        }
        for (int r = 0; r < rounds; r++) {
            double[] ra = run(size, seconds, "none", settings(false, false, memory, false), base.resolve("a" + r));
            a.add(ra[0]);
            cpuA.add(ra[1]);
            System.out.printf(Locale.ROOT, "round %d A %9.1f MB/s  %6.2f CPU s per GB%n", r + 1, ra[0], ra[1]);
            Path jb = base.resolve("b" + r);
            double[] rb = run(size, seconds, record, settings(headersOnly, digests, memory, drop), jb);
            b.add(rb[0]);
            cpuB.add(rb[1]);
            System.out.printf(
                    Locale.ROOT,
                    "round %d B %9.1f MB/s  %6.2f CPU s per GB  (journal %s%s)%n",
                    r + 1,
                    rb[0],
                    rb[1],
                    sizeOf(jb),
                    drop ? String.format(Locale.ROOT, ", %.0f entries dropped", rb[2]) : "");
            delete(jb);
        }
        double medA = median(a);
        double medB = median(b);
        System.out.printf(
                Locale.ROOT,
                "median A %.1f MB/s, median B %.1f MB/s: B/A = %.3f (cost %.1f%%)%n",
                medA,
                medB,
                medB / medA,
                100 * (1 - medB / medA));
        System.out.printf(
                Locale.ROOT,
                "median CPU per GB sent: A %.2f s, B %.2f s: B/A = %.3f%n",
                median(cpuA),
                median(cpuB),
                median(cpuB) / median(cpuA));
        System.out.println("load average at the end: " + loadAverage());
        if (dir == null) {
            delete(base);
        }
    }

    private static java.util.function.UnaryOperator<JournalRecorder.Builder> settings(
            boolean headersOnly, boolean digests, long memory, boolean drop) {
        return x -> x.headersOnly(headersOnly)
                .digestOutputs(digests)
                .memoryBytes(memory)
                .whenBehind(drop ? JournalRecorder.WhenBehind.DROP : JournalRecorder.WhenBehind.WAIT);
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** One run: {MB/s, CPU seconds of the whole process per GB sent, entries dropped}. */
    private static double[] run(
            int size,
            double seconds,
            String record,
            java.util.function.UnaryOperator<JournalRecorder.Builder> settings,
            Path journals)
            throws Exception {
        List<JournalRecorder> recorders = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.function.UnaryOperator<JournalRecorder.Builder> s = settings;
        InetAddress lo = InetAddress.getLoopbackAddress();
        AtomicLong sent = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicBoolean lost = new AtomicBoolean();
        CountDownLatch up = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        ByteBuffer payload = ByteBuffer.allocateDirect(size);
        SendInfo info = SendInfo.of(0, 51);
        try (StackRuntime rt = StackRuntime.start(2, StackConfig.DEFAULT.withName("jcost"))) {
            CallbackSocket server =
                    CallbackSocket.open(rt.threads().get(0), SctpOptions.LAN, UdpLayers.factory(0), new Callbacks() {
                        @Override
                        public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {}

                        @Override
                        public void onMessage(
                                CallbackSocket s, AssociationId id, int stream, int ppid, boolean u, ByteBuffer d) {}
                    });
            if (record.equals("both") || record.equals("server")) {
                server.recordTo(kept(JournalRecorder.factory(journals, s), recorders));
            }
            server.bind(5001, List.of(lo));
            server.listen();
            Callbacks cb = new Callbacks() {
                @Override
                public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {}

                void pump(CallbackSocket s, AssociationId id) {
                    while (!stop.get()) {
                        if (s.send(id, info, payload.duplicate()) != SendStatus.ACCEPTED) {
                            break;
                        }
                        sent.addAndGet(size);
                    }
                }

                @Override
                public void onSendSpace(CallbackSocket s, AssociationId id, long free) {
                    pump(s, id);
                }

                @Override
                public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange ch) {
                    if (ch.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP) {
                        up.countDown();
                        pump(s, ch.association());
                    } else {
                        if (ch.type() != SctpEvent.AssociationChangeType.SHUTDOWN_COMPLETE) {
                            lost.set(true);
                        }
                        up.countDown();
                        done.countDown();
                    }
                }
            };
            try (CallbackSocket client =
                    CallbackSocket.open(rt.threads().get(1), SctpOptions.LAN, UdpLayers.factory(0), cb)) {
                if (record.equals("both") || record.equals("client")) {
                    client.recordTo(kept(JournalRecorder.factory(journals, s), recorders));
                }
                client.setSendThreshold(size);
                client.bind(5002, List.of(lo));
                client.setUdpRemotePort(lo, server.udpLocalPort());
                long cpu0 = cpu();
                long t0 = System.nanoTime();
                AssociationId id = client.connect(List.of(lo), 5001);
                if (!up.await(10, TimeUnit.SECONDS)) {
                    throw new IOException("the association did not come up");
                }
                Thread.sleep((long) (seconds * 1000));
                stop.set(true);
                if (lost.get()) {
                    // under extreme load a stalled stack thread can make the peer give the association
                    // up (too many retransmissions): the run has no throughput to report
                    client.close(false, Duration.ZERO);
                    server.close(false, Duration.ZERO);
                    return new double[] {Double.NaN, Double.NaN, 0};
                }
                try {
                    client.shutdown(id);
                } catch (IllegalArgumentException gone) {
                    lost.set(true);
                    return new double[] {Double.NaN, Double.NaN, 0};
                }
                if (!done.await(60, TimeUnit.SECONDS)) {
                    throw new IOException("the shutdown did not complete");
                }
                long t1 = System.nanoTime();
                long cpu1 = cpu();
                client.close(true, Duration.ofSeconds(5));
                server.close(true, Duration.ofSeconds(5));
                long dropped = recorders.stream()
                        .mapToLong(JournalRecorder::droppedEntries)
                        .sum();
                return new double[] {
                    sent.get() / ((t1 - t0) / 1e9) / 1e6, (cpu1 - cpu0) / 1e9 / (sent.get() / 1e9), dropped
                };
            }
        }
    }

    /** {@code f}, keeping each recorder it opens in {@code into}. */
    private static org.sctpj.stack.CoreJournal.Factory kept(
            org.sctpj.stack.CoreJournal.Factory f, List<JournalRecorder> into) {
        return (port, layer) -> {
            org.sctpj.stack.CoreJournal j = f.open(port, layer);
            if (j instanceof JournalRecorder r) {
                into.add(r);
            }
            return j;
        };
    }

    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean)
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** The median of the runs that completed (an association lost under load gives NaN: left out). */
    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.removeIf(x -> x.isNaN());
        if (s.isEmpty()) {
            return Double.NaN;
        }
        s.sort(Comparator.naturalOrder());
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private static String sizeOf(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return "none";
        }
        long bytes = 0;
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (Files.isRegularFile(p)) {
                    bytes += Files.size(p);
                }
            }
        }
        return String.format(Locale.ROOT, "%.1f MB on disk", bytes / 1e6);
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
