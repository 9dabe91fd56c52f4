package org.sctpj.stack.wire.cause;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.TlvFraming;
import org.sctpj.stack.wire.Wire;

/**
 * Unsupported HMAC Identifier, RFC 4895 section 4.1: an AUTH chunk named an HMAC algorithm the
 * receiver does not support.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Cause Code = 0x0105       |      Cause Length = 6         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          HMAC Identifier      |           Padding             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The Cause Length (6) does not count the two padding bytes, which are the ordinary TLV padding
 * ({@link #encode(ByteBuffer, boolean)} writes them unless the cause ends its chunk).
 *
 * @param hmacId the HMAC identifier (RFC 4895 section 3.3), 0..65535
 */
public record UnsupportedHmacIdentifierCause(int hmacId) implements ErrorCause {

    /** The only valid Cause Length. */
    public static final int LENGTH = 6;

    /** Validates the field. */
    public UnsupportedHmacIdentifierCause {
        Wire.checkU16("hmacId", hmacId);
    }

    @Override
    public int code() {
        return CauseCode.UNSUPPORTED_HMAC_IDENTIFIER;
    }

    @Override
    public int valueLength() {
        return LENGTH - HEADER_LENGTH;
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putShort((short) hmacId);
    }

    /** Decodes; the length must be exactly 6. */
    public static Parsed<UnsupportedHmacIdentifierCause> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        if (length != LENGTH) {
            return TlvFraming.badLength(chunkType, offset, "Unsupported HMAC Identifier cause", length, "must be 6");
        }
        return Parsed.ok(new UnsupportedHmacIdentifierCause(Wire.u16(buf, offset + HEADER_LENGTH)));
    }
}
