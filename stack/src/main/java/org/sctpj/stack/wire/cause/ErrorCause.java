package org.sctpj.stack.wire.cause;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Wire;

/**
 * An error cause, carried in ERROR and ABORT chunks (RFC 9260 section 3.3.10) and in the ASCONF
 * Error Cause Indication (RFC 5061).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |           Cause Code          |         Cause Length          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                    Cause-Specific Information                 /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The interface is sealed: its implementations are the cause records of this package and
 * {@link UnknownCause} for every other code, so that a {@code switch} over a cause can be
 * exhaustive.
 */
public sealed interface ErrorCause
        permits CookieReceivedWhileShuttingDownCause,
                DeleteLastRemainingAddressCause,
                DeleteSourceAddressCause,
                IllegalAsconfAckCause,
                InvalidMandatoryParameterCause,
                InvalidStreamIdentifierCause,
                MissingMandatoryParameterCause,
                NoAuthorizationCause,
                NoUserDataCause,
                OutOfResourceCause,
                ProtocolViolationCause,
                ResourceShortageCause,
                RestartWithNewAddressesCause,
                StaleCookieCause,
                UnknownCause,
                UnrecognizedChunkTypeCause,
                UnrecognizedParametersCause,
                UnresolvableAddressCause,
                UnsupportedHmacIdentifierCause,
                UserInitiatedAbortCause {

    /** Size of the cause header. */
    int HEADER_LENGTH = 4;

    /** The cause code ({@link CauseCode}). */
    int code();

    /** Length of the cause-specific information, without header and padding. */
    int valueLength();

    /** Writes the cause-specific information at the buffer's position. */
    void writeValue(ByteBuffer out);

    /** The Cause Length field. */
    default int length() {
        return HEADER_LENGTH + valueLength();
    }

    /** Bytes taken with padding. */
    default int encodedLength() {
        return Wire.pad4(length());
    }

    /** Writes header and value, and the padding when {@code pad}. */
    default void encode(ByteBuffer out, boolean pad) {
        int length = length();
        out.putShort((short) code());
        out.putShort((short) length);
        writeValue(out);
        if (pad) {
            Wire.writePadding(out, length);
        }
    }
}
