package org.sctpj.stack.wire.cause;

import java.nio.ByteBuffer;
import java.util.List;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.param.Parameter;

/**
 * Unrecognized Parameters, RFC 9260 section 3.3.10.8: the INIT ACK carried optional parameters the
 * receiver does not know; returned to the INIT ACK's sender (usually bundled with the COOKIE ECHO).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Cause Code = 8            |      Cause Length             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                    Unrecognized Parameters                    /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The field holds the unrecognized parameters copied from the INIT ACK, type, length and value
 * each, kept as raw bytes.
 *
 * @param parameters the copied parameter TLVs, at least one 4-byte TLV header
 */
public record UnrecognizedParametersCause(Bytes parameters) implements ErrorCause {

    /** Validates the field. */
    public UnrecognizedParametersCause {
        TlvCopies.checkTlvCopy("parameters", parameters);
    }

    @Override
    public int code() {
        return CauseCode.UNRECOGNIZED_PARAMETERS;
    }

    @Override
    public int valueLength() {
        return parameters.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        parameters.writeTo(out);
    }

    /** A cause quoting the given parameters, each padded to 4 bytes except the last. */
    public static UnrecognizedParametersCause of(List<? extends Parameter> parameters) {
        return new UnrecognizedParametersCause(TlvCopies.ofParameters(parameters));
    }

    /**
     * Decodes the copied parameters; offsets in a failure count from the start of the copy.
     */
    public Parsed<List<Parameter>> decodeParameters() {
        return TlvCopies.parameters(parameters);
    }

    /**
     * Decodes; the cause must hold at least the 4-byte header of the copied TLV. The copy is kept
     * verbatim (padding included, when the sender copied it), so that re-encoding gives the same
     * bytes.
     */
    public static Parsed<UnrecognizedParametersCause> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        if (length < TlvCopies.MIN_TLV_COPY_CAUSE_LENGTH) {
            return TlvCopies.tooShort(chunkType, offset, length, "Unrecognized Parameters");
        }
        return Parsed.ok(new UnrecognizedParametersCause(TlvCopies.value(buf, offset, length)));
    }
}
