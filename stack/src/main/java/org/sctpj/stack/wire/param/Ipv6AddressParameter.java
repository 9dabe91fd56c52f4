package org.sctpj.stack.wire.param;

import java.net.Inet6Address;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Parsed;

/**
 * IPv6 Address parameter, RFC 9260 section 3.3.2.1 (also inside ASCONF parameters, RFC 5061).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |            Type = 6           |          Length = 20          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                                                               |
 * |                         IPv6 Address                          |
 * |                                                               |
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>IPv4-mapped addresses ({@code ::ffff:a.b.c.d}) stay {@link Inet6Address}es, so the 16 bytes
 * round-trip unchanged. A scope id of the given address is not sent.
 *
 * @param address the address
 */
public record Ipv6AddressParameter(Inet6Address address) implements AddressParameter {

    /** The only valid Parameter Length. */
    public static final int LENGTH = 20;

    /** Validates the fields. */
    public Ipv6AddressParameter {
        if (address == null) {
            throw new IllegalArgumentException("address must not be null");
        }
    }

    /** The parameter for 16 address bytes. */
    public static Ipv6AddressParameter of(byte[] address) {
        if (address.length != 16) {
            throw new IllegalArgumentException("an IPv6 address has 16 bytes, not " + address.length);
        }
        return new Ipv6AddressParameter(inet6(address));
    }

    @Override
    public int type() {
        return ParameterType.IPV6_ADDRESS;
    }

    @Override
    public int valueLength() {
        return 16;
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.put(address.getAddress());
    }

    /** Decodes; the length must be exactly 20. */
    public static Parsed<Ipv6AddressParameter> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        if (length != LENGTH) {
            return ParamCodec.wrongLength(chunkType, offset, ParameterType.IPV6_ADDRESS, length, LENGTH);
        }
        byte[] a = new byte[16];
        buf.get(offset + HEADER_LENGTH, a);
        return Parsed.ok(new Ipv6AddressParameter(inet6(a)));
    }

    /** An {@link Inet6Address} from 16 bytes, without name lookup and without IPv4-mapped conversion. */
    static Inet6Address inet6(byte[] a) {
        try {
            return Inet6Address.getByAddress(null, a, -1);
        } catch (UnknownHostException e) {
            throw new AssertionError("16 bytes are always a valid IPv6 address", e);
        }
    }
}
