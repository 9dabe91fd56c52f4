package org.sctpj.tests.interop.usrsctp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A running {@code upeer} process (interop/usrsctp/upeer.c): usrsctp 0.9.5.0 as the peer of our
 * stack. Start it with {@link #builder(Mode)}; it prints {@code UPEER-READY} when it listens (or
 * is about to connect) and one {@code UPEER-RESULT} line at the end, both {@code key=value}
 * separated by spaces. {@link #close()} always ends the process (SIGTERM, then SIGKILL).
 *
 * <p>The binary is {@code interop/.cache/upeer} (built by {@code interop/usrsctp/build.sh}), or the
 * path in the system property {@code sctpj.upeer}; {@link #locate()} builds it when it is missing
 * and the compiler and {@code libusrsctp-dev} are installed.
 */
public final class UsrsctpPeer implements AutoCloseable {

    /** The program's modes (its {@code --mode}). */
    public enum Mode {
        /** Server: echoes every message on its stream with its PPID and U flag. */
        ECHO,
        /** Server: counts messages and bytes. */
        SINK,
        /** Client: sends N messages on K streams and verifies the echoes. */
        CLIENT,
        /** Client: sends as fast as possible for a duration. */
        BULK,
        /** Client: one small message at a time, waits for its echo, reports round trips. */
        PINGPONG
    }

    /** A {@code key=value} line of the program ({@code UPEER-READY} or {@code UPEER-RESULT}). */
    public record Line(String kind, Map<String, String> values) {
        /** Parses a protocol line; empty for other output. */
        static Optional<Line> parse(String text) {
            String[] parts = text.trim().split(" +");
            if (parts.length == 0 || !parts[0].startsWith("UPEER-")) {
                return Optional.empty();
            }
            Map<String, String> m = new LinkedHashMap<>();
            for (int i = 1; i < parts.length; i++) {
                int eq = parts[i].indexOf('=');
                if (eq > 0) {
                    m.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
                }
            }
            return Optional.of(new Line(parts[0], Collections.unmodifiableMap(m)));
        }

        /** The value of {@code key}. */
        public String get(String key) {
            String v = values.get(key);
            if (v == null) {
                throw new IllegalArgumentException("no " + key + " in " + this);
            }
            return v;
        }

        /** The value of {@code key} as a number. */
        public long getLong(String key) {
            return Long.parseLong(get(key));
        }

        /** The value of {@code key} as a floating-point number. */
        public double getDouble(String key) {
            return Double.parseDouble(get(key));
        }

        /** {@code status=ok}. */
        public boolean ok() {
            return "ok".equals(values.get("status"));
        }
    }

    private final Process process;
    private final List<String> command;
    private final BlockingQueue<Line> lines = new LinkedBlockingQueue<>();
    private final List<String> output = Collections.synchronizedList(new ArrayList<>());
    private Line ready;
    private Line result;

    private UsrsctpPeer(List<String> command) throws IOException {
        this.command = List.copyOf(command);
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        this.process = pb.start();
        Thread reader = new Thread(() -> read(process.getInputStream()), "upeer-stdout-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    private void read(InputStream in) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String s;
            while ((s = r.readLine()) != null) {
                output.add(s);
                Line.parse(s).ifPresent(lines::add);
            }
        } catch (IOException e) {
            output.add("(reading the output failed: " + e + ")");
        }
    }

    /** Starts building a command line for {@code mode}. */
    public static Builder builder(Mode mode) {
        return new Builder(mode);
    }

    /**
     * The {@code upeer} binary: the {@code sctpj.upeer} system property, else {@code
     * interop/.cache/upeer} under the repository root (built with {@code build.sh --no-install}
     * when missing). Empty, with the reason in {@link #unavailableReason()}, when it cannot be had.
     */
    public static synchronized Optional<Path> locate() {
        if (located != null) {
            return located;
        }
        String prop = System.getProperty("sctpj.upeer");
        if (prop != null && !prop.isBlank()) {
            Path p = Path.of(prop);
            located = Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
            unavailable = "sctpj.upeer=" + prop + " is not an executable file";
            return located;
        }
        Optional<Path> root = repositoryRoot();
        if (root.isEmpty()) {
            unavailable = "interop/usrsctp/build.sh not found above " + System.getProperty("user.dir");
            located = Optional.empty();
            return located;
        }
        Path bin = root.get().resolve("interop/.cache/upeer");
        Path src = root.get().resolve("interop/usrsctp/upeer.c");
        try {
            boolean stale = !Files.isExecutable(bin)
                    || Files.getLastModifiedTime(bin).compareTo(Files.getLastModifiedTime(src)) < 0;
            if (stale) {
                Process p = new ProcessBuilder(
                                root.get().resolve("interop/usrsctp/build.sh").toString(), "--no-install", "upeer")
                        .redirectErrorStream(true)
                        .start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                    unavailable = "building upeer failed (run interop/usrsctp/build.sh as root): " + out.trim();
                    located = Optional.empty();
                    return located;
                }
            }
        } catch (IOException e) {
            unavailable = "building upeer failed: " + e;
            located = Optional.empty();
            return located;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            unavailable = "interrupted while building upeer";
            return Optional.empty();
        }
        located = Optional.of(bin);
        return located;
    }

    private static Optional<Path> located;
    private static String unavailable = "";

    /** Why {@link #locate()} found no binary. */
    public static synchronized String unavailableReason() {
        return unavailable;
    }

    private static Optional<Path> repositoryRoot() {
        Path p = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("interop/usrsctp/build.sh"))) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /**
     * A UDP port free on {@code 127.0.0.1} right now (the OS picks it; another process may still
     * take it before use, so callers use it at once).
     */
    public static int freeUdpPort() {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits for the {@code UPEER-READY} line. */
    public Line awaitReady(Duration timeout) throws InterruptedException {
        if (ready == null) {
            ready = awaitKind("UPEER-READY", timeout);
        }
        return ready;
    }

    /** Waits for a line of {@code kind}, e.g. {@code UPEER-PAUSED}. */
    public Line awaitLine(String kind, Duration timeout) throws InterruptedException {
        return awaitKind(kind, timeout);
    }

    /** Writes one line to the program's standard input (e.g. to resume after {@code UPEER-PAUSED}). */
    public void writeLine(String line) throws IOException {
        java.io.OutputStream in = process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** Waits for the {@code UPEER-RESULT} line (the program exits right after it). */
    public Line awaitResult(Duration timeout) throws InterruptedException {
        if (result == null) {
            result = awaitKind("UPEER-RESULT", timeout);
        }
        return result;
    }

    private Line awaitKind(String kind, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (; ; ) {
            long left = deadline - System.nanoTime();
            Line l = lines.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
            if (l == null) {
                throw new AssertionError("no " + kind + " line within " + timeout + " from " + String.join(" ", command)
                        + (process.isAlive() ? "" : " (exited with " + process.exitValue() + ")") + "; output:\n"
                        + output());
            }
            if (l.kind().equals(kind)) {
                return l;
            }
            if (l.kind().equals("UPEER-RESULT")) {
                result = l;
                throw new AssertionError("upeer ended before " + kind + ": " + l + "; output:\n" + output());
            }
        }
    }

    /** Everything the program printed so far (stdout and stderr), for failure messages. */
    public String output() {
        synchronized (output) {
            return String.join("\n", output);
        }
    }

    /** The command line. */
    public List<String> command() {
        return command;
    }

    /** The process, for its exit status. */
    public Process process() {
        return process;
    }

    /** Ends the program at once (SIGKILL): no SHUTDOWN, no ABORT, as a crashed host. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Asks the program to stop (SIGTERM): servers then print their result. */
    public void terminate() {
        process.destroy();
    }

    /** Ends the process: SIGTERM, and SIGKILL if it is still alive after 2 s. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(2, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(2, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** The options of {@code upeer} (see its {@code --help}). */
    public static final class Builder {
        private final Mode mode;
        private final Map<String, String> args = new LinkedHashMap<>();
        private Path binary;
        private String namespace;

        private Builder(Mode mode) {
            this.mode = mode;
        }

        private Builder opt(String name, Object value) {
            args.put("--" + name, value == null ? null : String.valueOf(value));
            return this;
        }

        /** Local UDP encapsulation port; 0 for raw IP (needs root). */
        public Builder udpPort(int port) {
            return opt("udp", port);
        }

        /** The peer's UDP encapsulation port (clients). */
        public Builder remoteUdpPort(int port) {
            return opt("remote-udp", port);
        }

        /** The address to bind ({@code any}: all local addresses, all announced in INIT). */
        public Builder localAddress(String address) {
            return opt("local-addr", address);
        }

        /** Local SCTP port (servers listen on it; clients may use 0). */
        public Builder port(int port) {
            return opt("port", port);
        }

        /** The peer's address and SCTP port (clients). */
        public Builder peer(String address, int port) {
            opt("peer", address);
            return opt("peer-port", port);
        }

        /** Outbound streams and maximum inbound streams (usrsctp offers 10 by default). */
        public Builder streams(int n) {
            return opt("streams", n);
        }

        /** Clients: messages to send; servers: end the association after this many. */
        public Builder messages(long n) {
            return opt("messages", n);
        }

        /** Message size in bytes. */
        public Builder size(int bytes) {
            return opt("size", bytes);
        }

        /** Send unordered. */
        public Builder unordered() {
            return opt("unordered", null);
        }

        /** Base PPID (the client's message i carries PPID base+i). */
        public Builder ppid(long base) {
            return opt("ppid", base);
        }

        /** Bulk: seconds of sending. */
        public Builder duration(Duration d) {
            return opt("duration", d.toMillis() / 1000.0);
        }

        /** Hard limit of the program's run. */
        public Builder timeout(Duration d) {
            return opt("timeout", d.toMillis() / 1000.0);
        }

        /** Heartbeat interval; zero disables heartbeats. */
        public Builder heartbeatInterval(Duration d) {
            return opt("hb-interval", d.toMillis());
        }

        /** End with ABORT (true) or SHUTDOWN (false, the default). */
        public Builder endWithAbort(boolean abort) {
            return opt("end", abort ? "abort" : "shutdown");
        }

        /** SCTP_NODELAY. */
        public Builder noDelay() {
            return opt("nodelay", null);
        }

        /** The I bit on every message. */
        public Builder sackImmediately() {
            return opt("sack-immediately", null);
        }

        /** Servers: exit after this many associations ended (0: until {@link #terminate()}). */
        public Builder assocs(int n) {
            return opt("assocs", n);
        }

        /** Client: the peer does not echo. */
        public Builder noEcho() {
            return opt("no-echo", null);
        }

        /** Disable usrsctp's extensions (PR-SCTP, AUTH, ASCONF, RE-CONFIG, NR-SACK, ECN). */
        public Builder plain() {
            return opt("plain", null);
        }

        /** Print UPEER-EVENT lines (kept in {@link UsrsctpPeer#output()}). */
        public Builder verbose() {
            return opt("verbose", null);
        }

        /** Any other option, as {@code --name value} (value null: a flag). */
        public Builder option(String name, String value) {
            return opt(name, value);
        }

        /**
         * Run the program inside network namespace {@code ns} ({@code ip netns exec}, needs root):
         * for raw IP, where each stack needs a namespace of its own.
         */
        public Builder namespace(String ns) {
            this.namespace = ns;
            return this;
        }

        /** Use this binary instead of {@link UsrsctpPeer#locate()}'s (e.g. upeer-release). */
        public Builder binary(Path path) {
            this.binary = path;
            return this;
        }

        /** The command line. */
        public List<String> command() {
            Path bin = binary != null
                    ? binary
                    : locate().orElseThrow(() -> new IllegalStateException("no upeer binary: " + unavailableReason()));
            List<String> cmd = new ArrayList<>();
            if (namespace != null) {
                cmd.addAll(List.of("ip", "netns", "exec", namespace));
            }
            cmd.add(bin.toString());
            cmd.add("--mode");
            cmd.add(mode.name().toLowerCase(java.util.Locale.ROOT));
            args.forEach((k, v) -> {
                cmd.add(k);
                if (v != null) {
                    cmd.add(v);
                }
            });
            return cmd;
        }

        /** Starts the program. */
        public UsrsctpPeer start() throws IOException {
            return new UsrsctpPeer(command());
        }
    }
}
