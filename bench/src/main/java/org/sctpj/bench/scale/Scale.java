package org.sctpj.bench.scale;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.sctpj.bench.runner.Plot;

/**
 * The scale benchmarks of issue 15, each a {@link ScaleServer} process and a {@link ScaleClient}
 * process over UDP encapsulation on 127.0.0.1, figures taken from the server process (the one
 * that holds the associations):
 *
 * <ul>
 *   <li><b>idle</b>, for each count of {@code --idle}: heap (after full collections) and direct
 *       memory per association (server with the associations less server listening alone), the time
 *       to open them all (at most 100 handshakes at a time), and the server's CPU time at rest over
 *       {@code --rest} seconds (heartbeats every 30 s per association, RFC 9260 defaults);
 *   <li><b>active</b>, for each count of {@code --active}: 100-byte messages echoed by the server;
 *       round trips per second at saturation (one message in flight per association) and the median
 *       and 99th percentile round trip paced at {@code --rate} messages per second in all; the
 *       server's CPU in each phase;
 *   <li><b>churn</b>: {@code --churn} associations opened, used for one echoed message and closed
 *       (half gracefully, half with ABORT), {@code --window} at a time; the server's heap, threads
 *       and file descriptors after the first tenth and at the end; every message delivered once.
 * </ul>
 *
 * Writes {@code scale.md}, {@code scale.csv} and {@code scale.png} (cost against association
 * count) into {@code --out} (default {@code bench/results}), and prints the report. Every process
 * it starts is ended before it returns; each step has a time limit.
 *
 * <pre>java -cp bench/target/benchmarks.jar org.sctpj.bench.scale.Scale [--idle 100,1000,10000,100000]
 *     [--active 100,1000,10000] [--churn 100000] [--window 1000] [--rest 30] [--seconds 10] [--rate 2000]
 *     [--out bench/results]</pre>
 */
public final class Scale {
    private Scale() {}

    /** Runs the benchmarks; see the class comment. */
    public static void main(String[] args) throws Exception {
        if (args.length == 4 && args[0].equals("--replot")) {
            plot(Path.of(args[1]), Path.of(args[2]), args[3]);
            return;
        }
        Map<String, String> o = new HashMap<>(Map.of(
                "idle", "100,1000,10000,100000",
                "active", "100,1000,10000",
                "churn", "100000",
                "window", "1000",
                "rest", "30",
                "seconds", "10",
                "rate", "2000",
                "shards", "1",
                "server", "callback",
                "out", "bench/results"));
        for (int i = 0; i < args.length; i += 2) {
            String k = args[i].replaceFirst("^--", "");
            if (!o.containsKey(k) || i + 1 >= args.length) {
                System.err.println("usage: Scale [--idle N,..] [--active N,..] [--churn N] [--window N] [--rest S]"
                        + " [--seconds S] [--rate R] [--shards N] [--server callback|selector] [--out DIR]"
                        + "   (unknown or incomplete: " + args[i] + ")");
                System.exit(2);
            }
            o.put(k, args[i + 1]);
        }
        List<String> report = new ArrayList<>() {
            @Override
            public boolean add(String line) {
                System.out.println(line); // as it comes: a later step that fails loses nothing
                System.out.flush();
                return super.add(line);
            }
        };
        List<String> csv = new ArrayList<>();
        csv.add("benchmark,associations,metric,value,load");
        serverArgs.add("shards=" + Integer.parseInt(o.get("shards")));
        if (o.get("server").equals("selector")) {
            serverArgs.add("selector");
        } else if (!o.get("server").equals("callback")) {
            System.err.println("--server is callback or selector, was " + o.get("server"));
            System.exit(2);
        }
        report.add("Scale benchmarks, " + ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z"))
                + ", " + Runtime.getRuntime().availableProcessors() + " cores, server: " + o.get("server") + " API, "
                + o.get("shards") + " shard(s)");
        int rest = Integer.parseInt(o.get("rest"));
        for (int n : counts(o.get("idle"))) {
            idle(n, rest, report, csv);
        }
        for (int n : counts(o.get("active"))) {
            active(n, Integer.parseInt(o.get("seconds")), Integer.parseInt(o.get("rate")), report, csv);
        }
        for (int n : counts(o.get("churn"))) {
            churn(n, Integer.parseInt(o.get("window")), report, csv);
        }
        Path out = Path.of(o.get("out"));
        Files.createDirectories(out);
        Files.write(out.resolve("scale.md"), report);
        Files.write(out.resolve("scale.csv"), csv);
        plot(out.resolve("scale.csv"), out.resolve("scale.png"), report.get(0) + "; load " + load());
    }

