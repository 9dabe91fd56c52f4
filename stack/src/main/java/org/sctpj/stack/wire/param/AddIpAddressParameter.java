package org.sctpj.stack.wire.param;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * Add IP Address parameter, RFC 5061 section 4.2.1 (in ASCONF).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |        Type = 0xC001          |    Length = Variable          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |               ASCONF-Request Correlation ID                   |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       Address Parameter                       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>Asks the peer to add the address to the association. The Address Parameter is a whole IPv4 or IPv6 Address parameter (header included); the
 * Length is 16 or 28.
 *
 * @param correlationId the ASCONF-Request Correlation ID (32 bits as an int), echoed in the
 *     response
 * @param address the nested IPv4 or IPv6 Address parameter
 */
public record AddIpAddressParameter(int correlationId, AddressParameter address) implements Parameter {

    /** Bytes before the nested address parameter: header and correlation ID. */
    public static final int FIXED_LENGTH = 8;

    /** Validates the fields. */
    public AddIpAddressParameter {
        if (address == null) {
            throw new IllegalArgumentException("address must not be null");
        }
    }

    /** The parameter for an address of either family. */
    public static AddIpAddressParameter of(int correlationId, InetAddress address) {
        return new AddIpAddressParameter(correlationId, AddressParameter.of(address));
    }

    @Override
    public int type() {
        return ParameterType.ADD_IP_ADDRESS;
    }

    @Override
    public int valueLength() {
        return FIXED_LENGTH - HEADER_LENGTH + address.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(correlationId);
        address.encode(out, false);
    }

    /**
     * Decodes; the length must cover the correlation ID and exactly one IPv4 or IPv6 Address
     * parameter (errors in the nested parameter are reported at its offset).
     */
    public static Parsed<AddIpAddressParameter> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        if (length < FIXED_LENGTH) {
            return ParamCodec.tooShort(chunkType, offset, ParameterType.ADD_IP_ADDRESS, length, FIXED_LENGTH);
        }
        int correlationId = Wire.u32(buf, offset + 4);
        return AddressParameter.decodeNested(buf, offset + FIXED_LENGTH, offset + length, chunkType)
                .map(a -> new AddIpAddressParameter(correlationId, a));
    }

    @Override
    public String toString() {
        return "AddIpAddress[correlationId=" + Wire.u32String(correlationId) + " "
                + address.address().getHostAddress() + "]";
    }
}
