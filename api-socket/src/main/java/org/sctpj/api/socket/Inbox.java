package org.sctpj.api.socket;

import com.sun.nio.sctp.Notification;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The queue a channel receives from: messages and notifications, written by the stack thread and
 * read by application threads, without a lock shared between the two and without an object per
 * message.
 *
 * <p><b>The ring.</b> Items go into a chain of chunks, each a byte array that holds the messages'
 * bytes one after the other, an int array with four words per item (offset, length, PPID, stream
 * and flags) and an object array with two slots per item (the association or the notification; a
 * message's own array when it does not go inline). The stack thread is the only writer: it copies
 * a message once, from the packet into the chunk, and publishes the item with one release store of
 * the chunk's count. Readers copy the bytes out into the caller's buffer. A chunk that is full is
 * followed by a chunk the readers finished (up to four are handed back to the stack thread, see
 * {@link Spares}), or, when there is none as large as twice what is unread, by a new one of that
 * size ({@value #MIN_CHUNK} bytes to {@value #MAX_CHUNK}): a steady flow allocates no chunk, and
 * the chain grows only while a reader lags. Once everything is read an inbox keeps the chunk
 * being written and up to four spares, of the sizes its last burst needed. Messages over {@value #MAX_INLINE} bytes, and messages the stack delivers as arrays
 * (parts of a message delivered in parts), keep an array of their own.
 *
 * <p><b>Readers</b> (any number of threads) take {@link #lock}, which the stack thread takes only
 * to wake sleeping readers, to close, and for a peel-off ({@link #moveTo}).
 *
 * <p><b>Waking.</b> A reader that finds nothing counts itself in {@link #sleepers} (a volatile
 * store), looks again, and only then waits. The stack thread publishes items during its turn and,
 * at the end of the turn, after a full fence, reads {@link #sleepers}: either the reader's second
 * look saw the item or the stack thread sees the sleeper, so no wake-up is lost. It does not wake
 * per message: it wakes the readers (and tells the selectors) once it has caught up with its
 * input ({@link Turns#whenIdle}, or within 1 ms while it stays busy), or at the end of a
 * turn once {@code batchBytes} arrived since the last wake-up. Before it sleeps, a reader spins
 * for up to {@link #spinNanos} looking for an item (SCTP_RECEIVE_SPIN), which can spare a round
 * trip the wake-up.
 */
final class Inbox {

    /** What {@link #take} returns when nothing is queued now (non-blocking) or the time ran out. */
    static final Object NOTHING = new Object();
    /** What {@link #take} returns when the end condition holds and nothing is queued. */
    static final Object END = new Object();
    /** What {@link #take} returns once the inbox was closed (the channel is closed). */
    static final Object CLOSED = new Object();

    /** The smallest chunk's bytes. */
    static final int MIN_CHUNK = Spares.MIN_CHUNK;
    /** The largest chunk's bytes. */
    static final int MAX_CHUNK = Spares.MAX_CHUNK;
    /** Messages up to this size go into the chunks; larger ones keep an array of their own. */
    static final int MAX_INLINE = 64 * 1024;

    private static final int INTS = 4;
    private static final int KIND_INLINE = 0;
    private static final int KIND_ARRAY = 1;
    private static final int KIND_NOTE = 2;
    private static final int UNORDERED = 1 << 16;
    private static final int LAST = 1 << 17;
    private static final int KIND_SHIFT = 18;

    /**
     * The stack thread's two deferred-task queues ({@link
     * org.sctpj.api.callback.CallbackSocket#atTurnEnd} and {@link
     * org.sctpj.api.callback.CallbackSocket#whenIdle}), called on the stack thread only.
     */
    interface Turns {
        /** Runs {@code task} at the end of the stack thread's current turn. */
        void atTurnEnd(Runnable task);

        /** Runs {@code task} once the stack thread has caught up with its input (or within 1 ms). */
        void whenIdle(Runnable task);
    }

    /** One chunk of the ring. */
    static final class Chunk implements Spares.Sized {
        final byte[] data;
        /** {@link #INTS} words per item: offset in data, length, PPID, stream | flags | kind. */
        final int[] meta;
        /** Two slots per item: the association (or the notification), and a message's own array. */
        final Object[] refs;
        /** Items published; written by the stack thread (release), read by readers (acquire). */
        volatile int published;
        /** The next chunk, set by the stack thread once this one is full and its count final. */
        volatile Chunk next;
        /** Stack thread only: bytes of data used. */
        int used;

        Chunk(int bytes) {
            this.data = new byte[bytes];
            int items = Math.max(8, Math.min(1024, bytes / 64));
            this.meta = new int[items * INTS];
            this.refs = new Object[items * 2];
        }

        @Override
        public int bytes() {
            return data.length;
        }

        int capacity() {
            return meta.length / INTS;
        }
    }

    private static final VarHandle PUBLISHED;
    private static final VarHandle SLEEPERS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            PUBLISHED = l.findVarHandle(Chunk.class, "published", int.class);
            SLEEPERS = l.findVarHandle(Inbox.class, "sleepers", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // ------------------------------------------------------------------ stack thread's side

    /** The chunk being written. */
    private Chunk tail;
    /** Items in {@link #tail} (the stack thread's copy of its count). */
    private int tailCount;
    /** Bytes of messages ever queued (for the next chunk's size). */
    private long producedBytes;
    /** Bytes queued since the readers were last woken. */
    private long bytesSinceWake;

    private boolean turnCheckPending;
    private boolean idleWakePending;
    private long batchBytes = Long.MAX_VALUE;
    /** The end-of-turn check ({@link #turnEnd}), queued with the first item of a turn. */
    private final Runnable turnEndCheck = this::turnEnd;

    private final Runnable wakeAtIdle = () -> {
        idleWakePending = false;
        wakeReaders();
    };
    private Turns socket;

    // ------------------------------------------------------------------ readers' side

    /** Held by readers while they look at or take items; their waits are on {@link #arrived}. */
    final ReentrantLock lock = new ReentrantLock();

    private final Condition arrived = lock.newCondition();
    /** The chunk being read (guarded by {@link #lock}). */
    private Chunk head;
    /** The next item of {@link #head} to read. */
    private int headIndex;
    /** Bytes of the item at {@link #headIndex} already read (it is read in parts). */
    private int headOffset;
    /** What the readers last saw of {@link #head}'s count. */
    private int headSeen;

    /** Readers waiting, or about to, for an item. */
    private volatile int sleepers;
    /** Bytes of messages read to the end (for the next chunk's size); written under the lock. */
    private volatile long consumedBytes;

    private volatile boolean closed;
    /** The last chunk read to its end, for the stack thread to reuse. */
    private final Spares<Chunk> spares = new Spares<>();

    /**
     * How long a reader that finds nothing spins, looking for an item, before it sleeps
     * (nanoseconds; 0: it sleeps at once; SCTP_RECEIVE_SPIN).
     */
    volatile long spinNanos;

    volatile Set<SctpjSocketOptions.Event> events;

    /** The channel's selection keys, signalled when this inbox may have become readable. */
    volatile Readiness listener;

    /** Associations of this inbox whose last non-blocking send found no space (for OP_WRITE). */
    final AtomicInteger blockedSenders = new AtomicInteger();

    /** An inbox with a channel's SCTP_EVENTS and SCTP_RECEIVE_SPIN. */
    static Inbox of(OptionValues options) {
        Inbox in = new Inbox(options.get(SctpjSocketOptions.SCTP_EVENTS));
        in.spinNanos = options.get(SctpjSocketOptions.SCTP_RECEIVE_SPIN).toNanos();
        return in;
    }

    Inbox(Set<SctpjSocketOptions.Event> events) {
        this.events = events;
        Chunk first = new Chunk(0);
        this.tail = first;
        this.head = first;
    }

    // ------------------------------------------------------------------ writing (stack thread)

    /**
     * Stack thread: queues a message whose bytes are {@code src}'s remaining ones (copied now;
     * {@code src} is not moved). Wakes no reader itself: see the class comment.
     *
     * @param s the socket whose stack thread this is (end-of-turn and idle tasks go to it)
     * @param batchBytes a reader is woken at the end of a turn once this many bytes arrived
     */
    void add(Turns s, AssocState a, int streamId, int ppid, boolean unordered, ByteBuffer src, long batchBytes) {
        int len = src.remaining();
        if (len > MAX_INLINE) {
            byte[] own = new byte[len];
            src.get(src.position(), own, 0, len);
            add(s, a, streamId, ppid, unordered, own, len, true, batchBytes);
            return;
        }
        Chunk c = room(len);
        int i = tailCount;
        int off = c.used;
        src.get(src.position(), c.data, off, len);
        c.used = off + len;
        put(c, i, off, len, ppid, streamId | (unordered ? UNORDERED : 0) | LAST | (KIND_INLINE << KIND_SHIFT), a, null);
        queued(s, len, batchBytes);
    }

    /**
     * Stack thread: queues a message, or one part of a message the core delivered in parts
     * ({@code last} false for all but its last part), whose bytes are {@code data[0..length)}; the
     * array is kept as it is (not copied).
     */
    void add(
            Turns s,
            AssocState a,
            int streamId,
            int ppid,
            boolean unordered,
            byte[] data,
            int length,
            boolean last,
            long batchBytes) {
        Chunk c = room(0);
        int i = tailCount;
        put(
                c,
                i,
                0,
                length,
                ppid,
                streamId | (unordered ? UNORDERED : 0) | (last ? LAST : 0) | (KIND_ARRAY << KIND_SHIFT),
                a,
                data);
        queued(s, length, batchBytes);
    }

    private void put(Chunk c, int i, int off, int len, int ppid, int word, Object ref, byte[] own) {
        int m = i * INTS;
        c.meta[m] = off;
        c.meta[m + 1] = len;
        c.meta[m + 2] = ppid;
        c.meta[m + 3] = word;
        c.refs[2 * i] = ref;
        c.refs[2 * i + 1] = own;
        tailCount = i + 1;
        PUBLISHED.setRelease(c, i + 1);
    }

    private void queued(Turns s, int len, long batch) {
        producedBytes += len;
        bytesSinceWake += len;
        if (!turnCheckPending) {
            turnCheckPending = true;
            socket = s;
            batchBytes = batch;
            s.atTurnEnd(turnEndCheck);
        }
    }

    /** The chunk to write the next item into, with {@code bytes} of data free; a new one if need be. */
    private Chunk room(int bytes) {
        Chunk c = tail;
        if (tailCount < c.capacity() && c.data.length - c.used >= bytes) {
            return c;
        }
        int size = Spares.sizeFor(Math.max(bytes, 2 * (producedBytes - consumedBytes)));
        Chunk n = spares.take(size);
        if (n == null) {
            // a spare at least as large is reused, so a steady flow allocates no chunk; a chain
            // that grows (a reader or a stack thread lagging) gets larger ones
            n = new Chunk(size);
            chunksMade++;
        } else {
            n.used = 0;
            n.next = null;
            PUBLISHED.set(n, 0);
        }
        c.next = n; // after c's last release store of its count: a reader that sees n sees all of c
        tail = n;
        tailCount = 0;
        return n;
    }

    /** Stack thread: at the end of a turn in which items were queued, wakes whom it must. */
    private void turnEnd() {
        turnCheckPending = false;
        VarHandle.fullFence(); // the items' stores before the load of sleepers (see the class comment)
        Readiness r = listener;
        if (sleepers == 0 && (r == null || !r.hasKeys())) {
            bytesSinceWake = 0;
            return;
        }
        if (bytesSinceWake >= batchBytes) {
            wakeReaders();
        } else if (!idleWakePending) {
            idleWakePending = true;
            socket.whenIdle(wakeAtIdle);
        }
    }

    /** Stack thread: wakes the sleeping readers and tells the selectors. */
    private void wakeReaders() {
        bytesSinceWake = 0;
        if (sleepers > 0) {
            wake();
        } else {
            signal();
        }
    }

    /** Stack thread: a notification, queued if subscribed; waiters wake either way. */
    void note(SctpjSocketOptions.Event kind, Notification n) {
        if (events.contains(kind)) {
            Chunk c = room(0);
            put(c, tailCount, 0, 0, 0, KIND_NOTE << KIND_SHIFT, n, null);
        }
        wake();
    }

    /** Wakes every waiter so that it re-checks its condition, and the selectors. */
    void wake() {
        lock.lock();
        try {
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
        signal();
    }

    /** Tells the selectors only (e.g. send space was freed). */
    void signal() {
        Readiness r = listener;
        if (r != null) {
            r.signal();
        }
    }

    void close() {
        closed = true;
        wake();
    }

    /** Whether nothing is queued. */
    boolean isEmpty() {
        lock.lock();
        try {
            return emptyLocked();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stack thread: moves the items of {@code a} into {@code to} (peel-off), keeping the order of
     * both; the rest stay here. Holds the readers' lock meanwhile.
     */
    void moveTo(AssocState a, Inbox to) {
        AssocState partlyRead = null;
        int partReadBytes = 0;
        lock.lock();
        try {
            List<Moved> queued = new ArrayList<>();
            while (!emptyLocked()) {
                Chunk c = head;
                int i = headIndex;
                int m = i * INTS;
                int word = c.meta[m + 3];
                Object ref = c.refs[2 * i];
                int kind = word >>> KIND_SHIFT;
                byte[] copy = null;
                if (kind != KIND_NOTE) {
                    byte[] src = kind == KIND_ARRAY ? (byte[]) c.refs[2 * i + 1] : c.data;
                    int start = (kind == KIND_ARRAY ? 0 : c.meta[m]) + headOffset;
                    copy = new byte[c.meta[m + 1] - headOffset];
                    System.arraycopy(src, start, copy, 0, copy.length);
                    consumedBytes += c.meta[m + 1]; // out of this ring (queued again below)
                    if (headOffset > 0) {
                        // Its first bytes were read: they go back to the window now, the rest
                        // when it is read from where it is queued again.
                        partlyRead = (AssocState) ref;
                        partReadBytes = headOffset;
                    }
                    word = (word & ~(3 << KIND_SHIFT)) | (KIND_ARRAY << KIND_SHIFT);
                }
                c.refs[2 * i] = null;
                c.refs[2 * i + 1] = null;
                headIndex = i + 1;
                headOffset = 0;
                queued.add(new Moved(ref, copy, c.meta[m + 2], word));
            }
            for (Moved q : queued) {
                boolean mine = q.ref instanceof AssocState s
                        ? s == a
                        : ((Notification) q.ref).association() instanceof SctpjAssociation sa
                                && sa.id().equals(a.id);
                Inbox dst = mine ? to : this;
                Chunk c = dst.room(0);
                int len = q.data == null ? 0 : q.data.length;
                dst.put(c, dst.tailCount, 0, len, q.ppid, q.word, q.ref, q.data);
                dst.producedBytes += len;
            }
        } finally {
            lock.unlock();
        }
        if (partlyRead != null) {
            partlyRead.consumed(partReadBytes, false);
        }
        to.wake();
        wake();
    }

    /** An item taken out of the ring by {@link #moveTo}, to be queued again. */
    private record Moved(Object ref, byte[] data, int ppid, int word) {}

    // ------------------------------------------------------------------ reading (any thread)

    /** Under the lock: whether no item waits; moves past chunks read to their end. */
    private boolean emptyLocked() {
        while (true) {
            Chunk c = head;
            if (headIndex < headSeen) {
                return false;
            }
            headSeen = (int) PUBLISHED.getAcquire(c);
            if (headIndex < headSeen) {
                return false;
            }
            Chunk n = c.next;
            if (n == null) {
                return true;
            }
            // The stack thread set next after c's last item: look at c's count once more.
            headSeen = (int) PUBLISHED.getAcquire(c);
            if (headIndex < headSeen) {
                return false;
            }
            head = n;
            headIndex = 0;
            headSeen = 0;
            if (c.data.length > 0) {
                spares.give(c);
            }
        }
    }

    /**
     * Takes the next item: copies (part of) a message into {@code dst} and returns its info, or
     * returns a notification, {@link #NOTHING}, {@link #END} or {@link #CLOSED}. Waits up to
     * {@code timeoutNanos} (negative: no limit; 0: do not wait) while nothing is queued and the
     * association {@code endOf} (null: none) has not ended; spins first for up to {@link
     * #spinNanos}.
     *
     * @throws InterruptedException if the waiting thread is interrupted
     */
    Object take(ByteBuffer dst, long timeoutNanos, AssocState endOf) throws InterruptedException {
        long deadline = 0; // read from the clock only if this has to wait
        Object r;
        AssocState done;
        int doneBytes;
        boolean caughtUp;
        lock.lock();
        try {
            r = tryTake(dst, endOf);
            if (r == null && timeoutNanos > 0) {
                deadline = System.nanoTime() + timeoutNanos;
            }
            if (r == null && timeoutNanos != 0 && spinNanos > 0) {
                long left = timeoutNanos < 0 ? Long.MAX_VALUE : deadline - System.nanoTime();
                lock.unlock();
                try {
                    spin(Math.min(left, spinNanos));
                } finally {
                    lock.lock();
                }
                r = tryTake(dst, endOf);
            }
            while (r == null) {
                if (timeoutNanos == 0) {
                    return NOTHING;
                }
                long left = timeoutNanos < 0 ? Long.MAX_VALUE : deadline - System.nanoTime();
                if (left <= 0) {
                    return NOTHING;
                }
                SLEEPERS.setVolatile(this, sleepers + 1); // under the lock: the only writer now
                try {
                    // Look again after counting ourselves: the stack thread reads sleepers after
                    // its items' stores, so either we see its item or it sees us (and wakes us).
                    r = tryTake(dst, endOf);
                    if (r != null) {
                        break;
                    }
                    if (timeoutNanos < 0) {
                        arrived.await();
                    } else {
                        arrived.awaitNanos(left);
                    }
                } finally {
                    SLEEPERS.setVolatile(this, sleepers - 1);
                }
                r = tryTake(dst, endOf);
            }
            done = taken;
            doneBytes = takenBytes;
            caughtUp = takenCaughtUp;
            taken = null;
        } finally {
            lock.unlock();
        }
        if (done != null) {
            done.consumed(doneBytes, caughtUp);
        }
        return r;
    }

    /** Set by {@link #tryTake} (under the lock) when it took the last bytes of a message. */
    private AssocState taken;

    private int takenBytes;
    private boolean takenCaughtUp;

    /**
     * Under the lock: the next item as {@link #take} returns it, or null when nothing is queued
     * and neither the end nor the close has come.
     */
    private Object tryTake(ByteBuffer dst, AssocState endOf) {
        if (closed) {
            return CLOSED;
        }
        if (emptyLocked()) {
            if (endOf != null && (endOf.phase == AssocState.ENDED || endOf.phase == AssocState.PEER_SHUTDOWN)) {
                return END;
            }
            return null;
        }
        Chunk c = head;
        int i = headIndex;
        int m = i * INTS;
        int word = c.meta[m + 3];
        int kind = word >>> KIND_SHIFT;
        Object ref = c.refs[2 * i];
        if (kind == KIND_NOTE) {
            c.refs[2 * i] = null;
            headIndex = i + 1;
            return ref;
        }
        AssocState a = (AssocState) ref;
        int len = c.meta[m + 1];
        byte[] src = kind == KIND_ARRAY ? (byte[]) c.refs[2 * i + 1] : c.data;
        int start = kind == KIND_ARRAY ? 0 : c.meta[m];
        int n = Math.min(dst.remaining(), len - headOffset);
        dst.put(src, start + headOffset, n);
        headOffset += n;
        boolean whole = headOffset == len;
        SctpjMessageInfo info =
                SctpjMessageInfo.incoming(a.view, a.primary, word & 0xffff, c.meta[m + 2], (word & UNORDERED) != 0, n);
        info.complete(whole && (word & LAST) != 0);
        if (whole) {
            c.refs[2 * i] = null;
            c.refs[2 * i + 1] = null;
            headIndex = i + 1;
            headOffset = 0;
            consumedBytes += len;
            taken = a;
            takenBytes = len;
            takenCaughtUp = emptyLocked();
        }
        return info;
    }

    /**
     * Without the lock: spins up to {@code nanos} until an item may have been published, or the
     * inbox closed. Reads the readers' position without the lock, as a hint only: the caller
     * looks again under the lock.
     */
    private void spin(long nanos) {
        if (nanos <= 0) {
            return;
        }
        long end = System.nanoTime() + nanos;
        for (int n = 1; ; n++) {
            Chunk c = head;
            if ((int) PUBLISHED.getAcquire(c) > headIndex || c.next != null || closed) {
                return;
            }
            if ((n & 31) == 0 && System.nanoTime() - end >= 0) {
                return;
            }
            Thread.onSpinWait();
        }
    }

    /** For tests: the chunk being written (its size shows how the ring grows). */
    int tailChunkBytes() {
        return tail.data.length;
    }

    /** For tests: chunks made so far (not reused ones). */
    int chunksMade() {
        return chunksMade;
    }

    private int chunksMade;
}