    /** The series of the plot: csv metric to its name in the legend (units in the name). */
    private static final Map<String, String> SERIES = new LinkedHashMap<>();

    static {
        SERIES.put("idle/live_bytes_per_association_histogram", "idle heap/assoc (B)");
        SERIES.put("idle/rest_stack_thread_cpu_percent", "idle CPU (% core)");
        SERIES.put("idle/setup_ms", "idle open all (ms)");
        SERIES.put("active/paced_p50_us", "paced RTT p50 (us)");
        SERIES.put("active/paced_p99_us", "paced RTT p99 (us)");
        SERIES.put("active/paced_server_us_per_message", "paced CPU/msg (us)");
        SERIES.put("active/saturation_round_trips_per_s", "saturated RTT/s");
    }

    /** Draws cost against association count from a {@code scale.csv} ({@code --replot CSV PNG SUBTITLE}). */
    static void plot(Path csv, Path png, String subtitle) throws IOException {
        Map<String, Map<Integer, Double>> series = new LinkedHashMap<>();
        TreeMap<Integer, Boolean> xs = new TreeMap<>();
        for (String l : Files.readAllLines(csv)) {
            String[] f = l.split(",");
            String name = f.length >= 4 ? SERIES.get(f[0] + "/" + f[2]) : null;
            if (name == null) {
                continue;
            }
            int n = Integer.parseInt(f[1]);
            double v = Double.parseDouble(f[3]);
            series.computeIfAbsent(name, k -> new TreeMap<>()).put(n, Math.max(v, 0.01));
            xs.put(n, true);
        }
        if (xs.isEmpty()) {
            return;
        }
        Plot.write(
                png,
                "Cost against association count (one-to-many server, UDP encapsulation, loopback)",
                subtitle,
                "associations at the server",
                "cost (units in each series' name; log scale)",
                new ArrayList<>(xs.keySet()),
                series);
    }

    private static List<Integer> counts(String s) {
        List<Integer> l = new ArrayList<>();
        if (!s.isBlank() && !s.equals("0")) {
            for (String p : s.split(",")) {
                l.add(Integer.parseInt(p.trim()));
            }
        }
        return l;
    }

