package org.sctpj.api.socket;

import com.sun.nio.sctp.Notification;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The queue a channel receives from: messages and notifications, filled on the stack thread and
 * taken by application threads. Waiting is on this object's monitor.
 */
final class Inbox {

    /**
     * One received message, or one part of a message the core delivered in parts (partial
     * delivery); {@code offset} advances when it is read in parts.
     */
    static final class Msg {
        final AssocState assoc;
        final int streamId;
        final int ppid;
        final boolean unordered;
        /** The message is {@code data[0..length)}; the array may be longer (it is pooled). */
        final byte[] data;

        final int length;
        /** Whether these bytes end the message: false for a part that is not the last. */
        final boolean last;

        int offset;

        Msg(AssocState assoc, int streamId, int ppid, boolean unordered, byte[] data, int length, boolean last) {
            this.assoc = assoc;
            this.streamId = streamId;
            this.ppid = ppid;
            this.unordered = unordered;
            this.data = data;
            this.length = length;
            this.last = last;
        }
    }

    /** What {@link #take} found. */
    sealed interface Taken {}

    /** Part or all of a message was copied. */
    record Read(SctpjMessageInfo info) implements Taken {}

    /** A notification to hand to the handler. */
    record Note(Notification notification) implements Taken {}

    /** Nothing now (non-blocking), or the time ran out. */
    record Nothing() implements Taken {}

    /** The end condition holds and nothing is queued. */
    record End() implements Taken {}

    /** The inbox was closed (the channel is closed). */
    record Closed() implements Taken {}

    static final Nothing NOTHING = new Nothing();
    static final End END = new End();
    static final Closed CLOSED = new Closed();

    private final ArrayDeque<Object> items = new ArrayDeque<>();
    private int waiters;
    private boolean turnEndWakePending;
    private boolean idleWakePending;
    /** A message arrived in the empty queue of a channel with selection keys; they are told at the wake. */
    private boolean selectorWakePending;

    private long unwokenBytes;
    private boolean closed;

    /** {@link #add}: no wake-up is needed. */
    static final int WAKE_NONE = 0;
    /** {@link #add}: run {@link #wakeAtIdle} when the stack thread has caught up with its input. */
    static final int WAKE_AT_IDLE = 1;
    /** {@link #add}: run {@link #wakeAtTurnEnd} at the end of the stack thread's turn. */
    static final int WAKE_AT_TURN_END = 2;

    /** Wakes the waiters; for {@link org.sctpj.api.callback.CallbackSocket#whenIdle}. */
    final Runnable wakeAtIdle = () -> wake(false);
    /** Wakes the waiters; for {@link org.sctpj.api.callback.CallbackSocket#atTurnEnd}. */
    final Runnable wakeAtTurnEnd = () -> wake(true);

    volatile Set<SctpjSocketOptions.Event> events;

    /** The channel's selection keys, signalled when this inbox may have become readable. */
    volatile Readiness listener;

    /** Associations of this inbox whose last non-blocking send found no space (for OP_WRITE). */
    final AtomicInteger blockedSenders = new AtomicInteger();

    Inbox(Set<SctpjSocketOptions.Event> events) {
        this.events = events;
    }

    /**
     * Stack thread: a message of {@code bytes} arrived. Does not wake a waiting reader itself; says
     * when the caller should: once the stack thread has caught up with its input, or within 1 ms
     * while it stays busy ({@link #WAKE_AT_IDLE}), or at the end of this turn when {@code batchBytes} arrived since the reader
     * began to wait ({@link #WAKE_AT_TURN_END}), so that a reader keeps up with a stack thread
     * that never runs out of packets. Waking per message measured about one context switch per
     * message; a wake per burst lets the reader take many messages per wake-up.
     */
    synchronized int add(Msg m, int bytes, long batchBytes) {
        if (items.isEmpty() && listener != null && listener.hasKeys()) {
            // A selector waits for this channel: it is told as a blocked reader would be (at idle,
            // or at the turn's end once a batch arrived), not once per message.
            selectorWakePending = true;
        }
        items.add(m);
        if (waiters == 0 && !selectorWakePending) {
            return WAKE_NONE;
        }
        unwokenBytes += bytes;
        if (unwokenBytes >= batchBytes && !turnEndWakePending) {
            turnEndWakePending = true;
            return WAKE_AT_TURN_END;
        }
        if (!idleWakePending) {
            idleWakePending = true;
            return WAKE_AT_IDLE;
        }
        return WAKE_NONE;
    }

