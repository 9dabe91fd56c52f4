package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import java.util.List;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;
import org.sctpj.stack.wire.cause.ErrorCause;
import org.sctpj.stack.wire.cause.ErrorCauses;

/**
 * Abort Association (ABORT), RFC 9260 section 3.3.7.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 6    |  Reserved   |T|            Length             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /                   zero or more Error Causes                   /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * @param tBit the T bit: set when the sender had no TCB and reflected the receiver's tag (RFC 9260
 *     section 8.5.1)
 * @param causes the error causes, possibly none
 */
public record AbortChunk(boolean tBit, List<ErrorCause> causes) implements Chunk {

    /** The T flag. */
    public static final int FLAG_T = 0x01;

    /** Validates the fields. */
    public AbortChunk {
        causes = List.copyOf(causes);
        if (HEADER_LENGTH + ErrorCauses.listLength(causes) > 0xffff) {
            throw new IllegalArgumentException("error causes too long for one chunk");
        }
    }

    /** An ABORT with the given causes. */
    public static AbortChunk of(boolean tBit, ErrorCause... causes) {
        return new AbortChunk(tBit, List.of(causes));
    }

    @Override
    public int type() {
        return ChunkType.ABORT;
    }

    @Override
    public int flags() {
        return tBit ? FLAG_T : 0;
    }

    @Override
    public int valueLength() {
        return ErrorCauses.listLength(causes);
    }

    @Override
    public void writeValue(ByteBuffer out) {
        ErrorCauses.writeList(causes, out);
    }

    /** Decodes an ABORT whose header is at {@code offset} and Chunk Length is {@code length}. */
    public static Parsed<AbortChunk> decode(ByteBuffer buf, int offset, int length) {
        boolean t = (Wire.u8(buf, offset + 1) & FLAG_T) != 0;
        return ErrorCauses.decodeList(buf, offset + HEADER_LENGTH, offset + length, ChunkType.ABORT)
                .map(causes -> new AbortChunk(t, causes));
    }
}
