package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * SSN/TSN Reset Request parameter, RFC 6525 section 4.3 (in RE-CONFIG).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Parameter Type = 15       |      Parameter Length = 8     |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |         Re-configuration Request Sequence Number              |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>Asks the peer to reset all streams and the TSNs in both directions.
 *
 * @param requestSequenceNumber the Re-configuration Request Sequence Number (32 bits as an int)
 */
public record SsnTsnResetRequestParameter(int requestSequenceNumber) implements Parameter {

    /** The only valid Parameter Length. */
    public static final int LENGTH = 8;

    @Override
    public int type() {
        return ParameterType.SSN_TSN_RESET_REQUEST;
    }

    @Override
    public int valueLength() {
        return 4;
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(requestSequenceNumber);
    }

    /** Decodes; the length must be exactly 8. */
    public static Parsed<SsnTsnResetRequestParameter> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        if (length != LENGTH) {
            return ParamCodec.wrongLength(chunkType, offset, ParameterType.SSN_TSN_RESET_REQUEST, length, LENGTH);
        }
        return Parsed.ok(new SsnTsnResetRequestParameter(Wire.u32(buf, offset + HEADER_LENGTH)));
    }

    @Override
    public String toString() {
        return "SsnTsnResetRequestParameter[requestSequenceNumber=" + Wire.u32String(requestSequenceNumber) + "]";
    }
}
