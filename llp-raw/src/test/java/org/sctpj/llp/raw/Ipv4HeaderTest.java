package org.sctpj.llp.raw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class Ipv4HeaderTest {

    /** 20-byte header, DF, TTL 64, protocol 132, 10.99.0.2 -> 10.99.0.1, then 12 bytes of SCTP header. */
    static final String HEADER = "45000020" + "12344000" + "4084" + "0000" + "0a630002" + "0a630001";

    static final String SCTP = "138913880000000000000000";

    static ByteBuffer at(int offset, String hex) {
        byte[] b = HexFormat.of().parseHex(hex);
        ByteBuffer buf = ByteBuffer.allocate(offset + b.length + 7);
        buf.put(offset, b);
        return buf;
    }

    @Test
    void plainHeaderIsTwentyBytes() {
        ByteBuffer b = at(5, HEADER + SCTP);
        assertEquals(20, Ipv4Header.headerLength(b, 5, 32));
        assertEquals(32, Ipv4Header.totalLength(b, 5));
        assertEquals(0x0a630002, Ipv4Header.source(b, 5));
        assertEquals(0x0a630001, Ipv4Header.destination(b, 5));
    }

    @Test
    void optionsAreSkippedByIhl() {
        // IHL 6: one option word (a Router Alert option, RFC 2113), total 36.
        String h = "46000024" + "12344000" + "4084" + "0000" + "0a630002" + "0a630001" + "94040000";
        ByteBuffer b = at(0, h + SCTP);
        assertEquals(24, Ipv4Header.headerLength(b, 0, 36));
    }

    @Test
    void byteOrderOfTheBufferDoesNotMatter() {
        ByteBuffer b = at(0, HEADER + SCTP).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        assertEquals(20, Ipv4Header.headerLength(b, 0, 32));
        assertEquals(32, Ipv4Header.totalLength(b, 0));
        assertEquals(0x0a630001, Ipv4Header.destination(b, 0));
    }

    @Test
    void trailingBytesBeyondTotalLengthAreAllowed() {
        ByteBuffer b = at(0, HEADER + SCTP + "00000000");
        assertEquals(20, Ipv4Header.headerLength(b, 0, 36));
        assertEquals(32, Ipv4Header.totalLength(b, 0));
    }

    @Test
    void tooShort() {
        assertEquals(Ipv4Header.TOO_SHORT, Ipv4Header.headerLength(at(0, HEADER), 0, 19));
    }

    @Test
    void notVersionFour() {
        assertEquals(Ipv4Header.NOT_IPV4, Ipv4Header.headerLength(at(0, "6" + HEADER.substring(1) + SCTP), 0, 32));
    }

    @Test
    void ihlBelowFive() {
        assertEquals(Ipv4Header.BAD_IHL, Ipv4Header.headerLength(at(0, "44" + HEADER.substring(2) + SCTP), 0, 32));
    }

    @Test
    void ihlPastTheBytes() {
        assertEquals(Ipv4Header.BAD_IHL, Ipv4Header.headerLength(at(0, "4f" + HEADER.substring(2) + SCTP), 0, 32));
    }

    @Test
    void totalLengthBelowTheHeader() {
        String h = "45000013" + HEADER.substring(8);
        assertEquals(Ipv4Header.BAD_TOTAL_LENGTH, Ipv4Header.headerLength(at(0, h + SCTP), 0, 32));
    }

    @Test
    void totalLengthPastTheBytes() {
        String h = "45000021" + HEADER.substring(8);
        assertEquals(Ipv4Header.BAD_TOTAL_LENGTH, Ipv4Header.headerLength(at(0, h + SCTP), 0, 32));
    }

    @Test
    void fragmentsAreRefused() {
        String mf = HEADER.substring(0, 12) + "2000" + HEADER.substring(16);
        String offset = HEADER.substring(0, 12) + "0001" + HEADER.substring(16);
        assertEquals(Ipv4Header.FRAGMENT, Ipv4Header.headerLength(at(0, mf + SCTP), 0, 32));
        assertEquals(Ipv4Header.FRAGMENT, Ipv4Header.headerLength(at(0, offset + SCTP), 0, 32));
    }

    @Test
    void otherProtocolsAreRefused() {
        String udp = HEADER.substring(0, 18) + "11" + HEADER.substring(20);
        assertEquals(Ipv4Header.NOT_SCTP, Ipv4Header.headerLength(at(0, udp + SCTP), 0, 32));
    }

    @Test
    void everyResultHasAName() {
        for (int r = -6; r <= -1; r++) {
            assertEquals(false, Ipv4Header.describe(r).startsWith("unknown"), "result " + r);
        }
        assertEquals("header of 20 bytes", Ipv4Header.describe(20));
        assertEquals("unknown (-9)", Ipv4Header.describe(-9));
    }

    @Test
    void neverThrowsOnAnyShortOrRandomBytes() {
        java.util.SplittableRandom r = new java.util.SplittableRandom(7);
        for (int i = 0; i < 100_000; i++) {
            byte[] b = new byte[r.nextInt(0, 70)];
            for (int k = 0; k < b.length; k++) {
                b[k] = (byte) r.nextInt();
            }
            if (b.length > 0 && r.nextBoolean()) {
                b[0] = (byte) (0x40 | (b[0] & 0x0f));
            }
            int result = Ipv4Header.headerLength(ByteBuffer.wrap(b), 0, b.length);
            if (result >= 0) {
                assertEquals(true, result >= 20 && result <= b.length);
                assertEquals(true, Ipv4Header.totalLength(ByteBuffer.wrap(b), 0) <= b.length);
            }
        }
    }
}
