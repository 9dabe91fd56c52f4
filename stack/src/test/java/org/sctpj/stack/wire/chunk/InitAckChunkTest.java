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

class InitAckChunkTest {

    private static final String FIXED = "01020304 00010000 000a0014 a0b0c0d0";

    @Property(tries = 200)
    void roundTrip(@ForAll("initAcks") InitAckChunk c) {
        assertRoundTrip(c);
    }

    @Provide
    Arbitrary<InitAckChunk> initAcks() {
        return CoreChunkArbitraries.initAck();
    }

    @Test
    void encodesTheRfcLayout() {
        InitAckChunk c = InitAckChunk.of(
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
                "02000023" + FIXED.replace(" ", "") + "000500080a000001" + "bf010007010203" + "00", hex(encode(c)));
        assertRoundTrip(c);
    }

    @Test
    void withoutParameters() {
        InitAckChunk c = InitAckChunk.of(1, 2, 3, 4, 5);
        assertEquals("02000014" + "00000001000000020003000400000005", hex(encode(c)));
        assertRoundTrip(c);
    }

    @Test
    void reservedFlagsAreIgnored() {
        InitAckChunk c = decodeOk("02ff0014" + FIXED, InitAckChunk.class);
        assertEquals(0, c.flags());
        assertEquals(InitAckChunk.of(0x01020304, 0x10000, 10, 20, 0xA0B0C0D0), c);
    }

    @Test
    void zeroTagAndZeroStreamsAreLeftToTheHandshake() {
        InitAckChunk c = decodeOk("02000014 00000000 00000000 00000000 00000000", InitAckChunk.class);
        assertEquals(InitAckChunk.of(0, 0, 0, 0, 0), c);
    }

    @Test
    void linuxInitAckFromCorpus() {
        // crafted-to-kernel_udp_init-unrecognized-params.pcap, frame 2, sent by Linux 6.1 kernel SCTP
        // in answer to a crafted INIT: State Cookie, then an Unrecognized Parameter quoting 0xC0AB.
        InitAckChunk c = assertReencodes(
                "020001308753c6130003400000080008b657ec5c0007010882c5782132f73643d163ce0b2996b899d2597ce200000000"
                        + "00000000000000000000000013c653875d24d12a0000000000000000f90a1c84d738ea18080008005cec57b602009e88"
                        + "0a63000100000000000000000000000000000000000000003b180000eeffc000800200240d323dd397e9a81c32482d30"
                        + "410bcd8b1b1773ed201f0ba503a2e6613624e1c200000000000000000000000000000000000000000000000000000000"
                        + "00000000000000000100004c2ad1245d0001000000080008a1da059d000c000600050000c0ab00107265706f72742d6d"
                        + "6521212180cd001069676e6f72652d6d652121210009000800001388c006000800c0ffee000000000000000000080014"
                        + "c0ab00107265706f72742d6d65212121",
                InitAckChunk.class);
        assertEquals(0x8753c613, c.initiateTag());
        assertEquals(212992, c.aRwnd());
        assertEquals(8, c.outboundStreams());
        assertEquals(8, c.inboundStreams());
        assertEquals(0xb657ec5c, c.initialTsn());
        assertEquals(List.of(0x0007, 0x0008), types(c.parameters()));
        assertEquals(264, c.parameters().get(0).length());
    }

