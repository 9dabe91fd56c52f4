package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import java.util.List;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.cause.ErrorCause;
import org.sctpj.stack.wire.cause.ErrorCauses;

/**
 * Operation Error (ERROR), RFC 9260 section 3.3.10.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 9    |  Chunk Flags  |            Length             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /                    one or more Error Causes                   /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>RFC 9260 has a sender put at least one cause in an ERROR; the codec still accepts (and can
 * build) an ERROR without causes, which carries no information and is harmless to receive, rather
 * than reject the whole packet around it. Flags are reserved: ignored on decode, written as zero.
 *
 * @param causes the error causes, in order
 */
public record ErrorChunk(List<ErrorCause> causes) implements Chunk {

    /** Validates the fields. */
    public ErrorChunk {
        causes = List.copyOf(causes);
        if (HEADER_LENGTH + ErrorCauses.listLength(causes) > 0xffff) {
            throw new IllegalArgumentException("error causes take " + ErrorCauses.listLength(causes)
                    + " bytes, more than one chunk can carry: send them in several ERROR chunks");
        }
    }

    /** An ERROR with the given causes. */
    public static ErrorChunk of(ErrorCause... causes) {
        return new ErrorChunk(List.of(causes));
    }

    @Override
    public int type() {
        return ChunkType.ERROR;
    }

    @Override
    public int flags() {
        return 0;
    }

    @Override
    public int valueLength() {
        return ErrorCauses.listLength(causes);
    }

    @Override
    public void writeValue(ByteBuffer out) {
        ErrorCauses.writeList(causes, out);
    }

    /** Decodes an ERROR whose header is at {@code offset} and Chunk Length is {@code length}. */
    public static Parsed<ErrorChunk> decode(ByteBuffer buf, int offset, int length) {
        return ErrorCauses.decodeList(buf, offset + HEADER_LENGTH, offset + length, ChunkType.ERROR)
                .map(ErrorChunk::new);
    }
}
