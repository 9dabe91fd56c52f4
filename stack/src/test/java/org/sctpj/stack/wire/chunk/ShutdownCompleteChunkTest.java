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

class ShutdownCompleteChunkTest {

    @Test
    void roundTrip() {
        assertRoundTrip(new ShutdownCompleteChunk(false));
        assertRoundTrip(new ShutdownCompleteChunk(true));
    }

    @Test
    void encodesTheRfcLayout() {
        assertEquals("0e000004", hex(encode(new ShutdownCompleteChunk(false))));
        assertEquals("0e010004", hex(encode(new ShutdownCompleteChunk(true))));
    }

    @Test
    void reservedFlagsAreIgnored() {
        assertEquals(new ShutdownCompleteChunk(false), decodeOk("0efe0004", ShutdownCompleteChunk.class));
        assertEquals(new ShutdownCompleteChunk(true), decodeOk("0eff0004", ShutdownCompleteChunk.class));
    }

    @Test
    void usrsctpShutdownCompleteFromCorpus() {
        // usrsctp-to-kernel_raw_handshake-data-shutdown.pcap, frame 21, sent by usrsctp 0.9.5.0.
        assertEquals(
                false, assertReencodes("0e000004", ShutdownCompleteChunk.class).tBit());
    }

    @Test
    void linuxShutdownCompleteWithTBitFromCorpus() {
        // crafted-to-kernel_raw_ootb-abort-t-bit.pcap, frame 4, sent by Linux 6.1 kernel SCTP in
        // answer to an out-of-the-blue SHUTDOWN ACK: T bit set.
        assertEquals(
                true, assertReencodes("0e010004", ShutdownCompleteChunk.class).tBit());
    }

    @Test
    void tooLong() {
        assertFails("0e010008 00000000", ParseErrorKind.TRUNCATED_FIXED_FIELDS, ChunkType.SHUTDOWN_COMPLETE, 0);
    }
}
