package org.sctpj.stack.wire.param;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.stack.wire.param.ParamTests.assertEncodes;
import static org.sctpj.stack.wire.param.ParamTests.assertFails;
import static org.sctpj.stack.wire.param.ParamTests.assertRealBytes;
import static org.sctpj.stack.wire.param.ParamTests.assertRoundTrip;
import static org.sctpj.stack.wire.param.ParamTests.decodeOk;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.chunk.ChunkType;

/** The parameters of RFC 9260 itself, with ECN Capable of its Appendix A. */
class Rfc9260ParametersTest {

    private static final int INIT = ChunkType.INIT;
    private static final int INIT_ACK = ChunkType.INIT_ACK;
    private static final int HEARTBEAT = ChunkType.HEARTBEAT;

    // ---- Heartbeat Info

    @Property(tries = 200)
    void heartbeatInfoRoundTrips(@ForAll @Size(max = 80) byte[] info) {
        assertRoundTrip(new HeartbeatInfoParameter(Bytes.of(info)), HEARTBEAT);
    }

    @Test
    void heartbeatInfoEncodes() {
        assertEncodes(new HeartbeatInfoParameter(Bytes.fromHex("0a0b0c")), "0001 0007 0a0b0c", HEARTBEAT);
        assertEncodes(new HeartbeatInfoParameter(Bytes.EMPTY), "0001 0004", HEARTBEAT);
    }

    @Test
    void heartbeatInfoFromLinux() {
        // kernel-to-usrsctp_udp_heartbeat-idle.pcap, frame 13, HEARTBEAT sent by Linux 6.1
        String hex = "000100380200179a0a63000100000000000000000000000000000000000000004043ffff00000000"
                + "515f59eed599f5e90000000000000000";
        assertRealBytes(hex, new HeartbeatInfoParameter(Bytes.fromHex(hex.substring(8))), HEARTBEAT);
    }

    @Test
    void heartbeatInfoFromUsrsctp() {
        // kernel-to-usrsctp_udp_heartbeat-idle.pcap, frame 9, HEARTBEAT sent by usrsctp 0.9.5
        String hex = "00010028da3f026bd61a0c000000000000000000021000000a630002000000000000000000000000";
        assertRealBytes(hex, new HeartbeatInfoParameter(Bytes.fromHex(hex.substring(8))), HEARTBEAT);
    }

    @Test
    void heartbeatInfoFromCraftedPeer() {
        // crafted-to-kernel_raw_error-invalid-stream-unrecognized-chunk.pcap, frame 18, HEARTBEAT from
        // the hand-made Python sender (odd length 35), echoed by Linux 6.1 in frame 19
        String hex = "00010023637261667465642d6865617274626561742d696e666f3a41dac0903f7c81dc";
        assertRealBytes(hex, new HeartbeatInfoParameter(Bytes.fromHex(hex.substring(8))), HEARTBEAT);
    }

    // ---- IPv4 Address

    @Property(tries = 200)
    void ipv4RoundTrips(@ForAll @Size(value = 4) byte[] address) throws Exception {
        assertRoundTrip(new Ipv4AddressParameter((Inet4Address) InetAddress.getByAddress(address)), INIT);
    }

    @Test
    void ipv4Encodes() throws Exception {
        assertEncodes(
                new Ipv4AddressParameter((Inet4Address) InetAddress.getByAddress(new byte[] {(byte) 192, 0, 2, 1})),
                "0005 0008 c0000201",
                INIT);
    }

    @Test
    void ipv4FromLinux() throws Exception {
        // kernel-to-usrsctp_udp_multihomed-heartbeats.pcap, frame 1, INIT sent by Linux 6.1
        assertRealBytes(
                "000500080a630004",
                new Ipv4AddressParameter((Inet4Address) InetAddress.getByAddress(new byte[] {10, 99, 0, 4})),
                INIT);
    }

