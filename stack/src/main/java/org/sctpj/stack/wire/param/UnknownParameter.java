package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.UnrecognizedAction;
import org.sctpj.stack.wire.Wire;

/**
 * A parameter of a type this codec does not know, kept whole so that the core can act on its two
 * highest type bits (RFC 9260 section 3.2.1) and quote it in an Unrecognized Parameter.
 *
 * @param type the parameter type, 0..65535
 * @param value the value as received (without header and padding)
 */
public record UnknownParameter(int type, Bytes value) implements Parameter {

    /** Validates the fields. */
    public UnknownParameter {
        Wire.checkU16("type", type);
        if (value.length() > 0xffff - HEADER_LENGTH) {
            throw new IllegalArgumentException("parameter value too long: " + value.length());
        }
    }

    /** What RFC 9260 section 3.2.1 says to do with this parameter. */
    public UnrecognizedAction action() {
        return UnrecognizedAction.ofParameterType(type);
    }

    @Override
    public int valueLength() {
        return value.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        value.writeTo(out);
    }

    /** Keeps a parameter of any type as raw bytes. */
    public static Parsed<UnknownParameter> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        return Parsed.ok(new UnknownParameter(
                Wire.u16(buf, offset), Bytes.copyOf(buf, offset + HEADER_LENGTH, length - HEADER_LENGTH)));
    }
}
