package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;

/**
 * Padding parameter, RFC 4820 section 4 (pads an INIT for path MTU probing).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Parameter Type = 0x8005       |       Parameter Length        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                                                               /
 * \                          Padding Data                         \
 * /                                                               /
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The receiver ignores the padding data; it is kept so that the parameter round-trips.
 *
 * @param data the padding data (normally zeros)
 */
public record PaddingParameter(Bytes data) implements Parameter {

    /** Validates the fields. */
    public PaddingParameter {
        if (data == null) {
            throw new IllegalArgumentException("data must not be null; use Bytes.EMPTY");
        }
        ParamCodec.checkValueLength("padding data", data.length());
    }

    @Override
    public int type() {
        return ParameterType.PADDING;
    }

    @Override
    public int valueLength() {
        return data.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        data.writeTo(out);
    }

    /** Decodes; any length from 4 is valid. */
    public static Parsed<PaddingParameter> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        return Parsed.ok(new PaddingParameter(Bytes.copyOf(buf, offset + HEADER_LENGTH, length - HEADER_LENGTH)));
    }
}
