package org.sctpj.stack.addr;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * The class of an IP address, as address selection sees it (SEEDS section 5: skip loopback and
 * link-local, use IPv6 global and ULA, never IPv4-mapped; rank public before private).
 *
 * <p>{@link #of(InetAddress)} classifies by prefix only, without any lookup:
 *
 * <ul>
 *   <li>IPv4: 127/8 {@link #LOOPBACK}; 169.254/16 {@link #LINK_LOCAL} (RFC 3927); 10/8, 172.16/12,
 *       192.168/16 (RFC 1918) and 100.64/10 (shared address space, RFC 6598) {@link #PRIVATE_V4};
 *       0/8 (this network), 224/4 (multicast) and 240/4 (reserved, including the limited
 *       broadcast address) {@link #OTHER}; everything else {@link #PUBLIC_V4}.
 *   <li>IPv6: ::1 {@link #LOOPBACK}; fe80::/10 {@link #LINK_LOCAL}; fc00::/7 {@link #ULA} (RFC
 *       4193); ::ffff:0:0/96 {@link #IPV4_MAPPED}; 2000::/3 {@link #GLOBAL_V6}; everything else
 *       {@link #OTHER}: the unspecified address ::, multicast ff00::/8, the deprecated site-local
 *       fec0::/10 and IPv4-compatible ::/96, the NAT64 prefix 64:ff9b::/96 and unassigned space.
 * </ul>
 *
 * <p>Judgement calls: the documentation blocks (192.0.2/24, 198.51.100/24, 203.0.113/24,
 * 2001:db8::/32) and the benchmarking block 198.18/15 are classified as public ({@link
 * #PUBLIC_V4}, {@link #GLOBAL_V6}): they never appear on the Internet, but lab networks, network
 * namespaces and examples use them as stand-ins for public addresses, and treating them as public
 * keeps such tests meaningful.
 */
public enum AddressClass {
    /** 127.0.0.0/8 or ::1: reaches only this host. */
    LOOPBACK,
    /** 169.254.0.0/16 or fe80::/10: reaches only the attached link, needs a scope. */
    LINK_LOCAL,
    /** Private IPv4: 10/8, 172.16/12, 192.168/16 (RFC 1918) and 100.64/10 (RFC 6598). */
    PRIVATE_V4,
    /** Any other unicast IPv4 address. */
    PUBLIC_V4,
    /** IPv6 global unicast, 2000::/3. */
    GLOBAL_V6,
    /** IPv6 unique local address, fc00::/7 (RFC 4193): the IPv6 counterpart of private IPv4. */
    ULA,
    /** IPv4-mapped IPv6 address ::ffff:0:0/96: never used by address selection. */
    IPV4_MAPPED,
    /** Not usable for SCTP paths: unspecified, multicast, broadcast, reserved, deprecated. */
    OTHER;

    /**
     * The class of an address, from its bytes alone (no lookup).
     *
     * @param address any IPv4 or IPv6 address; an {@link Inet6Address} holding an IPv4-mapped
     *     address is {@link #IPV4_MAPPED} (the wire codec keeps such addresses as IPv6)
     * @return the class, never null
     */
    public static AddressClass of(InetAddress address) {
        if (address == null) {
            throw new IllegalArgumentException("address must not be null");
        }
        byte[] a = address.getAddress();
        if (address instanceof Inet4Address) {
            return ofV4(a[0] & 0xff, a[1] & 0xff);
        }
        if (address instanceof Inet6Address) {
            return ofV6(a);
        }
        throw new IllegalArgumentException(
                "unknown address type " + address.getClass().getName());
    }

    /** True for the classes that are globally routed: {@link #PUBLIC_V4} and {@link #GLOBAL_V6}. */
    public boolean isPublic() {
        return this == PUBLIC_V4 || this == GLOBAL_V6;
    }

    /**
     * True for the classes whose addresses are reused by many sites and so may collide: {@link
     * #PRIVATE_V4} and {@link #ULA}.
     */
    public boolean isPrivate() {
        return this == PRIVATE_V4 || this == ULA;
    }

    private static AddressClass ofV4(int b0, int b1) {
        if (b0 == 127) {
            return LOOPBACK;
        }
        if (b0 == 169 && b1 == 254) {
            return LINK_LOCAL;
        }
        if (b0 == 10 || (b0 == 172 && (b1 & 0xf0) == 16) || (b0 == 192 && b1 == 168)) {
            return PRIVATE_V4;
        }
        if (b0 == 100 && (b1 & 0xc0) == 64) {
            return PRIVATE_V4;
        }
        if (b0 == 0 || b0 >= 224) {
            return OTHER;
        }
        return PUBLIC_V4;
    }

    private static AddressClass ofV6(byte[] a) {
        int b0 = a[0] & 0xff;
        int b1 = a[1] & 0xff;
        if (b0 == 0xfe && (b1 & 0xc0) == 0x80) {
            return LINK_LOCAL;
        }
        if ((b0 & 0xfe) == 0xfc) {
            return ULA;
        }
        if ((b0 & 0xe0) == 0x20) {
            return GLOBAL_V6;
        }
        boolean firstTenZero = true;
        for (int i = 0; i < 10; i++) {
            firstTenZero &= a[i] == 0;
        }
        if (firstTenZero && (a[10] & 0xff) == 0xff && (a[11] & 0xff) == 0xff) {
            return IPV4_MAPPED;
        }
        boolean firstFifteenZero = firstTenZero && a[10] == 0 && a[11] == 0 && a[12] == 0 && a[13] == 0 && a[14] == 0;
        if (firstFifteenZero && a[15] == 1) {
            return LOOPBACK;
        }
        return OTHER;
    }
}
