package org.sctpj.timers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class TimerWheelTest {

    private static final long MS = 1_000_000L;

    /** Expiries recorded as (payload, deadline, time of the poll). */
    private static final class Recorder implements TimerWheel.ExpiryHandler {
        final List<long[]> fired = new ArrayList<>();
        long now;

        @Override
        public void onExpiry(long timerId, long deadline, long payload) {
            fired.add(new long[] {payload, deadline, now});
        }

        int poll(TimerWheel w, long t, int max) {
            now = t;
            return w.poll(t, this, max);
        }

        List<Long> payloads() {
            List<Long> out = new ArrayList<>();
            for (long[] f : fired) {
                out.add(f[0]);
            }
            return out;
        }
    }

    @Test
    void timersFireInDeadlineOrderAndNeverEarly() {
        TimerWheel w = new TimerWheel(0, MS, 16);
        w.schedule(5 * MS + 10, 3);
        w.schedule(2 * MS, 1);
        w.schedule(3 * MS + 999_999, 2);
        Recorder r = new Recorder();
        assertEquals(0, r.poll(w, 2 * MS - 1, 100));
        assertEquals(1, r.poll(w, 2 * MS, 100));
        assertEquals(0, r.poll(w, 3 * MS + 999_998, 100), "same tick, 1 ns before: not yet");
        assertEquals(1, r.poll(w, 3 * MS + 999_999, 100));
        assertEquals(1, r.poll(w, 100 * MS, 100));
        assertEquals(List.of(1L, 2L, 3L), r.payloads());
        for (long[] f : r.fired) {
            assertTrue(f[2] >= f[1], "fired before its deadline");
        }
        assertEquals(0, w.timerCount());
    }

    @Test
    void subTickDeadlinesAreExactNotRoundedToTheTick() {
        TimerWheel w = new TimerWheel(0, 10 * MS, 8); // the thesis' 10 ms tick
        w.schedule(250_000, 7); // 250 us
        Recorder r = new Recorder();
        assertEquals(0, r.poll(w, 249_999, 10));
        assertEquals(1, r.poll(w, 250_000, 10));
    }

    @Test
    void cancelRemovesTheTimerAndIsIdempotent() {
        TimerWheel w = new TimerWheel(0, MS, 16);
        long a = w.schedule(3 * MS, 1);
        long b = w.schedule(3 * MS, 2);
        assertTrue(w.cancel(a));
        assertFalse(w.cancel(a));
        assertFalse(w.cancel(TimerWheel.NULL_TIMER));
        assertEquals(Long.MAX_VALUE, w.deadline(a));
        assertEquals(3 * MS, w.deadline(b));
        Recorder r = new Recorder();
        r.poll(w, 10 * MS, 10);
        assertEquals(List.of(2L), r.payloads());
    }

    @Test
    void aStaleIdDoesNotCancelTheTimerThatReusedItsPlace() {
        TimerWheel w = new TimerWheel(0, MS, 16);
        long a = w.schedule(MS, 1);
        Recorder r = new Recorder();
        r.poll(w, MS, 10);
        long b = w.schedule(MS + 17 * 16 * MS, 2); // same slot, same index, next generation
        assertNotEquals(a, b);
        assertFalse(w.cancel(a), "the fired timer's id must not cancel its successor");
        assertEquals(1, w.timerCount());
        assertTrue(w.cancel(b));
    }

    @Test
    void pollIsBoundedAndResumesWithoutSkipping() {
        TimerWheel w = new TimerWheel(0, MS, 16);
        for (int i = 0; i < 10; i++) {
            w.schedule((i % 3) * MS, i);
        }
        Recorder r = new Recorder();
        assertEquals(4, r.poll(w, 5 * MS, 4));
        assertEquals(4, r.poll(w, 5 * MS, 4));
        assertEquals(2, r.poll(w, 5 * MS, 4));
        assertEquals(0, r.poll(w, 5 * MS, 4));
        assertEquals(10, new HashSet<>(r.payloads()).size());
        // Ticks in order even across the bounded polls.
        long last = -1;
        for (long[] f : r.fired) {
            assertTrue(f[1] >= last);
            last = f[1];
        }
    }

    @Test
    void deadlinesBeyondOneTurnWrapAroundAndWaitForTheirTurn() {
        TimerWheel w = new TimerWheel(0, MS, 8); // one turn = 8 ms
        w.schedule(3 * MS, 1);
        w.schedule(3 * MS + 8 * MS, 2); // same slot, next turn
        w.schedule(3 * MS + 80 * MS, 3); // same slot, ten turns later
        Recorder r = new Recorder();
        r.poll(w, 3 * MS, 10);
        assertEquals(List.of(1L), r.payloads());
        for (long t = 4 * MS; t < 11 * MS; t += MS / 2) {
            r.poll(w, t, 10);
        }
        assertEquals(List.of(1L), r.payloads(), "the next turn's timer must wait");
        r.poll(w, 11 * MS, 10);
        assertEquals(List.of(1L, 2L), r.payloads());
        r.poll(w, 82 * MS, 10);
        assertEquals(List.of(1L, 2L), r.payloads());
        r.poll(w, 83 * MS, 10);
        assertEquals(List.of(1L, 2L, 3L), r.payloads());
    }

    @Test
    void aLongJumpScansAtMostOneTurnAndMissesNothing() {
        TimerWheel w = new TimerWheel(0, MS, 8);
        w.schedule(2 * MS, 1);
        w.schedule(1_000 * MS, 2);
        w.schedule(1_000_000 * MS, 3);
        Recorder r = new Recorder();
        r.poll(w, 5_000 * MS, 10); // 5000 ticks later: one turn scanned, slot order
        assertEquals(Set.of(1L, 2L), new HashSet<>(r.payloads()));
        assertEquals(5_000 * MS, w.currentTickTime());
        r.poll(w, 1_000_000 * MS, 10);
        assertEquals(3L, r.payloads().get(2));
    }

    @Test
    void aDueTimerScheduledByTheHandlerNeverLandsBehindTheWheel() {
        TimerWheel w = new TimerWheel(0, MS, 8);
        List<Long> seen = new ArrayList<>();
        w.schedule(MS, 1);
        TimerWheel.ExpiryHandler h = (id, deadline, payload) -> {
            seen.add(payload);
            if (payload == 1) {
                w.schedule(2 * MS, 2); // due at the poll's 'now', in a tick the poll is past
            }
        };
        w.poll(6 * MS, h, 100);
        w.poll(6 * MS, h, 100);
        assertEquals(List.of(1L, 2L), seen);
    }

    @Test
    void deadlinesInThePastExpireAtTheNextPoll() {
        TimerWheel w = new TimerWheel(0, MS, 8);
        Recorder r = new Recorder();
        r.poll(w, 50 * MS, 10);
        w.schedule(3 * MS, 1);
        w.schedule(-5, 2);
        assertEquals(2, r.poll(w, 50 * MS, 10));
    }

    @Test
    void theHandlerMayScheduleDuringPoll() {
        TimerWheel w = new TimerWheel(0, MS, 4);
        List<Long> seen = new ArrayList<>();
        w.schedule(MS, 0);
        TimerWheel.ExpiryHandler h = new TimerWheel.ExpiryHandler() {
            @Override
            public void onExpiry(long id, long deadline, long payload) {
                seen.add(payload);
                if (payload < 20) {
                    w.schedule(deadline, payload + 1); // same slot, may grow it
                    w.schedule(deadline + MS, payload + 100);
                }
            }
        };
        for (int i = 0; i < 30; i++) {
            w.poll(MS, h, 1000); // rescheduled due timers fire in this poll or the next
        }
        assertEquals(21, seen.stream().filter(p -> p < 100).count());
        assertEquals(0, seen.stream().filter(p -> p >= 100).count(), "not due yet");
        w.poll(2 * MS, h, 1000);
        assertEquals(20, seen.stream().filter(p -> p >= 100).count());
    }

    @Test
    void manyTimersAllFireOnceAtOrAfterTheirDeadline() {
        TimerWheel w = new TimerWheel(0, MS, 256);
        SplittableRandom rnd = new SplittableRandom(42);
        int n = 200_000;
        long[] deadlines = new long[n];
        long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            deadlines[i] = rnd.nextLong(0, 2_000 * MS);
            ids[i] = w.schedule(deadlines[i], i);
        }
        Set<Long> cancelled = new HashSet<>();
        for (int i = 0; i < n; i += 7) {
            assertTrue(w.cancel(ids[i]));
            cancelled.add((long) i);
        }
        boolean[] fired = new boolean[n];
        int[] count = {0};
        long[] now = {0};
        TimerWheel.ExpiryHandler h = (id, deadline, payload) -> {
            int i = (int) payload;
            assertFalse(fired[i]);
            assertTrue(now[0] >= deadlines[i]);
            fired[i] = true;
            count[0]++;
        };
        for (now[0] = 0; now[0] <= 2_001 * MS; now[0] += MS / 3) {
            while (w.poll(now[0], h, 1_000) == 1_000) {
                // bounded: keep polling until this instant is drained
            }
        }
        assertEquals(n - cancelled.size(), count[0]);
        assertEquals(0, w.timerCount());
    }

    @Test
    void earliestDeadlineBoundIsExactWithinTheScanAndALowerBoundBeyond() {
        TimerWheel w = new TimerWheel(0, MS, 64);
        assertEquals(Long.MAX_VALUE, w.earliestDeadlineBound(64));
        w.schedule(70 * MS + 5, 1); // next turn, slot 6
        w.schedule(9 * MS + 3, 2);
        assertEquals(9 * MS + 3, w.earliestDeadlineBound(64));
        assertEquals(4 * MS, w.earliestDeadlineBound(4), "not found in 4 slots: start of the 5th");
        w.cancel(w.schedule(MS, 3));
        TimerWheel v = new TimerWheel(0, MS, 64);
        v.schedule(70 * MS + 5, 1);
        assertEquals(70 * MS + 5, v.earliestDeadlineBound(1000), "a full scan gives the exact minimum");
    }

    @Test
    void badArgumentsSayWhatToDo() {
        assertThrows(IllegalArgumentException.class, () -> new TimerWheel(0, 0, 8));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new TimerWheel(0, MS, 100));
        assertTrue(e.getMessage().contains("power of two"));
        TimerWheel w = new TimerWheel(0);
        assertThrows(IllegalArgumentException.class, () -> w.schedule(Long.MAX_VALUE, 0));
        assertThrows(IllegalArgumentException.class, () -> w.poll(0, (a, b, c) -> {}, 0));
    }

    /** Random schedule/cancel/poll sequences against a simple list model. */
    @Property(tries = 200)
    void behavesLikeTheModel(
            @ForAll @LongRange(min = 0, max = Long.MAX_VALUE / 4) long seed,
            @ForAll @IntRange(min = 1, max = 64) int slotsLog,
            @ForAll @LongRange(min = 1, max = 5_000_000) long tick) {
        int slots = Integer.highestOneBit(slotsLog);
        SplittableRandom rnd = new SplittableRandom(seed);
        long start = rnd.nextLong(-1_000_000_000L, 1_000_000_000L);
        TimerWheel w = new TimerWheel(start, tick, slots);
        List<long[]> model = new ArrayList<>(); // {id, deadline, payload}
        long now = start;
        long payload = 0;
        for (int step = 0; step < 300; step++) {
            int op = rnd.nextInt(10);
            if (op < 5) {
                long d = now + rnd.nextLong(-2 * tick, 40 * tick * slots + 1);
                long id = w.schedule(d, payload);
                model.add(new long[] {id, d, payload++});
            } else if (op < 7 && !model.isEmpty()) {
                long[] m = model.remove(rnd.nextInt(model.size()));
                assertTrue(w.cancel(m[0]));
                assertFalse(w.cancel(m[0]));
            } else {
                now += rnd.nextLong(0, 3 * tick * slots);
                List<Long> got = new ArrayList<>();
                final long t = now;
                while (w.poll(
                                t,
                                (id, d, p) -> {
                                    assertTrue(d <= t);
                                    got.add(p);
                                },
                                5)
                        == 5) {}
                List<Long> want = new ArrayList<>();
                model.removeIf(m -> {
                    if (m[1] <= t) {
                        want.add(m[2]);
                        return true;
                    }
                    return false;
                });
                assertEquals(new HashSet<>(want), new HashSet<>(got));
                assertEquals(want.size(), got.size());
            }
            assertEquals(model.size(), w.timerCount());
        }
    }
}
