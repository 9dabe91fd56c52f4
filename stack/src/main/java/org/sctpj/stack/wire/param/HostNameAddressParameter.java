package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;

/**
 * Host Name Address parameter (deprecated), RFC 9260 section 3.3.2.1 (in INIT and INIT ACK).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Type = 11            |          Length               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                          Host Name                            /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The Host Name is ASCII terminated by at least one NUL, and the terminator counts in the
 * Length. RFC 9260 deprecates this parameter: a receiver answers with an "Unresolvable Address"
 * error cause that quotes the parameter, so the value is kept exactly as received in {@link
 * #value()}; bytes after the first NUL (more NULs, normally) are kept there and otherwise ignored.
 *
 * @param hostName the host name: the value up to its first NUL; not empty, ASCII without NUL
 * @param value the whole value as on the wire: the host name, a NUL, and whatever followed
 */
public record HostNameAddressParameter(String hostName, Bytes value) implements Parameter {

    /** Validates the fields: {@code value} must start with {@code hostName} and a NUL. */
    public HostNameAddressParameter {
        checkName(hostName);
        ParamCodec.checkValueLength("host name", value.length());
        byte[] name = hostName.getBytes(StandardCharsets.US_ASCII);
        boolean matches = value.length() > name.length && value.get(name.length) == 0;
        for (int i = 0; matches && i < name.length; i++) {
            matches = value.get(i) == name[i];
        }
        if (!matches) {
            throw new IllegalArgumentException(
                    "value must be the host name followed by a NUL; use HostNameAddressParameter.of(hostName)");
        }
    }

    /** The parameter for a host name, terminated by a single NUL. */
    public static HostNameAddressParameter of(String hostName) {
        checkName(hostName);
        byte[] name = hostName.getBytes(StandardCharsets.US_ASCII);
        byte[] v = new byte[name.length + 1];
        System.arraycopy(name, 0, v, 0, name.length);
        return new HostNameAddressParameter(hostName, Bytes.of(v));
    }

    private static void checkName(String hostName) {
        if (hostName.isEmpty()) {
            throw new IllegalArgumentException("a host name must not be empty");
        }
        for (int i = 0; i < hostName.length(); i++) {
            char c = hostName.charAt(i);
            if (c == 0 || c > 0x7f) {
                throw new IllegalArgumentException(
                        "a host name is ASCII without NUL; found U+" + Integer.toHexString(c) + " at index " + i);
            }
        }
    }

    @Override
    public int type() {
        return ParameterType.HOST_NAME_ADDRESS;
    }

    @Override
    public int valueLength() {
        return value.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        value.writeTo(out);
    }

    /**
     * Decodes. The value must hold a NUL, the name before it must not be empty and must be ASCII;
     * otherwise {@link ParseErrorKind#INVALID_FIELD_VALUE} at the Host Name field.
     */
    public static Parsed<HostNameAddressParameter> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        int from = offset + HEADER_LENGTH;
        int end = offset + length;
        int nul = -1;
        for (int at = from; at < end; at++) {
            int c = buf.get(at) & 0xff;
            if (c == 0) {
                nul = at;
                break;
            }
            if (c > 0x7f) {
                return Parsed.fail(
                        ParseErrorKind.INVALID_FIELD_VALUE,
                        chunkType,
                        from,
                        "host name holds the non-ASCII byte 0x" + Integer.toHexString(c) + " at offset " + at);
            }
        }
        if (nul < 0) {
            return Parsed.fail(
                    ParseErrorKind.INVALID_FIELD_VALUE, chunkType, from, "host name is not terminated by a NUL");
        }
        if (nul == from) {
            return Parsed.fail(ParseErrorKind.INVALID_FIELD_VALUE, chunkType, from, "host name is empty");
        }
        byte[] name = new byte[nul - from];
        buf.get(from, name);
        return Parsed.ok(new HostNameAddressParameter(
                new String(name, StandardCharsets.US_ASCII), Bytes.copyOf(buf, from, length - HEADER_LENGTH)));
    }

    @Override
    public String toString() {
        return "HostNameAddress[" + hostName + (value.length() == hostName.length() + 1 ? "" : " value=" + value) + "]";
    }
}
