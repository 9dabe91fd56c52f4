package org.sctpj.stack.wire.cause;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.TlvFraming;
import org.sctpj.stack.wire.Wire;

/**
 * Stale Cookie, RFC 9260 section 3.3.10.3: a valid State Cookie arrived after its lifetime.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Cause Code = 3            |       Cause Length = 8        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                 Measure of Staleness (usec.)                  |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * @param stalenessMicros how late the cookie was, in microseconds (32 bits unsigned, carried in an
 *     int with the same bits; read it with {@link #stalenessMicrosUnsigned()})
 */
public record StaleCookieCause(int stalenessMicros) implements ErrorCause {

    /** The only valid Cause Length. */
    public static final int LENGTH = 8;

    /** The staleness as an unsigned value. */
    public long stalenessMicrosUnsigned() {
        return Integer.toUnsignedLong(stalenessMicros);
    }

    @Override
    public int code() {
        return CauseCode.STALE_COOKIE;
    }

    @Override
    public int valueLength() {
        return LENGTH - HEADER_LENGTH;
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(stalenessMicros);
    }

    /** Decodes; the length must be exactly 8. */
    public static Parsed<StaleCookieCause> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        if (length != LENGTH) {
            return TlvFraming.badLength(chunkType, offset, "Stale Cookie cause", length, "must be 8");
        }
        return Parsed.ok(new StaleCookieCause(Wire.u32(buf, offset + HEADER_LENGTH)));
    }

    @Override
    public String toString() {
        return "StaleCookieCause[stalenessMicros=" + Wire.u32String(stalenessMicros) + "]";
    }
}
