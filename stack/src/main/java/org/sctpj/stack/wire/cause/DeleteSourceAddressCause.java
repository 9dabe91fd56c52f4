package org.sctpj.stack.wire.cause;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.param.Parameter;

/**
 * Request to Delete Source IP Address, RFC 5061 section 4.3 (cause code 0x00A2): an ASCONF asked to
 * delete the address it was sent from, and the request was refused.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Cause Code = 0x00A2       |      Cause Length = Variable  |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /             TLV-Copy of the Address Being Deleted             /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>Sent inside an Error Cause Indication of an ASCONF-ACK (RFC 5061 section 4.2.3). The copied
 * TLV is kept as raw bytes (implementations copy the whole Delete IP Address request).
 *
 * @param refusedRequest the copied TLV, at least its 4-byte header
 */
public record DeleteSourceAddressCause(Bytes refusedRequest) implements ErrorCause {

    /** Validates the field. */
    public DeleteSourceAddressCause {
        TlvCopies.checkTlvCopy("refusedRequest", refusedRequest);
    }

    @Override
    public int code() {
        return CauseCode.DELETE_SOURCE_ADDRESS;
    }

    @Override
    public int valueLength() {
        return refusedRequest.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        refusedRequest.writeTo(out);
    }

    /** A cause quoting {@code parameter} (its header and value, without trailing padding). */
    public static DeleteSourceAddressCause of(Parameter parameter) {
        return new DeleteSourceAddressCause(TlvCopies.ofParameter(parameter));
    }

    /** The type field of the copied TLV. */
    public int parameterType() {
        return TlvCopies.tlvType(refusedRequest);
    }

    /**
     * Decodes the copied TLV as a parameter; offsets in a failure count from the start of the
     * copy.
     */
    public Parsed<Parameter> decodeParameter() {
        return TlvCopies.parameters(refusedRequest).map(l -> l.get(0));
    }

    /**
     * Decodes; the cause must hold at least the 4-byte header of the copied TLV. The copy is kept
     * verbatim (padding included, when the sender copied it), so that re-encoding gives the same
     * bytes.
     */
    public static Parsed<DeleteSourceAddressCause> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        if (length < TlvCopies.MIN_TLV_COPY_CAUSE_LENGTH) {
            return TlvCopies.tooShort(chunkType, offset, length, "Request to Delete Source IP Address");
        }
        return Parsed.ok(new DeleteSourceAddressCause(TlvCopies.value(buf, offset, length)));
    }
}
