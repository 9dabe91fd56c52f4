package org.sctpj.stack.assoc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.rx.DataReceiver;

/** The timer table alone: slots per (kind, path), the earliest deadline, and the one dispatch. */
class TimerTableTest {

    /** An owner that records each expiry and counts only the kinds in {@link #counting}. */
    static final class Recorder implements TimerTable.Owner {
        final Set<TimerKind> counting = EnumSet.allOf(TimerKind.class);
        final List<String> fired = new ArrayList<>();
        Runnable onExpiry = () -> {};

        @Override
        public boolean counts(TimerKind kind) {
            return counting.contains(kind);
        }

        @Override
        public void expired(TimerKind kind, int path, long now) {
            fired.add(kind + (kind.perPath() ? "/" + path : ""));
            onExpiry.run();
        }
    }

    @Test
    void everyTimerStartsStopped() {
        TimerTable t = new TimerTable();
        t.usePaths(TimerTable.MAX_PATHS);
        assertEquals(TimerTable.NONE, t.nextTimeout(new Recorder()));
        for (TimerKind k : TimerKind.values()) {
            assertFalse(k.perPath() ? t.deadline(k, 3) != TimerTable.NONE : t.armed(k), k.name());
        }
    }

    @Test
    void slotsAreDistinctPerKindAndPath() {
        Set<Integer> seen = new java.util.HashSet<>();
        for (TimerKind k : TimerKind.values()) {
            int n = k.perPath() ? TimerTable.MAX_PATHS : 1;
            for (int i = 0; i < n; i++) {
                assertTrue(seen.add(TimerTable.slot(k, i)), k + "/" + i);
            }
        }
        assertEquals(TimerTable.NONE, new TimerTable().slots()[seen.size() - 1]);
        assertThrows(IllegalArgumentException.class, () -> TimerTable.slot(TimerKind.T3_RTX, TimerTable.MAX_PATHS));
    }

    @Test
    void nextTimeoutIsTheEarliestArmedDeadlineOfTheKindsThatCount() {
        TimerTable t = new TimerTable();
        t.usePaths(2);
        Recorder r = new Recorder();
        t.start(TimerKind.T2_SHUTDOWN, 500);
        t.start(TimerKind.T3_RTX, 1, 300);
        t.start(TimerKind.HEARTBEAT, 0, 100);
        assertEquals(100, t.nextTimeout(r));
        r.counting.remove(TimerKind.HEARTBEAT); // e.g. heartbeats outside ESTABLISHED
        assertEquals(300, t.nextTimeout(r));
        t.start(TimerKind.T3_RTX, 1, TimerTable.NONE);
        assertEquals(500, t.nextTimeout(r));
        t.stop(TimerKind.T2_SHUTDOWN);
        assertEquals(TimerTable.NONE, t.nextTimeout(r));
    }

    @Test
    void pathsBeyondThoseInUseAreNotCounted() {
        TimerTable t = new TimerTable();
        t.usePaths(1);
        t.start(TimerKind.T3_RTX, 2, 10);
        assertEquals(TimerTable.NONE, t.nextTimeout(new Recorder()));
        t.usePaths(3);
        assertEquals(10, t.nextTimeout(new Recorder()));
    }

    @Test
    void handleTimeoutRunsTheDueTimersInKindThenPathOrder() {
        TimerTable t = new TimerTable();
        t.usePaths(3);
        Recorder r = new Recorder();
        t.start(TimerKind.HEARTBEAT, 0, 10);
        t.start(TimerKind.T3_RTX, 2, 10);
        t.start(TimerKind.T3_RTX, 0, 5);
        t.start(TimerKind.T3_RTX, 1, 11); // not due
        t.start(TimerKind.T2_SHUTDOWN, 10);
        t.start(TimerKind.T1_INIT, 1);
        t.handleTimeout(10, r);
        assertEquals(List.of("T1_INIT", "T2_SHUTDOWN", "T3_RTX/0", "T3_RTX/2", "HEARTBEAT/0"), r.fired);
    }

    @Test
    void whetherAKindCountsIsAskedBeforeEachSlot() {
        TimerTable t = new TimerTable();
        t.usePaths(2);
        Recorder r = new Recorder();
        t.start(TimerKind.T5_SHUTDOWN_GUARD, 1);
        t.start(TimerKind.T2_SHUTDOWN, 1);
        t.start(TimerKind.T3_RTX, 0, 1);
        // The guard timer ends the association: nothing counts any more.
        r.onExpiry = r.counting::clear;
        t.handleTimeout(1, r);
        assertEquals(List.of("T5_SHUTDOWN_GUARD"), r.fired);
    }

    @Test
    void aTimerArmedDuringTheWalkRunsInTheSameWalkWhenItComesLater() {
        TimerTable t = new TimerTable();
        t.usePaths(1);
        Recorder r = new Recorder();
        t.start(TimerKind.T3_RTX, 0, 5);
        r.onExpiry = () -> {
            t.start(TimerKind.T3_RTX, 0, TimerTable.NONE);
            if (r.fired.size() == 1) {
                t.start(TimerKind.HEARTBEAT, 0, 5); // a PF path is probed at once
            } else {
                t.start(TimerKind.HEARTBEAT, 0, TimerTable.NONE);
            }
        };
        t.handleTimeout(5, r);
        assertEquals(List.of("T3_RTX/0", "HEARTBEAT/0"), r.fired);
    }

    @Test
    void aPathsT3AndTheReceiversDelayedSackLiveInTheirSlots() {
        SctpOptions o = SctpOptions.WAN;
        TimerTable t = new TimerTable();
        t.usePaths(2);
        Path p = new Path(1, java.net.InetAddress.getLoopbackAddress(), 1500, o);
        p.startT3(0); // before binding: kept by the path, carried over when bound
        long t3 = p.t3Deadline();
        p.bindT3(t.slots(), TimerTable.slot(TimerKind.T3_RTX, 1));
        assertEquals(t3, t.deadline(TimerKind.T3_RTX, 1));
        p.restartT3(7);
        assertEquals(p.t3Deadline(), t.deadline(TimerKind.T3_RTX, 1));
        assertEquals(p.t3Deadline(), t.nextTimeout(new Recorder()));
        p.stopT3();
        assertEquals(TimerTable.NONE, t.deadline(TimerKind.T3_RTX, 1));

        DataReceiver rx = new DataReceiver(o, 1, 1);
        rx.bindSackTimer(t.slots(), TimerTable.slot(TimerKind.DELAYED_SACK, 0));
        byte[] one = {1};
        rx.onData(1, 0, 0, 0, 0x03, java.nio.ByteBuffer.wrap(one), 0, 1, 100);
        rx.onPacketProcessed(true, false, 100);
        assertTrue(rx.sackDeadline() > 100, "a lone DATA delays its SACK");
        assertEquals(rx.sackDeadline(), t.deadline(TimerKind.DELAYED_SACK));
        assertEquals(rx.sackDeadline(), t.nextTimeout(new Recorder()));
    }
}