    static String load() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "?";
        }
    }

    /** One child JVM, its output read line by line. */
    static final class Child implements AutoCloseable {
        final Process p;
        final BufferedReader out;
        final PrintWriter in;
        final String name;

        Child(String name, String heap, String cls, String... args) throws IOException {
            this.name = name;
            List<String> cmd = new ArrayList<>(List.of(
                    ProcessHandle.current().info().command().orElse("java"),
                    "-Xms" + heap,
                    "-Xmx" + heap,
                    "-XX:+UseParallelGC",
                    "-cp",
                    System.getProperty("java.class.path"),
                    cls));
            cmd.addAll(List.of(args));
            p = new ProcessBuilder(cmd)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            in = new PrintWriter(p.getOutputStream(), true, StandardCharsets.UTF_8);
        }

        /** The next line starting with {@code prefix}, other lines echoed; fails at end of output. */
        String expect(String prefix) throws IOException {
            String l;
            while ((l = out.readLine()) != null) {
                if (l.startsWith(prefix)) {
                    return l;
                }
                System.out.println("[" + name + "] " + l);
            }
            throw new IOException(name + " ended before printing " + prefix);
        }

        Map<String, Long> ask(String command, String prefix) throws IOException {
            in.println(command);
            return fields(expect(prefix));
        }

        @Override
        public void close() throws InterruptedException {
            in.println("QUIT");
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    static Map<String, Long> fields(String line) {
        Map<String, Long> m = new HashMap<>();
        for (String f : line.split(" ")) {
            int eq = f.indexOf('=');
            if (eq > 0) {
                try {
                    m.put(f.substring(0, eq), Math.round(Double.parseDouble(f.substring(eq + 1))));
                } catch (NumberFormatException e) {
                    // not a number
                }
            }
        }
        return m;
    }

    /** What every server process is started with (shards, API). */
    private static final List<String> serverArgs = new ArrayList<>();

    private static Child server(String... args) throws IOException {
        List<String> all = new ArrayList<>(serverArgs);
        all.addAll(List.of(args));
        return new Child("server", "3g", ScaleServer.class.getName(), all.toArray(new String[0]));
    }

    /** The server's class histogram: class name to {instances, bytes}. */
    static Map<String, long[]> histogram(Child server) throws IOException {
        server.in.println("HISTO");
        Map<String, long[]> m = new HashMap<>();
        String l;
        while ((l = server.out.readLine()) != null && !l.equals("HISTO-END")) {
            String[] f = l.trim().split("\\s+");
            if (f.length >= 4 && f[0].endsWith(":")) {
                m.put(f[3], new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])});
            }
        }
        return m;
    }

    /** The classes that grew most, per association, as report lines. */
    static double histogramDiff(Map<String, long[]> before, Map<String, long[]> after, int n, List<String> report) {
        List<Object[]> rows = new ArrayList<>();
        double total = 0;
        for (Map.Entry<String, long[]> e : after.entrySet()) {
            long[] b = before.getOrDefault(e.getKey(), new long[2]);
            double bytes = (e.getValue()[1] - b[1]) / (double) n;
            double count = (e.getValue()[0] - b[0]) / (double) n;
            total += bytes;
            rows.add(new Object[] {bytes, count, e.getKey()});
        }
        rows.sort((x, y) -> Double.compare((double) y[0], (double) x[0]));
        report.add(String.format(
                Locale.ROOT, "  class histogram growth per association at n=%d: %.0f B in all; largest:", n, total));
        for (Object[] r : rows.subList(0, Math.min(30, rows.size()))) {
            report.add(String.format(Locale.ROOT, "    %8.1f B %6.2f objects  %s", r[0], r[1], r[2]));
        }
        return total;
    }

    private static void idle(int n, int rest, List<String> report, List<String> csv) throws Exception {
        try (Child server = server()) {
            int udp = Math.toIntExact(fields(server.expect("READY")).get("udp"));
            Map<String, Long> s0 = server.ask("STAT", "STAT");
            Map<String, long[]> h0 = histogram(server);
            try (Child client = new Child("client", "4g", ScaleClient.class.getName(), "" + udp, "idle", "" + n)) {
                Map<String, Long> up = fields(client.expect("UP"));
                long ms = up.get("ms");
                Map<String, Long> s1 = server.ask("STAT", "STAT");
                double live = histogramDiff(h0, histogram(server), n, report);
                Map<String, Long> c0 = server.ask("CPU", "CPU");
                Thread.sleep(rest * 1000L);
                Map<String, Long> c1 = server.ask("CPU", "CPU");
                String load = load();
                double heap = (s1.get("heap") - s0.get("heap")) / (double) n;
                double direct = (s1.get("direct") - s0.get("direct")) / (double) n;
                double cpu = (c1.get("cpu_ns") - c0.get("cpu_ns")) / (rest * 1e7);
                double stackCpu = (c1.get("stack_cpu_ns") - c0.get("stack_cpu_ns")) / (rest * 1e7);
                report.add(String.format(
                        Locale.ROOT,
                        "idle n=%d: heap %.0f B/association, direct %.1f B/association (server direct in all %d B),"
                                + " set up in %d ms (%.0f/s, %d handshakes tried again), CPU at rest over %d s:"
                                + " process %.2f%%, stack thread"
                                + " %.2f%% of one core; server threads %d, fds %d; load %s",
                        n,
                        heap,
                        direct,
                        s1.get("direct"),
                        ms,
                        n * 1000.0 / Math.max(1, ms),
                        up.get("retries"),
                        rest,
                        cpu,
                        stackCpu,
                        s1.get("threads"),
                        s1.get("fds"),
                        load));
                csv.add("idle," + n + ",heap_bytes_per_association," + heap + "," + load);
                csv.add("idle," + n + ",live_bytes_per_association_histogram," + live + "," + load);
                csv.add("idle," + n + ",direct_bytes_per_association," + direct + "," + load);
                csv.add("idle," + n + ",setup_ms," + ms + "," + load);
                csv.add("idle," + n + ",rest_cpu_percent," + cpu + "," + load);
                csv.add("idle," + n + ",rest_stack_thread_cpu_percent," + stackCpu + "," + load);
            }
        }
    }

    private static void active(int n, int seconds, int rate, List<String> report, List<String> csv) throws Exception {
        try (Child server = server()) {
            int udp = Math.toIntExact(fields(server.expect("READY")).get("udp"));
            try (Child client = new Child(
                    "client", "2g", ScaleClient.class.getName(), "" + udp, "active", "" + n, "" + seconds, "" + rate)) {
                client.expect("UP");
                client.expect("MARK sat-start");
                Map<String, Long> a0 = server.ask("CPU", "CPU");
                client.expect("MARK sat-end");
                Map<String, Long> a1 = server.ask("CPU", "CPU");
                Map<String, Long> sat = fields(client.expect("SAT"));
                client.expect("MARK paced-start");
                Map<String, Long> b0 = server.ask("CPU", "CPU");
                client.expect("MARK paced-end");
                Map<String, Long> b1 = server.ask("CPU", "CPU");
                Map<String, Long> paced = fields(client.expect("PACED"));
                String load = load();
                double satCpu = (a1.get("stack_cpu_ns") - a0.get("stack_cpu_ns")) / (seconds * 1e7);
                double pacedCpu = (b1.get("stack_cpu_ns") - b0.get("stack_cpu_ns")) / (seconds * 1e7);
                double pacedUsPerMsg = (b1.get("stack_cpu_ns") - b0.get("stack_cpu_ns"))
                        / 1e3
                        / Math.max(1, paced.get("echoes_per_s") * seconds);
                report.add(String.format(
                        Locale.ROOT,
                        "active n=%d: saturation %d round trips/s (p50 %d us, p99 %d us; server stack thread %.0f%%);"
                                + " paced at %d/s: %d echoes/s, p50 %d us, p99 %d us, server stack thread %.1f%%"
                                + " (%.1f us of its CPU per echoed message), %d sends skipped (still in flight);"
                                + " associations lost %d; client process CPU %d%% saturated, %d%% paced; datagrams the"
                                + " client's socket refused %d; load %s",
                        n,
                        sat.get("round_trips_per_s"),
                        sat.get("p50_us"),
                        sat.get("p99_us"),
                        satCpu,
                        rate,
                        paced.get("echoes_per_s"),
                        paced.get("p50_us"),
                        paced.get("p99_us"),
                        pacedCpu,
                        pacedUsPerMsg,
                        paced.get("skipped"),
                        paced.get("lost"),
                        sat.get("client_cpu_pct"),
                        paced.get("client_cpu_pct"),
                        paced.get("drops"),
                        load));
                csv.add("active," + n + ",saturation_round_trips_per_s," + sat.get("round_trips_per_s") + "," + load);
                csv.add("active," + n + ",saturation_p50_us," + sat.get("p50_us") + "," + load);
                csv.add("active," + n + ",saturation_p99_us," + sat.get("p99_us") + "," + load);
                csv.add("active," + n + ",paced_p50_us," + paced.get("p50_us") + "," + load);
                csv.add("active," + n + ",paced_p99_us," + paced.get("p99_us") + "," + load);
                csv.add("active," + n + ",paced_server_us_per_message," + pacedUsPerMsg + "," + load);
            }
        }
    }

    private static void churn(int total, int window, List<String> report, List<String> csv) throws Exception {
        try (Child server = server("track")) {
            int udp = Math.toIntExact(fields(server.expect("READY")).get("udp"));
            try (Child client = new Child(
                    "client", "1g", ScaleClient.class.getName(), "" + udp, "churn", "" + total, "" + window)) {
                client.expect("MARK warm");
                Map<String, Long> s0 = server.ask("STAT", "STAT");
                client.in.println("GO");
                Map<String, Long> c = fields(client.expect("CHURN"));
                Map<String, Long> s1 = server.ask("STAT", "STAT");
                for (int i = 0; i < 100 && s1.get("associations") > 0; i++) {
                    Thread.sleep(100);
                    s1 = server.ask("STAT", "STAT");
                }
                String load = load();
                report.add(String.format(
                        Locale.ROOT,
                        "churn %d (%d at a time, half SHUTDOWN, half ABORT) in %d ms: client opened %d, closed %d,"
                                + " echoes %d (duplicates %d, lost before the echo %d, aborts %d); server: up %d, ended"
                                + " %d, messages %d, associations that did not carry exactly one message %d, left"
                                + " %d; server after the first tenth -> at the end: heap %d -> %d B, direct %d -> %d B,"
                                + " threads %d -> %d, fds %d -> %d; load %s",
                        total,
                        window,
                        c.get("ms"),
                        c.get("opened"),
                        c.get("closed"),
                        c.get("echoes"),
                        c.get("duplicates"),
                        c.get("lost_before_echo"),
                        c.get("aborts"),
                        s1.get("up"),
                        s1.get("ended"),
                        s1.get("messages"),
                        s1.get("not_one"),
                        s1.get("associations"),
                        s0.get("heap"),
                        s1.get("heap"),
                        s0.get("direct"),
                        s1.get("direct"),
                        s0.get("threads"),
                        s1.get("threads"),
                        s0.get("fds"),
                        s1.get("fds"),
                        load));
                for (String k : List.of("heap", "direct", "threads", "fds")) {
                    csv.add("churn," + total + "," + k + "_after_tenth," + s0.get(k) + "," + load);
                    csv.add("churn," + total + "," + k + "_at_end," + s1.get(k) + "," + load);
                }
                csv.add("churn," + total + ",messages," + s1.get("messages") + "," + load);
                csv.add("churn," + total + ",not_exactly_one," + s1.get("not_one") + "," + load);
            }
        }
    }
}
