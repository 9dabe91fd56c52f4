package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import java.util.List;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.Parameters;

/**
 * Address Configuration Acknowledgement (ASCONF-ACK), RFC 5061 section 4.1.2: answers the ASCONF
 * of the same Sequence Number.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Type = 0x80   |  Chunk Flags  |      Chunk Length             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       Sequence Number                         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                 ASCONF Parameter Response#1                   |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /                             ....                              /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                 ASCONF Parameter Response#N                   |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The responses (Success Indication, Error Cause Indication) may be absent: success needs no
 * report, so an ASCONF whose requests all succeeded is often answered by the Sequence Number alone
 * (Linux does so). Chunk flags are reserved: sent as zero, ignored on receipt.
 *
 * @param serialNumber the Sequence Number of the acknowledged ASCONF (32 bits as an int)
 * @param parameters the responses, possibly none
 */
public record AsconfAckChunk(int serialNumber, List<Parameter> parameters) implements Chunk {

    /** Bytes of header and Sequence Number. */
    public static final int FIXED_LENGTH = 8;

    /** Validates the fields. */
    public AsconfAckChunk {
        parameters = List.copyOf(parameters);
        if (FIXED_LENGTH + Parameters.listLength(parameters) > 0xffff) {
            throw new IllegalArgumentException("parameters too long for one chunk");
        }
    }

    /** An ASCONF-ACK with the given responses. */
    public static AsconfAckChunk of(int serialNumber, Parameter... parameters) {
        return new AsconfAckChunk(serialNumber, List.of(parameters));
    }

    @Override
    public int type() {
        return ChunkType.ASCONF_ACK;
    }

    @Override
    public int flags() {
        return 0;
    }

    @Override
    public int valueLength() {
        return FIXED_LENGTH - HEADER_LENGTH + Parameters.listLength(parameters);
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(serialNumber);
        Parameters.writeList(parameters, out);
    }

    /** Decodes an ASCONF-ACK whose header is at {@code offset} and Chunk Length is {@code length}. */
    public static Parsed<AsconfAckChunk> decode(ByteBuffer buf, int offset, int length) {
        if (length < FIXED_LENGTH) {
            return Chunks.checkFixed(ChunkType.ASCONF_ACK, offset, length, FIXED_LENGTH);
        }
        int serial = Wire.u32(buf, offset + 4);
        return Parameters.decodeList(buf, offset + FIXED_LENGTH, offset + length, ChunkType.ASCONF_ACK)
                .map(params -> new AsconfAckChunk(serial, params));
    }

    @Override
    public String toString() {
        return "ASCONF_ACK[serial=" + Wire.u32String(serialNumber) + " " + parameters + "]";
    }
}
