package org.sctpj.stack.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.chunk.ChunkType;
import org.sctpj.stack.wire.chunk.CookieAckChunk;
import org.sctpj.stack.wire.chunk.DataChunk;
import org.sctpj.stack.wire.chunk.ShutdownAckChunk;

/**
 * The packet frame (RFC 9260 section 3): common header, chunk framing and padding, and the CRC32c
 * (section 6.8, Appendix A) including the RFC 9653 zero checksum. One test per packet-level
 * malformation, each checking the kind, the chunk type and the offset.
 */
class SctpPacketTest {

    static byte[] hex(String h) {
        return HexFormat.of().parseHex(h.replace(" ", ""));
    }

    /** Common header 1234 -> 5678, tag 0x01020304, checksum filled, then the given chunk bytes. */
    static ByteBuffer packet(String chunks) {
        byte[] c = hex(chunks);
        ByteBuffer b = ByteBuffer.allocate(12 + c.length);
        b.putShort((short) 1234)
                .putShort((short) 5678)
                .putInt(0x01020304)
                .putInt(0)
                .put(c);
        Crc32c.fill(b, 0, b.capacity());
        return b.flip();
    }

    static ParseError error(ByteBuffer b) {
        Parsed<SctpPacket> p = SctpPacket.decode(b, ChecksumPolicy.VERIFY);
        assertFalse(p.isOk(), "expected a parse error, got " + (p.isOk() ? p.value() : null));
        return p.error();
    }

    @Test
    void crc32cMatchesAnIndependentImplementation() {
        // A COOKIE ACK sent by Linux 6.1 to usrsctp (corpus usrsctp-to-kernel_raw_handshake-data-shutdown.pcap,
        // frame 4, SCTP part): the kernel computed checksum c13f6d18. We compute it from the rest.
        byte[] real = hex("1771ce4c b82ab1d5 c13f6d18 0b000004");
        assertTrue(Crc32c.verify(ByteBuffer.wrap(real), 0, real.length));
        ByteBuffer zeroed = ByteBuffer.wrap(real.clone()).putInt(Crc32c.CHECKSUM_OFFSET, 0);
        assertEquals(0xc13f6d18, Crc32c.compute(zeroed, 0, real.length));
        SctpPacket p =
                SctpPacket.decode(ByteBuffer.wrap(real), ChecksumPolicy.VERIFY).value();
        assertEquals(ByteBuffer.wrap(real), ByteBuffer.wrap(p.toBytes()));
    }

    @Test
    void tooShortForTheCommonHeader() {
        ParseError e = error(ByteBuffer.wrap(new byte[11]));
        assertEquals(ParseErrorKind.PACKET_TOO_SHORT, e.kind());
        assertEquals(ParseError.NO_CHUNK, e.chunkType());
        assertEquals(0, e.offset());
    }

    @Test
    void badChecksumIsCaughtForEveryFlippedBit() {
        ByteBuffer good = packet("0b000004");
        for (int bit = 0; bit < good.limit() * 8; bit++) {
            ByteBuffer b = ByteBuffer.wrap(good.array().clone());
            b.put(bit / 8, (byte) (b.get(bit / 8) ^ (1 << (bit % 8))));
            ParseError e = error(b);
            assertEquals(ParseErrorKind.BAD_CHECKSUM, e.kind(), "bit " + bit);
            assertEquals(Crc32c.CHECKSUM_OFFSET, e.offset());
        }
    }

    @Test
    void noChunkAfterTheHeader() {
        ParseError e = error(packet(""));
        assertEquals(ParseErrorKind.NO_CHUNKS, e.kind());
        assertEquals(12, e.offset());
    }

    @Test
    void chunkHeaderTruncated() {
        // A COOKIE ACK, then 3 stray bytes where a chunk header would start... a 4-aligned packet
        // needs 4 more bytes; give a packet whose length leaves 3 bytes (not 4-aligned, still framed first).
        ParseError e = error(packet("0b000004 0b0000"));
        assertEquals(ParseErrorKind.CHUNK_HEADER_TRUNCATED, e.kind());
        assertEquals(16, e.offset());
    }

    @Test
    void chunkLengthBelowFour() {
        ParseError e = error(packet("0b000003"));
        assertEquals(ParseErrorKind.CHUNK_LENGTH_TOO_SMALL, e.kind());
        assertEquals(ChunkType.COOKIE_ACK, e.chunkType());
        assertEquals(12, e.offset());
    }

    @Test
    void chunkLengthPastThePacket() {
        ParseError e = error(packet("0b000008"));
        assertEquals(ParseErrorKind.CHUNK_LENGTH_PAST_PACKET, e.kind());
        assertEquals(ChunkType.COOKIE_ACK, e.chunkType());
        assertEquals(12, e.offset());
    }

    @Test
    void paddingThatRunsPastThePacket() {
        // DATA with 1 byte of user data: length 17, padded to 20, but the packet ends after 17.
        ParseError e = error(packet("00030011 00000001 00000000 00000000 aa"));
        assertEquals(ParseErrorKind.BAD_PADDING, e.kind());
        assertEquals(ChunkType.DATA, e.chunkType());
        assertEquals(12 + 17, e.offset());
    }

    @Test
    void nonZeroPaddingBytesAreIgnoredAsTheRfcSays() {
        // RFC 9260 section 3.2: "The receiver MUST ignore the padding bytes."
        SctpPacket p = SctpPacket.decode(
                        packet("00030011 00000001 00000000 00000000 aa ffffff 08000004"), ChecksumPolicy.VERIFY)
                .value();
        assertEquals(2, p.chunks().size());
        assertEquals(new ShutdownAckChunk(), p.chunks().get(1));
    }

    @Test
    void zeroChecksumIsRepresentableAndAcceptedOnlyWhenAllowed() {
        SctpPacket p = SctpPacket.of(1, 2, 3, new CookieAckChunk());
        ByteBuffer b = ByteBuffer.allocate(p.encodedLength());
        p.encode(b, true);
        b.flip();
        assertEquals(0, b.getInt(Crc32c.CHECKSUM_OFFSET), "RFC 9653: the checksum field is zero");
        assertEquals(
                ParseErrorKind.BAD_CHECKSUM,
                SctpPacket.decode(b, ChecksumPolicy.VERIFY).error().kind());
        assertEquals(p, SctpPacket.decode(b, ChecksumPolicy.VERIFY_OR_ZERO).value());
        // A non-zero wrong checksum is still refused when zero is acceptable.
        ByteBuffer wrong = ByteBuffer.wrap(b.array().clone());
        wrong.putInt(Crc32c.CHECKSUM_OFFSET, 1);
        assertEquals(
                ParseErrorKind.BAD_CHECKSUM,
                SctpPacket.decode(wrong, ChecksumPolicy.VERIFY_OR_ZERO).error().kind());
        assertTrue(SctpPacket.decode(wrong, ChecksumPolicy.IGNORE).isOk());
    }

    @Test
    void roundTripOfABundle() {
        SctpPacket p = SctpPacket.of(
                5000,
                6000,
                0xdeadbeef,
                new DataChunk(false, true, true, true, 7, 3, 0, 99, Bytes.fromHex("0102030405")),
                new CookieAckChunk());
        assertEquals(
                p,
                SctpPacket.decode(ByteBuffer.wrap(p.toBytes()), ChecksumPolicy.VERIFY)
                        .value());
        assertEquals(12 + 24 + 4, p.encodedLength());
    }
}
