package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;

/** Decoding of any chunk by its type code. */
public final class Chunks {
    private Chunks() {}

    /**
     * Decodes the chunk whose header starts at absolute index {@code offset} of {@code buf}.
     * {@code length} is its Chunk Length field, already checked by the caller to be at least 4 and
     * to lie within the buffer. Types this codec does not know become {@link UnknownChunk}.
     */
    public static Parsed<? extends Chunk> decode(ByteBuffer buf, int offset, int length) {
        int type = buf.get(offset) & 0xff;
        return switch (type) {
            case ChunkType.DATA -> DataChunk.decode(buf, offset, length);
            case ChunkType.INIT -> InitChunk.decode(buf, offset, length);
            case ChunkType.INIT_ACK -> InitAckChunk.decode(buf, offset, length);
            case ChunkType.SACK -> SackChunk.decode(buf, offset, length);
            case ChunkType.HEARTBEAT -> HeartbeatChunk.decode(buf, offset, length);
            case ChunkType.HEARTBEAT_ACK -> HeartbeatAckChunk.decode(buf, offset, length);
            case ChunkType.ABORT -> AbortChunk.decode(buf, offset, length);
            case ChunkType.SHUTDOWN -> ShutdownChunk.decode(buf, offset, length);
            case ChunkType.SHUTDOWN_ACK -> ShutdownAckChunk.decode(buf, offset, length);
            case ChunkType.ERROR -> ErrorChunk.decode(buf, offset, length);
            case ChunkType.COOKIE_ECHO -> CookieEchoChunk.decode(buf, offset, length);
            case ChunkType.COOKIE_ACK -> CookieAckChunk.decode(buf, offset, length);
            case ChunkType.SHUTDOWN_COMPLETE -> ShutdownCompleteChunk.decode(buf, offset, length);
            case ChunkType.ECNE -> EcneChunk.decode(buf, offset, length);
            case ChunkType.CWR -> CwrChunk.decode(buf, offset, length);
            case ChunkType.AUTH -> AuthChunk.decode(buf, offset, length);
            case ChunkType.NR_SACK -> NrSackChunk.decode(buf, offset, length);
            case ChunkType.I_DATA -> IDataChunk.decode(buf, offset, length);
            case ChunkType.ASCONF_ACK -> AsconfAckChunk.decode(buf, offset, length);
            case ChunkType.RE_CONFIG -> ReConfigChunk.decode(buf, offset, length);
            case ChunkType.PAD -> PadChunk.decode(buf, offset, length);
            case ChunkType.FORWARD_TSN -> ForwardTsnChunk.decode(buf, offset, length);
            case ChunkType.ASCONF -> AsconfChunk.decode(buf, offset, length);
            case ChunkType.I_FORWARD_TSN -> IForwardTsnChunk.decode(buf, offset, length);
            default -> UnknownChunk.decode(buf, offset, length);
        };
    }

    /**
     * Decodes one chunk from {@code buf}'s position to its limit, checking the header first: for
     * tests, tools and chunks quoted inside error causes.
     */
    public static Parsed<? extends Chunk> decode(ByteBuffer buf) {
        ByteBuffer b = buf.slice();
        if (b.remaining() < Chunk.HEADER_LENGTH) {
            return Parsed.fail(ParseErrorKind.CHUNK_HEADER_TRUNCATED, -1, 0, b.remaining() + " bytes");
        }
        int type = b.get(0) & 0xff;
        int length = b.getShort(2) & 0xffff;
        if (length < Chunk.HEADER_LENGTH) {
            return Parsed.fail(ParseErrorKind.CHUNK_LENGTH_TOO_SMALL, type, 0, "chunk length " + length);
        }
        if (length > b.remaining()) {
            return Parsed.fail(
                    ParseErrorKind.CHUNK_LENGTH_PAST_PACKET,
                    type,
                    0,
                    "chunk length " + length + " but " + b.remaining() + " bytes");
        }
        return decode(b, 0, length);
    }

    /** Fixed-field length check shared by the chunk decoders. */
    static <T> Parsed<T> checkFixed(int type, int offset, int length, int fixed) {
        return Parsed.fail(
                ParseErrorKind.TRUNCATED_FIXED_FIELDS,
                type,
                offset,
                ChunkType.name(type) + " chunk length " + length + " is below its fixed " + fixed + " bytes");
    }

    /** Error for a chunk that must have exactly {@code expected} bytes. */
    static <T> Parsed<T> wrongLength(int type, int offset, int length, int expected) {
        return Parsed.fail(
                ParseErrorKind.TRUNCATED_FIXED_FIELDS,
                type,
                offset,
                ChunkType.name(type) + " chunk length " + length + ", must be " + expected);
    }
}
