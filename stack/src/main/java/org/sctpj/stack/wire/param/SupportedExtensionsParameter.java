package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.sctpj.stack.wire.Parsed;

/**
 * Supported Extensions parameter, RFC 5061 section 4.2.7 (in INIT and INIT ACK).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Parameter Type = 0x8008   |      Parameter Length         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | CHUNK TYPE 1  |  CHUNK TYPE 2 |  CHUNK TYPE 3 |  CHUNK TYPE 4 |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                             ....                              |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | CHUNK TYPE N  |      PAD      |      PAD      |      PAD      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The extension chunk types the sender supports (for example RE-CONFIG, ASCONF, I-DATA).
 *
 * @param chunkTypes the supported chunk types, one byte each
 */
public record SupportedExtensionsParameter(List<Integer> chunkTypes) implements Parameter {

    /** Validates and copies the fields. */
    public SupportedExtensionsParameter {
        chunkTypes = ParamCodec.copyU8List("chunk type", chunkTypes);
        ParamCodec.checkValueLength("chunk type list", chunkTypes.size() * 1);
    }

    /** A parameter listing the given values. */
    public static SupportedExtensionsParameter of(int... chunkTypes) {
        return new SupportedExtensionsParameter(
                Arrays.stream(chunkTypes).boxed().toList());
    }

    @Override
    public int type() {
        return ParameterType.SUPPORTED_EXTENSIONS;
    }

    @Override
    public int valueLength() {
        return chunkTypes.size() * 1;
    }

    @Override
    public void writeValue(ByteBuffer out) {
        ParamCodec.writeU8List(out, chunkTypes);
    }

    /** Decodes; any length from 4 is valid. */
    public static Parsed<SupportedExtensionsParameter> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        return Parsed.ok(
                new SupportedExtensionsParameter(ParamCodec.readU8List(buf, offset + HEADER_LENGTH, offset + length)));
    }
}
