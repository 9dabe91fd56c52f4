package org.sctpj.api.socket;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.sctpj.api.callback.CallbackSocket;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;

/**
 * The messages application threads sent on one association that the stack thread has not given
 * to the protocol core yet, without an object or a lock shared with the stack thread per message.
 *
 * <p>A sending thread copies the message into a chunk (a byte array, two ints and a {@link
 * SendInfo} reference per message; senders serialize on this object's monitor, which the stack
 * thread never takes) and publishes it with a store of the chunk's count. The first message
 * after the stack thread last looked schedules one drain command ({@link CallbackSocket#execute},
 * which wakes a sleeping stack thread); later ones join it until the drain runs. The drain gives
 * each message to the core with {@link CallbackSocket#send} on the stack thread, which copies it
 * into the core's pooled arrays, as the callback API's own senders do. So a message is copied
 * twice, and nothing is allocated per message: the callback API's hand-off from other threads
 * allocates the message's array (the core keeps it), which at 1 GB/s of 1000-byte messages was a
 * gigabyte a second of fresh heap (and its page faults in a short run).
 *
 * <p>A sender takes space only while the send buffer's free space as the stack thread published
 * it ({@link CallbackSocket#sendBufferFree}), less what waits here, is enough, so the core takes
 * every message in turn; should it refuse one all the same, the drain stops there and goes on
 * once a SACK frees space ({@link #resume}). Drained chunks are reused (up to four are kept, see
 * {@link Spares}) when one is at least twice as large as what waits; otherwise a new one of that
 * size is made (1 KiB to 256 KiB); messages over 64 KiB keep an array of their own.
 */
final class SendRing {

    static final int MAX_INLINE = 64 * 1024;

    /** The drain moves {@link #taken} on every this many messages, and at its end. */
    private static final int TAKEN_EVERY = 16;

    /** What {@link #offer} says. */
    static final int ACCEPTED = 0;
    /** {@link #offer}: not enough free space now. */
    static final int FULL = 1;

    private static final class Chunk implements Spares.Sized {
        final byte[] data;
        /** Two ints per message: offset in data, length. */
        final int[] meta;

        final SendInfo[] infos;
        /** A message's own array (over {@link #MAX_INLINE}), else null. */
        final byte[][] own;
        /** Messages published; written by senders (volatile), read by the stack thread. */
        volatile int published;

        volatile Chunk next;
        /** Senders only (under the lock): bytes of data used. */
        int used;
        /** Stack thread only: a view of data, for the core's send. */
        ByteBuffer view;

        Chunk(int bytes) {
            data = new byte[bytes];
            int n = bytes == 0 ? 0 : Math.max(8, Math.min(1024, bytes / 64));
            meta = new int[2 * n];
            infos = new SendInfo[n];
            own = new byte[n][];
        }

        @Override
        public int bytes() {
            return data.length;
        }

        int capacity() {
            return infos.length;
        }
    }

    private static final VarHandle PUBLISHED;

