package org.sctpj.stack.wire.cause;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;

/**
 * Association Aborted Due to Illegal ASCONF-ACK, RFC 5061 section 4.3 (cause code 0x00A3): sent in
 * the ABORT that follows an ASCONF-ACK whose serial number was never sent (RFC 5061 section 5.3).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Cause Code = 0x00A3       |      Cause Length = 4         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The cause has no cause-specific information (Linux sends it with Cause Length 4). Bytes a
 * peer adds after the header are kept as they are rather than rejected, so that an ABORT is
 * never lost over them.
 *
 * @param information bytes after the header, normally none ({@link #EMPTY})
 */
public record IllegalAsconfAckCause(Bytes information) implements ErrorCause {

    /** Validates the field. */
    public IllegalAsconfAckCause {
        TlvCopies.checkOpaque("information", information);
    }

    @Override
    public int code() {
        return CauseCode.ILLEGAL_ASCONF_ACK;
    }

    @Override
    public int valueLength() {
        return information.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        information.writeTo(out);
    }

    /** The usual form: no information, Cause Length 4. */
    public static final IllegalAsconfAckCause EMPTY = new IllegalAsconfAckCause(Bytes.EMPTY);

    /** Decodes; any length from 4 up is valid. */
    public static Parsed<IllegalAsconfAckCause> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        return Parsed.ok(new IllegalAsconfAckCause(TlvCopies.value(buf, offset, length)));
    }
}
