package org.sctpj.stack.tx.sched;

/**
 * An indexed binary min-heap of stream ids ordered by a per-stream key, ties broken by a
 * per-stream sequence number (lower first), for the schedulers that pick the stream with the
 * smallest value: {@link PriorityScheduler}, {@link FairCapacityScheduler}, {@link
 * WeightedFairQueueingScheduler}. Keys are compared by their signed difference, so a virtual clock
 * may wrap around as long as the keys in the heap stay within 2^63 of each other. Adding, removing
 * and re-keying a stream take O(log n) and allocate nothing once the arrays cover the ids.
 */
final class StreamHeap {

    private int[] heap = new int[8];
    private int size;
    /** Position in {@link #heap} plus one, by stream id; 0 when absent. */
    private int[] pos = new int[0];

    /** The key of each stream, by id; kept while the stream is out of the heap. */
    long[] key = new long[0];

    /** The tie-breaker of each stream, by id. */
    long[] seq = new long[0];

    /** Makes the per-stream arrays cover {@code id}. */
    void cover(int id) {
        if (id >= pos.length) {
            pos = StreamIds.cover(pos, id, 0);
            key = StreamIds.cover(key, id);
            seq = StreamIds.cover(seq, id);
        }
    }

    boolean contains(int id) {
        return id < pos.length && pos[id] != 0;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The stream with the smallest key, or -1. */
    int peek() {
        return size == 0 ? -1 : heap[0];
    }

    /** Adds {@code id} with its current {@link #key} and {@link #seq}. */
    void add(int id) {
        cover(id);
        if (pos[id] != 0) {
            update(id);
            return;
        }
        if (size == heap.length) {
            heap = java.util.Arrays.copyOf(heap, size * 2);
        }
        heap[size] = id;
        pos[id] = size + 1;
        size++;
        up(size - 1);
    }

    /** Takes {@code id} out, if it is in. */
    void remove(int id) {
        if (!contains(id)) {
            return;
        }
        int i = pos[id] - 1;
        pos[id] = 0;
        size--;
        if (i == size) {
            return;
        }
        int last = heap[size];
        heap[i] = last;
        pos[last] = i + 1;
        up(i);
        down(pos[last] - 1);
    }

    /** Restores the order after the key or sequence of {@code id} (in the heap) changed. */
    void update(int id) {
        int i = pos[id] - 1;
        up(i);
        down(pos[id] - 1);
    }

    private boolean less(int a, int b) {
        long d = key[a] - key[b];
        if (d != 0) {
            return d < 0;
        }
        return seq[a] - seq[b] < 0;
    }

    private void up(int i) {
        int id = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            int p = heap[parent];
            if (!less(id, p)) {
                break;
            }
            heap[i] = p;
            pos[p] = i + 1;
            i = parent;
        }
        heap[i] = id;
        pos[id] = i + 1;
    }

    private void down(int i) {
        int id = heap[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && less(heap[child + 1], heap[child])) {
                child++;
            }
            int c = heap[child];
            if (!less(c, id)) {
                break;
            }
            heap[i] = c;
            pos[c] = i + 1;
            i = child;
        }
        heap[i] = id;
        pos[id] = i + 1;
    }
}
