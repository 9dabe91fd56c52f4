package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;

/**
 * State Cookie parameter, RFC 9260 section 3.3.3.1 (in INIT ACK).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Type = 7             |          Length               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                            Cookie                             /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The cookie is opaque to the receiver of the INIT ACK, which sends it back in COOKIE ECHO.
 *
 * @param cookie the cookie, as built by the sender of the INIT ACK
 */
public record StateCookieParameter(Bytes cookie) implements Parameter {

    /** Validates the fields. */
    public StateCookieParameter {
        if (cookie == null) {
            throw new IllegalArgumentException("cookie must not be null; use Bytes.EMPTY");
        }
        ParamCodec.checkValueLength("state cookie", cookie.length());
    }

    @Override
    public int type() {
        return ParameterType.STATE_COOKIE;
    }

    @Override
    public int valueLength() {
        return cookie.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        cookie.writeTo(out);
    }

    /** Decodes; any length from 4 is valid (the content is opaque). */
    public static Parsed<StateCookieParameter> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        return Parsed.ok(new StateCookieParameter(Bytes.copyOf(buf, offset + HEADER_LENGTH, length - HEADER_LENGTH)));
    }
}
