package org.sctpj.stack.wire.cause;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.TlvFraming;
import org.sctpj.stack.wire.Wire;

/** Decoding of error causes by code, and cause lists as they sit in ERROR and ABORT chunks. */
public final class ErrorCauses {
    private ErrorCauses() {}

    /**
     * Decodes the cause whose header starts at absolute index {@code offset}; {@code length} is
     * its Cause Length, already framed by {@link TlvFraming#frame}. Unknown codes become {@link
     * UnknownCause}.
     */
    public static Parsed<? extends ErrorCause> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        int code = Wire.u16(buf, offset);
        return switch (code) {
            case CauseCode.INVALID_STREAM_IDENTIFIER -> InvalidStreamIdentifierCause.decode(
                    buf, offset, length, chunkType);
            case CauseCode.MISSING_MANDATORY_PARAMETER -> MissingMandatoryParameterCause.decode(
                    buf, offset, length, chunkType);
            case CauseCode.STALE_COOKIE -> StaleCookieCause.decode(buf, offset, length, chunkType);
            case CauseCode.OUT_OF_RESOURCE -> OutOfResourceCause.decode(buf, offset, length, chunkType);
            case CauseCode.UNRESOLVABLE_ADDRESS -> UnresolvableAddressCause.decode(buf, offset, length, chunkType);
            case CauseCode.UNRECOGNIZED_CHUNK_TYPE -> UnrecognizedChunkTypeCause.decode(buf, offset, length, chunkType);
            case CauseCode.INVALID_MANDATORY_PARAMETER -> InvalidMandatoryParameterCause.decode(
                    buf, offset, length, chunkType);
            case CauseCode.UNRECOGNIZED_PARAMETERS -> UnrecognizedParametersCause.decode(
                    buf, offset, length, chunkType);
            case CauseCode.NO_USER_DATA -> NoUserDataCause.decode(buf, offset, length, chunkType);
            case CauseCode.COOKIE_WHILE_SHUTTING_DOWN -> CookieReceivedWhileShuttingDownCause.decode(
                    buf, offset, length, chunkType);
            case CauseCode.RESTART_WITH_NEW_ADDRESSES -> RestartWithNewAddressesCause.decode(
                    buf, offset, length, chunkType);
            case CauseCode.USER_INITIATED_ABORT -> UserInitiatedAbortCause.decode(buf, offset, length, chunkType);
            case CauseCode.PROTOCOL_VIOLATION -> ProtocolViolationCause.decode(buf, offset, length, chunkType);
            case CauseCode.DELETE_LAST_REMAINING_ADDRESS -> DeleteLastRemainingAddressCause.decode(
                    buf, offset, length, chunkType);
            case CauseCode.RESOURCE_SHORTAGE -> ResourceShortageCause.decode(buf, offset, length, chunkType);
            case CauseCode.DELETE_SOURCE_ADDRESS -> DeleteSourceAddressCause.decode(buf, offset, length, chunkType);
            case CauseCode.ILLEGAL_ASCONF_ACK -> IllegalAsconfAckCause.decode(buf, offset, length, chunkType);
            case CauseCode.NO_AUTHORIZATION -> NoAuthorizationCause.decode(buf, offset, length, chunkType);
            case CauseCode.UNSUPPORTED_HMAC_IDENTIFIER -> UnsupportedHmacIdentifierCause.decode(
                    buf, offset, length, chunkType);
            default -> UnknownCause.decode(buf, offset, length, chunkType);
        };
    }

    /** Decodes the causes that fill {@code [offset, end)} of {@code buf}. */
    public static Parsed<List<ErrorCause>> decodeList(ByteBuffer buf, int offset, int end, int chunkType) {
        List<ErrorCause> out = new ArrayList<>();
        int off = offset;
        while (off < end) {
            Parsed<Integer> framed = TlvFraming.frame(buf, off, end, chunkType);
            if (!framed.isOk()) {
                return framed.castFailure();
            }
            int length = framed.value();
            Parsed<? extends ErrorCause> c = decode(buf, off, length, chunkType);
            if (!c.isOk()) {
                return c.castFailure();
            }
            out.add(c.value());
            off += Wire.pad4(length);
        }
        return Parsed.ok(List.copyOf(out));
    }

    /** Bytes a list takes inside a chunk: every cause padded except the last. */
    public static int listLength(List<? extends ErrorCause> causes) {
        int n = 0;
        for (int i = 0; i < causes.size(); i++) {
            ErrorCause c = causes.get(i);
            n += i == causes.size() - 1 ? c.length() : c.encodedLength();
        }
        return n;
    }

    /** Writes a list as {@link #listLength} counts it. */
    public static void writeList(List<? extends ErrorCause> causes, ByteBuffer out) {
        for (int i = 0; i < causes.size(); i++) {
            causes.get(i).encode(out, i != causes.size() - 1);
        }
    }
}
