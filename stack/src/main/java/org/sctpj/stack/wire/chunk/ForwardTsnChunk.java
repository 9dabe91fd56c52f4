package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * Forward Cumulative TSN (FORWARD TSN), RFC 3758 section 3.2: tells the receiver to move its
 * cumulative TSN ahead over abandoned DATA (PR-SCTP).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 192  |  Flags = 0x00 |        Length = Variable      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                      New Cumulative TSN                       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |         Stream-1              |       Stream Sequence-1       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               /
 * /                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |         Stream-N              |       Stream Sequence-N       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The (stream, SSN) entries must exactly fill the chunk: a Chunk Length of 8 plus a multiple of
 * 4, else {@link ParseErrorKind#LIST_LENGTH_MISMATCH}.
 *
 * @param newCumulativeTsn the New Cumulative TSN (32 bits as an int)
 * @param entries the ordered streams whose SSN the receiver should move to, possibly none
 */
public record ForwardTsnChunk(int newCumulativeTsn, List<Entry> entries) implements Chunk {

    /** Bytes of header and New Cumulative TSN. */
    public static final int FIXED_LENGTH = 8;
    /** Bytes of one entry. */
    public static final int ENTRY_LENGTH = 4;
    /** Most entries that fit one chunk. */
    public static final int MAX_ENTRIES = (0xffff - FIXED_LENGTH) / ENTRY_LENGTH;

    /**
     * One skipped stream: the largest SSN of the abandoned messages of that stream.
     *
     * <pre>
     * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
     * |         Stream-N              |       Stream Sequence-N       |
     * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
     * </pre>
     *
     * @param streamId the stream, 0..65535
     * @param ssn the Stream Sequence Number, 0..65535
     */
    public record Entry(int streamId, int ssn) {
        /** Validates the fields. */
        public Entry {
            Wire.checkU16("streamId", streamId);
            Wire.checkU16("ssn", ssn);
        }
    }

    /** Validates the fields. */
    public ForwardTsnChunk {
        entries = List.copyOf(entries);
        if (entries.size() > MAX_ENTRIES) {
            throw new IllegalArgumentException("at most " + MAX_ENTRIES + " stream entries fit one FORWARD TSN, got "
                    + entries.size() + ": send the rest in another chunk");
        }
    }

    /** A FORWARD TSN with the given entries. */
    public static ForwardTsnChunk of(int newCumulativeTsn, Entry... entries) {
        return new ForwardTsnChunk(newCumulativeTsn, List.of(entries));
    }

    @Override
    public int type() {
        return ChunkType.FORWARD_TSN;
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
            out.putShort((short) e.ssn());
        }
    }

    /** Decodes a FORWARD TSN whose header is at {@code offset} and Chunk Length is {@code length}. */
    public static Parsed<ForwardTsnChunk> decode(ByteBuffer buf, int offset, int length) {
        if (length < FIXED_LENGTH) {
            return Chunks.checkFixed(ChunkType.FORWARD_TSN, offset, length, FIXED_LENGTH);
        }
        int listBytes = length - FIXED_LENGTH;
        if (listBytes % ENTRY_LENGTH != 0) {
            return Parsed.fail(
                    ParseErrorKind.LIST_LENGTH_MISMATCH,
                    ChunkType.FORWARD_TSN,
                    offset,
                    "FORWARD TSN chunk length " + length + ": " + listBytes
                            + " bytes after the New Cumulative TSN are not a whole number of 4-byte entries");
        }
        int n = listBytes / ENTRY_LENGTH;
        List<Entry> entries = new ArrayList<>(n);
        for (int i = 0, at = offset + FIXED_LENGTH; i < n; i++, at += ENTRY_LENGTH) {
            entries.add(new Entry(Wire.u16(buf, at), Wire.u16(buf, at + 2)));
        }
        return Parsed.ok(new ForwardTsnChunk(Wire.u32(buf, offset + 4), entries));
    }

    @Override
    public String toString() {
        return "FORWARD_TSN[newCumTsn=" + Wire.u32String(newCumulativeTsn) + " " + entries + "]";
    }
}
