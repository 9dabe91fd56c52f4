package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * I-DATA, RFC 8260 section 2.1: user data that carries a 32-bit Message Identifier, so that the
 * fragments of messages of different streams can be interleaved.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 64   |  Res  |I|U|B|E|       Length = Variable       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                              TSN                              |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |        Stream Identifier      |           Reserved            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                      Message Identifier                       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |    Payload Protocol Identifier / Fragment Sequence Number     |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /                           User Data                           /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The fifth word holds the Payload Protocol Identifier in the first fragment of a message (B bit
 * set), whose Fragment Sequence Number is implicitly 0, and the Fragment Sequence Number in every
 * other fragment. The record keeps that word as it is on the wire, in {@link #ppidOrFsn}; {@link
 * #ppid()} and {@link #fsn()} read it according to the B bit. The Reserved field is sent as zero
 * and ignored on receipt.
 *
 * <p>An I-DATA chunk with no user data is malformed ({@link ParseErrorKind#NO_USER_DATA}), as for
 * DATA. The receive path can read I-DATA without copying through {@link IDataChunkView}.
 *
 * @param immediate the I bit: the receiver should SACK at once (RFC 9260 section 3.3.1)
 * @param unordered the U bit: unordered message
 * @param beginning the B bit: first fragment of a message; the fifth word is then the PPID
 * @param ending the E bit: last fragment of a message
 * @param tsn Transmission Sequence Number (32 bits as an int)
 * @param streamId Stream Identifier, 0..65535
 * @param mid Message Identifier (32 bits as an int, serial number arithmetic)
 * @param ppidOrFsn the Payload Protocol Identifier when {@code beginning}, otherwise the Fragment
 *     Sequence Number (32 bits as an int)
 * @param userData the payload, at least one byte
 */
public record IDataChunk(
        boolean immediate,
        boolean unordered,
        boolean beginning,
        boolean ending,
        int tsn,
        int streamId,
        int mid,
        int ppidOrFsn,
        Bytes userData)
        implements Chunk {

    /** Bytes before the user data: header, TSN, stream id, reserved, MID, PPID/FSN. */
    public static final int FIXED_LENGTH = 20;
    /** Largest user data that fits one chunk. */
    public static final int MAX_USER_DATA = 0xffff - FIXED_LENGTH;
    /** The I (SACK-IMMEDIATELY) flag. */
    public static final int FLAG_I = 0x08;
    /** The U (unordered) flag. */
    public static final int FLAG_U = 0x04;
    /** The B (beginning fragment) flag. */
    public static final int FLAG_B = 0x02;
    /** The E (ending fragment) flag. */
    public static final int FLAG_E = 0x01;

    /** Validates the fields. */
    public IDataChunk {
        Wire.checkU16("streamId", streamId);
        if (userData.length() == 0) {
            throw new IllegalArgumentException("an I-DATA chunk must carry at least one byte of user data");
        }
        if (userData.length() > MAX_USER_DATA) {
            throw new IllegalArgumentException("user data of " + userData.length()
                    + " bytes does not fit one chunk (max " + MAX_USER_DATA + "): fragment it");
        }
    }

    /**
     * The first fragment of a message (B bit set, FSN implicitly 0).
     *
     * @param ending whether it is also the last fragment (an unfragmented message)
     */
    public static IDataChunk first(
            boolean immediate,
            boolean unordered,
            boolean ending,
            int tsn,
            int streamId,
            int mid,
            int ppid,
            Bytes userData) {
        return new IDataChunk(immediate, unordered, true, ending, tsn, streamId, mid, ppid, userData);
    }

    /**
     * A later fragment of a message (B bit clear).
     *
     * @param fsn the Fragment Sequence Number, 1 for the second fragment (RFC 8260 section 2.1)
     */
    public static IDataChunk later(
            boolean immediate,
            boolean unordered,
            boolean ending,
            int tsn,
            int streamId,
            int mid,
            int fsn,
            Bytes userData) {
        return new IDataChunk(immediate, unordered, false, ending, tsn, streamId, mid, fsn, userData);
    }

    /**
     * The Payload Protocol Identifier, carried by the first fragment only.
     *
     * @throws IllegalStateException if the B bit is clear: then the word is the FSN, read {@link
     *     #fsn()}; the PPID of the message is in its first fragment
     */
    public int ppid() {
        if (!beginning) {
            throw new IllegalStateException(
                    "only the first fragment (B bit set) carries the PPID; this fragment carries the FSN, use fsn()");
        }
        return ppidOrFsn;
    }

    /**
     * The Fragment Sequence Number: 0 for the first fragment (B bit set), whose fifth word is the
     * PPID, else the word as carried (32 bits as an int).
     */
    public int fsn() {
        return beginning ? 0 : ppidOrFsn;
    }

    @Override
    public int type() {
        return ChunkType.I_DATA;
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
        out.putShort((short) 0);
        out.putInt(mid);
        out.putInt(ppidOrFsn);
        userData.writeTo(out);
    }

    /**
     * Writes a whole I-DATA chunk (header, fields, user data, padding) without building a record:
     * the allocation-free form used on the send path.
     *
     * @param flags the Chunk Flags byte ({@link #FLAG_I} | {@link #FLAG_U} | {@link #FLAG_B} |
     *     {@link #FLAG_E})
     * @param ppidOrFsn the PPID when {@code flags} has {@link #FLAG_B}, else the FSN
     * @param data the user data is read from {@code data[offset..offset+length)}, at least one byte
     */
    public static void write(
            ByteBuffer out,
            int flags,
            int tsn,
            int streamId,
            int mid,
            int ppidOrFsn,
            byte[] data,
            int offset,
            int length) {
        int chunkLength = FIXED_LENGTH + length;
        out.put((byte) ChunkType.I_DATA);
        out.put((byte) flags);
        out.putShort((short) chunkLength);
        out.putInt(tsn);
        out.putShort((short) streamId);
        out.putShort((short) 0);
        out.putInt(mid);
        out.putInt(ppidOrFsn);
        out.put(data, offset, length);
        Wire.writePadding(out, chunkLength);
    }

    /**
     * Decodes an I-DATA chunk whose header starts at absolute index {@code offset} and whose Chunk
     * Length ({@code length}) has been checked to lie within the buffer.
     */
    public static Parsed<IDataChunk> decode(ByteBuffer buf, int offset, int length) {
        Parsed<IDataChunkView> view = IDataChunkView.check(buf, offset, length);
        return view.isOk() ? Parsed.ok(view.value().toRecord()) : view.castFailure();
    }

    @Override
    public String toString() {
        return "I_DATA[tsn=" + Wire.u32String(tsn) + " sid=" + streamId + " mid=" + Wire.u32String(mid)
                + (beginning ? " ppid=" : " fsn=") + Wire.u32String(ppidOrFsn) + " flags=" + (immediate ? "I" : "")
                + (unordered ? "U" : "") + (beginning ? "B" : "") + (ending ? "E" : "") + " len="
                + userData.length() + "]";
    }
}
