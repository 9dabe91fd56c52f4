package org.sctpj.llp.raw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Packets both ways between two namespaces over a veth pair: root only. */
@Timeout(60)
class RawIpLowerLayerNamespaceTest {
    private static VethPair pair;

    @BeforeAll
    static void setUp() throws IOException {
        VethPair.assumeRoot();
        pair = VethPair.create();
    }

    @AfterAll
    static void tearDown() {
        if (pair != null) {
            pair.close();
        }
    }

    record Got(byte[] bytes, InetAddress from, InetAddress to) {}

    static List<Got> collect(RawIpLowerLayer l, int want, long timeoutMillis) throws IOException {
        List<Got> got = new ArrayList<>();
        long end = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (got.size() < want && System.nanoTime() < end) {
            l.await(10_000_000L);
            l.receive(
                    (b, from, to) -> {
                        byte[] x = new byte[b.remaining()];
                        b.get(x);
                        got.add(new Got(x, from, to));
                    },
                    64);
        }
        return got;
    }

    /** A builder of an IPv4-only layer that takes only the packets to {@code local}. */
    private static RawIpLowerLayer.Builder filtered(InetAddress local) {
        return RawIpLowerLayer.builder().ipv6(false).localAddresses(List.of(local));
    }

    static ByteBuffer packet(int marker) {
        // Not a valid SCTP packet: the lower layer carries bytes, it does not judge them.
        ByteBuffer b = ByteBuffer.allocate(24);
        b.putInt(0, 0x12345678).putInt(4, marker).putInt(20, marker);
        return b;
    }

    /**
     * Sends are batched: held packets leave only with the flush (one sendmmsg), all of them, in
     * order; await flushes too, so nothing waits while the owner sleeps; a batch of one sends at once.
     */
    @Test
    void sendsAreHeldUntilFlushThenSentTogether() throws IOException {
        InetAddress a4 = VethPair.addr(VethPair.A4);
        InetAddress b4 = VethPair.addr(VethPair.B4);
        try (RawIpLowerLayer a = RawIpLowerLayer.builder()
                        .ipv6(false)
                        .networkNamespace(pair.fileA())
                        .open();
                RawIpLowerLayer b = RawIpLowerLayer.builder()
                        .ipv6(false)
                        .networkNamespace(pair.fileB())
                        .open();
                RawIpLowerLayer single = RawIpLowerLayer.builder()
                        .ipv6(false)
                        .sendBatch(1)
                        .networkNamespace(pair.fileB())
                        .open()) {
            for (int i = 1; i <= 40; i++) {
                b.send(packet(i), b4, a4);
            }
            assertEquals(0, b.stats().sent(), "held, not sent yet");
            assertEquals(0, collect(a, 1, 200).size(), "nothing arrives before the flush");
            b.flush();
            assertEquals(40, b.stats().sent());
            List<Got> got = collect(a, 40, 5000);
            assertEquals(40, got.size());
            for (int i = 0; i < 40; i++) {
                assertEquals(i + 1, ByteBuffer.wrap(got.get(i).bytes()).getInt(4), "in order");
            }

            b.send(packet(41), b4, a4);
            b.await(0); // flushes before it would sleep
            assertEquals(41, b.stats().sent());
            assertEquals(1, collect(a, 1, 5000).size());

            single.send(packet(42), b4, a4);
            assertEquals(1, single.stats().sent(), "a batch of one sends at once");
            assertEquals(1, collect(a, 1, 5000).size());
        }
    }

    @Test
    void packetsBothWaysWithTheirLocalDestinations() throws IOException {
        try (RawIpLowerLayer a = RawIpLowerLayer.builder()
                        .requireIpv6(true)
                        .networkNamespace(pair.fileA())
                        .open();
                RawIpLowerLayer b =
                        RawIpLowerLayer.builder().networkNamespace(pair.fileB()).open()) {
            assertTrue(a.hasIpv4() && a.hasIpv6());
            InetAddress a4 = VethPair.addr(VethPair.A4);
            InetAddress a4b = VethPair.addr(VethPair.A4_SECOND);
            InetAddress b4 = VethPair.addr(VethPair.B4);
            InetAddress a6 = VethPair.addr(VethPair.A6);
            InetAddress b6 = VethPair.addr(VethPair.B6);

            b.send(packet(1), b4, a4);
            b.send(packet(2), b4, a4b);
            b.send(packet(3), b6, a6);
            b.flush(); // sends are held until the flush (LowerLayer.flush)
            List<Got> atA = collect(a, 3, 5000);
            assertEquals(3, atA.size(), "A received " + atA);
            assertEquals(List.of(b4, b4, b6), atA.stream().map(Got::from).toList());
            assertEquals(List.of(a4, a4b, a6), atA.stream().map(Got::to).toList());
            for (int i = 0; i < 3; i++) {
                assertEquals(24, atA.get(i).bytes().length);
                assertEquals(i + 1, ByteBuffer.wrap(atA.get(i).bytes()).getInt(4));
            }

            // The other way, from a chosen source: A's second address.
            a.send(packet(4), a4b, b4);
            a.send(packet(5), a4, b4);
            a.send(packet(6), a6, b6);
            a.send(packet(7), null, b6); // the kernel chooses
            a.flush();
            List<Got> atB = collect(b, 4, 5000);
            assertEquals(
                    List.of(a4b, a4, a6),
                    atB.subList(0, 3).stream().map(Got::from).toList());
            assertEquals(List.of(b4, b4, b6, b6), atB.stream().map(Got::to).toList());
            assertTrue(Set.of(a6, VethPair.addr(VethPair.A6_SECOND))
                    .contains(atB.get(3).from()));
        }
    }

