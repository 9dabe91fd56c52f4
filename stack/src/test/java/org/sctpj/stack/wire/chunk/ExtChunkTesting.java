package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.sctpj.stack.testutil.PcapReader;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ParseError;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;

/** Encoding and decoding helpers for the extension chunk tests. */
final class ExtChunkTesting {
    private ExtChunkTesting() {}

    /** Bytes in front of the chunk in {@link #decodeAt}, so that offsets are checked as absolute. */
    static final int PREFIX = 12;

    /** The chunk as it goes on the wire, padding included. */
    static byte[] encode(Chunk c) {
        ByteBuffer b = ByteBuffer.allocate(c.encodedLength());
        c.encode(b);
        assertEquals(c.encodedLength(), b.position(), "encodedLength() matches the bytes written");
        return b.array();
    }

    /** Lower-case hex of the encoded chunk. */
    static String hex(Chunk c) {
        return Bytes.of(encode(c)).toHex();
    }

    /**
     * Decodes chunk bytes placed after {@link #PREFIX} bytes of junk (and followed by padding), the
     * way {@code SctpPacket} calls the dispatcher: the Chunk Length is read from the header.
     */
    static Parsed<? extends Chunk> decodeAt(byte[] chunk) {
        int padded = (chunk.length + 3) & ~3;
        ByteBuffer b = ByteBuffer.allocate(PREFIX + padded);
        Arrays.fill(b.array(), 0, PREFIX, (byte) 0xee);
        b.put(PREFIX, chunk);
        int length = b.getShort(PREFIX + 2) & 0xffff;
        assertTrue(length >= Chunk.HEADER_LENGTH && length <= chunk.length, "test bytes must hold the Chunk Length");
        return Chunks.decode(b, PREFIX, length);
    }

    /** The chunk of a corpus capture: file name, 1-based frame number, offset in the SCTP packet. */
    static byte[] corpusChunk(String file, int frame, int offset) {
        try (var in = ExtChunkTesting.class.getResourceAsStream("/corpus/" + file)) {
            for (var f : PcapReader.sctpPackets(in)) {
                if (f.index() == frame) {
                    ByteBuffer b = ByteBuffer.wrap(f.sctp());
                    int length = b.getShort(offset + 2) & 0xffff;
                    return Arrays.copyOfRange(f.sctp(), offset, offset + length);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new AssertionError("no frame " + frame + " in " + file);
    }

    /** {@link #decodeAt} of hexadecimal digits. */
    static Parsed<? extends Chunk> decodeAt(String hex) {
        return decodeAt(Bytes.fromHex(hex).toArray());
    }

    /** Decodes, expecting success. */
    static Chunk decodeOk(byte[] chunk) {
        Parsed<? extends Chunk> p = decodeAt(chunk);
        assertTrue(p.isOk(), () -> "decode failed: " + p.error());
        return p.value();
    }

    /** Decodes hexadecimal digits, expecting success. */
    static Chunk decodeOk(String hex) {
        return decodeOk(Bytes.fromHex(hex).toArray());
    }

    /**
     * Asserts that {@code c} encodes to bytes that decode back to an equal record, both through
     * the dispatcher at an offset and through {@link Chunks#decode(ByteBuffer)}.
     */
    static void assertRoundTrip(Chunk c) {
        byte[] bytes = encode(c);
        assertEquals(c, decodeOk(bytes));
        Parsed<? extends Chunk> p = Chunks.decode(ByteBuffer.wrap(bytes));
        assertTrue(p.isOk(), () -> "decode failed: " + p.error());
        assertEquals(c, p.value());
    }

    /**
     * Asserts that decoding the hex fails with the given kind, chunk type and offset (relative to
     * the chunk header; the check adds {@link #PREFIX}).
     */
    static void assertFails(String hex, ParseErrorKind kind, int chunkType, int relativeOffset) {
        Parsed<? extends Chunk> p = decodeAt(hex);
        assertFalse(p.isOk(), () -> "decode should fail but gave " + p.value());
        ParseError e = p.error();
        assertEquals(kind, e.kind(), e::toString);
        assertEquals(chunkType, e.chunkType(), e::toString);
        assertEquals(PREFIX + relativeOffset, e.offset(), e::toString);
    }
}
