package org.sctpj.timers;

import java.util.Arrays;

/**
 * A hashed timer wheel of deadlines: {@code long} nanosecond deadlines kept in per-slot arrays,
 * with no object per scheduled timer, O(1) (amortised) {@link #schedule} and O(1) {@link #cancel},
 * and a {@link #poll} whose work is bounded by the caller.
 *
 * <p>Time is divided into ticks of {@link #tickNanos()}; a timer whose deadline falls in tick
 * {@code t} lives in slot {@code t mod ticksPerWheel}. A slot is an array of deadlines that grows
 * (doubling) only when it is full. {@link #poll} visits the slots of the ticks elapsed since the
 * last poll and expires every timer whose deadline is {@code <= now}: a timer never fires early,
 * and it is not rounded up to a tick boundary either (the tick only decides which slot holds it,
 * so a coarse tick costs scanning, not precision). Timers further away than one turn of the wheel
 * stay in their slot and are skipped until their turn comes.
 *
 * <p>A timer is named by a {@code long} id that packs its slot, its index in the slot and a
 * generation number, so that cancelling a timer that has already fired (or was cancelled, and
 * whose place was reused) is a harmless no-op instead of cancelling someone else's timer. Each
 * timer also carries a {@code long} payload given at {@link #schedule} time and handed back on
 * expiry, so the owner can tell its timers apart without a map.
 *
 * <p>Not thread-safe: one thread (the stack thread) owns a wheel.
 */
public final class TimerWheel {

    /** The id that names no timer; {@link #schedule} never returns it. */
    public static final long NULL_TIMER = -1L;

    /** The default tick: 1 ms. */
    public static final long DEFAULT_TICK_NANOS = 1_000_000L;

    /** The default number of slots (with the default tick, one turn is about 1 s). */
    public static final int DEFAULT_TICKS_PER_WHEEL = 1024;

    /** Called for each expired timer by {@link #poll}. */
    @FunctionalInterface
    public interface ExpiryHandler {
        /**
         * The timer {@code timerId} expired; it is no longer scheduled when this runs, so the
         * handler may schedule new timers (including into the same slot).
         *
         * @param timerId the id {@link #schedule} returned
         * @param deadline the deadline it was scheduled for
         * @param payload the payload it was scheduled with
         */
        void onExpiry(long timerId, long deadline, long payload);
    }

    private static final long EMPTY = Long.MAX_VALUE;
    private static final int INITIAL_SLOT_CAPACITY = 4;
    private static final int INDEX_BITS = 24;
    private static final int SLOT_BITS = 20;
    private static final int GEN_BITS = 63 - INDEX_BITS - SLOT_BITS;
    private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;
    private static final long SLOT_MASK = (1L << SLOT_BITS) - 1;
    private static final int GEN_MASK = (1 << GEN_BITS) - 1;

    private final long tickNanos;
    private final long startTime;
    private final int mask;
    // Per slot: deadlines (EMPTY when free), payloads, generations, free-list links, and counters.
    private final long[][] deadlines;
    private final long[][] payloads;
    private final int[][] generations;
    private final int[][] nextFree;
    private final int[] freeHead;
    private final int[] used;
    private final int[] count;
    private long currentTick;
    // The earliest tick a new timer may be placed in: currentTick, or during a poll the tick the
    // poll ends at, so that a timer scheduled by a handler never lands behind the wheel.
    private long floorTick;
    private int timerCount;

    /** A wheel with the {@linkplain #DEFAULT_TICK_NANOS default tick} and size, starting at {@code startTime}. */
    public TimerWheel(long startTime) {
        this(startTime, DEFAULT_TICK_NANOS, DEFAULT_TICKS_PER_WHEEL);
    }

    /**
     * A wheel whose tick 0 begins at {@code startTime}.
     *
     * @param startTime the time (nanoseconds, same clock as the deadlines) of tick 0
     * @param tickNanos the tick, in nanoseconds (1 ns .. 1 s)
     * @param ticksPerWheel the number of slots, a power of two from 1 to 2^20
     */
    public TimerWheel(long startTime, long tickNanos, int ticksPerWheel) {
        if (tickNanos < 1 || tickNanos > 1_000_000_000L) {
            throw new IllegalArgumentException("tickNanos must be 1..1e9 (1 ns to 1 s), was " + tickNanos);
        }
        if (ticksPerWheel < 1 || ticksPerWheel > (1 << SLOT_BITS) || Integer.bitCount(ticksPerWheel) != 1) {
            throw new IllegalArgumentException(
                    "ticksPerWheel must be a power of two from 1 to " + (1 << SLOT_BITS) + ", was " + ticksPerWheel);
        }
        this.tickNanos = tickNanos;
        this.startTime = startTime;
        this.mask = ticksPerWheel - 1;
        this.deadlines = new long[ticksPerWheel][];
        this.payloads = new long[ticksPerWheel][];
        this.generations = new int[ticksPerWheel][];
        this.nextFree = new int[ticksPerWheel][];
        this.freeHead = new int[ticksPerWheel];
        this.used = new int[ticksPerWheel];
        this.count = new int[ticksPerWheel];
        Arrays.fill(freeHead, -1);
    }

