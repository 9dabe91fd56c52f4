package org.sctpj.llp.udp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The native path's read skip for request/response: after a wait, a read that takes fewer
 * datagrams than it asked for makes the next receive skip the socket (the turn after the one that
 * answered would find it empty), and the next wait, or the receive after the skipped one, reads
 * again, so no datagram waits longer than one call and a wait is never missed.
 */
class NativeReplySkipTest {

    static final InetAddress LO = InetAddress.getLoopbackAddress();

    static UdpEncapsulation open() throws IOException {
        return UdpEncapsulation.open(
                UdpConfig.builder().localPort(0).bind(LO).nativeIo(NativeIo.ON).build());
    }

    static int receive(UdpEncapsulation u, int[] got) throws IOException {
        return u.receive((buf, from, to) -> got[0]++, 64);
    }

    static void send(UdpEncapsulation from, int marker) throws IOException {
        from.send(ByteBuffer.wrap(new byte[] {7, (byte) marker}), LO, LO);
        from.flush();
    }

    static boolean nativeAvailable() {
        try (UdpEncapsulation u = open()) {
            return u.isNative();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    @Test
    void aShortReadAfterAWaitSkipsOneReceiveAndTheOneAfterReadsAgain() throws Exception {
        assumeTrue(nativeAvailable(), "the native path needs Linux with UDP GSO");
        try (UdpEncapsulation a = open();
                UdpEncapsulation b = open()) {
            a.setRemotePort(LO, b.localPort());
            int[] got = {0};
            for (int round = 0; round < 20; round++) {
                send(a, round);
                b.await(TimeUnit.SECONDS.toNanos(5)); // returns at once: the request is queued
                assertEquals(1, receive(b, got), "round " + round + ": the request");
                send(a, 100 + round); // e.g. the next request, come while the answer was made
                long calls = b.stats().receiveSystemCalls();
                assertEquals(0, receive(b, got), "round " + round + ": the turn after the answer skips");
                assertEquals(calls, b.stats().receiveSystemCalls(), "the skipped receive made no system call");
                assertEquals(1, receive(b, got), "round " + round + ": the next receive reads");
            }
            assertEquals(40, got[0]);
        }
    }

    @Test
    void theWaitAfterTheSkipSeesADatagramAndTheReceiveAfterItReads() throws Exception {
        assumeTrue(nativeAvailable(), "the native path needs Linux with UDP GSO");
        try (UdpEncapsulation a = open();
                UdpEncapsulation b = open()) {
            a.setRemotePort(LO, b.localPort());
            int[] got = {0};
            for (int round = 0; round < 10; round++) {
                send(a, round);
                b.await(TimeUnit.SECONDS.toNanos(5));
                assertEquals(1, receive(b, got));
                assertEquals(0, receive(b, got), "skipped");
                Thread sender = new Thread(() -> {
                    try {
                        Thread.sleep(20);
                        send(a, 100);
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                });
                sender.start();
                long t0 = System.nanoTime();
                b.await(TimeUnit.SECONDS.toNanos(5));
                long waited = System.nanoTime() - t0;
                sender.join();
                assertTrue(waited < TimeUnit.SECONDS.toNanos(4), "the wait did not end with the datagram");
                assertEquals(1, receive(b, got), "round " + round + ": read right after the wait");
            }
            assertEquals(20, got[0]);
        }
    }

    @Test
    void aReceiverThatDoesNotWaitNeverSkips() throws Exception {
        assumeTrue(nativeAvailable(), "the native path needs Linux with UDP GSO");
        try (UdpEncapsulation a = open();
                UdpEncapsulation b = open()) {
            a.setRemotePort(LO, b.localPort());
            int[] got = {0};
            for (int round = 0; round < 20; round++) {
                send(a, round);
                assertEquals(1, receive(b, got), "round " + round + ": a short read, not after a wait");
                send(a, 100 + round);
                assertEquals(1, receive(b, got), "round " + round + ": read at once, no skip");
            }
            assertEquals(40, got[0]);
        }
    }
}
