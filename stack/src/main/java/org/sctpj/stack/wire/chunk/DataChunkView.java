package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * A checked, zero-copy view of a DATA chunk (RFC 9260 section 3.3.1) inside a buffer, for the
 * receive hot path: {@link #check} validates the chunk once with the rules of {@link
 * DataChunk#decode}, then every accessor reads the buffer directly, cannot fail and allocates
 * nothing. The user data is not copied: it is {@link #userDataLength()} bytes from absolute index
 * {@link #userDataOffset()} of {@link #buffer()}. {@link #toRecord()} builds the {@link DataChunk}
 * value.
 *
 * <p>The view reads the buffer at absolute indexes and ignores its position and limit; it stays
 * valid as long as the bytes of the chunk are not changed.
 *
 * <p>For a receive path that allocates nothing, one view made with {@link #DataChunkView()} is
 * reused: {@link #wrap} points it at each chunk in turn, with the checks of {@link #check}.
 */
public final class DataChunkView {

    private ByteBuffer buf;
    private int offset;
    private int length;

    private DataChunkView(ByteBuffer buf, int offset, int length) {
        this.buf = buf;
        this.offset = offset;
        this.length = length;
    }

    /** A reusable view pointing at nothing yet: call {@link #wrap} before any accessor. */
    public DataChunkView() {}

    /**
     * Points this view at the DATA chunk at absolute index {@code offset} (Chunk Length {@code
     * length}, within the buffer) if {@link #check} would accept it; returns false, leaving the
     * view unchanged, if not ({@link #check} then says why). Allocates nothing.
     */
    public boolean wrap(ByteBuffer buf, int offset, int length) {
        if (length <= DataChunk.FIXED_LENGTH) {
            return false;
        }
        this.buf = buf;
        this.offset = offset;
        this.length = length;
        return true;
    }

    /**
     * Checks the DATA chunk whose header starts at absolute index {@code offset} and whose Chunk
     * Length {@code length} lies within the buffer: at least the 16 bytes of fixed fields, and at
     * least one byte of user data.
     */
    public static Parsed<DataChunkView> check(ByteBuffer buf, int offset, int length) {
        if (length < DataChunk.FIXED_LENGTH) {
            return Chunks.checkFixed(ChunkType.DATA, offset, length, DataChunk.FIXED_LENGTH);
        }
        if (length == DataChunk.FIXED_LENGTH) {
            return Parsed.fail(ParseErrorKind.NO_USER_DATA, ChunkType.DATA, offset, "DATA chunk carries no user data");
        }
        return Parsed.ok(new DataChunkView(buf, offset, length));
    }

    /** The buffer the view reads. */
    public ByteBuffer buffer() {
        return buf;
    }

    /** Absolute index of the chunk header in the buffer. */
    public int offset() {
        return offset;
    }

    /** The Chunk Length field (header, fixed fields and user data, no padding). */
    public int length() {
        return length;
    }

    /** The Chunk Flags byte as received, reserved bits included. */
    public int flags() {
        return Wire.u8(buf, offset + 1);
    }

    /** The I bit ({@link DataChunk#FLAG_I}). */
    public boolean immediate() {
        return (flags() & DataChunk.FLAG_I) != 0;
    }

    /** The U bit ({@link DataChunk#FLAG_U}). */
    public boolean unordered() {
        return (flags() & DataChunk.FLAG_U) != 0;
    }

    /** The B bit ({@link DataChunk#FLAG_B}). */
    public boolean beginning() {
        return (flags() & DataChunk.FLAG_B) != 0;
    }

    /** The E bit ({@link DataChunk#FLAG_E}). */
    public boolean ending() {
        return (flags() & DataChunk.FLAG_E) != 0;
    }

    /** Transmission Sequence Number (32 bits as an int). */
    public int tsn() {
        return Wire.u32(buf, offset + 4);
    }

    /** Stream Identifier, 0..65535. */
    public int streamId() {
        return Wire.u16(buf, offset + 8);
    }

    /** Stream Sequence Number, 0..65535. */
    public int ssn() {
        return Wire.u16(buf, offset + 10);
    }

    /** Payload Protocol Identifier (32 bits as an int). */
    public int ppid() {
        return Wire.u32(buf, offset + 12);
    }

    /** Absolute index of the first user data byte in {@link #buffer()}. */
    public int userDataOffset() {
        return offset + DataChunk.FIXED_LENGTH;
    }

    /** Number of user data bytes, at least 1. */
    public int userDataLength() {
        return length - DataChunk.FIXED_LENGTH;
    }

    /** The chunk as a value record (copies the user data). */
    public DataChunk toRecord() {
        int flags = flags();
        return new DataChunk(
                (flags & DataChunk.FLAG_I) != 0,
                (flags & DataChunk.FLAG_U) != 0,
                (flags & DataChunk.FLAG_B) != 0,
                (flags & DataChunk.FLAG_E) != 0,
                tsn(),
                streamId(),
                ssn(),
                ppid(),
                Bytes.copyOf(buf, userDataOffset(), userDataLength()));
    }

    @Override
    public String toString() {
        return "DataChunkView@" + offset + toRecord();
    }
}
