package org.sctpj.tests.interop.kernel;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.sctpj.llp.raw.NetworkNamespace;
import org.sctpj.tests.interop.Llp;
import org.sctpj.tests.interop.Shell;
import org.sctpj.tests.interop.Topology;

/**
 * The topology of a kernel case: the VM's namespace, shared by every case of a run (the VM boots
 * once). We are the host side of its taps (10.99.0.1 and 10.99.1.1, fd99::1 and fd99:1::1), the
 * kernel is the guest (10.99.0.2 and 10.99.1.2, fd99::2 and fd99:1::2); our sockets, raw or UDP,
 * open inside the namespace. Over UDP the guest's encapsulation port is its {@code
 * net.sctp.udp_port} ({@value #GUEST_UDP_PORT}), ours a random one per case.
 *
 * <p>Loss, path cuts and the dropping of the guest's ABORTs (for a restart) are nftables tables in
 * the namespace on the taps, matching SCTP and UDP only (ARP and neighbour discovery pass); {@link
 * #close()} deletes them.
 */
final class KernelTopology implements Topology {
    /** The guest's UDP encapsulation port ({@code sysctl net.sctp.udp_port}). */
    static final int GUEST_UDP_PORT = 9899;

    private final String ns;
    private final Llp llp;
    private final int links;
    private final int ourUdp;
    private final List<String> tables = new ArrayList<>();

    KernelTopology(String ns, Llp llp, boolean multihomed) {
        this.ns = ns;
        this.llp = llp;
        this.links = multihomed ? 2 : 1;
        this.ourUdp = llp == Llp.UDP ? ThreadLocalRandom.current().nextInt(20000, 60000) : 0;
    }

    @Override
    public Llp llp() {
        return llp;
    }

    private List<InetAddress> addresses(int host) {
        List<InetAddress> l = new ArrayList<>();
        for (int k = 0; k < links; k++) {
            String a = llp == Llp.RAW6 ? (k == 0 ? "fd99::" : "fd99:1::") + host : "10.99." + k + "." + host;
            try {
                l.add(InetAddress.getByName(a));
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException(a, e);
            }
        }
        return List.copyOf(l);
    }

    @Override
    public List<InetAddress> ourAddresses() {
        return addresses(1);
    }

    @Override
    public List<InetAddress> peerAddresses() {
        return addresses(2);
    }

    @Override
    public int ourUdpPort() {
        return ourUdp;
    }

    @Override
    public int peerUdpPort() {
        return llp == Llp.UDP ? GUEST_UDP_PORT : 0;
    }

    @Override
    public Optional<Path> ourNamespace() {
        return Optional.of(NetworkNamespace.named(ns));
    }

    /** Empty: the kernel's programs run in the VM, driven through its control port. */
    @Override
    public Optional<String> peerNamespace() {
        return Optional.empty();
    }

    @Override
    public void dropRandomly(int percent) throws IOException {
        String rule = "meta l4proto { sctp, udp } numgen random mod 100 < " + percent + " drop";
        nft("kloss", "iifname \"tap0\" " + rule, "oifname \"tap0\" " + rule);
    }

    @Override
    public void cutPath(int index) throws IOException {
        String dev = "tap" + index;
        nft(
                "kcut" + index,
                "iifname \"" + dev + "\" meta l4proto { sctp, udp } drop",
                "oifname \"" + dev + "\" meta l4proto { sctp, udp } drop");
    }

    @Override
    public void markCe(int percent) throws IOException {
        String rnd = " numgen random mod 100 < " + percent;
        String v4 = "ip ecn ect0" + rnd + " counter ip ecn set ce";
        String v6 = "ip6 ecn ect0" + rnd + " counter ip6 ecn set ce";
        nft(
                "kce",
                "iifname \"tap0\" " + v4 + "\n    iifname \"tap0\" " + v6,
                "oifname \"tap0\" " + v4 + "\n    oifname \"tap0\" " + v6);
    }

    /** Our packets to the guest, at the output hook on tap0 (0: the table goes). */
    @Override
    public void limitMtu(int mtu) throws IOException {
        if (mtu == 0) {
            if (tables.remove("kmtu")) {
                Shell.inNamespace(ns, List.of("nft", "delete", "table", "inet", "kmtu"), null);
            }
            return;
        }
        // as NamespaceTopology#limitMtu: IPv4 with DF clear would be fragmented by the router
        nft(
                "kmtu",
                null,
                "oifname \"tap0\" ip frag-off & 0x4000 != 0 meta length > " + mtu + " drop\n    "
                        + "oifname \"tap0\" meta nfproto ipv6 meta length > " + mtu + " drop");
    }

    /**
     * Drops every packet from the guest whose first chunk is an ABORT (raw, or UDP from its
     * encapsulation port), until {@link #close()}: how the kernel's client vanishes without a word
     * before it restarts (it cannot open a second association from the same address and port, so
     * it aborts the first one and the ABORT never arrives).
     */
    void dropGuestAborts() throws IOException {
        if (tables.contains("kabort")) {
            return;
        }
        nft(
                "kabort",
                "iifname { \"tap0\", \"tap1\" } meta l4proto sctp @th,96,8 6 drop\n    "
                        + "iifname { \"tap0\", \"tap1\" } udp sport " + GUEST_UDP_PORT + " @th,160,8 6 drop",
                null);
    }

    private void nft(String table, String inRule, String outRule) throws IOException {
        StringBuilder r = new StringBuilder();
        // declare, delete and recreate: no stale rules from an earlier case that did not clean up
        r.append("table inet ").append(table).append(" {}\n");
        r.append("delete table inet ").append(table).append('\n');
        r.append("table inet ").append(table).append(" {\n");
        if (inRule != null) {
            r.append("  chain in { type filter hook input priority -10; policy accept;\n    ")
                    .append(inRule)
                    .append("\n  }\n");
        }
        if (outRule != null) {
            r.append("  chain out { type filter hook output priority -10; policy accept;\n    ")
                    .append(outRule)
                    .append("\n  }\n");
        }
        r.append("}\n");
        Shell.inNamespace(ns, List.of("nft", "-f", "-"), r.toString());
        if (!tables.contains(table)) {
            tables.add(table);
        }
    }

    @Override
    public void close() {
        for (String t : tables) {
            try {
                Shell.inNamespace(ns, List.of("nft", "delete", "table", "inet", t), null);
            } catch (IOException e) {
                // gone already
            }
        }
        tables.clear();
    }
}
