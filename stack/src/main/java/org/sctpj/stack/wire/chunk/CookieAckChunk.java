package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;

/**
 * Cookie Acknowledgement (COOKIE ACK), RFC 9260 section 3.3.12.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 11   |  Chunk Flags  |          Length = 4           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The chunk has no value; a Chunk Length other than 4 is {@link
 * ParseErrorKind#TRUNCATED_FIXED_FIELDS}. Flags are reserved: ignored on decode, written as zero.
 * All instances are equal; use {@link #INSTANCE}.
 */
public record CookieAckChunk() implements Chunk {

    /** The only valid Chunk Length. */
    public static final int LENGTH = 4;

    /** The COOKIE ACK chunk. */
    public static final CookieAckChunk INSTANCE = new CookieAckChunk();

    @Override
    public int type() {
        return ChunkType.COOKIE_ACK;
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

    /** Decodes a COOKIE ACK whose header is at {@code offset}; the length must be exactly 4. */
    public static Parsed<CookieAckChunk> decode(ByteBuffer buf, int offset, int length) {
        if (length != LENGTH) {
            return Chunks.wrongLength(ChunkType.COOKIE_ACK, offset, length, LENGTH);
        }
        return Parsed.ok(INSTANCE);
    }

    @Override
    public String toString() {
        return "COOKIE_ACK";
    }
}
