package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * Shutdown Complete (SHUTDOWN COMPLETE), RFC 9260 section 3.3.13.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 14   |  Reserved   |T|          Length = 4           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>A Chunk Length other than 4 is {@link ParseErrorKind#TRUNCATED_FIXED_FIELDS}. The reserved
 * flag bits are ignored on decode and written as zero.
 *
 * @param tBit the T bit: set when the sender had no TCB and reflected the receiver's Verification
 *     Tag (RFC 9260 section 8.5.1)
 */
public record ShutdownCompleteChunk(boolean tBit) implements Chunk {

    /** The only valid Chunk Length. */
    public static final int LENGTH = 4;

    /** The T flag. */
    public static final int FLAG_T = 0x01;

    @Override
    public int type() {
        return ChunkType.SHUTDOWN_COMPLETE;
    }

    @Override
    public int flags() {
        return tBit ? FLAG_T : 0;
    }

    @Override
    public int valueLength() {
        return 0;
    }

    @Override
    public void writeValue(ByteBuffer out) {}

    /** Decodes a SHUTDOWN COMPLETE whose header is at {@code offset}; the length must be exactly 4. */
    public static Parsed<ShutdownCompleteChunk> decode(ByteBuffer buf, int offset, int length) {
        if (length != LENGTH) {
            return Chunks.wrongLength(ChunkType.SHUTDOWN_COMPLETE, offset, length, LENGTH);
        }
        return Parsed.ok(new ShutdownCompleteChunk((Wire.u8(buf, offset + 1) & FLAG_T) != 0));
    }

    @Override
    public String toString() {
        return tBit ? "SHUTDOWN_COMPLETE[T]" : "SHUTDOWN_COMPLETE";
    }
}
