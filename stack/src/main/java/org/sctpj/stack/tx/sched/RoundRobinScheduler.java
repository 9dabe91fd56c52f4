package org.sctpj.stack.tx.sched;

import org.sctpj.stack.StreamSchedulerKind;

/**
 * Round robin (RFC 8260 section 3.2): the streams with queued data form a ring in the order they
 * got data; the turn passes to the next stream in the ring after each chunk a stream sends (with
 * DATA the queue holds the turn until the message is complete, so that is one message per turn). A
 * stream that gets data joins the ring just before the stream whose turn it is, at the end of the
 * turn order; a stream that runs out of data leaves it.
 *
 * <p>The ring is intrusive, two int arrays of neighbours by stream id: nothing is allocated per
 * message or chunk.
 */
class RoundRobinScheduler implements StreamScheduler {

    /** Ring neighbours by stream id; {@code succ[id] == -1} when the stream is not in the ring. */
    private int[] succ = new int[0];

    private int[] pred = new int[0];

    /** The stream whose turn it is, -1 when the ring is empty. */
    int head = -1;

    @Override
    public StreamSchedulerKind kind() {
        return StreamSchedulerKind.ROUND_ROBIN;
    }

    @Override
    public void enqueued(int streamId, int length, boolean first) {
        if (!first) {
            return;
        }
        if (streamId >= succ.length) {
            succ = StreamIds.cover(succ, streamId, -1);
            pred = StreamIds.cover(pred, streamId, -1);
        }
        if (head < 0) {
            succ[streamId] = streamId;
            pred[streamId] = streamId;
            head = streamId;
            return;
        }
        int tail = pred[head];
        succ[tail] = streamId;
        pred[streamId] = tail;
        succ[streamId] = head;
        pred[head] = streamId;
    }

    @Override
    public int next() {
        return head;
    }

    @Override
    public void sent(int streamId, int bytes, boolean messageDone, int headUnsent) {
        if (headUnsent == 0) {
            remove(streamId);
        } else if (streamId == head) {
            head = succ[streamId];
        }
    }

    /** Takes {@code streamId} out of the ring; the turn passes on if it was its turn. */
    final void remove(int streamId) {
        int s = succ[streamId];
        if (s < 0) {
            return;
        }
        if (s == streamId) {
            head = -1;
        } else {
            int p = pred[streamId];
            succ[p] = s;
            pred[s] = p;
            if (head == streamId) {
                head = s;
            }
        }
        succ[streamId] = -1;
        pred[streamId] = -1;
    }

    /** The stream after {@code streamId} in the ring. */
    final int after(int streamId) {
        return succ[streamId];
    }

    @Override
    public void packetStarted() {}
}
