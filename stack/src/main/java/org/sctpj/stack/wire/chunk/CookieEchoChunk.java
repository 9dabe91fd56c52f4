package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;

/**
 * State Cookie (COOKIE ECHO), RFC 9260 section 3.3.11.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 10   |  Chunk Flags  |            Length             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                            Cookie                             /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The cookie is the value of the State Cookie parameter of the INIT ACK, echoed unchanged and
 * opaque to everyone but its maker. The codec accepts any length, even zero; whether a cookie is
 * valid is for the handshake to decide. Flags are reserved: ignored on decode, written as zero.
 *
 * @param cookie the State Cookie as received in the INIT ACK
 */
public record CookieEchoChunk(Bytes cookie) implements Chunk {

    /** Longest cookie one chunk can carry. */
    public static final int MAX_COOKIE_LENGTH = 0xffff - HEADER_LENGTH;

    /** Validates the fields. */
    public CookieEchoChunk {
        if (cookie.length() > MAX_COOKIE_LENGTH) {
            throw new IllegalArgumentException(
                    "a cookie of " + cookie.length() + " bytes does not fit one chunk (max " + MAX_COOKIE_LENGTH + ")");
        }
    }

    @Override
    public int type() {
        return ChunkType.COOKIE_ECHO;
    }

    @Override
    public int flags() {
        return 0;
    }

    @Override
    public int valueLength() {
        return cookie.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        cookie.writeTo(out);
    }

    /** Decodes a COOKIE ECHO whose header is at {@code offset} and Chunk Length is {@code length}. */
    public static Parsed<CookieEchoChunk> decode(ByteBuffer buf, int offset, int length) {
        return Parsed.ok(new CookieEchoChunk(Bytes.copyOf(buf, offset + HEADER_LENGTH, length - HEADER_LENGTH)));
    }

    @Override
    public String toString() {
        return "COOKIE_ECHO[" + cookie.length() + " bytes]";
    }
}
