package org.sctpj.tests.interop.kernel;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The Linux kernel SCTP peer in a small virtual machine (see {@code interop/README.md}): starts it
 * with {@code interop/kernel/vm.sh}, drives the guest's {@code kpeer} control server with one-line
 * commands, runs programs inside the VM's network namespace, and stops everything on {@link
 * #close()}.
 *
 * <p>The guest is 10.99.0.2 (and 10.99.1.2 on a second link, fd99::2 over IPv6); the host side of
 * the links, inside the namespace, is 10.99.0.1 (10.99.1.1, fd99::1). SCTP traffic to the guest is
 * only possible from inside the namespace: use {@link #runInNamespace}. The control port is
 * forwarded to the host's loopback, so {@link #command} works from the test's own process.
 *
 * <p>Needs root (network namespaces, tap devices) and Debian's packages, which {@code
 * interop/kernel/build-vm.sh} installs when missing: check {@link #unavailable()} first.
 */
public final class KernelVm implements AutoCloseable {

    /** The guest's address on the first link. */
    public static final String GUEST = "10.99.0.2";
    /** The guest's address on the second link. */
    public static final String GUEST2 = "10.99.1.2";
    /** The host's address on the first link (inside the namespace). */
    public static final String HOST = "10.99.0.1";
    /** The host's address on the second link (inside the namespace). */
    public static final String HOST2 = "10.99.1.1";

    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(15);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(120);

    private final Path scripts;
    private final Map<String, String> env;
    private Socket control;
    private BufferedReader controlIn;
    private OutputStream controlOut;
    private boolean closed;

    private KernelVm(Path scripts, Map<String, String> env) {
        this.scripts = scripts;
        this.env = env;
    }

    /**
     * Why the VM cannot run here, or empty when it can: not Linux, not root, no tun device, or the
     * {@code interop/kernel} scripts not found above the working directory.
     */
    public static Optional<String> unavailable() {
        if (!System.getProperty("os.name", "").toLowerCase().contains("linux")) {
            return Optional.of("the kernel SCTP VM needs Linux (network namespaces, tap, qemu)");
        }
        if (!isRoot()) {
            return Optional.of("the kernel SCTP VM needs root (it creates a network namespace and tap"
                    + " devices); run the tests as root to include it");
        }
        if (!Files.exists(Paths.get("/dev/net/tun"))) {
            return Optional.of("no /dev/net/tun: tap devices are not available on this machine");
        }
        if (scriptsDir().isEmpty()) {
            return Optional.of(
                    "interop/kernel/vm.sh not found above " + Paths.get("").toAbsolutePath());
        }
        return Optional.empty();
    }

    /** True when this process runs with user id 0. */
    static boolean isRoot() {
        try {
            for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[1].equals("0");
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    private static Optional<Path> scriptsDir() {
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path s = p.resolve("interop").resolve("kernel");
            if (Files.isExecutable(s.resolve("vm.sh"))) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /**
     * Builds what is missing ({@code build-vm.sh}: packages, kernel, initramfs; minutes the first
     * time, a second later) and boots a VM in a new namespace. The caller must {@link #close()} it.
     *
     * @throws IllegalStateException if {@link #unavailable()} says why not, or a step fails (the
     *     message holds the script's output)
     */
    public static KernelVm start() throws IOException, InterruptedException {
        return start("skvm" + (ProcessHandle.current().pid() % 100_000));
    }

    /**
     * As {@link #start()}, with the namespace (and VM) named {@code name}: 1-12 letters, digits,
     * {@code _} or {@code -}, unused.
     */
    public static KernelVm start(String name) throws IOException, InterruptedException {
        Optional<String> why = unavailable();
        if (why.isPresent()) {
            throw new IllegalStateException(why.get());
        }
        Path scripts = scriptsDir().orElseThrow();
        run(List.of(scripts.resolve("build-vm.sh").toString()), BUILD_TIMEOUT);
        String out;
        try {
            out = run(List.of(scripts.resolve("vm.sh").toString(), "start", name), START_TIMEOUT);
        } catch (IllegalStateException e) {
            run(List.of(scripts.resolve("vm.sh").toString(), "stop", name), START_TIMEOUT);
            throw e;
        }
        Map<String, String> env = new HashMap<>();
        for (String line : out.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                env.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
            }
        }
        KernelVm vm = new KernelVm(scripts, env);
        if (!env.containsKey("NS") || !env.containsKey("CTL_PORT")) {
            vm.close();
            throw new IllegalStateException("vm.sh start printed no NS/CTL_PORT:\n" + out);
        }
        return vm;
    }

    /** Runs a command, returns its standard output; throws with its output if it fails. */
    private static String run(List<String> cmd, Duration timeout) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(false);
        Process p = pb.start();
        CompletableFuture<String> out = readAll(p.getInputStream());
        CompletableFuture<String> err = readAll(p.getErrorStream());
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(cmd + " took longer than " + timeout + ":\n" + err.join());
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(cmd + " failed (exit " + p.exitValue() + "):\n" + out.join() + err.join());
        }
        return out.join();
    }

    private static CompletableFuture<String> readAll(InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** The network namespace the VM's links end in. */
    public String namespace() {
        return env.get("NS");
    }

    /** How long the VM took from qemu's start to the first answer of its control server. */
    public Duration bootTime() {
        return Duration.ofMillis(Long.parseLong(env.getOrDefault("BOOT_MS", "0")));
    }

    /** The guest's serial console (kernel messages, init's output). */
    public Path consoleLog() {
        return Paths.get(env.get("CONSOLE"));
    }

    /**
     * Sends one command line to the guest's control server and returns the answer line ("ok ..."
     * or "err ..."). Commands: see {@code interop/README.md} (e.g. {@code echo 7000 --streams 4},
     * {@code client 10.99.0.1 5000 -n 100 -k 4}, {@code sysctl net.sctp.udp_port 9899}).
     */
    public synchronized String command(String line) throws IOException {
        if (line.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("one command per call, without a line break");
        }
        if (control == null) {
            control = new Socket();
            control.connect(
                    new InetSocketAddress(
                            env.getOrDefault("CTL_HOST", "127.0.0.1"), Integer.parseInt(env.get("CTL_PORT"))),
                    5000);
            control.setSoTimeout((int) COMMAND_TIMEOUT.toMillis());
            control.setTcpNoDelay(true);
            controlIn = new BufferedReader(new InputStreamReader(control.getInputStream(), StandardCharsets.UTF_8));
            controlOut = control.getOutputStream();
        }
        controlOut.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        controlOut.flush();
        String answer = controlIn.readLine();
        if (answer == null) {
            throw new IOException("the guest's control server closed the connection after: " + line);
        }
        return answer;
    }

    /** As {@link #command}, but throws {@link IllegalStateException} unless the answer starts with "ok". */
    public String ok(String line) throws IOException {
        String a = command(line);
        if (!a.startsWith("ok")) {
            throw new IllegalStateException("guest answered \"" + a + "\" to \"" + line + "\"");
        }
        return a;
    }

    /** The value of {@code key=value} in an answer line, or empty. */
    public static Optional<String> field(String answer, String key) {
        for (String token : answer.split(" ")) {
            if (token.startsWith(key + "=")) {
                return Optional.of(token.substring(key.length() + 1));
            }
        }
        return Optional.empty();
    }

    /** What a program run in the namespace did. */
    public record Result(int exitCode, String output) {}

    /**
     * Runs {@code command} inside the VM's network namespace ({@code ip netns exec}), waits for it
     * (killing it after {@code timeout}) and returns its exit code and merged output.
     */
    public Result runInNamespace(List<String> command, Duration timeout) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", namespace()));
        cmd.addAll(command);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        CompletableFuture<String> out = readAll(p.getInputStream());
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
            return new Result(-1, "killed after " + timeout + ":\n" + out.getNow(""));
        }
        return new Result(p.exitValue(), out.join());
    }

    /**
     * The command line that runs {@code mainClass} in a new JVM with this JVM's class path (for
     * {@link #runInNamespace}).
     */
    public static List<String> javaCommand(Class<?> mainClass, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass.getName());
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Stops the VM and deletes its namespace (idempotent). */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (control != null) {
            control.close();
        }
        try {
            run(List.of(scripts.resolve("vm.sh").toString(), "stop", namespace()), Duration.ofSeconds(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
