package org.sctpj.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Crc32c;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.chunk.DataChunk;

class TsharkJudgeTest {

    @TempDir
    Path dir;

    private static final char A = TsharkJudge.AGGREGATOR;

    private static byte[] dataPacket() {
        return SctpPacket.of(
                        5000,
                        5001,
                        0x11223344,
                        new DataChunk(false, false, true, true, 1, 0, 0, 1000, Bytes.of("12345678".getBytes())))
                .toBytes();
    }

    /** The judge can fail: a wrong CRC32c, a chunk cut short, a frame that is not SCTP at all. */
    @Test
    void badChecksumTruncatedChunkAndNonSctpAreCaught() throws Exception {
        byte[] good = dataPacket();
        byte[] badCrc = good.clone();
        badCrc[Crc32c.CHECKSUM_OFFSET + 3] ^= 0x01;
        // Chunk Length says 24 but the packet ends 4 bytes earlier; the CRC32c is right for what is left.
        byte[] truncated = Arrays.copyOf(good, good.length - 4);
        Crc32c.fill(ByteBuffer.wrap(truncated), 0, truncated.length);

        var a = Carriers.address("192.0.2.1");
        var b = Carriers.address("192.0.2.2");
        Path file = dir.resolve("bad.pcap");
        try (PcapWriter w = PcapWriter.open(file)) {
            w.writeIpv4(good, a, b, 1_000);
            w.writeIpv4(badCrc, a, b, 2_000);
            w.writeIpv4(truncated, a, b, 3_000);
            w.writeUdpIpv4(good, a, 5000, b, 5001, 4_000); // not a port decoded as SCTP
        }
        Verdict v = new TsharkJudge().judge(file);
        System.out.println("tshark on deliberately broken packets: " + v.summary());
        v.problems().forEach(p -> System.out.println("  " + p));

        assertEquals(4, v.frames());
        assertEquals(3, v.packets());
        assertEquals(1, v.badChecksums(), v.report());
        assertEquals(1, v.malformed(), v.report());
        assertEquals("3 packets decoded, 1 malformed, 1 bad checksums", v.summary());
        assertFalse(v.clean());
        assertTrue(v.problems().contains("frame 2: bad SCTP checksum"), v.report());
        assertTrue(v.problems().contains("frame 3: malformed"), v.report());
        assertTrue(v.problems().stream().anyMatch(p -> p.startsWith("frame 4: no SCTP decoded")), v.report());
        assertTrue(v.expertErrors().stream().anyMatch(e -> e.startsWith("frame 2: Error:")), v.report());
        assertTrue(v.expertErrors().stream().anyMatch(e -> e.startsWith("frame 3: Error:")), v.report());
        assertEquals(Set.of(0), v.chunkTypes());
    }

    /** IPv4 header and UDP checksums are verified too, so broken headers from Frames would show. */
    @Test
    void badIpv4HeaderChecksumIsAnExpertError() throws Exception {
        var a = Carriers.address("192.0.2.1");
        var b = Carriers.address("192.0.2.2");
        byte[] ip = Frames.ipv4(a, b, Frames.PROTOCOL_SCTP, 7, dataPacket());
        ip[10] ^= 0x40;
        byte[] udp = Frames.udp(a, 9899, b, 9899, dataPacket());
        udp[7] ^= 0x01;
        Path file = dir.resolve("badip.pcap");
        try (PcapWriter w = PcapWriter.open(file)) {
            w.writeEthernetFrame(Frames.ethernet(Frames.macFor(b), Frames.macFor(a), Frames.ETHERTYPE_IPV4, ip), 0);
            byte[] ip2 = Frames.ipv4(a, b, Frames.PROTOCOL_UDP, 8, udp);
            w.writeEthernetFrame(Frames.ethernet(Frames.macFor(b), Frames.macFor(a), Frames.ETHERTYPE_IPV4, ip2), 1);
        }
        Verdict v = new TsharkJudge().judge(file);
        assertEquals(0, v.badChecksums(), v.report());
        assertEquals(2, v.expertErrors().size(), v.report());
        assertTrue(v.expertErrors().get(0).startsWith("frame 1: Error:"), v.report());
        assertTrue(v.expertErrors().get(1).startsWith("frame 2: Error:"), v.report());
    }

