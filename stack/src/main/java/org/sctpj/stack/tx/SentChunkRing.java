package org.sctpj.stack.tx;

/**
 * Outstanding chunks in TSN order: a growable ring with indexed access. It holds no array until
 * the first chunk (an idle association pays nothing for it), doubles from 16 slots as needed,
 * and {@link #trim()} lets an empty ring's array go after a burst.
 */
final class SentChunkRing {
    private static final SentChunk[] NONE = new SentChunk[0];
    private static final int FIRST = 16;

    private SentChunk[] items = NONE;
    private int head;
    private int size;

    int size() {
        return size;
    }

    SentChunk get(int i) {
        return items[(head + i) & (items.length - 1)];
    }

    SentChunk first() {
        return size == 0 ? null : items[head];
    }

    void addLast(SentChunk c) {
        if (size == items.length) {
            SentChunk[] bigger = new SentChunk[Math.max(FIRST, items.length * 2)];
            for (int i = 0; i < size; i++) {
                bigger[i] = get(i);
            }
            items = bigger;
            head = 0;
        }
        items[(head + size) & (items.length - 1)] = c;
        size++;
    }

    SentChunk removeFirst() {
        SentChunk c = items[head];
        items[head] = null;
        head = (head + 1) & (items.length - 1);
        size--;
        return c;
    }

    /** Slots of the array (0 before the first chunk and after {@link #trim()}). */
    int capacity() {
        return items.length;
    }

    /** An empty ring lets its array go (an idle association keeps none); a non-empty one is kept. */
    void trim() {
        if (size == 0) {
            items = NONE;
            head = 0;
        }
    }

    void clear() {
        while (size > 0) {
            removeFirst();
        }
        head = 0;
    }
}
