package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import java.util.List;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.param.Parameter;

/**
 * Initiation (INIT), RFC 9260 section 3.3.2.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Type = 1    |  Chunk Flags  |         Chunk Length          |
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
 * <p>The codec accepts any value of the fixed fields. The checks RFC 9260 asks of a receiver (an
 * Initiate Tag of 0 discards the packet; zero outbound or inbound streams abort the association)
 * depend on the association's state and belong to the handshake, not to the codec. Flags are
 * reserved: ignored on decode, written as zero.
 *
 * @param initiateTag the Verification Tag the sender expects in every packet it receives (32 bits)
 * @param aRwnd the sender's initial receive window in bytes (32 bits, unsigned)
 * @param outboundStreams Number of Outbound Streams the sender wishes to open, 0..65535
 * @param inboundStreams Number of Inbound Streams (MIS) the sender allows, 0..65535
 * @param initialTsn the TSN of the sender's first DATA chunk (32 bits)
 * @param parameters the optional and variable-length parameters, in order
 */
public record InitChunk(
        int initiateTag, int aRwnd, int outboundStreams, int inboundStreams, int initialTsn, List<Parameter> parameters)
        implements Chunk {

    /** Bytes of header and fixed fields, before the first parameter. */
    public static final int FIXED_LENGTH = InitFields.FIXED_LENGTH;

    /** Validates the fields. */
    public InitChunk {
        parameters = InitFields.check(ChunkType.INIT, outboundStreams, inboundStreams, parameters);
    }

    /** An INIT with the given parameters. */
    public static InitChunk of(
            int initiateTag,
            int aRwnd,
            int outboundStreams,
            int inboundStreams,
            int initialTsn,
            Parameter... parameters) {
        return new InitChunk(initiateTag, aRwnd, outboundStreams, inboundStreams, initialTsn, List.of(parameters));
    }

    @Override
    public int type() {
        return ChunkType.INIT;
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

    /** Decodes an INIT whose header is at {@code offset} and Chunk Length is {@code length}. */
    public static Parsed<InitChunk> decode(ByteBuffer buf, int offset, int length) {
        return InitFields.decode(buf, offset, length, ChunkType.INIT, InitChunk::new);
    }

    @Override
    public String toString() {
        return InitFields.toString("INIT", initiateTag, aRwnd, outboundStreams, inboundStreams, initialTsn, parameters);
    }
}
