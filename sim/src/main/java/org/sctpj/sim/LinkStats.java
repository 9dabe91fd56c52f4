package org.sctpj.sim;

/**
 * A snapshot of a {@link Link}'s counters. Every packet offered to the link counts once in {@code
 * sent}; each copy (the original and any duplicate) ends as delivered or as one kind of drop, so
 * once the link is idle {@code sent + duplicated == delivered + dropped()}.
 *
 * @param sent packets offered to the link by the sending node
 * @param bytesSent bytes offered to the link
 * @param delivered copies handed to the receiving node (including corrupted ones and duplicates)
 * @param bytesDelivered bytes handed to the receiving node
 * @param droppedLoss packets lost by the random {@link LossModel}
 * @param droppedQueue packets tail-dropped because the queue was full
 * @param droppedDown copies dropped because the link was down when they were sent or went down
 *     while they were queued or on the wire
 * @param corruptedDelivered delivered copies that had one bit flipped
 * @param duplicated extra copies made by duplication
 * @param reordered packets held back by the reordering extra delay
 */
public record LinkStats(
        long sent,
        long bytesSent,
        long delivered,
        long bytesDelivered,
        long droppedLoss,
        long droppedQueue,
        long droppedDown,
        long corruptedDelivered,
        long duplicated,
        long reordered) {

    /** All drops, whatever the cause. */
    public long dropped() {
        return droppedLoss + droppedQueue + droppedDown;
    }
}
