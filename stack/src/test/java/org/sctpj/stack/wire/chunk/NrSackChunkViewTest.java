package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.rx.DataReceiver;
import org.sctpj.stack.rx.SackWriter;
import org.sctpj.stack.wire.Parsed;

/**
 * The allocation-free NR-SACK forms (draft-natarajan-tsvwg-sctp-nrsack-08 section 4.1): {@link
 * NrSackChunk#writeNonRenegable} and {@link NrSackChunkView} agree with the record codec, and the
 * receiver reports its out-of-order TSNs as NR gap blocks once NR-SACK is asked for.
 */
class NrSackChunkViewTest {

    @Test
    void writtenNonRenegableDecodesAsTheRecord() {
        ByteBuffer b = ByteBuffer.allocate(64);
        NrSackChunk.writeNonRenegable(b, 7, 5000, new int[] {2, 6}, new int[] {3, 9}, 2, new int[] {5}, 1);
        assertEquals(NrSackChunk.length(0, 2, 1), b.position());
        Parsed<NrSackChunk> p = NrSackChunk.decode(b, 0, b.position());
        assertTrue(p.isOk(), () -> p.toString());
        assertEquals(
                new NrSackChunk(7, 5000, List.of(), List.of(new GapAckBlock(2, 3), new GapAckBlock(6, 9)), List.of(5)),
                p.value());
    }

    @Test
    void viewReadsBothBlockListsAndRefusesWhatTheDecoderRefuses() {
        NrSackChunk c = new NrSackChunk(
                100,
                9,
                List.of(new GapAckBlock(2, 2)),
                List.of(new GapAckBlock(4, 5), new GapAckBlock(8, 8)),
                List.of());
        ByteBuffer b = ByteBuffer.allocate(c.encodedLength());
        c.encode(b);
        NrSackChunkView v = new NrSackChunkView();
        assertTrue(v.wrap(b, 0, b.position()));
        assertEquals(100, v.cumTsnAck());
        assertEquals(9, v.aRwnd());
        assertEquals(1, v.gapBlockCount());
        assertEquals(2, v.gapStart(0));
        assertEquals(2, v.nrGapBlockCount());
        assertEquals(4, v.nrGapStart(0));
        assertEquals(5, v.nrGapEnd(0));
        assertEquals(8, v.nrGapEnd(1));
        assertFalse(v.wrap(b, 0, b.position() - 4), "counts that do not fill the chunk");
        b.putShort(NrSackChunk.FIXED_LENGTH + 4, (short) 6); // NR block 1 starts at 6, ends at 5
        assertFalse(v.wrap(b, 0, b.position()), "a block starting after its end");
        assertFalse(NrSackChunk.decode(b, 0, b.position()).isOk());
    }

    @Test
    void receiverReportsOutOfOrderTsnsAsNonRenegable() {
        DataReceiver rx = new DataReceiver(SctpOptions.WAN, 1000, 4);
        ByteBuffer data = ByteBuffer.wrap(new byte[100]);
        for (int tsn : new int[] {1000, 1002, 1003, 1006}) {
            rx.onData(tsn, 0, 0, 0, 0x07, data, 0, 100, 0); // unordered whole messages
        }
        int[] got = new int[8];
        rx.writeSack(
                new SackWriter() {
                    @Override
                    public void sack(int cum, long rwnd, int[] gs, int[] ge, int gc, int[] d, int dc) {
                        throw new AssertionError("a SACK where an NR-SACK was asked for");
                    }

                    @Override
                    public void nrSack(int cum, long rwnd, int[] ns, int[] ne, int nc, int[] d, int dc) {
                        got[0] = cum;
                        got[1] = nc;
                        got[2] = ns[0];
                        got[3] = ne[0];
                        got[4] = ns[1];
                        got[5] = ne[1];
                    }
                },
                1000,
                true);
        assertEquals(1000, got[0]);
        assertEquals(2, got[1]);
        assertEquals(2, got[2]);
        assertEquals(3, got[3]);
        assertEquals(6, got[4]);
        assertEquals(6, got[5]);
    }
}
