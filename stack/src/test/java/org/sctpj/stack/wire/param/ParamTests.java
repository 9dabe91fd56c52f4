package org.sctpj.stack.wire.param;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ParseError;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * Helpers of the parameter tests. A parameter under test is placed at {@link #AT} in a larger
 * buffer (after filler bytes), so that decoders are checked to use absolute indexes, and decoded
 * through {@link Parameters#decodeList} as it is inside a chunk: framing, dispatch, then the
 * parameter's own decoder.
 */
final class ParamTests {
    private ParamTests() {}

    /** Absolute index of the parameter under test in the decode buffer. */
    static final int AT = 8;

    /** The parameter as bytes: header and value, no padding. */
    static byte[] encode(Parameter p) {
        ByteBuffer b = ByteBuffer.allocate(p.length());
        p.encode(b, false);
        assertEquals(0, b.remaining(), "length() counts exactly the bytes written");
        return b.array();
    }

    /** Decodes one parameter placed at {@link #AT}, its padding (zeros) after it. */
    static Parsed<List<Parameter>> decode(byte[] param, int chunkType) {
        ByteBuffer b = ByteBuffer.allocate(AT + Wire.pad4(param.length) + 8);
        for (int i = 0; i < AT; i++) {
            b.put(i, (byte) 0xEE);
        }
        b.put(AT, param);
        for (int i = AT + Wire.pad4(param.length); i < b.limit(); i++) {
            b.put(i, (byte) 0xEE);
        }
        return Parameters.decodeList(b, AT, AT + param.length, chunkType);
    }

    /** Decodes a single parameter given as hex; fails the test on an error. */
    static Parameter decodeOk(String hex, int chunkType) {
        Parsed<List<Parameter>> r = decode(Bytes.fromHex(hex).toArray(), chunkType);
        assertTrue(r.isOk(), () -> "decode failed: " + r.error());
        assertEquals(1, r.value().size());
        return r.value().get(0);
    }

    /** Encodes, checks the length fields and decodes back to an equal value. */
    static void assertRoundTrip(Parameter p, int chunkType) {
        byte[] bytes = encode(p);
        assertEquals(p.length(), Wire.u16(ByteBuffer.wrap(bytes), 2), "Parameter Length field");
        assertEquals(p.type(), Wire.u16(ByteBuffer.wrap(bytes), 0), "Parameter Type field");
        ByteBuffer padded = ByteBuffer.allocate(p.encodedLength());
        p.encode(padded, true);
        assertFalse(padded.hasRemaining(), "encodedLength() counts the padding");
        Parsed<List<Parameter>> r = decode(bytes, chunkType);
        assertTrue(r.isOk(), () -> "decode failed: " + r.error());
        assertEquals(List.of(p), r.value());
    }

    /** Checks the exact bytes of an encoding, then that they decode back. */
    static void assertEncodes(Parameter p, String hex, int chunkType) {
        assertEquals(Bytes.fromHex(hex).toHex(), Bytes.of(encode(p)).toHex());
        assertEquals(p, decodeOk(hex, chunkType));
    }

    /** Decodes real bytes, checks the value and that it re-encodes to the same bytes. */
    static void assertRealBytes(String hex, Parameter expected, int chunkType) {
        Parameter p = decodeOk(hex, chunkType);
        assertEquals(expected, p);
        assertEquals(Bytes.fromHex(hex).toHex(), Bytes.of(encode(p)).toHex());
    }

    /**
     * Checks that the hex fails to decode with the given kind, the chunk type passed and the
     * offset {@code relOffset} from the start of the parameter.
     */
    static ParseError assertFails(String hex, int chunkType, ParseErrorKind kind, int relOffset) {
        Parsed<List<Parameter>> r = decode(Bytes.fromHex(hex).toArray(), chunkType);
        assertFalse(r.isOk(), () -> "expected " + kind + " but decoded " + r.value());
        ParseError e = r.error();
        assertEquals(kind, e.kind(), e::toString);
        assertEquals(chunkType, e.chunkType(), e::toString);
        assertEquals(AT + relOffset, e.offset(), e::toString);
        return e;
    }
}
