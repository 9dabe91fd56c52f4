package org.sctpj.stack.wire.chunk;

import java.nio.ByteBuffer;
import java.util.OptionalInt;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.Wire;

/**
 * Explicit Congestion Notification Echo (ECNE), RFC 9260 Appendix A: the receiver of a CE-marked
 * packet reports the TSN that arrived with it until the sender answers with CWR.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Chunk Type=12 | Flags=00000000|    Chunk Length = 8 or 12     |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                      Lowest TSN Number                        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |              Number of Packets (12-byte form only)            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>Two forms exist: the 8-byte one of RFC 4960 / RFC 9260 Appendix A (Linux sends it), and the
 * 12-byte one of draft-stewart-tsvwg-sctpecn, which adds the number of CE-marked packets seen
 * since the last CWR (usrsctp sends it). Both decode; any other length fails with {@link
 * ParseErrorKind#TRUNCATED_FIXED_FIELDS}. The record encodes the form it holds. Chunk flags are
 * ignored on receipt.
 *
 * @param lowestTsn the Lowest TSN Number (32 bits as an int)
 * @param numberOfPackets the Number of Packets field (32 bits as an int) of the 12-byte form, empty
 *     for the 8-byte form
 */
public record EcneChunk(int lowestTsn, OptionalInt numberOfPackets) implements Chunk {

    /** Chunk Length of the RFC 9260 form. */
    public static final int LENGTH = 8;
    /** Chunk Length of the draft-stewart-tsvwg-sctpecn form, with the Number of Packets. */
    public static final int LENGTH_WITH_PACKET_COUNT = 12;

    /** Validates the fields. */
    public EcneChunk {
        if (numberOfPackets == null) {
            throw new IllegalArgumentException("numberOfPackets must not be null: use OptionalInt.empty()");
        }
    }

    /** The 8-byte form of RFC 9260. */
    public static EcneChunk of(int lowestTsn) {
        return new EcneChunk(lowestTsn, OptionalInt.empty());
    }

    /** The 12-byte form, with the number of CE-marked packets (32 bits as an int). */
    public static EcneChunk withPacketCount(int lowestTsn, int numberOfPackets) {
        return new EcneChunk(lowestTsn, OptionalInt.of(numberOfPackets));
    }

    @Override
    public int type() {
        return ChunkType.ECNE;
    }

    @Override
    public int flags() {
        return 0;
    }

    @Override
    public int valueLength() {
        return (numberOfPackets.isPresent() ? LENGTH_WITH_PACKET_COUNT : LENGTH) - HEADER_LENGTH;
    }

    @Override
    public void writeValue(ByteBuffer out) {
        out.putInt(lowestTsn);
        if (numberOfPackets.isPresent()) {
            out.putInt(numberOfPackets.getAsInt());
        }
    }

    /** Decodes an ECNE whose header is at {@code offset} and Chunk Length is {@code length}. */
    public static Parsed<EcneChunk> decode(ByteBuffer buf, int offset, int length) {
        if (length == LENGTH) {
            return Parsed.ok(of(Wire.u32(buf, offset + 4)));
        }
        if (length == LENGTH_WITH_PACKET_COUNT) {
            return Parsed.ok(withPacketCount(Wire.u32(buf, offset + 4), Wire.u32(buf, offset + 8)));
        }
        return Parsed.fail(
                ParseErrorKind.TRUNCATED_FIXED_FIELDS,
                ChunkType.ECNE,
                offset,
                "ECNE chunk length " + length + ", must be 8 or 12");
    }

    @Override
    public String toString() {
        return "ECNE[lowestTsn=" + Wire.u32String(lowestTsn)
                + (numberOfPackets.isPresent() ? " packets=" + Wire.u32String(numberOfPackets.getAsInt()) : "")
                + "]";
    }
}
