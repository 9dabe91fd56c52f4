package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * Cookie Preservative parameter, RFC 9260 section 3.3.2.1 (in INIT).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Type = 9             |          Length = 8           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |         Suggested Cookie Life-Span Increment (msec.)          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>Sent in a new INIT after a Stale Cookie error, to ask for a longer cookie lifetime.
 *
 * @param lifeSpanIncrementMillis the suggested cookie life-span increment in milliseconds (32 bits as an int)
 */
public record CookiePreservativeParameter(int lifeSpanIncrementMillis) implements Parameter {

    /** The only valid Parameter Length. */
    public static final int LENGTH = 8;

    @Override
    public int type() {
        return ParameterType.COOKIE_PRESERVATIVE;
    }

    @Override
    public int valueLength() {
        return 4;
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(lifeSpanIncrementMillis);
    }

    /** Decodes; the length must be exactly 8. */
    public static Parsed<CookiePreservativeParameter> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        if (length != LENGTH) {
            return ParamCodec.wrongLength(chunkType, offset, ParameterType.COOKIE_PRESERVATIVE, length, LENGTH);
        }
        return Parsed.ok(new CookiePreservativeParameter(Wire.u32(buf, offset + HEADER_LENGTH)));
    }

    @Override
    public String toString() {
        return "CookiePreservativeParameter[lifeSpanIncrementMillis=" + Wire.u32String(lifeSpanIncrementMillis) + "]";
    }
}
