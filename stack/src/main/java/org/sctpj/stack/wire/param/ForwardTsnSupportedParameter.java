package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Parsed;

/**
 * Forward-TSN-Supported parameter, RFC 3758 section 3.1 (in INIT and INIT ACK).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |    Parameter Type = 49152     |  Parameter Length = 4         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>Announces that its sender supports partial reliability (PR-SCTP, the FORWARD TSN chunk).
 */
public record ForwardTsnSupportedParameter() implements Parameter {

    /** The only valid Parameter Length: the header alone. */
    public static final int LENGTH = 4;

    /** The parameter (all instances are equal). */
    public static final ForwardTsnSupportedParameter INSTANCE = new ForwardTsnSupportedParameter();

    @Override
    public int type() {
        return ParameterType.FORWARD_TSN_SUPPORTED;
    }

    @Override
    public int valueLength() {
        return 0;
    }

    @Override
    public void writeValue(ByteBuffer out) {}

    /** Decodes; the length must be exactly 4. */
    public static Parsed<ForwardTsnSupportedParameter> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        if (length != LENGTH) {
            return ParamCodec.wrongLength(chunkType, offset, ParameterType.FORWARD_TSN_SUPPORTED, length, LENGTH);
        }
        return Parsed.ok(INSTANCE);
    }
}
