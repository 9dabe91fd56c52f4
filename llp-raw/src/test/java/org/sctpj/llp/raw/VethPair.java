package org.sctpj.llp.raw;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Two fresh network namespaces joined by a veth pair, for tests that need root: side A has
 * 10.99.0.1, 10.99.0.3, fd00:99::1 and fd00:99::3, side B has 10.99.0.2 and fd00:99::2. Names carry a random
 * suffix; {@link #close} deletes both namespaces (which removes the veth pair too).
 */
final class VethPair implements AutoCloseable {
    static final String A4 = "10.99.0.1";
    static final String A4_SECOND = "10.99.0.3";
    static final String B4 = "10.99.0.2";
    static final String A6 = "fd00:99::1";
    static final String A6_SECOND = "fd00:99::3";
    static final String B6 = "fd00:99::2";

    final String nsA;
    final String nsB;

    private VethPair(String nsA, String nsB) {
        this.nsA = nsA;
        this.nsB = nsB;
    }

    /** Skips the calling test (with the reason) unless running as root with {@code ip} available. */
    static void assumeRoot() {
        assumeTrue(
                "root".equals(System.getProperty("user.name")),
                "needs root (CAP_NET_RAW and CAP_SYS_ADMIN) to create network namespaces and raw sockets;"
                        + " run the build as root (CI does)");
        assumeTrue(
                Path.of("/usr/sbin/ip").toFile().canExecute()
                        || Path.of("/sbin/ip").toFile().canExecute()
                        || Path.of("/usr/bin/ip").toFile().canExecute(),
                "needs the ip program (iproute2)");
    }

    /** Creates the namespaces and the link. */
    static VethPair create() throws IOException {
        String suffix = Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);
        VethPair p = new VethPair("sctpj-a-" + suffix, "sctpj-b-" + suffix);
        try {
            run("ip", "netns", "add", p.nsA);
            run("ip", "netns", "add", p.nsB);
            run("ip", "link", "add", "va", "netns", p.nsA, "type", "veth", "peer", "name", "vb", "netns", p.nsB);
            p.in(p.nsA, "ip", "link", "set", "lo", "up");
            p.in(p.nsB, "ip", "link", "set", "lo", "up");
            p.in(p.nsA, "ip", "addr", "add", A4 + "/24", "dev", "va");
            p.in(p.nsA, "ip", "addr", "add", A4_SECOND + "/24", "dev", "va");
            p.in(p.nsB, "ip", "addr", "add", B4 + "/24", "dev", "vb");
            p.in(p.nsA, "ip", "-6", "addr", "add", A6 + "/64", "dev", "va", "nodad");
            p.in(p.nsA, "ip", "-6", "addr", "add", A6_SECOND + "/64", "dev", "va", "nodad");
            p.in(p.nsB, "ip", "-6", "addr", "add", B6 + "/64", "dev", "vb", "nodad");
            p.in(p.nsA, "ip", "link", "set", "va", "up");
            p.in(p.nsB, "ip", "link", "set", "vb", "up");
            p.awaitReady(p.nsA, "va");
            p.awaitReady(p.nsB, "vb");
            return p;
        } catch (IOException | RuntimeException e) {
            p.close();
            throw e;
        }
    }

    /**
     * Waits until {@code dev} in {@code ns} has its carrier (state UP) and IPv6 has configured it
     * (the {@code ff00::/8} multicast route in table local). Setting the second end of a veth pair
     * up does not make it ready at once: the kernel applies the carrier change later (we saw up to
     * 0.7 s), and until then IPv6 has no multicast route on the device, so it drops the Neighbor
     * Solicitations sent to it. A peer's first packet then waits for the solicitation's
     * retransmission, 1 s later, which is longer than a test's INIT retransmissions last.
     */
    void awaitReady(String ns, String dev) throws IOException {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            String link = in(ns, "ip", "-o", "link", "show", "dev", dev);
            String routes = in(ns, "ip", "-6", "route", "show", "table", "local", "dev", dev);
            if (link.contains("state UP") && routes.contains("ff00::/8")) {
                return;
            }
            if (System.nanoTime() > giveUp) {
                throw new IOException(
                        dev + " in " + ns + " not ready after 10 s: " + link.strip() + " / " + routes.strip());
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for " + dev + " in " + ns, e);
            }
        }
    }

    Path fileA() {
        return NetworkNamespace.named(nsA);
    }

    Path fileB() {
        return NetworkNamespace.named(nsB);
    }

    static InetAddress addr(String s) {
        try {
            return InetAddress.getByName(s);
        } catch (IOException e) {
            throw new IllegalArgumentException(s, e);
        }
    }

    /** Runs a command inside namespace {@code ns}. */
    String in(String ns, String... command) throws IOException {
        List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", ns));
        c.addAll(List.of(command));
        return run(c.toArray(new String[0]));
    }

    /** Runs a command, returns its output, throws if it fails or takes more than 30 s. */
    static String run(String... command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("timed out: " + String.join(" ", command));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", command), e);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " exited with " + p.exitValue() + ": " + out.strip());
        }
        return out;
    }

    /** Deletes both namespaces; never throws. */
    @Override
    public void close() {
        for (String ns : List.of(nsA, nsB)) {
            try {
                run("ip", "netns", "delete", ns);
            } catch (IOException | RuntimeException e) {
                // not created, or already gone
            }
        }
    }
}
