package org.sctpj.tests.interop;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * UDP encapsulation on 127.0.0.1: both stacks on the loopback interface, told apart by their UDP
 * ports (free ones, picked per case). Random loss is an nftables table of its own in the host's
 * namespace matching only these two ports (needs root), deleted on close.
 */
final class LoopbackTopology implements Topology {
    private static final InetAddress LO = InetAddress.getLoopbackAddress();

    private final int ourUdp;
    private final int peerUdp;
    private String table;

    private LoopbackTopology(int ourUdp, int peerUdp) {
        this.ourUdp = ourUdp;
        this.peerUdp = peerUdp;
    }

    static LoopbackTopology create() throws IOException {
        // Both picked while both sockets are open, so they differ.
        try (DatagramSocket a = new DatagramSocket(new InetSocketAddress(LO, 0));
                DatagramSocket b = new DatagramSocket(new InetSocketAddress(LO, 0))) {
            return new LoopbackTopology(a.getLocalPort(), b.getLocalPort());
        }
    }

    @Override
    public Llp llp() {
        return Llp.UDP;
    }

    @Override
    public List<InetAddress> ourAddresses() {
        return List.of(LO);
    }

    @Override
    public List<InetAddress> peerAddresses() {
        return List.of(LO);
    }

    @Override
    public int ourUdpPort() {
        return ourUdp;
    }

    @Override
    public int peerUdpPort() {
        return peerUdp;
    }

    @Override
    public Optional<Path> ourNamespace() {
        return Optional.empty();
    }

    @Override
    public Optional<String> peerNamespace() {
        return Optional.empty();
    }

    @Override
    public void dropRandomly(int percent) throws IOException {
        table = "sctpj_loss_" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);
        // On loopback every datagram passes the input hook once: one rule covers both directions.
        String rules = "table inet " + table + " {\n"
                + "  chain in { type filter hook input priority -10; policy accept;\n"
                + "    iifname \"lo\" udp dport { " + ourUdp + ", " + peerUdp + " } numgen random mod 100 < "
                + percent + " drop\n"
                + "  }\n"
                + "}\n";
        Shell.run(List.of("nft", "-f", "-"), rules);
    }

    /** Tables of {@link #markCe} and {@link #limitMtu}, deleted on close. */
    private final java.util.Map<String, String> featureTables = new java.util.HashMap<>();

    private void replace(String kind, String inputRules) throws IOException {
        String old = featureTables.remove(kind);
        if (old != null) {
            Shell.run("nft", "delete", "table", "inet", old);
        }
        if (inputRules == null) {
            return;
        }
        String t = "sctpj_" + kind + "_"
                + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);
        Shell.run(
                List.of("nft", "-f", "-"),
                "table inet " + t + " {\n  chain in { type filter hook input priority -10; policy accept;\n"
                        + inputRules + "  }\n}\n");
        featureTables.put(kind, t);
    }

    @Override
    public void markCe(int percent) throws IOException {
        String match = "iifname \"lo\" udp dport { " + ourUdp + ", " + peerUdp + " } ";
        String rnd = " numgen random mod 100 < " + percent;
        replace(
                "ce",
                "    " + match + "ip ecn ect0" + rnd + " counter ip ecn set ce\n" + "    " + match + "ip6 ecn ect0"
                        + rnd + " counter ip6 ecn set ce\n");
    }

    @Override
    public void limitMtu(int mtu) throws IOException {
        replace(
                "mtu",
                mtu == 0 ? null : "    iifname \"lo\" udp dport " + peerUdp + " meta length > " + mtu + " drop\n");
    }

    /** Loopback's MTU is 65536: a limit lifted is a link raised; {@link #limitMtu} does both. */
    @Override
    public Optional<String> raiseLinkMtu(int mtu) throws IOException {
        limitMtu(0);
        return Optional.empty();
    }

    @Override
    public void cutPath(int index) {
        throw new UnsupportedOperationException("one loopback path only over UDP");
    }

    @Override
    public void close() {
        for (String t : featureTables.values()) {
            try {
                Shell.run("nft", "delete", "table", "inet", t);
            } catch (IOException e) {
                // already gone
            }
        }
        featureTables.clear();
        if (table != null) {
            try {
                Shell.run("nft", "delete", "table", "inet", table);
            } catch (IOException e) {
                // already gone
            }
            table = null;
        }
    }
}
