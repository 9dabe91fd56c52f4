package org.sctpj.llp.raw;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An nftables table that keeps a host without kernel SCTP from answering inbound SCTP packets with
 * ICMP Protocol Unreachable (IPv4) or ICMPv6 Parameter Problem, Unrecognized Next Header (IPv6):
 * a peer takes those as an ABORT (RFC 9260 appendix C, ICMP8), which ends an association this
 * stack, reading the same packets through its raw socket, is serving. Installed by {@link
 * RawIpLowerLayer.Builder#suppressProtocolUnreachable} and deleted when the layer closes; its
 * rules are {@link #script}, which the README also gives for installing by hand (and test beds
 * install in the namespaces that stand for hosts without kernel SCTP).
 */
public final class IcmpGuard {

    private static final AtomicInteger NEXT = new AtomicInteger();

    private final String table;
    private final Path namespace;

    private IcmpGuard(String table, Path namespace) {
        this.table = table;
        this.namespace = namespace;
    }

    /**
     * The nft script creating {@code table} (family inet): on output, drop an ICMP Destination
     * Unreachable code 2 whose quoted IPv4 header's protocol (byte 9 after the 8-byte ICMP header:
     * bits 136 to 143 of the transport header) is 132, and an ICMPv6 Parameter Problem code 1 whose
     * quoted IPv6 header's Next Header (byte 6 after the ICMPv6 header: bits 112 to 119) is 132.
     */
    public static String script(String table) {
        return "table inet " + table + " {\n"
                + "  chain output {\n"
                + "    type filter hook output priority 0; policy accept;\n"
                + "    meta l4proto icmp icmp type destination-unreachable icmp code 2 @th,136,8 132 drop\n"
                + "    meta l4proto ipv6-icmp icmpv6 type parameter-problem icmpv6 code 1 @th,112,8 132 drop\n"
                + "  }\n"
                + "}\n";
    }

    /** The table's name. */
    String table() {
        return table;
    }

    /** Installs a new table in the namespace file's network namespace, or the current one (null). */
    static IcmpGuard install(Path namespace) throws IOException {
        String table = "sctpj_icmp_" + ProcessHandle.current().pid() + "_" + NEXT.incrementAndGet();
        IcmpGuard g = new IcmpGuard(table, namespace);
        g.nft(script(table), "install the nftables table that keeps Protocol Unreachable in");
        return g;
    }

    /** Deletes the table; a failure is ignored (the namespace may be gone already). */
    void remove() {
        try {
            nft("delete table inet " + table + "\n", "delete the nftables table " + table);
        } catch (IOException e) {
            // nothing left to undo: the table or its namespace is gone
        }
    }

    private void nft(String script, String what) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (namespace != null) {
            cmd.add("nsenter");
            cmd.add("--net=" + namespace);
        }
        cmd.add("nft");
        cmd.add("-f");
        cmd.add("-");
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IOException(
                    "cannot " + what + ": " + e.getMessage()
                            + " (needs the nft program of nftables; or install the rule by hand, see llp-raw's README, and"
                            + " leave suppressProtocolUnreachable off)",
                    e);
        }
        p.getOutputStream().write(script.getBytes(StandardCharsets.US_ASCII));
        p.getOutputStream().close();
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
        try {
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("cannot " + what + ": nft did not finish within 20 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while trying to " + what, e);
        }
        if (p.exitValue() != 0) {
            throw new IOException("cannot " + what + ": nft exited with " + p.exitValue() + ": " + out
                    + " (it needs CAP_NET_ADMIN: run as root)");
        }
    }
}
