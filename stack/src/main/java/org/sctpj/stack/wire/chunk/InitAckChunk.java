package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import java.util.List;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.param.Parameter;

/**
 * Initiation Acknowledgement (INIT ACK), RFC 9260 section 3.3.3.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 2    |  Chunk Flags  |         Chunk Length          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                         Initiate Tag                          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Advertised Receiver Window Credit (a_rwnd)           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Number of Outbound Streams   |   Number of Inbound Streams   |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                          Initial TSN                          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /              Optional/Variable-Length Parameters              /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The codec accepts any value of the fixed fields and any parameter list. The checks RFC 9260
 * asks of a receiver (a State Cookie parameter is mandatory; an Initiate Tag of 0 or zero streams
 * abort the association) belong to the handshake, not to the codec. Flags are reserved: ignored on
 * decode, written as zero.
 *
 * @param initiateTag the Verification Tag the responder expects in every packet it receives (32
 *     bits)
 * @param aRwnd the responder's initial receive window in bytes (32 bits, unsigned)
 * @param outboundStreams Number of Outbound Streams the responder will use, 0..65535
 * @param inboundStreams Number of Inbound Streams (MIS) the responder allows, 0..65535
 * @param initialTsn the TSN of the responder's first DATA chunk (32 bits)
 * @param parameters the parameters (State Cookie, addresses, extensions...), in order
 */
public record InitAckChunk(
        int initiateTag, int aRwnd, int outboundStreams, int inboundStreams, int initialTsn, List<Parameter> parameters)
        implements Chunk {

    /** Bytes of header and fixed fields, before the first parameter. */
    public static final int FIXED_LENGTH = InitFields.FIXED_LENGTH;

    /** Validates the fields. */
    public InitAckChunk {
        parameters = InitFields.check(ChunkType.INIT_ACK, outboundStreams, inboundStreams, parameters);
    }

    /** An INIT ACK with the given parameters. */
    public static InitAckChunk of(
            int initiateTag,
            int aRwnd,
            int outboundStreams,
            int inboundStreams,
            int initialTsn,
            Parameter... parameters) {
        return new InitAckChunk(initiateTag, aRwnd, outboundStreams, inboundStreams, initialTsn, List.of(parameters));
    }

    @Override
    public int type() {
        return ChunkType.INIT_ACK;
    }

    @Override
    public int flags() {
        return 0;
    }

    @Override
    public int valueLength() {
        return InitFields.valueLength(parameters);
    }

    @Override
    public void writeValue(ByteBuffer out) {
        InitFields.write(out, initiateTag, aRwnd, outboundStreams, inboundStreams, initialTsn, parameters);
    }

    /** Decodes an INIT ACK whose header is at {@code offset} and Chunk Length is {@code length}. */
    public static Parsed<InitAckChunk> decode(ByteBuffer buf, int offset, int length) {
        return InitFields.decode(buf, offset, length, ChunkType.INIT_ACK, InitAckChunk::new);
    }

    @Override
    public String toString() {
        return InitFields.toString(
                "INIT_ACK", initiateTag, aRwnd, outboundStreams, inboundStreams, initialTsn, parameters);
    }
}
