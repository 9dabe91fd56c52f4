package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import java.util.List;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * Outgoing SSN Reset Request parameter, RFC 6525 section 4.1 (in RE-CONFIG).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Parameter Type = 13       | Parameter Length = 16 + 2 * N |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |           Re-configuration Request Sequence Number            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |           Re-configuration Response Sequence Number           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                Sender's Last Assigned TSN                     |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Stream Number 1 (optional)   |    Stream Number 2 (optional) |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                            ......                             /
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Stream Number N-1 (optional) |    Stream Number N (optional) |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The sender resets its outgoing streams (all of them when the list is empty); an odd N is
 * followed by 2 bytes of padding.
 *
 * @param requestSequenceNumber the Re-configuration Request Sequence Number (32 bits as an int)
 * @param responseSequenceNumber the Re-configuration Response Sequence Number (32 bits as an int)
 * @param sendersLastAssignedTsn the sender's last assigned TSN (32 bits as an int)
 * @param streams the stream numbers to reset, 0..65535 each; empty means all streams
 */
public record OutgoingSsnResetRequestParameter(
        int requestSequenceNumber, int responseSequenceNumber, int sendersLastAssignedTsn, List<Integer> streams)
        implements Parameter {

    /** The Parameter Length without any stream number. */
    public static final int FIXED_LENGTH = 16;

    /** Validates and copies the fields. */
    public OutgoingSsnResetRequestParameter {
        streams = ParamCodec.copyU16List("stream number", streams);
        ParamCodec.checkValueLength("stream list", FIXED_LENGTH - HEADER_LENGTH + 2 * streams.size());
    }

    @Override
    public int type() {
        return ParameterType.OUTGOING_SSN_RESET_REQUEST;
    }

    @Override
    public int valueLength() {
        return FIXED_LENGTH - HEADER_LENGTH + 2 * streams.size();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(requestSequenceNumber);
        out.putInt(responseSequenceNumber);
        out.putInt(sendersLastAssignedTsn);
        ParamCodec.writeU16List(out, streams);
    }

    /**
     * Decodes; the length must be at least 16 and the stream list a whole number of 16-bit
     * entries.
     */
    public static Parsed<OutgoingSsnResetRequestParameter> decode(
            ByteBuffer buf, int offset, int length, int chunkType) {
        if (length < FIXED_LENGTH) {
            return ParamCodec.tooShort(
                    chunkType, offset, ParameterType.OUTGOING_SSN_RESET_REQUEST, length, FIXED_LENGTH);
        }
        int request = Wire.u32(buf, offset + 4);
        int response = Wire.u32(buf, offset + 8);
        int lastTsn = Wire.u32(buf, offset + 12);
        return ParamCodec.readU16List(
                        buf,
                        offset + FIXED_LENGTH,
                        offset + length,
                        chunkType,
                        "Outgoing SSN Reset Request stream list")
                .map(streams -> new OutgoingSsnResetRequestParameter(request, response, lastTsn, streams));
    }

    @Override
    public String toString() {
        return "OutgoingSsnResetRequest[req=" + Wire.u32String(requestSequenceNumber) + " resp="
                + Wire.u32String(responseSequenceNumber) + " lastTsn=" + Wire.u32String(sendersLastAssignedTsn)
                + " streams=" + streams + "]";
    }
}
