package org.sctpj.nativeio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link SocketFilter}'s program, run by the kernel: UDP sockets run socket filters as raw sockets
 * do, and loopback delivers to every address of 127.0.0.0/8, so a wildcard-bound UDP socket shows
 * which destinations the filter keeps, without root.
 */
class SocketFilterTest {

    @Test
    void keepsOnlyPacketsToTheGivenIpv4Addresses() throws Exception {
        assumeTrue(SockAddrTest.supported(), "Linux x86-64 or AArch64 only");
        InetAddress one = InetAddress.getByName("127.0.0.1");
        InetAddress two = InetAddress.getByName("127.0.0.2");
        InetAddress three = InetAddress.getByName("127.0.0.3");
        int fd = wildcard(false);
        try (DatagramChannel tx = DatagramChannel.open(StandardProtocolFamily.INET)) {
            int port = port(fd);
            // an IPv6 address in the list is ignored by an IPv4 socket's filter
            SocketFilter.acceptDestinations(fd, false, List.of(InetAddress.getByName("::1"), two, three));
            send(tx, one, port, "a");
            send(tx, two, port, "b");
            send(tx, three, port, "c");
            send(tx, one, port, "d");
            assertEquals(List.of("b", "c"), drain(fd));

            SocketFilter.acceptDestinations(fd, false, List.of(one)); // replaces the filter
            send(tx, one, port, "e");
            send(tx, two, port, "f");
            assertEquals(List.of("e"), drain(fd));

            SocketFilter.acceptDestinations(fd, false, List.of(InetAddress.getByName("::1")));
            send(tx, one, port, "g");
            assertEquals(List.of(), drain(fd), "no address of the socket's family: nothing is kept");

            assertTrue(SocketFilter.detach(fd));
            send(tx, one, port, "h");
            send(tx, two, port, "i");
            assertEquals(List.of("h", "i"), drain(fd));
        } finally {
            Native.libc().close(fd);
        }
    }

    @Test
    void comparesAllFourWordsOfAnIpv6Address() throws Exception {
        assumeTrue(SockAddrTest.supported(), "Linux x86-64 or AArch64 only");
        InetAddress lo6 = InetAddress.getByName("::1");
        int fd;
        try {
            fd = wildcard(true);
        } catch (AssertionError e) {
            assumeTrue(false, "no IPv6 here");
            return;
        }
        try (DatagramChannel tx = DatagramChannel.open(StandardProtocolFamily.INET6)) {
            int port = port(fd);
            SocketFilter.acceptDestinations(fd, true, List.of(lo6));
            send(tx, lo6, port, "a");
            assertEquals(List.of("a"), drain(fd));
            // differs from ::1 in the first word only, then in the last only: both dropped
            SocketFilter.acceptDestinations(
                    fd, true, List.of(InetAddress.getByName("1::1"), InetAddress.getByName("::2")));
            send(tx, lo6, port, "b");
            assertEquals(List.of(), drain(fd));
            SocketFilter.acceptDestinations(fd, true, List.of(InetAddress.getByName("::2"), lo6));
            send(tx, lo6, port, "c");
            assertEquals(List.of("c"), drain(fd), "the second address's block");
        } finally {
            Native.libc().close(fd);
        }
    }

    @Test
    void refusesMoreAddressesThanAProgramHolds() throws Exception {
        assumeTrue(SockAddrTest.supported(), "Linux x86-64 or AArch64 only");
        List<InetAddress> many = new ArrayList<>();
        for (int i = 0; i <= SocketFilter.MAX_ADDRESSES; i++) {
            many.add(InetAddress.getByAddress(new byte[] {10, 0, (byte) (i >> 8), (byte) i}));
        }
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> SocketFilter.acceptDestinations(-1, false, many));
        assertTrue(e.getMessage().contains("at most"), e.getMessage());
        IOException bad = assertThrows(
                IOException.class, () -> SocketFilter.acceptDestinations(-1, false, Collections.emptyList()));
        assertTrue(bad.getMessage().contains("SO_ATTACH_FILTER"), bad.getMessage());
    }

    private static void send(DatagramChannel tx, InetAddress to, int port, String text) throws IOException {
        assertEquals(
                text.length(),
                tx.send(ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)), new InetSocketAddress(to, port)));
    }

    /** Every datagram queued now (loopback delivers within the sender's system call). */
    private static List<String> drain(int fd) throws IOException {
        List<String> got = new ArrayList<>();
        ByteBuffer b = Native.allocate(64);
        while (true) {
            long n = Native.libc().read(fd, Native.pointer(b), 64);
            if (n < 0) {
                assertEquals(Linux.EAGAIN, Native.errno(), () -> Native.describe(Native.errno()));
                return got;
            }
            byte[] x = new byte[(int) n];
            b.get(0, x);
            got.add(new String(x, StandardCharsets.US_ASCII));
        }
    }

    private static int wildcard(boolean ipv6) throws IOException {
        return MmsgArrayAndPollerTest.bound(InetAddress.getByAddress(new byte[ipv6 ? 16 : 4]));
    }

    private static int port(int fd) throws IOException {
        return MmsgArrayAndPollerTest.local(fd).getPort();
    }
}
