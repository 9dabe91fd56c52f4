package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Wire;

/**
 * A chunk: the unit of an SCTP packet (RFC 9260 section 3.2).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Chunk Type  | Chunk Flags   |        Chunk Length           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /                          Chunk Value                          /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The Chunk Length counts header and value but not the padding to a multiple of 4 bytes that
 * follows the chunk. Implementations are immutable value records; {@link Chunks#decode} builds them
 * from bytes.
 *
 * <p>The interface is sealed: its implementations are the chunk records of this package, one per
 * chunk type this codec decodes, and {@link UnknownChunk} for every other type, so that a {@code
 * switch} over a chunk can be exhaustive. A new chunk type gets its record added to the list.
 */
public sealed interface Chunk
        permits AbortChunk,
                AsconfAckChunk,
                AsconfChunk,
                AuthChunk,
                CookieAckChunk,
                CookieEchoChunk,
                CwrChunk,
                DataChunk,
                EcneChunk,
                ErrorChunk,
                ForwardTsnChunk,
                HeartbeatAckChunk,
                HeartbeatChunk,
                IDataChunk,
                IForwardTsnChunk,
                InitAckChunk,
                InitChunk,
                NrSackChunk,
                PadChunk,
                ReConfigChunk,
                SackChunk,
                ShutdownAckChunk,
                ShutdownChunk,
                ShutdownCompleteChunk,
                UnknownChunk {

    /** The size of the chunk header. */
    int HEADER_LENGTH = 4;

    /** The chunk type code ({@link ChunkType}). */
    int type();

    /** The Chunk Flags byte as it goes on the wire. */
    int flags();

    /** Length of the value (after the 4-byte header, without the trailing padding). */
    int valueLength();

    /** Writes the value (not the header, not the trailing padding) at the buffer's position. */
    void writeValue(ByteBuffer out);

    /** The Chunk Length field: header plus value, without padding. */
    default int length() {
        return HEADER_LENGTH + valueLength();
    }

    /** Bytes the chunk takes in a packet, padding included. */
    default int encodedLength() {
        return Wire.pad4(length());
    }

    /** Writes header, value and padding at the buffer's position. */
    default void encode(ByteBuffer out) {
        int length = length();
        out.put((byte) type());
        out.put((byte) flags());
        out.putShort((short) length);
        writeValue(out);
        Wire.writePadding(out, length);
    }
}
