package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertFails;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertReencodes;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertRoundTrip;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.decodeOk;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.encode;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.hex;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ParseErrorKind;

class DataChunkTest {

    @Property(tries = 200)
    void roundTrip(@ForAll("datas") DataChunk c) {
        assertRoundTrip(c);
    }

    @Property(tries = 200)
    void allocationFreeWriterMatchesTheRecord(@ForAll("datas") DataChunk c) {
        byte[] ud = c.userData().toArray();
        byte[] framed = new byte[ud.length + 6];
        System.arraycopy(ud, 0, framed, 3, ud.length);
        ByteBuffer out = ByteBuffer.allocate(c.encodedLength());
        DataChunk.write(out, c.flags(), c.tsn(), c.streamId(), c.ssn(), c.ppid(), framed, 3, ud.length);
        assertEquals(c.encodedLength(), out.position());
        assertEquals(hex(encode(c)), hex(out.array()));
    }

    @Provide
    Arbitrary<DataChunk> datas() {
        return CoreChunkArbitraries.data();
    }

    @Test
    void encodesTheRfcLayout() {
        DataChunk c = new DataChunk(
                false, true, true, false, 0x01020304, 5, 0xfffe, 51, Bytes.of((byte) 0xaa, (byte) 0xbb, (byte) 0xcc));
        assertEquals("00060013" + "01020304" + "0005fffe" + "00000033" + "aabbcc" + "00", hex(encode(c)));
        assertRoundTrip(c);
    }

    @Test
    void encodesEveryFlag() {
        DataChunk c =
                new DataChunk(true, true, true, true, -1, 0, 0, 0, Bytes.of((byte) 1, (byte) 2, (byte) 3, (byte) 4));
        assertEquals("000f0014" + "ffffffff" + "00000000" + "00000000" + "01020304", hex(encode(c)));
        assertRoundTrip(c);
    }

    @Test
    void reservedFlagsAreIgnored() {
        DataChunk c = decodeOk("00f30011 00000001 00020003 00000004 55", DataChunk.class);
        assertEquals(new DataChunk(false, false, true, true, 1, 2, 3, 4, Bytes.of((byte) 0x55)), c);
        assertEquals(0x03, c.flags());
    }

    @Test
    void linuxDataFromCorpus() {
        // crafted-to-kernel_raw_abort-protocol-violation.pcap, frame 7, sent by Linux 6.1 kernel SCTP
        // (the echo of the crafted peer's message).
        DataChunk c = assertReencodes(
                "000300247974b66f0002000000000fa36265666f7265207468652076696f6c6174696f6e", DataChunk.class);
        assertEquals(0x7974b66f, c.tsn());
        assertEquals(2, c.streamId());
        assertEquals(0, c.ssn());
        assertEquals(4003, c.ppid());
        assertEquals("before the violation", new String(c.userData().toArray(), StandardCharsets.US_ASCII));
        assertEquals(false, c.immediate());
        assertEquals(false, c.unordered());
        assertEquals(true, c.beginning());
        assertEquals(true, c.ending());
    }

    @Test
    void usrsctpDataWithEveryFlagFromCorpus() {
        // usrsctp-to-kernel_udp_unordered-ibit.pcap, frame 18, sent by usrsctp 0.9.5.0: I, U, B and E set.
        DataChunk c = assertReencodes(DataChunkViewTest.USRSCTP_IUBE, DataChunk.class);
        assertEquals(0xb7e3b108, c.tsn());
        assertEquals(1, c.streamId());
        assertEquals(0, c.ssn());
        assertEquals(1005, c.ppid());
        assertEquals(300, c.userData().length());
        assertEquals(true, c.immediate());
        assertEquals(true, c.unordered());
        assertEquals(true, c.beginning());
        assertEquals(true, c.ending());
        assertEquals("usrsctp#00005|", new String(c.userData().toArray(), 0, 14, StandardCharsets.US_ASCII));
    }

    @Test
    void chunkShorterThanFixedFields() {
        assertFails("0003000c 00000001 00020003", ParseErrorKind.TRUNCATED_FIXED_FIELDS, ChunkType.DATA, 0);
    }

    @Test
    void noUserData() {
        assertFails("00030010 00000001 00020003 00000004", ParseErrorKind.NO_USER_DATA, ChunkType.DATA, 0);
    }

    @Test
    void constructorChecks() {
        Bytes one = Bytes.of((byte) 1);
        assertThrows(
                IllegalArgumentException.class, () -> new DataChunk(false, false, true, true, 1, 1, 1, 1, Bytes.EMPTY));
        assertThrows(
                IllegalArgumentException.class, () -> new DataChunk(false, false, true, true, 1, 0x10000, 1, 1, one));
        assertThrows(IllegalArgumentException.class, () -> new DataChunk(false, false, true, true, 1, 1, -1, 1, one));
        Bytes max = Bytes.of(new byte[0xffff - DataChunk.FIXED_LENGTH]);
        assertRoundTrip(new DataChunk(false, false, true, true, 1, 1, 1, 1, max));
        Bytes tooBig = Bytes.of(new byte[0xffff - DataChunk.FIXED_LENGTH + 1]);
        assertThrows(IllegalArgumentException.class, () -> new DataChunk(false, false, true, true, 1, 1, 1, 1, tooBig));
    }
}
