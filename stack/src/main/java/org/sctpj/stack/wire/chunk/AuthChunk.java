package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * Authentication (AUTH), RFC 4895 section 4.2: authenticates the chunks that follow it in the
 * packet with an HMAC under a shared key.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Type = 0x0F   |   Flags=0     |             Length            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Shared Key Identifier     |   HMAC Identifier             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                                                               |
 * \                             HMAC                              /
 * /                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The codec does not tie the HMAC length to the HMAC Identifier (20 bytes for SHA-1, 32 for
 * SHA-256): an unknown identifier or a wrong length is for the authentication procedure to answer
 * (RFC 4895 section 6.3), which also needs {@link #HMAC_OFFSET} to zero the HMAC field in the
 * received packet before computing it.
 *
 * @param sharedKeyId the Shared Key Identifier, 0..65535
 * @param hmacId the HMAC Identifier, 0..65535 ({@link #HMAC_SHA1}, {@link #HMAC_SHA256})
 * @param hmac the HMAC as carried, possibly empty
 */
public record AuthChunk(int sharedKeyId, int hmacId, Bytes hmac) implements Chunk {

    /** Bytes of header, Shared Key Identifier and HMAC Identifier. */
    public static final int FIXED_LENGTH = 8;
    /** Offset of the HMAC from the chunk header. */
    public static final int HMAC_OFFSET = FIXED_LENGTH;
    /** HMAC Identifier of HMAC-SHA-1 (RFC 4895 section 3.3). */
    public static final int HMAC_SHA1 = 1;
    /** HMAC Identifier of HMAC-SHA-256 (RFC 4895 section 3.3). */
    public static final int HMAC_SHA256 = 3;

    /** Validates the fields. */
    public AuthChunk {
        Wire.checkU16("sharedKeyId", sharedKeyId);
        Wire.checkU16("hmacId", hmacId);
        if (hmac.length() > 0xffff - FIXED_LENGTH) {
            throw new IllegalArgumentException("HMAC of " + hmac.length() + " bytes does not fit one chunk");
        }
    }

    @Override
    public int type() {
        return ChunkType.AUTH;
    }

    @Override
    public int flags() {
        return 0;
    }

    @Override
    public int valueLength() {
        return FIXED_LENGTH - HEADER_LENGTH + hmac.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putShort((short) sharedKeyId);
        out.putShort((short) hmacId);
        hmac.writeTo(out);
    }

    /** Decodes an AUTH whose header is at {@code offset} and Chunk Length is {@code length}. */
    public static Parsed<AuthChunk> decode(ByteBuffer buf, int offset, int length) {
        if (length < FIXED_LENGTH) {
            return Chunks.checkFixed(ChunkType.AUTH, offset, length, FIXED_LENGTH);
        }
        return Parsed.ok(new AuthChunk(
                Wire.u16(buf, offset + 4),
                Wire.u16(buf, offset + 6),
                Bytes.copyOf(buf, offset + FIXED_LENGTH, length - FIXED_LENGTH)));
    }
}
