package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * A checked, zero-copy view of a SACK chunk (RFC 9260 section 3.3.4) inside a buffer, for the
 * receive hot path: {@link #check} validates the chunk once with the rules of {@link
 * SackChunk#decode}, then every accessor reads the buffer directly, cannot fail for an index in
 * range, and allocates nothing. {@link #toRecord()} builds the {@link SackChunk} value.
 *
 * <p>The view reads the buffer at absolute indexes and ignores its position and limit; it stays
 * valid as long as the bytes of the chunk are not changed.
 *
 * <p>For a receive path that allocates nothing, one view made with {@link #SackChunkView()} is
 * reused: {@link #wrap} points it at each chunk in turn, with the checks of {@link #check}.
 */
public final class SackChunkView {

    private ByteBuffer buf;
    private int offset;
    private int gapBlockCount;
    private int dupCount;

    private SackChunkView(ByteBuffer buf, int offset, int gapBlockCount, int dupCount) {
        this.buf = buf;
        this.offset = offset;
        this.gapBlockCount = gapBlockCount;
        this.dupCount = dupCount;
    }

    /** A reusable view pointing at nothing yet: call {@link #wrap} before any accessor. */
    public SackChunkView() {}

    /**
     * Points this view at the SACK at absolute index {@code offset} (Chunk Length {@code length},
     * within the buffer) if {@link #check} would accept it; returns false, leaving the view
     * unchanged, if not ({@link #check} then says why). Allocates nothing.
     */
    public boolean wrap(ByteBuffer buf, int offset, int length) {
        if (length < SackChunk.FIXED_LENGTH) {
            return false;
        }
        int gaps = Wire.u16(buf, offset + 12);
        int dups = Wire.u16(buf, offset + 14);
        if (SackChunk.FIXED_LENGTH + GapAckBlock.LENGTH * gaps + 4 * dups != length) {
            return false;
        }
        for (int i = 0; i < gaps; i++) {
            int at = offset + SackChunk.FIXED_LENGTH + GapAckBlock.LENGTH * i;
            if (Wire.u16(buf, at) > Wire.u16(buf, at + 2)) {
                return false;
            }
        }
        this.buf = buf;
        this.offset = offset;
        this.gapBlockCount = gaps;
        this.dupCount = dups;
        return true;
    }

    /**
     * Checks the SACK whose header starts at absolute index {@code offset} and whose Chunk Length
     * {@code length} lies within the buffer: at least the 16 bytes of fixed fields, gap blocks and
     * duplicate TSNs that exactly fill the chunk, and no gap block whose start is after its end.
     */
    public static Parsed<SackChunkView> check(ByteBuffer buf, int offset, int length) {
        if (length < SackChunk.FIXED_LENGTH) {
            return Chunks.checkFixed(ChunkType.SACK, offset, length, SackChunk.FIXED_LENGTH);
        }
        int gaps = Wire.u16(buf, offset + 12);
        int dups = Wire.u16(buf, offset + 14);
        int expected = SackChunk.FIXED_LENGTH + GapAckBlock.LENGTH * gaps + 4 * dups;
        if (expected != length) {
            return Parsed.fail(
                    ParseErrorKind.LIST_LENGTH_MISMATCH,
                    ChunkType.SACK,
                    offset + 12,
                    gaps + " gap ack blocks and " + dups + " duplicate TSNs take " + expected
                            + " bytes, the chunk length is " + length);
        }
        for (int i = 0; i < gaps; i++) {
            int at = offset + SackChunk.FIXED_LENGTH + GapAckBlock.LENGTH * i;
            int start = Wire.u16(buf, at);
            int end = Wire.u16(buf, at + 2);
            if (start > end) {
                return Parsed.fail(
                        ParseErrorKind.GAP_BLOCK_START_AFTER_END,
                        ChunkType.SACK,
                        at,
                        "gap ack block #" + (i + 1) + " starts at " + start + " after its end " + end);
            }
        }
        return Parsed.ok(new SackChunkView(buf, offset, gaps, dups));
    }

    /** Absolute index of the chunk header in the buffer. */
    public int offset() {
        return offset;
    }

    /** The Chunk Length field. */
    public int length() {
        return SackChunk.FIXED_LENGTH + GapAckBlock.LENGTH * gapBlockCount + 4 * dupCount;
    }

    /** Cumulative TSN Ack (32 bits as an int). */
    public int cumTsnAck() {
        return Wire.u32(buf, offset + 4);
    }

    /** Advertised Receiver Window Credit (32 bits, unsigned, as an int). */
    public int aRwnd() {
        return Wire.u32(buf, offset + 8);
    }

    /** Number of Gap Ack Blocks. */
    public int gapBlockCount() {
        return gapBlockCount;
    }

    /**
     * Start offset of gap ack block {@code i} (from 0).
     *
     * @throws IndexOutOfBoundsException unless {@code 0 <= i < gapBlockCount()}
     */
    public int gapStart(int i) {
        return Wire.u16(buf, gapAt(i));
    }

    /**
     * End offset of gap ack block {@code i} (from 0), never below {@link #gapStart}.
     *
     * @throws IndexOutOfBoundsException unless {@code 0 <= i < gapBlockCount()}
     */
    public int gapEnd(int i) {
        return Wire.u16(buf, gapAt(i) + 2);
    }

    /** Number of Duplicate TSNs. */
    public int dupCount() {
        return dupCount;
    }

    /**
     * Duplicate TSN {@code i} (from 0), 32 bits as an int.
     *
     * @throws IndexOutOfBoundsException unless {@code 0 <= i < dupCount()}
     */
    public int dupTsn(int i) {
        Objects.checkIndex(i, dupCount);
        return Wire.u32(buf, offset + SackChunk.FIXED_LENGTH + GapAckBlock.LENGTH * gapBlockCount + 4 * i);
    }

    private int gapAt(int i) {
        Objects.checkIndex(i, gapBlockCount);
        return offset + SackChunk.FIXED_LENGTH + GapAckBlock.LENGTH * i;
    }

    /** The chunk as a value record (allocates). */
    public SackChunk toRecord() {
        List<GapAckBlock> gaps = new ArrayList<>(gapBlockCount);
        for (int i = 0; i < gapBlockCount; i++) {
            gaps.add(new GapAckBlock(gapStart(i), gapEnd(i)));
        }
        List<Integer> dups = new ArrayList<>(dupCount);
        for (int i = 0; i < dupCount; i++) {
            dups.add(dupTsn(i));
        }
        return new SackChunk(cumTsnAck(), aRwnd(), gaps, dups);
    }

    @Override
    public String toString() {
        return "SackChunkView@" + offset + toRecord();
    }
}
