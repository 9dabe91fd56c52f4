package org.sctpj.stack.addr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sctpj.stack.addr.Topologies.ip;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ExplicitAddressSelectorTest {
    private final List<LocalInterface> host = List.of(
            LocalInterface.of("lo", "127.0.0.1/8"),
            LocalInterface.of("eth0", "193.175.13.2/24", "2001:906:638:aa01::2/64"),
            LocalInterface.of("eth1", "10.0.0.1/24", "2001:906:638:bb01::2/64"));

    @Test
    void announcesExactlyTheGivenList() {
        ExplicitAddressSelector s = ExplicitAddressSelector.ofLocal(List.of(ip("10.0.0.1"), ip("127.0.0.1")));
        assertEquals(List.of(ip("10.0.0.1"), ip("127.0.0.1")), s.announce(host, Optional.empty()));
        assertEquals(List.of(ip("10.0.0.1"), ip("127.0.0.1")), s.announce(List.of(), Optional.of(ip("141.35.14.189"))));
    }

    @Test
    void withoutPeerListKeepsThePeersOrderEvenWhereTheDefaultWouldDrop() {
        ExplicitAddressSelector s = ExplicitAddressSelector.ofLocal(List.of(ip("10.0.0.1")));
        List<InetAddress> peer = List.of(ip("10.0.0.9"), ip("141.35.14.189"), ip("10.0.0.9"), ip("224.0.0.1"));
        assertEquals(
                List.of(ip("10.0.0.9"), ip("141.35.14.189")),
                s.rankPeer(host, peer, CollisionInfo.UNTRUSTED_PRIVATE),
                "user decides: collisions ignored; multicast never");
    }

    @Test
    void withPeerListUsesTheUsersOrderAndOnlyWhatThePeerHas() {
        ExplicitAddressSelector s = new ExplicitAddressSelector(
                List.of(ip("193.175.13.2")), List.of(ip("193.175.15.2"), ip("193.175.99.9"), ip("193.175.14.2")));
        assertEquals(
                List.of(ip("193.175.15.2"), ip("193.175.14.2")),
                s.rankPeer(host, List.of(ip("193.175.14.2"), ip("193.175.15.2")), CollisionInfo.NONE));
    }

    @Test
    void pairsGreedilyInTheUsersOrderOnePathPerInterface() {
        ExplicitAddressSelector s = new ExplicitAddressSelector(
                List.of(ip("2001:906:638:bb01::2"), ip("193.175.13.2"), ip("2001:906:638:aa01::2")),
                List.of(ip("2001:906:638:bb02::2"), ip("193.175.15.2"), ip("193.175.14.2")));
        List<PeerInterface> peer = List.of(
                PeerInterface.of("eth0", "193.175.14.2"),
                PeerInterface.of("eth1", "193.175.15.2", "2001:906:638:bb02::2"));
        assertEquals(
                List.of(
                        new PathPair(
                                "eth1",
                                ip("2001:906:638:bb01::2"),
                                "eth1",
                                ip("2001:906:638:bb02::2"),
                                PathWeight.PUBLIC_OTHER_NETWORK),
                        new PathPair(
                                "eth0",
                                ip("193.175.13.2"),
                                "eth0",
                                ip("193.175.14.2"),
                                PathWeight.PUBLIC_OTHER_NETWORK)),
                s.pairPaths(host, peer));
    }

    @Test
    void localAddressOutsideTheHostIsItsOwnInterfaceAndWeightsDoNotFilter() {
        ExplicitAddressSelector s = new ExplicitAddressSelector(List.of(ip("10.9.9.9")), List.of());
        List<PathPair> p = s.pairPaths(host, PeerInterface.eachAddress(List.of(ip("141.35.14.189"))));
        assertEquals(
                List.of(new PathPair(
                        "10.9.9.9", ip("10.9.9.9"), "141.35.14.189", ip("141.35.14.189"), PathWeight.NONE)),
                p);
    }

    @Test
    void ipv4MappedMulticastAndUnspecifiedAreRefused() throws Exception {
        byte[] b = new byte[16];
        b[10] = (byte) 0xff;
        b[11] = (byte) 0xff;
        b[12] = 10;
        b[15] = 1;
        InetAddress mapped = Inet6Address.getByAddress(null, b, -1);
        assertThrows(IllegalArgumentException.class, () -> ExplicitAddressSelector.ofLocal(List.of(mapped)));
        assertThrows(IllegalArgumentException.class, () -> ExplicitAddressSelector.ofLocal(List.of(ip("224.0.0.1"))));
        assertThrows(IllegalArgumentException.class, () -> new ExplicitAddressSelector(List.of(), List.of(ip("::"))));
        assertThrows(IllegalArgumentException.class, () -> ExplicitAddressSelector.ofLocal(null));
        ExplicitAddressSelector s = ExplicitAddressSelector.ofLocal(List.of(ip("10.0.0.1")));
        assertEquals(List.of(ip("10.0.0.9")), s.rankPeer(host, List.of(mapped, ip("10.0.0.9")), CollisionInfo.NONE));
    }
}
