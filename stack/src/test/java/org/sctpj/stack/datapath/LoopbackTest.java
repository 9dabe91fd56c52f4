package org.sctpj.stack.datapath;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.path.Rfc9260CongestionController;
import org.sctpj.stack.rx.DataReceiver;
import org.sctpj.stack.rx.ReceivedMessage;
import org.sctpj.stack.tx.DataSender;
import org.sctpj.stack.tx.PacketBuilder;
import org.sctpj.stack.wire.ChecksumPolicy;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.DataChunk;

/**
 * A DataSender wired to a DataReceiver through PacketBuilder, the wire codec and a simulated link
 * with seeded loss, driven by virtual time only (no association): every message arrives once, in
 * order per stream.
 */
class LoopbackTest {

    private static final long MS = 1_000_000L;
    private static final int MESSAGES = 1000;
    private static final int STREAMS = 16;

    private record Event(long at, long seq, byte[] packet, int cum, long rwnd, int[] starts, int[] ends)
            implements Comparable<Event> {
        @Override
        public int compareTo(Event o) {
            return at != o.at ? Long.compare(at, o.at) : Long.compare(seq, o.seq);
        }
    }

    @ParameterizedTest
    @CsvSource({"1, false, 0.10", "2, true, 0.10", "3, false, 0.0", "4, true, 0.25", "5, false, 0.10"})
    void thousandMessagesOverLossyLinkArriveOnceInOrder(long seed, boolean noDelay, double loss) throws Exception {
        SctpOptions o = SctpOptions.WAN.toBuilder()
                .rtoInitial(Duration.ofMillis(100))
                .rtoMin(Duration.ofMillis(30))
                .rtoMax(Duration.ofMillis(400))
                .delayedAckTime(Duration.ofMillis(15))
                .noDelay(noDelay)
                .sendBufferBytes(64 * 1024)
                .receiveBufferBytes(48 * 1024)
                .maxMessageSize(16 * 1024)
                .build();
        SplittableRandom rnd = new SplittableRandom(seed);
        Path p = new Path(0, InetAddress.getByAddress(new byte[] {(byte) 192, 0, 2, 1}), 1500, o);
        List<Path> paths = List.of(p);
        var cc = new Rfc9260CongestionController();
        cc.init(p, o.receiveBufferBytes());
        int initialTsn = 0xFFFFFF00; // wraps during the run
        DataSender tx = new DataSender(o, initialTsn, STREAMS, o.receiveBufferBytes(), cc);
        DataReceiver rx = new DataReceiver(o, initialTsn, STREAMS);
        PacketBuilder pb = new PacketBuilder(65535);

        List<byte[]> sent = new ArrayList<>();
        int[] streamOf = new int[MESSAGES];
        int[] nextExpected = new int[STREAMS];
        int[] perStreamCount = new int[STREAMS];
        List<List<Integer>> streamMessages = new ArrayList<>();
        for (int s = 0; s < STREAMS; s++) {
            streamMessages.add(new ArrayList<>());
        }
        for (int i = 0; i < MESSAGES; i++) {
            int size = rnd.nextInt(8) == 0 ? 1500 + rnd.nextInt(6000) : 4 + rnd.nextInt(1200);
            byte[] m = new byte[size];
            rnd.nextBytes(m);
            ByteBuffer.wrap(m).putInt(i);
            int s = rnd.nextInt(STREAMS);
            sent.add(m);
            streamOf[i] = s;
            streamMessages.get(s).add(i);
            perStreamCount[s]++;
        }

        PriorityQueue<Event> toRx = new PriorityQueue<>();
        PriorityQueue<Event> toTx = new PriorityQueue<>();
        long now = 0;
        long seq = 0;
        int nextToSend = 0;
        int delivered = 0;
        long delay = 10 * MS;
        for (int step = 0; step < 2_000_000; step++) {
            // The application writes while the buffer takes it.
            while (nextToSend < MESSAGES) {
                byte[] m = sent.get(nextToSend);
                var st = tx.send(streamOf[nextToSend], 7, false, false, ByteBuffer.wrap(m));
                if (st == DataSender.SendStatus.WOULD_BLOCK) {
                    break;
                }
                nextToSend++;
            }
            // Transmit what the windows allow.
            tx.beginBurst(p);
            while (true) {
                pb.reset(5000, 5001, 0x11223344, p.maxPacketBytes());
                tx.fill(pb, p, paths, now);
                if (pb.isEmpty()) {
                    break;
                }
                byte[] packet = pb.finish();
                assertTrue(packet.length <= 1480);
                if (rnd.nextDouble() >= loss) {
                    toRx.add(new Event(now + delay, seq++, packet, 0, 0, null, null));
                }
            }
            if (rx.sackNeeded(now)) {
                long arrival = now + delay;
                long order = seq++;
                rx.writeSack(
                        (cum, rwnd, starts, ends, gaps, dups, dupCount) -> {
                            if (rnd.nextDouble() >= loss) {
                                toTx.add(new Event(
                                        arrival,
                                        order,
                                        null,
                                        cum,
                                        rwnd,
                                        Arrays.copyOf(starts, gaps),
                                        Arrays.copyOf(ends, gaps)));
                            }
                        },
                        1400);
            }
            if (delivered == MESSAGES && tx.isEmpty()) {
                break;
            }
            long next = Long.MAX_VALUE;
            if (!toRx.isEmpty()) {
                next = Math.min(next, toRx.peek().at);
            }
            if (!toTx.isEmpty()) {
                next = Math.min(next, toTx.peek().at);
            }
            next = Math.min(next, p.t3Deadline());
            next = Math.min(next, rx.sackDeadline());
            if (next == Long.MAX_VALUE) {
                fail("stalled at " + now + ": " + tx + " " + rx + " " + p + " delivered=" + delivered);
            }
            now = Math.max(now, next);
            while (!toRx.isEmpty() && toRx.peek().at <= now) {
                byte[] packet = toRx.poll().packet;
                Parsed<SctpPacket> parsed = SctpPacket.decode(ByteBuffer.wrap(packet), ChecksumPolicy.VERIFY);
                assertTrue(parsed.isOk(), () -> parsed.toString());
                boolean immediate = false;
                for (Chunk c : parsed.value().chunks()) {
                    DataChunk d = (DataChunk) c;
                    byte[] user = d.userData().toArray();
                    rx.onData(
                            d.tsn(),
                            d.streamId(),
                            d.ssn(),
                            d.ppid(),
                            d.flags(),
                            ByteBuffer.wrap(user),
                            0,
                            user.length,
                            now);
                    immediate |= d.immediate();
                }
                rx.onPacketProcessed(true, immediate, now);
                for (ReceivedMessage m; (m = rx.pollMessage()) != null; ) {
                    int index = ByteBuffer.wrap(m.data()).getInt();
                    int s = m.streamId();
                    assertEquals(streamOf[index], s);
                    assertEquals(7, m.ppid());
                    List<Integer> order = streamMessages.get(s);
                    assertEquals(order.get(nextExpected[s]), index, "order on stream " + s);
                    nextExpected[s]++;
                    assertArrayEquals(sent.get(index), m.data());
                    delivered++;
                }
            }
            while (!toTx.isEmpty() && toTx.peek().at <= now) {
                Event e = toTx.poll();
                tx.onSack(e.cum, e.rwnd, e.starts, e.ends, e.starts.length, 0, paths, now);
            }
            if (now >= p.t3Deadline()) {
                tx.onT3Expired(p, paths, now);
            }
        }
        assertEquals(MESSAGES, delivered);
        for (int s = 0; s < STREAMS; s++) {
            assertEquals(perStreamCount[s], nextExpected[s]);
        }
        assertTrue(tx.isEmpty());
        assertEquals(0, rx.bufferedBytes());
        assertEquals(0, p.flightSize());
        assertEquals(initialTsn + tx.outstandingCount(), initialTsn);
        assertEquals(tx.cumulativeAckTsn(), rx.cumulativeTsn());
        assertEquals(0, rx.protocolViolations());
        if (loss > 0) {
            assertTrue(p.chunksRetransmitted() > 0, "losses were repaired by retransmission");
        }
        assertTrue(now < 600_000 * MS, "finished in virtual time " + now / MS + " ms");
    }
}
