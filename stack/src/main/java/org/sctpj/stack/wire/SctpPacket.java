package org.sctpj.stack.wire;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.Chunks;

/**
 * An SCTP packet: the common header and one or more chunks (RFC 9260 section 3).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     Source Port Number        |     Destination Port Number   |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                      Verification Tag                         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                           Checksum                            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Chunk #1 ... Chunk #n (each padded to a multiple of 4 bytes)  |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>Decoding never throws: any byte sequence yields either a packet or a {@link ParseError} whose
 * offset counts from the first byte of the packet. Chunk values are checked by each chunk's
 * decoder; chunks of unknown type are kept as {@link org.sctpj.stack.wire.chunk.UnknownChunk}.
 * Padding bytes are ignored whatever their value (RFC 9260 section 3.2: "The receiver MUST ignore
 * the padding bytes"), but padding that would run past the end of the packet is an error, as Linux
 * treats it.
 *
 * @param sourcePort source port, 0..65535
 * @param destinationPort destination port, 0..65535
 * @param verificationTag the Verification Tag (32 bits as an int)
 * @param chunks the chunks, in order; at least one
 */
public record SctpPacket(int sourcePort, int destinationPort, int verificationTag, List<Chunk> chunks) {

    /** Size of the common header. */
    public static final int HEADER_LENGTH = 12;

    /** Validates the fields. */
    public SctpPacket {
        Wire.checkU16("sourcePort", sourcePort);
        Wire.checkU16("destinationPort", destinationPort);
        chunks = List.copyOf(chunks);
        if (chunks.isEmpty()) {
            throw new IllegalArgumentException("a packet carries at least one chunk");
        }
    }

    /** A packet of the given chunks. */
    public static SctpPacket of(int sourcePort, int destinationPort, int verificationTag, Chunk... chunks) {
        return new SctpPacket(sourcePort, destinationPort, verificationTag, List.of(chunks));
    }

    /** The encoded size in bytes. */
    public int encodedLength() {
        int n = HEADER_LENGTH;
        for (Chunk c : chunks) {
            n += c.encodedLength();
        }
        return n;
    }

    /**
     * Writes the packet at the buffer's position with a CRC32c checksum, or with a zero checksum
     * when {@code zeroChecksum} (allowed only towards a peer that announced Zero Checksum
     * Acceptable, RFC 9653).
     */
    public void encode(ByteBuffer out, boolean zeroChecksum) {
        int start = out.position();
        out.putShort((short) sourcePort);
        out.putShort((short) destinationPort);
        out.putInt(verificationTag);
        out.putInt(0);
        for (Chunk c : chunks) {
            c.encode(out);
        }
        if (!zeroChecksum) {
            Crc32c.fill(out, start, out.position() - start);
        }
    }

    /** The packet as a new byte array with a CRC32c checksum. */
    public byte[] toBytes() {
        ByteBuffer b = ByteBuffer.allocate(encodedLength());
        encode(b, false);
        return b.array();
    }

    /** Decodes the bytes from the buffer's position to its limit; the buffer is not modified. */
    public static Parsed<SctpPacket> decode(ByteBuffer packet, ChecksumPolicy checksum) {
        ByteBuffer b = packet.slice();
        int n = b.remaining();
        if (n < HEADER_LENGTH) {
            return Parsed.fail(
                    ParseErrorKind.PACKET_TOO_SHORT,
                    ParseError.NO_CHUNK,
                    0,
                    n + " bytes, the common header alone has " + HEADER_LENGTH);
        }
        if (checksum != ChecksumPolicy.IGNORE) {
            int field = b.getInt(Crc32c.CHECKSUM_OFFSET);
            boolean zeroOk = checksum == ChecksumPolicy.VERIFY_OR_ZERO && field == 0;
            if (!zeroOk) {
                int computed = Crc32c.compute(b, 0, n);
                if (computed != field) {
                    return Parsed.fail(
                            ParseErrorKind.BAD_CHECKSUM,
                            ParseError.NO_CHUNK,
                            Crc32c.CHECKSUM_OFFSET,
                            String.format("checksum field 0x%08x, computed 0x%08x", field, computed));
                }
            }
        }
        List<Chunk> chunks = new ArrayList<>();
        int off = HEADER_LENGTH;
        while (off < n) {
            Parsed<Integer> framed = frameChunk(b, off, n);
            if (!framed.isOk()) {
                return framed.castFailure();
            }
            int length = framed.value();
            Parsed<? extends Chunk> c = Chunks.decode(b, off, length);
            if (!c.isOk()) {
                return c.castFailure();
            }
            chunks.add(c.value());
            off += Wire.pad4(length);
        }
        if (chunks.isEmpty()) {
            return Parsed.fail(ParseErrorKind.NO_CHUNKS, ParseError.NO_CHUNK, HEADER_LENGTH, "packet has no chunk");
        }
        return Parsed.ok(new SctpPacket(Wire.u16(b, 0), Wire.u16(b, 2), b.getInt(4), chunks));
    }

    /**
     * Checks the chunk header at {@code off} in a packet of {@code n} bytes and returns its Chunk
     * Length: at least 4, within the packet, its padding within the packet too.
     */
    public static Parsed<Integer> frameChunk(ByteBuffer b, int off, int n) {
        if (n - off < Chunk.HEADER_LENGTH) {
            return Parsed.fail(
                    ParseErrorKind.CHUNK_HEADER_TRUNCATED,
                    ParseError.NO_CHUNK,
                    off,
                    (n - off) + " bytes left, a chunk header needs 4");
        }
        int type = Wire.u8(b, off);
        int length = Wire.u16(b, off + 2);
        if (length < Chunk.HEADER_LENGTH) {
            return Parsed.fail(ParseErrorKind.CHUNK_LENGTH_TOO_SMALL, type, off, "chunk length " + length);
        }
        if (length > n - off) {
            return Parsed.fail(
                    ParseErrorKind.CHUNK_LENGTH_PAST_PACKET,
                    type,
                    off,
                    "chunk length " + length + " but only " + (n - off) + " bytes left");
        }
        if (Wire.pad4(length) > n - off) {
            return Parsed.fail(
                    ParseErrorKind.BAD_PADDING,
                    type,
                    off + length,
                    "chunk of length " + length + " needs " + (Wire.pad4(length) - length)
                            + " padding bytes, packet ends after " + (n - off - length));
        }
        return Parsed.ok(length);
    }

    @Override
    public String toString() {
        return "SCTP[" + sourcePort + "->" + destinationPort + " vtag=0x" + Integer.toHexString(verificationTag) + " "
                + chunks + "]";
    }
}
