package org.sctpj.stack.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sctpj.stack.wire.chunk.Chunk;

/**
 * Real packets from two independent implementations, usrsctp 0.9.5.0 and the Linux 6.1 kernel,
 * copied from the corpus captures as hex literals (file and frame number in each comment; the frame
 * number is the one Wireshark shows). They pin the framing of the codec on bytes it did not write:
 * the checksum verifies, the packet decodes with {@link ChecksumPolicy#VERIFY}, ports, verification
 * tag, chunk types in order and Chunk Length fields come out as captured, and re-encoding gives the
 * same bytes. Field-level checks of each chunk live in the chunk's own test.
 */
class IndependentVectorsTest {

    private static final HexFormat HEX = HexFormat.of();

    /** A chunk as the vector expects it: type code and Chunk Length field. */
    record ExpectedChunk(int type, int length) {}

    /** One captured packet (the SCTP common header onwards) and its expected framing. */
    record Vector(String origin, String hex, int sourcePort, int destinationPort, int tag, List<ExpectedChunk> chunks) {
        Vector(String origin, String hex, int sourcePort, int destinationPort, int tag, ExpectedChunk... chunks) {
            this(origin, hex, sourcePort, destinationPort, tag, List.of(chunks));
        }

        byte[] bytes() {
            return HEX.parseHex(hex);
        }

        @Override
        public String toString() {
            return origin;
        }
    }

    private static ExpectedChunk c(int type, int length) {
        return new ExpectedChunk(type, length);
    }

