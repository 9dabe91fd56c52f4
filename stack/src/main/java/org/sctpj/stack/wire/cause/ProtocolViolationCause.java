package org.sctpj.stack.wire.cause;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;

/**
 * Protocol Violation, RFC 9260 section 3.3.10.13: the peer broke a rule of the protocol that no more
 * specific cause describes.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Cause Code = 13           |      Cause Length = Variable  |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                     Additional Information                    /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The additional information is free-form (implementations send text, sometimes followed by
 * binary values) and may be empty (Cause Length 4).
 *
 * @param additionalInformation the additional information, possibly empty
 */
public record ProtocolViolationCause(Bytes additionalInformation) implements ErrorCause {

    /** Validates the field. */
    public ProtocolViolationCause {
        TlvCopies.checkOpaque("additionalInformation", additionalInformation);
    }

    @Override
    public int code() {
        return CauseCode.PROTOCOL_VIOLATION;
    }

    @Override
    public int valueLength() {
        return additionalInformation.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        additionalInformation.writeTo(out);
    }

    /** A cause carrying {@code text} in UTF-8. */
    public static ProtocolViolationCause of(String text) {
        return new ProtocolViolationCause(TlvCopies.utf8(text));
    }

    /** The information decoded as UTF-8 (malformed sequences replaced), for logs and events. */
    public String text() {
        return new String(additionalInformation.toArray(), StandardCharsets.UTF_8);
    }

    /** Decodes; any length from 4 up is valid. */
    public static Parsed<ProtocolViolationCause> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        return Parsed.ok(new ProtocolViolationCause(TlvCopies.value(buf, offset, length)));
    }
}
