package org.sctpj.stack.wire.param;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sctpj.stack.wire.param.ParamTests.assertEncodes;
import static org.sctpj.stack.wire.param.ParamTests.assertFails;
import static org.sctpj.stack.wire.param.ParamTests.assertRealBytes;
import static org.sctpj.stack.wire.param.ParamTests.assertRoundTrip;

import java.util.List;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.chunk.ChunkType;

/** The RE-CONFIG parameters of RFC 6525. */
class ReconfigParametersTest {

    private static final int RE_CONFIG = ChunkType.RE_CONFIG;

    // ---- Outgoing SSN Reset Request

    @Property(tries = 200)
    void outgoingResetRoundTrips(
            @ForAll int request,
            @ForAll int response,
            @ForAll int lastTsn,
            @ForAll @Size(max = 12) List<@IntRange(max = 65535) Integer> streams) {
        assertRoundTrip(new OutgoingSsnResetRequestParameter(request, response, lastTsn, streams), RE_CONFIG);
    }

    @Test
    void outgoingResetEncodes() {
        assertEncodes(
                new OutgoingSsnResetRequestParameter(1, 2, 3, List.of(4, 5, 6)),
                "000d 0016 00000001 00000002 00000003 0004 0005 0006",
                RE_CONFIG);
        assertEncodes(
                new OutgoingSsnResetRequestParameter(1, 2, 0xFFFFFFFF, List.of()),
                "000d 0010 00000001 00000002 ffffffff",
                RE_CONFIG);
    }

    @Test
    void outgoingResetFromUsrsctp() {
        // usrsctp-to-kernel_raw_reconfig-stream-reset.pcap, frame 13, RE-CONFIG sent by usrsctp 0.9.5
        assertRealBytes(
                "000d0014f5b63e99d0a8cf8ff5b63e9b00010002",
                new OutgoingSsnResetRequestParameter(0xF5B63E99, 0xD0A8CF8F, 0xF5B63E9B, List.of(1, 2)),
                RE_CONFIG);
    }

    @Test
    void outgoingResetFromLinux() {
        // usrsctp-to-kernel_raw_reconfig-stream-reset.pcap, frame 20, RE-CONFIG sent by Linux 6.1 (all
        // streams, answering usrsctp's Incoming SSN Reset Request)
        assertRealBytes(
                "000d0010d0a8cf90f5b63e9ad0a8cf94",
                new OutgoingSsnResetRequestParameter(0xD0A8CF90, 0xF5B63E9A, 0xD0A8CF94, List.of()),
                RE_CONFIG);
    }