    @Test
    void ipv4WrongLength() {
        assertFails("0005 000c 0a630004 00000000", INIT, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
        assertFails("0005 0006 0a63", INIT, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
    }

    // ---- IPv6 Address

    @Property(tries = 200)
    void ipv6RoundTrips(@ForAll @Size(value = 16) byte[] address) {
        Ipv6AddressParameter p = Ipv6AddressParameter.of(address);
        assertRoundTrip(p, INIT);
        assertEquals(Bytes.of(address), Bytes.of(p.address().getAddress()));
    }

    @Test
    void ipv6Encodes() {
        assertEncodes(
                Ipv6AddressParameter.of(
                        Bytes.fromHex("20010db8000000000000000000000001").toArray()),
                "0006 0014 20010db8000000000000000000000001",
                INIT);
    }

    @Test
    void ipv6KeepsV4MappedAddressesAsIpv6() {
        Parameter p = decodeOk("0006 0014 00000000000000000000ffffc0000201", INIT);
        assertInstanceOf(Inet6Address.class, ((Ipv6AddressParameter) p).address());
    }

    @Test
    void ipv6TooShort() {
        assertFails("0006 0010 20010db8000000000000000000000000", INIT, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
    }

    @Test
    void ipv6TooLong() {
        assertFails(
                "0006 0018 20010db80000000000000000000000010000000000", INIT, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
    }

    @Test
    void ipv6RejectsWrongSize() {
        assertThrows(IllegalArgumentException.class, () -> Ipv6AddressParameter.of(new byte[4]));
    }

    // ---- State Cookie

    @Property(tries = 200)
    void stateCookieRoundTrips(@ForAll @Size(max = 300) byte[] cookie) {
        assertRoundTrip(new StateCookieParameter(Bytes.of(cookie)), INIT_ACK);
    }

    @Test
    void stateCookieEncodes() {
        assertEncodes(new StateCookieParameter(Bytes.fromHex("c0ffee00")), "0007 0008 c0ffee00", INIT_ACK);
    }

    @Test
    void stateCookieFromLinux() {
        // crafted-to-kernel_raw_abort-protocol-violation.pcap, frame 2, INIT ACK sent by Linux 6.1
        String hex = "000700e8d75e5e2c1fcf6516d11aa25e3e087fed475d358200000000000000000000000000000000dc06560e"
                + "31cbd83700000000000000005c611d9ee138ea18080008006fb6747902009c990a6300010000000000000000"
                + "0000000000000000000000004318000000000000800200242ee82f98b5d960cb42446685f25c7392e50200f9"
                + "4965e3b5f2530f6bf446efb60000000000000000000000000000000000000000000000000000000000000000"
                + "000000000100001a37d8cb3100010000000800089574725f000c0006000500000000000000000000000000000000"
                + "00000000000000000000";
        StateCookieParameter p = (StateCookieParameter) decodeOk(hex, INIT_ACK);
        assertEquals(232 - 4, p.cookie().length());
        assertRealBytes(hex, p, INIT_ACK);
    }

    // ---- Unrecognized Parameter

    @Property(tries = 200)
    void unrecognizedParameterRoundTrips(@ForAll @Size(max = 64) byte[] quoted) {
        assertRoundTrip(new UnrecognizedParameter(Bytes.of(quoted)), INIT_ACK);
    }

    @Test
    void unrecognizedParameterEncodes() {
        assertEncodes(new UnrecognizedParameter(Bytes.fromHex("c0070004")), "0008 0008 c0070004", INIT_ACK);
    }

    @Test
    void unrecognizedParameterQuotesWithPadding() {
        UnrecognizedParameter p = UnrecognizedParameter.of(new UnknownParameter(0xC0AB, Bytes.fromHex("7a7a7a")));
        assertEquals(Bytes.fromHex("c0ab0007 7a7a7a00"), p.parameter());
        assertEncodes(p, "0008 000c c0ab0007 7a7a7a00", INIT_ACK);
        assertEquals(
                new UnknownParameter(0xC0AB, Bytes.fromHex("7a7a7a")),
                p.decodeQuoted(INIT_ACK).value());
    }

    @Test
    void unrecognizedParameterDecodesKnownQuotedType() {
        UnrecognizedParameter p = new UnrecognizedParameter(Bytes.fromHex("00090008000007e6"));
        assertEquals(
                new CookiePreservativeParameter(2022), p.decodeQuoted(INIT_ACK).value());
    }

    @Test
    void unrecognizedParameterReportsBrokenQuote() {
        var r = new UnrecognizedParameter(Bytes.fromHex("c0ab00")).decodeQuoted(INIT_ACK);
        assertFalse(r.isOk());
        assertEquals(ParseErrorKind.PARAMETER_HEADER_TRUNCATED, r.error().kind());
        assertEquals(0, r.error().offset());
        var r2 = new UnrecognizedParameter(Bytes.fromHex("c0ab0010")).decodeQuoted(INIT_ACK);
        assertEquals(ParseErrorKind.PARAMETER_LENGTH_PAST_CHUNK, r2.error().kind());
    }

    @Test
    void unrecognizedParameterFromLinux() {
        // crafted-to-kernel_udp_init-unrecognized-params.pcap, frame 2, INIT ACK sent by Linux 6.1,
        // quoting parameter 0xC0AB of the crafted INIT
        String hex = "00080014c0ab00107265706f72742d6d65212121";
        UnrecognizedParameter expected = new UnrecognizedParameter(Bytes.fromHex(hex.substring(8)));
        assertRealBytes(hex, expected, INIT_ACK);
        assertEquals(
                new UnknownParameter(0xC0AB, Bytes.fromHex("7265706f72742d6d65212121")),
                expected.decodeQuoted(INIT_ACK).value());
    }

    @Test
    void unrecognizedParameterNatFriendlyFromLinux() {
        // usrsctp-to-kernel_udp_unrecognized-param-nat-friendly.pcap, frame 2, INIT ACK sent by Linux
        // 6.1, quoting the NAT-friendly parameter 0xC007 of the usrsctp INIT
        assertRealBytes("00080008c0070004", new UnrecognizedParameter(Bytes.fromHex("c0070004")), INIT_ACK);
    }

    // ---- Cookie Preservative

    @Property(tries = 200)
    void cookiePreservativeRoundTrips(@ForAll int increment) {
        assertRoundTrip(new CookiePreservativeParameter(increment), INIT);
    }

    @Test
    void cookiePreservativeEncodes() {
        assertEncodes(new CookiePreservativeParameter(5000), "0009 0008 00001388", INIT);
        assertEncodes(new CookiePreservativeParameter(0xFFFFFFFF), "0009 0008 ffffffff", INIT);
    }

    @Test
    void cookiePreservativeFromUsrsctp() {
        // usrsctp-to-kernel_raw_stale-cookie-error.pcap, frame 5, INIT sent by usrsctp 0.9.5
        assertRealBytes("00090008000007e6", new CookiePreservativeParameter(2022), INIT);
    }

    @Test
    void cookiePreservativeWrongLength() {
        assertFails("0009 0006 0000", INIT, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
        assertFails("0009 000c 00001388 00000000", INIT, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
    }

    // ---- Host Name Address

    @Property(tries = 200)
    void hostNameRoundTrips(
            @ForAll @StringLength(min = 1, max = 60) @CharRange(from = '!', to = '~') String name,
            @ForAll @IntRange(max = 5) int extraNuls) {
        HostNameAddressParameter p = HostNameAddressParameter.of(name);
        assertRoundTrip(p, INIT);
        byte[] v = new byte[p.value().length() + extraNuls];
        System.arraycopy(p.value().toArray(), 0, v, 0, p.value().length());
        assertRoundTrip(new HostNameAddressParameter(name, Bytes.of(v)), INIT);
    }

    @Test
    void hostNameEncodes() {
        assertEncodes(HostNameAddressParameter.of("ab.c"), "000b 0009 61622e6300", INIT);
    }

    @Test
    void hostNameWithPaddingNulsKeepsThem() {
        HostNameAddressParameter p = (HostNameAddressParameter) decodeOk("000b 000c 61622e63 00000000", INIT);
        assertEquals("ab.c", p.hostName());
        assertEquals(Bytes.fromHex("61622e6300000000"), p.value());
    }

    @Test
    void hostNameFromCraftedPeer() {
        // crafted-to-kernel_udp_init-rejected-abort.pcap, frame 1, INIT from the hand-made Python sender
        // (not a real stack); Linux 6.1 answers with ABORT / Unresolvable Address
        String hex = "000b0019706565722e6578616d706c652e696e76616c696400";
        assertRealBytes(hex, HostNameAddressParameter.of("peer.example.invalid"), INIT);
    }

    @Test
    void hostNameWithoutNul() {
        assertFails("000b 0008 61626364", INIT, ParseErrorKind.INVALID_FIELD_VALUE, 4);
    }

    @Test
    void hostNameEmpty() {
        assertFails("000b 0008 00000000", INIT, ParseErrorKind.INVALID_FIELD_VALUE, 4);
        assertFails("000b 0004", INIT, ParseErrorKind.INVALID_FIELD_VALUE, 4);
    }

    @Test
    void hostNameNotAscii() {
        assertFails("000b 0008 61c3a900", INIT, ParseErrorKind.INVALID_FIELD_VALUE, 4);
    }

    @Test
    void hostNameRejectsInconsistentFields() {
        assertThrows(IllegalArgumentException.class, () -> HostNameAddressParameter.of(""));
        assertThrows(IllegalArgumentException.class, () -> HostNameAddressParameter.of("caf\u00e9"));
        assertThrows(IllegalArgumentException.class, () -> new HostNameAddressParameter("ab", Bytes.fromHex("616300")));
        assertThrows(IllegalArgumentException.class, () -> new HostNameAddressParameter("ab", Bytes.fromHex("6162")));
    }

    // ---- Supported Address Types

    @Property(tries = 200)
    void supportedAddressTypesRoundTrips(@ForAll @Size(max = 10) List<@IntRange(max = 65535) Integer> types) {
        assertRoundTrip(new SupportedAddressTypesParameter(types), INIT);
    }

    @Test
    void supportedAddressTypesEncodes() {
        assertEncodes(SupportedAddressTypesParameter.of(5, 6), "000c 0008 0005 0006", INIT);
        assertEncodes(SupportedAddressTypesParameter.of(5, 6, 11), "000c 000a 0005 0006 000b", INIT);
    }

    @Test
    void supportedAddressTypesFromUsrsctp() {
        // usrsctp-to-kernel_raw_handshake-data-shutdown.pcap, frame 1, INIT sent by usrsctp 0.9.5
        assertRealBytes("000c00060005", SupportedAddressTypesParameter.of(5), INIT);
    }

    @Test
    void supportedAddressTypesFromLinux() {
        // kernel-to-usrsctp_raw_abort-linger0-close.pcap, frame 1, INIT sent by Linux 6.1
        assertRealBytes("000c00060005", SupportedAddressTypesParameter.of(5), INIT);
    }

    @Test
    void supportedAddressTypesOddByteCount() {
        assertFails("000c 0007 0005 06", INIT, ParseErrorKind.LIST_LENGTH_MISMATCH, 4);
    }

    @Test
    void supportedAddressTypesRejectsOutOfRange() {
        assertThrows(IllegalArgumentException.class, () -> SupportedAddressTypesParameter.of(65536));
    }

    // ---- ECN Capable (Appendix A)

    @Test
    void ecnCapableEncodesAndDecodes() {
        assertEncodes(EcnCapableParameter.INSTANCE, "8000 0004", INIT);
        assertRoundTrip(new EcnCapableParameter(), INIT);
    }

    @Test
    void ecnCapableFromLinux() {
        // kernel-to-usrsctp_raw_abort-linger0-close.pcap, frame 1, INIT sent by Linux 6.1
        assertRealBytes("80000004", EcnCapableParameter.INSTANCE, INIT);
    }

    @Test
    void ecnCapableWithValue() {
        assertFails("8000 0008 00000000", INIT, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
    }

    @Test
    void ecnCapableDecodesToTheSharedInstance() {
        assertSame(EcnCapableParameter.INSTANCE, decodeOk("80000004", INIT));
        assertTrue(EcnCapableParameter.INSTANCE.equals(new EcnCapableParameter()));
    }
}