    @Test
    void missingTsharkSaysHowToInstallIt() throws Exception {
        Path file = dir.resolve("empty.pcap");
        try (PcapWriter w = PcapWriter.open(file)) {
            w.writeIpv4(dataPacket(), Carriers.address("192.0.2.1"), Carriers.address("192.0.2.2"), 0);
        }
        IOException e = assertThrows(IOException.class, () -> new TsharkJudge("/nonexistent/tshark", 9899).judge(file));
        assertTrue(e.getMessage().contains("install tshark: run ./test.sh, which installs it"), e.getMessage());
    }

    @Test
    void unreadableFileIsReported() {
        IOException e = assertThrows(IOException.class, () -> new TsharkJudge().judge(dir.resolve("nope.pcap")));
        assertTrue(e.getMessage().contains("nope.pcap"), e.getMessage());
    }

    @Test
    void commandVerifiesChecksumsAndDecodesUdpPortAsSctp() {
        List<String> cmd = new TsharkJudge("tshark", 9899).command(Path.of("f.pcap"));
        String joined = String.join(" ", cmd);
        assertTrue(joined.contains("-o sctp.checksum:CRC 32c"), joined);
        assertTrue(joined.contains("-d udp.port==9899,sctp"), joined);
        assertTrue(joined.contains("-r f.pcap"), joined);
        assertThrows(IllegalArgumentException.class, () -> new TsharkJudge("tshark", 0));
    }

    /** Parsing of tshark's field output, independent of tshark: columns as TsharkJudge.FIELDS. */
    @Test
    void parsesFieldLines() {
        List<String> lines = List.of(
                "1\teth:ethertype:ip:sctp\t1\t\t\t\t1\t0x000c" + A + "0xc0ab,0x80cd\t",
                "2\teth:ethertype:ip:sctp\t0\t\t8388608" + A + "4194304\tBad SCTP checksum. [x, y]" + A
                        + "Retransmitted TSN\t0\t\t",
                "3\teth:ethertype:ip:sctp\t1\t_ws.malformed\t6291456\tChunk too long\t6" + A + "9\t\t0x0001" + A
                        + "0x000d",
                "4\teth:ethertype:ip:udp:data\t\t\t\t\t\t\t",
                "");
        Verdict v = TsharkJudge.parse(lines);
        assertEquals(4, v.frames());
        assertEquals(3, v.packets());
        assertEquals(1, v.badChecksums());
        assertEquals(1, v.malformed());
        assertEquals(
                List.of("frame 2: Error: Bad SCTP checksum. [x, y]", "frame 3: Warning: Chunk too long"),
                v.expertErrors());
        assertEquals(Set.of(0, 1, 6, 9), v.chunkTypes());
        assertEquals(Set.of(0x000c, 0xc0ab, 0x80cd), v.parameterTypes());
        assertEquals(Set.of(1, 13), v.causeCodes());
        assertEquals(
                List.of(
                        "frame 2: bad SCTP checksum",
                        "frame 2: expert Error: Bad SCTP checksum. [x, y]",
                        "frame 3: malformed",
                        "frame 3: expert Warning: Chunk too long",
                        "frame 4: no SCTP decoded (protocols eth:ethertype:ip:udp:data)"),
                v.problems());
        assertEquals("3 packets decoded, 1 malformed, 1 bad checksums", v.summary());
        assertTrue(v.report().startsWith(v.summary() + "\n  frame 2: bad SCTP checksum"));
    }

    @Test
    void emptyCaptureIsCleanButDecodesNothing() {
        Verdict v = TsharkJudge.parse(List.of());
        assertEquals("0 packets decoded, 0 malformed, 0 bad checksums", v.summary());
        assertTrue(v.clean());
    }
}
