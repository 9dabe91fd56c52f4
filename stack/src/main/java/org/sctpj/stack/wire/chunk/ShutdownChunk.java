package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * Shutdown Association (SHUTDOWN), RFC 9260 section 3.3.8.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 7    |  Chunk Flags  |          Length = 8           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                      Cumulative TSN Ack                       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>A Chunk Length other than 8 is {@link ParseErrorKind#TRUNCATED_FIXED_FIELDS}. Flags are
 * reserved: ignored on decode, written as zero.
 *
 * @param cumTsnAck Cumulative TSN Ack: the last TSN the sender received in sequence (32 bits)
 */
public record ShutdownChunk(int cumTsnAck) implements Chunk {

    /** The only valid Chunk Length. */
    public static final int LENGTH = 8;

    @Override
    public int type() {
        return ChunkType.SHUTDOWN;
    }

    @Override
    public int flags() {
        return 0;
    }

    @Override
    public int valueLength() {
        return LENGTH - HEADER_LENGTH;
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(cumTsnAck);
    }

    /** Decodes a SHUTDOWN whose header is at {@code offset}; the length must be exactly 8. */
    public static Parsed<ShutdownChunk> decode(ByteBuffer buf, int offset, int length) {
        if (length != LENGTH) {
            return Chunks.wrongLength(ChunkType.SHUTDOWN, offset, length, LENGTH);
        }
        return Parsed.ok(new ShutdownChunk(Wire.u32(buf, offset + 4)));
    }

    @Override
    public String toString() {
        return "SHUTDOWN[cum=" + Wire.u32String(cumTsnAck) + "]";
    }
}
