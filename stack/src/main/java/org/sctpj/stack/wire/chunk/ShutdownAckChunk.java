package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;

/**
 * Shutdown Acknowledgement (SHUTDOWN ACK), RFC 9260 section 3.3.9.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 8    |  Chunk Flags  |          Length = 4           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The chunk has no value; a Chunk Length other than 4 is {@link
 * ParseErrorKind#TRUNCATED_FIXED_FIELDS}. Flags are reserved: ignored on decode, written as zero.
 * All instances are equal; use {@link #INSTANCE}.
 */
public record ShutdownAckChunk() implements Chunk {

    /** The only valid Chunk Length. */
    public static final int LENGTH = 4;

    /** The SHUTDOWN ACK chunk. */
    public static final ShutdownAckChunk INSTANCE = new ShutdownAckChunk();

    @Override
    public int type() {
        return ChunkType.SHUTDOWN_ACK;
    }

    @Override
    public int flags() {
        return 0;
    }

    @Override
    public int valueLength() {
        return 0;
    }

    @Override
    public void writeValue(ByteBuffer out) {}

    /** Decodes a SHUTDOWN ACK whose header is at {@code offset}; the length must be exactly 4. */
    public static Parsed<ShutdownAckChunk> decode(ByteBuffer buf, int offset, int length) {
        if (length != LENGTH) {
            return Chunks.wrongLength(ChunkType.SHUTDOWN_ACK, offset, length, LENGTH);
        }
        return Parsed.ok(INSTANCE);
    }

    @Override
    public String toString() {
        return "SHUTDOWN_ACK";
    }
}
