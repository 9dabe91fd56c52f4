package org.sctpj.stack.wire;

import java.nio.ByteBuffer;

/**
 * Framing of the type-length-value elements inside a chunk: parameters (RFC 9260 section 3.2.1)
 * and error causes (section 3.3.10). Each element is padded to a multiple of 4 bytes; the padding
 * of the last one may lie outside the enclosing chunk's length (RFC 9260 section 3.2: the Chunk
 * Length "does include padding of any variable-length parameter except the last parameter").
 */
public final class TlvFraming {
    private TlvFraming() {}

    /** Size of a parameter or cause header. */
    public static final int HEADER_LENGTH = 4;

    /**
     * Checks the TLV header at {@code off}, where the enclosing element ends at {@code end}, and
     * returns its length field (at least 4, ending at or before {@code end}). The next element
     * starts at {@code off + pad4(length)}; when that is beyond {@code end} this was the last.
     */
    public static Parsed<Integer> frame(ByteBuffer b, int off, int end, int chunkType) {
        if (end - off < HEADER_LENGTH) {
            return Parsed.fail(
                    ParseErrorKind.PARAMETER_HEADER_TRUNCATED,
                    chunkType,
                    off,
                    (end - off) + " bytes left, a parameter header needs 4");
        }
        int length = Wire.u16(b, off + 2);
        if (length < HEADER_LENGTH) {
            return Parsed.fail(
                    ParseErrorKind.PARAMETER_LENGTH_TOO_SMALL,
                    chunkType,
                    off,
                    "parameter type 0x" + Integer.toHexString(Wire.u16(b, off)) + " length " + length);
        }
        if (length > end - off) {
            return Parsed.fail(
                    ParseErrorKind.PARAMETER_LENGTH_PAST_CHUNK,
                    chunkType,
                    off,
                    "parameter type 0x" + Integer.toHexString(Wire.u16(b, off)) + " length " + length + " but only "
                            + (end - off) + " bytes left");
        }
        return Parsed.ok(length);
    }

    /** Error for a TLV element of the wrong length for its type. */
    public static <T> Parsed<T> badLength(int chunkType, int off, String what, int length, String expected) {
        return Parsed.fail(
                ParseErrorKind.BAD_PARAMETER_LENGTH, chunkType, off, what + " length " + length + ", " + expected);
    }
}
