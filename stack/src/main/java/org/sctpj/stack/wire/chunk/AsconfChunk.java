package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.TlvFraming;
import org.sctpj.stack.wire.Wire;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.ParameterType;
import org.sctpj.stack.wire.param.Parameters;

/**
 * Address Configuration Change (ASCONF), RFC 5061 section 4.1.1: asks the peer to add or delete
 * addresses of the sender or to change its primary address.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Type = 0xC1   |  Chunk Flags  |      Chunk Length             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       Sequence Number                         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                    Address Parameter                          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                     ASCONF Parameter #1                       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /                             ....                              /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                     ASCONF Parameter #N                       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The Address Parameter is an IPv4 Address (type 5) or IPv6 Address (type 6) parameter, decoded
 * by {@link Parameters#decode} like any other parameter; another type there fails with {@link
 * ParseErrorKind#INVALID_FIELD_VALUE} at its offset, and a chunk that ends before it fails with
 * the TLV framing errors ({@link ParseErrorKind#PARAMETER_HEADER_TRUNCATED} when nothing follows
 * the Sequence Number). The ASCONF parameters (Add IP Address, Delete IP Address, Set Primary
 * Address, ...) follow as a list, possibly empty on decode. Chunk flags are reserved: sent as zero,
 * ignored on receipt.
 *
 * @param serialNumber the Sequence Number of this request (32 bits as an int)
 * @param address the Address Parameter: type {@link ParameterType#IPV4_ADDRESS} or {@link
 *     ParameterType#IPV6_ADDRESS}
 * @param parameters the ASCONF parameters, in order
 */
public record AsconfChunk(int serialNumber, Parameter address, List<Parameter> parameters) implements Chunk {

    /** Bytes of header and Sequence Number. */
    public static final int FIXED_LENGTH = 8;

    /** Validates the fields. */
    public AsconfChunk {
        if (!isAddressType(address.type())) {
            throw new IllegalArgumentException("the Address Parameter of an ASCONF must be an IPv4 or IPv6 Address"
                    + " parameter (type 5 or 6), got type " + ParameterType.name(address.type()));
        }
        parameters = List.copyOf(parameters);
        if (FIXED_LENGTH + Parameters.listLength(all(address, parameters)) > 0xffff) {
            throw new IllegalArgumentException("parameters too long for one chunk: split the requests");
        }
    }

    /** An ASCONF with the given parameters. */
    public static AsconfChunk of(int serialNumber, Parameter address, Parameter... parameters) {
        return new AsconfChunk(serialNumber, address, List.of(parameters));
    }

    private static boolean isAddressType(int type) {
        return type == ParameterType.IPV4_ADDRESS || type == ParameterType.IPV6_ADDRESS;
    }

    private static List<Parameter> all(Parameter address, List<Parameter> parameters) {
        List<Parameter> all = new ArrayList<>(parameters.size() + 1);
        all.add(address);
        all.addAll(parameters);
        return all;
    }

    @Override
    public int type() {
        return ChunkType.ASCONF;
    }

    @Override
    public int flags() {
        return 0;
    }

    @Override
    public int valueLength() {
        return FIXED_LENGTH - HEADER_LENGTH + Parameters.listLength(all(address, parameters));
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(serialNumber);
        Parameters.writeList(all(address, parameters), out);
    }

    /** Decodes an ASCONF whose header is at {@code offset} and Chunk Length is {@code length}. */
    public static Parsed<AsconfChunk> decode(ByteBuffer buf, int offset, int length) {
        if (length < FIXED_LENGTH) {
            return Chunks.checkFixed(ChunkType.ASCONF, offset, length, FIXED_LENGTH);
        }
        int end = offset + length;
        int at = offset + FIXED_LENGTH;
        Parsed<Integer> framed = TlvFraming.frame(buf, at, end, ChunkType.ASCONF);
        if (!framed.isOk()) {
            return framed.castFailure();
        }
        int addressType = Wire.u16(buf, at);
        if (!isAddressType(addressType)) {
            return Parsed.fail(
                    ParseErrorKind.INVALID_FIELD_VALUE,
                    ChunkType.ASCONF,
                    at,
                    "ASCONF Address Parameter has type " + ParameterType.name(addressType)
                            + ", must be IPv4 Address (5) or IPv6 Address (6)");
        }
        int addressLength = framed.value();
        Parsed<? extends Parameter> address = Parameters.decode(buf, at, addressLength, ChunkType.ASCONF);
        if (!address.isOk()) {
            return address.castFailure();
        }
        Parsed<List<Parameter>> rest =
                Parameters.decodeList(buf, Math.min(end, at + Wire.pad4(addressLength)), end, ChunkType.ASCONF);
        if (!rest.isOk()) {
            return rest.castFailure();
        }
        return Parsed.ok(new AsconfChunk(Wire.u32(buf, offset + 4), address.value(), rest.value()));
    }

    @Override
    public String toString() {
        return "ASCONF[serial=" + Wire.u32String(serialNumber) + " address=" + address + " " + parameters + "]";
    }
}
