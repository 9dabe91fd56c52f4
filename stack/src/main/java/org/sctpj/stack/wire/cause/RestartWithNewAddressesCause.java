package org.sctpj.stack.wire.cause;

import java.nio.ByteBuffer;
import java.util.List;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.param.Parameter;

/**
 * Restart of an Association with New Addresses, RFC 9260 section 3.3.10.11: an INIT restarting an
 * association added transport addresses; the restart is refused and the new addresses are listed.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Cause Code = 11           |      Cause Length = Variable  |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                        New Address TLVs                       /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>Each New Address TLV is an exact copy of the address parameter found in the INIT; the list is
 * kept as raw bytes.
 *
 * @param newAddresses the copied address parameter TLVs, at least one 4-byte TLV header
 */
public record RestartWithNewAddressesCause(Bytes newAddresses) implements ErrorCause {

    /** Validates the field. */
    public RestartWithNewAddressesCause {
        TlvCopies.checkTlvCopy("newAddresses", newAddresses);
    }

    @Override
    public int code() {
        return CauseCode.RESTART_WITH_NEW_ADDRESSES;
    }

    @Override
    public int valueLength() {
        return newAddresses.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        newAddresses.writeTo(out);
    }

    /** A cause quoting the given address parameters, each padded to 4 bytes except the last. */
    public static RestartWithNewAddressesCause of(List<? extends Parameter> newAddresses) {
        return new RestartWithNewAddressesCause(TlvCopies.ofParameters(newAddresses));
    }

    /**
     * Decodes the copied address parameters; offsets in a failure count from the start of the
     * copy.
     */
    public Parsed<List<Parameter>> decodeAddresses() {
        return TlvCopies.parameters(newAddresses);
    }

    /**
     * Decodes; the cause must hold at least the 4-byte header of the copied TLV. The copy is kept
     * verbatim (padding included, when the sender copied it), so that re-encoding gives the same
     * bytes.
     */
    public static Parsed<RestartWithNewAddressesCause> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        if (length < TlvCopies.MIN_TLV_COPY_CAUSE_LENGTH) {
            return TlvCopies.tooShort(chunkType, offset, length, "Restart of an Association with New Addresses");
        }
        return Parsed.ok(new RestartWithNewAddressesCause(TlvCopies.value(buf, offset, length)));
    }
}
