package org.sctpj.tests.netns;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.sctpj.tests.Requirements;

/**
 * A multi-path test bed in Linux network namespaces, made and removed by the tests (issue 7 item
 * 4): host A and host Z joined by {@link Builder#paths(int) two} veth links on two subnets, each
 * carrying IPv4 and IPv6; each link rate-limited with tbf in both directions (100 Mbit/s by
 * default); optional random loss with nftables; optionally a router namespace R in the middle.
 *
 * <p>Addresses of path {@code i} (1-based):
 *
 * <ul>
 *   <li>direct: A {@code a<i>} has 10.0.i.1/24 and fd00:0:0:i::1/64, Z {@code z<i>} 10.0.i.2/24 and
 *       fd00:0:0:i::2/64;
 *   <li>with a router: A {@code a<i>} has 10.1.i.1/24 and fd01:0:0:i::1/64 (R: .254 / ::fe), Z
 *       {@code z<i>} has 10.2.i.1/24 and fd02:0:0:i::1/64 (R: .254 / ::fe); A and Z route the other
 *       side's subnet of path i through R on link i.
 * </ul>
 *
 * <p>{@link #cut(int)} drops everything A and Z send on path i with an nftables rule (both
 * directions, the link stays up, as when a switch in the path dies); {@link #restore(int)} removes
 * the rule. Namespace names carry a random suffix; {@link #close()} deletes them (which deletes the
 * links, qdiscs and rules with them) and never throws; {@link #create()} closes what it made if it
 * fails half way. A test needs root, {@code ip}, {@code tc} and {@code nft}: {@link #require()}.
 */
final class MultiPathBed implements AutoCloseable {

    private final String nsA;
    private final String nsZ;
    private final String nsR;
    private final int paths;
    private final boolean router;
    private final TreeSet<Integer> cut = new TreeSet<>();
    private int mtu;

    private MultiPathBed(String suffix, int paths, boolean router) {
        this.nsA = "sctpj-A-" + suffix;
        this.nsZ = "sctpj-Z-" + suffix;
        this.nsR = router ? "sctpj-R-" + suffix : null;
        this.paths = paths;
        this.router = router;
    }

    /** Settings of a bed; {@link #create()} makes it. */
    static final class Builder {
        private int paths = 2;
        private int rateMbit = 100;
        private double lossPercent;
        private boolean router;
        private int mtu = 1500;

        /** The MTU of every link, 1280..9000; default 1500. */
        Builder mtu(int bytes) {
            if (bytes < 1280 || bytes > 9000) {
                throw new IllegalArgumentException("MTU must be 1280..9000, was " + bytes);
            }
            mtu = bytes;
            return this;
        }

        /** The number of paths (links), 1..9; default 2. */
        Builder paths(int n) {
            if (n < 1 || n > 9) {
                throw new IllegalArgumentException("paths must be 1..9, was " + n);
            }
            paths = n;
            return this;
        }

        /** The tbf rate of every link in each direction, in Mbit/s; 0 for no limit; default 100. */
        Builder rateMbit(int mbit) {
            if (mbit < 0) {
                throw new IllegalArgumentException("rate must be >= 0 Mbit/s, was " + mbit);
            }
            rateMbit = mbit;
            return this;
        }

        /** Random loss of SCTP packets on every link in each direction (nftables), in percent; default 0. */
        Builder lossPercent(double percent) {
            if (percent < 0 || percent >= 100) {
                throw new IllegalArgumentException("loss must be 0..100 %, was " + percent);
            }
            lossPercent = percent;
            return this;
        }

        /** Puts a router namespace between A and Z (forwarding IPv4 and IPv6); default off. */
        Builder router(boolean on) {
            router = on;
            return this;
        }