    /** The tick, in nanoseconds. */
    public long tickNanos() {
        return tickNanos;
    }

    /** The number of slots. */
    public int ticksPerWheel() {
        return mask + 1;
    }

    /** The number of scheduled timers. */
    public int timerCount() {
        return timerCount;
    }

    /** The time at which the tick the wheel has reached begins. */
    public long currentTickTime() {
        return startTime + currentTick * tickNanos;
    }

    /**
     * Schedules a timer. A deadline in the past (or in the tick being polled) expires at the next
     * {@link #poll}.
     *
     * @param deadline when it expires, nanoseconds on the wheel's clock; not {@link Long#MAX_VALUE}
     * @param payload handed back on expiry
     * @return the timer's id, never {@link #NULL_TIMER}
     */
    public long schedule(long deadline, long payload) {
        if (deadline == EMPTY) {
            throw new IllegalArgumentException("deadline Long.MAX_VALUE means 'never': do not schedule it");
        }
        long tick = Math.max(tickOf(deadline), floorTick);
        int slot = (int) (tick & mask);
        if (deadlines[slot] == null) {
            allocate(slot, INITIAL_SLOT_CAPACITY);
        }
        int index = freeHead[slot];
        if (index >= 0) {
            freeHead[slot] = nextFree[slot][index];
        } else {
            if (used[slot] == deadlines[slot].length) {
                grow(slot);
            }
            index = used[slot]++;
        }
        deadlines[slot][index] = deadline;
        payloads[slot][index] = payload;
        count[slot]++;
        timerCount++;
        return ((long) generations[slot][index] << (INDEX_BITS + SLOT_BITS)) | ((long) slot << INDEX_BITS) | index;
    }

    /**
     * Cancels a timer.
     *
     * @return true if it was scheduled; false for {@link #NULL_TIMER}, an id that has expired or
     *     been cancelled, or an id that is not of this wheel
     */
    public boolean cancel(long timerId) {
        if (timerId < 0) {
            return false;
        }
        int index = (int) (timerId & INDEX_MASK);
        int slot = (int) ((timerId >>> INDEX_BITS) & SLOT_MASK);
        int gen = (int) (timerId >>> (INDEX_BITS + SLOT_BITS));
        if (slot > mask || deadlines[slot] == null || index >= used[slot]) {
            return false;
        }
        if (deadlines[slot][index] == EMPTY || generations[slot][index] != gen) {
            return false;
        }
        release(slot, index);
        return true;
    }

    /** The deadline of a scheduled timer, or {@link Long#MAX_VALUE} if it is not scheduled. */
    public long deadline(long timerId) {
        if (timerId < 0) {
            return EMPTY;
        }
        int index = (int) (timerId & INDEX_MASK);
        int slot = (int) ((timerId >>> INDEX_BITS) & SLOT_MASK);
        int gen = (int) (timerId >>> (INDEX_BITS + SLOT_BITS));
        if (slot > mask || deadlines[slot] == null || index >= used[slot] || generations[slot][index] != gen) {
            return EMPTY;
        }
        return deadlines[slot][index];
    }

    /**
     * Expires timers whose deadline is {@code <= now}, in the order of their ticks (timers of one
     * tick in no particular order), calling {@code handler} for each.
     *
     * <p>Work is bounded: at most {@code maxExpiries} timers expire, and at most one turn of the
     * wheel is scanned. If the limit stops the poll, the next poll resumes where it stopped, so
     * nothing is skipped. After a gap of more than one turn since the last poll, the overdue
     * timers fire in slot order rather than deadline order (all of them are late by then).
     *
     * <p>The handler may schedule and cancel timers; one it schedules that is already due fires
     * in this poll or the next one.
     *
     * @return the number of timers expired
     */
    public int poll(long now, ExpiryHandler handler, int maxExpiries) {
        if (maxExpiries < 1) {
            throw new IllegalArgumentException("maxExpiries must be at least 1, was " + maxExpiries);
        }
        long nowTick = tickOf(now);
        if (timerCount == 0) {
            currentTick = Math.max(currentTick, nowTick);
            floorTick = currentTick;
            return 0;
        }
        floorTick = Math.max(currentTick, nowTick);
        try {
            return expire(now, nowTick, handler, maxExpiries);
        } finally {
            floorTick = currentTick;
        }
    }