    private synchronized void wake(boolean turnEnd) {
        if (turnEnd) {
            turnEndWakePending = false;
        } else {
            idleWakePending = false;
        }
        unwokenBytes = 0;
        notifyAll();
        if (selectorWakePending) {
            selectorWakePending = false;
            signal();
        }
    }

    /** Stack thread: a notification, queued if subscribed; waiters wake either way. */
    synchronized void note(SctpjSocketOptions.Event kind, Notification n) {
        if (events.contains(kind)) {
            items.add(n);
        }
        notifyAll();
        signal();
    }

    /** Wakes every waiter so that it re-checks its condition, and the selectors. */
    synchronized void wake() {
        notifyAll();
        signal();
    }

    /** Tells the selectors only (e.g. send space was freed). */
    void signal() {
        Readiness r = listener;
        if (r != null) {
            r.signal();
        }
    }

    synchronized void close() {
        closed = true;
        notifyAll();
        signal();
    }

    synchronized boolean isEmpty() {
        return items.isEmpty();
    }

    /** Moves the items of {@code a} into {@code to} (peel-off), keeping their order. */
    synchronized void moveTo(AssocState a, Inbox to) {
        synchronized (to) {
            for (Iterator<Object> it = items.iterator(); it.hasNext(); ) {
                Object o = it.next();
                boolean mine = o instanceof Msg m
                        ? m.assoc == a
                        : ((Notification) o).association() instanceof SctpjAssociation sa
                                && sa.id().equals(a.id);
                if (mine) {
                    to.items.add(o);
                    it.remove();
                }
            }
            to.notifyAll();
        }
        to.signal();
    }

    /**
     * Takes the next item: copies (part of) a message into {@code dst}, or returns a notification.
     * Waits up to {@code timeoutNanos} (negative: no limit; 0: do not wait) while nothing is queued
     * and {@code end} is false.
     *
     * @throws InterruptedException if the waiting thread is interrupted
     */
    Taken take(ByteBuffer dst, long timeoutNanos, BooleanSupplier end) throws InterruptedException {
        Msg done;
        SctpjMessageInfo info;
        boolean caughtUp;
        synchronized (this) {
            long deadline = timeoutNanos > 0 ? System.nanoTime() + timeoutNanos : 0;
            while (true) {
                if (closed) {
                    return CLOSED;
                }
                Object head = items.peek();
                if (head instanceof Notification n) {
                    items.poll();
                    return new Note(n);
                }
                if (head instanceof Msg m) {
                    byte[] data = m.data;
                    int n = Math.min(dst.remaining(), m.length - m.offset);
                    dst.put(data, m.offset, n);
                    m.offset += n;
                    boolean taken = m.offset == m.length;
                    info = SctpjMessageInfo.incoming(m.assoc.view, m.assoc.primary, m.streamId, m.ppid, m.unordered, n);
                    info.complete(taken && m.last);
                    if (!taken) {
                        return new Read(info);
                    }
                    items.poll();
                    done = m;
                    caughtUp = items.isEmpty();
                    break;
                }
                if (end.getAsBoolean()) {
                    return END;
                }
                if (timeoutNanos == 0) {
                    return NOTHING;
                }
                long left = timeoutNanos < 0 ? 0 : deadline - System.nanoTime();
                if (timeoutNanos > 0 && left <= 0) {
                    return NOTHING;
                }
                waiters++;
                try {
                    if (timeoutNanos < 0) {
                        wait();
                    } else {
                        wait(left / 1_000_000, (int) (left % 1_000_000));
                    }
                } finally {
                    waiters--;
                }
            }
        }
        done.assoc.consumed(done.length, caughtUp);
        done.assoc.core.recvPool.give(done.data);
        return new Read(info);
    }
}
