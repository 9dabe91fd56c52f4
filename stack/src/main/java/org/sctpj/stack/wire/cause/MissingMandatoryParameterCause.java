package org.sctpj.stack.wire.cause;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.TlvFraming;
import org.sctpj.stack.wire.Wire;

/**
 * Missing Mandatory Parameter, RFC 9260 section 3.3.10.2: an INIT or INIT ACK lacked one or more
 * mandatory parameters.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Cause Code = 2            |      Cause Length = 8 + N * 2 |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                   Number of missing params = N                |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Missing Param Type #1       |   Missing Param Type #2       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Missing Param Type #N-1     |   Missing Param Type #N       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The count must agree with the Cause Length ({@link ParseErrorKind#LIST_LENGTH_MISMATCH}
 * otherwise). When N is odd the cause ends after 2 bytes of the last word and is padded like any
 * TLV.
 *
 * @param missingTypes the parameter types reported missing, each 0..65535, in wire order
 */
public record MissingMandatoryParameterCause(List<Integer> missingTypes) implements ErrorCause {

    /** Cause Length without any type: header and count. */
    public static final int FIXED_LENGTH = 8;

    /** Most types one cause can list. */
    public static final int MAX_TYPES = (0xffff - FIXED_LENGTH) / 2;

    /** Validates and copies the list. */
    public MissingMandatoryParameterCause {
        missingTypes = List.copyOf(missingTypes);
        if (missingTypes.size() > MAX_TYPES) {
            throw new IllegalArgumentException("at most " + MAX_TYPES + " missing parameter types fit one cause, got "
                    + missingTypes.size() + ": split them over several causes");
        }
        for (int t : missingTypes) {
            Wire.checkU16("missing parameter type", t);
        }
    }

    /** A cause listing the given parameter types. */
    public static MissingMandatoryParameterCause of(int... missingTypes) {
        List<Integer> l = new ArrayList<>(missingTypes.length);
        for (int t : missingTypes) {
            l.add(t);
        }
        return new MissingMandatoryParameterCause(l);
    }

    @Override
    public int code() {
        return CauseCode.MISSING_MANDATORY_PARAMETER;
    }

    @Override
    public int valueLength() {
        return FIXED_LENGTH - HEADER_LENGTH + 2 * missingTypes.size();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(missingTypes.size());
        for (int t : missingTypes) {
            out.putShort((short) t);
        }
    }

    /**
     * Decodes; the length must be at least 8 and the count must match the number of 16-bit types
     * that follow.
     */
    public static Parsed<MissingMandatoryParameterCause> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        if (length < FIXED_LENGTH) {
            return TlvFraming.badLength(
                    chunkType, offset, "Missing Mandatory Parameter cause", length, "must be at least 8");
        }
        long count = Integer.toUnsignedLong(Wire.u32(buf, offset + 4));
        int listBytes = length - FIXED_LENGTH;
        if (count * 2 != listBytes) {
            return Parsed.fail(
                    ParseErrorKind.LIST_LENGTH_MISMATCH,
                    chunkType,
                    offset,
                    "Missing Mandatory Parameter cause counts " + count + " types but its length " + length + " leaves "
                            + listBytes + " bytes for them");
        }
        List<Integer> types = new ArrayList<>((int) count);
        for (int i = 0; i < count; i++) {
            types.add(Wire.u16(buf, offset + FIXED_LENGTH + 2 * i));
        }
        return Parsed.ok(new MissingMandatoryParameterCause(types));
    }
}
