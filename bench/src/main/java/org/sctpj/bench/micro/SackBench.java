package org.sctpj.bench.micro;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.cc.Rfc9260CongestionController;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.tx.AckResult;
import org.sctpj.stack.tx.DataSender;
import org.sctpj.stack.tx.PacketBuilder;

/**
 * SACK processing in the data sender ({@link DataSender#onSack}) with {@code gaps} gap ack blocks.
 *
 * <p>One operation is one round of a steady sender: {@code 2 * gaps + 1} chunks of 100 bytes are
 * outstanding; a SACK arrives whose cumulative ack leaves the first chunk missing and whose gap
 * blocks acknowledge every second chunk after it (so every block is one TSN and the missing
 * chunks get a miss indication); then a SACK acknowledges everything cumulatively; then as many
 * new messages are queued and sent again (packets built, checksums filled). {@code gaps=0} is the
 * round without the gap SACK's blocks: the difference between the rows is the cost of the blocks.
 * The round is measured whole because a SACK can be processed only once; {@link #refillOnly} is
 * the send half alone.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SackBench {

    /** Gap ack blocks in the first SACK of each round. */
    @Param({"0", "1", "4", "64"})
    public int gaps;

    private static final int MESSAGE = 100;
    private static final long RWND = 4 << 20;
    private SctpOptions options;
    private DataSender sender;
    private Path path;
    private List<Path> paths;
    private PacketBuilder pb;
    private final ByteBuffer message = ByteBuffer.allocate(MESSAGE);
    private int[] starts;
    private int[] ends;
    private int outstanding;
    private long now = 1_000_000_000L;

    /** A sender with one path and the first round's chunks outstanding. */
    @Setup
    public void setup() {
        options = SctpOptions.LAN.toBuilder().noDelay(true).build();
        path = new Path(0, InetAddress.getLoopbackAddress(), 1500, options);
        Rfc9260CongestionController cc = new Rfc9260CongestionController();
        cc.init(path, RWND);
        paths = List.of(path);
        sender = new DataSender(options, 1, 1, RWND, cc);
        pb = new PacketBuilder(path.maxPacketBytes());
        outstanding = 2 * gaps + 1;
        starts = new int[Math.max(1, gaps)];
        ends = new int[Math.max(1, gaps)];
        for (int i = 0; i < gaps; i++) {
            starts[i] = 2 * i + 2; // offsets from the cumulative ack: the 2nd, 4th, ... chunk
            ends[i] = 2 * i + 2;
        }
        refill();
    }

    /** Queues {@code outstanding} messages and sends them all. */
    private int refill() {
        for (int i = 0; i < outstanding; i++) {
            message.clear();
            if (sender.send(0, 0, false, false, message) != DataSender.SendStatus.ACCEPTED) {
                throw new IllegalStateException("send buffer full");
            }
        }
        path.setCwnd(1L << 30);
        int packets = 0;
        while (sender.hasDataToSend(now)) {
            sender.beginBurst(path);
            pb.reset(5000, 5001, 1, path.maxPacketBytes());
            sender.fill(pb, path, paths, now);
            if (pb.isEmpty()) {
                throw new IllegalStateException("nothing sent: " + sender);
            }
            pb.finish();
            packets++;
        }
        return packets;
    }

    /** One round: the gap SACK, the cumulative SACK, and the refill. */
    @Benchmark
    public int sackRound() {
        now += 1_000;
        int cum = sender.cumulativeAckTsn();
        AckResult r = sender.onSack(cum, RWND, starts, ends, gaps, 0, paths, now);
        if (gaps > 0 && !r.anyNewlyAcked()) {
            throw new IllegalStateException("gap SACK acknowledged nothing: " + sender);
        }
        r = sender.onSack(sender.nextTsn() - 1, RWND, starts, ends, 0, 0, paths, now);
        if (!r.cumAckAdvanced()) {
            throw new IllegalStateException("cumulative SACK did not advance: " + sender);
        }
        return refill();
    }

    /** The refill half alone: acknowledge cumulatively, then queue and send the same chunks. */
    @Benchmark
    public int refillOnly() {
        now += 1_000;
        sender.onSack(sender.nextTsn() - 1, RWND, starts, ends, 0, 0, paths, now);
        return refill();
    }
}
