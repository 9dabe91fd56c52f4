package org.sctpj.stack.wire;

import java.nio.ByteBuffer;

/**
 * Field access helpers shared by the codec. All multi-byte fields are in network byte order
 * (RFC 9260 section 3). 32-bit unsigned fields are carried in {@code int}s holding the same bits.
 */
public final class Wire {

    private Wire() {}

    /** Unsigned byte at absolute index. */
    public static int u8(ByteBuffer b, int at) {
        return b.get(at) & 0xff;
    }

    /** Unsigned 16-bit field at absolute index. */
    public static int u16(ByteBuffer b, int at) {
        return b.getShort(at) & 0xffff;
    }

    /** 32-bit field at absolute index (bits as an int; use {@link Integer#toUnsignedLong}). */
    public static int u32(ByteBuffer b, int at) {
        return b.getInt(at);
    }

    /** {@code n} rounded up to a multiple of 4: the padded size of a TLV (RFC 9260 section 3.2). */
    public static int pad4(int n) {
        return (n + 3) & ~3;
    }

    /** Writes {@code pad4(length) - length} zero bytes. */
    public static void writePadding(ByteBuffer out, int length) {
        for (int i = length; (i & 3) != 0; i++) {
            out.put((byte) 0);
        }
    }

    /** Checks that a 16-bit value fits. */
    public static int checkU16(String name, int v) {
        if ((v & ~0xffff) != 0) {
            throw new IllegalArgumentException(name + " must be in 0..65535, was " + v);
        }
        return v;
    }

    /** Checks that an 8-bit value fits. */
    public static int checkU8(String name, int v) {
        if ((v & ~0xff) != 0) {
            throw new IllegalArgumentException(name + " must be in 0..255, was " + v);
        }
        return v;
    }

    /** Unsigned decimal text of a 32-bit field. */
    public static String u32String(int v) {
        return Integer.toUnsignedString(v);
    }
}
