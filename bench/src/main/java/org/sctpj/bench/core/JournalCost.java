package org.sctpj.bench.core;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.sctpj.api.callback.CallbackSocket;
import org.sctpj.api.callback.Callbacks;
import org.sctpj.api.callback.UdpLayers;
import org.sctpj.journal.JournalEntry;
import org.sctpj.journal.JournalReader;
import org.sctpj.journal.JournalRecorder;
import org.sctpj.journal.Kind;
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
 * send threshold at the message size): a run without recording (A) and one run of each journal mode
 * asked for (B1, B2, ...), alternated A B1 B2 ... A B1 B2 ... in one process after {@code --warmup}
 * uncounted rounds of all (JIT). Prints each run's throughput and, as evidence that holds on a
 * loaded machine, the CPU time per GB sent of the whole process and of its thread groups (the two
 * stack threads, the journals' writer threads, the rest: GC, JIT), the minor page faults per GB
 * sent, the journal bytes written per byte sent and the journal entries per message; then per mode
 * the medians, B's throughput over A's, whether the goal (at least 0.9) is held, and the CPU each
 * thread group adds per GB.
 *
 * <pre>
 * java $CHRONICLE_FLAGS -cp bench/target/benchmarks.jar org.sctpj.bench.core.JournalCost \
 *     [--size 1000] [--seconds 3] [--rounds 3] [--warmup 1] [--random] [--dir DIR] [--kinds]
 *     [--modes MODE,MODE,...]
 * MODE = OUTPUTS:WHO[:drop][:inline][:MIB]
 *   OUTPUTS  digests (the default mode: inputs whole, outputs by digest), full (outputs whole too),
 *            headers (DATA headers and message lengths only)
 *   WHO      both, client or server (the endpoints recorded)
 *   drop     drop batches when the writer is behind (default: wait); MIB the buffers (default 16)
 *   inline   write batches to the queue on the stack thread (no writer thread)
 * </pre>
 *
 * Without {@code --modes} one mode is run, from the older options {@code --record both|client|server}
 * {@code --headers-only} {@code --full-outputs} {@code --memory MIB} {@code --drop}. {@code --random}
 * sends random bytes (each message a different slice of a 16 MiB random block) instead of zeros, so
 * that nothing along the way can profit from trivially compressible messages. {@code --kinds} reads
 * each journal back after its run (outside the measurement) and prints its entries and bytes by
 * kind per message sent.
 *
 * <p>Throughput is user bytes sent over the time from connect to the end of the graceful shutdown
 * (all acknowledged), MB = 10^6 bytes, GB = 10^9 bytes. Thread CPU times and page faults are read
 * from {@code /proc/self/task/}{@code *}{@code /stat} (clock ticks, usually 10 ms) around the same
 * interval. The journals go to DIR (default a temporary directory) and are deleted after each run.
 */
public final class JournalCost {

    private JournalCost() {}

    /** One journal configuration measured against the run without a journal. */
    private record Mode(String outputs, String who, boolean drop, long memory, boolean inline) {
        static Mode parse(String s) {
            String[] p = s.split(":");
            if (p.length < 2
                    || !List.of("digests", "full", "headers").contains(p[0])
                    || !List.of("both", "client", "server").contains(p[1])) {
                throw new IllegalArgumentException("a mode is OUTPUTS:WHO[:drop][:MIB] with OUTPUTS digests, full or"
                        + " headers and WHO both, client or server, not " + s);
            }
            boolean drop = false;
            boolean inline = false;
            long memory = 16L << 20;
            for (int i = 2; i < p.length; i++) {
                if (p[i].equals("drop")) {
                    drop = true;
                } else if (p[i].equals("inline")) {
                    inline = true;
                } else {
                    memory = Long.parseLong(p[i]) << 20;
                }
            }
            return new Mode(p[0], p[1], drop, memory, inline);
        }

        java.util.function.UnaryOperator<JournalRecorder.Builder> settings() {
            return x -> x.headersOnly(outputs.equals("headers"))
                    .digestOutputs(!outputs.equals("full"))
                    .memoryBytes(memory)
                    .writerThread(!inline)
                    .whenBehind(drop ? JournalRecorder.WhenBehind.DROP : JournalRecorder.WhenBehind.WAIT);
        }

        @Override
        public String toString() {
            return outputs + ":" + who + (drop ? ":drop" : "") + (inline ? ":inline" : "")
                    + (memory != 16L << 20 ? ":" + (memory >> 20) : "");
        }
    }

    /** What one run measured. */
    private record Result(
            double mbps,
            double cpuPerGb,
            Map<String, Double> groupCpuPerGb,
            double faultsPerGb,
            double journalPerByte,
            double entriesPerMessage,
            long dropped,
            String kinds) {
        static final Result LOST =
                new Result(Double.NaN, Double.NaN, Map.of(), Double.NaN, Double.NaN, Double.NaN, 0, "");
    }

    /** Runs the comparison; see the class comment for the options. */
    public static void main(String[] args) throws Exception {
        int size = 1000;
        double seconds = 3;
        int rounds = 3;
        int warmup = 1;
        String record = "both";
        String outputs = "digests";
        long memory = 16L << 20;
        boolean drop = false;
        boolean random = false;
        boolean kinds = false;
        List<Mode> modes = new ArrayList<>();
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--size" -> size = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--record" -> record = args[++i];
                case "--headers-only" -> outputs = "headers";
                case "--digests" -> outputs = "digests";
                case "--full-outputs" -> outputs = "full";
                case "--memory" -> memory = Long.parseLong(args[++i]) << 20;
                case "--drop" -> drop = true;
                case "--random" -> random = true;
                case "--kinds" -> kinds = true;
                case "--modes" -> {
                    for (String m : args[++i].split(",")) {
                        modes.add(Mode.parse(m));
                    }
                }
                case "--dir" -> dir = Path.of(args[++i]);
                default -> {
                    System.err.println("unknown option " + args[i] + ": --size N --seconds S --rounds N --warmup N"
                            + " --random --kinds --modes OUTPUTS:WHO[:drop][:MIB],... --dir DIR (or one mode:"
                            + " --record both|client|server --headers-only --full-outputs --memory MIB --drop)");
                    System.exit(2);
                }
            }
        }
        if (modes.isEmpty()) {
            modes.add(Mode.parse(outputs + ":" + record + (drop ? ":drop" : "") + ":" + (memory >> 20)));
        }
        Path base = dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("sctpj-journal-cost");
        ByteBuffer pool = ByteBuffer.allocateDirect(16 << 20);
        if (random) {
            byte[] r = new byte[pool.capacity()];
            new java.util.SplittableRandom(17).nextBytes(r);
            pool.put(r).clear();
        }
        System.out.printf(
                Locale.ROOT,
                "callback loopback bulk, %d-byte messages of %s, %.1f s per run, %d rounds of A (no journal) then %s%n"
                        + "load average at start: %s%n",
                size,
                random ? "random bytes" : "zeros",
                seconds,
                rounds,
                modes,
                loadAverage());
        for (int w = 0; w < warmup; w++) {
            run(size, seconds, null, pool, base.resolve("w" + w), false);
            for (Mode m : modes) {
                Path jw = base.resolve("wb" + w);
                run(size, seconds, m, pool, jw, false);
                delete(jw);
            }
            System.out.printf(Locale.ROOT, "warm-up round %d not counted%n", w + 1);
        }
        List<Result> a = new ArrayList<>();
        Map<Mode, List<Result>> b = new LinkedHashMap<>();
        for (int r = 0; r < rounds; r++) {
            Result ra = run(size, seconds, null, pool, base.resolve("a" + r), false);
            a.add(ra);
            print("round " + (r + 1) + " A", ra);
            for (Mode m : modes) {
                Path jb = base.resolve("b" + r);
                Result rb = run(size, seconds, m, pool, jb, kinds);
                b.computeIfAbsent(m, k -> new ArrayList<>()).add(rb);
                print("round " + (r + 1) + " B " + m, rb);
                delete(jb);
            }
        }
        double medA = median(a, Result::mbps);
        double cpuA = median(a, Result::cpuPerGb);
        System.out.printf(
                Locale.ROOT,
                "A (no journal): median %.1f MB/s, %.2f CPU s per GB (%s), %.0f page faults per GB%n",
                medA,
                cpuA,
                groups(a, null),
                median(a, Result::faultsPerGb));
        for (Map.Entry<Mode, List<Result>> e : b.entrySet()) {
            List<Result> rs = e.getValue();
            double medB = median(rs, Result::mbps);
            double ratio = medB / medA;
            // each B over the A of its round: what a slow drift of the machine's load leaves alone
            List<Result> paired = new ArrayList<>();
            for (int i = 0; i < rs.size(); i++) {
                double r = rs.get(i).mbps() / a.get(i).mbps();
                paired.add(new Result(r, Double.NaN, Map.of(), Double.NaN, Double.NaN, Double.NaN, 0, ""));
            }
            double pairedRatio = median(paired, Result::mbps);
            System.out.printf(
                    Locale.ROOT,
                    "B %s: median %.1f MB/s, B/A = %.3f (cost %.1f%%, goal %s; median of the rounds' B/A %.3f);"
                            + " CPU per GB B/A = %.2f, added per"
                            + " GB: %s; %.0f page faults per GB; %.3f journal bytes per byte sent; %.2f entries per"
                            + " message%n",
                    e.getKey(),
                    medB,
                    ratio,
                    100 * (1 - ratio),
                    ratio >= 0.9 ? "held" : "not held",
                    pairedRatio,
                    median(rs, Result::cpuPerGb) / cpuA,
                    groups(rs, a),
                    median(rs, Result::faultsPerGb),
                    median(rs, Result::journalPerByte),
                    median(rs, Result::entriesPerMessage));
        }
        System.out.println("load average at the end: " + loadAverage());
        if (dir == null) {
            delete(base);
        }
    }

    private static final List<String> GROUPS = List.of("stack", "writer", "other");

    /** Median CPU s per GB of each thread group, or with {@code minus} the median added over it. */
    private static String groups(List<Result> rs, List<Result> minus) {
        StringBuilder s = new StringBuilder();
        for (String g : GROUPS) {
            double x = median(rs, r -> r.groupCpuPerGb().getOrDefault(g, 0.0));
            if (minus != null) {
                x -= median(minus, r -> r.groupCpuPerGb().getOrDefault(g, 0.0));
            }
            s.append(s.length() == 0 ? "" : ", ")
                    .append(String.format(Locale.ROOT, minus != null ? "%s %+.2f s" : "%s %.2f s", g, x));
        }
        return s.toString();
    }

    private static void print(String what, Result r) {
        StringBuilder g = new StringBuilder();
        for (String k : GROUPS) {
            Map<String, Double> m = r.groupCpuPerGb();
            g.append(String.format(
                    Locale.ROOT,
                    " %s %.2f sys %.2f pf %.0f",
                    k,
                    m.getOrDefault(k, 0.0),
                    m.getOrDefault(k + " sys", 0.0),
                    m.getOrDefault(k + " faults", 0.0)));
        }
        System.out.printf(
                Locale.ROOT,
                "%-26s %8.1f MB/s  CPU s/GB %5.2f (%s)  faults/GB %8.0f  journal B/B %.3f  entries/msg %.2f%s%n",
                what,
                r.mbps(),
                r.cpuPerGb(),
                g.toString().strip(),
                r.faultsPerGb(),
                r.journalPerByte(),
                r.entriesPerMessage(),
                r.dropped() > 0 ? "  dropped " + r.dropped() : "");
        System.out.print(r.kinds());
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** One run: without a journal when {@code mode} is null. */
    private static Result run(int size, double seconds, Mode mode, ByteBuffer pool, Path journals, boolean kinds)
            throws Exception {
        List<JournalRecorder> recorders = new java.util.concurrent.CopyOnWriteArrayList<>();
        String record = mode == null ? "none" : mode.who();
        InetAddress lo = InetAddress.getLoopbackAddress();
        AtomicLong sent = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicBoolean lost = new AtomicBoolean();
        CountDownLatch up = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        SendInfo info = SendInfo.of(0, 51);
        int slices = (pool.capacity() - size) / size;
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
                server.recordTo(kept(JournalRecorder.factory(journals, mode.settings()), recorders));
            }
            server.bind(5001, List.of(lo));
            server.listen();
            Callbacks cb = new Callbacks() {
                private long n;

                @Override
                public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {}

                void pump(CallbackSocket s, AssociationId id) {
                    while (!stop.get()) {
                        int off = (int) (n % slices) * size;
                        ByteBuffer m = pool.duplicate().limit(off + size).position(off);
                        if (s.send(id, info, m) != SendStatus.ACCEPTED) {
                            break;
                        }
                        n++;
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
                    client.recordTo(kept(JournalRecorder.factory(journals, mode.settings()), recorders));
                }
                client.setSendThreshold(size);
                client.bind(5002, List.of(lo));
                client.setUdpRemotePort(lo, server.udpLocalPort());
                Map<Integer, long[]> threads0 = threads();
                long faults0 = processFaults();
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
                    return Result.LOST;
                }
                try {
                    client.shutdown(id);
                } catch (IllegalArgumentException gone) {
                    lost.set(true);
                    return Result.LOST;
                }
                if (!done.await(60, TimeUnit.SECONDS)) {
                    throw new IOException("the shutdown did not complete");
                }
                long t1 = System.nanoTime();
                long cpu1 = cpu();
                long faults1 = processFaults();
                Map<Integer, long[]> threads1 = threads();
                long journalBytes = 0;
                long entries = 0;
                for (JournalRecorder j : recorders) {
                    j.flush();
                    journalBytes += j.bytes();
                    entries += j.entries();
                }
                client.close(true, Duration.ofSeconds(5));
                server.close(true, Duration.ofSeconds(5));
                long dropped = recorders.stream()
                        .mapToLong(JournalRecorder::droppedEntries)
                        .sum();
                double gb = sent.get() / 1e9;
                Map<String, Double> groups = new HashMap<>();
                double tick = 1.0 / 100; // USER_HZ
                for (Map.Entry<Integer, long[]> e : threads1.entrySet()) {
                    long[] before = threads0.getOrDefault(e.getKey(), new long[4]);
                    long[] after = e.getValue();
                    String g = after[3] == 1 ? "stack" : after[3] == 2 ? "writer" : "other";
                    groups.merge(g, (after[0] + after[1] - before[0] - before[1]) * tick / gb, Double::sum);
                    groups.merge(g + " sys", (after[1] - before[1]) * tick / gb, Double::sum);
                    groups.merge(g + " faults", (after[2] - before[2]) / gb, Double::sum);
                }
                return new Result(
                        sent.get() / ((t1 - t0) / 1e9) / 1e6,
                        (cpu1 - cpu0) / 1e9 / gb,
                        groups,
                        (faults1 - faults0) / gb,
                        journalBytes / (double) sent.get(),
                        entries / (double) (sent.get() / size),
                        dropped,
                        kinds ? kinds(journals, sent.get() / size) : "");
            }
        }
    }

    /** Each journal under {@code dir}: its entries and stored bytes (framing included) by kind, per message. */
    private static String kinds(Path dir, long messages) throws IOException {
        StringBuilder all = new StringBuilder();
        List<Path> js;
        try (Stream<Path> s = Files.list(dir)) {
            js = s.sorted().toList();
        }
        for (Path j : js) {
            long[] count = new long[Kind.values().length];
            long[] bytes = new long[Kind.values().length];
            try (JournalReader r = JournalReader.open(j)) {
                while (r.hasNext()) {
                    JournalEntry e = r.next();
                    count[e.kind().ordinal()]++;
                    bytes[e.kind().ordinal()] += r.storedBytes();
                }
            }
            StringBuilder b = new StringBuilder("  " + j.getFileName() + " per message:");
            for (Kind k : Kind.values()) {
                if (count[k.ordinal()] > 0) {
                    b.append(String.format(
                            Locale.ROOT,
                            " %s %.3f (%.1f B)",
                            k,
                            count[k.ordinal()] / (double) messages,
                            bytes[k.ordinal()] / (double) messages));
                }
            }
            all.append(b).append(System.lineSeparator());
        }
        return all.toString();
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

    /** The process's minor page faults so far ({@code /proc/self/stat} field 10), or 0 where there is none. */
    private static long processFaults() {
        try {
            return Long.parseLong(statFields(Files.readString(Path.of("/proc/self/stat")))[7]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * Each thread of the process by id: {user clock ticks, system clock ticks, minor faults, group (1
     * the stack threads, 2 the journal writers, 0 the rest)}; empty where there is no {@code /proc}.
     */
    private static Map<Integer, long[]> threads() {
        Map<Integer, long[]> m = new HashMap<>();
        try (Stream<Path> s = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : (Iterable<Path>) s::iterator) {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String[] f = statFields(stat);
                    long group = name.startsWith("jcost") ? 1 : name.startsWith("sctpj-journal") ? 2 : 0;
                    m.put(
                            Integer.parseInt(t.getFileName().toString()),
                            new long[] {Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[7]), group});
                } catch (IOException | RuntimeException gone) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /proc: no breakdown
        }
        return m;
    }

    /** The fields of a {@code stat} line after the command name: [0] is the state (field 3). */
    static String[] statFields(String stat) {
        return stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    }

    /** The median of {@code f} over the runs that completed (a lost association gives NaN: left out). */
    private static double median(List<Result> rs, java.util.function.ToDoubleFunction<Result> f) {
        List<Double> s = new ArrayList<>();
        for (Result r : rs) {
            double x = f.applyAsDouble(r);
            if (!Double.isNaN(x)) {
                s.add(x);
            }
        }
        if (s.isEmpty()) {
            return Double.NaN;
        }
        s.sort(Comparator.naturalOrder());
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    static void delete(Path dir) throws IOException {
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
