package org.sctpj.stack.tx;

import java.util.List;
import org.sctpj.stack.path.Path;

/**
 * What a SACK means for losses (RFC 9260 section 7.2.4): counting miss indications, marking chunks
 * for fast retransmit, Fast Recovery, and the acknowledgement signal the congestion controller's
 * slow start reads. Two variants, chosen with the {@link PathScheduling} when the data path starts:
 * {@link Rfc9260LossDetector} (one Fast Recovery per association, the HTNA rule) and {@link
 * CmtLossDetector} (CMT: split fast retransmit, pseudo-cumulative ack, Fast Recovery per
 * destination).
 *
 * <p>{@link DataSender#onSack} calls, per SACK, after the {@link RetransmissionQueue} applied the
 * cumulative ack: {@link #onCumulativeAck}, then (after the gap blocks) {@link #ackAdvances} and
 * {@link #inFastRecovery(Path)} for each path's cwnd update, then {@link #detect}. All on the
 * association's thread.
 */
interface LossDetector {

    /**
     * Whether a SACK with no gap blocks, while no gap-acknowledged chunk is outstanding, may skip
     * the passes over the whole window ({@link #detect} is then not called): true when such a SACK
     * cannot change the detector's state beyond {@link #onCumulativeAck}.
     */
    boolean skipsPlainSack();

    /** The Cumulative TSN Ack Point moved to (or stayed at) {@code cumAck}. */
    void onCumulativeAck(int cumAck);

    /**
     * The "cumulative ack advanced" signal for the cwnd update of path {@code p} (slow start grows
     * only on it, RFC 9260 section 7.2.1).
     *
     * @param cumAckAdvanced the SACK advanced the association's Cumulative TSN Ack Point
     */
    boolean ackAdvances(Path p, boolean cumAckAdvanced);

    /** Whether the sender is in Fast Recovery for path {@code p}. */
    boolean inFastRecovery(Path p);

    /** Whether the sender is in Fast Recovery (with CMT: on any destination). */
    boolean inFastRecovery();

    /**
     * Counts miss indications on the chunks still outstanding, marks those at the third for fast
     * retransmit (once per chunk), enters Fast Recovery and tells the congestion controller
     * (RFC 9260 section 7.2.4 steps 1 to 3), and counts per path the chunks left pending.
     *
     * @param cumAckAdvanced the SACK advanced the Cumulative TSN Ack Point
     */
    void detect(List<Path> paths, AckResult r, boolean cumAckAdvanced);

    /** T3-rtx expired on some path (RFC 9260 section 6.3.3). */
    void onT3Expired();

    /** The sender was emptied (abort or failure). */
    void reset();
}
