package org.sctpj.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sctpj.stack.icmp.IcmpReport;
import org.sctpj.stack.llp.LowerLayer;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.chunk.DataChunk;

class PcapLowerLayerTest {

    @TempDir
    Path dir;

    /** A lower layer that records what it is asked to send and delivers what the test queues. */
    static final class FakeLayer implements LowerLayer {
        record Sent(byte[] bytes, InetAddress source, InetAddress destination) {}

        record Queued(byte[] bytes, InetAddress from, InetAddress to) {}

        final List<Sent> sent = new ArrayList<>();
        final ArrayDeque<Queued> inbound = new ArrayDeque<>();
        final ArrayDeque<IcmpReport> icmp = new ArrayDeque<>();
        long dropped;
        final List<Long> awaited = new ArrayList<>();
        int wakeups;
        int flushes;
        boolean closed;
        int overhead;

        @Override
        public void send(ByteBuffer sctp, InetAddress source, InetAddress destination) {
            byte[] b = new byte[sctp.remaining()];
            sctp.duplicate().get(b);
            sent.add(new Sent(b, source, destination));
        }

        @Override
        public int receive(PacketSink sink, int max) {
            while (!icmp.isEmpty()) {
                sink.icmp(icmp.poll());
            }
            int n = 0;
            while (n < max && !inbound.isEmpty()) {
                Queued q = inbound.poll();
                // Deliver from the middle of a larger buffer, as real layers do.
                ByteBuffer big = ByteBuffer.allocate(q.bytes().length + 40);
                big.position(20);
                big.put(q.bytes());
                big.limit(20 + q.bytes().length).position(20);
                sink.packet(big, q.from(), q.to());
                n++;
            }
            return n;
        }

        @Override
        public void await(long timeoutNanos) {
            awaited.add(timeoutNanos);
        }

        @Override
        public long receiveDropped() {
            return dropped;
        }

        @Override
        public void flush() {
            flushes++;
        }

        @Override
        public void wakeup() {
            wakeups++;
        }

