package org.sctpj.stack.wire.cause;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.TlvFraming;

/**
 * Out of Resource, RFC 9260 section 3.3.10.4: the sender is out of resources; usually sent in an ABORT.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Cause Code = 4            |      Cause Length = 4         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The cause has no cause-specific information; any other length is malformed.
 */
public record OutOfResourceCause() implements ErrorCause {

    /** The only valid Cause Length. */
    public static final int LENGTH = 4;

    /** The one value of this cause. */
    public static final OutOfResourceCause INSTANCE = new OutOfResourceCause();

    @Override
    public int code() {
        return CauseCode.OUT_OF_RESOURCE;
    }

    @Override
    public int valueLength() {
        return 0;
    }

    @Override
    public void writeValue(ByteBuffer out) {}

    /** Decodes; the length must be exactly 4. */
    public static Parsed<OutOfResourceCause> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        if (length != LENGTH) {
            return TlvFraming.badLength(chunkType, offset, "Out of Resource cause", length, "must be 4");
        }
        return Parsed.ok(INSTANCE);
    }
}
