package org.sctpj.stack.wire.cause;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * An error cause of a code this codec does not know, kept as raw bytes.
 *
 * @param code the cause code, 0..65535
 * @param value the cause-specific information as received
 */
public record UnknownCause(int code, Bytes value) implements ErrorCause {

    /** Validates the fields. */
    public UnknownCause {
        Wire.checkU16("code", code);
        if (value.length() > 0xffff - HEADER_LENGTH) {
            throw new IllegalArgumentException("cause value too long: " + value.length());
        }
    }

    @Override
    public int valueLength() {
        return value.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        value.writeTo(out);
    }

    /** Keeps a cause of any code as raw bytes. */
    public static Parsed<UnknownCause> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        return Parsed.ok(new UnknownCause(
                Wire.u16(buf, offset), Bytes.copyOf(buf, offset + HEADER_LENGTH, length - HEADER_LENGTH)));
    }
}
