package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import org.sctpj.stack.wire.param.ParameterType;
import org.sctpj.stack.wire.param.UnknownParameter;

class ReConfigChunkTest {

    @Provide
    Arbitrary<List<Parameter>> parameters() {
        return ExtChunkArbitraries.parameters().list().ofMinSize(1).ofMaxSize(2);
    }

    @Property(tries = 200)
    void roundTrip(@ForAll("parameters") List<Parameter> parameters) {
        assertRoundTrip(new ReConfigChunk(parameters));
    }

    @Test
    void encodesByteExact() {
        ReConfigChunk two = ReConfigChunk.of(
                new UnknownParameter(0x3f00, Bytes.fromHex("0102030405")), ExtChunkArbitraries.ipv4(10, 0, 0, 1));
        // type 130, length 24 | first parameter, length 9, padded to 12 | last parameter, length 8
        assertEquals("82000018" + "3f000009" + "01020304" + "05000000" + "00050008" + "0a000001", hex(two));
        ReConfigChunk one = ReConfigChunk.of(new UnknownParameter(0x3f01, Bytes.fromHex("aabbcc")));
        // the last parameter's padding lies outside the Chunk Length (11)
        assertEquals("8200000b" + "3f010007" + "aabbcc00", hex(one));
    }

    @Test
    void rejectsChunkWithoutParameter() {
        assertFails("82000004", ParseErrorKind.TRUNCATED_FIXED_FIELDS, 0x82, 0);
        assertFails("82000006 0000", ParseErrorKind.TRUNCATED_FIXED_FIELDS, 0x82, 0);
    }

    @Test
    void rejectsMoreThanTwoParameters() {
        assertFails("82000010 3f000004 3f000004 3f000004", ParseErrorKind.INVALID_FIELD_VALUE, 0x82, 12);
        assertFails(
                "82000019 3f000005 00000000 3f000006 00000000 3f000005 00",
                ParseErrorKind.INVALID_FIELD_VALUE,
                0x82,
                20);
    }

    @Test
    void rejectsBadParameterFraming() {
        assertFails("82000008 3f000002", ParseErrorKind.PARAMETER_LENGTH_TOO_SMALL, 0x82, 4);
        assertFails("8200000c 3f000010 00000000", ParseErrorKind.PARAMETER_LENGTH_PAST_CHUNK, 0x82, 4);
        assertFails("8200000a 3f000004 0000", ParseErrorKind.PARAMETER_HEADER_TRUNCATED, 0x82, 8);
    }

    @Test
    void constructorRejectsMisuse() {
        assertThrows(IllegalArgumentException.class, () -> new ReConfigChunk(List.of()));
        Parameter p = new UnknownParameter(0x3f00, Bytes.EMPTY);
        assertThrows(IllegalArgumentException.class, () -> ReConfigChunk.of(p, p, p));
    }

    /**
     * usrsctp-to-kernel_raw_reconfig-stream-reset.pcap, frame 13: RE-CONFIG with an Outgoing SSN
     * Reset Request for streams 1 and 2, sent by usrsctp 0.9.5. Compared by bytes and parameter
     * type, whatever record the parameter decoder builds.
     */
    @Test
    void decodesUsrsctpOutgoingResetRequest() {
        String bytes = "82000018000d0014f5b63e99d0a8cf8ff5b63e9b00010002";
        ReConfigChunk c = (ReConfigChunk) decodeOk(bytes);
        assertEquals(1, c.parameters().size());
        assertEquals(
                ParameterType.OUTGOING_SSN_RESET_REQUEST, c.parameters().get(0).type());
        assertEquals(20, c.parameters().get(0).length());
        assertEquals(bytes, hex(c));
    }

    /**
     * usrsctp-to-kernel_raw_reconfig-stream-reset.pcap, frames 19 and 23: an Incoming SSN Reset
     * Request from usrsctp and a Re-configuration Response from Linux 6.1.
     */
    @Test
    void decodesIncomingResetRequestAndKernelResponse() {
        String request = "8200000c000e0008f5b63e9a";
        ReConfigChunk c = (ReConfigChunk) decodeOk(request);
        assertEquals(
                ParameterType.INCOMING_SSN_RESET_REQUEST, c.parameters().get(0).type());
        assertEquals(request, hex(c));
        String response = "8200001800100014f5b63e9b00000001d0a8cf9575b63e9d";
        ReConfigChunk r = (ReConfigChunk) decodeOk(response);
        assertEquals(
                ParameterType.RECONFIGURATION_RESPONSE, r.parameters().get(0).type());
        assertEquals(response, hex(r));
    }
}
