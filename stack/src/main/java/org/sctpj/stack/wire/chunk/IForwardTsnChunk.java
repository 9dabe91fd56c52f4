package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * I-FORWARD-TSN, RFC 8260 section 2.3.1: the FORWARD TSN of associations that use I-DATA; its
 * entries name messages by Message Identifier, for ordered and unordered messages alike.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 194  | Flags = 0x00  |      Length = Variable        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       New Cumulative TSN                      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |       Stream Identifier       |          Reserved           |U|
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       Message Identifier                      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /                                                               /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |       Stream Identifier       |          Reserved           |U|
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       Message Identifier                      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The 8-byte entries must exactly fill the chunk, else {@link
 * ParseErrorKind#LIST_LENGTH_MISMATCH}. The reserved bits of an entry are sent as zero and ignored
 * on receipt.
 *
 * @param newCumulativeTsn the New Cumulative TSN (32 bits as an int)
 * @param entries the skipped messages, possibly none
 */
public record IForwardTsnChunk(int newCumulativeTsn, List<Entry> entries) implements Chunk {

    /** Bytes of header and New Cumulative TSN. */
    public static final int FIXED_LENGTH = 8;
    /** Bytes of one entry. */
    public static final int ENTRY_LENGTH = 8;
    /** Most entries that fit one chunk. */
    public static final int MAX_ENTRIES = (0xffff - FIXED_LENGTH) / ENTRY_LENGTH;
    /** The U bit in the 16-bit word after the Stream Identifier. */
    public static final int FLAG_U = 0x0001;

    /**
     * One skipped message: the largest abandoned Message Identifier of a stream, in its ordered or
     * its unordered sequence.
     *
     * <pre>
     * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
     * |       Stream Identifier       |          Reserved           |U|
     * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
     * |                       Message Identifier                      |
     * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
     * </pre>
     *
     * @param streamId the stream, 0..65535
     * @param unordered the U bit: the MID is of the unordered messages of the stream
     * @param mid the Message Identifier (32 bits as an int)
     */
    public record Entry(int streamId, boolean unordered, int mid) {
        /** Validates the fields. */
        public Entry {
            Wire.checkU16("streamId", streamId);
        }
    }

    /** Validates the fields. */
    public IForwardTsnChunk {
        entries = List.copyOf(entries);
        if (entries.size() > MAX_ENTRIES) {
            throw new IllegalArgumentException("at most " + MAX_ENTRIES + " entries fit one I-FORWARD-TSN, got "
                    + entries.size() + ": send the rest in another chunk");
        }
    }

    /** An I-FORWARD-TSN with the given entries. */
    public static IForwardTsnChunk of(int newCumulativeTsn, Entry... entries) {
        return new IForwardTsnChunk(newCumulativeTsn, List.of(entries));
    }

    @Override
    public int type() {
        return ChunkType.I_FORWARD_TSN;
    }

    @Override
    public int flags() {
        return 0;
    }

    @Override
    public int valueLength() {
        return FIXED_LENGTH - HEADER_LENGTH + ENTRY_LENGTH * entries.size();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(newCumulativeTsn);
        for (Entry e : entries) {
            out.putShort((short) e.streamId());
            out.putShort((short) (e.unordered() ? FLAG_U : 0));
            out.putInt(e.mid());
        }
    }

    /** Decodes an I-FORWARD-TSN whose header is at {@code offset} and Chunk Length is {@code length}. */
    public static Parsed<IForwardTsnChunk> decode(ByteBuffer buf, int offset, int length) {
        if (length < FIXED_LENGTH) {
            return Chunks.checkFixed(ChunkType.I_FORWARD_TSN, offset, length, FIXED_LENGTH);
        }
        int listBytes = length - FIXED_LENGTH;
        if (listBytes % ENTRY_LENGTH != 0) {
            return Parsed.fail(
                    ParseErrorKind.LIST_LENGTH_MISMATCH,
                    ChunkType.I_FORWARD_TSN,
                    offset,
                    "I-FORWARD-TSN chunk length " + length + ": " + listBytes
                            + " bytes after the New Cumulative TSN are not a whole number of 8-byte entries");
        }
        int n = listBytes / ENTRY_LENGTH;
        List<Entry> entries = new ArrayList<>(n);
        for (int i = 0, at = offset + FIXED_LENGTH; i < n; i++, at += ENTRY_LENGTH) {
            entries.add(new Entry(Wire.u16(buf, at), (Wire.u16(buf, at + 2) & FLAG_U) != 0, Wire.u32(buf, at + 4)));
        }
        return Parsed.ok(new IForwardTsnChunk(Wire.u32(buf, offset + 4), entries));
    }

    @Override
    public String toString() {
        return "I_FORWARD_TSN[newCumTsn=" + Wire.u32String(newCumulativeTsn) + " " + entries + "]";
    }
}