        @Override
        public int encapsulationOverhead() {
            return overhead;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    /** One frame of the capture, with the fields the decorator chose. */
    record Frame(
            long nanos,
            int etherType,
            int protocol,
            InetAddress src,
            InetAddress dst,
            int srcPort,
            int dstPort,
            byte[] sctp) {}

    static List<Frame> read(Path file) throws IOException {
        ByteBuffer f = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        List<Frame> out = new ArrayList<>();
        int at = 24;
        while (at + 16 <= f.limit()) {
            f.order(ByteOrder.LITTLE_ENDIAN);
            long nanos = (f.getInt(at) & 0xffffffffL) * 1_000_000_000L + f.getInt(at + 4);
            int len = f.getInt(at + 8);
            int frame = at + 16;
            f.order(ByteOrder.BIG_ENDIAN);
            int etherType = f.getShort(frame + 12) & 0xffff;
            int ip = frame + 14;
            int protocol;
            byte[] src;
            byte[] dst;
            int transport;
            if (etherType == Frames.ETHERTYPE_IPV4) {
                protocol = f.get(ip + 9) & 0xff;
                src = Arrays.copyOfRange(f.array(), ip + 12, ip + 16);
                dst = Arrays.copyOfRange(f.array(), ip + 16, ip + 20);
                transport = ip + 20;
            } else {
                protocol = f.get(ip + 6) & 0xff;
                src = Arrays.copyOfRange(f.array(), ip + 8, ip + 24);
                dst = Arrays.copyOfRange(f.array(), ip + 24, ip + 40);
                transport = ip + 40;
            }
            int srcPort = -1;
            int dstPort = -1;
            if (protocol == Frames.PROTOCOL_UDP) {
                srcPort = f.getShort(transport) & 0xffff;
                dstPort = f.getShort(transport + 2) & 0xffff;
                transport += 8;
            }
            byte[] sctp = Arrays.copyOfRange(f.array(), transport, frame + len);
            out.add(new Frame(
                    nanos,
                    etherType,
                    protocol,
                    InetAddress.getByAddress(src),
                    InetAddress.getByAddress(dst),
                    srcPort,
                    dstPort,
                    sctp));
            at = frame + len;
        }
        return out;
    }

    static byte[] sctp(int tsn) {
        return SctpPacket.of(
                        5000,
                        5001,
                        0x01020304,
                        new DataChunk(
                                false, false, true, true, tsn, 1, 2, 0x10000000, Bytes.of((byte) 'h', (byte) 'i')))
                .toBytes();
    }

    static InetAddress addr(String s) throws IOException {
        return InetAddress.getByName(s);
    }

    @Test
    void rawFramingWritesSentAndReceivedPacketsWithTheirAddresses() throws Exception {
        Path file = dir.resolve("raw.pcap");
        FakeLayer inner = new FakeLayer();
        AtomicLong clock = new AtomicLong(1_000_000_000_000L);
        InetAddress a = addr("10.0.0.1");
        InetAddress b = addr("10.0.0.2");
        InetAddress a6 = addr("2001:db8::1");
        InetAddress b6 = addr("2001:db8::2");
        List<String> seen = new ArrayList<>();
        try (PcapLowerLayer llp =
                new PcapLowerLayer(inner, PcapWriter.open(file), PcapLowerLayer.Framing.raw(), clock::get, true)) {
            ByteBuffer out = ByteBuffer.wrap(sctp(1));
            llp.send(out, a, b);
            assertEquals(0, out.position(), "the caller's buffer is left as it was");
            clock.addAndGet(5);
            inner.inbound.add(new FakeLayer.Queued(sctp(2), b6, a6));
            inner.inbound.add(new FakeLayer.Queued(sctp(3), b, a));
            assertEquals(
                    2,
                    llp.receive(
                            (buf, from, to) -> {
                                byte[] x = new byte[buf.remaining()];
                                buf.get(x);
                                seen.add(from.getHostAddress() + ">" + to.getHostAddress() + ":" + Arrays.hashCode(x));
                            },
                            10));
            assertEquals(3, llp.packetsWritten());
        }
        assertTrue(inner.closed);
        assertEquals(1, inner.sent.size());
        assertArrayEquals(sctp(1), inner.sent.get(0).bytes());
        assertEquals(a, inner.sent.get(0).source());
        assertEquals(
                List.of(
                        "2001:db8:0:0:0:0:0:2>2001:db8:0:0:0:0:0:1:" + Arrays.hashCode(sctp(2)),
                        "10.0.0.2>10.0.0.1:" + Arrays.hashCode(sctp(3))),
                seen,
                "the sink sees the packets untouched");

        List<Frame> frames = read(file);
        assertEquals(3, frames.size());
        assertEquals(
                new Frame(1_000_000_000_000L, 0x0800, 132, a, b, -1, -1, sctp(1))
                        .toString()
                        .split("sctp=")[0],
                frames.get(0).toString().split("sctp=")[0]);
        assertArrayEquals(sctp(1), frames.get(0).sctp());
        assertEquals(0x86dd, frames.get(1).etherType());
        assertEquals(132, frames.get(1).protocol());
        assertEquals(b6, frames.get(1).src());
        assertEquals(a6, frames.get(1).dst());
        assertEquals(1_000_000_000_005L, frames.get(1).nanos());
        assertArrayEquals(sctp(2), frames.get(1).sctp());
        assertEquals(b, frames.get(2).src());
        assertEquals(a, frames.get(2).dst());
        assertArrayEquals(sctp(3), frames.get(2).sctp());
    }

    @Test
    void icmpReportsAndTheDropCountPassThroughUntraced() throws Exception {
        Path file = dir.resolve("icmp.pcap");
        FakeLayer inner = new FakeLayer();
        InetAddress a = addr("192.0.2.1");
        InetAddress b = addr("192.0.2.2");
        IcmpReport r = IcmpReport.fromQuoted(false, 3, 2, 0, false, a, b, ByteBuffer.wrap(sctp(1)))
                .orElseThrow();
        inner.icmp.add(r);
        inner.dropped = 42;
        List<IcmpReport> seen = new ArrayList<>();
        try (PcapLowerLayer llp =
                new PcapLowerLayer(inner, PcapWriter.open(file), PcapLowerLayer.Framing.raw(), () -> 7L, true)) {
            llp.receive(
                    new LowerLayer.PacketSink() {
                        @Override
                        public void packet(ByteBuffer sctp, InetAddress from, InetAddress to) {}

                        @Override
                        public void icmp(IcmpReport report) {
                            seen.add(report);
                        }
                    },
                    1);
            assertEquals(42, llp.receiveDropped());
        }
        assertEquals(List.of(r), seen);
        assertEquals(List.of(), read(file), "no frame for an ICMP report");
    }

    @Test
    void udpFramingPutsOurPortOnOurSide() throws Exception {
        Path file = dir.resolve("udp.pcap");
        FakeLayer inner = new FakeLayer();
        inner.overhead = 8;
        InetAddress a = addr("192.0.2.1");
        InetAddress b = addr("192.0.2.2");
        try (PcapLowerLayer llp = new PcapLowerLayer(
                inner, PcapWriter.open(file), PcapLowerLayer.Framing.udp(40000, 9899), () -> 7L, true)) {
            assertEquals(8, llp.encapsulationOverhead());
            llp.send(ByteBuffer.wrap(sctp(1)), a, b);
            inner.inbound.add(new FakeLayer.Queued(sctp(2), b, a));
            assertEquals(1, llp.receive((buf, from, to) -> {}, 1));
        }
        List<Frame> frames = read(file);
        assertEquals(2, frames.size());
        assertEquals(17, frames.get(0).protocol());
        assertEquals(40000, frames.get(0).srcPort());
        assertEquals(9899, frames.get(0).dstPort());
        assertEquals(a, frames.get(0).src());
        assertEquals(9899, frames.get(1).srcPort());
        assertEquals(40000, frames.get(1).dstPort());
        assertEquals(b, frames.get(1).src());
        assertArrayEquals(sctp(2), frames.get(1).sctp());
        assertEquals(7L, frames.get(1).nanos());
    }

    @Test
    void unknownAddressesBecomeTheWildcardOfTheRightFamily() throws Exception {
        Path file = dir.resolve("wild.pcap");
        FakeLayer inner = new FakeLayer();
        InetAddress b6 = addr("2001:db8::2");
        InetAddress any4 = addr("0.0.0.0");
        try (PcapLowerLayer llp =
                new PcapLowerLayer(inner, PcapWriter.open(file), PcapLowerLayer.Framing.raw(), () -> 1L, true)) {
            llp.send(ByteBuffer.wrap(sctp(1)), null, b6);
            llp.send(ByteBuffer.wrap(sctp(2)), any4, b6);
            inner.inbound.add(new FakeLayer.Queued(sctp(3), b6, any4));
            llp.receive((buf, from, to) -> assertEquals(any4, to, "the sink sees what the inner layer gave"), 5);
        }
        assertEquals(null, inner.sent.get(0).source(), "the inner layer gets the caller's source");
        List<Frame> frames = read(file);
        assertEquals(3, frames.size());
        assertEquals(addr("::"), frames.get(0).src());
        assertEquals(addr("::"), frames.get(1).src());
        assertEquals(b6, frames.get(2).src());
        assertEquals(addr("::"), frames.get(2).dst());
    }

    @Test
    void awaitWakeupAndCloseAreDelegated() throws Exception {
        FakeLayer inner = new FakeLayer();
        PcapWriter w = PcapWriter.open(dir.resolve("d.pcap"));
        PcapLowerLayer llp = new PcapLowerLayer(inner, w, PcapLowerLayer.Framing.raw(), () -> 0L, false);
        assertEquals(inner, llp.inner());
        llp.await(123);
        llp.wakeup();
        llp.wakeup();
        assertEquals(List.of(123L), inner.awaited);
        assertEquals(2, inner.wakeups);
        llp.flush();
        assertEquals(1, inner.flushes);
        llp.flushCapture();
        llp.close();
        assertTrue(inner.closed);
        // The writer was not ours to close: it still takes packets.
        w.writeRaw(sctp(1), addr("10.0.0.1"), addr("10.0.0.2"), 1);
        w.close();
        assertFalse(read(dir.resolve("d.pcap")).isEmpty());
    }

    @Test
    void misuseIsRefused() throws Exception {
        try (PcapWriter w = PcapWriter.open(dir.resolve("m.pcap"))) {
            assertThrows(IllegalArgumentException.class, () -> PcapLowerLayer.Framing.udp(0, 9899));
            assertThrows(IllegalArgumentException.class, () -> PcapLowerLayer.Framing.udp(1, 65536));
            assertThrows(
                    IllegalArgumentException.class, () -> new PcapLowerLayer(null, w, PcapLowerLayer.Framing.raw()));
        }
    }

    @Test
    void tsharkDecodesTheTraceClean() throws Exception {
        Path file = dir.resolve("judge.pcap");
        FakeLayer inner = new FakeLayer();
        InetAddress a = addr("10.0.0.1");
        InetAddress b = addr("10.0.0.2");
        try (PcapLowerLayer llp = new PcapLowerLayer(inner, PcapWriter.open(file), PcapLowerLayer.Framing.raw())) {
            for (int i = 0; i < 5; i++) {
                llp.send(ByteBuffer.wrap(sctp(i)), a, b);
                inner.inbound.add(new FakeLayer.Queued(sctp(100 + i), b, a));
            }
            llp.receive((buf, from, to) -> {}, 100);
        }
        try (PcapWriter u = PcapWriter.open(dir.resolve("judge-udp.pcap"));
                PcapLowerLayer llp = new PcapLowerLayer(
                        inner, u, PcapLowerLayer.Framing.udp(9899, 9899), PcapLowerLayer::wallClockNanos, false)) {
            llp.send(ByteBuffer.wrap(sctp(7)), a, b);
        }
        Verdict v;
        Verdict vu;
        try {
            v = new TsharkJudge().judge(file);
            vu = new TsharkJudge().judge(dir.resolve("judge-udp.pcap"));
        } catch (IOException e) {
            assumeTrue(false, "tshark is not available: " + e.getMessage());
            return;
        }
        assertTrue(v.clean(), v.report());
        assertEquals(10, v.packets());
        assertTrue(vu.clean(), vu.report());
        assertEquals(1, vu.packets());
    }
}
