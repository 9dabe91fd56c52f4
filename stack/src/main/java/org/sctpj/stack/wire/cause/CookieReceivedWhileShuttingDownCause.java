package org.sctpj.stack.wire.cause;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.TlvFraming;

/**
 * Cookie Received While Shutting Down, RFC 9260 section 3.3.10.10: a COOKIE ECHO arrived while the receiver was in SHUTDOWN-ACK-SENT; sent in an ERROR bundled with the retransmitted SHUTDOWN ACK (RFC 9260 section 9.2).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Cause Code = 10           |      Cause Length = 4         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The cause has no cause-specific information; any other length is malformed.
 */
public record CookieReceivedWhileShuttingDownCause() implements ErrorCause {

    /** The only valid Cause Length. */
    public static final int LENGTH = 4;

    /** The one value of this cause. */
    public static final CookieReceivedWhileShuttingDownCause INSTANCE = new CookieReceivedWhileShuttingDownCause();

    @Override
    public int code() {
        return CauseCode.COOKIE_WHILE_SHUTTING_DOWN;
    }

    @Override
    public int valueLength() {
        return 0;
    }

    @Override
    public void writeValue(ByteBuffer out) {}

    /** Decodes; the length must be exactly 4. */
    public static Parsed<CookieReceivedWhileShuttingDownCause> decode(
            ByteBuffer buf, int offset, int length, int chunkType) {
        if (length != LENGTH) {
            return TlvFraming.badLength(
                    chunkType, offset, "Cookie Received While Shutting Down cause", length, "must be 4");
        }
        return Parsed.ok(INSTANCE);
    }
}
