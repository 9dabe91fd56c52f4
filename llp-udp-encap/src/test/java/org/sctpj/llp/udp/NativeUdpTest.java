package org.sctpj.llp.udp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sctpj.nativeio.Linux;

/**
 * The native path's batching over real loopback sockets: GSO trains, sendmmsg of mixed groups,
 * GRO-coalesced receives split back into packets, the GSO fallback, and the choice of path.
 */
class NativeUdpTest {

    static final InetAddress V4 = UdpEncapsulationTest.V4;
    static final InetAddress V6 = UdpEncapsulationTest.V6;

    static UdpEncapsulation open(InetAddress bind, NativeIo io) throws IOException {
        return UdpEncapsulation.open(
                UdpConfig.builder().localPort(0).bind(bind).nativeIo(io).build());
    }

    /** A packet of {@code size} bytes whose bytes all derive from {@code id}. */
    static ByteBuffer packet(int id, int size) {
        ByteBuffer b = ByteBuffer.allocateDirect(size);
        for (int i = 0; i < size; i++) {
            b.put((byte) (id * 31 + i));
        }
        return b.flip();
    }

    static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }

    /** Reads until {@code want} packets came (5 s at most), {@code max} per receive call. */
    static List<byte[]> collect(UdpEncapsulation u, int want, int max) throws IOException {
        List<byte[]> got = new ArrayList<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (got.size() < want && System.nanoTime() < end) {
            int n = u.receive((buf, from, to) -> got.add(bytes(buf)), max);
            assertTrue(n <= max, "took " + n + " with max " + max);
            if (n == 0) {
                u.await(TimeUnit.MILLISECONDS.toNanos(100));
            }
        }
        return got;
    }

    static void assertPackets(List<ByteBuffer> sent, List<byte[]> got) {
        assertEquals(sent.size(), got.size(), "packets");
        for (int i = 0; i < sent.size(); i++) {
            assertArrayEquals(bytes(sent.get(i)), got.get(i), "packet " + i);
        }
    }

    @ParameterizedTest(name = "{0}, receiver {1}")
    @ValueSource(strings = {"127.0.0.1 NATIVE", "127.0.0.1 OFF", "::1 NATIVE", "::1 OFF"})
    void tenEqualPacketsAndAShortOneGoInOneSendAndArriveIntactInOrder(String args) throws IOException {
        String[] a = args.split(" ");
        InetAddress ip = InetAddress.getByName(a[0]);
        NativeIo receiverIo = a[1].equals("NATIVE") ? NativeIo.ON : NativeIo.OFF;
        try (UdpEncapsulation tx = open(ip, NativeIo.ON);
                UdpEncapsulation rx = open(ip, receiverIo)) {
            tx.setRemotePort(ip, rx.localPort());
            List<ByteBuffer> sent = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                sent.add(packet(i, 1200));
            }
            sent.add(packet(10, 300));
            for (ByteBuffer p : sent) {
                tx.send(p.duplicate(), ip, ip);
            }
            assertEquals(0, tx.stats().sendSystemCalls(), "held until flush");
            tx.flush();
            UdpStats s = tx.stats();
            assertEquals(11, s.sent());
            if (tx.gsoBySocket()[0]) {
                assertEquals(1, s.sendSystemCalls(), "one sendmsg with UDP_SEGMENT");
                assertEquals(1, s.gsoSends());
            }
            assertPackets(sent, collect(rx, 11, 64));
        }
    }

    @Test
    void mixedDestinationsAndSizesInOneFlush() throws IOException {
        InetAddress other = InetAddress.getByName("127.0.0.2"); // loopback too, another address
        try (UdpEncapsulation tx = open(V4, NativeIo.ON);
                UdpEncapsulation b = open(V4, NativeIo.ON);
                UdpEncapsulation c = UdpEncapsulation.open(
                        UdpConfig.builder().localPort(0).nativeIo(NativeIo.ON).build())) {
            tx.setRemotePort(V4, b.localPort());
            tx.setRemotePort(other, c.localPort());
            List<ByteBuffer> toB = new ArrayList<>();
            List<ByteBuffer> toC = new ArrayList<>();
            int id = 0;
            for (int round = 0; round < 4; round++) {
                for (int k = 0; k < 3; k++) { // a train of three to b
                    ByteBuffer p = packet(id++, 1000);
                    toB.add(p);
                    tx.send(p.duplicate(), V4, V4);
                }
                ByteBuffer q = packet(id++, 200 + round); // one to c, of another size
                toC.add(q);
                tx.send(q.duplicate(), V4, other);
                ByteBuffer r = packet(id++, 1400); // a larger one to b ends b's train
                toB.add(r);
                tx.send(r.duplicate(), V4, V4);
            }
            tx.flush();
            assertEquals(20, tx.stats().sent());
            assertEquals(1, tx.stats().sendSystemCalls(), "one sendmmsg: all groups go through one socket");
            assertPackets(toB, collect(b, toB.size(), 64));
            assertPackets(toC, collect(c, toC.size(), 64));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 64})
    void groCoalescedDatagramsAreSplitBackIntoPackets(int max) throws IOException {
        try (UdpEncapsulation tx = open(V4, NativeIo.ON);
                UdpEncapsulation rx = open(V4, NativeIo.ON)) {
            assumeTrue(tx.gsoBySocket()[0] && rx.groBySocket()[0], "the kernel offers UDP GSO and GRO");
            tx.setRemotePort(V4, rx.localPort());
            List<ByteBuffer> sent = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                sent.add(packet(i, i == 39 ? 77 : 1452));
            }
            for (ByteBuffer p : sent) {
                tx.send(p.duplicate(), V4, V4);
            }
            tx.flush();
            List<byte[]> got = collect(rx, 40, max);
            assertPackets(sent, got);
            UdpStats s = rx.stats();
            assertEquals(40, s.received());
            assertTrue(s.groDatagrams() >= 1, "a GSO train over loopback reaches a GRO socket whole: " + s);
            assertTrue(s.receiveSystemCalls() < 40, "fewer receive calls than packets: " + s);
        }
    }

    @Test
    void aFailingGsoSendFallsBackToOneDatagramPerCall() throws IOException {
        try (UdpEncapsulation tx = open(V4, NativeIo.ON);
                UdpEncapsulation rx = open(V4, NativeIo.OFF)) {
            assumeTrue(tx.gsoBySocket()[0], "the kernel offers UDP GSO");
            // SO_NO_CHECK (no UDP checksum) makes the kernel refuse GSO with EINVAL, as a device
            // that cannot offload would with EIO.
            assumeTrue(tx.setSocketOptionForTest(Linux.SOL_SOCKET, 11, 1), "SO_NO_CHECK");
            tx.setRemotePort(V4, rx.localPort());
            List<ByteBuffer> sent = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                sent.add(packet(i, 500));
            }
            for (ByteBuffer p : sent) {
                tx.send(p.duplicate(), V4, V4);
            }
            tx.flush();
            assertEquals(1, tx.stats().gsoFallbacks());
            assertFalse(tx.gsoBySocket()[0], "GSO stays off for that socket");
            assertEquals(5, tx.stats().sent());
            assertPackets(sent, collect(rx, 5, 64));
            // later bursts go without GSO at once: one sendmmsg of single datagrams
            long calls = tx.stats().sendSystemCalls();
            for (ByteBuffer p : sent) {
                tx.send(p.duplicate(), V4, V4);
            }
            tx.flush();
            assertEquals(calls + 1, tx.stats().sendSystemCalls());
            assertEquals(1, tx.stats().gsoFallbacks());
            assertPackets(sent, collect(rx, 5, 64));
        }
    }

    @Test
    void heldPacketsAreSentBeforeAwaitBlocksAndWhenTheBatchIsFull() throws IOException {
        try (UdpEncapsulation tx = open(V4, NativeIo.ON);
                UdpEncapsulation rx = open(V4, NativeIo.ON)) {
            tx.setRemotePort(V4, rx.localPort());
            tx.send(packet(1, 100), V4, V4);
            tx.await(0);
            assertEquals(1, tx.stats().sent(), "await sends what is held first");
            assertEquals(1, collect(rx, 1, 64).size());
            for (int i = 0; i < NativeUdp.MAX_HELD + 1; i++) {
                tx.send(packet(i, 100), V4, V4);
            }
            assertEquals(1 + NativeUdp.MAX_HELD, tx.stats().sent(), "a full batch goes before the next is held");
            tx.flush();
            assertEquals(
                    NativeUdp.MAX_HELD + 1,
                    collect(rx, NativeUdp.MAX_HELD + 1, 64).size());
        }
    }

    @Test
    void theChoiceOfPath() throws IOException {
        try (UdpEncapsulation off = open(V4, NativeIo.OFF);
                UdpEncapsulation on = open(V4, NativeIo.ON)) {
            assertFalse(off.isNative(), "OFF: DatagramChannel");
            assertTrue(on.isNative(), "ON on Linux with UDP_SEGMENT (this machine)");
        }
        try (UdpEncapsulation auto = open(V4, NativeIo.AUTO)) {
            assertEquals(NativeUdp.unavailableReason() == null, auto.isNative());
        }
        IOException e = assertThrows(
                IOException.class,
                () -> UdpEncapsulation.open(UdpConfig.builder()
                        .localPort(0)
                        .bind(V4)
                        .receiveMode(ReceiveMode.RECEIVE_THREAD)
                        .nativeIo(NativeIo.ON)
                        .build()));
        assertTrue(e.getMessage().contains("ReceiveMode.SELECTOR"), e.getMessage());
        try (UdpEncapsulation t = UdpEncapsulation.open(UdpConfig.builder()
                .localPort(0)
                .bind(V4)
                .receiveMode(ReceiveMode.RECEIVE_THREAD)
                .nativeIo(NativeIo.AUTO)
                .build())) {
            assertFalse(t.isNative(), "AUTO with receive threads: DatagramChannel");
        }
    }

    @Test
    void nativeIoComesFromCodeThenPropertyThenEnvironment() {
        String old = System.getProperty(UdpConfig.NATIVE_IO_PROPERTY);
        try {
            System.clearProperty(UdpConfig.NATIVE_IO_PROPERTY);
            assertEquals(NativeIo.AUTO, UdpConfig.defaultNativeIo(Map.of()));
            assertEquals(NativeIo.OFF, UdpConfig.defaultNativeIo(Map.of(UdpConfig.NATIVE_IO_ENV, "off")));
            assertEquals(NativeIo.ON, UdpConfig.defaultNativeIo(Map.of(UdpConfig.NATIVE_IO_ENV, " ON ")));
            IllegalArgumentException bad = assertThrows(
                    IllegalArgumentException.class,
                    () -> UdpConfig.defaultNativeIo(Map.of(UdpConfig.NATIVE_IO_ENV, "fast")));
            assertTrue(bad.getMessage().contains(UdpConfig.NATIVE_IO_ENV), bad.getMessage());
            System.setProperty(UdpConfig.NATIVE_IO_PROPERTY, "off");
            assertEquals(NativeIo.OFF, UdpConfig.defaultNativeIo(Map.of(UdpConfig.NATIVE_IO_ENV, "on")));
            assertEquals(NativeIo.OFF, UdpConfig.builder().build().nativeIo());
            assertEquals(
                    NativeIo.ON,
                    UdpConfig.builder().nativeIo(NativeIo.ON).build().nativeIo(),
                    "code wins");
        } finally {
            if (old == null) {
                System.clearProperty(UdpConfig.NATIVE_IO_PROPERTY);
            } else {
                System.setProperty(UdpConfig.NATIVE_IO_PROPERTY, old);
            }
        }
    }
}
