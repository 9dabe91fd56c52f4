package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertFails;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertReencodes;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertRoundTrip;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.decodeOk;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.encode;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.hex;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.ParseErrorKind;

class ShutdownChunkTest {

    @Property(tries = 200)
    void roundTrip(@ForAll int cumTsnAck) {
        assertRoundTrip(new ShutdownChunk(cumTsnAck));
    }

    @Test
    void encodesTheRfcLayout() {
        assertEquals("07000008" + "fedcba98", hex(encode(new ShutdownChunk(0xfedcba98))));
    }

    @Test
    void reservedFlagsAreIgnored() {
        assertEquals(new ShutdownChunk(5), decodeOk("07ff0008 00000005", ShutdownChunk.class));
    }

    @Test
    void usrsctpShutdownFromCorpus() {
        // usrsctp-to-kernel_raw_handshake-data-shutdown.pcap, frame 19, sent by usrsctp 0.9.5.0.
        assertEquals(
                0x53a849cf,
                assertReencodes("0700000853a849cf", ShutdownChunk.class).cumTsnAck());
    }

    @Test
    void linuxShutdownFromCorpus() {
        // kernel-to-usrsctp_udp_handshake-data-shutdown.pcap, frame 17, sent by Linux 6.1 kernel SCTP.
        assertEquals(
                0x9183bddf,
                assertReencodes("070000089183bddf", ShutdownChunk.class).cumTsnAck());
    }

    @Test
    void tooShort() {
        assertFails("07000004", ParseErrorKind.TRUNCATED_FIXED_FIELDS, ChunkType.SHUTDOWN, 0);
    }

    @Test
    void tooLong() {
        assertFails("0700000c 00000001 00000002", ParseErrorKind.TRUNCATED_FIXED_FIELDS, ChunkType.SHUTDOWN, 0);
    }

    @Test
    void textShowsUnsignedValue() {
        assertEquals("SHUTDOWN[cum=4294967295]", new ShutdownChunk(-1).toString());
    }
}
