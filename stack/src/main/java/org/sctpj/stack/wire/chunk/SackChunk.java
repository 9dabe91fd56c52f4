package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import java.util.List;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * Selective Acknowledgement (SACK), RFC 9260 section 3.3.4.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 3    |  Chunk Flags  |         Chunk Length          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                      Cumulative TSN Ack                       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Advertised Receiver Window Credit (a_rwnd)           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Number of Gap Ack Blocks = N  |  Number of Duplicate TSNs = M |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |    Gap Ack Block #1 Start     |     Gap Ack Block #1 End      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                                                               /
 * \                              ...                              \
 * /                                                               /
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |    Gap Ack Block #N Start     |     Gap Ack Block #N End      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                        Duplicate TSN 1                        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                                                               /
 * \                              ...                              \
 * /                                                               /
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                        Duplicate TSN M                        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>Decoding checks that the two counts exactly fill the chunk ({@link
 * ParseErrorKind#LIST_LENGTH_MISMATCH}, reported at the Number of Gap Ack Blocks field) and that
 * no gap block starts after its end ({@link ParseErrorKind#GAP_BLOCK_START_AFTER_END}, reported at
 * the block). Flags are reserved: ignored on decode, written as zero. The hot receive path reads
 * SACKs without allocation through {@link SackChunkView}.
 *
 * @param cumTsnAck Cumulative TSN Ack: the last TSN received in sequence (32 bits as an int)
 * @param aRwnd Advertised Receiver Window Credit in bytes (32 bits, unsigned)
 * @param gapAckBlocks the gap ack blocks, in the order sent
 * @param duplicateTsns the TSNs received more than once since the last SACK (32 bits each)
 */
public record SackChunk(int cumTsnAck, int aRwnd, List<GapAckBlock> gapAckBlocks, List<Integer> duplicateTsns)
        implements Chunk {

    /** Bytes of header and fixed fields, before the first gap ack block. */
    public static final int FIXED_LENGTH = 16;

    /** Most gap ack blocks plus duplicate TSNs one chunk can carry (each takes 4 bytes). */
    public static final int MAX_ENTRIES = (0xffff - FIXED_LENGTH) / 4;

    /** Validates the fields. */
    public SackChunk {
        gapAckBlocks = List.copyOf(gapAckBlocks);
        duplicateTsns = List.copyOf(duplicateTsns);
        if (gapAckBlocks.size() + duplicateTsns.size() > MAX_ENTRIES) {
            throw new IllegalArgumentException(gapAckBlocks.size() + " gap ack blocks and " + duplicateTsns.size()
                    + " duplicate TSNs do not fit one chunk (at most " + MAX_ENTRIES
                    + " together): report fewer duplicates");
        }
    }

    /** A SACK with neither gap ack blocks nor duplicate TSNs. */
    public static SackChunk of(int cumTsnAck, int aRwnd) {
        return new SackChunk(cumTsnAck, aRwnd, List.of(), List.of());
    }

    @Override
    public int type() {
        return ChunkType.SACK;
    }

    @Override
    public int flags() {
        return 0;
    }

    @Override
    public int valueLength() {
        return FIXED_LENGTH - HEADER_LENGTH + GapAckBlock.LENGTH * gapAckBlocks.size() + 4 * duplicateTsns.size();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(cumTsnAck);
        out.putInt(aRwnd);
        out.putShort((short) gapAckBlocks.size());
        out.putShort((short) duplicateTsns.size());
        for (GapAckBlock g : gapAckBlocks) {
            out.putShort((short) g.start());
            out.putShort((short) g.end());
        }
        for (int tsn : duplicateTsns) {
            out.putInt(tsn);
        }
    }

    /** The Chunk Length of a SACK with these many gap blocks and duplicates. */
    public static int length(int gapCount, int dupCount) {
        return FIXED_LENGTH + GapAckBlock.LENGTH * gapCount + 4 * dupCount;
    }

    /**
     * Writes a whole SACK chunk from primitive arrays, without building a record: the
     * allocation-free form used by the receive path. Gap block offsets must be valid (start <=
     * end, 16 bits) and the counts must fit one chunk; the caller (the receiver) guarantees both.
     */
    public static void write(
            ByteBuffer out,
            int cumTsnAck,
            int aRwnd,
            int[] gapStarts,
            int[] gapEnds,
            int gapCount,
            int[] dups,
            int dupCount) {
        out.put((byte) ChunkType.SACK);
        out.put((byte) 0);
        out.putShort((short) length(gapCount, dupCount));
        out.putInt(cumTsnAck);
        out.putInt(aRwnd);
        out.putShort((short) gapCount);
        out.putShort((short) dupCount);
        for (int i = 0; i < gapCount; i++) {
            out.putShort((short) gapStarts[i]);
            out.putShort((short) gapEnds[i]);
        }
        for (int i = 0; i < dupCount; i++) {
            out.putInt(dups[i]);
        }
    }

    /** Decodes a SACK whose header is at {@code offset} and Chunk Length is {@code length}. */
    public static Parsed<SackChunk> decode(ByteBuffer buf, int offset, int length) {
        return SackChunkView.check(buf, offset, length).map(SackChunkView::toRecord);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("SACK[cum=")
                .append(Wire.u32String(cumTsnAck))
                .append(" a_rwnd=")
                .append(Wire.u32String(aRwnd));
        if (!gapAckBlocks.isEmpty()) {
            s.append(" gaps=");
            for (GapAckBlock g : gapAckBlocks) {
                s.append(g.start()).append('-').append(g.end()).append(',');
            }
            s.setLength(s.length() - 1);
        }
        if (!duplicateTsns.isEmpty()) {
            s.append(" dups=");
            for (int tsn : duplicateTsns) {
                s.append(Wire.u32String(tsn)).append(',');
            }
            s.setLength(s.length() - 1);
        }
        return s.append(']').toString();
    }
}
