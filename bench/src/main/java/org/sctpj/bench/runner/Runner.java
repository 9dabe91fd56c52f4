package org.sctpj.bench.runner;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The side-by-side benchmark: runs every contender ({@link Contender}) as a server and a client
 * process over loopback, for every message size, N times, alternating the contenders run by run
 * (round r starts with the r-th contender, so no contender always runs first or last), then
 * writes the medians, each contender's ratio to usrsctp, the machine details, and a plot.
 *
 * <pre>java -cp bench/target/benchmarks.jar org.sctpj.bench.runner.Runner [--quick] [--runs N]
 *     [--duration SEC] [--warmup SEC] [--sizes 100,200,...] [--contenders NAME,...] [--no-latency]
 *     [--no-throughput] [--out DIR] [--netns MTU] [--upeer PATH] [--tsctp PATH] [--tcpperf PATH]
 *     [--jar PATH]</pre>
 *
 * {@code --netns MTU} runs the sweep between two network namespaces joined by a veth pair of that
 * MTU instead of over loopback ({@link Netns}: created before, deleted after; root), servers in
 * one, clients in the other, with only the contenders that take addresses ({@link
 * Contender#runsInNamespaces()}).
 *
 * {@code --warmup} is how long the receiver of a JVM contender (sctpj, kernel) waits after the
 * first message before it measures (default 1.5 s of a 3 s run; {@code --quick}: 0.5 s of 1 s):
 * the C2 compiler works for the first seconds of a process and takes one of the two cores, which
 * the runs showed (about 2.6 s of compiler CPU in the 2 s after a 1.5 s start on the receiver).
 *
 * {@code --contenders} keeps only the named contenders (names as in {@link Contender}, e.g.
 * {@code sctpj-callback,sctpj-socket}); ratios to usrsctp and the targets that need a contender
 * left out are not reported.
 *
 * <p>Ratios to usrsctp are reported only when our usrsctp contender ({@code usrsctp}, upeer) reached
 * at least {@value #FAIR_FLOOR} of usrsctp's own benchmark program ({@code usrsctp-tsctp}) at every
 * size in the same run (the median over rounds of the two runs' ratio in one round): a ratio
 * against a usrsctp that runs below its best would flatter us. When the check fails, or tsctp was
 * left out, the tables give MB/s only, the report says why, and the runner exits with status 3.
 *
 * Normally started by {@code bench/run.sh}, which builds the jar and usrsctp first.
 */
public final class Runner {

    static final List<Integer> ALL_SIZES =
            List.of(100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300, 1400, 4096, 65536);
    static final List<Integer> QUICK_SIZES = List.of(100, 500, 1000, 1400, 4096, 65536);

    private int runs = 3;
    private double duration = 3.0;
    private double warmup = 1.5;
    private List<Integer> sizes = ALL_SIZES;
    private boolean latency = true;
    private boolean throughput = true;
    private List<Contender> throughputContenders = Contender.THROUGHPUT.stream()
            .filter(c -> !Contender.OPT_IN.contains(c.name()))
            .toList();
    private List<Contender> latencyContenders = Contender.LATENCY.stream()
            .filter(c -> !Contender.OPT_IN.contains(c.name()))
            .toList();
    private int pingMessages = 5000;
    private int pingWarmup = 2000;
    private Path out = Path.of("bench/results");
    private String upeer = "interop/.cache/upeer-release";
    private String tsctp = "interop/.cache/tsctp-release";
    /** The least share of tsctp's throughput our usrsctp contender must reach before ratios are shown. */
    static final double FAIR_FLOOR = 0.9;

    private String jar = "bench/target/benchmarks.jar";
    private String tcpperf = "bench/target/tcpperf";
    /** {@code --netns MTU}: the link's MTU in the namespace mode, 0 on loopback. */
    private int netnsMtu;

    private boolean outGiven;

    /** The namespace mode's two namespaces (server, client), their veth ends and addresses. */
    static final String NS_SERVER = "sctpj-bench-srv";

    static final String NS_CLIENT = "sctpj-bench-cli";
    static final String ADDR_SERVER = "10.201.0.1";
    static final String ADDR_CLIENT = "10.201.0.2";

    private final String java = ProcessHandle.current().info().command().orElse("java");
    private PrintWriter raw;

    /** Per contender, per size: the figures of each run (NaN for a failed run). */
    private final Map<String, Map<Integer, List<Double>>> tput = new LinkedHashMap<>();
    /**
     * Per contender, per size, per run: the load average (1 min) when the run started and the CPU
     * seconds per GB of the receiver and the sender ({@link CpuMeter}; empty where the process does
     * not report it), for the CSV.
     */
    private final Map<String, Map<Integer, List<String>>> runNotes = new LinkedHashMap<>();
    /** What {@link #throughputRun} noted for its run. */
    private String lastRunNote = ",,";

    /** Per latency contender: the [median, p99] of each run. */
    private final Map<String, List<double[]>> rtt = new LinkedHashMap<>();

    private final List<String> failures = new ArrayList<>();

    private Runner() {}

    /** Parses the options and runs the benchmark. */
    public static void main(String[] args) throws Exception {
        Runner r = new Runner();
        boolean quick = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--runs" -> r.runs = Integer.parseInt(args[++i]);
                case "--duration" -> r.duration = Double.parseDouble(args[++i]);
                case "--warmup" -> r.warmup = Double.parseDouble(args[++i]);
                case "--sizes" -> r.sizes = Arrays.stream(args[++i].split(","))
                        .map(String::trim)
                        .map(Integer::valueOf)
                        .toList();
                case "--contenders" -> r.select(
                        Arrays.stream(args[++i].split(",")).map(String::trim).toList());
                case "--no-latency" -> r.latency = false;
                case "--no-throughput" -> r.throughput = false;
                case "--out" -> {
                    r.out = Path.of(args[++i]);
                    r.outGiven = true;
                }
                case "--netns" -> r.netnsMtu = Integer.parseInt(args[++i]);
                case "--tcpperf" -> r.tcpperf = args[++i];
                case "--upeer" -> r.upeer = args[++i];
                case "--tsctp" -> r.tsctp = args[++i];
                case "--jar" -> r.jar = args[++i];
                case "--help", "-h" -> {
                    System.out.println(USAGE);
                    System.exit(0);
                }
                default -> {
                    System.err.println("unknown option " + args[i] + "\n" + USAGE);
                    System.exit(64);
                }
            }
        }
        if (quick) {
            boolean runsGiven = Arrays.asList(args).contains("--runs");
            if (!runsGiven) {
                r.runs = 1;
            }
            if (!Arrays.asList(args).contains("--duration")) {
                r.duration = 1.0;
            }
            if (!Arrays.asList(args).contains("--warmup")) {
                r.warmup = 0.5;
            }
            if (!Arrays.asList(args).contains("--sizes")) {
                r.sizes = QUICK_SIZES;
            }
            r.pingMessages = 3000;
            r.pingWarmup = 1000;
        }
        if (r.netnsMtu != 0) {
            if (r.netnsMtu < 1280 || r.netnsMtu > 65535) {
                System.err.println("--netns takes the veth MTU, 1280..65535, not " + r.netnsMtu);
                System.exit(64);
            }
            List<String> left = r.throughputContenders.stream()
                    .filter(c -> !c.runsInNamespaces())
                    .map(Contender::name)
                    .toList();
            if (!left.isEmpty()) {
                System.err.println("namespace mode: leaving out " + left
                        + " (they have no address options: the Java kernel contenders and the socket API)");
            }
            r.throughputContenders = r.throughputContenders.stream()
                    .filter(Contender::runsInNamespaces)
                    .toList();
            r.latencyContenders = r.latencyContenders.stream()
                    .filter(Contender::runsInNamespaces)
                    .toList();
            if (!r.outGiven) {
                r.out = Path.of("bench/results/netns-" + r.netnsMtu);
            }
        }
        if (r.netnsMtu == 0) {
            r.run();
            return;
        }
        try (Netns n = Netns.create(r.netnsMtu)) {
            r.run();
        }
    }

    /**
     * The namespace mode's test bed: two network namespaces joined by a veth pair of the given MTU
     * (offloads at the veth defaults), created before the sweep and deleted after it (and at the
     * start, should an earlier run have left them). Needs root; run it under {@code flock
     * /tmp/sctpj-netlock} ({@code bench/run.sh} does) so that no other namespace test runs meanwhile.
     */
    static final class Netns implements AutoCloseable {
        private Netns() {}

        static Netns create(int mtu) throws IOException, InterruptedException {
            Netns n = new Netns();
            n.delete();
            Runtime.getRuntime().addShutdownHook(new Thread(n::close));
            ip("netns", "add", NS_SERVER);
            ip("netns", "add", NS_CLIENT);
            ip(
                    "link", "add", "bench0", "netns", NS_SERVER, "type", "veth", "peer", "name", "bench1", "netns",
                    NS_CLIENT);
            String[][] ends = {{NS_SERVER, "bench0", ADDR_SERVER}, {NS_CLIENT, "bench1", ADDR_CLIENT}};
            for (String[] e : ends) {
                ip("-n", e[0], "addr", "add", e[2] + "/24", "dev", e[1]);
                ip("-n", e[0], "link", "set", e[1], "mtu", "" + mtu, "up");
                ip("-n", e[0], "link", "set", "lo", "up");
            }
            return n;
        }

        private static void ip(String... a) throws IOException, InterruptedException {
            List<String> cmd = new ArrayList<>(List.of("ip"));
            cmd.addAll(List.of(a));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String outText = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new IOException(String.join(" ", cmd) + " failed (root needed): " + outText.trim());
            }
        }

        private void delete() {
            for (String ns : List.of(NS_SERVER, NS_CLIENT)) {
                try {
                    new ProcessBuilder("ip", "netns", "del", ns)
                            .redirectErrorStream(true)
                            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                            .start()
                            .waitFor();
                } catch (IOException e) {
                    // no ip(8): create() says so
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public synchronized void close() {
            delete();
        }
    }

    /** The server's address: 127.0.0.1, or the server namespace's in the namespace mode. */
    private String serverAddr() {
        return netnsMtu == 0 ? "127.0.0.1" : ADDR_SERVER;
    }

    /** A server's command line, run inside the server namespace in the namespace mode. */
    private List<String> atServer(List<String> cmd) {
        return inNamespace(NS_SERVER, cmd);
    }

    /** A client's command line, run inside the client namespace in the namespace mode. */
    private List<String> atClient(List<String> cmd) {
        return inNamespace(NS_CLIENT, cmd);
    }

    private List<String> inNamespace(String ns, List<String> cmd) {
        if (netnsMtu == 0) {
            return cmd;
        }
        List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", ns));
        c.addAll(cmd);
        return c;
    }

    /** What a sctpj process of role server (or client) needs to know of addresses, MTU and raw IP. */
    private List<String> sctpjPlace(Contender c, boolean server) {
        List<String> a = new ArrayList<>();
        if (netnsMtu != 0) {
            a.add("local=" + (server ? ADDR_SERVER : ADDR_CLIENT));
            a.add("peer=" + ADDR_SERVER);
            a.add("mtu=" + netnsMtu);
            if (c.extra().contains("llp=raw")) {
                // each namespace stands for a host without kernel SCTP, which answers inbound SCTP
                // with ICMP Protocol Unreachable now and then (seen here at 1000-byte messages: the
                // client took it as an ABORT, RFC 9260 appendix C, every run); a deployment there
                // installs the layer's guard against it, as the README says
                a.add("raw-no-icmp=1");
            }
        } else if (!server && c.extra().contains("llp=raw")) {
            a.add("local=127.0.0.2"); // the server's raw socket takes only packets to 127.0.0.1
        }
        return a;
    }

    /** The command line of a usrsctp client (our upeer) on UDP port {@code cu} to the server on {@code su}. */
    private List<String> upeerClient(Contender c, int cu, int su, String... rest) {
        List<String> cmd = new ArrayList<>(List.of(
                upeer,
                "--mode",
                c.clientMode(),
                "--udp",
                "" + cu,
                "--port",
                "5002",
                "--local-addr",
                "any", // the wildcard, as tsctp binds (a specific address costs usrsctp ~25% more CPU per byte)
                "--peer",
                serverAddr(),
                "--peer-port",
                "5001",
                "--remote-udp",
                "" + su));
        cmd.addAll(List.of(rest));
        return atClient(cmd);
    }

    static final String USAGE = "options: [--quick] [--runs N] [--duration SEC] [--warmup SEC] [--sizes 100,1000,...]"
            + " [--contenders NAME,...] [--no-latency] [--no-throughput] [--out DIR] [--netns MTU] [--upeer PATH]"
            + " [--tsctp PATH] [--tcpperf PATH] [--jar PATH]\n"
            + "contenders: "
            + String.join(
                    ",", Contender.THROUGHPUT.stream().map(Contender::name).toList())
            + " (latency: the same but sctpj-callback-100k; sctpj-socket-spin only when named); see"
            + " bench/README.md";

    /** Keeps only the named contenders; exits on an unknown name. */
    private void select(List<String> names) {
        for (String n : names) {
            if (Contender.THROUGHPUT.stream().noneMatch(c -> c.name().equals(n))) {
                System.err.println("unknown contender " + n + "\n" + USAGE);
                System.exit(64);
            }
        }
        throughputContenders = Contender.THROUGHPUT.stream()
                .filter(c -> names.contains(c.name()))
                .toList();
        latencyContenders =
                Contender.LATENCY.stream().filter(c -> names.contains(c.name())).toList();
    }

    private void run() throws Exception {
        Files.createDirectories(out);
        Machine before = Machine.now();
        long t0 = System.nanoTime();
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out.resolve("latest-raw.log")))) {
            raw = w;
            log(
                    "sctpj side-by-side benchmark: runs=%d duration=%.1fs sizes=%s contenders=%s, %s",
                    runs,
                    duration,
                    sizes,
                    throughputContenders.stream().map(Contender::name).toList(),
                    before);
            if (throughput) {
                List<Contender> cs = throughputContenders;
                for (Contender c : cs) {
                    tput.put(c.name(), new LinkedHashMap<>());
                }
                int total = runs * sizes.size() * cs.size();
                int done = 0;
                for (int r = 0; r < runs; r++) {
                    for (int size : sizes) {
                        for (int k = 0; k < cs.size(); k++) {
                            Contender c = cs.get((k + r) % cs.size());
                            String load = loadNow();
                            lastRunNote = ",";
                            double v = throughputRun(c, size);
                            tput.get(c.name())
                                    .computeIfAbsent(size, s -> new ArrayList<>())
                                    .add(v);
                            runNotes.computeIfAbsent(c.name(), n -> new LinkedHashMap<>())
                                    .computeIfAbsent(size, s -> new ArrayList<>())
                                    .add(load + "," + lastRunNote);
                            done++;
                            progress(
                                    done,
                                    total,
                                    t0,
                                    "round %d size %d %s: %.1f MB/s (load %s; CPU s/GB rx,tx %s)",
                                    r + 1,
                                    size,
                                    c.name(),
                                    v,
                                    load,
                                    lastRunNote);
                        }
                    }
                }
            }
            if (latency) {
                List<Contender> cs = latencyContenders;
                for (Contender c : cs) {
                    rtt.put(c.name(), new ArrayList<>());
                }
                for (int r = 0; r < runs; r++) {
                    for (int k = 0; k < cs.size(); k++) {
                        Contender c = cs.get((k + r) % cs.size());
                        double[] v = latencyRun(c);
                        rtt.get(c.name()).add(v);
                        log("latency round %d %s: median %.1f us, p99 %.1f us", r + 1, c.name(), v[0], v[1]);
                    }
                }
            }
            Machine after = Machine.now();
            double minutes = (System.nanoTime() - t0) / 60e9;
            log("finished in %.1f min; load average at the end: %s", minutes, after.load);
            writeCsv(before, after);
            writeMarkdown(before, after, minutes);
            if (throughput) {
                Plot.write(out.resolve("latest.png"), sizes, medians(), runs, before);
            }
        }
        System.err.println("wrote " + out.resolve("latest.md") + ", latest.csv, latest.png, latest-raw.log");
        if (throughput && usrsctpOverTsctp() != null && !usrsctpIsFair()) {
            System.err.println("no ratio to usrsctp reported: our usrsctp contender is below " + FAIR_FLOOR
                    + " of tsctp at some size (see latest.md)");
            System.exit(3);
        }
    }

    private void progress(int done, int total, long t0, String fmt, Object... a) {
        double el = (System.nanoTime() - t0) / 1e9;
        double left = el / done * (total - done);
        log("[%d/%d, %.0fs left] " + fmt, prepend(a, done, total, left));
    }

    private static Object[] prepend(Object[] a, Object... first) {
        Object[] r = new Object[a.length + first.length];
        System.arraycopy(first, 0, r, 0, first.length);
        System.arraycopy(a, 0, r, first.length, a.length);
        return r;
    }

    private void log(String fmt, Object... a) {
        String s = String.format(Locale.ROOT, fmt, a);
        System.err.println(s);
        raw.println("# " + s);
        raw.flush();
    }

    // ------------------------------------------------------------------ processes

    private static int freeUdpPort() throws IOException {
        try (DatagramChannel d = DatagramChannel.open()) {
            d.bind(new InetSocketAddress("127.0.0.1", 0));
            return ((InetSocketAddress) d.getLocalAddress()).getPort();
        }
    }

    /** A started process whose stdout lines are collected. */
    private final class Proc {
        final Process p;
        final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        final String name;

        Proc(String name, List<String> cmd) throws IOException {
            this.name = name;
            raw.println("$ " + String.join(" ", cmd));
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            Thread t = new Thread(() -> {
                try (BufferedReader r =
                        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    String l;
                    while ((l = r.readLine()) != null) {
                        lines.add(l);
                    }
                } catch (IOException e) {
                    lines.add("reader: " + e);
                }
            });
            t.setDaemon(true);
            t.start();
        }

        String waitFor(String prefix, double seconds) throws InterruptedException {
            long end = System.nanoTime() + (long) (seconds * 1e9);
            while (System.nanoTime() < end) {
                synchronized (lines) {
                    for (String l : lines) {
                        if (l.startsWith(prefix)) {
                            return l;
                        }
                    }
                }
                if (!p.isAlive() && !hasLine(prefix)) {
                    Thread.sleep(50); // let the reader catch up
                    return hasLine(prefix) ? waitFor(prefix, 0.1) : null;
                }
                Thread.sleep(10);
            }
            return null;
        }

        private boolean hasLine(String prefix) {
            synchronized (lines) {
                return lines.stream().anyMatch(l -> l.startsWith(prefix));
            }
        }

        /** Waits for exit (then kills), logs the output, returns the result line's values. */
        Map<String, String> finish(double seconds) throws InterruptedException {
            if (!p.waitFor((long) (seconds * 1000), TimeUnit.MILLISECONDS)) {
                p.destroy();
                if (!p.waitFor(2, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    p.waitFor(2, TimeUnit.SECONDS);
                }
                lines.add("(killed by the runner after " + seconds + " s)");
            }
            Thread.sleep(20);
            Map<String, String> kv = new HashMap<>();
            synchronized (lines) {
                for (String l : lines) {
                    raw.println(name + "| " + l);
                    if (l.startsWith("PEER-RESULT") || l.startsWith("UPEER-RESULT")) {
                        for (String f : l.split(" ")) {
                            int eq = f.indexOf('=');
                            if (eq > 0) {
                                kv.put(f.substring(0, eq), f.substring(eq + 1));
                            }
                        }
                    }
                }
            }
            raw.flush();
            return kv;
        }
    }

    /** A JVM contender's command line: arguments starting with -D are JVM options, the rest go to the peer. */
    private List<String> javaCmd(String mode, List<String> args) {
        List<String> c = new ArrayList<>(List.of(java, "-Xmx1g"));
        args.stream().filter(a -> a.startsWith("-D")).forEach(c::add);
        c.addAll(List.of("-cp", jar, Peer.class.getName(), mode));
        args.stream().filter(a -> !a.startsWith("-D")).forEach(c::add);
        return c;
    }

    private double throughputRun(Contender c, int size) throws Exception {
        double limit = duration + 20;
        List<String> common = new ArrayList<>(c.extra());
        Proc server;
        Proc client;
        String sz = String.valueOf(size);
        switch (c.kind()) {
            case "usrsctp" -> {
                int su = freeUdpPort();
                int cu = freeUdpPort();
                server = new Proc(
                        c.name() + "/server",
                        atServer(List.of(
                                upeer,
                                "--mode",
                                c.serverMode(),
                                "--udp",
                                "" + su,
                                "--local-addr",
                                "any",
                                "--port",
                                "5001",
                                "--assocs",
                                "1",
                                "--timeout",
                                "" + (int) limit)));
                if (server.waitFor("UPEER-READY", 10) == null) {
                    return fail(c, size, server, null);
                }
                client = new Proc(
                        c.name() + "/client",
                        upeerClient(
                                c, cu, su, "--size", sz, "--duration", "" + duration, "--timeout", "" + (int) limit));
            }
            case "tsctp" -> {
                return tsctpRun(c, size, limit);
            }
            case "sctpj" -> {
                List<String> sa = new ArrayList<>(common);
                sa.addAll(sctpjPlace(c, true));
                sa.addAll(List.of("warmup=" + warmup, "timeout=" + limit));
                server = new Proc(c.name() + "/server", atServer(javaCmd(c.serverMode(), sa)));
                String ready = server.waitFor("PEER-READY", 15);
                if (ready == null) {
                    return fail(c, size, server, null);
                }
                List<String> ca = new ArrayList<>(common);
                ca.addAll(sctpjPlace(c, false));
                ca.addAll(List.of(
                        "remote-udp=" + value(ready, "udp"), "size=" + sz, "duration=" + duration, "timeout=" + limit));
                client = new Proc(c.name() + "/client", atClient(javaCmd(c.clientMode(), ca)));
            }
            case "ckernel" -> {
                server = new Proc(
                        c.name() + "/server",
                        atServer(List.of(
                                tcpperf, c.serverMode(), "bind=" + serverAddr(), "size=" + sz, "warmup=" + warmup)));
                String ready = server.waitFor("PEER-READY", 15);
                if (ready == null) {
                    return fail(c, size, server, null);
                }
                client = new Proc(
                        c.name() + "/client",
                        atClient(List.of(
                                tcpperf,
                                c.clientMode(),
                                "host=" + serverAddr(),
                                "port=" + value(ready, "port"),
                                "size=" + sz,
                                "duration=" + duration)));
            }
            default -> {
                server = new Proc(
                        c.name() + "/server", javaCmd(c.serverMode(), List.of("size=" + sz, "warmup=" + warmup)));
                String ready = server.waitFor("PEER-READY", 15);
                if (ready == null) {
                    return fail(c, size, server, null);
                }
                client = new Proc(
                        c.name() + "/client",
                        javaCmd(
                                c.clientMode(),
                                List.of("port=" + value(ready, "port"), "size=" + sz, "duration=" + duration)));
            }
        }
        Map<String, String> cr = client.finish(limit);
        Map<String, String> sr = server.finish(15);
        lastRunNote = sr.getOrDefault("cpu_s_per_gb", "") + "," + cr.getOrDefault("cpu_s_per_gb", "");
        String key = c.kind().equals("usrsctp") ? "rx_mb_per_s" : "mb_per_s";
        String v = sr.get(key);
        // A client that failed (e.g. no association within its time) or a server that received
        // nothing is a failed run, left out of the median, not a figure of 0.
        if (v == null
                || !"ok".equals(sr.get("status"))
                || !"ok".equals(cr.get("status"))
                || Double.parseDouble(v) <= 0) {
            return fail(c, size, server, client);
        }
        return Double.parseDouble(v);
    }

    /**
     * One run of usrsctp's tsctp: a server that prints "length, messages, bytes, seconds, bytes/s"
     * when the association ends (and never exits: the runner stops it), and a client that sends for
     * the run's whole seconds (-T takes whole seconds) from its send callback.
     */
    private double tsctpRun(Contender c, int size, double limit) throws Exception {
        int su = freeUdpPort();
        int cu = freeUdpPort();
        // stdbuf: tsctp prints its result line without flushing, and the runner stops the server.
        Proc server = new Proc(
                c.name() + "/server",
                atServer(List.of("stdbuf", "-oL", tsctp, "-c", "-v", "-E", "" + su, "-p", "5001")));
        if (server.waitFor("Receive buffer size", 10) == null) {
            return fail(c, size, server, null);
        }
        Thread.sleep(100); // it listens right after that line
        long seconds = Math.max(1, Math.round(duration));
        Proc client = new Proc(
                c.name() + "/client",
                atClient(List.of(
                        tsctp,
                        "-c",
                        "-E",
                        "" + cu,
                        "-U",
                        "" + su,
                        "-l",
                        "" + size,
                        "-n",
                        "0",
                        "-T",
                        "" + seconds,
                        "-p",
                        "5001",
                        serverAddr())));
        client.finish(limit);
        String line = server.waitFor(size + ", ", 15);
        server.finish(0.5);
        if (line == null) {
            return fail(c, size, server, null);
        }
        String[] f = line.split(",\\s*");
        return Double.parseDouble(f[4]) / 1e6;
    }

    /**
     * Per size, the ratio of our usrsctp contender's median to tsctp's (shown beside the paired
     * ratio, which decides); null when either was left out of the run.
     */
    private Map<Integer, Double> usrsctpMedianOverTsctp(Map<String, Map<Integer, Double>> med) {
        Map<Integer, Double> u = med.get(Contender.USRSCTP.name());
        Map<Integer, Double> t = med.get(Contender.TSCTP.name());
        if (u == null || t == null) {
            return null;
        }
        Map<Integer, Double> r = new LinkedHashMap<>();
        for (int s : sizes) {
            r.put(s, u.get(s) / t.get(s));
        }
        return r;
    }

    /**
     * Per size, the median over rounds of our usrsctp contender's figure over tsctp's in the same
     * round (both runs of a round share the machine's load of that moment; rounds where either run
     * failed are left out); null when either was left out of the run. Ratios to usrsctp are fair
     * only when every value is at least {@link #FAIR_FLOOR}.
     *
     * <p>Paired, not a ratio of medians: on two shared cores a run's figure jumps between about
     * half and all of what the machine gives when other work takes a core for a while, for both
     * contenders alike, and with a few runs the two medians can land on different sides of such a
     * jump (seen on the 2-core machine: single rounds at 0.63-0.68 among rounds mostly at
     * 0.85-1.15, and a ratio of medians of 0.78 over 7 rounds whose paired median was 1.00).
     */
    private Map<Integer, Double> usrsctpOverTsctp() {
        Map<Integer, List<Double>> u = tput.get(Contender.USRSCTP.name());
        Map<Integer, List<Double>> t = tput.get(Contender.TSCTP.name());
        if (u == null || t == null) {
            return null;
        }
        Map<Integer, Double> r = new LinkedHashMap<>();
        for (int s : sizes) {
            List<Double> a = u.getOrDefault(s, List.of());
            List<Double> b = t.getOrDefault(s, List.of());
            List<Double> q = new ArrayList<>();
            for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
                q.add(a.get(i) / b.get(i)); // NaN when either failed, which median() skips
            }
            r.put(s, median(q));
        }
        return r;
    }

    /** Whether ratios to usrsctp may be shown: tsctp ran and our contender reached the floor everywhere. */
    private boolean usrsctpIsFair() {
        Map<Integer, Double> r = usrsctpOverTsctp();
        return r != null && r.values().stream().allMatch(v -> v >= FAIR_FLOOR);
    }

    private double[] latencyRun(Contender c) throws Exception {
        double limit = 60;
        Proc server;
        Proc client;
        switch (c.kind()) {
            case "usrsctp" -> {
                int su = freeUdpPort();
                int cu = freeUdpPort();
                List<String> s = new ArrayList<>(List.of(
                        upeer,
                        "--mode",
                        c.serverMode(),
                        "--udp",
                        "" + su,
                        "--local-addr",
                        "any",
                        "--port",
                        "5001",
                        "--assocs",
                        "1",
                        "--timeout",
                        "" + (int) limit));
                s.addAll(c.extra());
                server = new Proc(c.name() + "/echo", atServer(s));
                if (server.waitFor("UPEER-READY", 10) == null) {
                    return latencyFail(c, server, null);
                }
                client = new Proc(
                        c.name() + "/ping",
                        upeerClient(
                                c,
                                cu,
                                su,
                                "--size",
                                "30",
                                "--messages",
                                "" + pingMessages,
                                "--warmup",
                                "" + pingWarmup,
                                "--timeout",
                                "" + (int) limit));
            }
            case "sctpj" -> {
                List<String> sa = new ArrayList<>(c.extra());
                sa.addAll(sctpjPlace(c, true));
                sa.add("timeout=" + limit);
                server = new Proc(c.name() + "/echo", atServer(javaCmd(c.serverMode(), sa)));
                String ready = server.waitFor("PEER-READY", 15);
                if (ready == null) {
                    return latencyFail(c, server, null);
                }
                List<String> ca = new ArrayList<>(c.extra());
                ca.addAll(sctpjPlace(c, false));
                ca.addAll(List.of(
                        "remote-udp=" + value(ready, "udp"),
                        "size=30",
                        "messages=" + pingMessages,
                        "warmup=" + pingWarmup,
                        "warmup-s=" + warmup,
                        "timeout=" + limit));
                client = new Proc(c.name() + "/ping", atClient(javaCmd(c.clientMode(), ca)));
            }
            case "ckernel" -> {
                server = new Proc(
                        c.name() + "/echo",
                        atServer(List.of(tcpperf, c.serverMode(), "bind=" + serverAddr(), "size=30")));
                String ready = server.waitFor("PEER-READY", 15);
                if (ready == null) {
                    return latencyFail(c, server, null);
                }
                client = new Proc(
                        c.name() + "/ping",
                        atClient(List.of(
                                tcpperf,
                                c.clientMode(),
                                "host=" + serverAddr(),
                                "port=" + value(ready, "port"),
                                "size=30",
                                "messages=" + pingMessages,
                                "warmup=" + pingWarmup)));
            }
            default -> {
                server = new Proc(c.name() + "/echo", javaCmd(c.serverMode(), List.of("size=30")));
                String ready = server.waitFor("PEER-READY", 15);
                if (ready == null) {
                    return latencyFail(c, server, null);
                }
                client = new Proc(
                        c.name() + "/ping",
                        javaCmd(
                                c.clientMode(),
                                List.of(
                                        "port=" + value(ready, "port"),
                                        "size=30",
                                        "messages=" + pingMessages,
                                        "warmup=" + pingWarmup,
                                        "warmup-s=" + warmup)));
            }
        }
        Map<String, String> cr = client.finish(limit);
        server.finish(10);
        if (cr.get("rtt_median_us") == null || !"ok".equals(cr.get("status"))) {
            return latencyFail(c, server, client);
        }
        return new double[] {Double.parseDouble(cr.get("rtt_median_us")), Double.parseDouble(cr.get("rtt_p99_us"))};
    }

    private static String value(String line, String key) {
        for (String f : line.split(" ")) {
            if (f.startsWith(key + "=")) {
                return f.substring(key.length() + 1);
            }
        }
        throw new IllegalStateException("no " + key + " in " + line);
    }

    /** The 1-minute load average now ({@code /proc/loadavg}), or empty. */
    private static String loadNow() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private double fail(Contender c, int size, Proc server, Proc client) throws InterruptedException {
        if (client != null) {
            client.finish(1);
        }
        server.finish(1);
        failures.add(c.name() + " size " + size);
        log("FAILED: %s size %d (see latest-raw.log)", c.name(), size);
        return Double.NaN;
    }

    private double[] latencyFail(Contender c, Proc server, Proc client) throws InterruptedException {
        if (client != null) {
            client.finish(1);
        }
        server.finish(1);
        failures.add(c.name() + " latency");
        log("FAILED: %s latency (see latest-raw.log)", c.name());
        return new double[] {Double.NaN, Double.NaN};
    }

    // ------------------------------------------------------------------ results

    static double median(List<Double> v) {
        double[] a = v.stream()
                .mapToDouble(Double::doubleValue)
                .filter(d -> !Double.isNaN(d))
                .sorted()
                .toArray();
        if (a.length == 0) {
            return Double.NaN;
        }
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }

    /** Per contender, per size: the median. */
    private Map<String, Map<Integer, Double>> medians() {
        Map<String, Map<Integer, Double>> m = new LinkedHashMap<>();
        tput.forEach((c, bySize) -> {
            Map<Integer, Double> x = new LinkedHashMap<>();
            for (int s : sizes) {
                x.put(s, median(bySize.getOrDefault(s, List.of())));
            }
            m.put(c, x);
        });
        return m;
    }

    private double rttMedian(String c, int i) {
        List<Double> v = new ArrayList<>();
        for (double[] r : rtt.get(c)) {
            v.add(r[i]);
        }
        return median(v);
    }

    private void writeCsv(Machine before, Machine after) throws IOException {
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out.resolve("latest.csv")))) {
            for (String l : before.lines()) {
                w.println("# " + l);
            }
            w.println("# load_average_end: " + after.load);
            w.println("# runs: " + runs + ", seconds per throughput run: " + duration
                    + ", receiver warm-up (sctpj/kernel): " + warmup + " s, ping-pong: " + pingMessages
                    + " round trips after " + pingWarmup + " (JVM contenders: and after " + warmup + " s)");
            w.println("# load_1min: the load average when the run started; rx_cpu_s_per_gb, tx_cpu_s_per_gb: CPU"
                    + " seconds per 10^9 bytes of the receiver's and the sender's process after their warm-up"
                    + " (JVM contenders; every thread of the process)");
            w.println("kind,contender,size_bytes,run,mb_per_s,ratio_to_usrsctp,rtt_median_us,rtt_p99_us,"
                    + "load_1min,rx_cpu_s_per_gb,tx_cpu_s_per_gb");
            Map<String, Map<Integer, Double>> med = medians();
            Map<Integer, Double> ref =
                    usrsctpIsFair() ? med.get(Contender.USRSCTP.name()) : Map.of(); // see usrsctpIsFair
            for (var e : tput.entrySet()) {
                for (int s : sizes) {
                    List<Double> v = e.getValue().getOrDefault(s, List.of());
                    List<String> notes =
                            runNotes.getOrDefault(e.getKey(), Map.of()).getOrDefault(s, List.of());
                    for (int r = 0; r < v.size(); r++) {
                        w.printf(
                                Locale.ROOT,
                                "throughput,%s,%d,%d,%.3f,,,,%s%n",
                                e.getKey(),
                                s,
                                r + 1,
                                v.get(r),
                                r < notes.size() ? notes.get(r) : ",,");
                    }
                    double m = med.get(e.getKey()).get(s);
                    String ratio = ref.isEmpty()
                            ? "" // usrsctp or tsctp left out, or usrsctp below the floor
                            : String.format(Locale.ROOT, "%.3f", m / ref.getOrDefault(s, Double.NaN));
                    w.printf(Locale.ROOT, "throughput,%s,%d,median,%.3f,%s,,,,,%n", e.getKey(), s, m, ratio);
                }
            }
            for (var e : rtt.entrySet()) {
                for (int r = 0; r < e.getValue().size(); r++) {
                    double[] v = e.getValue().get(r);
                    w.printf(Locale.ROOT, "latency,%s,30,%d,,,%.1f,%.1f,,,%n", e.getKey(), r + 1, v[0], v[1]);
                }
                w.printf(
                        Locale.ROOT,
                        "latency,%s,30,median,,,%.1f,%.1f,,,%n",
                        e.getKey(),
                        rttMedian(e.getKey(), 0),
                        rttMedian(e.getKey(), 1));
            }
        }
    }

    private static String f1(double v) {
        return Double.isNaN(v) ? "fail" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String f2(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f", v);
    }

    private static String sizeLabel(int s) {
        return s == 4096 ? "4 KiB" : s == 65536 ? "64 KiB" : String.valueOf(s);
    }

    private void writeMarkdown(Machine before, Machine after, double minutes) throws IOException {
        StringBuilder b = new StringBuilder();
        String date = before.date;
        b.append("# Side-by-side benchmark, ").append(date).append("\n\n");
        b.append("Written by `bench/run.sh` (`org.sctpj.bench.runner.Runner`); do not edit by hand.\n\n");
        b.append("Machine: ")
                .append(before.cpu)
                .append(", ")
                .append(before.cores)
                .append(" cores, Linux ")
                .append(before.kernel)
                .append(", JDK ")
                .append(before.jdk)
                .append(". Load average at the start: ")
                .append(before.load)
                .append("; at the end: ")
                .append(after.load)
                .append(". The machine is shared with other builds: figures are noisy, compare within this run.\n\n");
        b.append(String.format(
                Locale.ROOT,
                "%s. %d run(s) per contender and size, contenders"
                        + " alternating run by run; %.1f s of sending per run; figures are medians, MB = 10^6 bytes of"
                        + " user data per second at the receiver (sctpj and the kernel contenders after %.1f s of"
                        + " warm-up from the first message; usrsctp's sink from its first message). Whole sweep: %.1f min.\n\n",
                netnsMtu == 0
                        ? "Loopback, UDP encapsulation (RFC 6951), MTU 1500"
                        : "Between two network namespaces over a veth pair of MTU " + netnsMtu + " (server "
                                + ADDR_SERVER + " in " + NS_SERVER + ", client " + ADDR_CLIENT + " in " + NS_CLIENT
                                + ", veth offloads at their defaults), UDP encapsulation (RFC 6951) unless the"
                                + " contender says otherwise; sctpj's path MTU set to the link's, usrsctp takes the"
                                + " interface's",
                runs,
                duration,
                warmup,
                minutes));
        if (throughput) {
            Map<String, Map<Integer, Double>> med = medians();
            boolean fair = usrsctpIsFair();
            Map<Integer, Double> ref = fair ? med.get(Contender.USRSCTP.name()) : null;
            fairness(b, med, fair);
            b.append(
                    ref != null
                            ? "## Throughput (MB/s, median; in brackets: ratio to usrsctp)\n\n| size |"
                            : "## Throughput (MB/s, median)\n\n| size |");
            for (String c : med.keySet()) {
                b.append(' ').append(c).append(" |");
            }
            b.append("\n|---:|");
            b.append("---:|".repeat(med.size()));
            b.append('\n');
            for (int s : sizes) {
                b.append("| ").append(sizeLabel(s)).append(" |");
                for (String c : med.keySet()) {
                    double v = med.get(c).get(s);
                    b.append(' ').append(f1(v));
                    if (ref != null && !c.equals(Contender.USRSCTP.name()) && !Double.isNaN(v)) {
                        b.append(" (").append(f2(v / ref.get(s))).append(')');
                    }
                    b.append(" |");
                }
                b.append('\n');
            }
            b.append("\n![throughput against message size](latest.png)\n\n");
            b.append("Contenders:\n\n");
            for (Contender c : throughputContenders) {
                b.append("- `")
                        .append(c.name())
                        .append("`: ")
                        .append(c.description())
                        .append('\n');
            }
            b.append('\n');
            b.append("## Targets (throughput)\n\n");
            if (fair) {
                target(b, med, "callback API >= usrsctp", Contender.CALLBACK, Contender.USRSCTP, 1.0);
            }
            target(b, med, "socket API >= 0.9 x callback API", Contender.SOCKET, Contender.CALLBACK, 0.9);
            target(
                    b,
                    med,
                    "portable path >= 0.9 x its ceiling (kernel-udp)",
                    Contender.CALLBACK_PORTABLE,
                    Contender.UDP,
                    0.9);
            target(b, med, "portable path >= 2 x tsctp", Contender.CALLBACK_PORTABLE, Contender.TSCTP, 2.0);
            target(b, med, "100 KB threshold >= every-SACK callback", Contender.CALLBACK_100K, Contender.CALLBACK, 1.0);
            target(b, med, "raw IP >= 0.8 x the UDP path", Contender.CALLBACK_RAW, Contender.CALLBACK, 0.8);
            target(b, med, "callback API >= kernel TCP (C)", Contender.CALLBACK, Contender.TCP_C, 1.0);
            ratios(b, med, "raw IP / UDP path", Contender.CALLBACK_RAW, Contender.CALLBACK);
            ratios(
                    b,
                    med,
                    "raw IP with the kernel filter / without",
                    Contender.CALLBACK_RAW,
                    Contender.CALLBACK_RAW_NOFILTER);
            ratios(
                    b,
                    med,
                    "portable path / kernel-udp-acked (its ceiling with a SACK's system calls every second packet)",
                    Contender.CALLBACK_PORTABLE,
                    Contender.UDP_ACKED);
            ratios(b, med, "callback API / kernel TCP (C)", Contender.CALLBACK, Contender.TCP_C);
            b.append('\n');
        }
        if (latency) {
            b.append("## Latency: round trip of 30-byte messages (no Nagle delay, I bit for SCTP)\n\n");
            b.append(String.format(
                    Locale.ROOT,
                    "%d round trips per run after %d unmeasured (for the JVM contenders also at least %.1f s"
                            + " of them, as the throughput runs' warm-up); medians over %d run(s).%n%n",
                    pingMessages,
                    pingWarmup,
                    warmup,
                    runs));
            b.append("Contenders:\n\n");
            for (Contender c : latencyContenders) {
                b.append("- `")
                        .append(c.name())
                        .append("`: ")
                        .append(c.description())
                        .append('\n');
            }
            b.append('\n');
            b.append("| contender | RTT median (us) | RTT p99 (us) | runs: median / p99 |\n|---|---:|---:|---|\n");
            StringBuilder tcpRatio = new StringBuilder();
            if (rtt.containsKey("sctpj-callback") && rtt.containsKey(Contender.TCP_C.name())) {
                tcpRatio.append(String.format(
                        Locale.ROOT,
                        "sctpj-callback's round trip over kernel TCP's (C, TCP_NODELAY): median %s, p99 %s (goal: 1.0"
                                + " or less).%n%n",
                        f2(rttMedian("sctpj-callback", 0) / rttMedian(Contender.TCP_C.name(), 0)),
                        f2(rttMedian("sctpj-callback", 1) / rttMedian(Contender.TCP_C.name(), 1))));
            }
            for (var e : rtt.entrySet()) {
                StringBuilder all = new StringBuilder();
                for (double[] v : e.getValue()) {
                    all.append(f1(v[0])).append(" / ").append(f1(v[1])).append("; ");
                }
                b.append("| ")
                        .append(e.getKey())
                        .append(" | ")
                        .append(f1(rttMedian(e.getKey(), 0)))
                        .append(" | ")
                        .append(f1(rttMedian(e.getKey(), 1)))
                        .append(" | ")
                        .append(all)
                        .append("|\n");
            }
            b.append('\n').append(tcpRatio);
        }
        if (!failures.isEmpty()) {
            b.append("Failed runs (not counted in the medians): ")
                    .append(String.join(", ", failures))
                    .append("\n\n");
        }
        Files.writeString(out.resolve("latest.md"), b.toString());
    }

    /** The check of the usrsctp contender against tsctp, as a section of the report. */
    private void fairness(StringBuilder b, Map<String, Map<Integer, Double>> med, boolean fair) {
        Map<Integer, Double> r = usrsctpOverTsctp();
        Map<Integer, Double> m = usrsctpMedianOverTsctp(med);
        b.append("## usrsctp at its best\n\n");
        if (r == null || m == null) {
            b.append("`usrsctp` or `usrsctp-tsctp` was left out of this run, so no ratio to usrsctp is reported.\n\n");
            return;
        }
        b.append(String.format(
                Locale.ROOT,
                "Our usrsctp contender (`usrsctp`) over usrsctp's own tsctp (`usrsctp-tsctp`): per size, the"
                        + " median over rounds of the two runs' ratio in the same round (which decides), and the"
                        + " ratio of the two medians; ratios to usrsctp are reported only when the first is at"
                        + " least %.1f at every size: %s.%n%n| size |",
                FAIR_FLOOR,
                fair ? "it is, so they are" : "it is NOT, so they are withheld"));
        for (int s : sizes) {
            b.append(' ').append(sizeLabel(s)).append(" |");
        }
        b.append("\n|---|").append("---:|".repeat(sizes.size())).append("\n| usrsctp / tsctp, paired |");
        for (int s : sizes) {
            b.append(' ').append(f2(r.get(s))).append(" |");
        }
        b.append("\n| median / median |");
        for (int s : sizes) {
            b.append(' ').append(f2(m.get(s))).append(" |");
        }
        b.append("\n\n");
    }

    /**
     * One target line: at how many sizes {@code a} reached {@code factor} times {@code b}, with the
     * sizes that missed it; nothing when either contender was left out.
     */
    private void target(
            StringBuilder b,
            Map<String, Map<Integer, Double>> med,
            String what,
            Contender a,
            Contender ref,
            double factor) {
        Map<Integer, Double> x = med.get(a.name());
        Map<Integer, Double> y = med.get(ref.name());
        if (x == null || y == null) {
            return;
        }
        int ok = 0;
        List<String> missed = new ArrayList<>();
        for (int s : sizes) {
            if (x.get(s) >= factor * y.get(s)) {
                ok++;
            } else {
                missed.add(sizeLabel(s));
            }
        }
        b.append(String.format(Locale.ROOT, "- %s: at %d of %d sizes", what, ok, sizes.size()));
        if (!missed.isEmpty() && ok > 0) {
            b.append(" (not at ").append(String.join(", ", missed)).append(')');
        }
        b.append('\n');
    }

    /** One line of per-size ratios {@code a / ref} (medians); nothing when either was left out. */
    private void ratios(
            StringBuilder b, Map<String, Map<Integer, Double>> med, String what, Contender a, Contender ref) {
        Map<Integer, Double> x = med.get(a.name());
        Map<Integer, Double> y = med.get(ref.name());
        if (x == null || y == null) {
            return;
        }
        b.append("- ").append(what).append(" by size:");
        for (int s : sizes) {
            b.append(' ')
                    .append(sizeLabel(s))
                    .append(": ")
                    .append(f2(x.get(s) / y.get(s)))
                    .append(';');
        }
        b.setLength(b.length() - 1);
        b.append('\n');
    }

    /** The machine's details, read from /proc and the JVM. */
    record Machine(String cpu, int cores, String kernel, String jdk, String date, String load) {
        static Machine now() {
            String cpu = "unknown";
            try {
                for (String l : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                    if (l.startsWith("model name")) {
                        cpu = l.substring(l.indexOf(':') + 1).trim();
                        break;
                    }
                }
            } catch (IOException e) {
                // not Linux
            }
            return new Machine(
                    cpu,
                    Runtime.getRuntime().availableProcessors(),
                    read("/proc/sys/kernel/osrelease", System.getProperty("os.version")),
                    System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version"),
                    ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z")),
                    read("/proc/loadavg", "?"));
        }

        private static String read(String file, String dflt) {
            try {
                return Files.readString(Path.of(file)).trim();
            } catch (IOException e) {
                return dflt;
            }
        }

        List<String> lines() {
            return List.of(
                    "cpu: " + cpu,
                    "cores: " + cores,
                    "kernel: " + kernel,
                    "jdk: " + jdk,
                    "date: " + date,
                    "load_average_start: " + load);
        }

        @Override
        public String toString() {
            return cpu + ", " + cores + " cores, load " + load;
        }
    }
}
