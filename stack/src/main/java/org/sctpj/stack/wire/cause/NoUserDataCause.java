package org.sctpj.stack.wire.cause;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.TlvFraming;
import org.sctpj.stack.wire.Wire;

/**
 * No User Data, RFC 9260 section 3.3.10.9: a DATA (or I-DATA) chunk arrived with no user data;
 * sent in the ABORT that RFC 9260 section 6.2 requires.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Cause Code = 9            |      Cause Length = 8         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                  TSN value                                    /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * @param tsn the TSN of the empty DATA chunk (32 bits as an int)
 */
public record NoUserDataCause(int tsn) implements ErrorCause {

    /** The only valid Cause Length. */
    public static final int LENGTH = 8;

    @Override
    public int code() {
        return CauseCode.NO_USER_DATA;
    }

    @Override
    public int valueLength() {
        return LENGTH - HEADER_LENGTH;
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(tsn);
    }

    /** Decodes; the length must be exactly 8. */
    public static Parsed<NoUserDataCause> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        if (length != LENGTH) {
            return TlvFraming.badLength(chunkType, offset, "No User Data cause", length, "must be 8");
        }
        return Parsed.ok(new NoUserDataCause(Wire.u32(buf, offset + HEADER_LENGTH)));
    }

    @Override
    public String toString() {
        return "NoUserDataCause[tsn=" + Wire.u32String(tsn) + "]";
    }
}
