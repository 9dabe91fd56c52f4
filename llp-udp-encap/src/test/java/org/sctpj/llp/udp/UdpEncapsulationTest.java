package org.sctpj.llp.udp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.BindException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** UdpEncapsulation over real loopback sockets (ephemeral ports, so that builds can run side by side). */
class UdpEncapsulationTest {

    static final InetAddress V4 = addr("127.0.0.1");
    static final InetAddress V6 = addr("::1");

    static InetAddress addr(String s) {
        try {
            return InetAddress.getByName(s);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    record Got(byte[] data, InetAddress from, InetAddress to) {}

    /** The three ways the layer can run: two over DatagramChannel, and the native path. */
    enum Io {
        SELECTOR(ReceiveMode.SELECTOR, NativeIo.OFF),
        RECEIVE_THREAD(ReceiveMode.RECEIVE_THREAD, NativeIo.OFF),
        NATIVE(ReceiveMode.SELECTOR, NativeIo.ON);

        final ReceiveMode receiveMode;
        final NativeIo nativeIo;

        Io(ReceiveMode receiveMode, NativeIo nativeIo) {
            this.receiveMode = receiveMode;
            this.nativeIo = nativeIo;
        }

        UdpConfig.Builder apply(UdpConfig.Builder b) {
            return b.receiveMode(receiveMode).nativeIo(nativeIo);
        }
    }

    static UdpEncapsulation open(InetAddress bind, Io mode) throws IOException {
        UdpConfig.Builder b = mode.apply(UdpConfig.builder().localPort(0));
        if (bind != null) {
            b.bind(bind);
        }
        UdpEncapsulation u = UdpEncapsulation.open(b.build());
        assertEquals(mode == Io.NATIVE, u.isNative());
        return u;
    }

    /** Sends one packet and flushes, as the stack thread does after a burst. */
    static void send(UdpEncapsulation u, ByteBuffer packet, InetAddress source, InetAddress destination)
            throws IOException {
        u.send(packet, source, destination);
        u.flush();
    }

    /** Waits up to 5 s for at least one packet and returns all that came in that call. */
    static List<Got> take(UdpEncapsulation u, int max) throws IOException {
        List<Got> got = new ArrayList<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (got.isEmpty() && System.nanoTime() < end) {
            u.receive(
                    (buf, from, to) -> {
                        byte[] d = new byte[buf.remaining()];
                        buf.get(d);
                        got.add(new Got(d, from, to));
                    },
                    max);
            if (got.isEmpty()) {
                u.await(TimeUnit.MILLISECONDS.toNanos(200));
            }
        }
        return got;
    }

    static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
    }

    void bothWays(InetAddress ip, Io mode) throws IOException {
        try (UdpEncapsulation a = open(ip, mode);
                UdpEncapsulation b = open(ip, mode)) {
            assertEquals(9899, a.remotePort(ip), "before anything: the default remote port");
            a.setRemotePort(ip, b.localPort());
            send(a, bytes("hello from a"), ip, ip);
            List<Got> atB = take(b, 10);
            assertEquals(1, atB.size());
            assertArrayEquals(
                    "hello from a".getBytes(StandardCharsets.US_ASCII),
                    atB.get(0).data());
            assertEquals(ip, atB.get(0).from());
            assertEquals(ip, atB.get(0).to());
            // b learned a's port from the datagram (RFC 6951 section 5.4): no configuration needed.
            assertEquals(a.localPort(), b.remotePort(ip));
            send(b, bytes("reply from b"), ip, ip);
            List<Got> atA = take(a, 10);
            assertEquals(1, atA.size());
            assertArrayEquals(
                    "reply from b".getBytes(StandardCharsets.US_ASCII),
                    atA.get(0).data());
            assertEquals(1, a.stats().sent());
            assertEquals(1, a.stats().received());
            assertEquals(1, b.stats().learnedPorts());
            assertEquals(8, a.encapsulationOverhead());
        }
    }

    @ParameterizedTest
    @EnumSource(Io.class)
    void ipv4PacketsBothWaysAndPortLearning(Io mode) throws IOException {
        bothWays(V4, mode);
    }

    @ParameterizedTest
    @EnumSource(Io.class)
    void ipv6PacketsBothWaysAndPortLearning(Io mode) throws IOException {
        bothWays(V6, mode);
    }

    @ParameterizedTest
    @EnumSource(Io.class)
    void dualStackWildcardSocketServesBothFamilies(Io mode) throws IOException {
        try (UdpEncapsulation w = open(null, mode);
                UdpEncapsulation c4 = open(V4, mode);
                UdpEncapsulation c6 = open(V6, mode)) {
            c4.setRemotePort(V4, w.localPort());
            c6.setRemotePort(V6, w.localPort());
            send(c4, bytes("four"), V4, V4);
            Got g4 = take(w, 10).get(0);
            assertEquals(V4, g4.from());
            assertTrue(g4.to().isAnyLocalAddress() && g4.to() instanceof Inet4Address, "to: " + g4.to());
            send(c6, bytes("six"), V6, V6);
            Got g6 = take(w, 10).get(0);
            assertEquals(V6, g6.from());
            assertTrue(g6.to().isAnyLocalAddress() && !(g6.to() instanceof Inet4Address), "to: " + g6.to());
            // replies to both families through the one socket, to the learned ports
            send(w, bytes("back4"), g4.to(), V4);
            send(w, bytes("back6"), g6.to(), V6);
            assertEquals("back4", new String(take(c4, 10).get(0).data(), StandardCharsets.US_ASCII));
            assertEquals("back6", new String(take(c6, 10).get(0).data(), StandardCharsets.US_ASCII));
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Io.class,
            names = {"SELECTOR", "NATIVE"})
    void ipv4AndIpv6SocketsOnOnePort(Io io) throws IOException {
        UdpConfig c = io.apply(UdpConfig.builder().localPort(0).bind(V4, V6)).build();
        try (UdpEncapsulation u = UdpEncapsulation.open(c);
                UdpEncapsulation p6 = open(V6, io)) {
            List<InetSocketAddress> locals = u.localAddresses();
            assertEquals(2, locals.size());
            assertEquals(locals.get(0).getPort(), locals.get(1).getPort(), "one port for every socket");
            p6.setRemotePort(V6, u.localPort());
            send(p6, bytes("x"), V6, V6);
            Got g = take(u, 10).get(0);
            assertEquals(V6, g.to(), "the IPv6 socket's own address");
        }
    }

    @ParameterizedTest
    @EnumSource(Io.class)
    void anAddressAddedAfterOpenReceivesOnTheSamePortAndRemovingItClosesItsSocket(Io io) throws IOException {
        // RFC 5061: an address added to a live endpoint must reach the lower layer; here the
        // layer bound to 127.0.0.1 adds ::1 (two addresses every loopback has).
        try (UdpEncapsulation u = open(V4, io);
                UdpEncapsulation p6 = open(V6, io)) {
            int port = u.localPort();
            u.addAddress(V6);
            u.addAddress(V6); // again: nothing more
            p6.setRemotePort(V6, port);
            send(p6, bytes("to the new address"), V6, V6);
            Got g = take(u, 10).get(0);
            assertEquals("to the new address", new String(g.data(), StandardCharsets.US_ASCII));
            assertEquals(V6, g.to(), "delivered as received on the added address");
            assertEquals(List.of(new InetSocketAddress(V4, port), new InetSocketAddress(V6, port)), u.localAddresses());
            // and it sends from it: p6 learns the port of the new socket (the same port)
            u.setRemotePort(V6, p6.localPort());
            send(u, bytes("from the new address"), V6, V6);
            Got back = take(p6, 10).get(0);
            assertEquals(V6, back.from());
            assertEquals(port, p6.remotePort(V6));

            u.removeAddress(V6);
            u.receive((b, f, t) -> {}, 1); // the stack thread's next call closes the socket
            assertEquals(List.of(new InetSocketAddress(V4, port)), u.localAddresses());
            try (DatagramChannel again = DatagramChannel.open()) {
                again.bind(new InetSocketAddress(V6, port)); // the port is free on ::1 again
            }
            u.removeAddress(V4); // the last one stays
            u.receive((b, f, t) -> {}, 1);
            assertEquals(List.of(new InetSocketAddress(V4, port)), u.localAddresses());
            assertThrows(BindException.class, () -> u.addAddress(addr("192.0.2.1")), "not an address of this host");
            assertThrows(IllegalArgumentException.class, () -> u.addAddress(addr("0.0.0.0")));
        }
    }

    @Test
    void aWildcardSocketNeedsNoSocketForAnAddedAddress() throws IOException {
        try (UdpEncapsulation w = open(null, Io.SELECTOR)) {
            w.addAddress(V4);
            w.receive((b, f, t) -> {}, 1);
            assertEquals(1, w.localAddresses().size(), "the wildcard socket receives on it already");
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Io.class,
            names = {"SELECTOR", "NATIVE"})
    void setRemotePortUntilAPacketSaysOtherwise(Io io) throws IOException {
        try (UdpEncapsulation a = open(V4, io);
                UdpEncapsulation b = open(V4, io);
                UdpEncapsulation c = open(V4, io)) {
            a.setRemotePort(V4, b.localPort());
            assertEquals(b.localPort(), a.remotePort(V4));
            send(a, bytes("to b"), V4, V4);
            assertEquals("to b", new String(take(b, 10).get(0).data(), StandardCharsets.US_ASCII));
            // c now sends from the same address: its port is the last seen, so replies go to c
            c.setRemotePort(V4, a.localPort());
            send(c, bytes("from c"), V4, V4);
            take(a, 10);
            assertEquals(c.localPort(), a.remotePort(V4));
            send(a, bytes("to c"), V4, V4);
            assertEquals("to c", new String(take(c, 10).get(0).data(), StandardCharsets.US_ASCII));
            // setting again wins over what was learned
            a.setRemotePort(V4, b.localPort());
            assertEquals(b.localPort(), a.remotePort(V4));
            assertThrows(IllegalArgumentException.class, () -> a.setRemotePort(V4, 0));
        }
    }

    @Test
    void peersSharingAnAddressAreToldApartByTheirSctpPort() {
        RemotePorts p = new RemotePorts(9899, 16);
        InetAddress host = addr("10.0.0.1");
        p.learn(new InetSocketAddress(host, 1001), 5001); // SCTP port 5001 behind UDP port 1001
        p.learn(new InetSocketAddress(host, 1002), 5002); // another process on the same host
        assertEquals(1001, p.target(host, 5001).getPort());
        assertEquals(1002, p.target(host, 5002).getPort());
        assertEquals(1002, p.target(host, 5003).getPort(), "unknown SCTP port: the address's last port");
        assertEquals(1002, p.target(host).getPort());
        p.set(host, 2000);
        assertEquals(2000, p.target(host, 5001).getPort(), "setting forgets what was learned");
    }

    @Test
    void everyPeerBehindOneAddressKeepsItsOwnPort() {
        // 2,000 peers on one host (a one-to-many server's clients on loopback): each SCTP port
        // keeps the UDP port it was learned from, however many came after it (a bound of 256 per
        // address once sent the 257th peer's packets to another peer's UDP port).
        RemotePorts p = new RemotePorts(9899, 16);
        InetAddress host = addr("127.0.0.1");
        for (int i = 0; i < 2000; i++) {
            p.learn(new InetSocketAddress(host, 20_000 + i), 40_000 + i);
        }
        for (int i = 0; i < 2000; i++) {
            assertEquals(20_000 + i, p.target(host, 40_000 + i).getPort(), "peer " + i);
        }
    }

    @Test
    void theSctpPortsOfAllAddressesTogetherAreBounded() {
        // Past the budget (65,536 entries for 16 addresses), a new SCTP port replaces one of its
        // address's entries instead of growing the tables.
        RemotePorts p = new RemotePorts(9899, 16);
        for (int h = 0; h < 2; h++) {
            InetAddress host = addr("10.0.0." + (h + 1));
            for (int port = 1; port <= 65_535; port++) {
                p.learn(new InetSocketAddress(host, 1000 + h), port);
            }
        }
        int known = 0;
        for (int h = 0; h < 2; h++) {
            InetAddress host = addr("10.0.0." + (h + 1));
            for (int port = 1; port <= 65_535; port++) {
                known += p.target(host, port).getPort() == 1000 + h ? 1 : 0;
            }
        }
        assertEquals(2 * 65_535, known, "each address's last port answers for the rest");
        assertEquals(65_536, p.sctpPortEntries());
    }

    @Test
    void learnedPortsAreBounded() {
        RemotePorts p = new RemotePorts(9899, 2);
        p.learn(new InetSocketAddress(addr("10.0.0.1"), 1001));
        p.learn(new InetSocketAddress(addr("10.0.0.2"), 1002));
        p.learn(new InetSocketAddress(addr("10.0.0.1"), 1011)); // seen again: most recent
        p.learn(new InetSocketAddress(addr("10.0.0.3"), 1003)); // evicts 10.0.0.2
        assertEquals(2, p.learnedCount());
        assertEquals(1011, p.port(addr("10.0.0.1")));
        assertEquals(9899, p.port(addr("10.0.0.2")));
        assertEquals(1003, p.port(addr("10.0.0.3")));
    }

    @ParameterizedTest
    @EnumSource(Io.class)
    void receiveTakesAtMostMax(Io mode) throws Exception {
        try (UdpEncapsulation a = open(V4, mode);
                UdpEncapsulation b = open(V4, mode)) {
            a.setRemotePort(V4, b.localPort());
            for (int i = 0; i < 10; i++) {
                send(a, bytes("p" + i), V4, V4);
            }
            List<String> got = new ArrayList<>();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (got.size() < 10 && System.nanoTime() < end) {
                int n = b.receive(
                        (buf, f, t) ->
                                got.add(StandardCharsets.US_ASCII.decode(buf).toString()),
                        3);
                assertTrue(n <= 3, "took " + n);
                if (n == 0) {
                    b.await(TimeUnit.MILLISECONDS.toNanos(100));
                }
            }
            assertEquals(List.of("p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9"), got);
        }
    }

    @ParameterizedTest
    @EnumSource(Io.class)
    void wakeupUnblocksAwait(Io mode) throws Exception {
        try (UdpEncapsulation u = open(V4, mode)) {
            CompletableFuture<Long> took = CompletableFuture.supplyAsync(() -> {
                long t0 = System.nanoTime();
                try {
                    u.await(TimeUnit.SECONDS.toNanos(30));
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
                return System.nanoTime() - t0;
            });
            Thread.sleep(200);
            u.wakeup();
            long nanos = took.get(10, TimeUnit.SECONDS);
            assertTrue(nanos < TimeUnit.SECONDS.toNanos(10), "await returned after " + nanos + " ns");
            // a wakeup before the await makes the next await return at once
            u.wakeup();
            long t0 = System.nanoTime();
            u.await(TimeUnit.SECONDS.toNanos(30));
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10));
        }
    }

    @ParameterizedTest
    @EnumSource(Io.class)
    void awaitReturnsWhenADatagramArrives(Io mode) throws Exception {
        try (UdpEncapsulation a = open(V4, mode);
                UdpEncapsulation b = open(V4, mode)) {
            a.setRemotePort(V4, b.localPort());
            CompletableFuture<Long> took = CompletableFuture.supplyAsync(() -> {
                long t0 = System.nanoTime();
                try {
                    b.await(TimeUnit.SECONDS.toNanos(30));
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
                return System.nanoTime() - t0;
            });
            Thread.sleep(200);
            send(a, bytes("wake"), V4, V4);
            assertTrue(took.get(10, TimeUnit.SECONDS) < TimeUnit.SECONDS.toNanos(10));
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Io.class,
            names = {"SELECTOR", "NATIVE"})
    void portInUseSaysWhichPortAndTheVariable(Io io) throws IOException {
        try (UdpEncapsulation a = open(V4, io)) {
            UdpConfig clash = io.apply(
                            UdpConfig.builder().localPort(a.localPort()).bind(V4))
                    .build();
            BindException e = assertThrows(BindException.class, () -> UdpEncapsulation.open(clash));
            assertTrue(e.getMessage().contains("UDP port " + a.localPort()), e.getMessage());
            assertTrue(e.getMessage().contains(UdpConfig.PORT_ENV), e.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Io.class,
            names = {"SELECTOR", "NATIVE"})
    void addressNotOnThisHost(Io io) {
        UdpConfig c = io.apply(UdpConfig.builder().localPort(0).bind(addr("192.0.2.1")))
                .build();
        BindException e = assertThrows(BindException.class, () -> UdpEncapsulation.open(c));
        assertTrue(e.getMessage().contains("192.0.2.1 is not an address of this host"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(
            value = Io.class,
            names = {"SELECTOR", "NATIVE"})
    void noSocketOfTheDestinationsFamily(Io io) throws IOException {
        try (UdpEncapsulation a = open(V4, io)) {
            IOException e = assertThrows(IOException.class, () -> send(a, bytes("x"), V6, V6));
            assertTrue(e.getMessage().contains("no IPv6 socket"), e.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Io.class,
            names = {"SELECTOR", "NATIVE"})
    void heapBufferToSendIsLeftUntouched(Io io) throws IOException {
        try (UdpEncapsulation a = open(V4, io);
                UdpEncapsulation b = open(V4, io)) {
            a.setRemotePort(V4, b.localPort());
            ByteBuffer p = bytes("0123456789").position(2).limit(8);
            send(a, p, V4, V4);
            assertEquals(2, p.position());
            assertEquals("234567", new String(take(b, 10).get(0).data(), StandardCharsets.US_ASCII));
            ByteBuffer d =
                    ByteBuffer.allocateDirect(4).put(new byte[] {1, 2, 3, 4}).flip();
            send(a, d, V4, V4);
            assertArrayEquals(new byte[] {1, 2, 3, 4}, take(b, 10).get(0).data());
        }
    }

    @ParameterizedTest
    @EnumSource(Io.class)
    void closedMeansClosed(Io mode) throws IOException {
        UdpEncapsulation a = open(V4, mode);
        a.close();
        a.close(); // idempotent
        assertThrows(ClosedChannelException.class, () -> send(a, bytes("x"), V4, V4));
        assertThrows(ClosedChannelException.class, () -> a.receive((b, f, t) -> {}, 1));
        assertThrows(ClosedChannelException.class, () -> a.await(0));
    }

    @ParameterizedTest
    @EnumSource(
            value = Io.class,
            names = {"SELECTOR", "NATIVE"})
    void datagramsFromAPlainUdpSocketArePassedOnWithTheirSource(Io io) throws IOException {
        try (UdpEncapsulation u = open(V4, io);
                DatagramChannel plain = DatagramChannel.open()) {
            plain.bind(new InetSocketAddress(V4, 0));
            plain.send(bytes("raw"), new InetSocketAddress(V4, u.localPort()));
            take(u, 10);
            assertEquals(((InetSocketAddress) plain.getLocalAddress()).getPort(), u.remotePort(V4));
        }
    }

    @Test
    void portComesFromCodeThenEnvironmentThenDefault() {
        assertEquals(9899, UdpConfig.defaultLocalPort(Map.of()));
        assertEquals(12345, UdpConfig.defaultLocalPort(Map.of(UdpConfig.PORT_ENV, "12345")));
        assertEquals(0, UdpConfig.defaultLocalPort(Map.of(UdpConfig.PORT_ENV, " 0 ")));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> UdpConfig.defaultLocalPort(Map.of(UdpConfig.PORT_ENV, "99999")));
        assertTrue(e.getMessage().contains(UdpConfig.PORT_ENV), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> UdpConfig.defaultLocalPort(Map.of(UdpConfig.PORT_ENV, "x")));
        assertEquals(4242, UdpConfig.builder().localPort(4242).build().localPort());
        UdpConfig d = UdpConfig.builder().build();
        assertEquals(UdpConfig.defaultLocalPort(System.getenv()), d.localPort());
        assertEquals(9899, d.defaultRemotePort());
        assertEquals(4 << 20, d.receiveBufferBytes());
        assertEquals(ReceiveMode.SELECTOR, d.receiveMode());
        assertEquals(d, d.toBuilder().build());
    }

    @Test
    void configRejectsMisuse() {
        assertThrows(
                IllegalArgumentException.class,
                () -> UdpConfig.builder().localPort(70000).build());
        assertThrows(
                IllegalArgumentException.class,
                () -> UdpConfig.builder().bind(addr("0.0.0.0"), V4).build());
        assertThrows(
                IllegalArgumentException.class,
                () -> UdpConfig.builder().bind(V4, V4).build());
        assertThrows(
                IllegalArgumentException.class,
                () -> UdpConfig.builder().receiveQueueDepth(3).build());
    }
}
