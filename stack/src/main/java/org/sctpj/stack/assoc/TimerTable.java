package org.sctpj.stack.assoc;

import java.util.Arrays;

/**
 * Every protocol timer of one association, as deadlines in one array of {@code long}s indexed by
 * ({@link TimerKind}, path): no object per timer, nothing allocated to start, stop or run one.
 * A deadline is a time in nanoseconds on the caller's clock; {@link #NONE} means stopped.
 *
 * <p>The table only stores deadlines; the owner says which kinds count in its current state and
 * what each expiry does ({@link Owner}). {@link #nextTimeout} is the earliest armed deadline of the
 * kinds that count; {@link #handleTimeout} is the one dispatch: it walks the table in {@link
 * TimerKind} order (then path order) and hands each due timer to its owner, asking again before
 * each slot, so an expiry that ends the association stops the walk and one that arms another timer
 * already due (a path found Potentially Failed is probed at once) has it run in the same walk.
 *
 * <p>Per-path state kept elsewhere reads and writes its slot in {@link #slots()} directly: {@link
 * org.sctpj.stack.path.Path}'s T3-rtx and {@link org.sctpj.stack.rx.DataReceiver}'s delayed SACK are
 * bound to theirs, so the table is the only place these deadlines live.
 */
public final class TimerTable {

    /** The deadline of a stopped timer. */
    public static final long NONE = Long.MAX_VALUE;

    /** Paths per association the table has room for (an association keeps at most this many). */
    public static final int MAX_PATHS = 16;

    private static final TimerKind[] KINDS = TimerKind.values();
    private static final int[] BASE = new int[KINDS.length];
    private static final int SIZE;

    static {
        int n = 0;
        for (TimerKind k : KINDS) {
            BASE[k.ordinal()] = n;
            n += k.perPath() ? MAX_PATHS : 1;
        }
        SIZE = n;
    }

    /** What the table needs from the association that owns it. */
    public interface Owner {
        /**
         * Whether timers of {@code kind} count now: a deadline of a kind that does not count is
         * neither reported by {@link #nextTimeout} nor run by {@link #handleTimeout} (false for every
         * kind once the association is closed).
         */
        boolean counts(TimerKind kind);

        /** The timer {@code kind} of {@code path} (0 for a kind that is not per path) expired. */
        void expired(TimerKind kind, int path, long now);
    }

    private final long[] deadlines = new long[SIZE];
    private int paths;

    /** A table with every timer stopped. */
    public TimerTable() {
        Arrays.fill(deadlines, NONE);
    }

    /** The slot of {@code kind}, or of its timer for {@code path} when it is per path. */
    public static int slot(TimerKind kind, int path) {
        if (kind.perPath()) {
            if (path < 0 || path >= MAX_PATHS) {
                throw new IllegalArgumentException("path must be 0.." + (MAX_PATHS - 1) + ", was " + path);
            }
            return BASE[kind.ordinal()] + path;
        }
        return BASE[kind.ordinal()];
    }

    /**
     * The deadlines themselves, indexed by {@link #slot}; for state bound to a slot (a path's
     * T3-rtx, the receiver's delayed SACK), which reads and writes it in place.
     */
    public long[] slots() {
        return deadlines;
    }

    /** Per-path timers are walked for paths {@code 0..n-1}; n only grows. */
    public void usePaths(int n) {
        if (n > MAX_PATHS) {
            throw new IllegalArgumentException("at most " + MAX_PATHS + " paths, was " + n);
        }
        paths = Math.max(paths, n);
    }

    /** The deadline of {@code kind} (not per path). */
    public long deadline(TimerKind kind) {
        return deadlines[slot(kind, 0)];
    }

    /** The deadline of {@code kind} for {@code path}. */
    public long deadline(TimerKind kind, int path) {
        return deadlines[slot(kind, path)];
    }

    /** Whether {@code kind} (not per path) is running. */
    public boolean armed(TimerKind kind) {
        return deadline(kind) != NONE;
    }

    /** Sets the deadline of {@code kind} (not per path); {@link #NONE} stops it. */
    public void start(TimerKind kind, long at) {
        deadlines[slot(kind, 0)] = at;
    }

    /** Sets the deadline of {@code kind} for {@code path}; {@link #NONE} stops it. */
    public void start(TimerKind kind, int path, long at) {
        deadlines[slot(kind, path)] = at;
    }

    /** Stops {@code kind} (not per path). */
    public void stop(TimerKind kind) {
        start(kind, NONE);
    }

    /** Stops every timer. */
    public void stopAll() {
        Arrays.fill(deadlines, NONE);
    }

    /** The earliest armed deadline of the kinds that count now, or {@link #NONE}. */
    public long nextTimeout(Owner owner) {
        long m = NONE;
        for (TimerKind k : KINDS) {
            if (!owner.counts(k)) {
                continue;
            }
            int base = BASE[k.ordinal()];
            int n = k.perPath() ? paths : 1;
            for (int i = 0; i < n; i++) {
                m = Math.min(m, deadlines[base + i]);
            }
        }
        return m;
    }

    /**
     * Runs every timer due at {@code now}, in {@link TimerKind} order then path order, through
     * {@link Owner#expired}; whether a kind counts is asked again before each slot. An expired timer
     * is not stopped here: its owner restarts or stops it.
     */
    public void handleTimeout(long now, Owner owner) {
        for (TimerKind k : KINDS) {
            int base = BASE[k.ordinal()];
            int n = k.perPath() ? paths : 1;
            for (int i = 0; i < n && owner.counts(k); i++) {
                if (deadlines[base + i] <= now) {
                    owner.expired(k, i, now);
                }
            }
        }
    }
}
