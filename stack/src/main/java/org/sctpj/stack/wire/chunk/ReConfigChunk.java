package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import java.util.List;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.Parameters;

/**
 * Re-configuration (RE-CONFIG), RFC 6525 section 3.1: carries one or two stream reset or stream
 * addition requests or responses.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Type = 130    |  Chunk Flags  |      Chunk Length             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /                  Re-configuration Parameter                   /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /             Re-configuration Parameter (optional)             /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The codec checks the count (one or two parameters) and the TLV framing; which pairs of
 * parameters may travel together (RFC 6525 section 3.1) is for the stream reconfiguration
 * procedure to judge. A chunk with no parameter fails with {@link
 * ParseErrorKind#TRUNCATED_FIXED_FIELDS}, one with three or more with {@link
 * ParseErrorKind#INVALID_FIELD_VALUE} at the third parameter. Chunk flags are reserved: sent as
 * zero, ignored on receipt.
 *
 * @param parameters the re-configuration parameters, one or two
 */
public record ReConfigChunk(List<Parameter> parameters) implements Chunk {

    /** Smallest valid Chunk Length: the header and one parameter header. */
    public static final int MIN_LENGTH = HEADER_LENGTH + Parameter.HEADER_LENGTH;
    /** Most parameters one RE-CONFIG carries. */
    public static final int MAX_PARAMETERS = 2;

    /** Validates the fields. */
    public ReConfigChunk {
        parameters = List.copyOf(parameters);
        if (parameters.isEmpty() || parameters.size() > MAX_PARAMETERS) {
            throw new IllegalArgumentException("a RE-CONFIG chunk carries one or two parameters, got "
                    + parameters.size() + ": split the requests over several chunks");
        }
        if (HEADER_LENGTH + Parameters.listLength(parameters) > 0xffff) {
            throw new IllegalArgumentException("parameters too long for one chunk");
        }
    }

    /** A RE-CONFIG with one or two parameters. */
    public static ReConfigChunk of(Parameter... parameters) {
        return new ReConfigChunk(List.of(parameters));
    }

    @Override
    public int type() {
        return ChunkType.RE_CONFIG;
    }

    @Override
    public int flags() {
        return 0;
    }

    @Override
    public int valueLength() {
        return Parameters.listLength(parameters);
    }

    @Override
    public void writeValue(ByteBuffer out) {
        Parameters.writeList(parameters, out);
    }

    /** Decodes a RE-CONFIG whose header is at {@code offset} and Chunk Length is {@code length}. */
    public static Parsed<ReConfigChunk> decode(ByteBuffer buf, int offset, int length) {
        if (length < MIN_LENGTH) {
            return Chunks.checkFixed(ChunkType.RE_CONFIG, offset, length, MIN_LENGTH);
        }
        Parsed<List<Parameter>> list =
                Parameters.decodeList(buf, offset + HEADER_LENGTH, offset + length, ChunkType.RE_CONFIG);
        if (!list.isOk()) {
            return list.castFailure();
        }
        List<Parameter> params = list.value();
        if (params.size() > MAX_PARAMETERS) {
            // The framing was checked by decodeList, so these Parameter Length fields are in bounds.
            int first = offset + HEADER_LENGTH;
            int second = first + Wire.pad4(Wire.u16(buf, first + 2));
            int third = second + Wire.pad4(Wire.u16(buf, second + 2));
            return Parsed.fail(
                    ParseErrorKind.INVALID_FIELD_VALUE,
                    ChunkType.RE_CONFIG,
                    third,
                    "RE-CONFIG chunk carries " + params.size() + " parameters, at most " + MAX_PARAMETERS
                            + " are allowed");
        }
        return Parsed.ok(new ReConfigChunk(params));
    }

    @Override
    public String toString() {
        return "RE_CONFIG" + parameters;
    }
}