    static {
        try {
            PUBLISHED = MethodHandles.lookup().findVarHandle(Chunk.class, "published", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // senders' side, under the monitor
    private Chunk tail;
    private int tailCount;
    /** Bytes ever offered (written under the monitor; the stack thread reads it for {@link #waiting}). */
    private volatile long offered;

    // stack thread's side
    private Chunk head;
    private int headIndex;
    /** Bytes ever given to the core (or returned as failed); written by the stack thread only. */
    private volatile long taken;
    /** The core refused a message (no room): the drain waits for {@link #resume}. */
    private boolean stalled;

    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final Spares<Chunk> spares = new Spares<>();
    private final AssocState assoc;
    private final Runnable drainTask;

    SendRing(AssocState assoc) {
        this.assoc = assoc;
        this.drainTask = this::drain;
        Chunk first = new Chunk(0); // holds nothing: the first offer links a real chunk
        tail = first;
        head = first;
    }

    /**
     * Stack thread: bytes offered and not yet taken, as far as it can tell without the senders'
     * monitor (a sender may be adding one right now).
     */
    long waiting() {
        return offered - taken;
    }

    /** Bytes offered and not yet taken by the stack thread. */
    long pending() {
        synchronized (this) {
            return offered - taken;
        }
    }

    /**
     * Application thread: queues {@code src}'s remaining bytes (copied; {@code src}'s position moves
     * to its limit) if the send buffer has room for them besides what waits here, and schedules a
     * drain when the stack thread has not been told yet.
     *
     * @return {@link #ACCEPTED} or {@link #FULL}
     * @throws IllegalStateException if the stack thread is closed (the message stays unsent)
     */
    int offer(CallbackSocket socket, ByteBuffer src, SendInfo info) {
        int len = src.remaining();
        synchronized (this) {
            // taken before the free space: the stack thread publishes the core's smaller free space
            // before it counts a message taken, so this never counts a message twice as room
            long waiting = offered - taken;
            if (free(socket) - waiting < len) {
                return FULL;
            }
            Chunk c = tail;
            int i = tailCount;
            if (len > MAX_INLINE) {
                if (i == c.capacity()) {
                    c = grow(0, waiting);
                    i = 0;
                }
                byte[] a = new byte[len];
                src.get(a);
                c.own[i] = a;
            } else {
                if (i == c.capacity() || c.data.length - c.used < len) {
                    c = grow(len, waiting);
                    i = 0;
                }
                c.meta[2 * i] = c.used;
                src.get(c.data, c.used, len);
                c.used += len;
            }
            c.meta[2 * i + 1] = len;
            c.infos[i] = info;
            tailCount = i + 1;
            offered += len;
            // volatile: ordered before the load of scheduled below (the drain does the reverse)
            PUBLISHED.setVolatile(c, i + 1);
        }
        if (!scheduled.get() && scheduled.compareAndSet(false, true)) {
            try {
                socket.execute(drainTask);
            } catch (IllegalStateException e) {
                scheduled.set(false);
                throw e;
            }
        }
        return ACCEPTED;
    }

    private long free(CallbackSocket socket) {
        try {
            return socket.sendBufferFree(assoc.id);
        } catch (IllegalArgumentException e) {
            return Long.MAX_VALUE; // the association is gone: the drain reports the message failed
        }
    }

    /** Under the monitor: a new tail chunk with {@code bytes} free, sized by what waits. */
    private Chunk grow(int bytes, long waiting) {
        int size = Spares.sizeFor(Math.max(bytes, 2 * waiting));
        Chunk n = spares.take(size);
        if (n == null) {
            // a spare at least as large is reused, so a steady flow allocates no chunk; a chain
            // that grows (a reader or a stack thread lagging) gets larger ones
            n = new Chunk(size);
        } else {
            n.used = 0;
            n.next = null;
            PUBLISHED.set(n, 0);
        }
        tail.next = n; // after the old tail's last publish
        tail = n;
        tailCount = 0;
        return n;
    }

    /** Stack thread: the drain command. */
    private void drain() {
        scheduled.set(false);
        drainNow();
    }

    /**
     * Stack thread: gives every message that waits to the core, in order (before a shutdown, say),
     * unless the core refused one and no space was freed since.
     */
    void drainNow() {
        if (stalled) {
            return;
        }
        Core core = assoc.core;
        CallbackSocket socket = core.socket();
        long bytes = 0;
        long counted = 0;
        int count = 0;
        try {
            while (true) {
                Chunk c = head;
                int i = headIndex;
                if (i == (int) PUBLISHED.getVolatile(c)) {
                    Chunk n = c.next;
                    if (n == null) {
                        return;
                    }
                    if (i < (int) PUBLISHED.getVolatile(c)) {
                        continue; // published more before it linked the next chunk
                    }
                    head = n;
                    headIndex = 0;
                    if (c.data.length > 0) {
                        spares.give(c);
                    }
                    continue;
                }
                int len = c.meta[2 * i + 1];
                byte[] own = c.own[i];
                ByteBuffer b;
                if (own != null) {
                    b = ByteBuffer.wrap(own);
                } else {
                    if (c.view == null) {
                        c.view = ByteBuffer.wrap(c.data);
                    }
                    int off = c.meta[2 * i];
                    b = c.view.limit(off + len).position(off);
                }
                SendInfo info = c.infos[i];
                SendStatus s;
                try {
                    s = socket.send(assoc.id, info, b);
                } catch (IllegalStateException | IllegalArgumentException e) {
                    s = null; // the association ended or is shutting down after the message was offered
                }
                if (s == SendStatus.WOULD_BLOCK) {
                    stalled = true;
                    return;
                }
                if (s == null) {
                    byte[] copy = new byte[len];
                    b.get(b.position(), copy, 0, len);
                    core.onSendFailed(
                            socket,
                            new SctpEvent.SendFailed(
                                    assoc.id, info.streamId(), info.ppid(), info.unordered(), copy, false));
                }
                c.infos[i] = null;
                c.own[i] = null;
                headIndex = i + 1;
                bytes += len;
                if (++count % TAKEN_EVERY == 0) {
                    // Until taken moves, the sender counts these bytes twice (waiting, and gone
                    // from the core's free space): counted only at the drain's end, a long drain
                    // made a sender that was far from full wait for it (the bulk sender's futex
                    // calls doubled, 42 to 93 per 1000 messages at 1000 B).
                    taken += bytes - counted;
                    counted = bytes;
                }
            }
        } finally {
            if (bytes > counted) {
                taken += bytes - counted; // single writer; after the core published its smaller free space
            }
            if (bytes > 0) {
                // A sender that read the core's smaller figure before this line, with these bytes
                // still counted as waiting, saw them twice and may wait: tell it to look again.
                assoc.spaceFreed(free(socket));
            }
        }
    }

    /** Stack thread: a SACK freed space; a drain stopped for want of it goes on. */
    void resume() {
        if (stalled) {
            stalled = false;
            drainNow();
        }
    }
}
