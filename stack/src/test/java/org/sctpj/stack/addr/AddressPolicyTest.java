package org.sctpj.stack.addr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.stack.addr.Topologies.ip;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link AddressPolicy}: the plan an endpoint takes from its selector, on the seeds' worked examples. */
class AddressPolicyTest {

    private static List<InetAddress> ips(String... literals) {
        List<InetAddress> out = new ArrayList<>();
        for (String l : literals) {
            out.add(ip(l));
        }
        return out;
    }

    /** SEEDS section 5, pairing example: A's two interfaces against B's three addresses. */
    @Test
    void seedsPairingExampleGivesTwoCmtPathsWithTheirSources() {
        AddressPolicy a = AddressPolicy.of(List.of(
                LocalInterface.of("eth0", "193.175.13.2/24", "2001:906:638:aa01::2/64"),
                LocalInterface.of("eth1", "2001:906:638:bb01::2/64")));
        AddressPolicy.Plan plan = a.plan(ips("193.175.14.2", "193.175.15.2", "2001:906:638:bb02::2"), Optional.empty());
        assertEquals(2, plan.pairs().size(), plan.toString());
        assertEquals(ips("193.175.14.2", "2001:906:638:bb02::2", "193.175.15.2"), plan.peers());
        assertEquals(Optional.of(ip("193.175.14.2")), plan.primary());
        assertTrue(plan.inCmtSet(ip("193.175.14.2")));
        assertTrue(plan.inCmtSet(ip("2001:906:638:bb02::2")));
        assertFalse(plan.inCmtSet(ip("193.175.15.2")), "a third path would share A.eth0");
        assertEquals(Optional.of(ip("193.175.13.2")), plan.pairedSource(ip("193.175.14.2")));
        assertEquals(Optional.of(ip("2001:906:638:bb01::2")), plan.pairedSource(ip("2001:906:638:bb02::2")));
        assertEquals(Optional.empty(), plan.pairedSource(ip("193.175.15.2")));
    }

    /** SEEDS section 5, ordering example: IPv6 first, then the private address; public IPv4 dropped. */
    @Test
    void seedsOrderingExampleTriesIpv6ThenPrivateAndDropsPublicIpv4() {
        AddressPolicy peer55 =
                AddressPolicy.of(List.of(LocalInterface.of("eth0", "192.168.1.55/24", "2001:638:906:5::55/64")));
        AddressPolicy.Plan plan =
                peer55.plan(ips("192.168.1.1", "141.35.14.189", "2001:638:906:3::1"), Optional.empty());
        assertEquals(ips("2001:638:906:3::1", "192.168.1.1"), plan.peers());
        assertEquals(1, plan.pairs().size(), "one local interface, one path");
        assertTrue(plan.inCmtSet(ip("2001:638:906:3::1")));
        assertFalse(plan.inCmtSet(ip("192.168.1.1")));
    }

    @Test
    void keptAddressStaysLastWhenTheSelectorDropsIt() {
        AddressPolicy privateOnly = AddressPolicy.of(List.of(LocalInterface.of("eth0", "10.0.0.1/24")));
        AddressPolicy.Plan plan = privateOnly.plan(ips("203.0.113.9", "10.0.0.2"), Optional.of(ip("203.0.113.9")));
        assertEquals(ips("10.0.0.2", "203.0.113.9"), plan.peers());
        assertFalse(plan.inCmtSet(ip("203.0.113.9")));
    }

    @Test
    void nothingUsableGivesAnEmptyPlanThatPutsEveryAddressInTheCmtSet() {
        AddressPolicy privateOnly = AddressPolicy.of(List.of(LocalInterface.of("eth0", "10.0.0.1/24")));
        AddressPolicy.Plan plan = privateOnly.plan(ips("203.0.113.9"), Optional.empty());
        assertEquals(List.of(), plan.peers());
        assertEquals(Optional.empty(), plan.primary());
        assertTrue(plan.inCmtSet(ip("203.0.113.9")));
    }

    @Test
    void collidingPrivateAddressesAreNotUsed() {
        AddressPolicy x = new AddressPolicy(
                Topologies.PRIV_X1, DefaultAddressSelector.INSTANCE, CollisionInfo.of(ips("10.0.0.2")));
        assertEquals(
                ips("10.0.0.3"),
                x.plan(ips("10.0.0.2", "10.0.0.3"), Optional.empty()).peers());
    }

    @Test
    void announceFollowsTheSelector() {
        AddressPolicy dual = AddressPolicy.of(Topologies.DUAL_A);
        assertEquals(
                ips("198.51.100.1", "2001:db8:1::1", "203.0.113.1", "2001:db8:2::1"),
                dual.announce(ip("198.51.100.2")));
        assertTrue(dual.announce(ip("127.0.0.1")).contains(ip("127.0.0.1")), "a peer on this host gets loopback");
        AddressPolicy explicit = new AddressPolicy(
                Topologies.DUAL_A, ExplicitAddressSelector.ofLocal(ips("203.0.113.1")), CollisionInfo.NONE);
        assertEquals(ips("203.0.113.1"), explicit.announce(ip("198.51.100.2")));
    }

    @Test
    void sourceForPrefersTheSameClassThenTheLongestPrefix() {
        AddressPolicy p = AddressPolicy.of(List.of(
                LocalInterface.of("lo", "127.0.0.1/8", "::1/128"),
                LocalInterface.of("eth0", "10.1.0.1/24", "fd01::1/64"),
                LocalInterface.of("eth1", "10.2.0.1/24", "2001:db8:2::1/64")));
        assertEquals(Optional.of(ip("10.2.0.1")), p.sourceFor(ip("10.2.0.7")));
        assertEquals(Optional.of(ip("10.1.0.1")), p.sourceFor(ip("10.1.9.9")));
        assertEquals(Optional.of(ip("2001:db8:2::1")), p.sourceFor(ip("2001:db8:77::1")));
        assertEquals(Optional.of(ip("fd01::1")), p.sourceFor(ip("fd02::5")));
        assertEquals(Optional.of(ip("127.0.0.1")), p.sourceFor(ip("127.0.0.1")));
        AddressPolicy v6only = AddressPolicy.of(List.of(LocalInterface.of("eth0", "2001:db8::1/64")));
        assertEquals(Optional.empty(), v6only.sourceFor(ip("192.0.2.1")));
    }

    @Test
    void misuseIsRefusedWithAMessage() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> new AddressPolicy(List.of(), null, CollisionInfo.NONE));
        assertTrue(e.getMessage().contains("DefaultAddressSelector.INSTANCE"), e.getMessage());
        AddressPolicy p = AddressPolicy.of(List.of());
        assertThrows(IllegalArgumentException.class, () -> p.plan(null, Optional.empty()));
    }
}
