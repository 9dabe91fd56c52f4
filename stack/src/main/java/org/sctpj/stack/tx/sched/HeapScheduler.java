package org.sctpj.stack.tx.sched;

/**
 * The schedulers that give the turn to the stream with the smallest key in a {@link StreamHeap}
 * ({@link PriorityScheduler}, {@link VirtualClockScheduler}): a stream joins the heap when it gets
 * data, leaves it when it has none, and after each chunk goes behind the streams of the same key
 * (ties go to the stream that had its turn least recently).
 */
abstract class HeapScheduler implements StreamScheduler {

    final StreamHeap heap = new StreamHeap();
    private long turns;

    /** Adds {@code id} to the heap with its key set, behind the streams of the same key. */
    final void join(int id) {
        heap.seq[id] = ++turns;
        heap.add(id);
    }

    /**
     * After a chunk of {@code id}: out of the heap when it has nothing more ({@code headUnsent} 0),
     * else behind the streams of the same key, its key as set by the caller.
     */
    final void afterChunk(int id, int headUnsent) {
        if (headUnsent == 0) {
            heap.remove(id);
        } else if (heap.contains(id)) {
            heap.seq[id] = ++turns;
            heap.update(id);
        }
    }

    @Override
    public int next() {
        return heap.peek();
    }

    @Override
    public void packetStarted() {}
}
