package org.sctpj.stack.addr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.stack.addr.Topologies.*;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class DefaultAddressSelectorTest {
    private static final AddressSelector SEL = DefaultAddressSelector.INSTANCE;

    private static List<InetAddress> ips(String... literals) {
        List<InetAddress> out = new ArrayList<>();
        for (String l : literals) {
            out.add(ip(l));
        }
        return out;
    }

    private static PathPair pair(String li, String la, String pi, String pa, PathWeight w) {
        return new PathPair(li, ip(la), pi, ip(pa), w);
    }

    private static InetAddress mapped(int a, int b, int c, int d) throws Exception {
        byte[] x = new byte[16];
        x[10] = (byte) 0xff;
        x[11] = (byte) 0xff;
        x[12] = (byte) a;
        x[13] = (byte) b;
        x[14] = (byte) c;
        x[15] = (byte) d;
        return Inet6Address.getByAddress(null, x, -1);
    }

    /** SEEDS section 5, both worked examples, verbatim. */
    @Nested
    class WorkedExamples {
        private final List<LocalInterface> a = List.of(
                LocalInterface.of("eth0", "193.175.13.2/24", "2001:906:638:aa01::2/64"),
                LocalInterface.of("eth1", "2001:906:638:bb01::2/64"));
        private final List<PeerInterface> b = List.of(
                PeerInterface.of("eth0", "193.175.14.2"),
                PeerInterface.of("eth1", "193.175.15.2", "2001:906:638:bb02::2"));

        @Test
        void pairingUsesTwoPathsTo193_175_14_2And2001_906_638_bb02__2() {
            List<PathPair> paths = SEL.pairPaths(a, b);
            assertEquals(
                    List.of(
                            pair("eth0", "193.175.13.2", "eth0", "193.175.14.2", PathWeight.PUBLIC_OTHER_NETWORK),
                            pair(
                                    "eth1",
                                    "2001:906:638:bb01::2",
                                    "eth1",
                                    "2001:906:638:bb02::2",
                                    PathWeight.PUBLIC_OTHER_NETWORK)),
                    paths);
            assertEquals(
                    ips("193.175.14.2", "2001:906:638:bb02::2"),
                    paths.stream().map(PathPair::peerAddress).toList());
        }

        @Test
        void aGreedyChoiceWouldFindOnlyOnePath() {
            // A.eth0 could also reach B.eth1 (by IPv4 and IPv6, same weight); taking it would leave
            // A.eth1 (IPv6 only) nothing. Listing B.eth1 first must not lead the matching there.
            List<PathPair> reversed = SEL.pairPaths(a, List.of(b.get(1), b.get(0)));
            assertEquals(
                    List.of(
                            pair(
                                    "eth1",
                                    "2001:906:638:bb01::2",
                                    "eth1",
                                    "2001:906:638:bb02::2",
                                    PathWeight.PUBLIC_OTHER_NETWORK),
                            pair("eth0", "193.175.13.2", "eth0", "193.175.14.2", PathWeight.PUBLIC_OTHER_NETWORK)),
                    reversed);
        }

        @Test
        void headNodeOrderTriesIpv6ThenPrivateAndDropsPublicIpv4() {
            List<LocalInterface> node = List.of(LocalInterface.of("eth0", "192.168.1.55/24", "2001:638:906:5::55/64"));
            List<InetAddress> head = ips("192.168.1.1", "141.35.14.189", "2001:638:906:3::1");
            assertEquals(ips("2001:638:906:3::1", "192.168.1.1"), SEL.rankPeer(node, head, CollisionInfo.NONE));
        }

        @Test
        void headNodePairingWithTwoInterfacesGivesIpv6PrimaryAndPrivateSecond() {
            List<LocalInterface> node = List.of(
                    LocalInterface.of("eth0", "192.168.1.55/24"), LocalInterface.of("eth1", "2001:638:906:5::55/64"));
            List<PathPair> paths = SEL.pairPaths(
                    node, PeerInterface.eachAddress(ips("192.168.1.1", "141.35.14.189", "2001:638:906:3::1")));
            assertEquals(
                    List.of(
                            pair(
                                    "eth1",
                                    "2001:638:906:5::55",
                                    ip("2001:638:906:3::1").getHostAddress(),
                                    "2001:638:906:3::1",
                                    PathWeight.PUBLIC_OTHER_NETWORK),
                            pair(
                                    "eth0",
                                    "192.168.1.55",
                                    "192.168.1.1",
                                    "192.168.1.1",
                                    PathWeight.PRIVATE_SAME_NETWORK)),
                    paths);
        }
    }

    @Nested
    class Announce {
        private final List<LocalInterface> host = List.of(
                LocalInterface.of("lo", "127.0.0.1/8", "::1/128"),
                LocalInterface.of("eth0", "193.175.13.2/24", "fe80::1/64", "169.254.7.7/16", "2001:906:638:aa01::2/64"),
                LocalInterface.of("eth1", "10.0.0.1/8", "fd00:1::1/64", "193.175.13.2/24"),
                LocalInterface.of("odd", "224.0.0.5/32", "0.0.0.0/0", "::/0"));

        @Test
        void remotePeerGetsNoLoopbackNoLinkLocalNoOther() {
            List<InetAddress> expected = ips("193.175.13.2", "2001:906:638:aa01::2", "10.0.0.1", "fd00:1::1");
            assertEquals(expected, SEL.announce(host, Optional.empty()));
            assertEquals(expected, SEL.announce(host, Optional.of(ip("141.35.14.189"))));
            assertEquals(expected, SEL.announce(host, Optional.of(ip("10.0.0.2"))));
        }

        @Test
        void peerOnThisHostAlsoGetsLoopback() {
            List<InetAddress> expected =
                    ips("127.0.0.1", "::1", "193.175.13.2", "2001:906:638:aa01::2", "10.0.0.1", "fd00:1::1");
            assertEquals(expected, SEL.announce(host, Optional.of(ip("127.0.0.1"))));
            assertEquals(expected, SEL.announce(host, Optional.of(ip("::1"))));
            assertEquals(expected, SEL.announce(host, Optional.of(ip("10.0.0.1"))), "own address: same host");
        }

        @Test
        void onLinkPeerAlsoGetsLinkLocalOfItsFamily() {
            assertEquals(
                    ips("193.175.13.2", "fe80::1", "2001:906:638:aa01::2", "10.0.0.1", "fd00:1::1"),
                    SEL.announce(host, Optional.of(ip("fe80::2"))));
            assertEquals(
                    ips("193.175.13.2", "169.254.7.7", "2001:906:638:aa01::2", "10.0.0.1", "fd00:1::1"),
                    SEL.announce(host, Optional.of(ip("169.254.1.1"))));
        }

        @Test
        void ipv4MappedIsNeverAnnounced() throws Exception {
            List<LocalInterface> h = List.of(new LocalInterface(
                    "eth0",
                    List.of(
                            new LocalInterface.Address(mapped(193, 175, 13, 2), 96),
                            LocalInterface.Address.parse("193.175.13.2/24"))));
            assertEquals(ips("193.175.13.2"), SEL.announce(h, Optional.empty()));
            assertEquals(ips("193.175.13.2"), SEL.announce(h, Optional.of(mapped(193, 175, 13, 9))));
        }

        @Test
        void onlyLoopbackToARemotePeerMeansAnnounceNothing() {
            assertEquals(List.of(), SEL.announce(List.of(host.get(0)), Optional.empty()));
            assertEquals(List.of(), SEL.announce(List.of(), Optional.empty()));
        }
    }

    @Nested
    class Rank {
        private final List<LocalInterface> dual = List.of(
                LocalInterface.of("lo", "127.0.0.1/8", "::1/128"),
                LocalInterface.of("eth0", "193.175.13.2/24", "2001:906:638:aa01::2/64", "fe80::1/64"),
                LocalInterface.of("eth1", "192.168.1.55/24", "fd00:1::55/64"));

        @Test
        void publicBeforePrivateSameNetworkBeforeOther() {
            List<InetAddress> peer = ips(
                    "10.9.9.9", // private other-network
                    "192.168.1.1", // private same-network
                    "fd00:2::1", // ULA other-network
                    "193.175.99.1", // public other-network
                    "2001:906:638:aa01::9", // public same-network
                    "193.175.13.77", // public same-network
                    "2001:638:906:3::1"); // public other-network
            assertEquals(
                    ips(
                            "2001:906:638:aa01::9",
                            "193.175.13.77",
                            "193.175.99.1",
                            "2001:638:906:3::1",
                            "192.168.1.1",
                            "10.9.9.9",
                            "fd00:2::1"),
                    SEL.rankPeer(dual, peer, CollisionInfo.NONE));
        }

        @Test
        void privateOnlyHostNeverTriesPublicIpv4() {
            List<LocalInterface> priv = List.of(LocalInterface.of("eth0", "10.0.0.1/8"));
            assertEquals(
                    ips("10.0.0.2"),
                    SEL.rankPeer(priv, ips("141.35.14.189", "10.0.0.2", "2001:638:906:3::1"), CollisionInfo.NONE));
        }

        @Test
        void publicOnlyHostDropsPrivatePeers() {
            List<LocalInterface> pub = List.of(LocalInterface.of("eth0", "193.175.13.2/24"));
            assertEquals(
                    ips("193.175.14.2"),
                    SEL.rankPeer(pub, ips("10.0.0.2", "193.175.14.2", "fd00::1"), CollisionInfo.NONE));
        }

        @Test
        void ulaNeedsALocalUlaAndIsRankedWithPrivate() {
            List<LocalInterface> v6 = List.of(LocalInterface.of("eth0", "2001:906:638:aa01::2/64"));
            assertEquals(List.of(), SEL.rankPeer(v6, ips("fd00:1::1"), CollisionInfo.NONE));
            List<LocalInterface> both = List.of(LocalInterface.of("eth0", "2001:906:638:aa01::2/64", "fd00:1::2/64"));
            assertEquals(
                    ips("2001:638:906:3::1", "fd00:1::1"),
                    SEL.rankPeer(both, ips("fd00:1::1", "2001:638:906:3::1"), CollisionInfo.NONE));
        }

        @Test
        void collidingOrUntrustedPrivateAddressesAreDropped() {
            List<InetAddress> peer = ips("192.168.1.1", "193.175.14.2");
            assertEquals(ips("193.175.14.2", "192.168.1.1"), SEL.rankPeer(dual, peer, CollisionInfo.NONE));
            assertEquals(ips("193.175.14.2"), SEL.rankPeer(dual, peer, CollisionInfo.of(List.of(ip("192.168.1.1")))));
            assertEquals(ips("193.175.14.2"), SEL.rankPeer(dual, peer, CollisionInfo.UNTRUSTED_PRIVATE));
            assertEquals(
                    ips("193.175.14.2", "192.168.1.1"),
                    SEL.rankPeer(dual, peer, CollisionInfo.of(List.of(ip("192.168.1.2")))),
                    "another address colliding does not matter");
        }

        @Test
        void remotePeerLoopbackAndLinkLocalAreDropped() {
            assertEquals(
                    ips("193.175.14.2"),
                    SEL.rankPeer(dual, ips("193.175.14.2", "127.0.0.1", "::1", "fe80::2"), CollisionInfo.NONE));
        }

        @Test
        void peerReachedOverLoopbackKeepsLoopback() {
            assertEquals(
                    ips("193.175.13.2", "127.0.0.1"),
                    SEL.rankPeer(dual, ips("127.0.0.1", "193.175.13.2"), CollisionInfo.NONE));
        }

        @Test
        void peerReachedOnLinkKeepsLinkLocalOfThatFamily() {
            assertEquals(
                    ips("193.175.14.2", "fe80::2"),
                    SEL.rankPeer(dual, ips("fe80::2", "193.175.14.2", "169.254.1.1"), CollisionInfo.NONE));
        }

        @Test
        void ourOwnAddressFromARemotePeerIsDropped() {
            assertEquals(
                    ips("193.175.14.2"),
                    SEL.rankPeer(dual, ips("193.175.14.2", "193.175.13.2", "192.168.1.55"), CollisionInfo.NONE));
        }

        @Test
        void ipv4MappedIsNeverUsed() throws Exception {
            assertEquals(
                    ips("193.175.14.2"),
                    SEL.rankPeer(dual, List.of(mapped(193, 175, 14, 9), ip("193.175.14.2")), CollisionInfo.NONE));
        }

        @Test
        void duplicatesCountOnce() {
            assertEquals(
                    ips("193.175.14.2", "192.168.1.1"),
                    SEL.rankPeer(
                            dual,
                            ips("192.168.1.1", "193.175.14.2", "192.168.1.1", "193.175.14.2"),
                            CollisionInfo.NONE));
        }

        @Test
        void nullsAreMisuse() {
            assertThrows(IllegalArgumentException.class, () -> SEL.rankPeer(null, List.of(), CollisionInfo.NONE));
            assertThrows(IllegalArgumentException.class, () -> SEL.rankPeer(dual, null, CollisionInfo.NONE));
            assertThrows(IllegalArgumentException.class, () -> SEL.rankPeer(dual, List.of(), null));
            assertThrows(IllegalArgumentException.class, () -> SEL.announce(dual, null));
            assertThrows(IllegalArgumentException.class, () -> SEL.pairPaths(dual, null));
        }
    }

    /** The three namespace topologies of the issue, as data ({@link Topologies}). */
    @Nested
    class NamespaceTopologies {

        @Test
        void dualStackUsesBothLinksOnePathEach() {
            assertEquals(ips("198.51.100.2", "2001:db8:1::2", "203.0.113.2", "2001:db8:2::2"), announced(DUAL_B));
            assertEquals(
                    ips("198.51.100.2", "2001:db8:1::2", "203.0.113.2", "2001:db8:2::2"),
                    SEL.rankPeer(DUAL_A, announced(DUAL_B), CollisionInfo.NONE));
            assertEquals(
                    List.of(
                            pair("eth0", "198.51.100.1", "eth0", "198.51.100.2", PathWeight.PUBLIC_SAME_NETWORK),
                            pair("eth1", "203.0.113.1", "eth1", "203.0.113.2", PathWeight.PUBLIC_SAME_NETWORK)),
                    SEL.pairPaths(DUAL_A, asPeer(DUAL_B)));
        }

        @Test
        void dualStackWithoutIpv4OnOneLinkFallsBackToIpv6There() {
            List<LocalInterface> a = List.of(
                    LocalInterface.of("eth0", "198.51.100.1/24", "2001:db8:1::1/64"),
                    LocalInterface.of("eth1", "2001:db8:2::1/64"));
            assertEquals(
                    List.of(
                            pair("eth0", "198.51.100.1", "eth0", "198.51.100.2", PathWeight.PUBLIC_SAME_NETWORK),
                            pair("eth1", "2001:db8:2::1", "eth1", "2001:db8:2::2", PathWeight.PUBLIC_SAME_NETWORK)),
                    SEL.pairPaths(a, asPeer(DUAL_B)));
        }

        @Test
        void dualStackOverLoopbackMayUseLoopback() {
            List<InetAddress> toSelf = SEL.announce(DUAL_A, Optional.of(ip("127.0.0.1")));
            assertTrue(toSelf.contains(ip("127.0.0.1")));
            List<InetAddress> peer = new ArrayList<>(List.of(ip("127.0.0.1")));
            peer.addAll(toSelf);
            List<InetAddress> ranked = SEL.rankPeer(DUAL_A, peer, CollisionInfo.NONE);
            assertTrue(ranked.contains(ip("127.0.0.1")) && ranked.contains(ip("198.51.100.1")), ranked.toString());
        }

        @Test
        void privateOnlyClustersWithCollisionsDoNotTrustPrivateAcross() {
            CollisionInfo job = CollisionInfo.detect(
                    List.of(published(PRIV_X1), published(PRIV_X2), published(PRIV_Y1), published(PRIV_Y2)));
            assertEquals(java.util.Set.of(ip("10.0.0.1"), ip("10.0.0.2")), job.colliding());
            // x1 to y2 (or x2: the same address): nothing usable, no path; in particular not the
            // wrong host 10.0.0.2 of cluster X.
            assertEquals(List.of(), SEL.rankPeer(PRIV_X1, announced(PRIV_Y2), job));
            assertEquals(List.of(), SEL.pairPaths(PRIV_X1, asPeer(PRIV_Y2), job));
            // y1 announces x1's own address 10.0.0.1: ambiguous too.
            assertEquals(List.of(), SEL.rankPeer(PRIV_X1, announced(PRIV_Y1), job));
            // Without collision data, connecting to one's own address reaches this host, not y1.
            assertEquals(
                    List.of(pair("eth0", "10.0.0.1", "eth0", "10.0.0.1", PathWeight.PRIVATE_SAME_NETWORK)),
                    SEL.pairPaths(PRIV_X1, asPeer(PRIV_Y1)));
        }

        @Test
        void privateOnlyClusterAloneTrustsItsLan() {
            CollisionInfo job = CollisionInfo.detect(List.of(published(PRIV_X1), published(PRIV_X2)));
            assertEquals(CollisionInfo.NONE, job);
            assertEquals(ips("10.0.0.2"), SEL.rankPeer(PRIV_X1, announced(PRIV_X2), job));
            assertEquals(
                    List.of(pair("eth0", "10.0.0.1", "eth0", "10.0.0.2", PathWeight.PRIVATE_SAME_NETWORK)),
                    SEL.pairPaths(PRIV_X1, asPeer(PRIV_X2), job));
        }

        @Test
        void ipv6BetweenClustersPrivateInside() {
            CollisionInfo spanning = CollisionInfo.detect(
                    List.of(published(V6_X1), published(V6_X2), published(V6_Y1), published(V6_Y2)));
            CollisionInfo xOnly = CollisionInfo.detect(List.of(published(V6_X1), published(V6_X2)));
            // Across the clusters: IPv6 only, one path.
            assertEquals(ips("2001:db8:20::2"), SEL.rankPeer(V6_X1, announced(V6_Y2), spanning));
            assertEquals(
                    List.of(pair("eth1", "2001:db8:10::1", "eth1", "2001:db8:20::2", PathWeight.PUBLIC_OTHER_NETWORK)),
                    SEL.pairPaths(V6_X1, asPeer(V6_Y2), spanning));
            // Inside X for a job in X only: the IPv6 uplink as primary plus the private LAN.
            assertEquals(ips("2001:db8:10::2", "10.0.0.2"), SEL.rankPeer(V6_X1, announced(V6_X2), xOnly));
            assertEquals(
                    List.of(
                            pair("eth1", "2001:db8:10::1", "eth1", "2001:db8:10::2", PathWeight.PUBLIC_SAME_NETWORK),
                            pair("eth0", "10.0.0.1", "eth0", "10.0.0.2", PathWeight.PRIVATE_SAME_NETWORK)),
                    SEL.pairPaths(V6_X1, asPeer(V6_X2), xOnly));
            // Inside X for a job spanning both clusters: 10.0.0.2 is ambiguous, IPv6 only.
            assertEquals(
                    List.of(pair("eth1", "2001:db8:10::1", "eth1", "2001:db8:10::2", PathWeight.PUBLIC_SAME_NETWORK)),
                    SEL.pairPaths(V6_X1, asPeer(V6_X2), spanning));
        }
    }

    @Nested
    class Pairing {
        @Test
        void neverTwoPathsOnOneInterfaceEvenWhenAddressesWouldAllow() {
            List<LocalInterface> one = List.of(LocalInterface.of("eth0", "193.175.13.2/24", "2001:906:638:aa01::2/64"));
            List<PathPair> p = SEL.pairPaths(one, PeerInterface.eachAddress(ips("193.175.14.2", "2001:638:906:3::1")));
            assertEquals(1, p.size());
            assertEquals(ip("193.175.14.2"), p.get(0).peerAddress());
        }

        @Test
        void addressOnTwoPeerInterfacesCountsOnTheFirst() {
            List<LocalInterface> two =
                    List.of(LocalInterface.of("eth0", "193.175.13.2/24"), LocalInterface.of("eth1", "193.175.20.2/24"));
            List<PeerInterface> peer =
                    List.of(PeerInterface.of("p0", "193.175.14.2"), PeerInterface.of("p1", "193.175.14.2"));
            assertEquals(1, SEL.pairPaths(two, peer).size());
        }

        @Test
        void mostPairsBeatsMostWeight() {
            // L0 reaches P0 at weight 4 and P1 at 1; L1 reaches only P0 at 1. Best weight alone
            // would take L0-P0 (4); the maximum matching takes L0-P1 and L1-P0 (two paths).
            List<LocalInterface> host = List.of(
                    LocalInterface.of("L0", "193.175.13.2/24", "10.0.0.1/24"), LocalInterface.of("L1", "fd00:1::1/64"));
            List<PeerInterface> peer =
                    List.of(PeerInterface.of("P0", "193.175.13.9", "fd00:2::9"), PeerInterface.of("P1", "10.3.0.9"));
            List<PathPair> p = SEL.pairPaths(host, peer);
            assertEquals(
                    List.of(
                            pair("L1", "fd00:1::1", "P0", "fd00:2::9", PathWeight.PRIVATE_OTHER_NETWORK),
                            pair("L0", "10.0.0.1", "P1", "10.3.0.9", PathWeight.PRIVATE_OTHER_NETWORK)),
                    p);
        }

        @Test
        void emptyInputsGiveNoPaths() {
            assertEquals(List.of(), SEL.pairPaths(List.of(), List.of()));
            assertEquals(List.of(), SEL.pairPaths(DUAL_A, List.of()));
            assertEquals(List.of(), SEL.pairPaths(List.of(), asPeer(DUAL_B)));
        }
    }
}
