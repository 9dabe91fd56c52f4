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

class ShutdownAckChunkTest {

    @Test
    void roundTrip() {
        assertRoundTrip(ShutdownAckChunk.INSTANCE);
        assertRoundTrip(new ShutdownAckChunk());
    }

    @Test
    void encodesTheRfcLayout() {
        assertEquals("08000004", hex(encode(ShutdownAckChunk.INSTANCE)));
    }

    @Test
    void reservedFlagsAreIgnored() {
        assertEquals(ShutdownAckChunk.INSTANCE, decodeOk("08ff0004", ShutdownAckChunk.class));
    }

    @Test
    void linuxShutdownAckFromCorpus() {
        // usrsctp-to-kernel_raw_handshake-data-shutdown.pcap, frame 20, sent by Linux 6.1 kernel SCTP.
        assertReencodes("08000004", ShutdownAckChunk.class);
    }

    @Test
    void usrsctpShutdownAckFromCorpus() {
        // kernel-to-usrsctp_udp_handshake-data-shutdown.pcap, frame 18, sent by usrsctp 0.9.5.0.
        assertReencodes("08000004", ShutdownAckChunk.class);
    }

    @Test
    void tooLong() {
        assertFails("08000008 00000000", ParseErrorKind.TRUNCATED_FIXED_FIELDS, ChunkType.SHUTDOWN_ACK, 0);
    }
}
