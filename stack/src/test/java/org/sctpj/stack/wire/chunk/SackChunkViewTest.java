package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import org.sctpj.stack.wire.Parsed;

class SackChunkViewTest {

    /** Checks every accessor of the view against the record it must agree with. */
    static void assertAgrees(SackChunk expected, SackChunkView v) {
        assertEquals(expected.cumTsnAck(), v.cumTsnAck());
        assertEquals(expected.aRwnd(), v.aRwnd());
        assertEquals(expected.gapAckBlocks().size(), v.gapBlockCount());
        for (int i = 0; i < v.gapBlockCount(); i++) {
            assertEquals(expected.gapAckBlocks().get(i).start(), v.gapStart(i));
            assertEquals(expected.gapAckBlocks().get(i).end(), v.gapEnd(i));
        }
        assertEquals(expected.duplicateTsns().size(), v.dupCount());
        for (int i = 0; i < v.dupCount(); i++) {
            assertEquals(expected.duplicateTsns().get(i), v.dupTsn(i));
        }
        assertEquals(expected.length(), v.length());
        assertEquals(expected, v.toRecord());
    }

    static SackChunkView view(byte[] chunk) {
        Parsed<SackChunkView> p = SackChunkView.check(embed(chunk), AT, lengthField(chunk));
        assertTrue(p.isOk(), () -> p.error().toString());
        return p.value();
    }

    @Property(tries = 200)
    void agreesWithTheRecord(@ForAll("sacks") SackChunk c) {
        SackChunkView v = view(encode(c));
        assertEquals(AT, v.offset());
        assertAgrees(c, v);
    }

    @Provide
    Arbitrary<SackChunk> sacks() {
        return CoreChunkArbitraries.sack();
    }

    @Test
    void readsCorpusBytes() {
        // usrsctp-to-kernel_raw_loss-dup-sack-gaps.pcap, frame 109, sent by usrsctp 0.9.5.0.
        SackChunkView v = view(bytes("0300001cc3275254003ffb18000200010002000400060007c327525b"));
        assertEquals(0xc3275254, v.cumTsnAck());
        assertEquals(2, v.gapBlockCount());
        assertEquals(6, v.gapStart(1));
        assertEquals(7, v.gapEnd(1));
        assertEquals(0xc327525b, v.dupTsn(0));
    }

    @Test
    void indexesOutOfRangeAreRejected() {
        SackChunkView v = view(encode(new SackChunk(1, 2, List.of(new GapAckBlock(1, 2)), List.of(9))));
        assertThrows(IndexOutOfBoundsException.class, () -> v.gapStart(1));
        assertThrows(IndexOutOfBoundsException.class, () -> v.gapEnd(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> v.dupTsn(1));
    }

    @Test
    void failsAsTheRecordDecoderDoes() {
        for (String hex : List.of(
                "0300000c 00000001 00000002",
                "03000014 00000001 00000002 00020000 00010002",
                "03000018 00000001 00000002 00020000 00010002 00050004")) {
            byte[] b = bytes(hex);
            Parsed<SackChunkView> view = SackChunkView.check(embed(b), AT, lengthField(b));
            Parsed<SackChunk> rec = SackChunk.decode(embed(b), AT, lengthField(b));
            assertFalse(view.isOk());
            assertEquals(rec.error(), view.error());
        }
    }

    @Test
    void ignoresBufferPositionAndLimit() {
        ByteBuffer buf = embed(encode(SackChunk.of(7, 8)));
        SackChunkView v = SackChunkView.check(buf, AT, 16).value();
        buf.position(buf.limit());
        assertEquals(7, v.cumTsnAck());
        assertEquals(8, v.aRwnd());
    }
}
