package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import java.util.List;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.Parameters;

/**
 * Heartbeat Request (HEARTBEAT), RFC 9260 section 3.3.5.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 4    |  Chunk Flags  |       Heartbeat Length        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /          Heartbeat Information TLV (Variable-Length)          /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The value is a parameter list whose first parameter is the mandatory Heartbeat Info (type 1),
 * opaque to the receiver; any parameter that follows it is kept and copied into the HEARTBEAT ACK
 * with it ({@link #ack()}, RFC 9260 section 8.3). A HEARTBEAT without parameters is
 * {@link ParseErrorKind#TRUNCATED_FIXED_FIELDS}; one whose first parameter is of another type is
 * {@link ParseErrorKind#INVALID_FIELD_VALUE}. Flags are reserved: ignored on decode, written as
 * zero.
 *
 * @param parameters the parameters, Heartbeat Info first
 */
public record HeartbeatChunk(List<Parameter> parameters) implements Chunk {

    /** Validates the fields. */
    public HeartbeatChunk {
        parameters = HeartbeatFields.check(ChunkType.HEARTBEAT, parameters);
    }

    /** A HEARTBEAT of the given parameters, Heartbeat Info first. */
    public static HeartbeatChunk of(Parameter... parameters) {
        return new HeartbeatChunk(List.of(parameters));
    }

    /** The Heartbeat Info parameter (the first one). */
    public Parameter info() {
        return parameters.get(0);
    }

    /** The HEARTBEAT ACK that answers this chunk: the same parameters, unchanged. */
    public HeartbeatAckChunk ack() {
        return new HeartbeatAckChunk(parameters);
    }

    @Override
    public int type() {
        return ChunkType.HEARTBEAT;
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

    /** Decodes a HEARTBEAT whose header is at {@code offset} and Chunk Length is {@code length}. */
    public static Parsed<HeartbeatChunk> decode(ByteBuffer buf, int offset, int length) {
        return HeartbeatFields.decode(buf, offset, length, ChunkType.HEARTBEAT, HeartbeatChunk::new);
    }
}
