package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import java.util.Optional;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.TlvFraming;
import org.sctpj.stack.wire.Wire;

/**
 * Re-configuration Response parameter, RFC 6525 section 4.4 (in RE-CONFIG).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Parameter Type = 16       |      Parameter Length         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |         Re-configuration Response Sequence Number             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                            Result                             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                   Sender's Next TSN (optional)                |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Receiver's Next TSN (optional)               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The two TSNs come together or not at all, so the Parameter Length is 12 or 20. They answer an
 * SSN/TSN Reset Request.
 *
 * @param responseSequenceNumber the Re-configuration Response Sequence Number (32 bits as an int):
 *     the request sequence number of the request answered
 * @param result the result code (32 bits as an int), one of the {@code RESULT_} constants
 * @param nextTsns the optional sender's and receiver's next TSNs
 */
public record ReconfigurationResponseParameter(int responseSequenceNumber, int result, Optional<NextTsns> nextTsns)
        implements Parameter {

    /** The Parameter Length without the optional TSNs. */
    public static final int SHORT_LENGTH = 12;
    /** The Parameter Length with the optional TSNs. */
    public static final int LONG_LENGTH = 20;

    /** Result 0: Success - Nothing to do. */
    public static final int RESULT_SUCCESS_NOTHING_TO_DO = 0;
    /** Result 1: Success - Performed. */
    public static final int RESULT_SUCCESS_PERFORMED = 1;
    /** Result 2: Denied. */
    public static final int RESULT_DENIED = 2;
    /** Result 3: Error - Wrong SSN. */
    public static final int RESULT_ERROR_WRONG_SSN = 3;
    /** Result 4: Error - Request already in progress. */
    public static final int RESULT_ERROR_REQUEST_IN_PROGRESS = 4;
    /** Result 5: Error - Bad Sequence Number. */
    public static final int RESULT_ERROR_BAD_SEQUENCE_NUMBER = 5;
    /** Result 6: In progress. */
    public static final int RESULT_IN_PROGRESS = 6;

    /**
     * The optional pair of TSNs of a response to an SSN/TSN Reset Request.
     *
     * @param sendersNextTsn the next TSN the sender of the response will assign (32 bits as an int)
     * @param receiversNextTsn the next TSN the sender of the response expects (32 bits as an int)
     */
    public record NextTsns(int sendersNextTsn, int receiversNextTsn) {
        @Override
        public String toString() {
            return "sendersNextTsn=" + Wire.u32String(sendersNextTsn) + " receiversNextTsn="
                    + Wire.u32String(receiversNextTsn);
        }
    }

    /** Validates the fields. */
    public ReconfigurationResponseParameter {
        if (nextTsns == null) {
            throw new IllegalArgumentException("nextTsns must not be null; use Optional.empty()");
        }
    }

    /** A response without the optional TSNs. */
    public static ReconfigurationResponseParameter of(int responseSequenceNumber, int result) {
        return new ReconfigurationResponseParameter(responseSequenceNumber, result, Optional.empty());
    }

    /** A response with the optional TSNs. */
    public static ReconfigurationResponseParameter of(
            int responseSequenceNumber, int result, int sendersNextTsn, int receiversNextTsn) {
        return new ReconfigurationResponseParameter(
                responseSequenceNumber, result, Optional.of(new NextTsns(sendersNextTsn, receiversNextTsn)));
    }

    @Override
    public int type() {
        return ParameterType.RECONFIGURATION_RESPONSE;
    }

    @Override
    public int valueLength() {
        return (nextTsns.isPresent() ? LONG_LENGTH : SHORT_LENGTH) - HEADER_LENGTH;
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(responseSequenceNumber);
        out.putInt(result);
        if (nextTsns.isPresent()) {
            out.putInt(nextTsns.get().sendersNextTsn());
            out.putInt(nextTsns.get().receiversNextTsn());
        }
    }

    /** Decodes; the length must be 12 or 20. */
    public static Parsed<ReconfigurationResponseParameter> decode(
            ByteBuffer buf, int offset, int length, int chunkType) {
        if (length != SHORT_LENGTH && length != LONG_LENGTH) {
            return TlvFraming.badLength(
                    chunkType, offset, "Re-configuration Response parameter", length, "must be 12 or 20");
        }
        int response = Wire.u32(buf, offset + 4);
        int result = Wire.u32(buf, offset + 8);
        Optional<NextTsns> tsns = length == LONG_LENGTH
                ? Optional.of(new NextTsns(Wire.u32(buf, offset + 12), Wire.u32(buf, offset + 16)))
                : Optional.empty();
        return Parsed.ok(new ReconfigurationResponseParameter(response, result, tsns));
    }

    @Override
    public String toString() {
        return "ReconfigurationResponse[resp=" + Wire.u32String(responseSequenceNumber) + " result="
                + Wire.u32String(result) + nextTsns.map(t -> " " + t).orElse("") + "]";
    }
}
