package org.sctpj.stack.wire.cause;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.param.Parameter;

/**
 * Unresolvable Address, RFC 9260 section 3.3.10.5: the sender cannot resolve an address parameter
 * (for example a Host Name Address, or an address type it does not support); usually sent in an
 * ABORT.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Cause Code = 5            |      Cause Length             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                      Unresolvable Address                     /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The field is the complete address parameter (type, length and value) as received, kept as
 * raw bytes.
 *
 * @param address the copied address parameter TLV, at least its 4-byte header
 */
public record UnresolvableAddressCause(Bytes address) implements ErrorCause {

    /** Validates the field. */
    public UnresolvableAddressCause {
        TlvCopies.checkTlvCopy("address", address);
    }

    @Override
    public int code() {
        return CauseCode.UNRESOLVABLE_ADDRESS;
    }

    @Override
    public int valueLength() {
        return address.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        address.writeTo(out);
    }

    /** A cause quoting {@code parameter} (its header and value, without trailing padding). */
    public static UnresolvableAddressCause of(Parameter parameter) {
        return new UnresolvableAddressCause(TlvCopies.ofParameter(parameter));
    }

    /** The type field of the copied TLV. */
    public int addressType() {
        return TlvCopies.tlvType(address);
    }

    /**
     * Decodes the copied TLV as a parameter; offsets in a failure count from the start of the
     * copy.
     */
    public Parsed<Parameter> decodeAddress() {
        return TlvCopies.parameters(address).map(l -> l.get(0));
    }

    /**
     * Decodes; the cause must hold at least the 4-byte header of the copied TLV. The copy is kept
     * verbatim (padding included, when the sender copied it), so that re-encoding gives the same
     * bytes.
     */
    public static Parsed<UnresolvableAddressCause> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        if (length < TlvCopies.MIN_TLV_COPY_CAUSE_LENGTH) {
            return TlvCopies.tooShort(chunkType, offset, length, "Unresolvable Address");
        }
        return Parsed.ok(new UnresolvableAddressCause(TlvCopies.value(buf, offset, length)));
    }
}
