package org.sctpj.stack.wire.cause;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.TlvFraming;
import org.sctpj.stack.wire.Wire;

/**
 * Invalid Stream Identifier, RFC 9260 section 3.3.10.1: DATA was received for a stream that does
 * not exist.
 *
 * <pre>
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Cause Code = 1            |       Cause Length = 8        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |        Stream Identifier      |         (Reserved)            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * @param streamId the invalid stream identifier
 */
public record InvalidStreamIdentifierCause(int streamId) implements ErrorCause {

    /** The only valid Cause Length. */
    public static final int LENGTH = 8;

    /** Validates the fields. */
    public InvalidStreamIdentifierCause {
        Wire.checkU16("streamId", streamId);
    }

    @Override
    public int code() {
        return CauseCode.INVALID_STREAM_IDENTIFIER;
    }

    @Override
    public int valueLength() {
        return 4;
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putShort((short) streamId);
        out.putShort((short) 0);
    }

    /** Decodes; the length must be exactly 8. */
    public static Parsed<InvalidStreamIdentifierCause> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        if (length != LENGTH) {
            return TlvFraming.badLength(chunkType, offset, "Invalid Stream Identifier cause", length, "must be 8");
        }
        return Parsed.ok(new InvalidStreamIdentifierCause(Wire.u16(buf, offset + 4)));
    }
}
