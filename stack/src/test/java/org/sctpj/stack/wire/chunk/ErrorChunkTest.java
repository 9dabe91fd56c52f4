package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertFails;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertReencodes;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertRoundTrip;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.cause;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.decodeOk;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.encode;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.hex;

import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.cause.CauseCode;
import org.sctpj.stack.wire.cause.ErrorCause;
import org.sctpj.stack.wire.cause.InvalidStreamIdentifierCause;
import org.sctpj.stack.wire.cause.UnknownCause;

class ErrorChunkTest {

    @Property(tries = 200)
    void roundTrip(@ForAll("errors") ErrorChunk c) {
        assertRoundTrip(c);
    }

    @Provide
    Arbitrary<ErrorChunk> errors() {
        return CoreChunkArbitraries.error();
    }

    @Test
    void encodesTheRfcLayout() {
        ErrorChunk c =
                ErrorChunk.of(new InvalidStreamIdentifierCause(10), new UnknownCause(0x1234, Bytes.fromHex("aabbcc")));
        // the last cause (length 7) stays unpadded inside the Chunk Length (19)
        assertEquals("09000013" + "00010008000a0000" + "12340007aabbcc" + "00", hex(encode(c)));
        assertRoundTrip(c);
    }

    @Test
    void withoutCausesIsAccepted() {
        assertEquals(ErrorChunk.of(), decodeOk("09000004", ErrorChunk.class));
        assertEquals("09000004", hex(encode(ErrorChunk.of())));
    }

    @Test
    void reservedFlagsAreIgnored() {
        assertEquals(
                ErrorChunk.of(new InvalidStreamIdentifierCause(3)),
                decodeOk("09ff000c 00010008 00030000", ErrorChunk.class));
    }

    @Test
    void linuxInvalidStreamFromCorpus() {
        // crafted-to-kernel_raw_error-invalid-stream-unrecognized-chunk.pcap, frame 10, sent by Linux 6.1 kernel SCTP.
        ErrorChunk c = assertReencodes("0900000c00010008000a0000", ErrorChunk.class);
        assertEquals(List.of(new InvalidStreamIdentifierCause(10)), c.causes());
    }

    @Test
    void linuxUnrecognizedChunkFromCorpus() {
        // crafted-to-kernel_raw_error-invalid-stream-unrecognized-chunk.pcap, frame 13, sent by Linux 6.1 kernel SCTP.
        ErrorChunk c = assertReencodes("09000014000600107e0000090102030405000000", ErrorChunk.class);
        assertEquals(List.of(CauseCode.UNRECOGNIZED_CHUNK_TYPE), codes(c.causes()));
        assertEquals(16, c.causes().get(0).length());
    }

    @Test
    void linuxStaleCookieFromCorpus() {
        // usrsctp-to-kernel_raw_stale-cookie-error.pcap, frame 4, sent by Linux 6.1 kernel SCTP.
        ErrorChunk c = assertReencodes("0900000c00030008000f6e79", ErrorChunk.class);
        assertEquals(List.of(CauseCode.STALE_COOKIE), codes(c.causes()));
    }

    @Test
    void linuxCookieWhileShuttingDownFromCorpus() {
        // crafted-to-kernel_udp_error-cookie-while-shutting-down.pcap, frame 14, sent by Linux 6.1 kernel SCTP.
        ErrorChunk c = assertReencodes("09000008000a0004", ErrorChunk.class);
        assertEquals(List.of(CauseCode.COOKIE_WHILE_SHUTTING_DOWN), codes(c.causes()));
    }

    @Test
    void causeHeaderTruncated() {
        assertFails("09000006 0001", ParseErrorKind.PARAMETER_HEADER_TRUNCATED, ChunkType.ERROR, 4);
    }

    @Test
    void causeLengthTooSmall() {
        assertFails("09000008 00010003", ParseErrorKind.PARAMETER_LENGTH_TOO_SMALL, ChunkType.ERROR, 4);
    }

    @Test
    void causePastChunk() {
        assertFails(
                "09000010 00010008 000a0000 12340008", ParseErrorKind.PARAMETER_LENGTH_PAST_CHUNK, ChunkType.ERROR, 12);
    }

    @Test
    void malformedCauseIsReportedInTheError() {
        assertFails("0900000a 00010006 000a", ParseErrorKind.BAD_PARAMETER_LENGTH, ChunkType.ERROR, 4);
    }

    @Test
    void constructorRejectsCausesThatDoNotFit() {
        ErrorCause big = new UnknownCause(0x1234, Bytes.of(new byte[0xffff - 8]));
        assertRoundTrip(ErrorChunk.of(big));
        assertThrows(IllegalArgumentException.class, () -> ErrorChunk.of(big, cause("000a0004")));
    }

    static List<Integer> codes(List<ErrorCause> causes) {
        return causes.stream().map(ErrorCause::code).toList();
    }
}
