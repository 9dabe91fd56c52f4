package org.sctpj.bench.micro;

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
import org.sctpj.timers.TimerWheel;

/**
 * The {@code timers} module's {@link TimerWheel} with {@code background} other timers scheduled far
 * ahead (as many idle associations would keep): schedule then cancel (a timer restarted before it
 * fires, the common case for T3-rtx and delayed SACK), and schedule then poll to expiry one tick
 * later (a timer that fires).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TimerWheelBench {

    /** Timers scheduled far in the future, sharing the wheel's slots. */
    @Param({"0", "10000"})
    public int background;

    private static final long TICK = TimerWheel.DEFAULT_TICK_NANOS;
    private TimerWheel wheel;
    private long now;
    private long fired;
    private final TimerWheel.ExpiryHandler handler = (id, deadline, payload) -> fired += payload;

    /** A fresh wheel with the background timers (hours ahead, spread over every slot). */
    @Setup
    public void setup() {
        wheel = new TimerWheel(0);
        now = 0;
        for (int i = 0; i < background; i++) {
            wheel.schedule(TimeUnit.HOURS.toNanos(10_000) + i * TICK, i);
        }
    }

    /** Schedules a timer 50 ms ahead and cancels it. */
    @Benchmark
    public boolean scheduleCancel() {
        long id = wheel.schedule(now + 50 * TICK, 1);
        return wheel.cancel(id);
    }

    /** Schedules a timer one tick ahead, advances the clock a tick and polls it out. */
    @Benchmark
    public int schedulePoll() {
        wheel.schedule(now + TICK, 1);
        now += TICK;
        return wheel.poll(now, handler, 16);
    }
}
