package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * Payload Data (DATA), RFC 9260 section 3.3.1.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 0    |  Res  |I|U|B|E|            Length             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                              TSN                              |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |      Stream Identifier S      |   Stream Sequence Number n    |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Payload Protocol Identifier                  |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /                 User Data (seq n of Stream S)                 /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>A DATA chunk with no user data is malformed ({@link ParseErrorKind#NO_USER_DATA}); RFC 9260
 * section 6.2 has the receiver ABORT with a "No User Data" cause. The hot receive path reads DATA
 * without allocation through {@link DataChunkView}.
 *
 * @param immediate the I bit: the receiver should SACK at once (RFC 9260 section 3.3.1)
 * @param unordered the U bit: unordered message, the SSN is ignored
 * @param beginning the B bit: first fragment of a message
 * @param ending the E bit: last fragment of a message
 * @param tsn Transmission Sequence Number (32 bits as an int)
 * @param streamId Stream Identifier, 0..65535
 * @param ssn Stream Sequence Number, 0..65535
 * @param ppid Payload Protocol Identifier (32 bits, opaque to SCTP)
 * @param userData the payload, at least one byte
 */
public record DataChunk(
        boolean immediate,
        boolean unordered,
        boolean beginning,
        boolean ending,
        int tsn,
        int streamId,
        int ssn,
        int ppid,
        Bytes userData)
        implements Chunk {

    /** Bytes before the user data: header, TSN, stream id, SSN, PPID. */
    public static final int FIXED_LENGTH = 16;
    /** The I (SACK-IMMEDIATELY) flag. */
    public static final int FLAG_I = 0x08;
    /** The U (unordered) flag. */
    public static final int FLAG_U = 0x04;
    /** The B (beginning fragment) flag. */
    public static final int FLAG_B = 0x02;
    /** The E (ending fragment) flag. */
    public static final int FLAG_E = 0x01;

    /** Validates the fields. */
    public DataChunk {
        Wire.checkU16("streamId", streamId);
        Wire.checkU16("ssn", ssn);
        if (userData.length() == 0) {
            throw new IllegalArgumentException("a DATA chunk must carry at least one byte of user data");
        }
        if (userData.length() > 0xffff - FIXED_LENGTH) {
            throw new IllegalArgumentException("user data of " + userData.length()
                    + " bytes does not fit one chunk (max " + (0xffff - FIXED_LENGTH) + "): fragment it");
        }
    }

    @Override
    public int type() {
        return ChunkType.DATA;
    }

    @Override
    public int flags() {
        return (immediate ? FLAG_I : 0) | (unordered ? FLAG_U : 0) | (beginning ? FLAG_B : 0) | (ending ? FLAG_E : 0);
    }

    @Override
    public int valueLength() {
        return FIXED_LENGTH - HEADER_LENGTH + userData.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(tsn);
        out.putShort((short) streamId);
        out.putShort((short) ssn);
        out.putInt(ppid);
        userData.writeTo(out);
    }

    /**
     * Writes a whole DATA chunk (header, fields, user data, padding) without building a record: the
     * allocation-free form used on the send path.
     *
     * @param data the user data is read from {@code data[offset..offset+length)}
     */
    public static void write(
            ByteBuffer out, int flags, int tsn, int streamId, int ssn, int ppid, byte[] data, int offset, int length) {
        int chunkLength = FIXED_LENGTH + length;
        out.put((byte) ChunkType.DATA);
        out.put((byte) flags);
        out.putShort((short) chunkLength);
        out.putInt(tsn);
        out.putShort((short) streamId);
        out.putShort((short) ssn);
        out.putInt(ppid);
        out.put(data, offset, length);
        Wire.writePadding(out, chunkLength);
    }

    /**
     * Decodes a DATA chunk whose header starts at absolute index {@code offset} and whose Chunk
     * Length ({@code length}) has been checked to lie within the buffer, with the rules of {@link
     * DataChunkView#check}.
     */
    public static Parsed<DataChunk> decode(ByteBuffer buf, int offset, int length) {
        return DataChunkView.check(buf, offset, length).map(DataChunkView::toRecord);
    }

    @Override
    public String toString() {
        return "DATA[tsn=" + Wire.u32String(tsn) + " sid=" + streamId + " ssn=" + ssn + " ppid="
                + Wire.u32String(ppid) + " flags=" + (immediate ? "I" : "") + (unordered ? "U" : "")
                + (beginning ? "B" : "") + (ending ? "E" : "") + " len=" + userData.length() + "]";
    }
}
