package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.assertFails;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.assertRoundTrip;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.decodeOk;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.hex;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.param.Ipv4AddressParameter;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.ParameterType;
import org.sctpj.stack.wire.param.UnknownParameter;

class AsconfChunkTest {

    @Provide
    Arbitrary<Ipv4AddressParameter> address() {
        return Arbitraries.bytes()
                .array(byte[].class)
                .ofSize(4)
                .map(a -> new Ipv4AddressParameter(ExtChunkArbitraries.inet4(a)));
    }

    @Provide
    Arbitrary<List<Parameter>> parameters() {
        return ExtChunkArbitraries.parameters().list().ofMaxSize(4);
    }

    @Property(tries = 200)
    void roundTrip(
            @ForAll int serial,
            @ForAll("address") Ipv4AddressParameter address,
            @ForAll("parameters") List<Parameter> parameters) {
        assertRoundTrip(new AsconfChunk(serial, address, parameters));
    }

    @Test
    void encodesByteExact() {
        AsconfChunk c = AsconfChunk.of(
                0x01020304,
                ExtChunkArbitraries.ipv4(192, 0, 2, 1),
                new UnknownParameter(0x3f02, Bytes.fromHex("00000009")));
        // type 0xC1, length 24 | serial | IPv4 Address 192.0.2.1 | one ASCONF parameter
        assertEquals("c1000018" + "01020304" + "00050008" + "c0000201" + "3f020008" + "00000009", hex(c));
        assertEquals(
                "c1000010" + "ffffffff" + "00050008" + "0a000001",
                hex(AsconfChunk.of(-1, ExtChunkArbitraries.ipv4(10, 0, 0, 1))));
    }

    @Test
    void ipv6AddressParameterIsAccepted() {
        String bytes = "c1000020 00000001 00060014 20010db8000000000000000000000001 3f000004";
        AsconfChunk c = (AsconfChunk) decodeOk(bytes);
        assertEquals(ParameterType.IPV6_ADDRESS, c.address().type());
        assertEquals(1, c.parameters().size());
        assertEquals(bytes.replace(" ", ""), hex(c));
    }

    @Test
    void rejectsChunkShorterThanSerialNumber() {
        assertFails("c1000006 0000", ParseErrorKind.TRUNCATED_FIXED_FIELDS, 0xc1, 0);
    }

    @Test
    void rejectsMissingAddressParameter() {
        assertFails("c1000008 00000001", ParseErrorKind.PARAMETER_HEADER_TRUNCATED, 0xc1, 8);
        assertFails("c100000a 00000001 0005", ParseErrorKind.PARAMETER_HEADER_TRUNCATED, 0xc1, 8);
    }

    @Test
    void rejectsAddressParameterOfAnotherType() {
        assertFails("c1000010 00000001 c0010008 0a000001", ParseErrorKind.INVALID_FIELD_VALUE, 0xc1, 8);
    }

    @Test
    void rejectsMalformedAddressParameter() {
        assertFails("c1000014 00000001 0005000c 0a000001 00000000", ParseErrorKind.BAD_PARAMETER_LENGTH, 0xc1, 8);
        assertFails("c1000010 00000001 00050010 0a000001", ParseErrorKind.PARAMETER_LENGTH_PAST_CHUNK, 0xc1, 8);
        assertFails("c100000c 00000001 00050002", ParseErrorKind.PARAMETER_LENGTH_TOO_SMALL, 0xc1, 8);
    }

    @Test
    void rejectsMalformedAsconfParameter() {
        assertFails("c1000012 00000001 00050008 0a000001 c001", ParseErrorKind.PARAMETER_HEADER_TRUNCATED, 0xc1, 16);
        assertFails(
                "c1000018 00000001 00050008 0a000001 c0010010 00000000",
                ParseErrorKind.PARAMETER_LENGTH_PAST_CHUNK,
                0xc1,
                16);
    }

    @Test
    void constructorRejectsMisuse() {
        Parameter notAnAddress = new UnknownParameter(ParameterType.ADD_IP_ADDRESS, Bytes.of(new byte[12]));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> AsconfChunk.of(1, notAnAddress));
        assertEquals(true, e.getMessage().contains("IPv4 or IPv6"));
    }

    /**
     * usrsctp-to-kernel_raw_auth-asconf.pcap, frame 12, chunk at offset 40: ASCONF from usrsctp
     * 0.9.5 with Address Parameter 10.99.0.1 and an Add IP Address request for 10.99.0.3.
     */
    @Test
    void decodesUsrsctpAsconf() {
        String bytes = "c1000020cccd8e56000500080a630001c001001001000000000500080a630003";
        AsconfChunk c = (AsconfChunk) decodeOk(bytes);
        assertEquals(0xcccd8e56, c.serialNumber());
        assertEquals(ExtChunkArbitraries.ipv4(10, 99, 0, 1), c.address());
        assertEquals(1, c.parameters().size());
        assertEquals(ParameterType.ADD_IP_ADDRESS, c.parameters().get(0).type());
        assertEquals(16, c.parameters().get(0).length());
        assertEquals(bytes, hex(c));
    }
}
