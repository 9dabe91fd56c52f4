package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.AT;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.bytes;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.embed;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.encode;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.lengthField;

import java.nio.ByteBuffer;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;

class DataChunkViewTest {

    /** usrsctp-to-kernel_udp_unordered-ibit.pcap, frame 18, sent by usrsctp 0.9.5.0: flags I, U, B, E. */
    static final String USRSCTP_IUBE =
            "000f013cb7e3b10800010000000003ed757372736374702330303030357c0055565758595a4142434445464748494a4b"
                    + "4c4d4e4f505152535455565758595a4142434445464748494a4b4c4d4e4f505152535455565758595a41424344454647"
                    + "48494a4b4c4d4e4f505152535455565758595a4142434445464748494a4b4c4d4e4f505152535455565758595a414243"
                    + "4445464748494a4b4c4d4e4f505152535455565758595a4142434445464748494a4b4c4d4e4f50515253545556575859"
                    + "5a4142434445464748494a4b4c4d4e4f505152535455565758595a4142434445464748494a4b4c4d4e4f505152535455"
                    + "565758595a4142434445464748494a4b4c4d4e4f505152535455565758595a4142434445464748494a4b4c4d4e4f5051"
                    + "52535455565758595a4142434445464748494a4b4c4d4e4f50515253";

    /** Checks every accessor of the view against the record it must agree with. */
    static void assertAgrees(DataChunk expected, DataChunkView v) {
        assertEquals(expected.flags(), v.flags() & 0x0f);
        assertEquals(expected.immediate(), v.immediate());
        assertEquals(expected.unordered(), v.unordered());
        assertEquals(expected.beginning(), v.beginning());
        assertEquals(expected.ending(), v.ending());
        assertEquals(expected.tsn(), v.tsn());
        assertEquals(expected.streamId(), v.streamId());
        assertEquals(expected.ssn(), v.ssn());
        assertEquals(expected.ppid(), v.ppid());
        assertEquals(expected.userData().length(), v.userDataLength());
        assertEquals(expected.length(), v.length());
        assertEquals(v.offset() + DataChunk.FIXED_LENGTH, v.userDataOffset());
        assertEquals(expected.userData(), Bytes.copyOf(v.buffer(), v.userDataOffset(), v.userDataLength()));
        assertEquals(expected, v.toRecord());
    }

    static DataChunkView view(byte[] chunk) {
        Parsed<DataChunkView> p = DataChunkView.check(embed(chunk), AT, lengthField(chunk));
        assertTrue(p.isOk(), () -> p.error().toString());
        return p.value();
    }

    @Property(tries = 200)
    void agreesWithTheRecord(@ForAll("datas") DataChunk c) {
        DataChunkView v = view(encode(c));
        assertEquals(AT, v.offset());
        assertAgrees(c, v);
    }

    @Provide
    Arbitrary<DataChunk> datas() {
        return CoreChunkArbitraries.data();
    }

    @Test
    void readsCorpusBytesWithoutCopying() {
        byte[] chunk = bytes(USRSCTP_IUBE);
        ByteBuffer buf = embed(chunk);
        DataChunkView v = DataChunkView.check(buf, AT, lengthField(chunk)).value();
        assertSame(buf, v.buffer());
        assertEquals(0x0f, v.flags());
        assertEquals(0xb7e3b108, v.tsn());
        assertEquals(1, v.streamId());
        assertEquals(0, v.ssn());
        assertEquals(1005, v.ppid());
        assertEquals(AT + 16, v.userDataOffset());
        assertEquals(300, v.userDataLength());
        assertEquals('u', buf.get(v.userDataOffset()));
    }

    @Test
    void keepsReservedFlagBits() {
        DataChunkView v = view(bytes("00f30011 00000001 00020003 00000004 55"));
        assertEquals(0xf3, v.flags());
        assertFalse(v.immediate());
        assertFalse(v.unordered());
        assertEquals(new DataChunk(false, false, true, true, 1, 2, 3, 4, Bytes.of((byte) 0x55)), v.toRecord());
    }

    @Test
    void failsAsTheRecordDecoderDoes() {
        for (String hex : List.of("0003000c 00000001 00020003", "00030010 00000001 00020003 00000004")) {
            byte[] b = bytes(hex);
            Parsed<DataChunkView> view = DataChunkView.check(embed(b), AT, lengthField(b));
            Parsed<DataChunk> rec = DataChunk.decode(embed(b), AT, lengthField(b));
            assertFalse(view.isOk());
            assertEquals(rec.error(), view.error());
        }
    }
}
