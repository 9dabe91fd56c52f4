package org.sctpj.stack;

import java.util.ArrayList;
import java.util.List;
import org.sctpj.stack.rx.DataReceiver;
import org.sctpj.stack.tx.DataSender;

/**
 * A read-only snapshot of an association's data transfer, both halves: what a stalled transfer
 * looks like from inside (which side waits for what). Part of {@link AssociationInfo}; empty
 * values (zeros, no gaps) before the association is established.
 *
 * @param peerRwnd the peer's receive window as the sender estimates it (RFC 9260 section 6.2.1):
 *     its last a_rwnd minus the bytes sent since and not acknowledged
 * @param nextTsn the TSN the next new DATA chunk will carry (unsigned)
 * @param cumAckTsn the sender's Cumulative TSN Ack Point (unsigned)
 * @param outstandingChunks DATA chunks sent and not cumulatively acknowledged
 * @param outstandingBytes their user bytes (gap-acknowledged ones included)
 * @param markedForRetransmission outstanding chunks marked for retransmission (RFC 9260 section
 *     6.3.3 E3, 7.2.4) and not yet resent
 * @param queuedMessages messages in the send buffer not yet fully sent
 * @param queuedBytes their unsent bytes
 * @param inFastRecovery whether the sender is in Fast Recovery (RFC 9260 section 7.2.4)
 * @param cumulativeTsn the receiver's Cumulative TSN (unsigned): every TSN up to it arrived
 * @param highestTsn the highest TSN received (unsigned)
 * @param gapBlocks the receiver's gap ack blocks as {@code start-end} offsets from {@code
 *     cumulativeTsn} (RFC 9260 section 3.3.4), at most {@link #MAX_GAP_BLOCKS}
 * @param receiveBuffered bytes the receiver holds (fragments and messages not yet taken)
 * @param pendingFragments fragments waiting for the rest of their message
 * @param advertisedRwnd the a_rwnd the receiver's next SACK would carry
 * @param lastAdvertisedRwnd the a_rwnd its last SACK carried
 * @param droppedChunks DATA chunks the receiver dropped for lack of room since the start
 * @param sackPending whether a SACK is due (at once or on the delayed-ack timer)
 */
public record TransferInfo(
        long peerRwnd,
        long nextTsn,
        long cumAckTsn,
        int outstandingChunks,
        long outstandingBytes,
        int markedForRetransmission,
        int queuedMessages,
        long queuedBytes,
        boolean inFastRecovery,
        long cumulativeTsn,
        long highestTsn,
        List<String> gapBlocks,
        long receiveBuffered,
        int pendingFragments,
        long advertisedRwnd,
        long lastAdvertisedRwnd,
        long droppedChunks,
        boolean sackPending) {

    /** The most gap blocks a snapshot lists. */
    public static final int MAX_GAP_BLOCKS = 16;

    /** The empty snapshot of an association not yet established. */
    static final TransferInfo NONE =
            new TransferInfo(0, 0, 0, 0, 0, 0, 0, 0, false, 0, 0, List.of(), 0, 0, 0, 0, 0, false);

    /** The snapshot of {@code tx} and {@code rx}; either may be null (not yet established). */
    static TransferInfo of(DataSender tx, DataReceiver rx) {
        if (tx == null || rx == null) {
            return NONE;
        }
        int[] starts = new int[MAX_GAP_BLOCKS];
        int[] ends = new int[MAX_GAP_BLOCKS];
        int n = rx.gapBlocks(starts, ends, MAX_GAP_BLOCKS);
        List<String> gaps = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            gaps.add(starts[k] + "-" + ends[k]);
        }
        return new TransferInfo(
                tx.peerRwnd(),
                Integer.toUnsignedLong(tx.nextTsn()),
                Integer.toUnsignedLong(tx.cumulativeAckTsn()),
                tx.outstandingCount(),
                tx.outstandingBytes(),
                tx.markedForRetransmission(),
                tx.queuedMessages(),
                tx.queuedBytes(),
                tx.inFastRecovery(),
                Integer.toUnsignedLong(rx.cumulativeTsn()),
                Integer.toUnsignedLong(rx.highestTsn()),
                List.copyOf(gaps),
                rx.bufferedBytes(),
                rx.pendingFragments(),
                rx.aRwnd(),
                rx.lastAdvertisedRwnd(),
                rx.droppedChunks(),
                rx.sackDeadline() != Long.MAX_VALUE || rx.sackNeeded(Long.MIN_VALUE));
    }
}
