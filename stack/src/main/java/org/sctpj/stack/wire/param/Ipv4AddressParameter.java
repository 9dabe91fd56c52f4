package org.sctpj.stack.wire.param;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.TlvFraming;

/**
 * IPv4 Address parameter, RFC 9260 section 3.3.2.1 (also inside ASCONF parameters, RFC 5061).
 *
 * <pre>
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |        Type = 5               |      Length = 8               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                        IPv4 Address                           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * @param address the address
 */
public record Ipv4AddressParameter(Inet4Address address) implements AddressParameter {

    /** The only valid Parameter Length. */
    public static final int LENGTH = 8;

    @Override
    public int type() {
        return ParameterType.IPV4_ADDRESS;
    }

    @Override
    public int valueLength() {
        return 4;
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.put(address.getAddress());
    }

    /** Decodes; the length must be exactly 8. */
    public static Parsed<Ipv4AddressParameter> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        if (length != LENGTH) {
            return TlvFraming.badLength(chunkType, offset, "IPv4 Address parameter", length, "must be 8");
        }
        byte[] a = new byte[4];
        buf.get(offset + 4, a);
        return Parsed.ok(new Ipv4AddressParameter(inet4(a)));
    }

    /** An {@link Inet4Address} from 4 bytes, without any name lookup. */
    static Inet4Address inet4(byte[] a) {
        try {
            return (Inet4Address) InetAddress.getByAddress(a);
        } catch (UnknownHostException e) {
            throw new AssertionError("4 bytes are always a valid IPv4 address", e);
        }
    }
}
