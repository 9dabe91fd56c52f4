package org.sctpj.stack.wire;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * An immutable byte string with value equality, for the variable-length fields of the wire value
 * records (user data, cookies, HMACs, raw unknown elements).
 */
public final class Bytes {

    /** The empty byte string. */
    public static final Bytes EMPTY = new Bytes(new byte[0]);

    private static final HexFormat HEX = HexFormat.of();

    private final byte[] data;

    private Bytes(byte[] data) {
        this.data = data;
    }

    /** A copy of the given array. */
    public static Bytes of(byte... data) {
        return data.length == 0 ? EMPTY : new Bytes(data.clone());
    }

    /** A copy of {@code length} bytes of {@code buf} from absolute index {@code offset}. */
    public static Bytes copyOf(ByteBuffer buf, int offset, int length) {
        if (length == 0) {
            return EMPTY;
        }
        byte[] d = new byte[length];
        buf.get(offset, d, 0, length);
        return new Bytes(d);
    }

    /** Parses hexadecimal digits (white space allowed), for tests and tools. */
    public static Bytes fromHex(String hex) {
        return new Bytes(HEX.parseHex(hex.replaceAll("\\s", "")));
    }

    /** Number of bytes. */
    public int length() {
        return data.length;
    }

    /** The byte at {@code index} as an unsigned value. */
    public int get(int index) {
        return data[index] & 0xff;
    }

    /** A fresh copy of the bytes. */
    public byte[] toArray() {
        return data.clone();
    }

    /** A read-only buffer over the bytes (no copy). */
    public ByteBuffer asReadOnlyBuffer() {
        return ByteBuffer.wrap(data).asReadOnlyBuffer();
    }

    /** Writes the bytes at the buffer's position and advances it. */
    public void writeTo(ByteBuffer out) {
        out.put(data);
    }

    /** Lower-case hexadecimal. */
    public String toHex() {
        return HEX.formatHex(data);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Bytes b && Arrays.equals(data, b.data);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return data.length <= 32
                ? "0x" + toHex()
                : "0x" + HEX.formatHex(data, 0, 32) + "...(" + data.length + " bytes)";
    }
}
