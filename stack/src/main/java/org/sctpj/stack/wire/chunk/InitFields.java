package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import java.util.List;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.Parameters;

/**
 * The codec shared by INIT and INIT ACK (RFC 9260 sections 3.3.2 and 3.3.3), whose values have the
 * same five fixed fields followed by a parameter list.
 */
final class InitFields {
    private InitFields() {}

    /** Bytes of header and fixed fields: header, Initiate Tag, a_rwnd, streams, Initial TSN. */
    static final int FIXED_LENGTH = 20;

    /** Builds the record of one of the two chunk types from decoded fields. */
    @FunctionalInterface
    interface Factory<T> {
        T create(
                int initiateTag,
                int aRwnd,
                int outboundStreams,
                int inboundStreams,
                int initialTsn,
                List<Parameter> parameters);
    }

    /** Validates what the two constructors have in common. */
    static List<Parameter> check(int type, int outboundStreams, int inboundStreams, List<Parameter> parameters) {
        Wire.checkU16("outboundStreams", outboundStreams);
        Wire.checkU16("inboundStreams", inboundStreams);
        List<Parameter> copy = List.copyOf(parameters);
        if (FIXED_LENGTH + Parameters.listLength(copy) > 0xffff) {
            throw new IllegalArgumentException(ChunkType.name(type) + " parameters take " + Parameters.listLength(copy)
                    + " bytes, more than one chunk can carry: send fewer");
        }
        return copy;
    }

    /** Writes the fixed fields and the parameters. */
    static void write(
            ByteBuffer out,
            int initiateTag,
            int aRwnd,
            int outboundStreams,
            int inboundStreams,
            int initialTsn,
            List<Parameter> parameters) {
        out.putInt(initiateTag);
        out.putInt(aRwnd);
        out.putShort((short) outboundStreams);
        out.putShort((short) inboundStreams);
        out.putInt(initialTsn);
        Parameters.writeList(parameters, out);
    }

    /** Length of the value: fixed fields and parameters. */
    static int valueLength(List<Parameter> parameters) {
        return FIXED_LENGTH - Chunk.HEADER_LENGTH + Parameters.listLength(parameters);
    }

    /** Decodes the chunk of type {@code type} whose header is at {@code offset}. */
    static <T> Parsed<T> decode(ByteBuffer buf, int offset, int length, int type, Factory<T> factory) {
        if (length < FIXED_LENGTH) {
            return Chunks.checkFixed(type, offset, length, FIXED_LENGTH);
        }
        Parsed<List<Parameter>> params = Parameters.decodeList(buf, offset + FIXED_LENGTH, offset + length, type);
        if (!params.isOk()) {
            return params.castFailure();
        }
        return Parsed.ok(factory.create(
                Wire.u32(buf, offset + 4),
                Wire.u32(buf, offset + 8),
                Wire.u16(buf, offset + 12),
                Wire.u16(buf, offset + 14),
                Wire.u32(buf, offset + 16),
                params.value()));
    }

    /** Text form shared by the two records. */
    static String toString(
            String name,
            int initiateTag,
            int aRwnd,
            int outboundStreams,
            int inboundStreams,
            int initialTsn,
            List<Parameter> parameters) {
        return name + "[tag=0x" + Integer.toHexString(initiateTag) + " a_rwnd=" + Wire.u32String(aRwnd) + " os="
                + outboundStreams + " mis=" + inboundStreams + " tsn=" + Wire.u32String(initialTsn) + " params="
                + parameters + "]";
    }
}
