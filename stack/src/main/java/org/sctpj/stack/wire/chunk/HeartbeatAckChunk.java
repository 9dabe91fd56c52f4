package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import java.util.List;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.Parameters;

/**
 * Heartbeat Acknowledgement (HEARTBEAT ACK), RFC 9260 section 3.3.6.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 5    |  Chunk Flags  |     Heartbeat Ack Length      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /          Heartbeat Information TLV (Variable-Length)          /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The value is the parameter list of the HEARTBEAT it answers, copied unchanged: Heartbeat Info
 * first, then any other parameter. A HEARTBEAT ACK without parameters is {@link
 * ParseErrorKind#TRUNCATED_FIXED_FIELDS}; one whose first parameter is of another type is {@link
 * ParseErrorKind#INVALID_FIELD_VALUE}. Flags are reserved: ignored on decode, written as zero.
 *
 * @param parameters the parameters, Heartbeat Info first
 */
public record HeartbeatAckChunk(List<Parameter> parameters) implements Chunk {

    /** Validates the fields. */
    public HeartbeatAckChunk {
        parameters = HeartbeatFields.check(ChunkType.HEARTBEAT_ACK, parameters);
    }

    /** A HEARTBEAT ACK of the given parameters, Heartbeat Info first. */
    public static HeartbeatAckChunk of(Parameter... parameters) {
        return new HeartbeatAckChunk(List.of(parameters));
    }

    /** The Heartbeat Info parameter (the first one). */
    public Parameter info() {
        return parameters.get(0);
    }

    @Override
    public int type() {
        return ChunkType.HEARTBEAT_ACK;
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

    /** Decodes a HEARTBEAT ACK whose header is at {@code offset} and Chunk Length is {@code length}. */
    public static Parsed<HeartbeatAckChunk> decode(ByteBuffer buf, int offset, int length) {
        return HeartbeatFields.decode(buf, offset, length, ChunkType.HEARTBEAT_ACK, HeartbeatAckChunk::new);
    }
}
