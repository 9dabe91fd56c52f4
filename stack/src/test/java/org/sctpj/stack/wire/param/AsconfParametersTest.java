package org.sctpj.stack.wire.param;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sctpj.stack.wire.param.ParamTests.assertEncodes;
import static org.sctpj.stack.wire.param.ParamTests.assertFails;
import static org.sctpj.stack.wire.param.ParamTests.assertRealBytes;
import static org.sctpj.stack.wire.param.ParamTests.assertRoundTrip;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.cause.DeleteSourceAddressCause;
import org.sctpj.stack.wire.cause.ErrorCause;
import org.sctpj.stack.wire.cause.InvalidStreamIdentifierCause;
import org.sctpj.stack.wire.cause.ResourceShortageCause;
import org.sctpj.stack.wire.chunk.ChunkType;

/** The parameters of RFC 5061 (dynamic address reconfiguration). */
class AsconfParametersTest {

    private static final int INIT = ChunkType.INIT;
    private static final int INIT_ACK = ChunkType.INIT_ACK;
    private static final int ASCONF = ChunkType.ASCONF;
    private static final int ASCONF_ACK = ChunkType.ASCONF_ACK;

    private static InetAddress ip(byte[] bytes) throws Exception {
        return InetAddress.getByAddress(bytes);
    }

    // ---- Supported Extensions

    @Property(tries = 200)
    void supportedExtensionsRoundTrips(@ForAll @Size(max = 20) List<@IntRange(max = 255) Integer> types) {
        assertRoundTrip(new SupportedExtensionsParameter(types), INIT);
    }

    @Test
    void supportedExtensionsEncodes() {
        assertEncodes(SupportedExtensionsParameter.of(0xC0, 0xC1, 0x80, 0x82), "8008 0008 c0c18082", INIT);
        assertEncodes(SupportedExtensionsParameter.of(0x82), "8008 0005 82", INIT);
    }

    @Test
    void supportedExtensionsFromUsrsctp() {
        // kernel-to-usrsctp_raw_abort-linger0-close.pcap, frame 2, INIT ACK sent by usrsctp 0.9.5
        assertRealBytes("80080009c00fc18082", SupportedExtensionsParameter.of(0xC0, 0x0F, 0xC1, 0x80, 0x82), INIT_ACK);
        // kernel-to-usrsctp_raw_idata-fragmented-fsn-abort.pcap, frame 2, INIT ACK sent by usrsctp 0.9.5
        assertRealBytes(
                "8008000bc0c20fc1808240",
                SupportedExtensionsParameter.of(0xC0, 0xC2, 0x0F, 0xC1, 0x80, 0x82, 0x40),
                INIT_ACK);
    }

    @Test
    void supportedExtensionsFromLinux() {
        // kernel-to-usrsctp_raw_idata-fragmented-fsn-abort.pcap, frame 1, INIT sent by Linux 6.1 (I-DATA)
        assertRealBytes("8008000540", SupportedExtensionsParameter.of(0x40), INIT);
        // usrsctp-to-kernel_raw_auth-asconf.pcap, frame 2, INIT ACK sent by Linux 6.1
        assertRealBytes("80080007c1800f", SupportedExtensionsParameter.of(0xC1, 0x80, 0x0F), INIT_ACK);
    }

    // ---- Add IP Address, Delete IP Address, Set Primary Address

    @Property(tries = 200)
    void addressParametersRoundTrip(@ForAll int correlationId, @ForAll boolean v6, @ForAll @Size(16) byte[] raw)
            throws Exception {
        byte[] a = v6 ? raw : java.util.Arrays.copyOf(raw, 4);
        AddressParameter address = v6 ? Ipv6AddressParameter.of(a) : new Ipv4AddressParameter((Inet4Address) ip(a));
        assertRoundTrip(new AddIpAddressParameter(correlationId, address), ASCONF);
        assertRoundTrip(new DeleteIpAddressParameter(correlationId, address), ASCONF);
        assertRoundTrip(new SetPrimaryAddressParameter(correlationId, address), ASCONF);
    }

    @Test
    void addIpEncodes() throws Exception {
        assertEncodes(
                AddIpAddressParameter.of(7, ip(new byte[] {(byte) 192, 0, 2, 1})),
                "c001 0010 00000007 0005 0008 c0000201",
                ASCONF);
        assertEncodes(
                AddIpAddressParameter.of(
                        8, ip(Bytes.fromHex("20010db8000000000000000000000001").toArray())),
                "c001 001c 00000008 0006 0014 20010db8000000000000000000000001",
                ASCONF);
    }

