package org.sctpj.stack.assoc;

import java.util.ArrayList;
import java.util.List;
import org.sctpj.stack.rx.SackWriter;
import org.sctpj.stack.wire.chunk.GapAckBlock;
import org.sctpj.stack.wire.chunk.SackChunk;

/** Turns the receiver's SACK fields into a SACK chunk in the association's packet. */
final class SackChunkWriter implements SackWriter {
    private final Association association;

    SackChunkWriter(Association association) {
        this.association = association;
    }

    @Override
    public void sack(int cumTsn, long aRwnd, int[] gapStarts, int[] gapEnds, int gapCount, int[] dups, int dupCount) {
        List<GapAckBlock> gaps = new ArrayList<>(gapCount);
        for (int i = 0; i < gapCount; i++) {
            gaps.add(new GapAckBlock(gapStarts[i], gapEnds[i]));
        }
        List<Integer> d = new ArrayList<>(dupCount);
        for (int i = 0; i < dupCount; i++) {
            d.add(dups[i]);
        }
        association.addSack(new SackChunk(cumTsn, (int) Math.min(aRwnd, 0xffffffffL), gaps, d));
    }
}
