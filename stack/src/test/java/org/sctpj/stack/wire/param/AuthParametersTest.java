package org.sctpj.stack.wire.param;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sctpj.stack.wire.param.ParamTests.assertEncodes;
import static org.sctpj.stack.wire.param.ParamTests.assertFails;
import static org.sctpj.stack.wire.param.ParamTests.assertRealBytes;
import static org.sctpj.stack.wire.param.ParamTests.assertRoundTrip;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.chunk.ChunkType;

/** The SCTP-AUTH parameters of RFC 4895. */
class AuthParametersTest {

    private static final int INIT = ChunkType.INIT;
    private static final int INIT_ACK = ChunkType.INIT_ACK;

    // ---- Random

    @Property(tries = 200)
    void randomRoundTrips(@ForAll @Size(max = 64) byte[] random) {
        assertRoundTrip(new RandomParameter(Bytes.of(random)), INIT);
    }

    @Test
    void randomEncodes() {
        assertEncodes(new RandomParameter(Bytes.fromHex("0102030405")), "8002 0009 0102030405", INIT);
    }

    @Test
    void randomFromUsrsctp() {
        // kernel-to-usrsctp_raw_abort-linger0-close.pcap, frame 2, INIT ACK sent by usrsctp 0.9.5
        String hex = "800200246a59c795c2ab38ebb1c89777c1e3523c38078dfce688d366683a8121ba294562";
        assertRealBytes(hex, new RandomParameter(Bytes.fromHex(hex.substring(8))), INIT_ACK);
    }

    @Test
    void randomFromLinux() {
        // kernel-to-usrsctp_udp_auth-data-sack.pcap, frame 1, INIT sent by Linux 6.1
        String hex = "800200247e36a66e8059ad84c28f99734d6d5749a5e84bef2083ecc108eca8c144f17b9a";
        assertRealBytes(hex, new RandomParameter(Bytes.fromHex(hex.substring(8))), INIT);
    }

    // ---- Chunk List

    @Property(tries = 200)
    void chunkListRoundTrips(@ForAll @Size(max = 20) List<@IntRange(max = 255) Integer> types) {
        assertRoundTrip(new ChunkListParameter(types), INIT);
    }

    @Test
    void chunkListEncodes() {
        assertEncodes(ChunkListParameter.of(0x00, 0x80, 0xC1), "8003 0007 0080c1", INIT);
        assertEncodes(ChunkListParameter.of(), "8003 0004", INIT);
    }

    @Test
    void chunkListFromUsrsctp() {
        // kernel-to-usrsctp_raw_abort-linger0-close.pcap, frame 2, INIT ACK sent by usrsctp 0.9.5
        assertRealBytes("8003000680c1", ChunkListParameter.of(0x80, 0xC1), INIT_ACK);
        // usrsctp-to-kernel_raw_auth-asconf.pcap, frame 1, INIT sent by usrsctp 0.9.5 (odd length)
        assertRealBytes("800300070080c1", ChunkListParameter.of(0x00, 0x80, 0xC1), INIT);
    }

    @Test
    void chunkListFromLinux() {
        // kernel-to-usrsctp_udp_auth-data-sack.pcap, frame 1, INIT sent by Linux 6.1 (DATA and SACK)
        assertRealBytes("800300060003", ChunkListParameter.of(0x00, 0x03), INIT);
    }

    @Test
    void chunkListRejectsOutOfRange() {
        assertThrows(IllegalArgumentException.class, () -> ChunkListParameter.of(256));
    }

    // ---- Requested HMAC Algorithm

    @Property(tries = 200)
    void hmacRoundTrips(@ForAll @Size(max = 10) List<@IntRange(max = 65535) Integer> ids) {
        assertRoundTrip(new RequestedHmacAlgorithmParameter(ids), INIT);
    }

    @Test
    void hmacEncodes() {
        assertEncodes(
                RequestedHmacAlgorithmParameter.of(
                        RequestedHmacAlgorithmParameter.SHA_256, RequestedHmacAlgorithmParameter.SHA_1),
                "8004 0008 0003 0001",
                INIT);
    }

    @Test
    void hmacFromUsrsctp() {
        // kernel-to-usrsctp_raw_abort-linger0-close.pcap, frame 2, INIT ACK sent by usrsctp 0.9.5
        assertRealBytes("800400060001", RequestedHmacAlgorithmParameter.of(1), INIT_ACK);
    }

    @Test
    void hmacFromLinux() {
        // kernel-to-usrsctp_udp_auth-data-sack.pcap, frame 1, INIT sent by Linux 6.1
        assertRealBytes("800400060001", RequestedHmacAlgorithmParameter.of(1), INIT);
    }

    @Test
    void hmacOddByteCount() {
        assertFails("8004 0007 0001 00", INIT, ParseErrorKind.LIST_LENGTH_MISMATCH, 4);
    }
}