    @Test
    void deleteIpAndSetPrimaryEncode() throws Exception {
        InetAddress a = ip(new byte[] {10, 99, 0, 3});
        assertEncodes(DeleteIpAddressParameter.of(2, a), "c002 0010 00000002 0005 0008 0a630003", ASCONF);
        assertEncodes(SetPrimaryAddressParameter.of(3, a), "c004 0010 00000003 0005 0008 0a630003", ASCONF);
    }

    @Test
    void addressParametersFromUsrsctp() throws Exception {
        AddressParameter a = AddressParameter.of(ip(new byte[] {10, 99, 0, 3}));
        // usrsctp-to-kernel_raw_auth-asconf.pcap, frame 12, ASCONF sent by usrsctp 0.9.5
        assertRealBytes("c001001001000000000500080a630003", new AddIpAddressParameter(0x01000000, a), ASCONF);
        // usrsctp-to-kernel_raw_auth-asconf.pcap, frame 17, ASCONF sent by usrsctp 0.9.5
        assertRealBytes("c004001001000000000500080a630003", new SetPrimaryAddressParameter(0x01000000, a), ASCONF);
        // usrsctp-to-kernel_raw_auth-asconf.pcap, frame 24, ASCONF sent by usrsctp 0.9.5
        assertRealBytes("c002001001000000000500080a630003", new DeleteIpAddressParameter(0x01000000, a), ASCONF);
    }

