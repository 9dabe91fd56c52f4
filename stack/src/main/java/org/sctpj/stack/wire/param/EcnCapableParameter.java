package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Parsed;

/**
 * ECN Capable parameter, RFC 9260 Appendix A (in INIT and INIT ACK).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Parameter Type = 32768    |     Parameter Length = 4      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>Announces that its sender supports Explicit Congestion Notification (ECNE and CWR chunks).
 */
public record EcnCapableParameter() implements Parameter {

    /** The only valid Parameter Length: the header alone. */
    public static final int LENGTH = 4;

    /** The parameter (all instances are equal). */
    public static final EcnCapableParameter INSTANCE = new EcnCapableParameter();

    @Override
    public int type() {
        return ParameterType.ECN_CAPABLE;
    }

    @Override
    public int valueLength() {
        return 0;
    }

    @Override
    public void writeValue(ByteBuffer out) {}

    /** Decodes; the length must be exactly 4. */
    public static Parsed<EcnCapableParameter> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        if (length != LENGTH) {
            return ParamCodec.wrongLength(chunkType, offset, ParameterType.ECN_CAPABLE, length, LENGTH);
        }
        return Parsed.ok(INSTANCE);
    }
}