    @Test
    void usrsctpInitAckFromCorpus() {
        // kernel-to-usrsctp_udp_handshake-data-shutdown.pcap, frame 2, sent by usrsctp 0.9.5.0:
        // the State Cookie comes last.
        InitAckChunk c = assertReencodes(
                "020001646b609a4900400000001000109183bddb80000004c000000480080009c00fc1808200000080020024ce2e6ae8"
                        + "e4b85f2684b6c5fef9c725870588fe218fe8659f0a94377d7a7e515f80040006000100008003000680c10000"
                        + "000701084b414d452d42534420312e3100000000913f026b00000000ca7402000000000060ea000000000000"
                        + "0000000058cbae566b609a490a630002000000000000000000000000050000000a6300010000000000000000"
                        + "000000000500000000000000e77017720100000000010000000000000100002456aecb580003400000100010"
                        + "e33da3ab000c00060005000080000004c0000004020001646b609a4900400000001000109183bddb80000004"
                        + "c000000480080009c00fc1808200000080020024ce2e6ae8e4b85f2684b6c5fef9c725870588fe218fe8659f"
                        + "0a94377d7a7e515f80040006000100008003000680c100001ccec4763a12aec465c267ccc964581ae6b4f841",
                InitAckChunk.class);
        assertEquals(0x6b609a49, c.initiateTag());
        assertEquals(4194304, c.aRwnd());
        assertEquals(16, c.outboundStreams());
        assertEquals(16, c.inboundStreams());
        assertEquals(0x9183bddb, c.initialTsn());
        assertEquals(List.of(0x8000, 0xc000, 0x8008, 0x8002, 0x8004, 0x8003, 0x0007), types(c.parameters()));
        assertEquals(356, c.length());
    }

    @Test
    void chunkShorterThanFixedFields() {
        assertFails(
                "02000010 01020304 00010000 000a0014", ParseErrorKind.TRUNCATED_FIXED_FIELDS, ChunkType.INIT_ACK, 0);
    }

    @Test
    void chunkOfHeaderOnly() {
        assertFails("02000004", ParseErrorKind.TRUNCATED_FIXED_FIELDS, ChunkType.INIT_ACK, 0);
    }

    @Test
    void parameterHeaderTruncated() {
        assertFails("02000016" + FIXED + "0005", ParseErrorKind.PARAMETER_HEADER_TRUNCATED, ChunkType.INIT_ACK, 20);
    }

    @Test
    void parameterLengthTooSmall() {
        assertFails("02000018" + FIXED + "00050002", ParseErrorKind.PARAMETER_LENGTH_TOO_SMALL, ChunkType.INIT_ACK, 20);
    }

    @Test
    void parameterPastChunk() {
        assertFails(
                "0200001c" + FIXED + "00050010 0a000001",
                ParseErrorKind.PARAMETER_LENGTH_PAST_CHUNK,
                ChunkType.INIT_ACK,
                20);
    }

    @Test
    void secondParameterPastChunk() {
        assertFails(
                "02000024" + FIXED + "00050008 0a000001 bf010010 01020304",
                ParseErrorKind.PARAMETER_LENGTH_PAST_CHUNK,
                ChunkType.INIT_ACK,
                28);
    }

    @Test
    void malformedParameterIsReportedInTheInitAck() {
        assertFails(
                "02000020" + FIXED + "0005000c 0a000001 00000000",
                ParseErrorKind.BAD_PARAMETER_LENGTH,
                ChunkType.INIT_ACK,
                20);
    }

    @Test
    void constructorChecksStreamCounts() {
        assertThrows(IllegalArgumentException.class, () -> InitAckChunk.of(1, 1, 0x10000, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> InitAckChunk.of(1, 1, 1, -1, 1));
    }

    @Test
    void constructorRejectsParametersThatDoNotFit() {
        Parameter big = new UnknownParameter(0xBF02, Bytes.of(new byte[0xffff - 4]));
        assertThrows(IllegalArgumentException.class, () -> InitAckChunk.of(1, 1, 1, 1, 1, big));
    }

    @Test
    void parametersAreCopied() {
        List<Parameter> list = new java.util.ArrayList<>(List.of(param("00050008 0a000001")));
        InitAckChunk c = new InitAckChunk(1, 1, 1, 1, 1, list);
        list.clear();
        assertEquals(1, c.parameters().size());
        assertThrows(UnsupportedOperationException.class, () -> c.parameters().add(param("00050008 0a000002")));
        assertEquals(Collections.emptyList(), InitAckChunk.of(1, 1, 1, 1, 1).parameters());
    }

    static List<Integer> types(List<Parameter> params) {
        return params.stream().map(Parameter::type).toList();
    }
}
