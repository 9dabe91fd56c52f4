package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;

/**
 * Padding (PAD), RFC 4820 section 3: fills a packet to a given size, for path MTU probing (RFC
 * 8899).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Type = 0x84   |   Flags=0     |             Length            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                                                               |
 * \                         Padding Data                          /
 * /                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The receiver ignores the Padding Data; the record keeps it so that a decoded chunk encodes to
 * the same bytes. Any length from 4 up is valid.
 *
 * @param padding the Padding Data as carried, possibly empty
 */
public record PadChunk(Bytes padding) implements Chunk {

    /** Validates the fields. */
    public PadChunk {
        if (padding.length() > 0xffff - HEADER_LENGTH) {
            throw new IllegalArgumentException("padding of " + padding.length() + " bytes does not fit one chunk (max "
                    + (0xffff - HEADER_LENGTH) + "): use several PAD chunks");
        }
    }

    /**
     * A PAD chunk of zero bytes whose Chunk Length is {@code chunkLength}.
     *
     * @param chunkLength 4..65535, the header included
     */
    public static PadChunk ofLength(int chunkLength) {
        if (chunkLength < HEADER_LENGTH || chunkLength > 0xffff) {
            throw new IllegalArgumentException("a PAD chunk length must be in 4..65535, was " + chunkLength);
        }
        return new PadChunk(Bytes.of(new byte[chunkLength - HEADER_LENGTH]));
    }

    @Override
    public int type() {
        return ChunkType.PAD;
    }

    @Override
    public int flags() {
        return 0;
    }

    @Override
    public int valueLength() {
        return padding.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        padding.writeTo(out);
    }

    /** Decodes a PAD whose header is at {@code offset} and Chunk Length is {@code length}; never fails. */
    public static Parsed<PadChunk> decode(ByteBuffer buf, int offset, int length) {
        return Parsed.ok(new PadChunk(Bytes.copyOf(buf, offset + HEADER_LENGTH, length - HEADER_LENGTH)));
    }

    @Override
    public String toString() {
        return "PAD[" + padding.length() + " bytes]";
    }
}
