package org.sctpj.bench.micro;

import java.nio.ByteBuffer;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.sctpj.bench.core.BackToBack;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;

/**
 * Steady-state bulk transfer through two protocol cores back to back in one thread (no sockets,
 * virtual clock; {@link BackToBack}): one operation sends one {@code size}-byte message and runs
 * one round of packet exchange, so over many operations every message is carried, acknowledged
 * and delivered. Run with {@code -prof gc}: {@code gc.alloc.rate.norm} is the bytes allocated per
 * message by both sides together, the delivered message's own {@code byte[]} (the receiver API
 * hands each message out as an array) included. {@link org.sctpj.bench.core.BulkAllocation}
 * splits the figure by side.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class BulkAllocBench {

    /** Message size in bytes. */
    @Param({"1000"})
    public int size;

    private BackToBack pair;
    private ByteBuffer message;
    private long sent;
    private final SendInfo info = SendInfo.of(0, 51);

    /** A connected pair (LAN profile, Nagle on, MTU 1500). */
    @Setup
    public void setup() {
        pair = new BackToBack(SctpOptions.LAN, null);
        message = ByteBuffer.allocate(size);
    }

    /** One message in, one round of packets both ways. */
    @Benchmark
    public long sendOne() {
        pair.advance(2_000);
        pair.send(info, message, 2_000);
        sent++;
        pair.round();
        return pair.delivered();
    }

    /** Checks that the messages were carried (not merely queued). */
    @TearDown
    public void check() {
        pair.settle(100_000, 100_000);
        if (pair.delivered() != sent) {
            throw new IllegalStateException("sent " + sent + " but delivered " + pair.delivered());
        }
    }
}
