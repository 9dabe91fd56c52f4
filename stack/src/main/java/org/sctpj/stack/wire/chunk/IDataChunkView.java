package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * A checked, zero-copy view of an I-DATA chunk (RFC 8260 section 2.1, laid out in {@link
 * IDataChunk}) inside a received packet buffer: the hot receive path reads the fields and the user
 * data in place instead of building an {@link IDataChunk}.
 *
 * <p>{@link #check} validates the chunk once; after that no accessor can fail. The view reads the
 * buffer it was given, without copying: it is valid only as long as the caller leaves those bytes
 * unchanged. Use {@link #toRecord()} to keep the chunk beyond that.
 */
public final class IDataChunkView {

    private final ByteBuffer buf;
    private final int offset;
    private final int length;

    private IDataChunkView(ByteBuffer buf, int offset, int length) {
        this.buf = buf;
        this.offset = offset;
        this.length = length;
    }

    /**
     * Checks the I-DATA chunk whose header starts at absolute index {@code offset} of {@code buf}
     * and whose Chunk Length ({@code length}, at least 4 and within the buffer) has been checked by
     * the caller. Fails with {@link ParseErrorKind#TRUNCATED_FIXED_FIELDS} below the 20 fixed bytes
     * and {@link ParseErrorKind#NO_USER_DATA} without user data.
     */
    public static Parsed<IDataChunkView> check(ByteBuffer buf, int offset, int length) {
        if (length < IDataChunk.FIXED_LENGTH) {
            return Chunks.checkFixed(ChunkType.I_DATA, offset, length, IDataChunk.FIXED_LENGTH);
        }
        if (length == IDataChunk.FIXED_LENGTH) {
            return Parsed.fail(
                    ParseErrorKind.NO_USER_DATA, ChunkType.I_DATA, offset, "I-DATA chunk carries no user data");
        }
        return Parsed.ok(new IDataChunkView(buf, offset, length));
    }

    /** Absolute index of the chunk header in the buffer. */
    public int offset() {
        return offset;
    }

    /** The Chunk Length field (header, fields and user data, without padding). */
    public int length() {
        return length;
    }

    /** The Chunk Flags byte as received. */
    public int flags() {
        return Wire.u8(buf, offset + 1);
    }

    /** The I bit. */
    public boolean immediate() {
        return (flags() & IDataChunk.FLAG_I) != 0;
    }

    /** The U bit. */
    public boolean unordered() {
        return (flags() & IDataChunk.FLAG_U) != 0;
    }

    /** The B bit. */
    public boolean beginning() {
        return (flags() & IDataChunk.FLAG_B) != 0;
    }

    /** The E bit. */
    public boolean ending() {
        return (flags() & IDataChunk.FLAG_E) != 0;
    }

    /** The TSN (32 bits as an int). */
    public int tsn() {
        return Wire.u32(buf, offset + 4);
    }

    /** The Stream Identifier, 0..65535. */
    public int streamId() {
        return Wire.u16(buf, offset + 8);
    }

    /** The Message Identifier (32 bits as an int). */
    public int mid() {
        return Wire.u32(buf, offset + 12);
    }

    /** The fifth word as received: the PPID when {@link #beginning()}, else the FSN. */
    public int ppidOrFsn() {
        return Wire.u32(buf, offset + 16);
    }

    /**
     * The Fragment Sequence Number: 0 for a first fragment (B bit set), whose fifth word is the
     * PPID, else the word as received.
     */
    public int fsn() {
        return beginning() ? 0 : ppidOrFsn();
    }

    /** Absolute index of the first user data byte in the buffer. */
    public int userDataOffset() {
        return offset + IDataChunk.FIXED_LENGTH;
    }

    /** Number of user data bytes, at least 1. */
    public int userDataLength() {
        return length - IDataChunk.FIXED_LENGTH;
    }

    /** A read-only buffer over the user data, sharing the packet's bytes (no copy). */
    public ByteBuffer userData() {
        return buf.slice(userDataOffset(), userDataLength()).asReadOnlyBuffer();
    }

    /** Copies the user data into {@code dst} from index {@code dstOffset}. */
    public void copyUserData(byte[] dst, int dstOffset) {
        buf.get(userDataOffset(), dst, dstOffset, userDataLength());
    }

    /** An immutable record of the chunk, with a copy of the user data. */
    public IDataChunk toRecord() {
        return new IDataChunk(
                immediate(),
                unordered(),
                beginning(),
                ending(),
                tsn(),
                streamId(),
                mid(),
                ppidOrFsn(),
                Bytes.copyOf(buf, userDataOffset(), userDataLength()));
    }

    @Override
    public String toString() {
        return "I_DATA view at " + offset + ": " + toRecord();
    }
}
