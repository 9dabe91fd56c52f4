package org.sctpj.stack.wire.cause;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;

/**
 * User-Initiated Abort, RFC 9260 section 3.3.10.12: the upper layer aborted the association, with an
 * optional reason of its own.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Cause Code = 12           |      Cause Length = Variable  |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                    Upper Layer Abort Reason                   /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The reason is opaque to SCTP and may be empty (Cause Length 4).
 *
 * @param reason the upper layer abort reason, possibly empty
 */
public record UserInitiatedAbortCause(Bytes reason) implements ErrorCause {

    /** Validates the field. */
    public UserInitiatedAbortCause {
        TlvCopies.checkOpaque("reason", reason);
    }

    @Override
    public int code() {
        return CauseCode.USER_INITIATED_ABORT;
    }

    @Override
    public int valueLength() {
        return reason.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        reason.writeTo(out);
    }

    /** A cause carrying {@code text} in UTF-8. */
    public static UserInitiatedAbortCause of(String text) {
        return new UserInitiatedAbortCause(TlvCopies.utf8(text));
    }

    /** The information decoded as UTF-8 (malformed sequences replaced), for logs and events. */
    public String text() {
        return new String(reason.toArray(), StandardCharsets.UTF_8);
    }

    /** Decodes; any length from 4 up is valid. */
    public static Parsed<UserInitiatedAbortCause> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        return Parsed.ok(new UserInitiatedAbortCause(TlvCopies.value(buf, offset, length)));
    }
}
