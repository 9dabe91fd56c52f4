package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.UnrecognizedAction;
import org.sctpj.stack.wire.Wire;

/**
 * A chunk of a type this codec does not know, kept whole so that the core can act on its two
 * highest type bits (RFC 9260 section 3.2) and quote it in an "Unrecognized Chunk Type" cause.
 *
 * @param type the chunk type, 0..255, not one of the known types
 * @param flags the flags byte as received
 * @param value the chunk value as received (without header and padding)
 */
public record UnknownChunk(int type, int flags, Bytes value) implements Chunk {

    /** Validates the fields. */
    public UnknownChunk {
        Wire.checkU8("type", type);
        Wire.checkU8("flags", flags);
        if (value.length() > 0xffff - HEADER_LENGTH) {
            throw new IllegalArgumentException("chunk value too long: " + value.length());
        }
    }

    /** What RFC 9260 section 3.2 says to do with this chunk. */
    public UnrecognizedAction action() {
        return UnrecognizedAction.ofChunkType(type);
    }

    @Override
    public int valueLength() {
        return value.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        value.writeTo(out);
    }

    /** Keeps a chunk of any type as raw bytes. */
    public static Parsed<UnknownChunk> decode(ByteBuffer buf, int offset, int length) {
        return Parsed.ok(new UnknownChunk(
                Wire.u8(buf, offset),
                Wire.u8(buf, offset + 1),
                Bytes.copyOf(buf, offset + HEADER_LENGTH, length - HEADER_LENGTH)));
    }
}
