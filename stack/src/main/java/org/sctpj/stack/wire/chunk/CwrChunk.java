package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * Congestion Window Reduced (CWR), RFC 9260 Appendix A: the sender tells the receiver of its ECNE
 * that it has reduced its congestion window.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Chunk Type=13 | Flags=00000000|    Chunk Length = 8           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                      Lowest TSN Number                        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>Any Chunk Length but 8 fails with {@link
 * org.sctpj.stack.wire.ParseErrorKind#TRUNCATED_FIXED_FIELDS}. Chunk flags are ignored on receipt.
 *
 * @param lowestTsn the Lowest TSN Number of the ECNE being answered (32 bits as an int)
 */
public record CwrChunk(int lowestTsn) implements Chunk {

    /** The only valid Chunk Length. */
    public static final int LENGTH = 8;

    @Override
    public int type() {
        return ChunkType.CWR;
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
        out.putInt(lowestTsn);
    }

    /** Decodes a CWR whose header is at {@code offset} and Chunk Length is {@code length}. */
    public static Parsed<CwrChunk> decode(ByteBuffer buf, int offset, int length) {
        if (length != LENGTH) {
            return Chunks.wrongLength(ChunkType.CWR, offset, length, LENGTH);
        }
        return Parsed.ok(new CwrChunk(Wire.u32(buf, offset + 4)));
    }

    @Override
    public String toString() {
        return "CWR[lowestTsn=" + Wire.u32String(lowestTsn) + "]";
    }
}
