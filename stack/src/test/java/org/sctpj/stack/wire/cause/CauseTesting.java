package org.sctpj.stack.wire.cause;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ParseError;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;
import org.sctpj.stack.wire.chunk.ChunkType;

/**
 * Helpers for the cause tests. Causes are decoded through {@link ErrorCauses#decode} (so the
 * dispatch is tested too) at a non-zero offset inside an ABORT, so that error offsets are checked
 * as absolute indexes.
 */
final class CauseTesting {
    private CauseTesting() {}

    /** Where the cause starts in the test buffer. */
    static final int AT = 8;

    /** The chunk type reported in errors. */
    static final int CHUNK = ChunkType.ABORT;

    /** The cause's bytes: header and value, padded when {@code pad}. */
    static Bytes encode(ErrorCause c, boolean pad) {
        ByteBuffer out = ByteBuffer.allocate(pad ? c.encodedLength() : c.length());
        c.encode(out, pad);
        assertEquals(out.capacity(), out.position(), "encode wrote a different size than announced");
        return Bytes.of(out.array());
    }

    /** Decodes the cause in {@code hex} (its Cause Length as written), placed at {@link #AT}. */
    static Parsed<? extends ErrorCause> decode(Bytes cause) {
        int length = (cause.get(2) << 8) | cause.get(3);
        // room for the whole declared length: decoders may assume it was framed in the buffer
        ByteBuffer buf = ByteBuffer.allocate(AT + Math.max(cause.length(), Wire.pad4(length)) + 8);
        buf.put(AT, cause.toArray());
        return ErrorCauses.decode(buf, AT, length, CHUNK);
    }

    /** Decodes and expects success. */
    static ErrorCause decodeOk(String hex) {
        Parsed<? extends ErrorCause> p = decode(Bytes.fromHex(hex));
        assertTrue(p.isOk(), () -> "expected a cause, got " + p.error());
        return p.value();
    }

    /** Decodes and expects the given failure at the cause's offset in an ABORT. */
    static ParseError assertFails(String hex, ParseErrorKind kind) {
        Parsed<? extends ErrorCause> p = decode(Bytes.fromHex(hex));
        assertTrue(!p.isOk(), () -> "expected " + kind + ", decoded " + p.value());
        ParseError e = p.error();
        assertEquals(kind, e.kind(), e::toString);
        assertEquals(CHUNK, e.chunkType(), e::toString);
        assertEquals(AT, e.offset(), e::toString);
        return e;
    }

    /** Encodes {@code c} (padded), decodes it back, and checks value and bytes. */
    static void assertRoundTrip(ErrorCause c) {
        Bytes wire = encode(c, true);
        Parsed<? extends ErrorCause> p = decode(wire);
        assertTrue(p.isOk(), () -> c + " did not decode: " + p.error());
        assertEquals(c, p.value());
        assertEquals(c.getClass(), p.value().getClass());
        assertEquals(wire, encode(p.value(), true));
    }

    /** Checks the exact unpadded and padded encodings. */
    static void assertEncodes(ErrorCause c, String hexUnpadded) {
        Bytes want = Bytes.fromHex(hexUnpadded);
        assertEquals(want, encode(c, false));
        assertEquals(want.length(), c.length());
        Bytes padded = encode(c, true);
        assertEquals(Wire.pad4(want.length()), padded.length());
        for (int i = want.length(); i < padded.length(); i++) {
            assertEquals(0, padded.get(i), "padding must be zero");
        }
    }
}
