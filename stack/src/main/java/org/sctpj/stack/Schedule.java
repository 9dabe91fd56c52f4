package org.sctpj.stack;

import java.net.InetAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.sctpj.stack.assoc.Association;

/**
 * The endpoint's account of which associations have work, so that no call walks all of them: the
 * cost of a call grows with the associations it concerns, not with the associations the endpoint
 * holds (issue 15: 10^5 associations, most of them idle).
 *
 * <ul>
 *   <li><b>Ready queue</b>: the associations that may have a packet to send. An association
 *       enters it whenever the endpoint runs any of its code for a reason other than polling it
 *       ({@link #touch}: a packet, a timer, an ICMP report, a user command); it leaves only when a
 *       poll of it returned nothing. A poll that returned a packet puts it at the back (round
 *       robin, one packet per turn, so one busy association cannot starve the others).
 *   <li><b>Deadline heap</b>: a binary min-heap of the associations' earliest deadlines ({@link
 *       Association#nextTimeout()}). Every run of an association's code, polls included, marks its
 *       deadline stale ({@link #touch}, {@link #polled}); {@link #settle} reads the stale ones
 *       afresh before the heap is used, so {@link #nextTimeout()} is exactly the minimum over all
 *       associations.
 * </ul>
 *
 * <p>Why it cannot miss a wake-up: an association's state (and with it what it would send and its
 * deadlines) changes only while its own code runs, and its code runs only when the endpoint calls
 * it; every such call is a {@link #touch} or a {@link #polled}. So an association outside the ready
 * queue is one whose last poll returned nothing and which has not run since, and a poll with no
 * new input returns nothing again (what it sends depends on time only through timers: a delayed
 * SACK, a retransmission, a heartbeat each have a deadline, whose expiry is a touch). The
 * property test {@code EndpointBookkeepingTest} checks both against a walk of every association
 * after every step of random runs.
 *
 * <p>Not thread-safe: the endpoint's owner thread only.
 */
final class Schedule {

    /** One association's place in the account. */
    static final class Entry {
        final Association a;
        /** Position in the heap, -1 when not in it. */
        int heapIndex = -1;
        /** The deadline the heap holds for it (valid while in the heap). */
        long key = Long.MAX_VALUE;
        /** In the ready queue. */
        boolean ready;
        /** Its deadline may have changed since the heap last read it (in {@link #stale}). */
        boolean dirty;
        /** In {@link #touched} (only kept while someone wants the list). */
        boolean touchedMark;
        /** The peer addresses under which the endpoint's peer map holds it (for removal). */
        List<InetAddress> registered = List.of();

        Entry(Association a) {
            this.a = a;
        }
    }

    private Entry[] heap = new Entry[16];
    private int heapSize;
    private final ArrayDeque<Entry> ready = new ArrayDeque<>();
    private final ArrayList<Entry> stale = new ArrayList<>();
    /** Associations run since {@link #takeTouched} last emptied it, when {@link #trackTouched}. */
    private final ArrayList<Entry> touched = new ArrayList<>();

    private boolean trackTouched;
    /** Association visits: polls, timer runs and deadline reads (a load-independent cost figure). */
    private long visits;

    /** The association ran (or will run) code for a packet, a timer or a command. */
    void touch(Entry e) {
        if (!e.ready) {
            e.ready = true;
            ready.addLast(e);
        }
        deadlineStale(e);
        if (trackTouched && !e.touchedMark) {
            e.touchedMark = true;
            touched.add(e);
        }
    }

    /**
     * The association's deadline may have changed (it was polled: a poll changes no state the
     * probe reports, so it does not join {@link #touched}, which the end of each call empties).
     */
    private void deadlineStale(Entry e) {
        if (!e.dirty) {
            e.dirty = true;
            stale.add(e);
        }
    }

    /**
     * The next association to poll for a packet, taken off the ready queue; {@link #polled} must
     * follow. Null when none may have anything to send.
     */
    Entry nextReady() {
        Entry e = ready.pollFirst();
        if (e != null) {
            visits++;
        }
        return e;
    }

    /** {@code e}, taken by {@link #nextReady}, was polled; {@code sent}: it built a packet. */
    void polled(Entry e, boolean sent) {
        if (sent) {
            ready.addLast(e); // may have more; the others first
        } else {
            e.ready = false;
        }
        deadlineStale(e);
    }