    @Test
    void addIpTooShortForCorrelationId() {
        assertFails("c001 0006 0000", ASCONF, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
    }

    @Test
    void addIpWithoutAddress() {
        assertFails("c001 0008 00000001", ASCONF, ParseErrorKind.PARAMETER_HEADER_TRUNCATED, 8);
    }

    @Test
    void addIpNestedHeaderTruncated() {
        assertFails("c001 000a 00000001 0005", ASCONF, ParseErrorKind.PARAMETER_HEADER_TRUNCATED, 8);
    }

    @Test
    void deleteIpNestedLengthTooSmall() {
        assertFails("c002 000c 00000001 0005 0002", ASCONF, ParseErrorKind.PARAMETER_LENGTH_TOO_SMALL, 8);
    }

    @Test
    void setPrimaryNestedLengthPastParameter() {
        assertFails("c004 000c 00000001 0005 0008", ASCONF, ParseErrorKind.PARAMETER_LENGTH_PAST_CHUNK, 8);
    }

    @Test
    void addIpNestedNotAnAddress() {
        assertFails("c001 0010 00000001 0009 0008 00001388", ASCONF, ParseErrorKind.INVALID_FIELD_VALUE, 8);
    }

    @Test
    void addIpNestedIpv4OfWrongLength() {
        assertFails("c001 0014 00000001 0005 000c 0a630003 00000000", ASCONF, ParseErrorKind.BAD_PARAMETER_LENGTH, 8);
    }

    @Test
    void addIpNestedIpv6OfWrongLength() {
        assertFails("c001 0010 00000001 0006 0008 0a630003", ASCONF, ParseErrorKind.BAD_PARAMETER_LENGTH, 8);
    }

    @Test
    void addIpBytesAfterAddress() {
        assertFails("c001 0014 00000001 0005 0008 0a630003 00000000", ASCONF, ParseErrorKind.BAD_PARAMETER_LENGTH, 16);
    }

    @Test
    void addressParametersRejectNull() {
        assertThrows(IllegalArgumentException.class, () -> new AddIpAddressParameter(1, null));
    }

    // ---- Error Cause Indication

    @Property(tries = 200)
    void errorCauseIndicationRoundTrips(
            @ForAll int correlationId,
            @ForAll @Size(max = 4) List<@IntRange(max = 65535) Integer> streamIds,
            @ForAll @Size(min = 4, max = 13) byte[] tlvCopy) {
        List<ErrorCause> causes = new java.util.ArrayList<>();
        for (int id : streamIds) {
            causes.add(new InvalidStreamIdentifierCause(id));
        }
        // a TLV-copy cause of every length modulo 4, last in the list so that it stays unpadded
        causes.add(new ResourceShortageCause(Bytes.of(tlvCopy)));
        assertRoundTrip(new ErrorCauseIndicationParameter(correlationId, causes), ASCONF_ACK);
    }

    @Test
    void errorCauseIndicationEncodes() {
        // the first cause padded, the last not: the parameter's own padding follows it. The causes
        // quote TLVs of unaligned lengths (7 and 5 bytes), so both causes have unaligned lengths.
        assertEncodes(
                ErrorCauseIndicationParameter.of(
                        5,
                        new DeleteSourceAddressCause(Bytes.fromHex("c0ab0007 aabbcc")),
                        new ResourceShortageCause(Bytes.fromHex("c0ac0005 dd"))),
                "c003 001d 00000005 00a2 000b c0ab0007 aabbcc00 00a1 0009 c0ac0005 dd",
                ASCONF_ACK);
    }

    @Test
    void errorCauseIndicationWithoutCauses() {
        assertEncodes(ErrorCauseIndicationParameter.of(5), "c003 0008 00000005", ASCONF_ACK);
    }

    @Test
    void errorCauseIndicationTooShort() {
        assertFails("c003 0006 0000", ASCONF_ACK, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
    }

    @Test
    void errorCauseIndicationCauseHeaderTruncated() {
        assertFails("c003 000a 00000005 00a1", ASCONF_ACK, ParseErrorKind.PARAMETER_HEADER_TRUNCATED, 8);
    }

    @Test
    void errorCauseIndicationCauseLengthTooSmall() {
        assertFails("c003 000c 00000005 00a1 0003", ASCONF_ACK, ParseErrorKind.PARAMETER_LENGTH_TOO_SMALL, 8);
    }

    @Test
    void errorCauseIndicationCauseLengthPastParameter() {
        assertFails("c003 000c 00000005 00a1 0010", ASCONF_ACK, ParseErrorKind.PARAMETER_LENGTH_PAST_CHUNK, 8);
    }

    @Test
    void errorCauseIndicationMalformedCause() {
        // an Invalid Stream Identifier cause must be 8 bytes long
        assertFails("c003 000e 00000005 0001 0006 0009", ASCONF_ACK, ParseErrorKind.BAD_PARAMETER_LENGTH, 8);
    }

    @Test
    void errorCauseIndicationDecodesKnownCauses() {
        Parameter p = ParamTests.decodeOk("c003 0010 00000005 0001 0008 0009 0000", ASCONF_ACK);
        assertEquals(ErrorCauseIndicationParameter.of(5, new InvalidStreamIdentifierCause(9)), p);
    }

    // ---- Success Indication

    @Property(tries = 200)
    void successIndicationRoundTrips(@ForAll int correlationId) {
        assertRoundTrip(new SuccessIndicationParameter(correlationId), ASCONF_ACK);
    }

    @Test
    void successIndicationEncodes() {
        assertEncodes(new SuccessIndicationParameter(0x01000000), "c005 0008 01000000", ASCONF_ACK);
    }

    @Test
    void successIndicationWrongLength() {
        assertFails("c005 0004", ASCONF_ACK, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
        assertFails("c005 0009 01000000 00", ASCONF_ACK, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
    }

    // ---- Adaptation Layer Indication

    @Property(tries = 200)
    void adaptationLayerIndicationRoundTrips(@ForAll int indication) {
        assertRoundTrip(new AdaptationLayerIndicationParameter(indication), INIT);
    }

    @Test
    void adaptationLayerIndicationEncodes() {
        assertEncodes(new AdaptationLayerIndicationParameter(0xC0FFEE), "c006 0008 00c0ffee", INIT);
    }

    @Test
    void adaptationLayerIndicationFromUsrsctp() {
        // usrsctp-to-kernel_raw_handshake-data-shutdown.pcap, frame 1, INIT sent by usrsctp 0.9.5 ("USRS")
        assertRealBytes("c006000855535253", new AdaptationLayerIndicationParameter(0x55535253), INIT);
    }

    @Test
    void adaptationLayerIndicationFromLinux() {
        // usrsctp-to-kernel_raw_handshake-data-shutdown.pcap, frame 2, INIT ACK sent by Linux 6.1 ("KERN")
        assertRealBytes("c00600084b45524e", new AdaptationLayerIndicationParameter(0x4B45524E), INIT_ACK);
    }

    @Test
    void adaptationLayerIndicationWrongLength() {
        assertFails("c006 0006 0000", INIT, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
    }
}
