package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertFails;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertReencodes;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertRoundTrip;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.decodeOk;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.encode;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.hex;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.param;

import java.util.Collections;
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

class InitChunkTest {

    private static final String FIXED = "01020304 00010000 000a0014 a0b0c0d0";

    @Property(tries = 200)
    void roundTrip(@ForAll("inits") InitChunk c) {
        assertRoundTrip(c);
    }

    @Provide
    Arbitrary<InitChunk> inits() {
        return CoreChunkArbitraries.init();
    }

    @Test
    void encodesTheRfcLayout() {
        InitChunk c = InitChunk.of(
                0x01020304,
                0x00010000,
                10,
                20,
                0xA0B0C0D0,
                param("00050008 0a000001"),
                new UnknownParameter(0xBF01, Bytes.of((byte) 1, (byte) 2, (byte) 3)));
        // 20 bytes of fixed fields, an 8-byte IPv4 Address, a 7-byte last parameter left unpadded
        // inside the Chunk Length (35), then one padding byte.
        assertEquals(
                "01000023" + FIXED.replace(" ", "") + "000500080a000001" + "bf010007010203" + "00", hex(encode(c)));
        assertRoundTrip(c);
    }

    @Test
    void withoutParameters() {
        InitChunk c = InitChunk.of(1, 2, 3, 4, 5);
        assertEquals("01000014" + "00000001000000020003000400000005", hex(encode(c)));
        assertRoundTrip(c);
    }

    @Test
    void reservedFlagsAreIgnored() {
        InitChunk c = decodeOk("01ff0014" + FIXED, InitChunk.class);
        assertEquals(0, c.flags());
        assertEquals(InitChunk.of(0x01020304, 0x10000, 10, 20, 0xA0B0C0D0), c);
    }

    @Test
    void zeroTagAndZeroStreamsAreLeftToTheHandshake() {
        InitChunk c = decodeOk("01000014 00000000 00000000 00000000 00000000", InitChunk.class);
        assertEquals(InitChunk.of(0, 0, 0, 0, 0), c);
    }

    @Test
    void linuxInitFromCorpus() {
        // kernel-to-usrsctp_udp_handshake-data-shutdown.pcap, frame 1, sent by Linux 6.1 kernel SCTP:
        // Supported Address Types (padded, not last), ECN Capable, Forward-TSN Supported.
        InitChunk c = assertReencodes(
                "0100002456aecb580003400000100010e33da3ab000c00060005000080000004c0000004", InitChunk.class);
        assertEquals(0x56aecb58, c.initiateTag());
        assertEquals(212992, c.aRwnd());
        assertEquals(16, c.outboundStreams());
        assertEquals(16, c.inboundStreams());
        assertEquals(0xe33da3ab, c.initialTsn());
        assertEquals(List.of(0x000c, 0x8000, 0xc000), types(c.parameters()));
    }

    @Test
    void usrsctpInitFromCorpus() {
        // usrsctp-to-kernel_raw_handshake-data-shutdown.pcap, frame 1, sent by usrsctp 0.9.5.0:
        // the last parameter (Supported Address Types, length 6) is unpadded inside the chunk.
        InitChunk c = assertReencodes(
                "0100006ab82ab1d5004000000010001077a48ef1c00600085553525380000004c000000480080009c00fc180820000"
                        + "00800200247fefec6812262a39784e4f3ffb29206a281eb138aea6941ffb74dd70c6897e458004000600010000"
                        + "8003000680c10000000c00060005",
                InitChunk.class);
        assertEquals(0xb82ab1d5, c.initiateTag());
        assertEquals(4194304, c.aRwnd());
        assertEquals(16, c.outboundStreams());
        assertEquals(16, c.inboundStreams());
        assertEquals(0x77a48ef1, c.initialTsn());
        assertEquals(List.of(0xc006, 0x8000, 0xc000, 0x8008, 0x8002, 0x8004, 0x8003, 0x000c), types(c.parameters()));
        assertEquals(106, c.length());
    }

    @Test
    void chunkShorterThanFixedFields() {
        assertFails("01000010 01020304 00010000 000a0014", ParseErrorKind.TRUNCATED_FIXED_FIELDS, ChunkType.INIT, 0);
    }

    @Test
    void chunkOfHeaderOnly() {
        assertFails("01000004", ParseErrorKind.TRUNCATED_FIXED_FIELDS, ChunkType.INIT, 0);
    }

    @Test
    void parameterHeaderTruncated() {
        assertFails("01000016" + FIXED + "0005", ParseErrorKind.PARAMETER_HEADER_TRUNCATED, ChunkType.INIT, 20);
    }

    @Test
    void parameterLengthTooSmall() {
        assertFails("01000018" + FIXED + "00050002", ParseErrorKind.PARAMETER_LENGTH_TOO_SMALL, ChunkType.INIT, 20);
    }

    @Test
    void parameterPastChunk() {
        assertFails(
                "0100001c" + FIXED + "00050010 0a000001",
                ParseErrorKind.PARAMETER_LENGTH_PAST_CHUNK,
                ChunkType.INIT,
                20);
    }

    @Test
    void secondParameterPastChunk() {
        assertFails(
                "01000024" + FIXED + "00050008 0a000001 bf010010 01020304",
                ParseErrorKind.PARAMETER_LENGTH_PAST_CHUNK,
                ChunkType.INIT,
                28);
    }

    @Test
    void malformedParameterIsReportedInTheInit() {
        assertFails(
                "01000020" + FIXED + "0005000c 0a000001 00000000",
                ParseErrorKind.BAD_PARAMETER_LENGTH,
                ChunkType.INIT,
                20);
    }

    @Test
    void constructorChecksStreamCounts() {
        assertThrows(IllegalArgumentException.class, () -> InitChunk.of(1, 1, 0x10000, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> InitChunk.of(1, 1, 1, -1, 1));
    }

    @Test
    void constructorRejectsParametersThatDoNotFit() {
        Parameter big = new UnknownParameter(0xBF02, Bytes.of(new byte[0xffff - 4]));
        assertThrows(IllegalArgumentException.class, () -> InitChunk.of(1, 1, 1, 1, 1, big));
    }

    @Test
    void parametersAreCopied() {
        List<Parameter> list = new java.util.ArrayList<>(List.of(param("00050008 0a000001")));
        InitChunk c = new InitChunk(1, 1, 1, 1, 1, list);
        list.clear();
        assertEquals(1, c.parameters().size());
        assertThrows(UnsupportedOperationException.class, () -> c.parameters().add(param("00050008 0a000002")));
        assertEquals(Collections.emptyList(), InitChunk.of(1, 1, 1, 1, 1).parameters());
    }

    static List<Integer> types(List<Parameter> params) {
        return params.stream().map(Parameter::type).toList();
    }
}
