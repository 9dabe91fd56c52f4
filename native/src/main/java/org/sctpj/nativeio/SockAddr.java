package org.sctpj.nativeio;

import static org.sctpj.nativeio.Layout.*;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * struct sockaddr_in and struct sockaddr_in6 as bytes: {@link #encode} writes one from an address
 * and port, {@link #decode} reads one back. The family and the IPv6 scope id are in native order,
 * port and address in network order, as the kernel has them. The caller copies the bytes into or
 * out of the direct buffer a msghdr points to.
 */
public final class SockAddr {
    private SockAddr() {}

    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.nativeOrder());
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());

    /**
     * Writes a sockaddr_in, or a sockaddr_in6 when {@code family6} (an IPv4 address then as
     * IPv4-mapped, {@code ::ffff:a.b.c.d}), into {@code out} (at least {@link
     * Layout#SOCKADDR_IN6_SIZE} bytes, cleared first); returns its length. An IPv6 address keeps
     * its scope id. Allocates nothing but the address bytes {@link InetAddress#getAddress} copies.
     *
     * @throws IllegalArgumentException for an IPv6 address and {@code family6} false
     */
    public static int encode(byte[] out, boolean family6, InetAddress address, int port) {
        Arrays.fill(out, 0, SOCKADDR_IN6_SIZE, (byte) 0);
        SHORT.set(out, SA_FAMILY, (short) (family6 ? Linux.AF_INET6 : Linux.AF_INET));
        out[SA_PORT] = (byte) (port >> 8);
        out[SA_PORT + 1] = (byte) port;
        byte[] a = address.getAddress();
        if (!family6) {
            if (a.length != 4) {
                throw new IllegalArgumentException(address + " is an IPv6 address: it needs a sockaddr_in6");
            }
            System.arraycopy(a, 0, out, SIN_ADDR, 4);
            return SOCKADDR_IN_SIZE;
        }
        if (a.length == 4) {
            out[SIN6_ADDR + 10] = (byte) 0xff;
            out[SIN6_ADDR + 11] = (byte) 0xff;
            System.arraycopy(a, 0, out, SIN6_ADDR + 12, 4);
        } else {
            System.arraycopy(a, 0, out, SIN6_ADDR, 16);
            INT.set(out, SIN6_SCOPE_ID, ((Inet6Address) address).getScopeId());
        }
        return SOCKADDR_IN6_SIZE;
    }

    /** The family field of the sockaddr in {@code raw}: {@link Linux#AF_INET}, {@link Linux#AF_INET6} or another. */
    public static int family(byte[] raw) {
        return (short) SHORT.get(raw, SA_FAMILY) & 0xffff;
    }

    /**
     * The socket address in {@code raw} (a sockaddr_in or sockaddr_in6), or null for another
     * family. An IPv4-mapped IPv6 address comes back as IPv4 unless {@code keepMapped} (then as an
     * {@link Inet6Address}, as a socket of the IPv6 family reports it); a nonzero scope id is kept.
     */
    public static InetSocketAddress decode(byte[] raw, boolean keepMapped) throws UnknownHostException {
        int family = family(raw);
        int port = ((raw[SA_PORT] & 0xff) << 8) | (raw[SA_PORT + 1] & 0xff);
        if (family == Linux.AF_INET) {
            return new InetSocketAddress(
                    InetAddress.getByAddress(Arrays.copyOfRange(raw, SIN_ADDR, SIN_ADDR + 4)), port);
        }
        if (family != Linux.AF_INET6) {
            return null;
        }
        byte[] a = Arrays.copyOfRange(raw, SIN6_ADDR, SIN6_ADDR + 16);
        int scope = (int) INT.get(raw, SIN6_SCOPE_ID);
        InetAddress ip = scope != 0 ? Inet6Address.getByAddress(null, a, scope) : InetAddress.getByAddress(a);
        if (keepMapped && ip instanceof Inet4Address) {
            ip = Inet6Address.getByAddress(null, a, -1);
        }
        return new InetSocketAddress(ip, port);
    }
}
