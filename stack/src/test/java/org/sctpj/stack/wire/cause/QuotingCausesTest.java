package org.sctpj.stack.wire.cause;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sctpj.stack.wire.cause.CauseTesting.assertEncodes;
import static org.sctpj.stack.wire.cause.CauseTesting.assertFails;
import static org.sctpj.stack.wire.cause.CauseTesting.assertRoundTrip;
import static org.sctpj.stack.wire.cause.CauseTesting.decodeOk;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ParseError;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.chunk.DataChunk;
import org.sctpj.stack.wire.chunk.UnknownChunk;
import org.sctpj.stack.wire.param.DeleteIpAddressParameter;
import org.sctpj.stack.wire.param.Ipv4AddressParameter;
import org.sctpj.stack.wire.param.UnknownParameter;

/**
 * The causes that quote TLVs of a received packet: Unresolvable Address, Unrecognized Chunk Type,
 * Unrecognized Parameters, Restart with New Addresses (RFC 9260) and the four RFC 5061 causes
 * that copy an ASCONF parameter.
 */
class QuotingCausesTest {

    private static final String DELETE_IP = "c0020010 00000002 00050008 0a630003";
    private static final String ADD_IP = "c0010010 00000001 00050008 0a630003";

    private static Ipv4AddressParameter ipv4(int last) throws Exception {
        return new Ipv4AddressParameter((Inet4Address) InetAddress.getByAddress(new byte[] {10, 99, 0, (byte) last}));
    }

    // ---- Unresolvable Address (RFC 9260 section 3.3.10.5)

    @Property(tries = 200)
    void unresolvableAddressRoundTrips(@ForAll @Size(min = 4, max = 300) byte[] tlv) {
        assertRoundTrip(new UnresolvableAddressCause(Bytes.of(tlv)));
    }

    @Test
    void unresolvableAddressEncodesQuotedParameter() throws Exception {
        UnresolvableAddressCause c = UnresolvableAddressCause.of(ipv4(9));
        assertEncodes(c, "0005 000c 0005 0008 0a630009");
        assertEquals(5, c.addressType());
        assertEquals(ipv4(9), c.decodeAddress().value());
    }

    @Test
    void unresolvableAddressKeepsOddLengthHostName() {
        String hex = "0005 000d 000b 0009 686f737400";
        UnresolvableAddressCause c = (UnresolvableAddressCause) decodeOk(hex + "000000");
        assertEquals(Bytes.fromHex("000b 0009 686f737400"), c.address());
        assertEquals(11, c.addressType());
        assertEncodes(c, hex);
    }

