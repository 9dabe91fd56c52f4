package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertFails;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertReencodes;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertRoundTrip;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.encode;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.hex;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.param;

import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.param.ParameterType;

class HeartbeatAckChunkTest {

    @Property(tries = 200)
    void roundTrip(@ForAll("acks") HeartbeatAckChunk c) {
        assertRoundTrip(c);
    }

    @Provide
    Arbitrary<HeartbeatAckChunk> acks() {
        return CoreChunkArbitraries.heartbeatAck();
    }

    @Test
    void encodesTheRfcLayout() {
        HeartbeatAckChunk c = HeartbeatAckChunk.of(param("0001000a 0102030405 06"));
        assertEquals("0500000e" + "0001000a" + "010203040506" + "0000", hex(encode(c)));
        assertRoundTrip(c);
    }

    @Test
    void linuxAckOfAnOddLengthHeartbeatFromCorpus() {
        // crafted-to-kernel_raw_error-invalid-stream-unrecognized-chunk.pcap, frame 19, sent by Linux
        // 6.1 kernel SCTP, echoing the crafted peer's 35-byte Heartbeat Info: Chunk Length 39.
        HeartbeatAckChunk c = assertReencodes(
                "0500002700010023637261667465642d6865617274626561742d696e666f3a41dac0903f7c81dc",
                HeartbeatAckChunk.class);
        assertEquals(ParameterType.HEARTBEAT_INFO, c.info().type());
        assertEquals(35, c.info().length());
        assertEquals(40, c.encodedLength());
    }

    @Test
    void usrsctpAckFromCorpus() {
        // usrsctp-to-kernel_raw_heartbeat-idle.pcap, frame 12, sent by usrsctp 0.9.5.0 (answering frame 11).
        HeartbeatAckChunk c = assertReencodes(
                "0500003c000100380200d8df0a6300010000000000000000000000000000000000000000c037ffff00000000"
                        + "a905f50761a406b80000000000000000",
                HeartbeatAckChunk.class);
        assertEquals(56, c.info().length());
    }

    @Test
    void noParameter() {
        assertFails("05000004", ParseErrorKind.TRUNCATED_FIXED_FIELDS, ChunkType.HEARTBEAT_ACK, 0);
    }

    @Test
    void firstParameterIsNotHeartbeatInfo() {
        assertFails("05000008 bf010004", ParseErrorKind.INVALID_FIELD_VALUE, ChunkType.HEARTBEAT_ACK, 4);
    }

    @Test
    void heartbeatInfoPastChunk() {
        assertFails("05000008 00010009", ParseErrorKind.PARAMETER_LENGTH_PAST_CHUNK, ChunkType.HEARTBEAT_ACK, 4);
    }

    @Test
    void heartbeatInfoLengthTooSmall() {
        assertFails("05000008 00010000", ParseErrorKind.PARAMETER_LENGTH_TOO_SMALL, ChunkType.HEARTBEAT_ACK, 4);
    }

    @Test
    void constructorRequiresHeartbeatInfoFirst() {
        assertThrows(IllegalArgumentException.class, () -> new HeartbeatAckChunk(List.of()));
        assertThrows(IllegalArgumentException.class, () -> HeartbeatAckChunk.of(param("bf010004")));
    }
}
