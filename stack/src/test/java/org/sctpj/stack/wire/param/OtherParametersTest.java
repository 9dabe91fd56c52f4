package org.sctpj.stack.wire.param;

import static org.sctpj.stack.wire.param.ParamTests.assertEncodes;
import static org.sctpj.stack.wire.param.ParamTests.assertFails;
import static org.sctpj.stack.wire.param.ParamTests.assertRealBytes;
import static org.sctpj.stack.wire.param.ParamTests.assertRoundTrip;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.chunk.ChunkType;

/** Padding (RFC 4820), Forward-TSN-Supported (RFC 3758) and Zero Checksum Acceptable (RFC 9653). */
class OtherParametersTest {

    private static final int INIT = ChunkType.INIT;

    // ---- Padding

    @Property(tries = 200)
    void paddingRoundTrips(@ForAll @Size(max = 100) byte[] data) {
        assertRoundTrip(new PaddingParameter(Bytes.of(data)), INIT);
    }

    @Test
    void paddingEncodes() {
        assertEncodes(new PaddingParameter(Bytes.of(new byte[6])), "8005 000a 000000000000", INIT);
        assertEncodes(new PaddingParameter(Bytes.EMPTY), "8005 0004", INIT);
    }

    // ---- Forward-TSN-Supported

    @Test
    void forwardTsnSupportedEncodesAndDecodes() {
        assertEncodes(ForwardTsnSupportedParameter.INSTANCE, "c000 0004", INIT);
        assertRoundTrip(new ForwardTsnSupportedParameter(), INIT);
    }

    @Test
    void forwardTsnSupportedFromLinux() {
        // kernel-to-usrsctp_raw_abort-linger0-close.pcap, frame 1, INIT sent by Linux 6.1
        assertRealBytes("c0000004", ForwardTsnSupportedParameter.INSTANCE, INIT);
    }

    @Test
    void forwardTsnSupportedWithValue() {
        assertFails("c000 0005 00", INIT, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
    }

    // ---- Zero Checksum Acceptable

    @Property(tries = 200)
    void zeroChecksumAcceptableRoundTrips(@ForAll int edmid) {
        assertRoundTrip(new ZeroChecksumAcceptableParameter(edmid), INIT);
    }

    @Test
    void zeroChecksumAcceptableEncodes() {
        assertEncodes(
                new ZeroChecksumAcceptableParameter(ZeroChecksumAcceptableParameter.EDMID_DTLS),
                "8001 0008 00000001",
                INIT);
    }

    @Test
    void zeroChecksumAcceptableWithoutEdmid() {
        assertFails("8001 0004", INIT, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
    }

    @Test
    void zeroChecksumAcceptableTooLong() {
        assertFails("8001 000c 00000001 00000000", INIT, ParseErrorKind.BAD_PARAMETER_LENGTH, 0);
    }
}
