package org.sctpj.stack.tx.sched;

import org.sctpj.stack.StreamSchedulerKind;

/**
 * Weighted fair queueing (RFC 8260 section 3.6): each stream has a weight (1 to 65535, default 1),
 * and the head message with the earliest virtual finish time goes next ({@link
 * VirtualClockScheduler}): the stream's virtual start plus the message's unsent bytes divided by
 * the weight; each byte sent advances the stream's start by 1 / weight. A stream of weight n thus
 * sends n times the bytes of a stream of weight 1 while both have data, and a short message can
 * overtake a long one of the same weight on another stream (with interleaving even in the middle
 * of the long one).
 */
final class WeightedFairQueueingScheduler extends VirtualClockScheduler {

    private int[] weights = new int[0];

    @Override
    public StreamSchedulerKind kind() {
        return StreamSchedulerKind.WEIGHTED_FAIR_QUEUEING;
    }

    @Override
    int weight(int streamId) {
        int w = streamId < weights.length ? weights[streamId] : 0;
        return w == 0 ? 1 : w;
    }

    @Override
    boolean byFinishTime() {
        return true;
    }

    @Override
    public void setValue(int streamId, int value) {
        StreamScheduler.checkValue(kind(), value);
        weights = StreamIds.cover(weights, streamId, 0);
        weights[streamId] = value;
        if (heap.contains(streamId)) {
            rekey(streamId);
            heap.update(streamId);
        }
    }

    @Override
    public int value(int streamId) {
        return weight(streamId);
    }
}