    static Stream<Vector> vectors() {
        return Stream.of(
                // INIT, sent by usrsctp 0.9.5.0 over raw IPv4:
                // usrsctp-to-kernel_raw_handshake-data-shutdown.pcap frame 1
                new Vector(
                        "usrsctp-to-kernel_raw_handshake-data-shutdown.pcap #1 (usrsctp 0.9.5.0)",
                        "ce4c177100000000331012ed0100006ab82ab1d5004000000010001077a48ef1c00600085553525380000004c0000004"
                                + "80080009c00fc18082000000800200247fefec6812262a39784e4f3ffb29206a281eb138aea6941ffb74dd70c6897e45"
                                + "80040006000100008003000680c10000000c000600050000",
                        52812,
                        6001,
                        0x00000000,
                        c(1, 106)),
                // INIT ACK, sent by Linux 6.1 over raw IPv4:
                // usrsctp-to-kernel_raw_handshake-data-shutdown.pcap frame 2
                new Vector(
                        "usrsctp-to-kernel_raw_handshake-data-shutdown.pcap #2 (Linux 6.1)",
                        "1771ce4cb82ab1d5154eaf810200014cdbc22d66000340000010001053a849ca000701285732665502757d0823daa041"
                                + "b4eec84ee50ed30e00000000000000000000000000000000662dc2dbd5b12ab8000000000000000059a964697d38ea18"
                                + "10001000ca49a8530200ce4c0a6300010000000000000000000000000000000000000000711701005352535580020024"
                                + "d2dbdd38c996b2f25ec8b682f3c0b7e64be82b7ef4a63c47836eb6e5f320e5d100000000000000000000000000000000"
                                + "00000000000000000000000000000000000000000100006ab82ab1d5004000000010001077a48ef1c006000855535253"
                                + "80000004c000000480080009c00fc18082000000800200247fefec6812262a39784e4f3ffb29206a281eb138aea6941f"
                                + "fb74dd70c6897e4580040006000100008003000680c10000000c000600050000000000000000000080000004c0000004"
                                + "c00600084b45524e",
                        6001,
                        52812,
                        0xb82ab1d5,
                        c(2, 332)),
                // COOKIE ECHO, sent by Linux 6.1 over UDP 9899:
                // kernel-to-usrsctp_udp_handshake-data-shutdown.pcap frame 3
                new Vector(
                        "kernel-to-usrsctp_udp_handshake-data-shutdown.pcap #3 (Linux 6.1)",
                        "e77017726b609a49064befe80a0001084b414d452d42534420312e3100000000913f026b00000000ca74020000000000"
                                + "60ea0000000000000000000058cbae566b609a490a630002000000000000000000000000050000000a63000100000000"
                                + "00000000000000000500000000000000e77017720100000000010000000000000100002456aecb580003400000100010"
                                + "e33da3ab000c00060005000080000004c0000004020001646b609a4900400000001000109183bddb80000004c0000004"
                                + "80080009c00fc1808200000080020024ce2e6ae8e4b85f2684b6c5fef9c725870588fe218fe8659f0a94377d7a7e515f"
                                + "80040006000100008003000680c100001ccec4763a12aec465c267ccc964581ae6b4f841",
                        59248,
                        6002,
                        0x6b609a49,
                        c(10, 264)),
                // SACK with 2 gap blocks and 1 duplicate TSN, sent by usrsctp 0.9.5.0 over raw IPv4:
                // usrsctp-to-kernel_raw_loss-dup-sack-gaps.pcap frame 109
                new Vector(
                        "usrsctp-to-kernel_raw_loss-dup-sack-gaps.pcap #109 (usrsctp 0.9.5.0)",
                        "fbd7178f77bea8ef18f694770300001cc3275254003ffb18000200010002000400060007c327525b",
                        64471,
                        6031,
                        0x77bea8ef,
                        c(3, 28)),
                // SACK with 2 gap blocks and 1 duplicate TSN, sent by Linux 6.1 over UDP 9899:
                // kernel-to-usrsctp_udp_loss-dup-sack-gaps.pcap frame 145
                new Vector(
                        "kernel-to-usrsctp_udp_loss-dup-sack-gaps.pcap #145 (Linux 6.1)",
                        "beb11790220367f503f44ce60300001c77553f830002b74800020001000200040006000677553f89",
                        48817,
                        6032,
                        0x220367f5,
                        c(3, 28)),
                // HEARTBEAT, sent by Linux 6.1 over UDP 9899:
                // kernel-to-usrsctp_udp_heartbeat-idle.pcap frame 13
                new Vector(
                        "kernel-to-usrsctp_udp_heartbeat-idle.pcap #13 (Linux 6.1)",
                        "c7be179a79ef7640fa13a7910400003c000100380200179a0a6300010000000000000000000000000000000000000000"
                                + "4043ffff00000000515f59eed599f5e90000000000000000",
                        51134,
                        6042,
                        0x79ef7640,
                        c(4, 60)),
                // ABORT with a Protocol Violation cause, sent by usrsctp 0.9.5.0 over raw IPv4:
                // kernel-to-usrsctp_raw_idata-fragmented-fsn-abort.pcap frame 8
                new Vector(
                        "kernel-to-usrsctp_raw_idata-fragmented-fsn-abort.pcap #8 (usrsctp 0.9.5.0)",
                        "17c3b24bb3210dad6df2b06c0600002f000d002b46534e207a65726f20666f72204d49443d30303030303030302c2062"
                                + "757420666c6167733d303000",
                        6083,
                        45643,
                        0xb3210dad,
                        c(6, 47)),
                // ERROR with a Stale Cookie Error cause, sent by Linux 6.1 over raw IPv4:
                // usrsctp-to-kernel_raw_stale-cookie-error.pcap frame 4
                new Vector(
                        "usrsctp-to-kernel_raw_stale-cookie-error.pcap #4 (Linux 6.1)",
                        "17adc1eb339fb9868fefc1e80900000c00030008000f6e79",
                        6061,
                        49643,
                        0x339fb986,
                        c(9, 12)),
                // FORWARD TSN with three stream/SSN entries, sent by usrsctp 0.9.5.0 over raw IPv4:
                // usrsctp-to-kernel_raw_prsctp-forward-tsn.pcap frame 18
                new Vector(
                        "usrsctp-to-kernel_raw_prsctp-forward-tsn.pcap #18 (usrsctp 0.9.5.0)",
                        "e6c217b75a3721a356ca44a7c00000144300361f000100000000000100010001",
                        59074,
                        6071,
                        0x5a3721a3,
                        c(192, 20)),
                // I-DATA, sent by Linux 6.1 over raw IPv4:
                // kernel-to-usrsctp_raw_idata-i-forward-tsn.pcap frame 5
                new Vector(
                        "kernel-to-usrsctp_raw_idata-i-forward-tsn.pcap #5 (Linux 6.1)",
                        "deef17c5661c1d553d7543d440030140eb81f2310000000000000000000003e86b65726e656c2330303030307c004f50"
                                + "5152535455565758595a4142434445464748494a4b4c4d4e4f505152535455565758595a4142434445464748494a4b4c"
                                + "4d4e4f505152535455565758595a4142434445464748494a4b4c4d4e4f505152535455565758595a4142434445464748"
                                + "494a4b4c4d4e4f505152535455565758595a4142434445464748494a4b4c4d4e4f505152535455565758595a41424344"
                                + "45464748494a4b4c4d4e4f505152535455565758595a4142434445464748494a4b4c4d4e4f505152535455565758595a"
                                + "4142434445464748494a4b4c4d4e4f505152535455565758595a4142434445464748494a4b4c4d4e4f50515253545556"
                                + "5758595a4142434445464748494a4b4c4d4e4f505152535455565758595a4142434445464748494a4b4c4d4e",
                        57071,
                        6085,
                        0x661c1d55,
                        c(64, 320)),
                // I-FORWARD-TSN, sent by Linux 6.1 over raw IPv4:
                // kernel-to-usrsctp_raw_idata-i-forward-tsn.pcap frame 26
                new Vector(
                        "kernel-to-usrsctp_raw_idata-i-forward-tsn.pcap #26 (Linux 6.1)",
                        "deef17c5661c1d55d818f908c2000018eb81f26200000000000000180001000100000018",
                        57071,
                        6085,
                        0x661c1d55,
                        c(194, 24)),
                // RE-CONFIG (Outgoing SSN Reset Request) bundled with SACK, sent by usrsctp 0.9.5.0 over raw IPv4:
                // usrsctp-to-kernel_raw_reconfig-stream-reset.pcap frame 13
                new Vector(
                        "usrsctp-to-kernel_raw_reconfig-stream-reset.pcap #13 (usrsctp 0.9.5.0)",
                        "c0c617cb85d1eedf5cd8930d82000018000d0014f5b63e99d0a8cf8ff5b63e9b0001000203000010d0a8cf9200400000"
                                + "00000000",
                        49350,
                        6091,
                        0x85d1eedf,
                        c(130, 24),
                        c(3, 16)),
                // RE-CONFIG (Re-configuration Response), sent by Linux 6.1 over raw IPv4:
                // usrsctp-to-kernel_raw_reconfig-stream-reset.pcap frame 14
                new Vector(
                        "usrsctp-to-kernel_raw_reconfig-stream-reset.pcap #14 (Linux 6.1)",
                        "17cbc0c6f56b28ce1cbd83b7820000100010000cf5b63e9900000001",
                        6091,
                        49350,
                        0xf56b28ce,
                        c(130, 16)),
                // AUTH + ASCONF + SACK, sent by usrsctp 0.9.5.0 over raw IPv4:
                // usrsctp-to-kernel_raw_auth-asconf.pcap frame 12
                new Vector(
                        "usrsctp-to-kernel_raw_auth-asconf.pcap #12 (usrsctp 0.9.5.0)",
                        "e52817d5b367fea9ca82f1c80f00001c00000001771ad8cb0b53307cac1595ba2d27ad6c152d3449c1000020cccd8e56"
                                + "000500080a630001c001001001000000000500080a63000303000010bf580c480040000000000000",
                        58664,
                        6101,
                        0xb367fea9,
                        c(15, 28),
                        c(193, 32),
                        c(3, 16)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void decodesWithVerifiedChecksumAndCapturedFraming(Vector v) {
        byte[] bytes = v.bytes();
        assertTrue(Crc32c.verify(ByteBuffer.wrap(bytes), 0, bytes.length), v + ": CRC32c does not verify");
        Parsed<SctpPacket> parsed = SctpPacket.decode(ByteBuffer.wrap(bytes), ChecksumPolicy.VERIFY);
        assertTrue(parsed.isOk(), () -> v + ": " + parsed);
        SctpPacket p = parsed.value();
        assertEquals(v.sourcePort(), p.sourcePort(), "source port");
        assertEquals(v.destinationPort(), p.destinationPort(), "destination port");
        assertEquals(v.tag(), p.verificationTag(), "verification tag");
        List<ExpectedChunk> actual = p.chunks().stream()
                .map(ch -> new ExpectedChunk(ch.type(), ch.length()))
                .toList();
        assertEquals(v.chunks(), actual, "chunk types and lengths, in order");
        int framed = SctpPacket.HEADER_LENGTH;
        for (Chunk ch : p.chunks()) {
            framed += ch.encodedLength();
        }
        assertEquals(bytes.length, framed, "chunks and their padding fill the packet");
        assertArrayEquals(bytes, p.toBytes(), "re-encoded bytes");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void anyFlippedBitIsCaughtByTheChecksum(Vector v) {
        byte[] bytes = v.bytes();
        for (int bit = 0; bit < bytes.length * 8; bit += 7) {
            if (bit / 8 >= Crc32c.CHECKSUM_OFFSET && bit / 8 < Crc32c.CHECKSUM_OFFSET + 4) {
                continue;
            }
            byte[] flipped = bytes.clone();
            flipped[bit / 8] ^= (byte) (1 << (bit % 8));
            Parsed<SctpPacket> parsed = SctpPacket.decode(ByteBuffer.wrap(flipped), ChecksumPolicy.VERIFY);
            assertEquals(
                    ParseErrorKind.BAD_CHECKSUM,
                    parsed.isOk() ? null : parsed.error().kind(),
                    v + " bit " + bit);
            assertEquals(Crc32c.CHECKSUM_OFFSET, parsed.error().offset(), v + " bit " + bit);
        }
    }
}
