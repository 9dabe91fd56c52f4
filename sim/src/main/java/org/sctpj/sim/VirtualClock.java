package org.sctpj.sim;

/**
 * Simulated time in nanoseconds, starting at 0. It only moves forward, and only when the {@link
 * Simulator} jumps it to the next event; nothing here reads the wall clock.
 */
public final class VirtualClock {

    private long now;

    /** A clock at time 0. */
    public VirtualClock() {}

    /** The current virtual time in nanoseconds. */
    public long nowNanos() {
        return now;
    }

    /**
     * Moves the clock to {@code t}.
     *
     * @throws IllegalArgumentException if {@code t} is before the current time (time never goes back)
     */
    public void advanceTo(long t) {
        if (t < now) {
            throw new IllegalArgumentException(
                    "virtual time goes forward only: now " + now + " ns, asked for " + t + " ns");
        }
        now = t;
    }

    @Override
    public String toString() {
        return "VirtualClock[" + now + " ns]";
    }
}
