package org.sctpj.tests.interop;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.sctpj.llp.raw.IcmpGuard;
import org.sctpj.llp.raw.NetworkNamespace;

/**
 * Two fresh network namespaces with random names, ours ({@code sctpj-iu-HEX-o}) and the peer's
 * ({@code sctpj-iu-HEX-p}), joined by one veth pair ({@code io1}/{@code ip1}: 10.201.1.0/24,
 * fd00:201:1::/64), or two when multihomed ({@code io2}/{@code ip2}: 10.201.2.0/24,
 * fd00:201:2::/64). We are .1/::1, the peer .2/::2 on each link. Over UDP encapsulation (the
 * multihomed UDP topology, for usrsctp: loopback cannot give a second address without changing the
 * host's {@code lo}) both sides use IPv4 and UDP port {@value #UDP_PORT}, each in its own
 * namespace, on one link: we have 10.201.1.1 and 10.201.2.1 on {@code io1}, the peer only
 * 10.201.1.2 (with a route to 10.201.2.0/24 on {@code ip1}). usrsctp over UDP cannot choose its
 * packets' source address (one wildcard UDP socket: the kernel's route picks it), so a second
 * address of its own would be the source of packets its association does not know. Random loss is nftables rules
 * at the input hook of the receiving namespace (see {@link #dropRandomly}); path cuts are rules in
 * the peer's namespace on its end of the veth. Deleting the namespaces removes everything.
 */
final class NamespaceTopology implements Topology {
    /** Both sides' UDP encapsulation port over UDP (IANA's, RFC 6951): each namespace has its own. */
    static final int UDP_PORT = 9899;

    private final Llp llp;
    private final String ours;
    private final String peers;
    private final int links;
    /** UDP, multihomed: our second address on link 1, the peer single-homed (see the class doc). */
    private final boolean udpSecond;

    private NamespaceTopology(Llp llp, String ours, String peers, int links, boolean udpSecond) {
        this.llp = llp;
        this.ours = ours;
        this.peers = peers;
        this.links = links;
        this.udpSecond = udpSecond;
    }

