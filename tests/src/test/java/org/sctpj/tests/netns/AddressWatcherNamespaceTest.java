package org.sctpj.tests.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sctpj.llp.raw.RawIpLowerLayer;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.Extension;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.LocalAddressState;
import org.sctpj.stack.SctpEvent.PeerAddressState;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;

/**
 * The raw lower layer following the interface addresses ({@code
 * RawIpLowerLayer.Builder.followInterfaceAddresses}) over a namespace pair, while data flows: A's
 * endpoint starts with 10.0.1.1 only; an address added to A's veth ({@code ip addr add}) reaches
 * the endpoint and Z adds it to the association (RFC 5061 Add IP Address); the first address
 * deleted from the veth ({@code ip addr del}) is deleted from the association (Delete IP Address)
 * and Z's primary moves to the new one. Every message arrives once, in order. Both sides ours, raw
 * IPv4, ASCONF and AUTH offered. Root only (namespaces, raw sockets); run under {@code flock
 * /tmp/sctpj-netlock}.
 */
@Timeout(120)
class AddressWatcherNamespaceTest {
    static final SctpOptions O = SctpOptions.LAN.toBuilder()
            .enable(Extension.AUTH)
            .enable(Extension.ASCONF)
            .heartbeatInterval(Duration.ofMillis(200))
            .build();
    static final InetAddress NEW = MultiPathBed.ip("10.0.9.1");
    static final int MESSAGES = 1500;

    /** One side: a raw IPv4 layer in its namespace and an endpoint with its first address only. */
    static LayerHost host(MultiPathBed bed, boolean a, int port, boolean follow) throws IOException {
        InetAddress address = a ? bed.a4(1) : bed.z4(1);
        RawIpLowerLayer llp = RawIpLowerLayer.builder()
                .ipv4(true)
                .ipv6(false)
                .localAddresses(List.of(address))
                .followInterfaceAddresses(follow)
                .networkNamespace(a ? bed.fileA() : bed.fileZ())
                .open();
        return new LayerHost("watch", llp, now -> {
            Endpoint ep = new Endpoint(port, List.of(address), O, new SecureRandom(), now);
            ep.listen(!a);
            return ep;
        });
    }

    static void await(LayerHost h, Predicate<SctpEvent> p, String what) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (h.events.stream().noneMatch(p)) {
            if (System.nanoTime() > end) {
                throw new AssertionError("no " + what + " in "
                        + h.events.stream()
                                .filter(e -> !(e instanceof SctpEvent.MessageReceived))
                                .toList());
            }
            Thread.sleep(5);
        }
    }

    static Predicate<SctpEvent> local(LocalAddressState s, InetAddress a) {
        return e -> e instanceof SctpEvent.LocalAddressChange c
                && c.state() == s
                && c.address().equals(a);
    }

    static Predicate<SctpEvent> peer(PeerAddressState s, InetAddress a) {
        return e -> e instanceof SctpEvent.PeerAddressChange c
                && c.state() == s
                && c.address().equals(a);
    }

    @Test
    void anAddressAddedToTheInterfaceJoinsAndADeletedOneLeavesWhileDataFlows() throws Exception {
        MultiPathBed.require();
        try (MultiPathBed bed = MultiPathBed.builder().paths(1).rateMbit(0).create();
                LayerHost z = host(bed, false, 7402, false);
                LayerHost a = host(bed, true, 7401, true)) {
            InetAddress old = bed.a4(1);
            // Z reaches the new subnet over the same link; A keeps a route to Z once its first
            // address (and the subnet route that came with it) is gone
            MultiPathBed.in(bed.nsZ(), "ip", "route", "add", "10.0.9.0/24", "dev", "z1");
            AssociationId id = a.call(ep -> ep.connect(List.of(bed.z4(1)), 7402, a.thread.now()));
            await(
                    a,
                    e -> e instanceof SctpEvent.AssociationChange c
                            && c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP,
                    "COMMUNICATION_UP");
            boolean asconf = a.call(ep -> ep.info(id).orElseThrow().extensions().contains(Extension.ASCONF));
            assertTrue(asconf, "ASCONF negotiated");
            java.util.concurrent.atomic.AtomicReference<Throwable> failed =
                    new java.util.concurrent.atomic.AtomicReference<>();
            Thread sender = new Thread(() -> {
                try {
                    for (int i = 0; i < MESSAGES; i++) {
                        byte[] m = new byte[1000];
                        ByteBuffer.wrap(m).putInt(i);
                        int k = i;
                        while (a.call(ep -> ep.send(
                                        id, new SendInfo(0, k, false, false), ByteBuffer.wrap(m), a.thread.now()))
                                == org.sctpj.stack.SendStatus.WOULD_BLOCK) {
                            Thread.sleep(1);
                        }
                        Thread.sleep(2); // data flows all along (about 3 s)
                    }
                } catch (Exception e) {
                    failed.set(e);
                }
            });
            sender.start();
            while (z.messages() < 200) {
                Thread.sleep(5);
            }
            MultiPathBed.in(bed.nsA(), "ip", "addr", "add", "10.0.9.1/24", "dev", "a1");
            await(a, local(LocalAddressState.ADDED, NEW), "LocalAddressChange ADDED " + NEW);
            await(z, peer(PeerAddressState.CONFIRMED, NEW), "Z's CONFIRMED " + NEW);
            MultiPathBed.in(
                    bed.nsA(),
                    "ip",
                    "route",
                    "add",
                    bed.z4(1).getHostAddress() + "/32",
                    "dev",
                    "a1",
                    "src",
                    "10.0.9.1");
            long before = z.messages();
            MultiPathBed.in(bed.nsA(), "ip", "addr", "del", old.getHostAddress() + "/24", "dev", "a1");
            await(a, local(LocalAddressState.REMOVED, old), "LocalAddressChange REMOVED " + old);
            sender.join(30_000);
            assertEquals(null, failed.get(), "sending");
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (z.messages() < MESSAGES && System.nanoTime() < end) {
                Thread.sleep(10);
            }
            assertTrue(before < MESSAGES - 200, "data flowed after the address left: " + before);
            List<SctpEvent.MessageReceived> got = z.events.stream()
                    .filter(e -> e instanceof SctpEvent.MessageReceived)
                    .map(e -> (SctpEvent.MessageReceived) e)
                    .toList();
            assertEquals(MESSAGES, got.size(), "every message arrived once");
            for (int i = 0; i < MESSAGES; i++) {
                assertEquals(i, got.get(i).ppid(), "in order");
                assertEquals(i, ByteBuffer.wrap(got.get(i).data()).getInt());
            }
            AssociationId zid = z.call(ep -> ep.associations().get(0));
            assertEquals(NEW, z.call(ep -> ep.info(zid).orElseThrow().primary()), "Z's primary moved");
            assertEquals(
                    List.of(NEW),
                    z.call(ep -> ep.info(zid).orElseThrow().paths().stream()
                            .map(p -> p.address())
                            .filter(x -> !x.equals(old))
                            .toList()),
                    "Z's remaining path");
            assertEquals(List.of(NEW), a.call(Endpoint::localAddresses), "A's endpoint follows its interface");
            System.out.println("address watcher: "
                    + a.events.stream()
                            .filter(e -> e instanceof SctpEvent.LocalAddressChange)
                            .toList() + "; Z: "
                    + z.events.stream()
                            .filter(e -> e instanceof SctpEvent.PeerAddressChange)
                            .toList());
        }
    }
}
