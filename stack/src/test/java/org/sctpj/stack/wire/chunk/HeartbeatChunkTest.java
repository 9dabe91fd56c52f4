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

import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.ParameterType;

class HeartbeatChunkTest {

    @Property(tries = 200)
    void roundTrip(@ForAll("heartbeats") HeartbeatChunk c) {
        assertRoundTrip(c);
        assertEquals(c.parameters(), c.ack().parameters());
    }

    @Provide
    Arbitrary<HeartbeatChunk> heartbeats() {
        return CoreChunkArbitraries.heartbeat();
    }

    @Test
    void encodesTheRfcLayout() {
        HeartbeatChunk c = HeartbeatChunk.of(param("00010009 0102030405"));
        // Heartbeat Info of length 9 is the last parameter: unpadded inside the chunk, chunk-padded.
        assertEquals("0400000d" + "00010009" + "0102030405" + "000000", hex(encode(c)));
        assertRoundTrip(c);
    }

    @Test
    void encodesFurtherParametersAfterTheInfo() {
        HeartbeatChunk c = HeartbeatChunk.of(param("00010005 aa"), param("bf010004"));
        assertEquals("04000010" + "00010005aa000000" + "bf010004", hex(encode(c)));
        assertRoundTrip(c);
    }

    @Test
    void reservedFlagsAreIgnored() {
        HeartbeatChunk c = decodeOk("04ff0008 00010004", HeartbeatChunk.class);
        assertEquals(HeartbeatChunk.of(param("00010004")), c);
    }

    @Test
    void usrsctpHeartbeatFromCorpus() {
        // usrsctp-to-kernel_raw_heartbeat-idle.pcap, frame 9, sent by usrsctp 0.9.5.0.
        HeartbeatChunk c = assertReencodes(
                "0400002c00010028cf3f026b005d0d000000000000000000021000000a630002000000000000000000000000",
                HeartbeatChunk.class);
        assertEquals(1, c.parameters().size());
        assertEquals(ParameterType.HEARTBEAT_INFO, c.info().type());
        assertEquals(40, c.info().length());
    }

    @Test
    void linuxHeartbeatFromCorpus() {
        // usrsctp-to-kernel_raw_heartbeat-idle.pcap, frame 11, sent by Linux 6.1 kernel SCTP.
        HeartbeatChunk c = assertReencodes(
                "0400003c000100380200d8df0a6300010000000000000000000000000000000000000000c037ffff00000000"
                        + "a905f50761a406b80000000000000000",
                HeartbeatChunk.class);
        assertEquals(ParameterType.HEARTBEAT_INFO, c.info().type());
        assertEquals(56, c.info().length());
    }

    @Test
    void noParameter() {
        assertFails("04000004", ParseErrorKind.TRUNCATED_FIXED_FIELDS, ChunkType.HEARTBEAT, 0);
    }

    @Test
    void partialParameterHeader() {
        assertFails("04000006 0001", ParseErrorKind.TRUNCATED_FIXED_FIELDS, ChunkType.HEARTBEAT, 0);
    }

    @Test
    void firstParameterIsNotHeartbeatInfo() {
        assertFails("0400000c 00050008 0a000001", ParseErrorKind.INVALID_FIELD_VALUE, ChunkType.HEARTBEAT, 4);
    }

    @Test
    void heartbeatInfoLengthTooSmall() {
        assertFails("04000008 00010002", ParseErrorKind.PARAMETER_LENGTH_TOO_SMALL, ChunkType.HEARTBEAT, 4);
    }

    @Test
    void heartbeatInfoPastChunk() {
        assertFails("0400000c 00010010 01020304", ParseErrorKind.PARAMETER_LENGTH_PAST_CHUNK, ChunkType.HEARTBEAT, 4);
    }

    @Test
    void truncatedSecondParameterHeader() {
        assertFails(
                "0400000e 00010008 01020304 bf01", ParseErrorKind.PARAMETER_HEADER_TRUNCATED, ChunkType.HEARTBEAT, 12);
    }

    @Test
    void constructorRequiresHeartbeatInfoFirst() {
        assertThrows(IllegalArgumentException.class, () -> new HeartbeatChunk(List.of()));
        Parameter ipv4 = param("00050008 0a000001");
        assertThrows(IllegalArgumentException.class, () -> HeartbeatChunk.of(ipv4));
        assertThrows(IllegalArgumentException.class, () -> HeartbeatChunk.of(ipv4, param("00010004")));
    }

    @Test
    void ackCopiesTheParameters() {
        HeartbeatChunk c = HeartbeatChunk.of(param("00010008 01020304"), param("bf010004"));
        assertEquals(new HeartbeatAckChunk(c.parameters()), c.ack());
    }
}