        /** Creates the namespaces, links, addresses, routes, qdiscs and rules. */
        MultiPathBed create() throws IOException {
            String suffix = Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);
            MultiPathBed bed = new MultiPathBed(suffix, paths, router);
            try {
                bed.build(rateMbit, lossPercent, mtu);
                return bed;
            } catch (IOException | RuntimeException e) {
                bed.close();
                throw e;
            }
        }
    }

    /** A builder with the defaults: two paths, 100 Mbit/s, no loss, no router. */
    static Builder builder() {
        return new Builder();
    }

    /** Skips the test (fails it under CI) unless root with ip, tc and nft available. */
    static void require() {
        Requirements.need(
                "root".equals(System.getProperty("user.name")),
                () -> "the namespace test bed needs root (CAP_SYS_ADMIN, CAP_NET_ADMIN, CAP_NET_RAW)");
        for (String tool : List.of("ip", "tc", "nft")) {
            Requirements.need(
                    tool(tool) != null, () -> "the namespace test bed needs " + tool + " (Debian: iproute2, nftables)");
        }
    }

    private static String tool(String name) {
        for (String dir : List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin")) {
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }

    private void build(int rateMbit, double lossPercent, int mtu) throws IOException {
        this.mtu = mtu;
        run("ip", "netns", "add", nsA);
        run("ip", "netns", "add", nsZ);
        if (router) {
            run("ip", "netns", "add", nsR);
            in(nsR, "ip", "link", "set", "lo", "up");
            in(nsR, "sysctl", "-q", "-w", "net.ipv4.ip_forward=1");
            in(nsR, "sysctl", "-q", "-w", "net.ipv6.conf.all.forwarding=1");
        }
        in(nsA, "ip", "link", "set", "lo", "up");
        in(nsZ, "ip", "link", "set", "lo", "up");
        for (int i = 1; i <= paths; i++) {
            if (router) {
                link(nsA, "a" + i, nsR, "ra" + i);
                link(nsR, "rz" + i, nsZ, "z" + i);
                addr(nsA, "a" + i, "10.1." + i + ".1/24", "fd01:0:0:" + i + "::1/64");
                addr(nsR, "ra" + i, "10.1." + i + ".254/24", "fd01:0:0:" + i + "::fe/64");
                addr(nsR, "rz" + i, "10.2." + i + ".254/24", "fd02:0:0:" + i + "::fe/64");
                addr(nsZ, "z" + i, "10.2." + i + ".1/24", "fd02:0:0:" + i + "::1/64");
                in(nsA, "ip", "route", "add", "10.2." + i + ".0/24", "via", "10.1." + i + ".254", "dev", "a" + i);
                in(nsZ, "ip", "route", "add", "10.1." + i + ".0/24", "via", "10.2." + i + ".254", "dev", "z" + i);
                in(nsA, "ip", "-6", "route", "add", "fd02:0:0:" + i + "::/64", "via", "fd01:0:0:" + i + "::fe");
                in(nsZ, "ip", "-6", "route", "add", "fd01:0:0:" + i + "::/64", "via", "fd02:0:0:" + i + "::fe");
            } else {
                link(nsA, "a" + i, nsZ, "z" + i);
                addr(nsA, "a" + i, "10.0." + i + ".1/24", "fd00:0:0:" + i + "::1/64");
                addr(nsZ, "z" + i, "10.0." + i + ".2/24", "fd00:0:0:" + i + "::2/64");
            }
            if (rateMbit > 0) {
                shape(nsA, "a" + i, rateMbit);
                shape(nsZ, "z" + i, rateMbit);
            }
        }
        for (String ns : List.of(nsA, nsZ)) {
            rules(ns, lossPercent);
        }
        for (int i = 1; i <= paths; i++) {
            awaitCarrier(nsA, "a" + i);
            awaitCarrier(nsZ, "z" + i);
        }
    }

    /**
     * Waits until {@code dev} has carrier (Linux reports a veth end running up to a second after
     * both ends were set up; until then discovery sees the interface as down).
     */
    static void awaitCarrier(String ns, String dev) throws IOException {
        long end = System.nanoTime() + 5_000_000_000L;
        while (!in(ns, "cat", "/sys/class/net/" + dev + "/carrier").strip().equals("1")) {
            if (System.nanoTime() > end) {
                throw new IOException(dev + " in " + ns + " has no carrier after 5 s");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
    }

    private void link(String ns1, String if1, String ns2, String if2) throws IOException {
        run("ip", "link", "add", if1, "netns", ns1, "type", "veth", "peer", "name", if2, "netns", ns2);
        in(ns1, "ip", "link", "set", if1, "mtu", Integer.toString(mtu), "up");
        in(ns2, "ip", "link", "set", if2, "mtu", Integer.toString(mtu), "up");
    }

    /**
     * Sets the MTU of path {@code i}'s link between the router and Z (both ends), smaller than
     * A's link, so that R answers larger packets with ICMP Fragmentation Needed / Packet Too Big.
     * Needs a bed with a router.
     */
    void farMtu(int i, int bytes) throws IOException {
        checkPath(i);
        if (!router) {
            throw new IllegalStateException("farMtu needs a bed with a router (Builder.router(true))");
        }
        in(nsR, "ip", "link", "set", "rz" + i, "mtu", Integer.toString(bytes));
        in(nsZ, "ip", "link", "set", "z" + i, "mtu", Integer.toString(bytes));
    }

    /** The links' MTU. */
    int mtu() {
        return mtu;
    }

    private void addr(String ns, String dev, String v4, String v6) throws IOException {
        in(ns, "ip", "addr", "add", v4, "dev", dev);
        in(ns, "ip", "-6", "addr", "add", v6, "dev", dev, "nodad");
    }

    /**
     * tbf at {@code mbit}: a burst of 64 KB (above rate / HZ for any kernel tick) and a queue of
     * 20 ms at the rate, so that a sender filling it sees loss rather than seconds of delay.
     */
    private void shape(String ns, String dev, int mbit) throws IOException {
        in(
                ns,
                "tc",
                "qdisc",
                "add",
                "dev",
                dev,
                "root",
                "tbf",
                "rate",
                mbit + "mbit",
                "burst",
                "64kb",
                "latency",
                "20ms");
    }

    /** The table of the bed: a loss chain and a (first empty) cut chain on output. */
    private void rules(String ns, double lossPercent) throws IOException {
        StringBuilder s = new StringBuilder();
        s.append("table inet sctpj_bed {\n");
        s.append("  chain cut { type filter hook output priority 0; policy accept; }\n");
        s.append("  chain loss { type filter hook output priority 10; policy accept;\n");
        if (lossPercent > 0) {
            long per10k = Math.round(lossPercent * 100);
            s.append("    meta l4proto sctp numgen random mod 10000 < ")
                    .append(per10k)
                    .append(" drop\n");
        }
        s.append("  }\n}\n");
        nft(ns, s.toString());
    }

    private void nft(String ns, String script) throws IOException {
        Path f = Files.createTempFile("sctpj-bed", ".nft");
        try {
            Files.writeString(f, script, StandardCharsets.US_ASCII);
            in(ns, "nft", "-f", f.toString());
        } finally {
            Files.deleteIfExists(f);
        }
    }

    /**
     * Marks about {@code percent} of the ECN-capable (ECT(0)) SCTP packets A sends Congestion
     * Experienced, IPv4 and IPv6 (an nftables rule on A's output: {@code ip ecn set ce}), as an
     * ECN router would instead of dropping them; {@link #ceMarked()} counts the marks.
     */
    void markCe(double percent) throws IOException {
        long per10k = Math.round(percent * 100);
        nft(
                nsA,
                "table inet sctpj_ecn {\n"
                        + "  chain ce { type filter hook output priority 20; policy accept;\n"
                        + "    meta l4proto sctp ip ecn ect0 numgen random mod 10000 < " + per10k
                        + " counter ip ecn set ce\n"
                        + "    meta l4proto sctp ip6 ecn ect0 numgen random mod 10000 < " + per10k
                        + " counter ip6 ecn set ce\n"
                        + "  }\n}\n");
    }

    /** The packets {@link #markCe} marked so far (both families). */
    long ceMarked() throws IOException {
        String out = in(nsA, "nft", "list", "table", "inet", "sctpj_ecn");
        long n = 0;
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("counter packets (\\d+)").matcher(out);
        while (m.find()) {
            n += Long.parseLong(m.group(1));
        }
        return n;
    }

    /** Drops everything A and Z send on path {@code i} (1-based) until {@link #restore}. */
    void cut(int i) throws IOException {
        checkPath(i);
        cut.add(i);
        applyCuts();
    }

    /** Lets path {@code i} carry packets again. */
    void restore(int i) throws IOException {
        checkPath(i);
        cut.remove(i);
        applyCuts();
    }

    private void applyCuts() throws IOException {
        for (String ns : List.of(nsA, nsZ)) {
            String prefix = ns.equals(nsA) ? "a" : "z";
            StringBuilder s = new StringBuilder("flush chain inet sctpj_bed cut\n");
            for (int i : cut) {
                s.append("add rule inet sctpj_bed cut oifname \"")
                        .append(prefix)
                        .append(i)
                        .append("\" drop\n");
            }
            nft(ns, s.toString());
        }
    }

    private void checkPath(int i) {
        if (i < 1 || i > paths) {
            throw new IllegalArgumentException("path must be 1.." + paths + ", was " + i);
        }
    }

    /** The namespace file of host A, for {@code RawIpLowerLayer.Builder.networkNamespace}. */
    Path fileA() {
        return Path.of("/var/run/netns", nsA);
    }

    /** The namespace file of host Z. */
    Path fileZ() {
        return Path.of("/var/run/netns", nsZ);
    }

    /** The name of host A's namespace. */
    String nsA() {
        return nsA;
    }

    /** The name of host Z's namespace. */
    String nsZ() {
        return nsZ;
    }

    /** The router's namespace (a bed with a router). */
    String nsR() {
        if (!router) {
            throw new IllegalStateException("this bed has no router (Builder.router(true))");
        }
        return nsR;
    }

    /** The number of paths. */
    int paths() {
        return paths;
    }

    /** A's IPv4 address on path i. */
    InetAddress a4(int i) {
        checkPath(i);
        return ip(router ? "10.1." + i + ".1" : "10.0." + i + ".1");
    }

    /** Z's IPv4 address on path i. */
    InetAddress z4(int i) {
        checkPath(i);
        return ip(router ? "10.2." + i + ".1" : "10.0." + i + ".2");
    }

    /** A's IPv6 address on path i. */
    InetAddress a6(int i) {
        checkPath(i);
        return ip(router ? "fd01:0:0:" + i + "::1" : "fd00:0:0:" + i + "::1");
    }

    /** Z's IPv6 address on path i. */
    InetAddress z6(int i) {
        checkPath(i);
        return ip(router ? "fd02:0:0:" + i + "::1" : "fd00:0:0:" + i + "::2");
    }

    /** Every IPv4 and IPv6 address of A, path by path. */
    List<InetAddress> addressesA() {
        List<InetAddress> out = new ArrayList<>();
        for (int i = 1; i <= paths; i++) {
            out.add(a4(i));
            out.add(a6(i));
        }
        return out;
    }

    /** Every IPv4 and IPv6 address of Z, path by path. */
    List<InetAddress> addressesZ() {
        List<InetAddress> out = new ArrayList<>();
        for (int i = 1; i <= paths; i++) {
            out.add(z4(i));
            out.add(z6(i));
        }
        return out;
    }

    /** Bytes A has sent on path i's link (its tx counter), for checking where traffic went. */
    long txBytesA(int i) throws IOException {
        checkPath(i);
        return txBytes(nsA, "a" + i);
    }

    private long txBytes(String ns, String dev) throws IOException {
        String out = in(ns, "cat", "/sys/class/net/" + dev + "/statistics/tx_bytes");
        return Long.parseLong(out.strip());
    }

    static InetAddress ip(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(literal, e);
        }
    }

    /** Runs a command inside namespace {@code ns} and returns its output. */
    static String in(String ns, String... command) throws IOException {
        List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", ns));
        c.addAll(List.of(command));
        return run(c.toArray(new String[0]));
    }

    /** Runs a command; returns its output; throws if it fails or takes more than 20 s. */
    static String run(String... command) throws IOException {
        List<String> c = new ArrayList<>(List.of(command));
        String path = tool(c.get(0));
        if (path != null) {
            c.set(0, path);
        }
        Process p = new ProcessBuilder(c).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("timed out: " + String.join(" ", command));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted: " + String.join(" ", command), e);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " exited with " + p.exitValue() + ": " + out.strip());
        }
        return out;
    }

    /** Deletes the namespaces (and with them links, qdiscs and rules); never throws. */
    @Override
    public void close() {
        List<String> all = new ArrayList<>(List.of(nsA, nsZ));
        if (nsR != null) {
            all.add(nsR);
        }
        for (String ns : all) {
            try {
                run("ip", "netns", "delete", ns);
            } catch (IOException | RuntimeException e) {
                // not created, or already gone
            }
        }
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "MultiPathBed[%s %s%s, %d paths, cut %s]",
                nsA,
                nsZ,
                router ? " via " + nsR : "",
                paths,
                cut);
    }
}
