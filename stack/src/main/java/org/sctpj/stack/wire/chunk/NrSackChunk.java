package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * Non-Renegable Selective Acknowledgement (NR-SACK), chunk type 0x10, as specified by
 * draft-natarajan-tsvwg-sctp-nrsack and draft-tuexen-tsvwg-sctp-multipath and implemented by
 * FreeBSD and usrsctp: a SACK that also reports the out-of-order TSNs the receiver will never
 * renege on.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Type = 0x10  |  Chunk Flags  |         Chunk Length          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                      Cumulative TSN Ack                       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Advertised Receiver Window Credit (a_rwnd)           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Number of Gap Ack Blocks = N  |Number of NR Gap Ack Blocks = M|
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Number of Duplicate TSNs = X  |           Reserved            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Gap Ack Block #1 Start       |   Gap Ack Block #1 End        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                                                               /
 * \                              ...                              \
 * /                                                               /
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Gap Ack Block #N Start      |  Gap Ack Block #N End         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  NR Gap Ack Block #1 Start    |   NR Gap Ack Block #1 End     |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                                                               /
 * \                              ...                              \
 * /                                                               /
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   NR Gap Ack Block #M Start   |  NR Gap Ack Block #M End      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       Duplicate TSN 1                         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                                                               /
 * \                              ...                              \
 * /                                                               /
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       Duplicate TSN X                         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The layout matches {@code struct sctp_nr_sack} of usrsctp/FreeBSD and Wireshark's dissector.
 * As for SACK, the three counts must exactly fill the chunk ({@link
 * ParseErrorKind#LIST_LENGTH_MISMATCH}) and no block may start after its end ({@link
 * ParseErrorKind#GAP_BLOCK_START_AFTER_END}, at the block). The Reserved field and the chunk flags
 * (no flag is standardised) are sent as zero and ignored on receipt.
 *
 * @param cumulativeTsnAck the Cumulative TSN Ack (32 bits as an int)
 * @param aRwnd the Advertised Receiver Window Credit in bytes (32 bits as an int)
 * @param gapAckBlocks the (renegable) Gap Ack Blocks, at most 65535
 * @param nrGapAckBlocks the Non-Renegable Gap Ack Blocks, at most 65535
 * @param duplicateTsns the Duplicate TSNs (32 bits each), at most 65535
 */
public record NrSackChunk(
        int cumulativeTsnAck,
        int aRwnd,
        List<GapAckBlock> gapAckBlocks,
        List<GapAckBlock> nrGapAckBlocks,
        List<Integer> duplicateTsns)
        implements Chunk {

    /** Bytes of header and fixed fields, before the gap blocks. */
    public static final int FIXED_LENGTH = 20;
    /** Bytes of one gap ack block or duplicate TSN. */
    private static final int ITEM_LENGTH = 4;

    /** Validates the fields. */
    public NrSackChunk {
        gapAckBlocks = List.copyOf(gapAckBlocks);
        nrGapAckBlocks = List.copyOf(nrGapAckBlocks);
        duplicateTsns = List.copyOf(duplicateTsns);
        Wire.checkU16("number of gap ack blocks", gapAckBlocks.size());
        Wire.checkU16("number of NR gap ack blocks", nrGapAckBlocks.size());
        Wire.checkU16("number of duplicate TSNs", duplicateTsns.size());
        long length = FIXED_LENGTH + 4L * (gapAckBlocks.size() + (long) nrGapAckBlocks.size() + duplicateTsns.size());
        if (length > 0xffff) {
            throw new IllegalArgumentException("NR-SACK of " + length
                    + " bytes does not fit one chunk: report fewer gap blocks or duplicate TSNs");
        }
    }

    @Override
    public int type() {
        return ChunkType.NR_SACK;
    }

    @Override
    public int flags() {
        return 0;
    }

    @Override
    public int valueLength() {
        return FIXED_LENGTH
                - HEADER_LENGTH
                + ITEM_LENGTH * (gapAckBlocks.size() + nrGapAckBlocks.size() + duplicateTsns.size());
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(cumulativeTsnAck);
        out.putInt(aRwnd);
        out.putShort((short) gapAckBlocks.size());
        out.putShort((short) nrGapAckBlocks.size());
        out.putShort((short) duplicateTsns.size());
        out.putShort((short) 0);
        for (GapAckBlock b : gapAckBlocks) {
            out.putShort((short) b.start());
            out.putShort((short) b.end());
        }
        for (GapAckBlock b : nrGapAckBlocks) {
            out.putShort((short) b.start());
            out.putShort((short) b.end());
        }
        for (int tsn : duplicateTsns) {
            out.putInt(tsn);
        }
    }

    /** The Chunk Length of an NR-SACK with these counts. */
    public static int length(int gapCount, int nrGapCount, int dupCount) {
        return FIXED_LENGTH + ITEM_LENGTH * (gapCount + nrGapCount + dupCount);
    }

    /**
     * Writes a whole NR-SACK without Gap Ack Blocks (every out-of-order TSN non-renegable) from
     * primitive arrays, without building a record: the allocation-free form of the receive path.
     * The offsets must be valid (start <= end, 16 bits) and the counts must fit one chunk; the
     * caller (the receiver) guarantees both.
     */
    public static void writeNonRenegable(
            ByteBuffer out,
            int cumTsnAck,
            int aRwnd,
            int[] nrStarts,
            int[] nrEnds,
            int nrCount,
            int[] dups,
            int dupCount) {
        out.put((byte) ChunkType.NR_SACK);
        out.put((byte) 0);
        out.putShort((short) length(0, nrCount, dupCount));
        out.putInt(cumTsnAck);
        out.putInt(aRwnd);
        out.putShort((short) 0);
        out.putShort((short) nrCount);
        out.putShort((short) dupCount);
        out.putShort((short) 0);
        for (int i = 0; i < nrCount; i++) {
            out.putShort((short) nrStarts[i]);
            out.putShort((short) nrEnds[i]);
        }
        for (int i = 0; i < dupCount; i++) {
            out.putInt(dups[i]);
        }
    }

    /** Decodes an NR-SACK whose header is at {@code offset} and Chunk Length is {@code length}. */
    public static Parsed<NrSackChunk> decode(ByteBuffer buf, int offset, int length) {
        if (length < FIXED_LENGTH) {
            return Chunks.checkFixed(ChunkType.NR_SACK, offset, length, FIXED_LENGTH);
        }
        int gaps = Wire.u16(buf, offset + 12);
        int nrGaps = Wire.u16(buf, offset + 14);
        int dups = Wire.u16(buf, offset + 16);
        int expected = FIXED_LENGTH + ITEM_LENGTH * (gaps + nrGaps + dups);
        if (expected != length) {
            return Parsed.fail(
                    ParseErrorKind.LIST_LENGTH_MISMATCH,
                    ChunkType.NR_SACK,
                    offset,
                    "NR-SACK with " + gaps + " gap blocks, " + nrGaps + " NR gap blocks and " + dups
                            + " duplicate TSNs needs chunk length " + expected + ", has " + length);
        }
        int at = offset + FIXED_LENGTH;
        Parsed<List<GapAckBlock>> gapList = blocks(buf, at, gaps, "gap ack block");
        if (!gapList.isOk()) {
            return gapList.castFailure();
        }
        at += ITEM_LENGTH * gaps;
        Parsed<List<GapAckBlock>> nrList = blocks(buf, at, nrGaps, "NR gap ack block");
        if (!nrList.isOk()) {
            return nrList.castFailure();
        }
        at += ITEM_LENGTH * nrGaps;
        List<Integer> dupList = new ArrayList<>(dups);
        for (int i = 0; i < dups; i++, at += ITEM_LENGTH) {
            dupList.add(Wire.u32(buf, at));
        }
        return Parsed.ok(new NrSackChunk(
                Wire.u32(buf, offset + 4), Wire.u32(buf, offset + 8), gapList.value(), nrList.value(), dupList));
    }

    private static Parsed<List<GapAckBlock>> blocks(ByteBuffer buf, int at, int n, String what) {
        List<GapAckBlock> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++, at += ITEM_LENGTH) {
            int start = Wire.u16(buf, at);
            int end = Wire.u16(buf, at + 2);
            if (start > end) {
                return Parsed.fail(
                        ParseErrorKind.GAP_BLOCK_START_AFTER_END,
                        ChunkType.NR_SACK,
                        at,
                        what + " #" + (i + 1) + " starts at " + start + " after its end " + end);
            }
            out.add(new GapAckBlock(start, end));
        }
        return Parsed.ok(out);
    }

    @Override
    public String toString() {
        return "NR_SACK[cumTsnAck=" + Wire.u32String(cumulativeTsnAck) + " a_rwnd=" + Wire.u32String(aRwnd) + " gaps="
                + gapAckBlocks + " nrGaps=" + nrGapAckBlocks + " dups=" + duplicateTsns + "]";
    }
}
