package org.sctpj.api.socket;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Up to {@value #SLOTS} chunks of a ring ({@link Inbox}, {@link SendRing}) that were read to their
 * end, kept for the writer to fill again. The side that finishes chunks gives them, the side that
 * fills chunks takes them; each slot only goes from empty to a chunk (give) and from a chunk to
 * empty (take), so one thread on each side needs no lock. A chunk given when every slot is full
 * is left to the garbage collector. One slot was too few: a chain that grows and shrinks by
 * several chunks lost all but one of them to the collector at each shrink.
 */
final class Spares<C extends Spares.Sized> {

    /** A chunk: its data bytes. */
    interface Sized {
        int bytes();
    }

    static final int SLOTS = 4;
    /** The smallest chunk's bytes. */
    static final int MIN_CHUNK = 1024;
    /** The largest chunk's bytes. */
    static final int MAX_CHUNK = 256 * 1024;

    /** A chunk's size for {@code want} bytes: the power of two that holds them, {@link #MIN_CHUNK} to {@link #MAX_CHUNK}. */
    static int sizeFor(long want) {
        int size = MIN_CHUNK;
        while (size < want && size < MAX_CHUNK) {
            size <<= 1;
        }
        return size;
    }

    private final AtomicReferenceArray<C> slots = new AtomicReferenceArray<>(SLOTS);

    /**
     * Keeps {@code c} in a free slot, or in place of a smaller chunk when every slot is taken (small
     * chunks left over from a quiet spell must not keep out the large ones of a burst).
     */
    void give(C c) {
        int smallest = -1;
        int smallestBytes = c.bytes();
        for (int i = 0; i < SLOTS; i++) {
            C s = slots.get(i);
            if (s == null) {
                if (slots.compareAndSet(i, null, c)) {
                    return;
                }
                s = slots.get(i);
            }
            if (s != null && s.bytes() < smallestBytes) {
                smallest = i;
                smallestBytes = s.bytes();
            }
        }
        if (smallest >= 0) {
            C s = slots.get(smallest);
            if (s != null && s.bytes() < c.bytes()) {
                slots.compareAndSet(smallest, s, c);
            }
        }
    }

    /** A kept chunk of at least {@code bytes}, or null. */
    C take(int bytes) {
        for (int i = 0; i < SLOTS; i++) {
            C c = slots.get(i);
            if (c != null && c.bytes() >= bytes && slots.compareAndSet(i, c, null)) {
                return c;
            }
        }
        return null;
    }
}
