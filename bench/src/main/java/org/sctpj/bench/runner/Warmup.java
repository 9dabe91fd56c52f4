package org.sctpj.bench.runner;

/**
 * The unmeasured start of a ping: at least {@code rounds} round trips and, for the JVM contenders,
 * at least {@code seconds} since the first, so that the JIT's first seconds of compilation (which
 * take one of the two cores) are left out of the round trips as they are of the throughput runs.
 * Read by the ping's own thread only.
 */
final class Warmup {
    private final int rounds;
    private final long nanos;
    private int done;
    private long first = -1;
    private boolean over;

    Warmup(int rounds, double seconds) {
        this.rounds = rounds;
        this.nanos = (long) (seconds * 1e9);
    }

    /** From the ping's arguments: {@code warmup=} round trips and {@code warmup-s=} seconds (default 0). */
    static Warmup of(Args a) {
        return new Warmup(a.integer("warmup", 2000), a.dbl("warmup-s", 0));
    }

    /**
     * Called after each round trip, at time {@code now}: whether the warm-up was over before it,
     * i.e. whether this round trip counts.
     */
    boolean counts(long now) {
        if (over) {
            return true;
        }
        if (first < 0) {
            first = now;
        }
        done++;
        over = done >= rounds && now - first >= nanos;
        return false;
    }
}
