package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;

/**
 * Random parameter, RFC 4895 section 3.1 (SCTP-AUTH, in INIT and INIT ACK).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Parameter Type = 0x8002   |       Parameter Length        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /                        Random Number                          /
 * \                                                               \
 * +                                               +-+-+-+-+-+-+-+-+
 * |                                               |    Padding    |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>RFC 4895 asks for 32 random bytes; the codec accepts any length and leaves that check to
 * the association.
 *
 * @param random the random number
 */
public record RandomParameter(Bytes random) implements Parameter {

    /** Validates the fields. */
    public RandomParameter {
        if (random == null) {
            throw new IllegalArgumentException("random must not be null; use Bytes.EMPTY");
        }
        ParamCodec.checkValueLength("random number", random.length());
    }

    @Override
    public int type() {
        return ParameterType.RANDOM;
    }

    @Override
    public int valueLength() {
        return random.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        random.writeTo(out);
    }

    /** Decodes; any length from 4 is valid. */
    public static Parsed<RandomParameter> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        return Parsed.ok(new RandomParameter(Bytes.copyOf(buf, offset + HEADER_LENGTH, length - HEADER_LENGTH)));
    }
}