    @Test
    void unresolvableAddressWithoutAddressIsMalformed() {
        assertFails("0005 0004", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    @Test
    void unresolvableAddressWithTruncatedTlvHeaderIsMalformed() {
        assertFails("0005 0007 000b00", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    @Test
    void unresolvableAddressDecodeOfBrokenCopyFailsAsValue() {
        UnresolvableAddressCause c = new UnresolvableAddressCause(Bytes.fromHex("0005 0010 0a630009"));
        ParseError e = c.decodeAddress().error();
        assertEquals(ParseErrorKind.PARAMETER_LENGTH_PAST_CHUNK, e.kind());
        assertEquals(0, e.offset());
        assertEquals(ParseError.NO_CHUNK, e.chunkType());
    }

    // ---- Unrecognized Chunk Type (RFC 9260 section 3.3.10.6)

    @Property(tries = 200)
    void unrecognizedChunkRoundTrips(@ForAll @Size(min = 4, max = 300) byte[] chunk) {
        assertRoundTrip(new UnrecognizedChunkTypeCause(Bytes.of(chunk)));
    }

    @Test
    void unrecognizedChunkOfCopiesChunkWithoutPadding() {
        UnknownChunk chunk = new UnknownChunk(0x7e, 0x01, Bytes.fromHex("0102030405"));
        UnrecognizedChunkTypeCause c = UnrecognizedChunkTypeCause.of(chunk);
        assertEncodes(c, "0006 000d 7e010009 0102030405");
        assertEquals(0x7e, c.chunkType());
        assertEquals(chunk, c.decodeChunk().value());
    }

    @Test
    void unrecognizedChunkOfKnownChunkQuotesItsEncoding() {
        DataChunk data = new DataChunk(false, false, true, true, 1, 2, 3, 4, Bytes.of((byte) 0x55));
        UnrecognizedChunkTypeCause c = UnrecognizedChunkTypeCause.of(data);
        assertEncodes(c, "0006 0015 00030011 00000001 00020003 00000004 55");
        assertEquals(data, c.decodeChunk().value());
    }

    @Test
    void unrecognizedChunkKeepsPaddedCopy() {
        String hex = "0006 0010 7e000009 0102030405000000";
        UnrecognizedChunkTypeCause c = (UnrecognizedChunkTypeCause) decodeOk(hex);
        assertEquals(12, c.chunk().length());
        assertEncodes(c, hex);
        assertEquals(
                new UnknownChunk(0x7e, 0, Bytes.fromHex("0102030405")),
                c.decodeChunk().value());
    }

    @Test
    void unrecognizedChunkDecodeOfTruncatedCopyFailsAsValue() {
        UnrecognizedChunkTypeCause c = (UnrecognizedChunkTypeCause) decodeOk("0006 000c 7e000040 01020304");
        ParseError e = c.decodeChunk().error();
        assertEquals(ParseErrorKind.CHUNK_LENGTH_PAST_PACKET, e.kind());
        assertEquals(0x7e, e.chunkType());
        assertEquals(0, e.offset());
    }

    @Test
    void unrecognizedChunkWithoutChunkIsMalformed() {
        assertFails("0006 0004", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    @Test
    void unrecognizedChunkWithPartialChunkHeaderIsMalformed() {
        assertFails("0006 0006 7e00", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    // ---- Unrecognized Parameters (RFC 9260 section 3.3.10.8)

    @Property(tries = 200)
    void unrecognizedParametersRoundTrips(@ForAll @Size(min = 4, max = 300) byte[] params) {
        assertRoundTrip(new UnrecognizedParametersCause(Bytes.of(params)));
    }

    @Test
    void unrecognizedParametersOfPadsAllButLast() {
        UnknownParameter a = new UnknownParameter(0xc0ab, Bytes.fromHex("010203"));
        UnknownParameter b = new UnknownParameter(0xc007, Bytes.fromHex("aa"));
        UnrecognizedParametersCause c = UnrecognizedParametersCause.of(List.of(a, b));
        assertEncodes(c, "0008 0011 c0ab0007 01020300 c0070005 aa");
        assertEquals(List.of(a, b), c.decodeParameters().value());
    }

    @Test
    void unrecognizedParametersWithoutParameterIsMalformed() {
        assertFails("0008 0004", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    @Test
    void unrecognizedParametersWithPartialHeaderIsMalformed() {
        assertFails("0008 0005 c0", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    // ---- Restart of an Association with New Addresses (RFC 9260 section 3.3.10.11)

    @Property(tries = 200)
    void restartRoundTrips(@ForAll @Size(min = 4, max = 300) byte[] addresses) {
        assertRoundTrip(new RestartWithNewAddressesCause(Bytes.of(addresses)));
    }

    @Test
    void restartEncodesAddressList() throws Exception {
        RestartWithNewAddressesCause c = RestartWithNewAddressesCause.of(List.of(ipv4(3), ipv4(4)));
        assertEncodes(c, "000b 0014 00050008 0a630003 00050008 0a630004");
        assertEquals(List.of(ipv4(3), ipv4(4)), c.decodeAddresses().value());
    }

    @Test
    void restartWithoutAddressIsMalformed() {
        assertFails("000b 0004", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    @Test
    void restartWithPartialAddressHeaderIsMalformed() {
        assertFails("000b 0007 000500", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    // ---- RFC 5061 section 4.3: 0x00A0, 0x00A1, 0x00A2, 0x00A4

    @Property(tries = 200)
    void asconfCausesRoundTrip(@ForAll @Size(min = 4, max = 300) byte[] tlv) {
        Bytes b = Bytes.of(tlv);
        assertRoundTrip(new DeleteLastRemainingAddressCause(b));
        assertRoundTrip(new ResourceShortageCause(b));
        assertRoundTrip(new DeleteSourceAddressCause(b));
        assertRoundTrip(new NoAuthorizationCause(b));
    }

    @Test
    void deleteLastRemainingAddressEncodes() throws Exception {
        DeleteLastRemainingAddressCause c = new DeleteLastRemainingAddressCause(Bytes.fromHex(DELETE_IP));
        assertEncodes(c, "00a0 0014 " + DELETE_IP);
        assertEquals(0xc002, c.parameterType());
        assertEquals(
                new DeleteIpAddressParameter(2, ipv4(3)), c.decodeParameter().value());
    }

    @Test
    void resourceShortageEncodes() {
        ResourceShortageCause c = new ResourceShortageCause(Bytes.fromHex(ADD_IP));
        assertEncodes(c, "00a1 0014 " + ADD_IP);
        assertEquals(0xc001, c.parameterType());
    }

    @Test
    void deleteSourceAddressEncodes() throws Exception {
        assertEncodes(new DeleteSourceAddressCause(Bytes.fromHex(DELETE_IP)), "00a2 0014 " + DELETE_IP);
        DeleteSourceAddressCause c = DeleteSourceAddressCause.of(ipv4(3));
        assertEncodes(c, "00a2 000c 00050008 0a630003");
        assertEquals(ipv4(3), c.decodeParameter().value());
    }

    @Test
    void noAuthorizationEncodes() throws Exception {
        assertEncodes(new NoAuthorizationCause(Bytes.fromHex(ADD_IP)), "00a4 0014 " + ADD_IP);
        assertEquals(new NoAuthorizationCause(Bytes.fromHex("00050008 0a630004")), NoAuthorizationCause.of(ipv4(4)));
    }

    @Test
    void deleteLastRemainingAddressWithoutCopyIsMalformed() {
        assertFails("00a0 0004", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    @Test
    void resourceShortageWithoutCopyIsMalformed() {
        assertFails("00a1 0006 c001", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    @Test
    void deleteSourceAddressWithoutCopyIsMalformed() {
        assertFails("00a2 0005 c0", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    @Test
    void noAuthorizationWithoutCopyIsMalformed() {
        assertFails("00a4 0004", ParseErrorKind.BAD_PARAMETER_LENGTH);
    }

    // ---- constructors

    @Test
    void constructorsRejectCopiesWithoutTlvHeader() {
        Bytes three = Bytes.fromHex("000500");
        assertThrows(IllegalArgumentException.class, () -> new UnresolvableAddressCause(three));
        assertThrows(IllegalArgumentException.class, () -> new UnrecognizedChunkTypeCause(Bytes.EMPTY));
        assertThrows(IllegalArgumentException.class, () -> new UnrecognizedParametersCause(three));
        assertThrows(IllegalArgumentException.class, () -> new RestartWithNewAddressesCause(three));
        assertThrows(IllegalArgumentException.class, () -> new DeleteLastRemainingAddressCause(three));
        assertThrows(IllegalArgumentException.class, () -> new ResourceShortageCause(three));
        assertThrows(IllegalArgumentException.class, () -> new DeleteSourceAddressCause(three));
        assertThrows(IllegalArgumentException.class, () -> new NoAuthorizationCause(Bytes.EMPTY));
        assertThrows(IllegalArgumentException.class, () -> UnrecognizedParametersCause.of(List.of()));
    }

    @Test
    void constructorsRejectCopiesTooLongForTheCauseLength() {
        Bytes max = Bytes.of(new byte[0xffff - 4]);
        Bytes over = Bytes.of(new byte[0xffff - 3]);
        assertEquals(0xffff, new UnrecognizedChunkTypeCause(max).length());
        assertThrows(IllegalArgumentException.class, () -> new UnrecognizedChunkTypeCause(over));
        assertThrows(IllegalArgumentException.class, () -> new UnresolvableAddressCause(over));
        assertFalse(new UnresolvableAddressCause(max).toString().isEmpty());
    }

    @Test
    void quotedUnknownParameterStaysUnknown() {
        UnrecognizedParametersCause c = (UnrecognizedParametersCause) decodeOk("0008 0008 c0ab0004");
        assertInstanceOf(UnknownParameter.class, c.decodeParameters().value().get(0));
    }
}
