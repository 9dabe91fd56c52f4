package org.sctpj.nativeio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.sctpj.nativeio.Layout.*;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * {@link MmsgArray}'s links, checked by the kernel through sendmmsg and recvmmsg over loopback,
 * and {@link Poller}'s wait and wakeup.
 */
class MmsgArrayAndPollerTest {

    @Test
    void entriesPointAtTheirOwnSlots() throws IOException {
        assumeTrue(SockAddrTest.supported(), "Linux x86-64 or AArch64 only");
        MmsgArray m = new MmsgArray(3, 64, 100);
        for (int i = 0; i < 3; i++) {
            int h = i * MMSGHDR_SIZE;
            assertEquals(Native.address(m.names) + i * SOCKADDR_IN6_SIZE, m.headers.getLong(h + MSG_NAME));
            assertEquals(Native.address(m.iovs) + i * IOVEC_SIZE, m.headers.getLong(h + MSG_IOV));
            assertEquals(1, m.headers.getLong(h + MSG_IOVLEN));
            assertEquals(m.controlAddress(i), m.headers.getLong(h + MSG_CONTROL));
            assertEquals(Native.address(m.controls) + i * 64, m.controlAddress(i));
            assertEquals(m.dataAddress(i), m.iovs.getLong(i * IOVEC_SIZE + IOV_BASE));
            assertEquals(Native.address(m.data) + i * 100, m.dataAddress(i));
            assertEquals(100, m.iovs.getLong(i * IOVEC_SIZE + IOV_LEN));
            assertEquals(m.headerAddress(i), m.headerPointer(i).address());
        }
        MmsgArray bare = new MmsgArray(1, 0, 0);
        assertNull(bare.data);
        assertEquals(0, bare.headers.getLong(MSG_CONTROL));
        assertEquals(0, bare.iovs.getLong(IOV_BASE));
    }

    /** Three datagrams in one sendmmsg, read in one recvmmsg: lengths, payloads and senders. */
    @Test
    void sendmmsgAndRecvmmsgOverLoopback() throws IOException {
        assumeTrue(SockAddrTest.supported(), "Linux x86-64 or AArch64 only");
        LibC c = Native.libc();
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        int rx = bound(lo);
        int tx = bound(lo);
        Poller poller = new Poller(new int[] {rx}, "the test socket");
        try {
            InetSocketAddress rxAddress = local(rx);
            InetSocketAddress txAddress = local(tx);
            MmsgArray out = new MmsgArray(3, 0, 200);
            byte[] name = new byte[SOCKADDR_IN6_SIZE];
            int nameLength = SockAddr.encode(name, false, lo, rxAddress.getPort());
            for (int i = 0; i < 3; i++) {
                out.names.put(i * SOCKADDR_IN6_SIZE, name, 0, nameLength);
                out.headers.putInt(i * MMSGHDR_SIZE + MSG_NAMELEN, nameLength);
                int length = 10 + 50 * i;
                for (int k = 0; k < length; k++) {
                    out.data.put(i * 200 + k, (byte) (i + k));
                }
                out.iovs.putLong(i * IOVEC_SIZE + IOV_LEN, length);
            }
            assertEquals(3, c.sendmmsg(tx, out.headerPointer(0), 3, Linux.MSG_DONTWAIT));

            poller.await(5_000_000_000L); // readable well before the timeout
            MmsgArray in = new MmsgArray(4, 64, 300);
            in.prepareReceive(4);
            int n = c.recvmmsg(rx, in.headerPointer(0), 4, Linux.MSG_DONTWAIT, null);
            assertEquals(3, n, () -> Native.describe(Native.errno()));
            byte[] from = new byte[SOCKADDR_IN6_SIZE];
            for (int i = 0; i < 3; i++) {
                int length = 10 + 50 * i;
                assertEquals(length, in.headers.getInt(i * MMSGHDR_SIZE + MMSG_LEN));
                assertEquals(0, in.headers.getInt(i * MMSGHDR_SIZE + MSG_FLAGS) & Linux.MSG_TRUNC);
                for (int k = 0; k < length; k++) {
                    assertEquals((byte) (i + k), in.data.get(i * 300 + k), "datagram " + i + " byte " + k);
                }
                assertEquals(SOCKADDR_IN_SIZE, in.headers.getInt(i * MMSGHDR_SIZE + MSG_NAMELEN));
                in.names.get(i * SOCKADDR_IN6_SIZE, from);
                assertEquals(txAddress, SockAddr.decode(from, false));
            }
        } finally {
            poller.close();
            c.close(rx);
            c.close(tx);
        }
    }

    @Test
    void awaitReturnsOnWakeupFromAnotherThreadAndOnTimeout() throws Exception {
        assumeTrue(SockAddrTest.supported(), "Linux x86-64 or AArch64 only");
        int fd = bound(InetAddress.getByName("127.0.0.1"));
        Poller poller = new Poller(new int[] {fd}, "the test socket");
        try {
            long t0 = System.nanoTime();
            poller.await(50_000_000L);
            long waited = System.nanoTime() - t0;
            assertTrue(waited >= 40_000_000L, "returned after " + waited + " ns, before the 50 ms timeout");

            Thread waker = new Thread(() -> {
                sleep(100);
                poller.wakeup();
            });
            t0 = System.nanoTime();
            waker.start();
            poller.await(Long.MAX_VALUE);
            waited = System.nanoTime() - t0;
            waker.join();
            assertTrue(waited < 30_000_000_000L, "woken after " + waited + " ns");

            poller.wakeup(); // a wakeup before the wait is not lost
            t0 = System.nanoTime();
            poller.await(30_000_000_000L);
            assertTrue(System.nanoTime() - t0 < 10_000_000_000L, "the early wakeup was lost");
            t0 = System.nanoTime();
            poller.await(50_000_000L); // and was consumed
            assertTrue(System.nanoTime() - t0 >= 40_000_000L, "the wakeup was not consumed");
        } finally {
            poller.close();
            poller.close(); // twice is harmless
            poller.wakeup(); // after close: nothing
            Native.libc().close(fd);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A non-blocking UDP socket of the address's family bound to it, port 0. */
    static int bound(InetAddress address) throws IOException {
        LibC c = Native.libc();
        boolean v6 = address instanceof java.net.Inet6Address;
        int fd = c.socket(
                v6 ? Linux.AF_INET6 : Linux.AF_INET, Linux.SOCK_DGRAM | Linux.SOCK_NONBLOCK | Linux.SOCK_CLOEXEC, 0);
        assertTrue(fd >= 0, Native.describe(Native.errno()));
        byte[] b = new byte[SOCKADDR_IN6_SIZE];
        int length = SockAddr.encode(b, v6, address, 0);
        ByteBuffer sa = Native.allocate(SOCKADDR_IN6_SIZE);
        sa.put(0, b, 0, length);
        int r = c.bind(fd, Native.pointer(sa), length);
        if (r != 0) {
            c.close(fd);
        }
        assertEquals(0, r, () -> Native.describe(Native.errno()));
        return fd;
    }

    static InetSocketAddress local(int fd) throws IOException {
        ByteBuffer sa = Native.allocate(SOCKADDR_IN6_SIZE);
        ByteBuffer len = Native.allocate(4);
        len.putInt(0, SOCKADDR_IN6_SIZE);
        assertEquals(0, Native.libc().getsockname(fd, Native.pointer(sa), Native.pointer(len)));
        byte[] b = new byte[SOCKADDR_IN6_SIZE];
        sa.get(0, b);
        return SockAddr.decode(b, false);
    }
}
