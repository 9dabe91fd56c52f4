package org.sctpj.timers;

import java.io.IOException;

/**
 * What the {@link StackThread} does when a turn of its loop found no work: spin (lowest latency,
 * one busy core), yield, or park (lowest CPU: block in the lower layer until a packet, a command
 * or the next timer deadline), or a mix that spins first and parks later.
 *
 * <p>Strategies are stateless: the thread passes the number of consecutive idle turns, so one
 * instance may serve several threads.
 */
@FunctionalInterface
public interface IdleStrategy {

    /** Blocks the stack thread; given by the thread to {@link #idle}. */
    @FunctionalInterface
    interface Waiter {
        /**
         * Blocks until a packet may have arrived, a command was handed over, or {@code nanos}
         * pass (spurious early returns are allowed).
         */
        void await(long nanos) throws IOException;
    }

    /**
     * Called after a turn with no work.
     *
     * @param idleTurns consecutive turns without work, this one included (1, 2, ...)
     * @param maxWaitNanos time until the next timer deadline (capped by the thread's park limit);
     *     never block longer
     * @param waiter blocks until input, a command or the timeout
     */
    void idle(long idleTurns, long maxWaitNanos, Waiter waiter) throws IOException;

    /** Busy-spins ({@link Thread#onSpinWait()}): lowest latency, keeps one core busy. */
    static IdleStrategy spin() {
        return (turns, wait, waiter) -> Thread.onSpinWait();
    }

    /** Yields the core to other threads ({@link Thread#yield()}) but never blocks. */
    static IdleStrategy yielding() {
        return (turns, wait, waiter) -> Thread.yield();
    }

    /**
     * Blocks in the lower layer (or parks) until a packet, a command or the next deadline: no CPU
     * when idle; a wake-up costs some microseconds. The default.
     */
    static IdleStrategy park() {
        return (turns, wait, waiter) -> waiter.await(wait);
    }

    /**
     * Spins for {@code spins} idle turns, then yields for {@code yields} turns, then parks: low
     * latency under load, low CPU when idle.
     */
    static IdleStrategy backoff(int spins, int yields) {
        if (spins < 0 || yields < 0) {
            throw new IllegalArgumentException("spins and yields must be >= 0, were " + spins + ", " + yields);
        }
        return (turns, wait, waiter) -> {
            if (turns <= spins) {
                Thread.onSpinWait();
            } else if (turns <= (long) spins + yields) {
                Thread.yield();
            } else {
                waiter.await(wait);
            }
        };
    }
}
