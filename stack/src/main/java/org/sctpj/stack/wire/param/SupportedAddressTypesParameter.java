package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.sctpj.stack.wire.Parsed;

/**
 * Supported Address Types parameter, RFC 9260 section 3.3.2.1 (in INIT).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Type = 12            |          Length               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |        Address Type #1        |        Address Type #2        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                            ......                             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>Each address type is the parameter type of an address parameter the sender can use: 5 (IPv4),
 * 6 (IPv6) or 11 (Host Name). An odd number of types leaves 2 bytes of padding after the last.
 *
 * @param addressTypes the address types (16-bit parameter type codes)
 */
public record SupportedAddressTypesParameter(List<Integer> addressTypes) implements Parameter {

    /** Validates and copies the fields. */
    public SupportedAddressTypesParameter {
        addressTypes = ParamCodec.copyU16List("address type", addressTypes);
        ParamCodec.checkValueLength("address type list", addressTypes.size() * 2);
    }

    /** A parameter listing the given values. */
    public static SupportedAddressTypesParameter of(int... addressTypes) {
        return new SupportedAddressTypesParameter(
                Arrays.stream(addressTypes).boxed().toList());
    }

    @Override
    public int type() {
        return ParameterType.SUPPORTED_ADDRESS_TYPES;
    }

    @Override
    public int valueLength() {
        return addressTypes.size() * 2;
    }

    @Override
    public void writeValue(ByteBuffer out) {
        ParamCodec.writeU16List(out, addressTypes);
    }

    /** Decodes; the value must be a whole number of 16-bit types ({@link org.sctpj.stack.wire.ParseErrorKind#LIST_LENGTH_MISMATCH}). */
    public static Parsed<SupportedAddressTypesParameter> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        return ParamCodec.readU16List(
                        buf, offset + HEADER_LENGTH, offset + length, chunkType, "Supported Address Types parameter")
                .map(SupportedAddressTypesParameter::new);
    }
}
