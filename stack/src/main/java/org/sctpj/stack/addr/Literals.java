package org.sctpj.stack.addr;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Parses IP address literals without any name lookup (the core does no I/O): dotted-quad IPv4 is
 * parsed here; IPv6 is handed to the JDK in brackets, which makes it parse a literal or fail
 * rather than ask DNS. Scope suffixes ({@code %eth0}) are refused because resolving one reads the
 * host's interfaces.
 */
final class Literals {
    private Literals() {}

    /** The address written in {@code text}; throws IllegalArgumentException if it is no literal. */
    static InetAddress parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("an address literal must not be empty");
        }
        if (text.indexOf('%') >= 0) {
            throw new IllegalArgumentException("scoped address " + text
                    + ": scope suffixes are not supported here; build the Inet6Address with its scope id");
        }
        if (text.indexOf(':') >= 0) {
            if (!text.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.')) {
                throw new IllegalArgumentException("not an IPv6 literal: " + text);
            }
            try {
                return InetAddress.getByName("[" + text + "]");
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("not an IPv6 literal: " + text, e);
            }
        }
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("not an IPv4 dotted-quad literal: " + text);
        }
        byte[] b = new byte[4];
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException("not an IPv4 dotted-quad literal: " + text);
            }
            int v = Integer.parseInt(p);
            if (v > 255) {
                throw new IllegalArgumentException("IPv4 octet above 255 in " + text);
            }
            b[i] = (byte) v;
        }
        try {
            return Inet4Address.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new AssertionError("4 bytes are always an IPv4 address", e);
        }
    }

    /** Bits of an address: 32 for IPv4, 128 for IPv6. */
    static int bits(InetAddress a) {
        return a.getAddress().length * 8;
    }

    /** True if both addresses have the same length and agree on the first {@code prefix} bits. */
    static boolean samePrefix(InetAddress a, InetAddress b, int prefix) {
        byte[] x = a.getAddress();
        byte[] y = b.getAddress();
        if (x.length != y.length) {
            return false;
        }
        int full = prefix / 8;
        for (int i = 0; i < full; i++) {
            if (x[i] != y[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (x[full] & mask) == (y[full] & mask);
    }

    /** The number of leading bits two addresses of the same length share (0 for different lengths). */
    static int commonPrefix(InetAddress a, InetAddress b) {
        byte[] x = a.getAddress();
        byte[] y = b.getAddress();
        if (x.length != y.length) {
            return 0;
        }
        int bits = 0;
        for (int i = 0; i < x.length; i++) {
            int d = (x[i] ^ y[i]) & 0xff;
            if (d != 0) {
                return bits + Integer.numberOfLeadingZeros(d) - 24;
            }
            bits += 8;
        }
        return bits;
    }
}
