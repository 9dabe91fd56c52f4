package org.sctpj.nativeio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.sctpj.nativeio.Layout.*;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** sockaddr_in and sockaddr_in6 encoding, decoding, and what the kernel makes of them. */
class SockAddrTest {

    @Test
    void ipv4RoundTripAndBytes() throws Exception {
        byte[] b = new byte[SOCKADDR_IN6_SIZE];
        java.util.Arrays.fill(b, (byte) 0x55); // encode clears what was there
        InetAddress a = InetAddress.getByName("192.0.2.7");
        assertEquals(SOCKADDR_IN_SIZE, SockAddr.encode(b, false, a, 9899));
        assertEquals(
                Linux.AF_INET, ByteBuffer.wrap(b).order(ByteOrder.nativeOrder()).getShort(SA_FAMILY));
        assertEquals(9899, ((b[SA_PORT] & 0xff) << 8) | (b[SA_PORT + 1] & 0xff), "port in network order");
        assertArrayEquals(a.getAddress(), java.util.Arrays.copyOfRange(b, SIN_ADDR, SIN_ADDR + 4));
        for (int i = SIN_ADDR + 4; i < SOCKADDR_IN6_SIZE; i++) {
            assertEquals(0, b[i], "byte " + i);
        }
        assertEquals(Linux.AF_INET, SockAddr.family(b));
        assertEquals(new InetSocketAddress(a, 9899), SockAddr.decode(b, false));
    }

    @Test
    void ipv6RoundTripKeepsTheScope() throws Exception {
        byte[] b = new byte[SOCKADDR_IN6_SIZE];
        byte[] ip = InetAddress.getByName("fe80::1:2:3:4").getAddress();
        Inet6Address a = Inet6Address.getByAddress(null, ip, 7);
        assertEquals(SOCKADDR_IN6_SIZE, SockAddr.encode(b, true, a, 5001));
        ByteBuffer n = ByteBuffer.wrap(b).order(ByteOrder.nativeOrder());
        assertEquals(Linux.AF_INET6, n.getShort(SA_FAMILY));
        assertEquals(0, n.getInt(SIN6_FLOWINFO));
        assertEquals(7, n.getInt(SIN6_SCOPE_ID), "scope id in native order");
        InetSocketAddress back = SockAddr.decode(b, false);
        assertEquals(5001, back.getPort());
        assertArrayEquals(ip, back.getAddress().getAddress());
        assertEquals(7, ((Inet6Address) back.getAddress()).getScopeId());

        InetAddress global = InetAddress.getByName("2001:db8::5");
        SockAddr.encode(b, true, global, 1);
        assertEquals(new InetSocketAddress(global, 1), SockAddr.decode(b, false));
    }

    @Test
    void ipv4OnAnIpv6SocketIsMapped() throws Exception {
        byte[] b = new byte[SOCKADDR_IN6_SIZE];
        InetAddress a = InetAddress.getByName("198.51.100.1");
        assertEquals(SOCKADDR_IN6_SIZE, SockAddr.encode(b, true, a, 80));
        assertEquals((byte) 0xff, b[SIN6_ADDR + 10]);
        assertEquals((byte) 0xff, b[SIN6_ADDR + 11]);
        assertEquals(new InetSocketAddress(a, 80), SockAddr.decode(b, false), "mapped comes back as IPv4");
        InetSocketAddress kept = SockAddr.decode(b, true);
        assertInstanceOf(Inet6Address.class, kept.getAddress());
        assertEquals(80, kept.getPort());
    }

    @Test
    void otherFamiliesAndMisuse() throws Exception {
        byte[] b = new byte[SOCKADDR_IN6_SIZE];
        b[0] = 1; // AF_UNIX on a little-endian CPU, 256 on a big-endian one: neither is ours
        assertNull(SockAddr.decode(b, false));
        assertThrows(IllegalArgumentException.class, () -> SockAddr.encode(b, false, InetAddress.getByName("::1"), 1));
    }

    /** The kernel agrees: bind what encode wrote, read back what getsockname writes, decode it. */
    @Test
    void theKernelBindsWhatEncodeWrites() throws Exception {
        assumeTrue(supported(), "Linux x86-64 or AArch64 only");
        roundTripThroughTheKernel(InetAddress.getByName("127.0.0.1"), false);
        int probe = Native.libc().socket(Linux.AF_INET6, Linux.SOCK_DGRAM | Linux.SOCK_CLOEXEC, 0);
        assumeTrue(probe >= 0, "no IPv6");
        Native.libc().close(probe);
        roundTripThroughTheKernel(InetAddress.getByName("::1"), true);
        roundTripThroughTheKernel(InetAddress.getByName("127.0.0.1"), true); // v4-mapped on a v6 socket
    }

    private static void roundTripThroughTheKernel(InetAddress address, boolean six) throws IOException {
        LibC c = Native.libc();
        int fd = c.socket(six ? Linux.AF_INET6 : Linux.AF_INET, Linux.SOCK_DGRAM | Linux.SOCK_CLOEXEC, 0);
        assertTrue(fd >= 0, Native.describe(Native.errno()));
        try {
            byte[] b = new byte[SOCKADDR_IN6_SIZE];
            int length = SockAddr.encode(b, six, address, 0);
            ByteBuffer sa = Native.allocate(SOCKADDR_IN6_SIZE);
            sa.put(0, b, 0, length);
            assertEquals(0, c.bind(fd, Native.pointer(sa), length), () -> Native.describe(Native.errno()));
            ByteBuffer len = Native.allocate(4);
            len.putInt(0, SOCKADDR_IN6_SIZE);
            sa.put(0, new byte[SOCKADDR_IN6_SIZE]);
            assertEquals(0, c.getsockname(fd, Native.pointer(sa), Native.pointer(len)));
            assertEquals(length, len.getInt(0));
            sa.get(0, b, 0, SOCKADDR_IN6_SIZE);
            InetSocketAddress got = SockAddr.decode(b, false);
            assertEquals(address, got.getAddress());
            assertNotEquals(0, got.getPort(), "the kernel chose an ephemeral port");
            assertEquals(address instanceof Inet4Address, got.getAddress() instanceof Inet4Address);
        } finally {
            c.close(fd);
        }
    }

    static boolean supported() {
        try {
            Native.libc();
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
