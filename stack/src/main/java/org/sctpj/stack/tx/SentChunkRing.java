package org.sctpj.stack.tx;

/** Outstanding chunks in TSN order: a growable ring with indexed access. */
final class SentChunkRing {
    private SentChunk[] items = new SentChunk[16];
    private int head;
    private int size;

    int size() {
        return size;
    }

    SentChunk get(int i) {
        return items[(head + i) & (items.length - 1)];
    }

    SentChunk first() {
        return items[head];
    }

    void addLast(SentChunk c) {
        if (size == items.length) {
            SentChunk[] bigger = new SentChunk[items.length * 2];
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

    void clear() {
        while (size > 0) {
            removeFirst();
        }
        head = 0;
    }
}
