package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import java.util.Objects;
import org.sctpj.stack.wire.Wire;

/**
 * A checked, zero-copy view of an NR-SACK chunk (type 0x10, draft-natarajan-tsvwg-sctp-nrsack-08
 * section 4.1; layout in {@link NrSackChunk}) inside a buffer, for the receive hot path: one view
 * is reused, {@link #wrap} points it at each chunk with the checks of {@link NrSackChunk#decode},
 * and the accessors then read the buffer directly and allocate nothing. It reads the buffer at
 * absolute indexes and ignores its position and limit.
 */
public final class NrSackChunkView {

    private ByteBuffer buf;
    private int offset;
    private int gapBlockCount;
    private int nrGapBlockCount;
    private int dupCount;

    /** A view pointing at nothing yet: call {@link #wrap} before any accessor. */
    public NrSackChunkView() {}

    /**
     * Points this view at the NR-SACK at absolute index {@code offset} (Chunk Length {@code length},
     * within the buffer) if {@link NrSackChunk#decode} would accept it: the 20 fixed bytes, the
     * three counts exactly filling the chunk, no block starting after its end. Returns false,
     * leaving the view unchanged, if not.
     */
    public boolean wrap(ByteBuffer buf, int offset, int length) {
        if (length < NrSackChunk.FIXED_LENGTH) {
            return false;
        }
        int gaps = Wire.u16(buf, offset + 12);
        int nrGaps = Wire.u16(buf, offset + 14);
        int dups = Wire.u16(buf, offset + 16);
        if (NrSackChunk.length(gaps, nrGaps, dups) != length) {
            return false;
        }
        for (int i = 0; i < gaps + nrGaps; i++) {
            int at = offset + NrSackChunk.FIXED_LENGTH + GapAckBlock.LENGTH * i;
            if (Wire.u16(buf, at) > Wire.u16(buf, at + 2)) {
                return false;
            }
        }
        this.buf = buf;
        this.offset = offset;
        this.gapBlockCount = gaps;
        this.nrGapBlockCount = nrGaps;
        this.dupCount = dups;
        return true;
    }

    /** Cumulative TSN Ack (32 bits as an int). */
    public int cumTsnAck() {
        return Wire.u32(buf, offset + 4);
    }

    /** Advertised Receiver Window Credit (32 bits, unsigned, as an int). */
    public int aRwnd() {
        return Wire.u32(buf, offset + 8);
    }

    /** Number of (renegable) Gap Ack Blocks. */
    public int gapBlockCount() {
        return gapBlockCount;
    }

    /** Number of NR Gap Ack Blocks. */
    public int nrGapBlockCount() {
        return nrGapBlockCount;
    }

    /** Number of Duplicate TSNs. */
    public int dupCount() {
        return dupCount;
    }

    /** Start offset of Gap Ack Block {@code i} (from 0). */
    public int gapStart(int i) {
        return Wire.u16(buf, blockAt(Objects.checkIndex(i, gapBlockCount)));
    }

    /** End offset of Gap Ack Block {@code i} (from 0), never below its start. */
    public int gapEnd(int i) {
        return Wire.u16(buf, blockAt(Objects.checkIndex(i, gapBlockCount)) + 2);
    }

    /** Start offset of NR Gap Ack Block {@code i} (from 0). */
    public int nrGapStart(int i) {
        return Wire.u16(buf, blockAt(gapBlockCount + Objects.checkIndex(i, nrGapBlockCount)));
    }

    /** End offset of NR Gap Ack Block {@code i} (from 0), never below its start. */
    public int nrGapEnd(int i) {
        return Wire.u16(buf, blockAt(gapBlockCount + Objects.checkIndex(i, nrGapBlockCount)) + 2);
    }

    private int blockAt(int k) {
        return offset + NrSackChunk.FIXED_LENGTH + GapAckBlock.LENGTH * k;
    }
}
