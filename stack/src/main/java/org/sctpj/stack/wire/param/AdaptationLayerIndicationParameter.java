package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * Adaptation Layer Indication parameter, RFC 5061 section 4.2.6 (in INIT and INIT ACK).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |        Type = 0xC006          |    Length = 8                 |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Adaptation Code Point                        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>Passes an opaque adaptation layer indication to the upper layer of the peer.
 *
 * @param indication the Adaptation Code Point (32 bits as an int)
 */
public record AdaptationLayerIndicationParameter(int indication) implements Parameter {

    /** The only valid Parameter Length. */
    public static final int LENGTH = 8;

    @Override
    public int type() {
        return ParameterType.ADAPTATION_LAYER_INDICATION;
    }

    @Override
    public int valueLength() {
        return 4;
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(indication);
    }

    /** Decodes; the length must be exactly 8. */
    public static Parsed<AdaptationLayerIndicationParameter> decode(
            ByteBuffer buf, int offset, int length, int chunkType) {
        if (length != LENGTH) {
            return ParamCodec.wrongLength(chunkType, offset, ParameterType.ADAPTATION_LAYER_INDICATION, length, LENGTH);
        }
        return Parsed.ok(new AdaptationLayerIndicationParameter(Wire.u32(buf, offset + HEADER_LENGTH)));
    }

    @Override
    public String toString() {
        return "AdaptationLayerIndicationParameter[indication=" + Wire.u32String(indication) + "]";
    }
}
