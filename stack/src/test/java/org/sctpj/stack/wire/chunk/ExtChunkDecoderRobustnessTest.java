package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.encode;

import java.nio.ByteBuffer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;
import org.sctpj.stack.wire.param.UnknownParameter;
import org.sctpj.stack.wire.samples.ExtChunkSamples;

/** The extension chunk decoders return a value or an error for any bytes; they never throw. */
class ExtChunkDecoderRobustnessTest {

    @Provide
    Arbitrary<Integer> extType() {
        return Arbitraries.of(ExtChunkSamplesTest.EXT_TYPES);
    }

    @Property(tries = 1000)
    void randomBodiesNeverThrow(
            @ForAll("extType") int type, @ForAll @Size(max = 120) byte[] body, @ForAll @IntRange(max = 7) int prefix) {
        byte[] chunk = new byte[4 + body.length];
        chunk[0] = (byte) type;
        chunk[2] = (byte) (chunk.length >>> 8);
        chunk[3] = (byte) chunk.length;
        System.arraycopy(body, 0, chunk, 4, body.length);
        decodeQuietly(chunk, prefix);
    }

    /** Samples with a byte changed or the Chunk Length cut: still a value or an error. */
    @Property(tries = 1000)
    void mutatedSamplesNeverThrow(
            @ForAll @IntRange(max = 1000) int which,
            @ForAll @IntRange(max = 1 << 16) int position,
            @ForAll byte value,
            @ForAll @IntRange(max = 1 << 16) int cut) {
        var samples = ExtChunkSamples.all();
        Chunk c = samples.get(which % samples.size());
        byte[] bytes = encode(c);
        int length = c.length();
        if (position % 3 == 0 || bytes.length == 4) {
            length = Math.max(4, length - cut % length);
        } else {
            bytes[4 + position % (bytes.length - 4)] = value;
        }
        bytes = java.util.Arrays.copyOf(bytes, length);
        bytes[2] = (byte) (length >>> 8);
        bytes[3] = (byte) length;
        decodeQuietly(bytes, 0);
    }

    /**
     * RFC 9260 section 3.2: the Chunk Length may or may not count the last parameter's padding;
     * both decode to the same chunk, which re-encodes without that padding.
     */
    @Test
    void chunkLengthMayCountTheLastParametersPadding() {
        ReConfigChunk expected = ReConfigChunk.of(new UnknownParameter(0x3f00, Bytes.of((byte) 0xaa)));
        assertEquals(expected, ExtChunkTesting.decodeOk("82000009 3f000005 aa"));
        assertEquals(expected, ExtChunkTesting.decodeOk("8200000c 3f000005 aa000000"));
        assertEquals(expected, ExtChunkTesting.decodeOk("8200000a 3f000005 aa00"));
        assertEquals(9, expected.length());
    }

    private static void decodeQuietly(byte[] chunk, int prefix) {
        ByteBuffer b = ByteBuffer.allocate(prefix + chunk.length);
        b.put(prefix, chunk);
        Parsed<? extends Chunk> p = Chunks.decode(b, prefix, chunk.length);
        if (p.isOk()) {
            // What decodes re-encodes to the same length, except that a Chunk Length counting
            // (part of) the last parameter's padding is accepted (RFC 9260 section 3.2: a robust
            // receiver accepts the chunk whether or not the final padding is counted) and
            // re-encodes without it.
            int encoded = p.value().length();
            if (encoded != chunk.length) {
                assertTrue(
                        encoded < chunk.length && chunk.length <= Wire.pad4(encoded),
                        () -> "decoded to " + encoded + " bytes from a Chunk Length of " + chunk.length + ": "
                                + p.value());
            }
        } else {
            assertNotNull(p.error().kind());
            assertEquals(chunk[0] & 0xff, p.error().chunkType());
        }
    }
}
