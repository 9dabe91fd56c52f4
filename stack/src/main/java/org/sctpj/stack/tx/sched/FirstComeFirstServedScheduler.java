package org.sctpj.stack.tx.sched;

import org.sctpj.stack.StreamSchedulerKind;

/**
 * First come, first served (RFC 8260 section 3.1): the stream ids of the queued messages in the
 * order the user queued them, in a ring buffer that grows when full (no allocation per message in
 * steady state); the turn is the oldest message's stream, and it passes when that message's last
 * chunk is sent. Interleaving changes nothing: the oldest message is always the one to go on.
 */
final class FirstComeFirstServedScheduler implements StreamScheduler {

    private int[] ring = new int[16];
    private int start;
    private int size;

    @Override
    public StreamSchedulerKind kind() {
        return StreamSchedulerKind.FIRST_COME_FIRST_SERVED;
    }

    @Override
    public void enqueued(int streamId, int length, boolean first) {
        if (size == ring.length) {
            int[] bigger = new int[size * 2];
            for (int i = 0; i < size; i++) {
                bigger[i] = ring[(start + i) & (ring.length - 1)];
            }
            ring = bigger;
            start = 0;
        }
        ring[(start + size) & (ring.length - 1)] = streamId;
        size++;
    }

    @Override
    public int next() {
        return size == 0 ? -1 : ring[start];
    }

    @Override
    public void sent(int streamId, int bytes, boolean messageDone, int headUnsent) {
        if (!messageDone || size == 0) {
            return;
        }
        int mask = ring.length - 1;
        if (ring[start] == streamId) {
            start = (start + 1) & mask;
            size--;
            return;
        }
        // A stream other than the oldest message's finished one: only after a switch of scheduler
        // while its message was partly sent (the queue held its turn). Its first entry is that
        // message: take it out, keeping the order of the rest.
        for (int i = 1; i < size; i++) {
            if (ring[(start + i) & mask] == streamId) {
                for (int j = i; j < size - 1; j++) {
                    ring[(start + j) & mask] = ring[(start + j + 1) & mask];
                }
                size--;
                return;
            }
        }
    }

    @Override
    public void packetStarted() {}

    /** The stream's entries are its messages in queue order: the one at {@code position} goes. */
    @Override
    public void removedBehindHead(int streamId, int position) {
        int mask = ring.length - 1;
        int seen = 0;
        for (int i = 0; i < size; i++) {
            if (ring[(start + i) & mask] == streamId && seen++ == position) {
                for (int j = i; j < size - 1; j++) {
                    ring[(start + j) & mask] = ring[(start + j + 1) & mask];
                }
                size--;
                return;
            }
        }
    }
}
