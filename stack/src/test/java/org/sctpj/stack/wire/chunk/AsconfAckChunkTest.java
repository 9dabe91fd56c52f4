package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.assertFails;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.assertRoundTrip;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.decodeOk;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.hex;

import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.UnknownParameter;

class AsconfAckChunkTest {

    @Provide
    Arbitrary<List<Parameter>> parameters() {
        return ExtChunkArbitraries.parameters().list().ofMaxSize(4);
    }

    @Property(tries = 200)
    void roundTrip(@ForAll int serial, @ForAll("parameters") List<Parameter> parameters) {
        assertRoundTrip(new AsconfAckChunk(serial, parameters));
    }

    @Test
    void encodesByteExact() {
        AsconfAckChunk c = AsconfAckChunk.of(7, new UnknownParameter(0x3f03, Bytes.fromHex("00000001")));
        // type 0x80, length 16 | serial | one response parameter
        assertEquals("80000010" + "00000007" + "3f030008" + "00000001", hex(c));
        assertEquals("80000008" + "00000007", hex(AsconfAckChunk.of(7)));
    }

    @Test
    void rejectsChunkShorterThanSerialNumber() {
        assertFails("80000007 000000", ParseErrorKind.TRUNCATED_FIXED_FIELDS, 0x80, 0);
    }

    @Test
    void rejectsMalformedResponseParameter() {
        assertFails("8000000a 00000001 3f00", ParseErrorKind.PARAMETER_HEADER_TRUNCATED, 0x80, 8);
        assertFails("8000000c 00000001 3f000003", ParseErrorKind.PARAMETER_LENGTH_TOO_SMALL, 0x80, 8);
    }

    /** usrsctp-to-kernel_raw_auth-asconf.pcap, frame 13, offset 40: bare ASCONF-ACK from Linux 6.1. */
    @Test
    void decodesKernelAsconfAck() {
        String bytes = "80000008cccd8e56";
        AsconfAckChunk c = (AsconfAckChunk) decodeOk(bytes);
        assertEquals(AsconfAckChunk.of(0xcccd8e56), c);
        assertEquals(bytes, hex(c));
    }
}
