package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * Zero Checksum Acceptable parameter, RFC 9653 section 4 (in INIT and INIT ACK).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |         Type = 0x8001         |          Length = 8           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |           Error Detection Method Identifier (EDMID)           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>Declares that its sender accepts packets with a zero checksum when the named alternate error
 * detection method protects them. The codec keeps any identifier; the association decides which it
 * supports.
 *
 * @param edmid the Error Detection Method Identifier (32 bits as an int)
 */
public record ZeroChecksumAcceptableParameter(int edmid) implements Parameter {

    /** The only valid Parameter Length. */
    public static final int LENGTH = 8;

    /** EDMID 0 is reserved (RFC 9653, IANA section). */
    public static final int EDMID_RESERVED = 0;
    /** EDMID 1: SCTP over DTLS (RFC 9653, IANA section). */
    public static final int EDMID_DTLS = 1;

    @Override
    public int type() {
        return ParameterType.ZERO_CHECKSUM_ACCEPTABLE;
    }

    @Override
    public int valueLength() {
        return 4;
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(edmid);
    }

    /** Decodes; the length must be exactly 8. */
    public static Parsed<ZeroChecksumAcceptableParameter> decode(
            ByteBuffer buf, int offset, int length, int chunkType) {
        if (length != LENGTH) {
            return ParamCodec.wrongLength(chunkType, offset, ParameterType.ZERO_CHECKSUM_ACCEPTABLE, length, LENGTH);
        }
        return Parsed.ok(new ZeroChecksumAcceptableParameter(Wire.u32(buf, offset + HEADER_LENGTH)));
    }

    @Override
    public String toString() {
        return "ZeroChecksumAcceptableParameter[edmid=" + Wire.u32String(edmid) + "]";
    }
}