    @Test
    void wakeupEndsAwaitAtOnceAndTimeoutsAreKept() throws IOException, InterruptedException {
        try (RawIpLowerLayer a =
                RawIpLowerLayer.builder().networkNamespace(pair.fileA()).open()) {
            long t0 = System.nanoTime();
            a.await(30_000_000L);
            long waited = System.nanoTime() - t0;
            assertTrue(waited >= 29_000_000L, "await returned after " + waited + " ns");
            a.await(0);
            Thread waker = new Thread(() -> {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                a.wakeup();
            });
            t0 = System.nanoTime();
            waker.start();
            a.await(Long.MAX_VALUE);
            waited = System.nanoTime() - t0;
            waker.join();
            assertTrue(waited < 5_000_000_000L, "wakeup did not end await");
            // A wakeup before await makes the next await return at once.
            a.wakeup();
            t0 = System.nanoTime();
            a.await(5_000_000_000L);
            assertTrue(System.nanoTime() - t0 < 1_000_000_000L);
            assertEquals(0, a.encapsulationOverhead());
        }
    }

    /**
     * With local addresses the kernel drops packets to other addresses (a BPF socket filter): they
     * never reach the layer. Without the kernel filter they are read and dropped here, counted in
     * notLocal.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void localAddressFilterAndStats(boolean kernelFilter) throws IOException {
        InetAddress a4 = VethPair.addr(VethPair.A4);
        InetAddress a4b = VethPair.addr(VethPair.A4_SECOND);
        InetAddress b4 = VethPair.addr(VethPair.B4);
        try (RawIpLowerLayer a = filtered(a4)
                        .kernelFilter(kernelFilter)
                        .receiveBatch(1)
                        .receiveBufferBytes(1 << 20)
                        .networkNamespace(pair.fileA())
                        .open();
                RawIpLowerLayer b =
                        RawIpLowerLayer.builder().networkNamespace(pair.fileB()).open()) {
            assertTrue(a.hasIpv4());
            assertEquals(false, a.hasIpv6());
            b.send(packet(1), b4, a4b); // not in A's filter
            b.send(packet(2), b4, a4);
            b.flush();
            List<Got> got = collect(a, 1, 5000);
            collect(a, 1, 200); // give the first packet time to be counted if it came second
            assertEquals(1, got.size());
            assertEquals(a4, got.get(0).to());
            RawIpStats s = a.stats();
            assertEquals(kernelFilter ? 1 : 2, s.received());
            assertEquals(kernelFilter ? 0 : 1, s.notLocal());
            assertEquals(0, s.malformed());
            assertEquals(2, b.stats().sent());

            IOException noV6 = org.junit.jupiter.api.Assertions.assertThrows(
                    IOException.class, () -> a.send(packet(3), null, VethPair.addr(VethPair.B6)));
            assertTrue(noV6.getMessage().contains("no raw IPv6 socket"), noV6.getMessage());
            org.junit.jupiter.api.Assertions.assertThrows(
                    IllegalArgumentException.class, () -> b.send(packet(3), a4, VethPair.addr(VethPair.A6)));
            IOException badSource = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> {
                b.send(packet(3), VethPair.addr("192.0.2.9"), a4);
                b.flush(); // a kernel error of a held packet surfaces from the flush
            });
            assertTrue(badSource.getMessage().contains("192.0.2.9"), badSource.getMessage());
        }
    }

    /**
     * The kernel filter follows addAddress and removeAddress (RFC 5061): packets to an added
     * address arrive, packets to a removed one no longer reach the layer at all.
     */
    @Test
    void kernelFilterFollowsAddedAndRemovedAddresses() throws IOException {
        InetAddress a4 = VethPair.addr(VethPair.A4);
        InetAddress a4b = VethPair.addr(VethPair.A4_SECOND);
        InetAddress b4 = VethPair.addr(VethPair.B4);
        try (RawIpLowerLayer a = filtered(a4).networkNamespace(pair.fileA()).open();
                RawIpLowerLayer b = RawIpLowerLayer.builder()
                        .ipv6(false)
                        .networkNamespace(pair.fileB())
                        .open()) {
            a.addAddress(a4b);
            b.send(packet(1), b4, a4b);
            b.flush();
            List<Got> got = collect(a, 1, 5000);
            assertEquals(1, got.size(), "a packet to the added address");
            assertEquals(a4b, got.get(0).to());

            a.removeAddress(a4b);
            b.send(packet(2), b4, a4b);
            b.send(packet(3), b4, a4);
            b.flush();
            got = collect(a, 1, 5000);
            collect(a, 1, 200).forEach(got::add); // the removed address's packet, should it come
            assertEquals(1, got.size());
            assertEquals(a4, got.get(0).to());
            assertEquals(2, a.stats().received(), "the packet to the removed address never reached the layer");
            assertEquals(0, a.stats().notLocal());
        }
    }

    @Test
    void closedLayerRefusesCallsAndMisuseIsRefused() throws IOException {
        RawIpLowerLayer a =
                RawIpLowerLayer.builder().networkNamespace(pair.fileA()).open();
        a.close();
        a.close();
        a.wakeup(); // harmless
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(
                IOException.class, () -> a.send(packet(1), null, VethPair.addr(VethPair.B4)));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> a.receive((b, f, t) -> {}, 1));
        org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> a.await(0));
        org.junit.jupiter.api.Assertions.assertThrows(
                IllegalStateException.class,
                () -> RawIpLowerLayer.builder().ipv4(false).ipv6(false).open());
        org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> RawIpLowerLayer.builder().receiveBatch(0));
        IOException noNs =
                org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> RawIpLowerLayer.builder()
                        .networkNamespace(NetworkNamespace.named("sctpj-no-such-namespace"))
                        .open());
        assertTrue(noNs.getMessage().contains("cannot open network namespace"), noNs.getMessage());
    }
}
