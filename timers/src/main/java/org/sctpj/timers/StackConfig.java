package org.sctpj.timers;

import java.util.function.LongSupplier;

/**
 * Settings of a {@link StackThread} (and of each shard of a {@link StackRuntime}).
 *
 * @param name the thread's name (shards get {@code -0}, {@code -1}, ... appended)
 * @param idle what the thread does when it has no work (default {@link IdleStrategy#park()})
 * @param tickNanos the timer wheel's tick (default 1 ms; timers still fire at their exact
 *     deadline, the tick only sizes the wheel's buckets)
 * @param ticksPerWheel the wheel's slot count, a power of two (default 1024)
 * @param receiveBatch the most packets taken from one lower layer per turn (default 64)
 * @param commandBatch the most user commands run per turn (default 4096)
 * @param maxExpiriesPerPoll the most timers expired per turn (default 1024)
 * @param maxParkNanos the longest the thread blocks when idle (default 100 ms)
 * @param daemon whether the thread is a daemon thread (default true)
 * @param clock the monotonic clock in nanoseconds (default {@link System#nanoTime()})
 * @param errors where caught errors go (default {@link ErrorReporter#LOG})
 */
public record StackConfig(
        String name,
        IdleStrategy idle,
        long tickNanos,
        int ticksPerWheel,
        int receiveBatch,
        int commandBatch,
        int maxExpiriesPerPoll,
        long maxParkNanos,
        boolean daemon,
        LongSupplier clock,
        ErrorReporter errors) {

    /** The defaults listed above. */
    public static final StackConfig DEFAULT = new StackConfig(
            "sctpj-stack",
            IdleStrategy.park(),
            TimerWheel.DEFAULT_TICK_NANOS,
            TimerWheel.DEFAULT_TICKS_PER_WHEEL,
            64,
            4096,
            1024,
            100_000_000L,
            true,
            System::nanoTime,
            ErrorReporter.LOG);

    /** Validates the values. */
    public StackConfig {
        if (name == null || idle == null || clock == null || errors == null) {
            throw new IllegalArgumentException("name, idle, clock and errors must not be null");
        }
        if (tickNanos < 1 || tickNanos > 1_000_000_000L) {
            throw new IllegalArgumentException("tickNanos must be 1..1e9 (1 ns to 1 s), was " + tickNanos);
        }
        if (ticksPerWheel < 1 || ticksPerWheel > (1 << 20) || Integer.bitCount(ticksPerWheel) != 1) {
            throw new IllegalArgumentException(
                    "ticksPerWheel must be a power of two from 1 to 2^20, was " + ticksPerWheel);
        }
        if (receiveBatch < 1 || commandBatch < 1 || maxExpiriesPerPoll < 1) {
            throw new IllegalArgumentException("receiveBatch, commandBatch and maxExpiriesPerPoll must be at least 1");
        }
        if (maxParkNanos < 1) {
            throw new IllegalArgumentException("maxParkNanos must be positive, was " + maxParkNanos);
        }
    }

    /** These settings with another thread name. */
    public StackConfig withName(String v) {
        return new StackConfig(
                v,
                idle,
                tickNanos,
                ticksPerWheel,
                receiveBatch,
                commandBatch,
                maxExpiriesPerPoll,
                maxParkNanos,
                daemon,
                clock,
                errors);
    }

    /** These settings with another idle strategy. */
    public StackConfig withIdle(IdleStrategy v) {
        return new StackConfig(
                name,
                v,
                tickNanos,
                ticksPerWheel,
                receiveBatch,
                commandBatch,
                maxExpiriesPerPoll,
                maxParkNanos,
                daemon,
                clock,
                errors);
    }

    /** These settings with another wheel tick. */
    public StackConfig withTickNanos(long v) {
        return new StackConfig(
                name,
                idle,
                v,
                ticksPerWheel,
                receiveBatch,
                commandBatch,
                maxExpiriesPerPoll,
                maxParkNanos,
                daemon,
                clock,
                errors);
    }

    /** These settings with another park limit. */
    public StackConfig withMaxParkNanos(long v) {
        return new StackConfig(
                name,
                idle,
                tickNanos,
                ticksPerWheel,
                receiveBatch,
                commandBatch,
                maxExpiriesPerPoll,
                v,
                daemon,
                clock,
                errors);
    }

    /** These settings with another error reporter. */
    public StackConfig withErrors(ErrorReporter v) {
        return new StackConfig(
                name,
                idle,
                tickNanos,
                ticksPerWheel,
                receiveBatch,
                commandBatch,
                maxExpiriesPerPoll,
                maxParkNanos,
                daemon,
                clock,
                v);
    }
}
