package org.sctpj.stack.datapath;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.cc.Rfc9260CongestionController;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.rx.DataReceiver;
import org.sctpj.stack.tx.DataSender;
import org.sctpj.stack.tx.PacketBuilder;
import org.sctpj.stack.wire.ChecksumPolicy;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.DataChunk;

/**
 * A DataSender wired to a DataReceiver through PacketBuilder, the wire codec and a simulated link
 * with seeded loss (both ways) and a fixed one-way delay, driven by virtual time only (no
 * association). The test sends through {@link #tx} and takes messages from {@link #rx}.
 */
final class LossyLoopback {

    static final long MS = 1_000_000L;

    private record Event(long at, long seq, byte[] packet, int cum, long rwnd, int[] starts, int[] ends)
            implements Comparable<Event> {
        @Override
        public int compareTo(Event o) {
            return at != o.at ? Long.compare(at, o.at) : Long.compare(seq, o.seq);
        }
    }

    final Path path;
    final List<Path> paths;
    final DataSender tx;
    final DataReceiver rx;
    private final SplittableRandom rnd;
    private final double loss;
    private final long delay;
    private final PacketBuilder pb = new PacketBuilder(65535);
    private final PriorityQueue<Event> toRx = new PriorityQueue<>();
    private final PriorityQueue<Event> toTx = new PriorityQueue<>();
    private long seq;

    /** Virtual time, in nanoseconds. */
    long now;
    /** The largest packet sent, in bytes. */
    int largestPacket;
    /** The most the receiver held after a packet, in bytes. */
    long mostBuffered;
    /** DATA chunks the receiver answered with {@link DataReceiver.DataResult#DROPPED_CANNOT_TAKE}. */
    long cannotTake;

    LossyLoopback(SctpOptions o, int initialTsn, int streams, SplittableRandom rnd, double loss, long delayNanos) {
        this.rnd = rnd;
        this.loss = loss;
        this.delay = delayNanos;
        try {
            path = new Path(0, InetAddress.getByAddress(new byte[] {(byte) 192, 0, 2, 1}), 1500, o);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
        paths = List.of(path);
        var cc = new Rfc9260CongestionController();
        cc.init(path, o.receiveBufferBytes());
        tx = new DataSender(o, initialTsn, streams, o.receiveBufferBytes(), cc);
        rx = new DataReceiver(o, initialTsn, streams);
    }

    /**
     * Runs steps until {@code done} (checked once the sender has nothing outstanding or waiting)
     * or {@code maxSteps}: each step {@code writer} sends what it wants, the windows let packets
     * out, a due SACK goes back, then time moves to the next arrival or timer; after each packet
     * the receiver takes, {@code reader} takes the receiver's messages. Fails when nothing is left
     * to happen before {@code done}.
     */
    void run(Runnable writer, Consumer<DataReceiver> reader, BooleanSupplier done, int maxSteps) {
        for (int step = 0; step < maxSteps; step++) {
            writer.run();
            tx.beginBurst(path);
            while (true) {
                pb.reset(5000, 5001, 0x11223344, path.maxPacketBytes());
                tx.fill(pb, path, paths, now);
                if (pb.isEmpty()) {
                    break;
                }
                byte[] packet = pb.finish();
                largestPacket = Math.max(largestPacket, packet.length);
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
            if (tx.isEmpty() && done.getAsBoolean()) {
                return;
            }
            long next = Long.MAX_VALUE;
            if (!toRx.isEmpty()) {
                next = Math.min(next, toRx.peek().at);
            }
            if (!toTx.isEmpty()) {
                next = Math.min(next, toTx.peek().at);
            }
            next = Math.min(next, path.t3Deadline());
            next = Math.min(next, rx.sackDeadline());
            if (next == Long.MAX_VALUE) {
                fail("stalled at " + now / MS + " ms: " + tx + " " + rx + " " + path);
            }
            now = Math.max(now, next);
            while (!toRx.isEmpty() && toRx.peek().at <= now) {
                receive(toRx.poll().packet);
                reader.accept(rx);
            }
            while (!toTx.isEmpty() && toTx.peek().at <= now) {
                Event e = toTx.poll();
                tx.onSack(e.cum, e.rwnd, e.starts, e.ends, e.starts.length, 0, paths, now);
            }
            if (now >= path.t3Deadline()) {
                tx.onT3Expired(path, paths, now);
            }
        }
    }

    private void receive(byte[] packet) {
        Parsed<SctpPacket> parsed = SctpPacket.decode(ByteBuffer.wrap(packet), ChecksumPolicy.VERIFY);
        assertTrue(parsed.isOk(), parsed::toString);
        boolean immediate = false;
        for (Chunk c : parsed.value().chunks()) {
            DataChunk d = (DataChunk) c;
            byte[] user = d.userData().toArray();
            DataReceiver.DataResult r = rx.onData(
                    d.tsn(), d.streamId(), d.ssn(), d.ppid(), d.flags(), ByteBuffer.wrap(user), 0, user.length, now);
            if (r == DataReceiver.DataResult.DROPPED_CANNOT_TAKE) {
                cannotTake++;
            }
            immediate |= d.immediate();
        }
        mostBuffered = Math.max(mostBuffered, rx.bufferedBytes());
        rx.onPacketProcessed(true, immediate, now);
    }
}
