package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.sctpj.stack.wire.Parsed;

/**
 * Requested HMAC Algorithm parameter, RFC 4895 section 3.3 (SCTP-AUTH, in INIT and INIT ACK).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Parameter Type = 0x8004   |       Parameter Length        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          HMAC Identifier 1    |      HMAC Identifier 2        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                                                               /
 * \                              ...                              \
 * /                                                               /
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |        HMAC Identifier n      |           Padding             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The HMAC identifiers in the order of the sender's preference.
 *
 * @param hmacIds the HMAC identifiers, most preferred first
 */
public record RequestedHmacAlgorithmParameter(List<Integer> hmacIds) implements Parameter {

    /** HMAC identifier of SHA-1 (RFC 4895 section 3.3). */
    public static final int SHA_1 = 1;
    /** HMAC identifier of SHA-256 (RFC 4895 section 3.3). */
    public static final int SHA_256 = 3;

    /** Validates and copies the fields. */
    public RequestedHmacAlgorithmParameter {
        hmacIds = ParamCodec.copyU16List("HMAC identifier", hmacIds);
        ParamCodec.checkValueLength("HMAC identifier list", hmacIds.size() * 2);
    }

    /** A parameter listing the given values. */
    public static RequestedHmacAlgorithmParameter of(int... hmacIds) {
        return new RequestedHmacAlgorithmParameter(
                Arrays.stream(hmacIds).boxed().toList());
    }

    @Override
    public int type() {
        return ParameterType.REQUESTED_HMAC_ALGORITHM;
    }

    @Override
    public int valueLength() {
        return hmacIds.size() * 2;
    }

    @Override
    public void writeValue(ByteBuffer out) {
        ParamCodec.writeU16List(out, hmacIds);
    }

    /** Decodes; the value must be a whole number of 16-bit identifiers ({@link org.sctpj.stack.wire.ParseErrorKind#LIST_LENGTH_MISMATCH}). */
    public static Parsed<RequestedHmacAlgorithmParameter> decode(
            ByteBuffer buf, int offset, int length, int chunkType) {
        return ParamCodec.readU16List(
                        buf, offset + HEADER_LENGTH, offset + length, chunkType, "Requested HMAC Algorithm parameter")
                .map(RequestedHmacAlgorithmParameter::new);
    }
}
