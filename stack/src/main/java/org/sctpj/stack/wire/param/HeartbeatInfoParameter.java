package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;

/**
 * Heartbeat Info parameter, RFC 9260 section 3.3.5 (in HEARTBEAT and HEARTBEAT ACK).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |    Heartbeat Info Type = 1    |         HB Info Length        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * /                  Sender-Specific Heartbeat Info               /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The information is opaque to the receiver, which echoes it unchanged in the HEARTBEAT ACK.
 *
 * @param info the sender-specific information, possibly empty
 */
public record HeartbeatInfoParameter(Bytes info) implements Parameter {

    /** Validates the fields. */
    public HeartbeatInfoParameter {
        if (info == null) {
            throw new IllegalArgumentException("info must not be null; use Bytes.EMPTY");
        }
        ParamCodec.checkValueLength("heartbeat info", info.length());
    }

    @Override
    public int type() {
        return ParameterType.HEARTBEAT_INFO;
    }

    @Override
    public int valueLength() {
        return info.length();
    }

    @Override
    public void writeValue(ByteBuffer out) {
        info.writeTo(out);
    }

    /** Decodes; any length from 4 is valid (the content is opaque). */
    public static Parsed<HeartbeatInfoParameter> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        return Parsed.ok(new HeartbeatInfoParameter(Bytes.copyOf(buf, offset + HEADER_LENGTH, length - HEADER_LENGTH)));
    }
}