    /** Reads the stale deadlines into the heap. */
    void settle() {
        int n = stale.size();
        if (n == 0) {
            return;
        }
        for (int i = 0; i < n; i++) {
            Entry e = stale.get(i);
            e.dirty = false;
            visits++;
            long k = e.a.nextTimeout();
            if (k == Long.MAX_VALUE) {
                remove(e);
            } else if (e.heapIndex < 0) {
                insert(e, k);
            } else if (k != e.key) {
                long old = e.key;
                e.key = k;
                if (k < old) {
                    up(e.heapIndex);
                } else {
                    down(e.heapIndex);
                }
            }
        }
        stale.clear();
    }

    /** The earliest deadline of any association, {@link Long#MAX_VALUE} when none. */
    long nextTimeout() {
        settle();
        return heapSize == 0 ? Long.MAX_VALUE : heap[0].key;
    }

    /**
     * Takes the association with the earliest deadline off the heap if that deadline is at or
     * before {@code now} (its timers are due), else returns null. Call {@link #settle} first; the
     * caller runs its timers and {@link #touch}es it, which puts it back once settled.
     */
    Entry pollDue(long now) {
        if (heapSize == 0 || heap[0].key > now) {
            return null;
        }
        Entry e = heap[0];
        remove(e);
        visits++;
        return e;
    }

    /** Starts or stops keeping the list of associations run ({@link #takeTouched}). */
    void trackTouched(boolean on) {
        trackTouched = on;
        if (!on) {
            for (Entry e : touched) {
                e.touchedMark = false;
            }
            touched.clear();
        }
    }

    /** The associations run since the last call (with {@link #trackTouched}), and empties the list. */
    void takeTouched(java.util.function.Consumer<Association> each) {
        for (int i = 0; i < touched.size(); i++) {
            Entry e = touched.get(i);
            e.touchedMark = false;
            each.accept(e.a);
        }
        touched.clear();
    }

    /** Association visits so far (see {@link Endpoint#associationVisits()}). */
    long visits() {
        return visits;
    }

    /** Associations in the deadline heap (for tests). */
    int heapSize() {
        return heapSize;
    }

    /** Associations in the ready queue (for tests). */
    int readySize() {
        return ready.size();
    }

    /** Whether the heap holds {@code e} with exactly {@code deadline} ({@link Long#MAX_VALUE}: not at all). */
    boolean holds(Entry e, long deadline) {
        if (deadline == Long.MAX_VALUE) {
            return e.heapIndex < 0;
        }
        return e.heapIndex >= 0 && heap[e.heapIndex] == e && e.key == deadline;
    }

    /** Whether every parent's key is at most its children's (for tests). */
    boolean heapOrdered() {
        for (int i = 1; i < heapSize; i++) {
            if (heap[(i - 1) >>> 1].key > heap[i].key || heap[i].heapIndex != i) {
                return false;
            }
        }
        return heapSize == 0 || heap[0].heapIndex == 0;
    }

    // ------------------------------------------------------------------ the heap

    private void insert(Entry e, long key) {
        if (heapSize == heap.length) {
            heap = Arrays.copyOf(heap, heapSize * 2);
        }
        e.key = key;
        e.heapIndex = heapSize;
        heap[heapSize++] = e;
        up(e.heapIndex);
    }

    private void remove(Entry e) {
        int i = e.heapIndex;
        if (i < 0) {
            return;
        }
        e.heapIndex = -1;
        int last = --heapSize;
        Entry moved = heap[last];
        heap[last] = null;
        if (i == last) {
            shrink();
            return;
        }
        heap[i] = moved;
        moved.heapIndex = i;
        if (i > 0 && heap[(i - 1) >>> 1].key > moved.key) {
            up(i);
        } else {
            down(i);
        }
        shrink();
    }

    /** Gives back the array of a heap that emptied after churn (issue 15: churn without growth). */
    private void shrink() {
        if (heap.length > 64 && heapSize < heap.length / 4) {
            heap = Arrays.copyOf(heap, Math.max(16, heap.length / 2));
        }
    }

    private void up(int i) {
        Entry e = heap[i];
        while (i > 0) {
            int p = (i - 1) >>> 1;
            Entry pe = heap[p];
            if (pe.key <= e.key) {
                break;
            }
            heap[i] = pe;
            pe.heapIndex = i;
            i = p;
        }
        heap[i] = e;
        e.heapIndex = i;
    }

    private void down(int i) {
        Entry e = heap[i];
        int half = heapSize >>> 1;
        while (i < half) {
            int c = 2 * i + 1;
            int r = c + 1;
            if (r < heapSize && heap[r].key < heap[c].key) {
                c = r;
            }
            if (e.key <= heap[c].key) {
                break;
            }
            heap[i] = heap[c];
            heap[i].heapIndex = i;
            i = c;
        }
        heap[i] = e;
        e.heapIndex = i;
    }
}
