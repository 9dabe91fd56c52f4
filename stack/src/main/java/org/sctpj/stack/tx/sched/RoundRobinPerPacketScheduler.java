package org.sctpj.stack.tx.sched;

import org.sctpj.stack.StreamSchedulerKind;

/**
 * Round robin per packet (RFC 8260 section 3.3): the ring of {@link RoundRobinScheduler}, but the
 * turn passes when a new packet starts, not after each chunk, so a packet carries the data of one
 * stream while that stream has any. When the stream runs out of data within a packet, the next
 * stream in the ring fills the rest (the packet is not sent half empty), and the packet after that
 * starts with the stream after it.
 */
final class RoundRobinPerPacketScheduler extends RoundRobinScheduler {

    /** The stream whose turn it is sent a chunk in the packet being filled. */
    private boolean sentInPacket;

    @Override
    public StreamSchedulerKind kind() {
        return StreamSchedulerKind.ROUND_ROBIN_PER_PACKET;
    }

    @Override
    public void sent(int streamId, int bytes, boolean messageDone, int headUnsent) {
        sentInPacket = true;
        if (headUnsent == 0) {
            remove(streamId);
        }
    }

    @Override
    public void packetStarted() {
        if (sentInPacket && head >= 0) {
            head = after(head);
        }
        sentInPacket = false;
    }
}
