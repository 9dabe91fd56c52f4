package org.sctpj.llp.raw;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;

/**
 * A small cache of {@link InetAddress} objects by their bytes, so that receiving from the same few
 * peers allocates no address per packet. Round-robin replacement; one owner thread.
 */
final class AddressCache {
    private static final int SIZE = 16;

    private final int[] v4Keys = new int[SIZE];
    private final InetAddress[] v4 = new InetAddress[SIZE];
    private int v4Next;

    private final byte[][] v6Keys = new byte[SIZE][16];
    private final int[] v6Scopes = new int[SIZE];
    private final InetAddress[] v6 = new InetAddress[SIZE];
    private int v6Next;

    /** The IPv4 address whose big-endian value is {@code address}. */
    InetAddress ipv4(int address) {
        for (int i = 0; i < SIZE; i++) {
            if (v4[i] != null && v4Keys[i] == address) {
                return v4[i];
            }
        }
        byte[] b = {(byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address};
        InetAddress a;
        try {
            a = InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new AssertionError("4 bytes are always an IPv4 address", e);
        }
        int i = v4Next;
        v4Next = (v4Next + 1) % SIZE;
        v4Keys[i] = address;
        v4[i] = a;
        return a;
    }

    /**
     * The IPv6 address in {@code b[offset, offset + 16)}; {@code scope} (an interface index) is
     * kept only for link-local addresses. An IPv4-mapped address comes back as its {@link
     * Inet4Address}.
     */
    InetAddress ipv6(ByteBuffer b, int offset, int scope) {
        boolean linkLocal = (b.get(offset) & 0xff) == 0xfe && (b.get(offset + 1) & 0xc0) == 0x80;
        int s = linkLocal ? scope : 0;
        for (int i = 0; i < SIZE; i++) {
            if (v6[i] != null && v6Scopes[i] == s && same(v6Keys[i], b, offset)) {
                return v6[i];
            }
        }
        byte[] bytes = new byte[16];
        b.get(offset, bytes);
        InetAddress a;
        try {
            a = s > 0 ? Inet6Address.getByAddress(null, bytes, s) : InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new AssertionError("16 bytes are always an IPv6 address", e);
        }
        int i = v6Next;
        v6Next = (v6Next + 1) % SIZE;
        System.arraycopy(bytes, 0, v6Keys[i], 0, 16);
        v6Scopes[i] = s;
        v6[i] = a;
        return a;
    }

    private static boolean same(byte[] key, ByteBuffer b, int offset) {
        for (int k = 0; k < 16; k++) {
            if (key[k] != b.get(offset + k)) {
                return false;
            }
        }
        return true;
    }
}
