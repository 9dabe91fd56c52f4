package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import java.util.List;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * Incoming SSN Reset Request parameter, RFC 6525 section 4.2 (in RE-CONFIG).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Parameter Type = 14       |  Parameter Length = 8 + 2 * N |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Re-configuration Request Sequence Number             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Stream Number 1 (optional)   |    Stream Number 2 (optional) |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                            ......                             /
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Stream Number N-1 (optional) |    Stream Number N (optional) |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>Asks the peer to reset its outgoing streams (all of them when the list is empty); an odd N is
 * followed by 2 bytes of padding.
 *
 * @param requestSequenceNumber the Re-configuration Request Sequence Number (32 bits as an int)
 * @param streams the stream numbers to reset, 0..65535 each; empty means all streams
 */
public record IncomingSsnResetRequestParameter(int requestSequenceNumber, List<Integer> streams) implements Parameter {

    /** The Parameter Length without any stream number. */
    public static final int FIXED_LENGTH = 8;

    /** Validates and copies the fields. */
    public IncomingSsnResetRequestParameter {
        streams = ParamCodec.copyU16List("stream number", streams);
        ParamCodec.checkValueLength("stream list", FIXED_LENGTH - HEADER_LENGTH + 2 * streams.size());
    }

    @Override
    public int type() {
        return ParameterType.INCOMING_SSN_RESET_REQUEST;
    }

    @Override
    public int valueLength() {
        return FIXED_LENGTH - HEADER_LENGTH + 2 * streams.size();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(requestSequenceNumber);
        ParamCodec.writeU16List(out, streams);
    }

    /**
     * Decodes; the length must be at least 8 and the stream list a whole number of 16-bit
     * entries.
     */
    public static Parsed<IncomingSsnResetRequestParameter> decode(
            ByteBuffer buf, int offset, int length, int chunkType) {
        if (length < FIXED_LENGTH) {
            return ParamCodec.tooShort(
                    chunkType, offset, ParameterType.INCOMING_SSN_RESET_REQUEST, length, FIXED_LENGTH);
        }
        int request = Wire.u32(buf, offset + 4);
        return ParamCodec.readU16List(
                        buf,
                        offset + FIXED_LENGTH,
                        offset + length,
                        chunkType,
                        "Incoming SSN Reset Request stream list")
                .map(streams -> new IncomingSsnResetRequestParameter(request, streams));
    }

    @Override
    public String toString() {
        return "IncomingSsnResetRequest[req=" + Wire.u32String(requestSequenceNumber) + " streams=" + streams + "]";
    }
}
