package org.sctpj.stack.addr;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Parses IP address literals without any name lookup (the core does no I/O): dotted-quad IPv4 and
 * IPv6 (RFC 4291 section 2.2 text forms: "::" compression, a dotted-quad tail) are parsed here, so
 * no JDK call that could consult DNS is involved. Scope suffixes ({@code %eth0}) are refused because resolving one reads the
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
            return ipv6(text);
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

    /** An IPv6 literal (RFC 4291 section 2.2), without lookup. */
    private static InetAddress ipv6(String text) {
        int dc = text.indexOf("::");
        if (dc >= 0 && text.indexOf("::", dc + 1) >= 0) {
            throw new IllegalArgumentException("not an IPv6 literal (\"::\" twice): " + text);
        }
        String head = dc >= 0 ? text.substring(0, dc) : text;
        String tail = dc >= 0 ? text.substring(dc + 2) : "";
        int[] h = groups(head, text, dc < 0 || tail.isEmpty());
        int[] t = dc >= 0 ? groups(tail, text, true) : new int[0];
        int n = h.length + t.length;
        if ((dc < 0 && n != 8) || (dc >= 0 && n > 7)) {
            throw new IllegalArgumentException("not an IPv6 literal (wrong number of groups): " + text);
        }
        byte[] b = new byte[16];
        for (int i = 0; i < h.length; i++) {
            b[2 * i] = (byte) (h[i] >>> 8);
            b[2 * i + 1] = (byte) h[i];
        }
        for (int i = 0; i < t.length; i++) {
            int g = 8 - t.length + i;
            b[2 * g] = (byte) (t[i] >>> 8);
            b[2 * g + 1] = (byte) t[i];
        }
        try {
            return InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new AssertionError("16 bytes are always an IPv6 address", e);
        }
    }

    /** The 16-bit groups of one side of "::"; a dotted quad is allowed last when {@code last}. */
    private static int[] groups(String part, String text, boolean last) {
        if (part.isEmpty()) {
            return new int[0];
        }
        String[] g = part.split(":", -1);
        boolean v4 = last && g[g.length - 1].indexOf('.') >= 0;
        int[] out = new int[g.length + (v4 ? 1 : 0)];
        for (int i = 0; i < g.length; i++) {
            String x = g[i];
            if (v4 && i == g.length - 1) {
                byte[] q = parse(x).getAddress();
                if (q.length != 4) {
                    throw new IllegalArgumentException("not an IPv6 literal: " + text);
                }
                out[i] = ((q[0] & 0xff) << 8) | (q[1] & 0xff);
                out[i + 1] = ((q[2] & 0xff) << 8) | (q[3] & 0xff);
                continue;
            }
            if (x.isEmpty() || x.length() > 4 || !x.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
                throw new IllegalArgumentException("not an IPv6 literal: " + text);
            }
            out[i] = Integer.parseInt(x, 16);
        }
        return out;
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
