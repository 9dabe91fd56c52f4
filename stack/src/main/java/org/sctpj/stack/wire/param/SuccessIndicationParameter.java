package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * Success Indication parameter, RFC 5061 section 4.2.5 (in ASCONF-ACK).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |        Type = 0xC005          |    Length = 8                 |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |              ASCONF-Response Correlation ID                   |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>Reports that the ASCONF parameter with the same correlation ID succeeded.
 *
 * @param correlationId the correlation ID of the ASCONF parameter it answers (32 bits as an int)
 */
public record SuccessIndicationParameter(int correlationId) implements Parameter {

    /** The only valid Parameter Length. */
    public static final int LENGTH = 8;

    @Override
    public int type() {
        return ParameterType.SUCCESS_INDICATION;
    }

    @Override
    public int valueLength() {
        return 4;
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(correlationId);
    }

    /** Decodes; the length must be exactly 8. */
    public static Parsed<SuccessIndicationParameter> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        if (length != LENGTH) {
            return ParamCodec.wrongLength(chunkType, offset, ParameterType.SUCCESS_INDICATION, length, LENGTH);
        }
        return Parsed.ok(new SuccessIndicationParameter(Wire.u32(buf, offset + HEADER_LENGTH)));
    }

    @Override
    public String toString() {
        return "SuccessIndicationParameter[correlationId=" + Wire.u32String(correlationId) + "]";
    }
}
