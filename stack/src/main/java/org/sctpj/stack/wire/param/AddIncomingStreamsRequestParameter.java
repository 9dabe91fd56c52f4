package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * Add Incoming Streams Request parameter, RFC 6525 section 4.6 (in RE-CONFIG).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Parameter Type = 18       |      Parameter Length = 12    |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Re-configuration Request Sequence Number             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |      Number of new streams    |         Reserved              |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>Asks the peer to add streams in its outgoing direction (the incoming one of the sender). The reserved field is sent as zero and ignored on receipt.
 *
 * @param requestSequenceNumber the Re-configuration Request Sequence Number (32 bits as an int)
 * @param newStreams the number of streams to add, 0..65535
 */
public record AddIncomingStreamsRequestParameter(int requestSequenceNumber, int newStreams) implements Parameter {

    /** The only valid Parameter Length. */
    public static final int LENGTH = 12;

    /** Validates the fields. */
    public AddIncomingStreamsRequestParameter {
        Wire.checkU16("newStreams", newStreams);
    }

    @Override
    public int type() {
        return ParameterType.ADD_INCOMING_STREAMS_REQUEST;
    }

    @Override
    public int valueLength() {
        return LENGTH - HEADER_LENGTH;
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(requestSequenceNumber);
        out.putShort((short) newStreams);
        out.putShort((short) 0);
    }

    /** Decodes; the length must be exactly 12. */
    public static Parsed<AddIncomingStreamsRequestParameter> decode(
            ByteBuffer buf, int offset, int length, int chunkType) {
        if (length != LENGTH) {
            return ParamCodec.wrongLength(
                    chunkType, offset, ParameterType.ADD_INCOMING_STREAMS_REQUEST, length, LENGTH);
        }
        return Parsed.ok(new AddIncomingStreamsRequestParameter(Wire.u32(buf, offset + 4), Wire.u16(buf, offset + 8)));
    }

    @Override
    public String toString() {
        return "AddIncomingStreams[req=" + Wire.u32String(requestSequenceNumber) + " newStreams=" + newStreams + "]";
    }
}
