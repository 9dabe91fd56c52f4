package org.sctpj.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class FramesTest {

    private static final HexFormat HEX = HexFormat.of();

    private static byte[] hex(String s) {
        return HEX.parseHex(s.replaceAll("\\s", ""));
    }

    private static Inet4Address v4(String s) throws Exception {
        return (Inet4Address) InetAddress.getByName(s);
    }

    private static Inet6Address v6(String s) throws Exception {
        return (Inet6Address) InetAddress.getByName(s);
    }

    /**
     * The textbook IPv4 header (192.168.0.1 -> 192.168.0.199, UDP, total length 0x73, id 0, DF,
     * TTL 64) whose checksum is 0xB861: words 4500+0073+0000+4000+4011+c0a8+0001+c0a8+00c7 =
     * 0x2479C, folded 0x479E, complement 0xB861.
     */
    @Test
    void ipv4HeaderChecksumMatchesHandComputedExample() throws Exception {
        byte[] packet = Frames.ipv4(v4("192.168.0.1"), v4("192.168.0.199"), 17, 0, new byte[0x73 - 20]);
        assertEquals(0x73, packet.length);
        assertEquals("45000073000040004011b861c0a80001c0a800c7", HEX.formatHex(Arrays.copyOf(packet, 20)));
    }

    @Test
    void ipv4CarriesProtocolIdentificationAndPayload() throws Exception {
        byte[] payload = {1, 2, 3};
        byte[] packet = Frames.ipv4(v4("10.0.0.1"), v4("10.0.0.2"), Frames.PROTOCOL_SCTP, 0x1234, payload);
        // 4500+0017+1234+4000+4084+0a00+0001+0a00+0002 = 0xEBD2 -> checksum 0x142D
        assertEquals("45000017123440004084" + "142d" + "0a000001" + "0a000002" + "010203", HEX.formatHex(packet));
        assertEquals(0xffff, Frames.onesComplementSum(0, packet, 0, 20), "header sums to all ones");
    }

    @Test
    void ipv4RejectsOversizedPayloadAndBadFields() throws Exception {
        Inet4Address a = v4("10.0.0.1");
        assertThrows(IllegalArgumentException.class, () -> Frames.ipv4(a, a, 132, 0, new byte[65516]));
        assertEquals(65535, Frames.ipv4(a, a, 132, 0, new byte[65515]).length);
        assertThrows(IllegalArgumentException.class, () -> Frames.ipv4(a, a, 256, 0, new byte[1]));
        assertThrows(IllegalArgumentException.class, () -> Frames.ipv4(a, a, 132, 0x10000, new byte[1]));
    }

    @Test
    void ipv6Header() throws Exception {
        byte[] packet = Frames.ipv6(v6("2001:db8::1"), v6("2001:db8::2"), Frames.PROTOCOL_SCTP, new byte[] {9, 8});
        assertEquals(
                "60000000" + "0002" + "84" + "40"
                        + "20010db8000000000000000000000001"
                        + "20010db8000000000000000000000002"
                        + "0908",
                HEX.formatHex(packet));
    }

    /**
     * UDP over IPv4, 10.0.0.1:9899 -> 10.0.0.2:9899, data 01020304. Pseudo-header 0a00+0001+0a00+
     * 0002+0011+000c = 0x1420; header 26ab+26ab+000c = 0x4D62; data 0102+0304 = 0x0406; total
     * 0x6588, checksum 0x9A77.
     */
    @Test
    void udpOverIpv4ChecksumMatchesHandComputed() throws Exception {
        byte[] d = Frames.udp(v4("10.0.0.1"), 9899, v4("10.0.0.2"), 9899, hex("01020304"));
        assertEquals("26ab26ab000c9a7701020304", HEX.formatHex(d));
    }

    /**
     * Odd length: data 0102030405, the last byte padded to 0500. Pseudo-header 0x1421, header
     * 0x4D63, data 0x0406 + 0x0500; total 0x6A8A, checksum 0x9575.
     */
    @Test
    void udpOddLengthPadsLastByteForTheSum() throws Exception {
        byte[] d = Frames.udp(v4("10.0.0.1"), 9899, v4("10.0.0.2"), 9899, hex("0102030405"));
        assertEquals("26ab26ab000d95750102030405", HEX.formatHex(d));
    }

    /**
     * UDP over IPv6, [2001:db8::1]:9899 -> [2001:db8::2]:9899, data 01020304. Pseudo-header
     * (RFC 8200 section 8.1): 2001+0db8+0001 + 2001+0db8+0002 + 0000+000c + 0000+0011 = 0x5B92;
     * header 0x4D62; data 0x0406; total 0xACFA, checksum 0x5305.
     */
    @Test
    void udpOverIpv6ChecksumMatchesHandComputed() throws Exception {
        byte[] d = Frames.udp(v6("2001:db8::1"), 9899, v6("2001:db8::2"), 9899, hex("01020304"));
        assertEquals("26ab26ab000c530501020304", HEX.formatHex(d));
    }

    /**
     * A datagram whose sum is all ones has a computed checksum of zero, which UDP sends as 0xFFFF
     * (zero means "no checksum"). 10.0.0.1:9899 -> 10.0.0.2:9899 with data 9e81: pseudo-header
     * 0x141E, header 0x4D60, data 0x9E81, total 0xFFFF.
     */
    @Test
    void udpZeroChecksumIsSentAsAllOnes() throws Exception {
        byte[] d = Frames.udp(v4("10.0.0.1"), 9899, v4("10.0.0.2"), 9899, hex("9e81"));
        assertEquals("26ab26ab000affff9e81", HEX.formatHex(d));
    }

    @Test
    void udpRejectsMixedFamiliesAndBadPorts() throws Exception {
        assertThrows(
                IllegalArgumentException.class, () -> Frames.udp(v4("10.0.0.1"), 1, v6("2001:db8::2"), 2, new byte[1]));
        assertThrows(
                IllegalArgumentException.class, () -> Frames.udp(v4("10.0.0.1"), -1, v4("10.0.0.2"), 2, new byte[1]));
        assertThrows(
                IllegalArgumentException.class,
                () -> Frames.udp(v4("10.0.0.1"), 1, v4("10.0.0.2"), 2, new byte[65528]));
    }

    @Test
    void ethernetFrameAndDerivedMacs() throws Exception {
        byte[] dst = Frames.macFor(v4("10.99.0.2"));
        byte[] src = Frames.macFor(v6("2001:db8::a:b"));
        assertEquals("0200 0a630002".replace(" ", ""), HEX.formatHex(dst));
        assertEquals("0200000a000b", HEX.formatHex(src));
        byte[] f = Frames.ethernet(dst, src, Frames.ETHERTYPE_IPV6, hex("aabb"));
        assertEquals("02000a630002" + "0200000a000b" + "86dd" + "aabb", HEX.formatHex(f));
        assertThrows(IllegalArgumentException.class, () -> Frames.ethernet(new byte[5], src, 0x800, new byte[0]));
    }

    /**
     * Real UDP-encapsulated frames captured between Linux 6.1 and usrsctp 0.9.5.0 (corpus file
     * kernel-to-usrsctp_udp_handshake-data-shutdown.pcap, every frame, both senders; UDP checksums
     * there are final): rebuilding each UDP datagram from its addresses, ports and payload gives
     * the captured bytes, checksum included, and every captured IPv4 header sums to all ones.
     */
    @Test
    void rebuildsRealUdpDatagramsFromTheCorpus() throws Exception {
        byte[] file;
        try (InputStream in =
                getClass().getResourceAsStream("/corpus/kernel-to-usrsctp_udp_handshake-data-shutdown.pcap")) {
            file = in.readAllBytes();
        }
        ByteBuffer f = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0xa1b2c3d4, f.getInt(0), "little-endian microsecond pcap");
        assertEquals(1, f.getInt(20), "Ethernet");
        int off = 24;
        int checked = 0;
        while (off + 16 <= file.length) {
            int incl = f.getInt(off + 8);
            ByteBuffer frame = ByteBuffer.wrap(file, off + 16, incl).slice();
            off += 16 + incl;
            assertEquals(Frames.ETHERTYPE_IPV4, frame.getShort(12) & 0xffff);
            int ip = Frames.ETHERNET_HEADER_LENGTH;
            int ihl = (frame.get(ip) & 0x0f) * 4;
            int total = frame.getShort(ip + 2) & 0xffff;
            byte[] ipBytes = new byte[total];
            frame.get(ip, ipBytes);
            assertEquals(0xffff, Frames.onesComplementSum(0, ipBytes, 0, ihl), "IPv4 header checksum");
            assertEquals(Frames.PROTOCOL_UDP, ipBytes[9] & 0xff);
            Inet4Address src = (Inet4Address) InetAddress.getByAddress(Arrays.copyOfRange(ipBytes, 12, 16));
            Inet4Address dst = (Inet4Address) InetAddress.getByAddress(Arrays.copyOfRange(ipBytes, 16, 20));
            byte[] udp = Arrays.copyOfRange(ipBytes, ihl, total);
            ByteBuffer u = ByteBuffer.wrap(udp);
            byte[] payload = Arrays.copyOfRange(udp, 8, udp.length);
            byte[] rebuilt = Frames.udp(src, u.getShort(0) & 0xffff, dst, u.getShort(2) & 0xffff, payload);
            assertArrayEquals(udp, rebuilt, "UDP datagram " + src + " -> " + dst);
            checked++;
        }
        assertTrue(checked >= 8, "frames checked: " + checked);
    }

    @Test
    void onesComplementSumFoldsCarries() {
        assertEquals(0x0001, Frames.onesComplementSum(0, hex("ffff0001"), 0, 4) & 0xffff);
        assertEquals(0xffff, Frames.onesComplementSum(0xffff, hex("ffff"), 0, 2));
        assertEquals(0xab00, Frames.onesComplementSum(0, hex("ab"), 0, 1));
    }
}
