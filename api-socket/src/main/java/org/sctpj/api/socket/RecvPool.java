package org.sctpj.api.socket;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Arrays for received messages, handed from the stack thread (which copies each message into one)
 * to the reading threads (which give it back once the message is read), so that a steady flow of
 * messages does not allocate and zero a fresh array per message. Power-of-two sizes from 256 bytes
 * to 1 MiB; larger messages get arrays of their own. At most {@code budget} bytes wait in the pool;
 * arrays beyond it are left to the garbage collector. Thread-safe.
 */
final class RecvPool {
    private static final int MIN_SHIFT = 8;
    private static final int MAX_SHIFT = 20;

    @SuppressWarnings("unchecked")
    private final ConcurrentLinkedQueue<byte[]>[] free = new ConcurrentLinkedQueue[MAX_SHIFT + 1];

    private final AtomicLong pooled = new AtomicLong();
    private final long budget;

    RecvPool(long budget) {
        this.budget = budget;
        for (int c = MIN_SHIFT; c <= MAX_SHIFT; c++) {
            free[c] = new ConcurrentLinkedQueue<>();
        }
    }

    /** An array of at least {@code length} bytes (its contents are stale). */
    byte[] take(int length) {
        int c = sizeClass(length);
        if (c < 0) {
            return new byte[length];
        }
        byte[] a = free[c].poll();
        if (a == null) {
            return new byte[1 << c];
        }
        pooled.addAndGet(-a.length);
        return a;
    }

    /** Gives back an array from {@link #take} once nobody reads it any more. */
    void give(byte[] a) {
        int c = sizeClass(a.length);
        if (c < 0 || a.length != 1 << c) {
            return;
        }
        if (pooled.addAndGet(a.length) > budget) {
            pooled.addAndGet(-a.length);
            return;
        }
        free[c].offer(a);
    }

    /** Bytes waiting in the pool (for tests). */
    long pooledBytes() {
        return pooled.get();
    }

    private static int sizeClass(int length) {
        if (length > 1 << MAX_SHIFT) {
            return -1;
        }
        int c = 32 - Integer.numberOfLeadingZeros(Math.max(length, 1 << MIN_SHIFT) - 1);
        return Math.max(c, MIN_SHIFT);
    }
}
