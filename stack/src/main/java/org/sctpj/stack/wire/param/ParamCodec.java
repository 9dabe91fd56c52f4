package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.TlvFraming;
import org.sctpj.stack.wire.Wire;

/** Checks and list codecs shared by the parameter records of this package. */
final class ParamCodec {
    private ParamCodec() {}

    /** The largest value a parameter can carry: the 16-bit length minus the header. */
    static final int MAX_VALUE_LENGTH = 0xffff - Parameter.HEADER_LENGTH;

    /** Failure for a parameter whose length must be exactly {@code expected}. */
    static <T> Parsed<T> wrongLength(int chunkType, int offset, int type, int length, int expected) {
        return TlvFraming.badLength(
                chunkType, offset, ParameterType.name(type) + " parameter", length, "must be " + expected);
    }

    /** Failure for a parameter shorter than its fixed fields. */
    static <T> Parsed<T> tooShort(int chunkType, int offset, int type, int length, int fixed) {
        return TlvFraming.badLength(
                chunkType,
                offset,
                ParameterType.name(type) + " parameter",
                length,
                "below its fixed " + fixed + " bytes");
    }

    /** Throws if a value of {@code valueLength} bytes does not fit a parameter. */
    static void checkValueLength(String what, int valueLength) {
        if (valueLength > MAX_VALUE_LENGTH) {
            throw new IllegalArgumentException(what + " of " + valueLength + " bytes does not fit one parameter (max "
                    + MAX_VALUE_LENGTH + "): send less");
        }
    }

    /** Copies a list of 16-bit values, checking each. */
    static List<Integer> copyU16List(String name, List<Integer> values) {
        List<Integer> copy = List.copyOf(values);
        for (int v : copy) {
            Wire.checkU16(name, v);
        }
        return copy;
    }

    /** Copies a list of 8-bit values, checking each. */
    static List<Integer> copyU8List(String name, List<Integer> values) {
        List<Integer> copy = List.copyOf(values);
        for (int v : copy) {
            Wire.checkU8(name, v);
        }
        return copy;
    }

    /**
     * Reads the 16-bit values filling {@code [from, end)}; an odd byte count is {@link
     * ParseErrorKind#LIST_LENGTH_MISMATCH}, reported at {@code from}.
     */
    static Parsed<List<Integer>> readU16List(ByteBuffer buf, int from, int end, int chunkType, String what) {
        int n = end - from;
        if ((n & 1) != 0) {
            return Parsed.fail(
                    ParseErrorKind.LIST_LENGTH_MISMATCH,
                    chunkType,
                    from,
                    what + ": " + n + " bytes is not a whole number of 16-bit entries");
        }
        List<Integer> out = new ArrayList<>(n / 2);
        for (int at = from; at < end; at += 2) {
            out.add(Wire.u16(buf, at));
        }
        return Parsed.ok(List.copyOf(out));
    }

    /** Reads the 8-bit values filling {@code [from, end)}. */
    static List<Integer> readU8List(ByteBuffer buf, int from, int end) {
        List<Integer> out = new ArrayList<>(end - from);
        for (int at = from; at < end; at++) {
            out.add(Wire.u8(buf, at));
        }
        return List.copyOf(out);
    }

    /** Writes 16-bit values. */
    static void writeU16List(ByteBuffer out, List<Integer> values) {
        for (int v : values) {
            out.putShort((short) v);
        }
    }

    /** Writes 8-bit values. */
    static void writeU8List(ByteBuffer out, List<Integer> values) {
        for (int v : values) {
            out.put((byte) v);
        }
    }
}