    private int expire(long now, long nowTick, ExpiryHandler handler, int maxExpiries) {
        int expired = 0;
        long lastTick = Math.min(nowTick, currentTick + mask);
        for (long t = currentTick; t <= lastTick; t++) {
            int slot = (int) (t & mask);
            if (count[slot] > 0) {
                long[] d = deadlines[slot];
                int n = used[slot];
                for (int i = 0; i < n; i++) {
                    long deadline = d[i];
                    if (deadline != EMPTY && deadline <= now) {
                        if (expired == maxExpiries) {
                            currentTick = t;
                            return expired;
                        }
                        long id = ((long) generations[slot][i] << (INDEX_BITS + SLOT_BITS))
                                | ((long) slot << INDEX_BITS)
                                | i;
                        long payload = payloads[slot][i];
                        release(slot, i);
                        expired++;
                        handler.onExpiry(id, deadline, payload);
                        // The handler may have scheduled into this slot and grown it.
                        d = deadlines[slot];
                        n = used[slot];
                    }
                }
            }
            if (t == nowTick) {
                break;
            }
        }
        // After a full turn every timer due by now has been seen (each slot was scanned with the
        // exact deadline check), so the wheel may jump ahead to now's tick.
        currentTick = Math.max(currentTick, nowTick);
        return expired;
    }

    /**
     * A time at or before the earliest deadline, for choosing how long to sleep: the exact
     * earliest deadline when it lies within the next {@code maxSlots} ticks, else the start of
     * the first tick not scanned. {@link Long#MAX_VALUE} when no timer is scheduled. Scans at
     * most {@code min(maxSlots, ticksPerWheel)} slots.
     */
    public long earliestDeadlineBound(int maxSlots) {
        if (timerCount == 0) {
            return EMPTY;
        }
        int scan = Math.min(Math.max(maxSlots, 1), mask + 1);
        long overall = EMPTY;
        for (int k = 0; k < scan; k++) {
            long t = currentTick + k;
            int slot = (int) (t & mask);
            if (count[slot] == 0) {
                continue;
            }
            long[] d = deadlines[slot];
            long inTurn = EMPTY;
            for (int i = 0, n = used[slot]; i < n; i++) {
                long deadline = d[i];
                if (deadline == EMPTY) {
                    continue;
                }
                overall = Math.min(overall, deadline);
                if (tickOf(deadline) <= t) {
                    inTurn = Math.min(inTurn, deadline);
                }
            }
            if (inTurn != EMPTY) {
                return inTurn;
            }
        }
        if (scan == mask + 1) {
            return overall; // every slot was scanned
        }
        return startTime + (currentTick + scan) * tickNanos;
    }

    /** Cancels every timer. */
    public void clear() {
        for (int s = 0; s <= mask; s++) {
            if (deadlines[s] != null) {
                for (int i = 0; i < used[s]; i++) {
                    if (deadlines[s][i] != EMPTY) {
                        release(s, i);
                    }
                }
            }
        }
    }

    private long tickOf(long time) {
        long delta = time - startTime;
        return delta <= 0 ? 0 : delta / tickNanos;
    }

    private void release(int slot, int index) {
        deadlines[slot][index] = EMPTY;
        generations[slot][index] = (generations[slot][index] + 1) & GEN_MASK;
        nextFree[slot][index] = freeHead[slot];
        freeHead[slot] = index;
        count[slot]--;
        timerCount--;
    }

    private void allocate(int slot, int capacity) {
        deadlines[slot] = new long[capacity];
        Arrays.fill(deadlines[slot], EMPTY);
        payloads[slot] = new long[capacity];
        generations[slot] = new int[capacity];
        nextFree[slot] = new int[capacity];
    }

    private void grow(int slot) {
        int old = deadlines[slot].length;
        if (old >= (1 << INDEX_BITS)) {
            throw new IllegalStateException("more than " + (1 << INDEX_BITS)
                    + " timers in one slot: use more slots (ticksPerWheel) or a finer tick");
        }
        int cap = old * 2;
        deadlines[slot] = Arrays.copyOf(deadlines[slot], cap);
        Arrays.fill(deadlines[slot], old, cap, EMPTY);
        payloads[slot] = Arrays.copyOf(payloads[slot], cap);
        generations[slot] = Arrays.copyOf(generations[slot], cap);
        nextFree[slot] = Arrays.copyOf(nextFree[slot], cap);
    }
}
