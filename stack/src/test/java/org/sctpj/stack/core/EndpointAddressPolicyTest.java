package org.sctpj.stack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.Transmit;
import org.sctpj.stack.addr.CollisionInfo;
import org.sctpj.stack.addr.DefaultAddressSelector;
import org.sctpj.stack.addr.ExplicitAddressSelector;
import org.sctpj.stack.addr.LocalInterface;
import org.sctpj.stack.wire.ChecksumPolicy;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.chunk.InitAckChunk;
import org.sctpj.stack.wire.chunk.InitChunk;
import org.sctpj.stack.wire.param.Ipv4AddressParameter;
import org.sctpj.stack.wire.param.Ipv6AddressParameter;
import org.sctpj.stack.wire.param.Parameter;

/**
 * The address policy wired into the endpoint: two endpoints back to back on a virtual clock (every
 * packet delivered to its destination), with the hosts of the seeds' pairing example (SEEDS
 * section 5): A.eth0 193.175.13.2/24 + 2001:906:638:aa01::2/64, A.eth1 2001:906:638:bb01::2/64;
 * B.eth0 193.175.14.2/24, B.eth1 193.175.15.2/24 + 2001:906:638:bb02::2/64. Each also has
 * loopback, which must never be announced to the other.
 */
class EndpointAddressPolicyTest {
    static final long MS = 1_000_000L;

    static final List<LocalInterface> HOST_A = List.of(
            LocalInterface.of("lo", "127.0.0.1/8", "::1/128"),
            LocalInterface.of("eth0", "193.175.13.2/24", "2001:906:638:aa01::2/64"),
            LocalInterface.of("eth1", "2001:906:638:bb01::2/64"));
    static final List<LocalInterface> HOST_B = List.of(
            LocalInterface.of("lo", "127.0.0.1/8", "::1/128"),
            LocalInterface.of("eth0", "193.175.14.2/24"),
            LocalInterface.of("eth1", "193.175.15.2/24", "2001:906:638:bb02::2/64"));

