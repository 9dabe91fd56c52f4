package org.sctpj.tests.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sctpj.llp.raw.Interfaces;
import org.sctpj.llp.raw.NetworkNamespace;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.addr.AddressClass;
import org.sctpj.stack.addr.AddressPolicy;
import org.sctpj.stack.addr.CollisionInfo;
import org.sctpj.stack.addr.DefaultAddressSelector;
import org.sctpj.stack.addr.LocalInterface;
import org.sctpj.stack.addr.PathPair;
import org.sctpj.stack.addr.PeerInterface;

/**
 * Address selection on real interfaces (issue 7 item 3, SEEDS section 5): the topologies of the
 * core's unit tests built in network namespaces; each host's interfaces discovered with {@link
 * Interfaces} inside its namespace, the default selector's choices checked, and an association
 * established with them through the real stack (raw IP).
 */
class AddressSelectionNamespacesTest {
    static final int PORT = 7100;
    static final AddressSelectorCheck SEL = new AddressSelectorCheck();

    static SctpOptions options() {
        return SctpOptions.LAN.toBuilder()
                .rtoInitial(Duration.ofMillis(200))
                .rtoMin(Duration.ofMillis(50))
                .rtoMax(Duration.ofMillis(400))
                .heartbeatInterval(Duration.ofMillis(200))
                .build();
    }

    /** Shorthands over the default selector. */
    static final class AddressSelectorCheck {
        List<InetAddress> announce(List<LocalInterface> host) {
            return DefaultAddressSelector.INSTANCE.announce(host, Optional.empty());
        }
    }

    static InetAddress ip(String s) {
        return MultiPathBed.ip(s);
    }

    static List<InetAddress> published(List<LocalInterface> host) {
        return host.stream()
                .flatMap(i -> i.addresses().stream())
                .filter(a -> a.addressClass() != AddressClass.LOOPBACK && a.addressClass() != AddressClass.LINK_LOCAL)
                .map(LocalInterface.Address::address)
                .toList();
    }

    /** Sends a few messages A to Z over the association and checks they arrive. */
    static void exchange(NetnsHost a, AssociationId id, NetnsHost z) throws InterruptedException {
        for (int i = 0; i < 20; i++) {
            byte[] m = ("message " + i).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            assertEquals(
                    SendStatus.ACCEPTED,
                    a.call(ep -> ep.send(id, SendInfo.DEFAULT, ByteBuffer.wrap(m), a.thread.now())));
        }
        for (int i = 0; i < 20; i++) {
            SctpEvent e;
            do {
                e = z.events.poll(5, TimeUnit.SECONDS);
                if (e == null) {
                    throw new AssertionError("message " + i + " did not arrive");
                }
            } while (!(e instanceof SctpEvent.MessageReceived));
            assertEquals(
                    "message " + i,
                    new String(((SctpEvent.MessageReceived) e).data(), java.nio.charset.StandardCharsets.US_ASCII));
        }
    }

    static void awaitConfirmed(NetnsHost a, AssociationId id) throws InterruptedException {
        a.awaitTrue(
                ep -> ep.info(id).orElseThrow().paths().stream()
                        .allMatch(p -> p.status().equals("ACTIVE")),
                5_000,
                "every path confirmed");
    }