    @Test
    void outgoingResetTooShort() {
        assertFails("000d 000c 00000001 00000002", RE_CONFIG, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
    }

    @Test
    void outgoingResetOddStreamBytes() {
        assertFails("000d 0013 00000001 00000002 00000003 0004 05", RE_CONFIG, ParseErrorKind.LIST_LENGTH_MISMATCH, 16);
    }

    @Test
    void outgoingResetRejectsBadStream() {
        assertThrows(IllegalArgumentException.class, () -> new OutgoingSsnResetRequestParameter(1, 2, 3, List.of(-1)));
    }

    // ---- Incoming SSN Reset Request

    @Property(tries = 200)
    void incomingResetRoundTrips(
            @ForAll int request, @ForAll @Size(max = 12) List<@IntRange(max = 65535) Integer> streams) {
        assertRoundTrip(new IncomingSsnResetRequestParameter(request, streams), RE_CONFIG);
    }

    @Test
    void incomingResetEncodes() {
        assertEncodes(new IncomingSsnResetRequestParameter(7, List.of(9)), "000e 000a 00000007 0009", RE_CONFIG);
    }

    @Test
    void incomingResetFromUsrsctp() {
        // usrsctp-to-kernel_raw_reconfig-stream-reset.pcap, frame 19, RE-CONFIG sent by usrsctp 0.9.5
        assertRealBytes("000e0008f5b63e9a", new IncomingSsnResetRequestParameter(0xF5B63E9A, List.of()), RE_CONFIG);
    }

    @Test
    void incomingResetTooShort() {
        assertFails("000e 0006 0000", RE_CONFIG, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
    }

    @Test
    void incomingResetOddStreamBytes() {
        assertFails("000e 0009 00000007 00", RE_CONFIG, ParseErrorKind.LIST_LENGTH_MISMATCH, 8);
    }

    // ---- SSN/TSN Reset Request

    @Property(tries = 200)
    void ssnTsnResetRoundTrips(@ForAll int request) {
        assertRoundTrip(new SsnTsnResetRequestParameter(request), RE_CONFIG);
    }

    @Test
    void ssnTsnResetEncodes() {
        assertEncodes(new SsnTsnResetRequestParameter(0x01020304), "000f 0008 01020304", RE_CONFIG);
    }

    @Test
    void ssnTsnResetFromUsrsctp() {
        // usrsctp-to-kernel_raw_reconfig-stream-reset.pcap, frame 22, RE-CONFIG sent by usrsctp 0.9.5
        assertRealBytes("000f0008f5b63e9b", new SsnTsnResetRequestParameter(0xF5B63E9B), RE_CONFIG);
    }

    @Test
    void ssnTsnResetWrongLength() {
        assertFails("000f 0004", RE_CONFIG, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
        assertFails("000f 000c 00000001 00000002", RE_CONFIG, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
    }

    // ---- Re-configuration Response

    @Property(tries = 200)
    void responseRoundTrips(
            @ForAll int response,
            @ForAll @IntRange(max = 6) int result,
            @ForAll boolean withTsns,
            @ForAll int sendersNext,
            @ForAll int receiversNext) {
        ReconfigurationResponseParameter p = withTsns
                ? ReconfigurationResponseParameter.of(response, result, sendersNext, receiversNext)
                : ReconfigurationResponseParameter.of(response, result);
        assertRoundTrip(p, RE_CONFIG);
    }

    @Test
    void responseEncodes() {
        assertEncodes(
                ReconfigurationResponseParameter.of(9, ReconfigurationResponseParameter.RESULT_DENIED),
                "0010 000c 00000009 00000002",
                RE_CONFIG);
        assertEncodes(
                ReconfigurationResponseParameter.of(
                        9, ReconfigurationResponseParameter.RESULT_SUCCESS_PERFORMED, 0x0a0b0c0d, 0x01020304),
                "0010 0014 00000009 00000001 0a0b0c0d 01020304",
                RE_CONFIG);
    }

    @Test
    void responseFromLinux() {
        // usrsctp-to-kernel_raw_reconfig-stream-reset.pcap, frame 14, RE-CONFIG sent by Linux 6.1
        assertRealBytes(
                "0010000cf5b63e9900000001",
                ReconfigurationResponseParameter.of(
                        0xF5B63E99, ReconfigurationResponseParameter.RESULT_SUCCESS_PERFORMED),
                RE_CONFIG);
    }

    @Test
    void responseWithTsnsFromLinux() {
        // usrsctp-to-kernel_raw_reconfig-stream-reset.pcap, frame 23, RE-CONFIG sent by Linux 6.1,
        // answering the SSN/TSN Reset Request
        assertRealBytes(
                "00100014f5b63e9b00000001d0a8cf9575b63e9d",
                new ReconfigurationResponseParameter(
                        0xF5B63E9B,
                        ReconfigurationResponseParameter.RESULT_SUCCESS_PERFORMED,
                        Optional.of(new ReconfigurationResponseParameter.NextTsns(0xD0A8CF95, 0x75B63E9D))),
                RE_CONFIG);
    }

    @Test
    void responseFromUsrsctp() {
        // usrsctp-to-kernel_raw_reconfig-stream-reset.pcap, frame 21, RE-CONFIG sent by usrsctp 0.9.5
        assertRealBytes(
                "0010000cd0a8cf9000000001",
                ReconfigurationResponseParameter.of(
                        0xD0A8CF90, ReconfigurationResponseParameter.RESULT_SUCCESS_PERFORMED),
                RE_CONFIG);
    }

    @Test
    void responseTooShort() {
        assertFails("0010 0008 00000009", RE_CONFIG, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
    }

    @Test
    void responseWithOneTsnOnly() {
        assertFails("0010 0010 00000009 00000001 0a0b0c0d", RE_CONFIG, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
    }

    @Test
    void responseTooLong() {
        assertFails(
                "0010 0018 00000009 00000001 0a0b0c0d 01020304 00000000",
                RE_CONFIG,
                ParseErrorKind.BAD_PARAMETER_LENGTH,
                0);
    }

    // ---- Add Outgoing / Incoming Streams Request

    @Property(tries = 200)
    void addStreamsRoundTrip(@ForAll int request, @ForAll @IntRange(max = 65535) int streams) {
        assertRoundTrip(new AddOutgoingStreamsRequestParameter(request, streams), RE_CONFIG);
        assertRoundTrip(new AddIncomingStreamsRequestParameter(request, streams), RE_CONFIG);
    }

    @Test
    void addStreamsEncode() {
        assertEncodes(new AddOutgoingStreamsRequestParameter(3, 0x102), "0011 000c 00000003 0102 0000", RE_CONFIG);
        assertEncodes(new AddIncomingStreamsRequestParameter(4, 0xFFFF), "0012 000c 00000004 ffff 0000", RE_CONFIG);
    }

    @Test
    void addStreamsIgnoreReservedBits() {
        assertEncodes(new AddIncomingStreamsRequestParameter(4, 1), "0012 000c 00000004 0001 0000", RE_CONFIG);
        org.junit.jupiter.api.Assertions.assertEquals(
                new AddIncomingStreamsRequestParameter(4, 1),
                ParamTests.decodeOk("0012 000c 00000004 0001 abcd", RE_CONFIG));
        org.junit.jupiter.api.Assertions.assertEquals(
                new AddOutgoingStreamsRequestParameter(4, 1),
                ParamTests.decodeOk("0011 000c 00000004 0001 ffff", RE_CONFIG));
    }

    @Test
    void addOutgoingStreamsFromUsrsctp() {
        // usrsctp-to-kernel_raw_reconfig-stream-reset.pcap, frame 24, RE-CONFIG sent by usrsctp 0.9.5
        assertRealBytes("0011000cf5b63e9c00020000", new AddOutgoingStreamsRequestParameter(0xF5B63E9C, 2), RE_CONFIG);
    }

    @Test
    void addOutgoingStreamsWrongLength() {
        assertFails("0011 0008 00000003", RE_CONFIG, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
        assertFails("0011 0010 00000003 0102 0000 00000000", RE_CONFIG, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
    }

    @Test
    void addIncomingStreamsWrongLength() {
        assertFails("0012 000a 00000003 0102", RE_CONFIG, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
    }

    @Test
    void addStreamsRejectOutOfRange() {
        assertThrows(IllegalArgumentException.class, () -> new AddOutgoingStreamsRequestParameter(1, 65536));
        assertThrows(IllegalArgumentException.class, () -> new AddIncomingStreamsRequestParameter(1, -1));
    }
}
