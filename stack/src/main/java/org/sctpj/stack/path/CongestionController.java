package org.sctpj.stack.path;

/**
 * Congestion control of one association, applied per destination (RFC 9260 section 7.2). The
 * controller keeps no per-path state of its own: cwnd, ssthresh and partial_bytes_acked live in
 * {@link Path}, so that controllers (standard, CMT variants) can be swapped.
 *
 * <p>"MTU" in the rules is {@link Path#mtu()}.
 */
public interface CongestionController {

    /**
     * Sets the initial window of a new path: cwnd = min(4 * MTU, max(2 * MTU, 4380)), ssthresh =
     * the peer's advertised receiver window, partial_bytes_acked = 0 (RFC 9260 section 7.2.1).
     */
    void init(Path p, long peerRwnd);

    /**
     * A SACK acknowledged {@code bytesNewlyAcked} bytes of data sent on {@code p} (by the
     * cumulative ack or gap blocks). Called after the flight size is reduced, before any fast
     * retransmit of the same SACK.
     *
     * @param cumAckAdvanced the SACK advanced the Cumulative TSN Ack Point
     * @param cwndFullyUsed before the SACK, the flight size on p was at least cwnd
     * @param inFastRecovery the sender is in Fast Recovery
     */
    void onAck(Path p, long bytesNewlyAcked, boolean cumAckAdvanced, boolean cwndFullyUsed, boolean inFastRecovery);

    /** A fast retransmit on entering Fast Recovery (RFC 9260 section 7.2.4). */
    void onFastRetransmit(Path p);

    /** T3-rtx expired on {@code p} (RFC 9260 section 7.2.3). */
    void onT3Timeout(Path p);

    /** Nothing was sent on {@code p} for an RTO (RFC 9260 section 7.2.1, last paragraph). */
    void onIdle(Path p);
}
