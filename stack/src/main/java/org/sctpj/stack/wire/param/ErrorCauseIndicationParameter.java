package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import java.util.List;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;
import org.sctpj.stack.wire.cause.ErrorCause;
import org.sctpj.stack.wire.cause.ErrorCauses;

/**
 * Error Cause Indication parameter, RFC 5061 section 4.2.3 (in ASCONF-ACK).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |        Type = 0xC003          |    Length = Variable          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |               ASCONF-Response Correlation ID                  |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Error Cause(s)                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>Reports why the ASCONF parameter with the same correlation ID failed. The causes are laid out
 * as in an ERROR chunk: each padded to 4 bytes except the last, whose padding is the parameter's.
 *
 * @param correlationId the correlation ID of the ASCONF parameter it answers (32 bits as an int)
 * @param causes the error causes (RFC 5061 asks for at least one; the codec keeps what it is given)
 */
public record ErrorCauseIndicationParameter(int correlationId, List<ErrorCause> causes) implements Parameter {

    /** Bytes before the first cause: header and correlation ID. */
    public static final int FIXED_LENGTH = 8;

    /** Validates and copies the fields. */
    public ErrorCauseIndicationParameter {
        causes = List.copyOf(causes);
        ParamCodec.checkValueLength("error cause list", FIXED_LENGTH - HEADER_LENGTH + ErrorCauses.listLength(causes));
    }

    /** A parameter with the given causes. */
    public static ErrorCauseIndicationParameter of(int correlationId, ErrorCause... causes) {
        return new ErrorCauseIndicationParameter(correlationId, List.of(causes));
    }

    @Override
    public int type() {
        return ParameterType.ERROR_CAUSE_INDICATION;
    }

    @Override
    public int valueLength() {
        return FIXED_LENGTH - HEADER_LENGTH + ErrorCauses.listLength(causes);
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(correlationId);
        ErrorCauses.writeList(causes, out);
    }

    /** Decodes; the length must be at least 8 and the rest a well-formed list of error causes. */
    public static Parsed<ErrorCauseIndicationParameter> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        if (length < FIXED_LENGTH) {
            return ParamCodec.tooShort(chunkType, offset, ParameterType.ERROR_CAUSE_INDICATION, length, FIXED_LENGTH);
        }
        int correlationId = Wire.u32(buf, offset + 4);
        return ErrorCauses.decodeList(buf, offset + FIXED_LENGTH, offset + length, chunkType)
                .map(causes -> new ErrorCauseIndicationParameter(correlationId, causes));
    }

    @Override
    public String toString() {
        return "ErrorCauseIndication[correlationId=" + Wire.u32String(correlationId) + " causes=" + causes + "]";
    }
}
