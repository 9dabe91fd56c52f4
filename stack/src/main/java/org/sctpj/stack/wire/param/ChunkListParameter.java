package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.sctpj.stack.wire.Parsed;

/**
 * Chunk List parameter, RFC 4895 section 3.2 (SCTP-AUTH, in INIT and INIT ACK).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Parameter Type = 0x8003   |       Parameter Length        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Chunk Type 1  | Chunk Type 2  | Chunk Type 3  | Chunk Type 4  |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                                                               /
 * \                              ...                              \
 * /                                                               /
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Chunk Type n  |                   Padding                     |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The chunk types that the sender requires to be received inside an AUTH chunk.
 *
 * @param chunkTypes the chunk types, one byte each
 */
public record ChunkListParameter(List<Integer> chunkTypes) implements Parameter {

    /** Validates and copies the fields. */
    public ChunkListParameter {
        chunkTypes = ParamCodec.copyU8List("chunk type", chunkTypes);
        ParamCodec.checkValueLength("chunk type list", chunkTypes.size() * 1);
    }

    /** A parameter listing the given values. */
    public static ChunkListParameter of(int... chunkTypes) {
        return new ChunkListParameter(Arrays.stream(chunkTypes).boxed().toList());
    }

    @Override
    public int type() {
        return ParameterType.CHUNK_LIST;
    }

    @Override
    public int valueLength() {
        return chunkTypes.size() * 1;
    }

    @Override
    public void writeValue(ByteBuffer out) {
        ParamCodec.writeU8List(out, chunkTypes);
    }

    /** Decodes; any length from 4 is valid. */
    public static Parsed<ChunkListParameter> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        return Parsed.ok(new ChunkListParameter(ParamCodec.readU8List(buf, offset + HEADER_LENGTH, offset + length)));
    }
}
