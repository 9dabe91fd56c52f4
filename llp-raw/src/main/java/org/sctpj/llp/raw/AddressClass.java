package org.sctpj.llp.raw;

import java.net.Inet4Address;
import java.net.InetAddress;

/**
 * What kind of address an IP address is, for choosing which local addresses to use and to
 * announce: a loopback or link-local address means nothing to a peer elsewhere, a private IPv4
 * address only inside its network.
 */
public enum AddressClass {
    /** {@code 0.0.0.0} or {@code ::}: no address. */
    UNSPECIFIED,
    /** {@code 127.0.0.0/8} or {@code ::1}. */
    LOOPBACK,
    /** {@code 169.254.0.0/16} (RFC 3927) or {@code fe80::/10} (RFC 4291). */
    LINK_LOCAL,
    /**
     * A private IPv4 address: {@code 10/8}, {@code 172.16/12}, {@code 192.168/16} (RFC 1918) or
     * the shared address space of carrier-grade NAT, {@code 100.64/10} (RFC 6598).
     */
    PRIVATE_V4,
    /** Any other unicast IPv4 address. */
    PUBLIC_V4,
    /** A unique local IPv6 address, {@code fc00::/7} (RFC 4193). */
    ULA,
    /** A global unicast IPv6 address, {@code 2000::/3} (RFC 4291). */
    GLOBAL_V6,
    /** A multicast address: {@code 224.0.0.0/4} or {@code ff00::/8}. */
    MULTICAST,
    /**
     * Anything else: the rest of {@code 0.0.0.0/8}, {@code 240.0.0.0/4} and the broadcast address,
     * and IPv6 outside the ranges above (e.g. deprecated site-local {@code fec0::/10}).
     */
    OTHER;

    /** The class of {@code address}. */
    public static AddressClass of(InetAddress address) {
        byte[] a = address.getAddress();
        int b0 = a[0] & 0xff;
        int b1 = a[1] & 0xff;
        if (address instanceof Inet4Address) {
            if (address.isAnyLocalAddress()) {
                return UNSPECIFIED;
            }
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
            if (b0 >= 224 && b0 <= 239) {
                return MULTICAST;
            }
            if (b0 == 0 || b0 >= 240) {
                return OTHER;
            }
            return PUBLIC_V4;
        }
        if (address.isAnyLocalAddress()) {
            return UNSPECIFIED;
        }
        if (address.isLoopbackAddress()) {
            return LOOPBACK;
        }
        if (b0 == 0xfe && (b1 & 0xc0) == 0x80) {
            return LINK_LOCAL;
        }
        if ((b0 & 0xfe) == 0xfc) {
            return ULA;
        }
        if (b0 == 0xff) {
            return MULTICAST;
        }
        if ((b0 & 0xe0) == 0x20) {
            return GLOBAL_V6;
        }
        return OTHER;
    }

    /** Whether an address of this class can be reached from beyond its own link and network. */
    public boolean isGlobal() {
        return this == PUBLIC_V4 || this == GLOBAL_V6;
    }

    /** Whether an address of this class can be a local unicast address of an SCTP endpoint. */
    public boolean isUnicast() {
        return this != UNSPECIFIED && this != MULTICAST && this != OTHER;
    }
}