    static NamespaceTopology create(Llp llp, boolean multihomed) throws IOException {
        String hex = Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);
        boolean udpSecond = llp == Llp.UDP && multihomed;
        NamespaceTopology t = new NamespaceTopology(
                llp, "sctpj-iu-" + hex + "-o", "sctpj-iu-" + hex + "-p", multihomed && !udpSecond ? 2 : 1, udpSecond);
        try {
            Shell.run("ip", "netns", "add", t.ours);
            Shell.run("ip", "netns", "add", t.peers);
            StringBuilder o = new StringBuilder("link set lo up\n");
            StringBuilder p = new StringBuilder("link set lo up\n");
            for (int k = 1; k <= t.links; k++) {
                Shell.run(
                        "ip", "link", "add", "io" + k, "netns", t.ours, "type", "veth", "peer", "name", "ip" + k,
                        "netns", t.peers);
                o.append("addr add 10.201.")
                        .append(k)
                        .append(".1/24 dev io")
                        .append(k)
                        .append('\n');
                o.append("addr add fd00:201:")
                        .append(k)
                        .append("::1/64 dev io")
                        .append(k)
                        .append(" nodad\n");
                o.append("link set io").append(k).append(" up\n");
                p.append("addr add 10.201.")
                        .append(k)
                        .append(".2/24 dev ip")
                        .append(k)
                        .append('\n');
                p.append("addr add fd00:201:")
                        .append(k)
                        .append("::2/64 dev ip")
                        .append(k)
                        .append(" nodad\n");
                p.append("link set ip").append(k).append(" up\n");
            }
            if (udpSecond) {
                o.append("addr add 10.201.2.1/24 dev io1\n");
                p.append("route add 10.201.2.0/24 dev ip1\n");
            }
            Shell.run(List.of("ip", "-n", t.ours, "-batch", "-"), o.toString());
            Shell.run(List.of("ip", "-n", t.peers, "-batch", "-"), p.toString());
            // Both namespaces stand for hosts without kernel SCTP, whose raw SCTP sockets (ours,
            // usrsctp's) may overflow: keep their kernels from answering the dropped packets with
            // Protocol Unreachable, which the other side must take as an ABORT (RFC 9260 appendix
            // C, ICMP8), as llp-raw's README tells operators to.
            for (String ns : List.of(t.ours, t.peers)) {
                Shell.inNamespace(ns, List.of("nft", "-f", "-"), IcmpGuard.script("sctpj_icmp"));
            }
            return t;
        } catch (IOException | RuntimeException e) {
            t.close();
            throw e;
        }
    }

    @Override
    public Llp llp() {
        return llp;
    }

    private List<InetAddress> addresses(int host) {
        List<InetAddress> l = new ArrayList<>();
        if (udpSecond) {
            l.add(address("10.201.1." + host));
            if (host == 1) {
                l.add(address("10.201.2.1"));
            }
            return List.copyOf(l);
        }
        for (int k = 1; k <= links; k++) {
            l.add(address(llp == Llp.RAW6 ? "fd00:201:" + k + "::" + host : "10.201." + k + "." + host)); // UDP: IPv4
        }
        return List.copyOf(l);
    }

    private static InetAddress address(String s) {
        try {
            return InetAddress.getByName(s);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(s, e);
        }
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
        return llp == Llp.UDP ? UDP_PORT : 0;
    }

    @Override
    public int peerUdpPort() {
        return llp == Llp.UDP ? UDP_PORT : 0;
    }

    @Override
    public Optional<Path> ourNamespace() {
        return Optional.of(NetworkNamespace.named(ours));
    }

    @Override
    public Optional<String> peerNamespace() {
        return Optional.of(peers);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Both directions are dropped where the packets arrive: ours at the input hook of the peer's
     * namespace, the peer's at the input hook of ours. A drop at the sender's own output hook is no
     * loss: the kernel fails that {@code sendmsg} with EPERM, and usrsctp over raw IP then keeps the
     * chunks queued as never sent and sends them again at once (a packet that leaves and is lost on
     * the way is what PR-SCTP must see, or nothing is ever abandoned).
     *
     * <p>Here the peer's first SHUTDOWN COMPLETE is lost as well, every time (the quota covers one
     * such IPv4 or IPv6 packet, not two): whoever sent the SHUTDOWN ACK must then retransmit it and
     * get the answer to an out-of-the-blue SHUTDOWN ACK (RFC 9260 section 8.4, rule 5). Random loss
     * alone hit that path in about one run in twenty.
     */
    @Override
    public void dropRandomly(int percent) throws IOException {
        String rule = "numgen random mod 100 < " + percent + " drop";
        String firstShutdownComplete = "sctp chunk shutdown-complete exists quota until 60 bytes drop";
        Shell.inNamespace(peers, List.of("nft", "-f", "-"), inputRules("loss", "iifname \"ip1\" " + rule));
        Shell.inNamespace(
                ours,
                List.of("nft", "-f", "-"),
                inputRules("loss", "iifname \"io1\" " + firstShutdownComplete + "\n    iifname \"io1\" " + rule));
    }

    @Override
    public void markCe(int percent) throws IOException {
        String rnd = " numgen random mod 100 < " + percent;
        for (String[] side : List.of(new String[] {peers, "ip1"}, new String[] {ours, "io1"})) {
            String m = "iifname \"" + side[1] + "\" ";
            Shell.inNamespace(
                    side[0],
                    List.of("nft", "-f", "-"),
                    inputRules(
                            "ce",
                            m + "ip ecn ect0" + rnd + " counter ip ecn set ce\n    " + m + "ip6 ecn ect0" + rnd
                                    + " counter ip6 ecn set ce"));
        }
    }

    /**
     * Where our packets arrive: the input hook of the peer's namespace on its end of link 1. A
     * router on a path of that MTU: IPv4 packets with DF set and all IPv6 packets longer are lost
     * without a word (IPv4 ones with DF clear it would fragment: they pass).
     */
    @Override
    public void limitMtu(int mtu) throws IOException {
        String script = "table inet mtu {}\ndelete table inet mtu\n"
                + (mtu == 0
                        ? ""
                        : inputRules(
                                "mtu",
                                // IPv4: a router fragments what has DF clear, so only DF packets
                                // are lost; IPv6: routers never fragment
                                "iifname \"ip1\" ip frag-off & 0x4000 != 0 meta length > " + mtu + " drop\n"
                                        + "    iifname \"ip1\" meta nfproto ipv6 meta length > " + mtu
                                        + " drop"));
        Shell.inNamespace(peers, List.of("nft", "-f", "-"), script);
    }

    @Override
    public Optional<String> raiseLinkMtu(int mtu) throws IOException {
        Shell.run("ip", "-n", ours, "link", "set", "io1", "mtu", String.valueOf(mtu));
        Shell.run("ip", "-n", peers, "link", "set", "ip1", "mtu", String.valueOf(mtu));
        return Optional.empty();
    }

    private static String inputRules(String table, String rule) {
        return "table inet " + table + " {\n"
                + "  chain in { type filter hook input priority 0; policy accept;\n    " + rule + "\n  }\n"
                + "}\n";
    }

    @Override
    public void cutPath(int index) throws IOException {
        String dev = "ip" + (index + 1);
        nft("cut" + index, "iifname \"" + dev + "\" drop", "oifname \"" + dev + "\" drop");
    }

    private void nft(String table, String inRule, String outRule) throws IOException {
        String rules = "table inet " + table + " {\n"
                + "  chain in { type filter hook input priority 0; policy accept;\n    " + inRule + "\n  }\n"
                + "  chain out { type filter hook output priority 0; policy accept;\n    " + outRule + "\n  }\n"
                + "}\n";
        Shell.inNamespace(peers, List.of("nft", "-f", "-"), rules);
    }

    @Override
    public void close() {
        for (String ns : List.of(ours, peers)) {
            try {
                Shell.run("ip", "netns", "delete", ns);
            } catch (IOException e) {
                // not created, or gone already
            }
        }
    }
}
