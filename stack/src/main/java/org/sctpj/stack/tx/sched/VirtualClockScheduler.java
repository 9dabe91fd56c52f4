package org.sctpj.stack.tx.sched;

/**
 * The common part of {@link FairCapacityScheduler} and {@link WeightedFairQueueingScheduler}: each
 * stream has a virtual start time, the virtual time it has used (its bytes sent, each divided by
 * its weight); the stream with the smallest key goes next, where the key is the virtual start
 * (fair capacity) or the virtual finish time of the head message (weighted fair queueing). The
 * system's virtual time is the virtual start of the last stream that was its turn; a stream that
 * gets data after having none starts no earlier than that, so idle time earns no credit. Ties go
 * to the stream that had its turn least recently.
 */
abstract class VirtualClockScheduler extends HeapScheduler {

    /** One byte at weight 1 costs this much virtual time; a byte at weight w costs SCALE / w. */
    static final long SCALE = 1 << 16;

    /** Virtual start by stream id; the heap's {@link StreamHeap#key} holds what is compared. */
    private long[] start = new long[0];
    /** Unsent bytes of each stream's head message. */
    private int[] headBytes = new int[0];

    private long virtualTime;

    /** The weight of {@code streamId}, at least 1. */
    abstract int weight(int streamId);

    /** Whether the key is the head message's finish time (true) or the stream's virtual start. */
    abstract boolean byFinishTime();

    private void cover(int id) {
        heap.cover(id);
        if (id >= start.length) {
            start = StreamIds.cover(start, id);
            headBytes = StreamIds.cover(headBytes, id, 0);
        }
    }

    /** Recomputes the key of {@code id} from its start, head and weight. */
    final void rekey(int id) {
        long k = start[id];
        if (byFinishTime()) {
            k += headBytes[id] * SCALE / weight(id);
        }
        heap.key[id] = k;
    }

    @Override
    public void enqueued(int streamId, int length, boolean first) {
        if (!first) {
            return;
        }
        cover(streamId);
        if (start[streamId] - virtualTime < 0) {
            start[streamId] = virtualTime;
        }
        headBytes[streamId] = length;
        rekey(streamId);
        join(streamId);
    }

    @Override
    public void sent(int streamId, int bytes, boolean messageDone, int headUnsent) {
        int top = heap.peek();
        if (top >= 0 && start[top] - virtualTime > 0) {
            virtualTime = start[top];
        }
        cover(streamId);
        start[streamId] += bytes * SCALE / weight(streamId);
        headBytes[streamId] = headUnsent;
        rekey(streamId);
        afterChunk(streamId, headUnsent);
    }
}
