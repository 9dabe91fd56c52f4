package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import org.sctpj.stack.wire.ParseError;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.cause.ErrorCause;
import org.sctpj.stack.wire.cause.ErrorCauses;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.Parameters;

/**
 * Helpers for the chunk tests: chunks are decoded at a non-zero offset of a buffer with junk
 * around them, so that a decoder reading relative to the wrong base or past the chunk shows up.
 */
final class ChunkTestSupport {
    private ChunkTestSupport() {}

    /** Where the chunk under test starts in the buffers built here. */
    static final int AT = 8;

    private static final byte JUNK = (byte) 0xEE;

    /** Hex without white space to bytes. */
    static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex.replaceAll("\\s", ""));
    }

    /** Lower-case hex of bytes. */
    static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    /** A buffer with {@link #AT} junk bytes, the chunk bytes, then 8 more junk bytes. */
    static ByteBuffer embed(byte[] chunk) {
        byte[] all = new byte[AT + chunk.length + 8];
        Arrays.fill(all, JUNK);
        System.arraycopy(chunk, 0, all, AT, chunk.length);
        return ByteBuffer.wrap(all);
    }

    /** The Chunk Length field of chunk bytes. */
    static int lengthField(byte[] chunk) {
        return ((chunk[2] & 0xff) << 8) | (chunk[3] & 0xff);
    }

    /** Decodes chunk bytes (header first) through the {@link Chunks} dispatch at offset {@link #AT}. */
    static Parsed<? extends Chunk> decode(byte[] chunk) {
        return Chunks.decode(embed(chunk), AT, lengthField(chunk));
    }

    /** Decodes hex chunk bytes through the dispatch. */
    static Parsed<? extends Chunk> decode(String hex) {
        return decode(bytes(hex));
    }

    /** Decodes hex chunk bytes that must be valid, and checks the record class. */
    static <T extends Chunk> T decodeOk(String hex, Class<T> type) {
        Parsed<? extends Chunk> p = decode(hex);
        assertTrue(p.isOk(), () -> "decode failed: " + p.error());
        assertTrue(type.isInstance(p.value()), () -> "decoded as " + p.value().getClass());
        return type.cast(p.value());
    }

    /** Encodes a chunk with its padding, checking the sizes it announces. */
    static byte[] encode(Chunk c) {
        ByteBuffer b = ByteBuffer.allocate(c.encodedLength());
        c.encode(b);
        assertEquals(c.encodedLength(), b.position(), "encodedLength() and bytes written differ");
        byte[] out = b.array();
        assertEquals(c.length(), lengthField(out), "Chunk Length field");
        assertEquals(c.type(), out[0] & 0xff, "type");
        assertEquals(c.flags(), out[1] & 0xff, "flags");
        return out;
    }

    /** Encodes without the trailing padding: exactly Chunk Length bytes. */
    static byte[] encodeUnpadded(Chunk c) {
        return Arrays.copyOf(encode(c), c.length());
    }

    /** Encodes, decodes and compares; also checks the padding is zero. */
    static void assertRoundTrip(Chunk c) {
        byte[] enc = encode(c);
        for (int i = c.length(); i < enc.length; i++) {
            assertEquals(0, enc[i], "padding byte " + i);
        }
        Parsed<? extends Chunk> p = decode(enc);
        assertTrue(p.isOk(), () -> "decode of " + c + " failed: " + p.error());
        assertEquals(c, p.value());
        assertEquals(c.hashCode(), p.value().hashCode());
    }

    /** Decodes real bytes, and checks that re-encoding gives the same bytes. */
    static <T extends Chunk> T assertReencodes(String hex, Class<T> type) {
        T c = decodeOk(hex, type);
        assertEquals(hex.replaceAll("\\s", "").toLowerCase(), hex(encodeUnpadded(c)), "re-encoded bytes");
        return c;
    }

    /** Asserts that decoding fails with the given kind, chunk type and offset relative to the chunk. */
    static ParseError assertFails(String hex, ParseErrorKind kind, int chunkType, int offsetInChunk) {
        Parsed<? extends Chunk> p = decode(hex);
        assertFalse(p.isOk(), () -> "expected " + kind + ", decoded " + p.value());
        ParseError e = p.error();
        assertEquals(kind, e.kind(), e::toString);
        assertEquals(chunkType, e.chunkType(), e::toString);
        assertEquals(AT + offsetInChunk, e.offset(), e::toString);
        assertFalse(e.detail().isBlank());
        return e;
    }

    /**
     * A parameter built by decoding its bytes, so that the test holds whichever class the codec
     * maps its type to.
     */
    static Parameter param(String hex) {
        byte[] b = bytes(hex);
        assertEquals(lengthField(b), b.length, "test TLV length field");
        Parsed<? extends Parameter> p = Parameters.decode(ByteBuffer.wrap(b), 0, b.length, ChunkType.INIT);
        return p.value();
    }

    /** An error cause built by decoding its bytes (see {@link #param}). */
    static ErrorCause cause(String hex) {
        byte[] b = bytes(hex);
        assertEquals(lengthField(b), b.length, "test TLV length field");
        Parsed<? extends ErrorCause> p = ErrorCauses.decode(ByteBuffer.wrap(b), 0, b.length, ChunkType.ERROR);
        return p.value();
    }
}
