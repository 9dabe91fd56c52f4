package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertFails;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertReencodes;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertRoundTrip;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.decodeOk;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.encode;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.hex;

import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.ParseErrorKind;

class CookieAckChunkTest {

    @Test
    void roundTrip() {
        assertRoundTrip(CookieAckChunk.INSTANCE);
    }

    @Test
    void encodesTheRfcLayout() {
        assertEquals("0b000004", hex(encode(CookieAckChunk.INSTANCE)));
    }

    @Test
    void reservedFlagsAreIgnored() {
        assertEquals(CookieAckChunk.INSTANCE, decodeOk("0b010004", CookieAckChunk.class));
    }

    @Test
    void linuxCookieAckFromCorpus() {
        // usrsctp-to-kernel_raw_handshake-data-shutdown.pcap, frame 4, sent by Linux 6.1 kernel SCTP.
        assertReencodes("0b000004", CookieAckChunk.class);
    }

    @Test
    void tooLong() {
        assertFails("0b000008 00000000", ParseErrorKind.TRUNCATED_FIXED_FIELDS, ChunkType.COOKIE_ACK, 0);
    }

    @Test
    void oddLength() {
        assertFails("0b000005 00", ParseErrorKind.TRUNCATED_FIXED_FIELDS, ChunkType.COOKIE_ACK, 0);
    }
}
