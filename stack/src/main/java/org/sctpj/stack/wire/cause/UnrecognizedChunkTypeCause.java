package org.sctpj.stack.wire.cause;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.Chunks;

/**
 * Unrecognized Chunk Type, RFC 9260 section 3.3.10.6: a chunk of an unknown type arrived whose
 * action bits ask for a report (RFC 9260 section 3.2, action 01 or 11).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Cause Code = 6            |      Cause Length             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                    Unrecognized Chunk                         /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The field is the unrecognized chunk with its type, flags and length, kept as raw bytes.
 * Senders differ on its padding: Linux copies the chunk padded to 4 bytes (so the Cause Length
 * covers the padding), {@link #of(Chunk)} copies exactly Chunk Length bytes. Either form decodes
 * and re-encodes unchanged.
 *
 * @param chunk the copied chunk, at least its 4-byte header
 */
public record UnrecognizedChunkTypeCause(Bytes chunk) implements ErrorCause {

    /** Validates the field. */
    public UnrecognizedChunkTypeCause {
        TlvCopies.checkTlvCopy("chunk", chunk);
    }

    /** A cause quoting {@code chunk}: its header and value, without trailing padding. */
    public static UnrecognizedChunkTypeCause of(Chunk chunk) {
        ByteBuffer out = ByteBuffer.allocate(chunk.encodedLength());
        chunk.encode(out);
        return new UnrecognizedChunkTypeCause(Bytes.copyOf(out, 0, chunk.length()));
    }

    /** The Chunk Type of the copied chunk. */
    public int chunkType() {
        return chunk.get(0);
    }

    /**
     * Decodes the copied chunk; a failure has offsets counted from the start of the copy (a copy
     * truncated by its sender fails with a chunk-length error).
     */
    public Parsed<? extends Chunk> decodeChunk() {
        return Chunks.decode(chunk.asReadOnlyBuffer());
    }

    @Override
    public int code() {
        return CauseCode.UNRECOGNIZED_CHUNK_TYPE;
    }

    @Override
    public int valueLength() {
        return chunk.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        chunk.writeTo(out);
    }

    /**
     * Decodes; the cause must hold at least the 4-byte header of the copied chunk. The copy is
     * kept verbatim, padding included when the sender copied it.
     */
    public static Parsed<UnrecognizedChunkTypeCause> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        if (length < TlvCopies.MIN_TLV_COPY_CAUSE_LENGTH) {
            return TlvCopies.tooShort(chunkType, offset, length, "Unrecognized Chunk Type");
        }
        return Parsed.ok(new UnrecognizedChunkTypeCause(TlvCopies.value(buf, offset, length)));
    }
}
