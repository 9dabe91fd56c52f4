package org.sctpj.stack.addr;

import java.net.InetAddress;
import java.util.List;

/**
 * The namespace topologies of issue 7 described as data, for the selector's unit tests now and
 * for the network-namespace tests later (same names, same addresses).
 *
 * <ul>
 *   <li><b>Dual-stack</b>: hosts A and B on two links; link 1 carries 198.51.100.0/24 and
 *       2001:db8:1::/64, link 2 carries 203.0.113.0/24 and 2001:db8:2::/64.
 *   <li><b>Two private-only clusters with colliding addresses</b>: X and Y both number their
 *       LAN 10.0.0.0/24 from .1 upwards (x1 = y1 = 10.0.0.1, x2 = y2 = 10.0.0.2); Y also has
 *       y3 = 10.0.0.3, which X does not use.
 *   <li><b>IPv6 between clusters, private IPv4 inside each</b>: every host has eth0 on its
 *       cluster LAN (10.0.0.0/24, same numbering in both clusters) and eth1 on its cluster's IPv6
 *       uplink (X: 2001:db8:10::/64, Y: 2001:db8:20::/64).
 * </ul>
 */
final class Topologies {
    private Topologies() {}

    static InetAddress ip(String literal) {
        return Literals.parse(literal);
    }

    /** All configured addresses of a host, in order: what it publishes. */
    static List<InetAddress> published(List<LocalInterface> host) {
        return host.stream()
                .flatMap(i -> i.addresses().stream())
                .map(LocalInterface.Address::address)
                .toList();
    }

    /**
     * The host as a remote peer sees it: per interface, the addresses the default selector
     * announces to a remote peer (no prefixes); interfaces left empty are dropped.
     */
    static List<PeerInterface> asPeer(List<LocalInterface> host) {
        List<InetAddress> announced = DefaultAddressSelector.INSTANCE.announce(host, java.util.Optional.empty());
        return host.stream()
                .map(i -> new PeerInterface(
                        i.name(),
                        i.addresses().stream()
                                .map(LocalInterface.Address::address)
                                .filter(announced::contains)
                                .toList()))
                .filter(p -> !p.addresses().isEmpty())
                .toList();
    }

    /** The addresses a remote peer learns from the host's INIT, in order. */
    static List<InetAddress> announced(List<LocalInterface> host) {
        return DefaultAddressSelector.INSTANCE.announce(host, java.util.Optional.empty());
    }

    // --- dual-stack ---
    static final List<LocalInterface> DUAL_A = List.of(
            LocalInterface.of("lo", "127.0.0.1/8", "::1/128"),
            LocalInterface.of("eth0", "198.51.100.1/24", "2001:db8:1::1/64", "fe80::a1/64"),
            LocalInterface.of("eth1", "203.0.113.1/24", "2001:db8:2::1/64", "fe80::a2/64"));
    static final List<LocalInterface> DUAL_B = List.of(
            LocalInterface.of("lo", "127.0.0.1/8", "::1/128"),
            LocalInterface.of("eth0", "198.51.100.2/24", "2001:db8:1::2/64", "fe80::b1/64"),
            LocalInterface.of("eth1", "203.0.113.2/24", "2001:db8:2::2/64", "fe80::b2/64"));

    // --- private-only clusters with colliding addresses ---
    static final List<LocalInterface> PRIV_X1 = List.of(LocalInterface.of("eth0", "10.0.0.1/24"));
    static final List<LocalInterface> PRIV_X2 = List.of(LocalInterface.of("eth0", "10.0.0.2/24"));
    static final List<LocalInterface> PRIV_Y1 = List.of(LocalInterface.of("eth0", "10.0.0.1/24"));
    static final List<LocalInterface> PRIV_Y2 = List.of(LocalInterface.of("eth0", "10.0.0.2/24"));
    static final List<LocalInterface> PRIV_Y3 = List.of(LocalInterface.of("eth0", "10.0.0.3/24"));

    // --- IPv6 between clusters, private IPv4 inside each ---
    static final List<LocalInterface> V6_X1 =
            List.of(LocalInterface.of("eth0", "10.0.0.1/24"), LocalInterface.of("eth1", "2001:db8:10::1/64"));
    static final List<LocalInterface> V6_X2 =
            List.of(LocalInterface.of("eth0", "10.0.0.2/24"), LocalInterface.of("eth1", "2001:db8:10::2/64"));
    static final List<LocalInterface> V6_Y1 =
            List.of(LocalInterface.of("eth0", "10.0.0.1/24"), LocalInterface.of("eth1", "2001:db8:20::1/64"));
    static final List<LocalInterface> V6_Y2 =
            List.of(LocalInterface.of("eth0", "10.0.0.2/24"), LocalInterface.of("eth1", "2001:db8:20::2/64"));
}
