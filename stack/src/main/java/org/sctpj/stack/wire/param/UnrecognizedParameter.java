package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.TlvFraming;

/**
 * Unrecognized Parameter parameter, RFC 9260 section 3.3.3.1 (in INIT ACK): reports a parameter of
 * the INIT that the sender of the INIT ACK did not recognise and whose type asked for a report.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Type = 8             |          Length               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                  Unrecognized Parameter                       /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The value is the reported parameter, type, length and value, kept as raw bytes: it is
 * whatever the peer quoted, and peers differ on whether the quoted parameter keeps its padding
 * (Linux 6.1 drops it, so a quoted parameter of odd length is not well-formed on its own). {@link
 * #decodeQuoted} decodes it when it is well-formed.
 *
 * @param parameter the quoted parameter, as raw bytes
 */
public record UnrecognizedParameter(Bytes parameter) implements Parameter {

    /** Validates the fields. */
    public UnrecognizedParameter {
        if (parameter == null) {
            throw new IllegalArgumentException("parameter must not be null");
        }
        ParamCodec.checkValueLength("unrecognized parameter", parameter.length());
    }

    /**
     * Quotes an unrecognized parameter, with its padding, so that the quoted bytes are a
     * well-formed parameter on their own.
     *
     * @throws IllegalArgumentException if the padded parameter does not fit in another parameter
     */
    public static UnrecognizedParameter of(UnknownParameter unrecognized) {
        ByteBuffer b = ByteBuffer.allocate(unrecognized.encodedLength());
        unrecognized.encode(b, true);
        return new UnrecognizedParameter(Bytes.of(b.array()));
    }

    /**
     * Decodes the quoted parameter; offsets in an error count from the first quoted byte.
     *
     * @param chunkType the chunk type to report in an error (normally INIT ACK)
     */
    public Parsed<? extends Parameter> decodeQuoted(int chunkType) {
        ByteBuffer b = parameter.asReadOnlyBuffer();
        Parsed<Integer> framed = TlvFraming.frame(b, 0, b.limit(), chunkType);
        if (!framed.isOk()) {
            return framed.castFailure();
        }
        return Parameters.decode(b, 0, framed.value(), chunkType);
    }

    @Override
    public int type() {
        return ParameterType.UNRECOGNIZED_PARAMETER;
    }

    @Override
    public int valueLength() {
        return parameter.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        parameter.writeTo(out);
    }

    /** Decodes; any length from 4 is valid (the quoted bytes are not checked). */
    public static Parsed<UnrecognizedParameter> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        return Parsed.ok(new UnrecognizedParameter(Bytes.copyOf(buf, offset + HEADER_LENGTH, length - HEADER_LENGTH)));
    }
}
