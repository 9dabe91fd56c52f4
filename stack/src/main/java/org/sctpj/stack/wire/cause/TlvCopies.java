package org.sctpj.stack.wire.cause;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ParseError;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.TlvFraming;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.Parameters;

/**
 * Shared checks and conversions for the error causes whose information is a byte string: either
 * opaque text (abort reasons, protocol-violation details) or a copy of one or more TLVs taken
 * from a received packet (addresses, chunks, parameters), which the causes keep verbatim so that
 * re-encoding gives back the peer's bytes.
 */
final class TlvCopies {
    private TlvCopies() {}

    /** Largest cause-specific information that fits a 16-bit Cause Length. */
    static final int MAX_VALUE = 0xffff - ErrorCause.HEADER_LENGTH;

    /** Checks an opaque byte field of a cause (any length that fits the Cause Length). */
    static Bytes checkOpaque(String what, Bytes value) {
        if (value.length() > MAX_VALUE) {
            throw new IllegalArgumentException(
                    what + " of " + value.length() + " bytes does not fit one error cause (max " + MAX_VALUE + ")");
        }
        return value;
    }

    /**
     * Checks a field that holds a TLV copy: at least a 4-byte TLV header, and no more than fits
     * the Cause Length.
     */
    static Bytes checkTlvCopy(String what, Bytes value) {
        if (value.length() < TlvFraming.HEADER_LENGTH) {
            throw new IllegalArgumentException(what + " must hold a whole TLV (at least its 4-byte header), was "
                    + value.length() + " bytes: build it with of(...) from the element it quotes");
        }
        return checkOpaque(what, value);
    }

    /** Smallest Cause Length of a cause holding a TLV copy: its header and the copy's header. */
    static final int MIN_TLV_COPY_CAUSE_LENGTH = ErrorCause.HEADER_LENGTH + TlvFraming.HEADER_LENGTH;

    /** Failure for a TLV-copy cause shorter than {@link #MIN_TLV_COPY_CAUSE_LENGTH}. */
    static <T> Parsed<T> tooShort(int chunkType, int offset, int length, String what) {
        return TlvFraming.badLength(
                chunkType, offset, what + " cause", length, "must be at least 8 (its header and a copied TLV header)");
    }

    /** The cause-specific information of the cause at {@code offset}, whose Cause Length is {@code length}. */
    static Bytes value(ByteBuffer buf, int offset, int length) {
        return Bytes.copyOf(buf, offset + ErrorCause.HEADER_LENGTH, length - ErrorCause.HEADER_LENGTH);
    }

    /** The 16-bit type field at the start of a TLV copy. */
    static int tlvType(Bytes tlv) {
        return (tlv.get(0) << 8) | tlv.get(1);
    }

    /** The bytes of one parameter: header and value, without trailing padding. */
    static Bytes ofParameter(Parameter p) {
        ByteBuffer out = ByteBuffer.allocate(p.length());
        p.encode(out, false);
        return Bytes.of(out.array());
    }

    /** The bytes of a parameter list as it sits in a chunk: each padded except the last. */
    static Bytes ofParameters(List<? extends Parameter> params) {
        ByteBuffer out = ByteBuffer.allocate(Parameters.listLength(params));
        Parameters.writeList(params, out);
        return Bytes.of(out.array());
    }

    /**
     * Decodes copied parameters as a list; offsets in a failure count from the start of the copy
     * and its chunk type is {@link ParseError#NO_CHUNK}.
     */
    static Parsed<List<Parameter>> parameters(Bytes tlvs) {
        ByteBuffer b = tlvs.asReadOnlyBuffer();
        return Parameters.decodeList(b, 0, b.limit(), ParseError.NO_CHUNK);
    }

    /** UTF-8 bytes of a text, for the causes that carry free-form information. */
    static Bytes utf8(String text) {
        return Bytes.of(text.getBytes(StandardCharsets.UTF_8));
    }
}
