package org.sctpj.stack.tx.sched;

import org.sctpj.stack.StreamSchedulerKind;

/**
 * Priority (RFC 8260 section 3.4): the streams with queued data in a {@link StreamHeap} keyed by
 * their priority value (lower first, 0 to 65535, default 0); among equal values the stream that
 * had its turn least recently goes first (each chunk sent moves the stream behind the others of
 * its value), which is round robin within a priority.
 */
final class PriorityScheduler extends HeapScheduler {

    private int[] priority = new int[0];

    @Override
    public StreamSchedulerKind kind() {
        return StreamSchedulerKind.PRIORITY;
    }

    @Override
    public void enqueued(int streamId, int length, boolean first) {
        if (!first) {
            return;
        }
        heap.cover(streamId);
        heap.key[streamId] = value(streamId);
        join(streamId);
    }

    @Override
    public void sent(int streamId, int bytes, boolean messageDone, int headUnsent) {
        afterChunk(streamId, headUnsent);
    }

    @Override
    public void setValue(int streamId, int value) {
        StreamScheduler.checkValue(kind(), value);
        priority = StreamIds.cover(priority, streamId, 0);
        priority[streamId] = value;
        if (heap.contains(streamId)) {
            heap.key[streamId] = value;
            heap.update(streamId);
        }
    }

    @Override
    public int value(int streamId) {
        return streamId < priority.length ? priority[streamId] : 0;
    }
}
