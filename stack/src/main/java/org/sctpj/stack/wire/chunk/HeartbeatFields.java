package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Function;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.ParameterType;
import org.sctpj.stack.wire.param.Parameters;

/**
 * The codec shared by HEARTBEAT and HEARTBEAT ACK (RFC 9260 sections 3.3.5 and 3.3.6), whose value
 * is a parameter list that opens with the Heartbeat Info parameter.
 */
final class HeartbeatFields {
    private HeartbeatFields() {}

    /** Bytes of the chunk header plus the header of the mandatory Heartbeat Info parameter. */
    static final int FIXED_LENGTH = Chunk.HEADER_LENGTH + Parameter.HEADER_LENGTH;

    /** Validates the parameter list of either chunk. */
    static List<Parameter> check(int type, List<Parameter> parameters) {
        List<Parameter> copy = List.copyOf(parameters);
        if (copy.isEmpty() || copy.get(0).type() != ParameterType.HEARTBEAT_INFO) {
            throw new IllegalArgumentException(ChunkType.name(type)
                    + " must carry a Heartbeat Info parameter (type 1) first, got "
                    + (copy.isEmpty()
                            ? "no parameter"
                            : ParameterType.name(copy.get(0).type())));
        }
        if (Chunk.HEADER_LENGTH + Parameters.listLength(copy) > 0xffff) {
            throw new IllegalArgumentException(ChunkType.name(type) + " parameters take " + Parameters.listLength(copy)
                    + " bytes, more than one chunk can carry");
        }
        return copy;
    }

    /**
     * Decodes the chunk of type {@code type} whose header is at {@code offset}: a chunk too short
     * for a parameter header is {@link ParseErrorKind#TRUNCATED_FIXED_FIELDS}, a first parameter
     * that is not Heartbeat Info is {@link ParseErrorKind#INVALID_FIELD_VALUE} at that parameter.
     */
    static <T> Parsed<T> decode(
            ByteBuffer buf, int offset, int length, int type, Function<List<Parameter>, T> factory) {
        if (length < FIXED_LENGTH) {
            return Chunks.checkFixed(type, offset, length, FIXED_LENGTH);
        }
        int first = Wire.u16(buf, offset + Chunk.HEADER_LENGTH);
        if (first != ParameterType.HEARTBEAT_INFO) {
            return Parsed.fail(
                    ParseErrorKind.INVALID_FIELD_VALUE,
                    type,
                    offset + Chunk.HEADER_LENGTH,
                    ChunkType.name(type) + " starts with parameter " + ParameterType.name(first)
                            + ", must start with Heartbeat Info");
        }
        return Parameters.decodeList(buf, offset + Chunk.HEADER_LENGTH, offset + length, type)
                .map(factory);
    }
}
