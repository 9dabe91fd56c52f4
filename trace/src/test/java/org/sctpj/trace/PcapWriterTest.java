package org.sctpj.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sctpj.stack.testutil.PcapReader;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.chunk.DataChunk;

class PcapWriterTest {

    @TempDir
    Path dir;

    private static byte[] sctp(int tsn) {
        return SctpPacket.of(
                        5000,
                        5001,
                        0x01020304,
                        new DataChunk(false, false, true, true, tsn, 1, 2, 3, Bytes.of((byte) 'h', (byte) 'i')))
                .toBytes();
    }

    @Test
    void writesEveryEncapsulationAndReadsBack() throws Exception {
        Inet4Address a4 = (Inet4Address) InetAddress.getByName("10.0.0.1");
        Inet4Address b4 = (Inet4Address) InetAddress.getByName("10.0.0.2");
        Inet6Address a6 = (Inet6Address) InetAddress.getByName("2001:db8::1");
        Inet6Address b6 = (Inet6Address) InetAddress.getByName("2001:db8::2");
        Path file = dir.resolve("t.pcap");
        long t0 = 1_700_000_000_123_456_789L;
        try (PcapWriter w = PcapWriter.open(file)) {
            assertEquals(file, w.file());
            w.writeIpv4(sctp(1), a4, b4, t0);
            w.writeIpv6(sctp(2), a6, b6, t0 + 1);
            w.writeUdpIpv4(sctp(3), a4, b4, t0 + 2);
            w.writeUdpIpv6(sctp(4), a6, 40000, b6, 9899, t0 + 3);
            w.writeRaw(sctp(5), b4, a4, 5);
            w.writeUdp(sctp(6), b6, 9899, a6, 9899, 6);
            w.flush();
        }
        List<PcapReader.SctpFrame> frames;
        try (InputStream in = Files.newInputStream(file)) {
            frames = PcapReader.sctpPackets(in);
        }
        assertEquals(6, frames.size());
        boolean[] udp = {false, false, true, true, false, true};
        for (int i = 0; i < 6; i++) {
            assertArrayEquals(sctp(i + 1), frames.get(i).sctp(), "frame " + (i + 1));
            assertEquals(udp[i], frames.get(i).udpEncapsulated(), "frame " + (i + 1));
        }

        ByteBuffer f = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0xa1b23c4d, f.getInt(0), "nanosecond-resolution pcap");
        assertEquals(PcapWriter.SNAPSHOT_LENGTH, f.getInt(16));
        assertEquals(1, f.getInt(20), "link type Ethernet");
        // first record: timestamp kept to the nanosecond
        assertEquals(1_700_000_000, f.getInt(24));
        assertEquals(123_456_789, f.getInt(28));
        int len1 = f.getInt(24 + 8);
        assertEquals(14 + 20 + sctp(1).length, len1);
        int frame1 = 24 + 16;
        f.order(ByteOrder.BIG_ENDIAN);
        assertEquals(0x0800, f.getShort(frame1 + 12) & 0xffff);
        assertEquals(0, f.getShort(frame1 + 14 + 4), "first IPv4 identification");
        int frame2 = frame1 + len1 + 16;
        f.order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(123_456_790, f.getInt(frame2 - 16 + 4));
        int len2 = f.getInt(frame2 - 16 + 8);
        f.order(ByteOrder.BIG_ENDIAN);
        assertEquals(0x86dd, f.getShort(frame2 + 12) & 0xffff);
        int frame3 = frame2 + len2 + 16;
        assertEquals(0x0800, f.getShort(frame3 + 12) & 0xffff);
        assertEquals(1, f.getShort(frame3 + 14 + 4), "IPv4 identification increments per IPv4 packet");
        assertEquals(17, f.get(frame3 + 14 + 9));
    }

    @Test
    void misuseIsRejected() throws Exception {
        Inet4Address a4 = (Inet4Address) InetAddress.getByName("10.0.0.1");
        Inet6Address a6 = (Inet6Address) InetAddress.getByName("2001:db8::1");
        PcapWriter w = PcapWriter.open(dir.resolve("m.pcap"));
        assertThrows(IllegalArgumentException.class, () -> w.writeIpv4(sctp(1), a4, a4, -1));
        assertThrows(IllegalArgumentException.class, () -> w.writeRaw(sctp(1), a4, a6, 0));
        assertThrows(IllegalArgumentException.class, () -> w.writeUdp(sctp(1), a6, 1, a4, 2, 0));
        assertThrows(
                IllegalArgumentException.class,
                () -> w.writeEthernetFrame(new byte[PcapWriter.SNAPSHOT_LENGTH + 1], 0));
        w.close();
        w.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> w.writeIpv4(sctp(1), a4, a4, 0));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }

    @Test
    void openFailsClearlyForAnUnwritablePath() {
        Path file = dir.resolve("no-such-dir").resolve("x.pcap");
        var e = assertThrows(java.io.IOException.class, () -> PcapWriter.open(file));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
        assertFalse(Files.exists(file));
    }

    @Test
    void missingLibpcapMessageSaysWhatToInstall() {
        String m = PcapWriter.libpcapMissingMessage(new UnsatisfiedLinkError("Unable to load library 'pcap'"));
        assertTrue(m.contains("install the Debian package libpcap0.8"), m);
        assertTrue(m.contains("Unable to load library 'pcap'"), m);
    }

    @Test
    void timestampsKeepNanoseconds() {
        var ts = PcapWriter.toTimestamp(3_000_000_007L);
        assertEquals(3000, ts.getTime());
        assertEquals(7, ts.getNanos());
        assertEquals(0, PcapWriter.toTimestamp(0).getNanos());
    }
}