    /**
     * Dual-stack: A and B on two links; link 1 carries 198.51.100.0/24 and 2001:db8:1::/64, link 2
     * 203.0.113.0/24 and 2001:db8:2::/64 (documentation blocks, treated as public). Loopback and the
     * kernel's link-local addresses are there too and must not be announced or used.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void dualStackUsesOnePathPerLinkAndAnnouncesNoLoopbackOrLinkLocal() throws Exception {
        MultiPathBed.require();
        try (Topology t = new Topology()) {
            t.host("A", false).host("B", false);
            t.link("A", "eth0", "B", "eth0").link("A", "eth1", "B", "eth1");
            t.addr("A", "eth0", "198.51.100.1/24", "2001:db8:1::1/64");
            t.addr("A", "eth1", "203.0.113.1/24", "2001:db8:2::1/64");
            t.addr("B", "eth0", "198.51.100.2/24", "2001:db8:1::2/64");
            t.addr("B", "eth1", "203.0.113.2/24", "2001:db8:2::2/64");
            t.awaitCarrier();
            List<LocalInterface> a = NetworkNamespace.call(t.file("A"), Interfaces::localInterfaces);
            List<LocalInterface> b = NetworkNamespace.call(t.file("B"), Interfaces::localInterfaces);
            List<InetAddress> announcedB = SEL.announce(b);
            assertEquals(
                    List.of(ip("198.51.100.2"), ip("2001:db8:1::2"), ip("203.0.113.2"), ip("2001:db8:2::2")),
                    announcedB.stream()
                            .sorted(java.util.Comparator.comparing(InetAddress::getHostAddress))
                            .toList()
                            .stream()
                            .sorted((x, y) -> Integer.compare(order(x), order(y)))
                            .toList(),
                    "no loopback, no link-local: " + announcedB);
            List<PathPair> pairs = DefaultAddressSelector.INSTANCE.pairPaths(a, PeerInterface.eachAddress(announcedB));
            System.out.println("dual-stack pairs: " + pairs);
            assertEquals(2, pairs.size(), pairs.toString());
            assertEquals(
                    java.util.Set.of("eth0", "eth1"),
                    java.util.Set.of(pairs.get(0).localInterface(), pairs.get(1).localInterface()));
            for (PathPair p : pairs) {
                assertTrue(p.weight().name().equals("PUBLIC_SAME_NETWORK"), p.toString());
            }

            try (NetnsHost z = NetnsHost.start("B", t.file("B"), PORT, options(), true, AddressPolicy::of);
                    NetnsHost h = NetnsHost.start("A", t.file("A"), PORT, options(), false, AddressPolicy::of)) {
                AssociationId id = h.connect(List.of(ip("198.51.100.2")), PORT);
                h.await(SctpEvent.AssociationChangeType.COMMUNICATION_UP, 5_000);
                awaitConfirmed(h, id);
                AssociationInfo info = h.info(id);
                System.out.println("dual-stack association: " + info.paths());
                assertEquals(ip("198.51.100.2"), info.primary());
                assertEquals(4, info.paths().size(), info.paths().toString());
                long inSet = info.paths().stream()
                        .filter(AssociationInfo.PathInfo::inCmtSet)
                        .count();
                assertEquals(2, inSet, "one CMT path per link");
                for (AssociationInfo.PathInfo p : info.paths()) {
                    assertFalse(p.address().isLinkLocalAddress() || p.address().isLoopbackAddress(), p.toString());
                    assertTrue(sameLink(p.source(), p.address()), "source on the destination's link: " + p);
                }
                exchange(h, id, z);
            }
        }
    }

    private static int order(InetAddress a) {
        String s = a.getHostAddress();
        return s.startsWith("198.") ? 0 : s.startsWith("2001:db8:1:") ? 1 : s.startsWith("203.") ? 2 : 3;
    }

    private static boolean sameLink(InetAddress src, InetAddress dst) {
        String s = src.getHostAddress();
        String d = dst.getHostAddress();
        if (s.contains(":")) {
            return s.substring(0, s.lastIndexOf(':')).equals(d.substring(0, d.lastIndexOf(':')));
        }
        return s.substring(0, s.lastIndexOf('.')).equals(d.substring(0, d.lastIndexOf('.')));
    }

    /**
     * Two private-only clusters X and Y that number their LANs alike (x1 = y1 = 10.0.0.1, x2 = y2 =
     * 10.0.0.2). For a job spanning both, the collision check finds 10.0.0.1 and 10.0.0.2 ambiguous
     * and x1 refuses to connect to y2's address (it would reach x2); for a job inside X the LAN is
     * trusted and x1 reaches x2.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void privateOnlyClustersWithCollidingAddresses() throws Exception {
        MultiPathBed.require();
        try (Topology t = new Topology()) {
            t.host("x1", false).host("x2", false).host("y1", false).host("y2", false);
            t.link("x1", "eth0", "x2", "eth0").link("y1", "eth0", "y2", "eth0");
            t.addr("x1", "eth0", "10.0.0.1/24").addr("x2", "eth0", "10.0.0.2/24");
            t.addr("y1", "eth0", "10.0.0.1/24").addr("y2", "eth0", "10.0.0.2/24");
            t.awaitCarrier();
            List<LocalInterface> x1 = NetworkNamespace.call(t.file("x1"), Interfaces::localInterfaces);
            List<LocalInterface> x2 = NetworkNamespace.call(t.file("x2"), Interfaces::localInterfaces);
            List<LocalInterface> y1 = NetworkNamespace.call(t.file("y1"), Interfaces::localInterfaces);
            List<LocalInterface> y2 = NetworkNamespace.call(t.file("y2"), Interfaces::localInterfaces);
            CollisionInfo spanning =
                    CollisionInfo.detect(List.of(published(x1), published(x2), published(y1), published(y2)));
            CollisionInfo xOnly = CollisionInfo.detect(List.of(published(x1), published(x2)));
            assertEquals(java.util.Set.of(ip("10.0.0.1"), ip("10.0.0.2")), spanning.colliding());
            assertEquals(CollisionInfo.NONE, xOnly);
            assertEquals(
                    List.of(),
                    DefaultAddressSelector.INSTANCE.rankPeer(x1, SEL.announce(y2), spanning),
                    "y2's 10.0.0.2 is ambiguous across the clusters");

            try (NetnsHost server = NetnsHost.start("x2", t.file("x2"), PORT, options(), true, AddressPolicy::of);
                    NetnsHost spanningClient = NetnsHost.start(
                            "x1",
                            t.file("x1"),
                            PORT,
                            options(),
                            false,
                            itf -> new AddressPolicy(itf, DefaultAddressSelector.INSTANCE, spanning))) {
                IllegalArgumentException e = assertThrows(
                        IllegalArgumentException.class, () -> spanningClient.connect(List.of(ip("10.0.0.2")), PORT));
                System.out.println("x1 to y2's 10.0.0.2 with the spanning collision check: " + e.getMessage());
            }
            try (NetnsHost server = NetnsHost.start("x2", t.file("x2"), PORT + 1, options(), true, AddressPolicy::of);
                    NetnsHost client = NetnsHost.start(
                            "x1",
                            t.file("x1"),
                            PORT + 1,
                            options(),
                            false,
                            itf -> new AddressPolicy(itf, DefaultAddressSelector.INSTANCE, xOnly))) {
                AssociationId id = client.connect(List.of(ip("10.0.0.2")), PORT + 1);
                client.await(SctpEvent.AssociationChangeType.COMMUNICATION_UP, 5_000);
                AssociationInfo info = client.info(id);
                assertEquals(
                        List.of(ip("10.0.0.2")),
                        info.paths().stream()
                                .map(AssociationInfo.PathInfo::address)
                                .toList());
                assertEquals(ip("10.0.0.1"), info.paths().get(0).source());
                exchange(client, id, server);
            }
        }
    }

    /**
     * IPv6 between clusters, private IPv4 inside each: every host has eth0 on its cluster LAN
     * (10.0.0.0/24, same numbering in both clusters) and eth1 on its cluster's IPv6 uplink (X:
     * 2001:db8:10::/64, Y: 2001:db8:20::/64), the uplinks bridged in a router namespace that routes
     * between them. Across the clusters only IPv6 is used; inside X both, IPv6 as primary.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void ipv6BetweenClustersPrivateIpv4Inside() throws Exception {
        MultiPathBed.require();
        try (Topology t = new Topology()) {
            t.host("x1", false).host("x2", false).host("y1", false).host("r", true);
            t.link("x1", "eth0", "x2", "eth0");
            t.link("x1", "eth1", "r", "rx1").link("x2", "eth1", "r", "rx2").link("y1", "eth1", "r", "ry1");
            t.bridge("r", "brx", "rx1", "rx2").bridge("r", "bry", "ry1");
            t.addr("r", "brx", "2001:db8:10::fe/64").addr("r", "bry", "2001:db8:20::fe/64");
            t.addr("x1", "eth0", "10.0.0.1/24").addr("x1", "eth1", "2001:db8:10::1/64");
            t.addr("x2", "eth0", "10.0.0.2/24").addr("x2", "eth1", "2001:db8:10::2/64");
            t.addr("y1", "eth1", "2001:db8:20::1/64");
            // y1's cluster LAN: a link to nowhere (y2 is not needed) carrying the colliding address.
            t.host("y2", false).link("y1", "eth0", "y2", "eth0").addr("y1", "eth0", "10.0.0.1/24");
            t.addr("y2", "eth0", "10.0.0.2/24");
            t.route("x1", "2001:db8:20::/64", "2001:db8:10::fe");
            t.route("x2", "2001:db8:20::/64", "2001:db8:10::fe");
            t.route("y1", "2001:db8:10::/64", "2001:db8:20::fe");
            t.awaitCarrier();
            List<LocalInterface> x1 = NetworkNamespace.call(t.file("x1"), Interfaces::localInterfaces);
            List<LocalInterface> x2 = NetworkNamespace.call(t.file("x2"), Interfaces::localInterfaces);
            List<LocalInterface> y1 = NetworkNamespace.call(t.file("y1"), Interfaces::localInterfaces);
            List<LocalInterface> y2 = NetworkNamespace.call(t.file("y2"), Interfaces::localInterfaces);
            CollisionInfo spanning =
                    CollisionInfo.detect(List.of(published(x1), published(x2), published(y1), published(y2)));
            CollisionInfo xOnly = CollisionInfo.detect(List.of(published(x1), published(x2)));
            assertEquals(
                    List.of(ip("2001:db8:20::1")),
                    DefaultAddressSelector.INSTANCE.rankPeer(x1, SEL.announce(y1), spanning));

            // Across the clusters: x1 is told y1's full list; only IPv6 is used, through the router.
            try (NetnsHost y = NetnsHost.start(
                            "y1",
                            t.file("y1"),
                            PORT,
                            options(),
                            true,
                            itf -> new AddressPolicy(itf, DefaultAddressSelector.INSTANCE, spanning));
                    NetnsHost x = NetnsHost.start(
                            "x1",
                            t.file("x1"),
                            PORT,
                            options(),
                            false,
                            itf -> new AddressPolicy(itf, DefaultAddressSelector.INSTANCE, spanning))) {
                AssociationId id = x.connect(List.of(ip("10.0.0.1"), ip("2001:db8:20::1")), PORT);
                x.await(SctpEvent.AssociationChangeType.COMMUNICATION_UP, 5_000);
                AssociationInfo info = x.info(id);
                System.out.println("x1 to y1 across the clusters: " + info.paths());
                assertEquals(
                        List.of(ip("2001:db8:20::1")),
                        info.paths().stream()
                                .map(AssociationInfo.PathInfo::address)
                                .toList());
                assertEquals(ip("2001:db8:10::1"), info.paths().get(0).source());
                exchange(x, id, y);
                AssociationInfo atY = y.info(y.firstAssociation());
                assertTrue(
                        atY.paths().stream().noneMatch(p -> p.address().equals(ip("10.0.0.1"))),
                        "y1 does not use x1's ambiguous 10.0.0.1 either: " + atY.paths());
            }
            // Inside X for a job in X only: IPv6 primary plus the private LAN, both CMT paths.
            try (NetnsHost server = NetnsHost.start(
                            "x2",
                            t.file("x2"),
                            PORT + 1,
                            options(),
                            true,
                            itf -> new AddressPolicy(itf, DefaultAddressSelector.INSTANCE, xOnly));
                    NetnsHost client = NetnsHost.start(
                            "x1",
                            t.file("x1"),
                            PORT + 1,
                            options(),
                            false,
                            itf -> new AddressPolicy(itf, DefaultAddressSelector.INSTANCE, xOnly))) {
                AssociationId id = client.connect(List.of(ip("10.0.0.2")), PORT + 1);
                client.await(SctpEvent.AssociationChangeType.COMMUNICATION_UP, 5_000);
                awaitConfirmed(client, id);
                AssociationInfo info = client.info(id);
                System.out.println("x1 to x2 inside X: primary " + info.primary() + " " + info.paths());
                assertEquals(ip("2001:db8:10::2"), info.primary(), "IPv6 (public same network) first");
                assertEquals(2, info.paths().size(), info.paths().toString());
                assertTrue(info.paths().stream().allMatch(AssociationInfo.PathInfo::inCmtSet));
                exchange(client, id, server);
            }
        }
    }
}
