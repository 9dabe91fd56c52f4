package org.sctpj.stack.wire.param;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.TlvFraming;
import org.sctpj.stack.wire.Wire;

/**
 * An IPv4 or IPv6 Address parameter (RFC 9260 section 3.3.2.1), the two parameters that carry a
 * transport address: in INIT and INIT ACK, and nested in the ASCONF parameters of RFC 5061 (Add IP
 * Address, Delete IP Address, Set Primary Address) and the ASCONF chunk.
 *
 * <pre>
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |        Type = 5 or 6          |      Length = 8 or 20         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                 IPv4 Address or IPv6 Address                  |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public sealed interface AddressParameter extends Parameter permits Ipv4AddressParameter, Ipv6AddressParameter {

    /** The address carried. */
    InetAddress address();

    /** The parameter for an address of either family. */
    static AddressParameter of(InetAddress address) {
        if (address instanceof Inet4Address a) {
            return new Ipv4AddressParameter(a);
        }
        if (address instanceof Inet6Address a) {
            return new Ipv6AddressParameter(a);
        }
        throw new IllegalArgumentException("pass an Inet4Address or an Inet6Address, not " + address);
    }

    /**
     * Decodes the address parameter whose header is at absolute index {@code offset} and that
     * must end exactly at {@code end} (an address parameter nested in another element): checks
     * its header, its type (5 or 6, else {@link ParseErrorKind#INVALID_FIELD_VALUE}) and its length.
     */
    static Parsed<AddressParameter> decodeNested(ByteBuffer buf, int offset, int end, int chunkType) {
        Parsed<Integer> framed = TlvFraming.frame(buf, offset, end, chunkType);
        if (!framed.isOk()) {
            return framed.castFailure();
        }
        int length = framed.value();
        int type = Wire.u16(buf, offset);
        Parsed<? extends AddressParameter> p =
                switch (type) {
                    case ParameterType.IPV4_ADDRESS -> Ipv4AddressParameter.decode(buf, offset, length, chunkType);
                    case ParameterType.IPV6_ADDRESS -> Ipv6AddressParameter.decode(buf, offset, length, chunkType);
                    default -> Parsed.fail(
                            ParseErrorKind.INVALID_FIELD_VALUE,
                            chunkType,
                            offset,
                            "expected an IPv4 (5) or IPv6 (6) Address parameter, found type "
                                    + ParameterType.name(type));
                };
        if (!p.isOk()) {
            return p.castFailure();
        }
        if (offset + length != end) {
            return Parsed.fail(
                    ParseErrorKind.BAD_PARAMETER_LENGTH,
                    chunkType,
                    offset + length,
                    (end - offset - length) + " bytes follow the nested address parameter");
        }
        return Parsed.ok(p.value());
    }
}