    static InetAddress ip(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    static List<InetAddress> addressesOf(List<LocalInterface> host) {
        return host.stream()
                .flatMap(i -> i.addresses().stream())
                .map(LocalInterface.Address::address)
                .toList();
    }

    /** Two endpoints and every packet between them, decoded, with its addresses. */
    static final class BackToBack {
        final Endpoint a;
        final Endpoint b;
        final List<Transmit> fromA = new ArrayList<>();
        final List<Transmit> fromB = new ArrayList<>();
        final List<SctpEvent> eventsA = new ArrayList<>();
        final List<SctpEvent> eventsB = new ArrayList<>();
        final Map<InetAddress, Long> bytesToB = new HashMap<>();
        long now;

        BackToBack(SctpOptions o) {
            a = new Endpoint(5000, addressesOf(HOST_A), o, new SplittableRandom(1), 0);
            b = new Endpoint(6000, addressesOf(HOST_B), o, new SplittableRandom(2), 0);
            b.listen(true);
        }

        /** Moves packets and time until nothing is left to do before {@code until}. */
        void run(long until) {
            while (true) {
                boolean moved = exchange();
                if (moved) {
                    continue;
                }
                long next = Math.min(a.nextTimeout(), b.nextTimeout());
                if (next > until) {
                    now = until;
                    return;
                }
                now = Math.max(now, next);
                a.handleTimeout(now);
                b.handleTimeout(now);
            }
        }

        private boolean exchange() {
            boolean moved = false;
            Transmit t;
            while ((t = a.pollTransmit(now).orElse(null)) != null) {
                fromA.add(t);
                bytesToB.merge(t.destination(), (long) t.packet().length, Long::sum);
                b.handleInput(ByteBuffer.wrap(t.packet()), t.source(), t.destination(), now);
                moved = true;
            }
            while ((t = b.pollTransmit(now).orElse(null)) != null) {
                fromB.add(t);
                a.handleInput(ByteBuffer.wrap(t.packet()), t.source(), t.destination(), now);
                moved = true;
            }
            a.pollEvent().ifPresent(eventsA::add);
            b.pollEvent().ifPresent(eventsB::add);
            return moved || drainEvents();
        }

        private boolean drainEvents() {
            boolean any = false;
            SctpEvent e;
            while ((e = a.pollEvent().orElse(null)) != null) {
                eventsA.add(e);
                any = true;
            }
            while ((e = b.pollEvent().orElse(null)) != null) {
                eventsB.add(e);
                any = true;
            }
            return any;
        }
    }

    static List<InetAddress> listed(List<Parameter> params) {
        List<InetAddress> out = new ArrayList<>();
        for (Parameter p : params) {
            if (p instanceof Ipv4AddressParameter a4) {
                out.add(a4.address());
            } else if (p instanceof Ipv6AddressParameter a6) {
                out.add(a6.address());
            }
        }
        return out;
    }

    static SctpPacket decode(Transmit t) {
        return SctpPacket.decode(ByteBuffer.wrap(t.packet()), ChecksumPolicy.VERIFY)
                .value();
    }

    static AssociationInfo.PathInfo path(AssociationInfo info, String address) {
        return info.paths().stream()
                .filter(p -> p.address().equals(ip(address)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no path to " + address + " in " + info.paths()));
    }

    @Test
    void seedsPairingExampleOverTheCore() {
        SctpOptions o = SctpOptions.LAN.toBuilder().cmt(true).noDelay(true).build();
        BackToBack n = new BackToBack(o);
        n.a.setAddressPolicy(HOST_A, DefaultAddressSelector.INSTANCE, CollisionInfo.NONE);
        n.b.setAddressPolicy(HOST_B, DefaultAddressSelector.INSTANCE, CollisionInfo.NONE);
        AssociationId id = n.a.connect(List.of(ip("193.175.14.2")), 6000, 0);
        n.run(500 * MS);

        // (a) INIT and INIT ACK list what the selector announces: no loopback, no duplicates.
        Transmit init = n.fromA.get(0);
        InitChunk ic = (InitChunk) decode(init).chunks().get(0);
        assertEquals(
                List.of(ip("193.175.13.2"), ip("2001:906:638:aa01::2"), ip("2001:906:638:bb01::2")),
                listed(ic.parameters()));
        assertEquals(ip("193.175.13.2"), init.source(), "INIT leaves from the address paired with the peer");
        InitAckChunk iack = (InitAckChunk) decode(n.fromB.get(0)).chunks().get(0);
        assertEquals(
                List.of(ip("193.175.14.2"), ip("193.175.15.2"), ip("2001:906:638:bb02::2")), listed(iack.parameters()));

        // (b), (c), (d): the peer's addresses ranked, paired, sources and CMT set from the matching.
        AssociationInfo ia = n.a.info(id).orElseThrow();
        assertEquals("ESTABLISHED", ia.state());
        assertEquals(ip("193.175.14.2"), ia.primary());
        assertEquals(3, ia.paths().size(), ia.paths().toString());
        assertTrue(path(ia, "193.175.14.2").inCmtSet());
        assertEquals(ip("193.175.13.2"), path(ia, "193.175.14.2").source());
        assertTrue(path(ia, "2001:906:638:bb02::2").inCmtSet());
        assertEquals(
                ip("2001:906:638:bb01::2"), path(ia, "2001:906:638:bb02::2").source());
        assertFalse(path(ia, "193.175.15.2").inCmtSet(), "A.eth0 carries a path already");
        for (AssociationInfo.PathInfo p : ia.paths()) {
            assertEquals("ACTIVE", p.status(), "confirmed by heartbeat: " + p);
        }
        for (Transmit t : n.fromA) {
            if (t.destination().equals(ip("2001:906:638:bb02::2"))) {
                assertEquals(ip("2001:906:638:bb01::2"), t.source(), "paired source on every packet");
            }
        }

        // The passive side applies its own policy to the addresses of A's INIT.
        AssociationId idB = n.b.associations().get(0);
        AssociationInfo ib = n.b.info(idB).orElseThrow();
        assertEquals(3, ib.paths().size(), ib.paths().toString());
        assertEquals(
                2,
                ib.paths().stream().filter(AssociationInfo.PathInfo::inCmtSet).count(),
                ib.toString());

        // CMT stripes over the two matched paths only.
        n.bytesToB.clear();
        byte[] msg = new byte[1000];
        long until = n.now + 2_000 * MS;
        int sent = 0;
        while (n.now < until) {
            while (sent < 2000 && n.a.send(id, SendInfo.DEFAULT, ByteBuffer.wrap(msg), n.now) == SendStatus.ACCEPTED) {
                sent++;
            }
            n.run(n.now + MS);
        }
        long onPrimary = n.bytesToB.getOrDefault(ip("193.175.14.2"), 0L);
        long onV6 = n.bytesToB.getOrDefault(ip("2001:906:638:bb02::2"), 0L);
        long onThird = n.bytesToB.getOrDefault(ip("193.175.15.2"), 0L);
        assertTrue(onPrimary > 200_000 && onV6 > 200_000, "both CMT paths carry data: " + n.bytesToB);
        assertTrue(onThird < 5_000, "the third path carries heartbeats only: " + n.bytesToB);
    }

    @Test
    void passivePrimaryIsThePolicysFirstPathOnceConfirmed() {
        BackToBack n = new BackToBack(SctpOptions.LAN);
        n.a.setAddressPolicy(HOST_A, DefaultAddressSelector.INSTANCE, CollisionInfo.NONE);
        n.b.setAddressPolicy(HOST_B, DefaultAddressSelector.INSTANCE, CollisionInfo.NONE);
        // A asks to reach B over IPv6 first: A's INIT leaves from its paired IPv6 source.
        n.a.connect(List.of(ip("2001:906:638:bb02::2"), ip("193.175.14.2")), 6000, 0);
        n.run(500 * MS);
        AssociationInfo ib = n.b.info(n.b.associations().get(0)).orElseThrow();
        AssociationInfo ia = n.a.info(n.a.associations().get(0)).orElseThrow();
        assertEquals(ip("2001:906:638:bb02::2"), ia.primary());
        assertEquals(ip("2001:906:638:bb01::2"), ib.primary(), "B's first pair: the INIT's source");
        assertEquals(
                ip("2001:906:638:bb02::2"), path(ib, "2001:906:638:bb01::2").source());
        assertEquals(ip("193.175.14.2"), path(ib, "193.175.13.2").source());
        assertTrue(ib.paths().stream().allMatch(p -> p.status().equals("ACTIVE")), ib.toString());
        assertEquals(ip("2001:906:638:bb01::2"), n.fromA.get(0).source());
    }

    @Test
    void connectRanksAndFiltersThePeerAddresses() {
        Endpoint a = new Endpoint(5000, List.of(ip("10.0.0.1")), SctpOptions.LAN, new SplittableRandom(3), 0);
        a.setAddressPolicy(
                List.of(LocalInterface.of("eth0", "10.0.0.1/24")), DefaultAddressSelector.INSTANCE, CollisionInfo.NONE);
        AssociationId id = a.connect(List.of(ip("203.0.113.7"), ip("10.0.0.2"), ip("127.0.0.1")), 6000, 0);
        AssociationInfo info = a.info(id).orElseThrow();
        assertEquals(
                List.of(ip("10.0.0.2")),
                info.paths().stream().map(AssociationInfo.PathInfo::address).toList());
        Transmit t = a.pollTransmit(0).orElseThrow();
        assertEquals(ip("10.0.0.2"), t.destination(), "INIT goes to the first usable address");
        assertEquals(ip("10.0.0.1"), t.source());
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> a.connect(List.of(ip("203.0.113.8")), 6000, 0));
        assertTrue(e.getMessage().contains("ExplicitAddressSelector"), e.getMessage());
    }

    @Test
    void explicitSelectorOverridesTheRules() {
        BackToBack n = new BackToBack(SctpOptions.LAN);
        n.a.setAddressPolicy(
                HOST_A,
                new ExplicitAddressSelector(List.of(ip("193.175.13.2")), List.of(ip("193.175.15.2"))),
                CollisionInfo.NONE);
        AssociationId id = n.a.connect(List.of(ip("193.175.15.2")), 6000, 0);
        n.run(500 * MS);
        InitChunk ic = (InitChunk) decode(n.fromA.get(0)).chunks().get(0);
        assertEquals(List.of(), listed(ic.parameters()), "one address: none listed (RFC 9260 section 5.1.2)");
        AssociationInfo ia = n.a.info(id).orElseThrow();
        assertEquals("ESTABLISHED", ia.state());
        assertEquals(ip("193.175.15.2"), n.fromB.get(0).source(), "B answers from the address A sent to");
        assertEquals(
                List.of(ip("193.175.15.2")),
                ia.paths().stream().map(AssociationInfo.PathInfo::address).toList(),
                "only the user's peer address is used");
    }

    @Test
    void withoutAPolicyEveryAddressIsUsedAndAnnounced() {
        BackToBack n = new BackToBack(SctpOptions.LAN);
        AssociationId id = n.a.connect(List.of(ip("193.175.14.2")), 6000, 0);
        n.run(500 * MS);
        InitChunk ic = (InitChunk) decode(n.fromA.get(0)).chunks().get(0);
        assertEquals(addressesOf(HOST_A), listed(ic.parameters()), "the endpoint's addresses, loopback too");
        AssociationInfo ia = n.a.info(id).orElseThrow();
        assertEquals(ip("193.175.14.2"), ia.primary());
        assertTrue(ia.paths().size() >= 3, ia.toString());
        assertTrue(ia.paths().stream().allMatch(AssociationInfo.PathInfo::inCmtSet));
    }
}
