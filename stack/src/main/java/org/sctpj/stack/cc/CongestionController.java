package org.sctpj.stack.cc;

/**
 * Congestion control of one association, applied per destination (RFC 9260 section 7.2; for
 * coupled multipath control, RFC 6356). The stack keeps cwnd, ssthresh and partial_bytes_acked in
 * each path's {@link PathCongestionState} and lets the controller alone change them; it sends new
 * data or retransmissions to a path only while that path's flight size is below its cwnd (RFC 9260
 * section 6.1 rule B), and after a fast retransmit sends one packet regardless of cwnd (section
 * 7.2.4).
 *
 * <p>One controller serves one association: a {@link CongestionControllerFactory}, chosen by {@code
 * SctpOptions.Builder.congestionController}, makes one per
 * association, so per-association state may live in the controller. Per-path state can be kept by
 * {@link PathCongestionState#index()}.
 *
 * <p><b>Threading.</b> Every method is called by the stack's owner thread, the thread that drives
 * the {@code Endpoint} (with the {@code timers} module, its stack thread), synchronously inside an
 * endpoint call (packet input, timeout, send); never concurrently and never re-entrantly. A method
 * must return quickly, must not block and must not call back into the endpoint. It should not
 * allocate: {@link #onAck} runs for every SACK.
 *
 * <p>"MTU" in the rules below is {@link PathCongestionState#mtu()}.
 */
public interface CongestionController {

    /**
     * Sets the initial window of a path: when the association's data path starts (the handshake
     * completed, with the peer's a_rwnd from its INIT or INIT ACK), for each path known then, and
     * later for each path added. RFC 9260 section 7.2.1: cwnd = min(4 * MTU, max(2 * MTU, 4380)),
     * ssthresh = the peer's advertised receiver window, partial_bytes_acked = 0.
     *
     * @param peerRwnd the peer's advertised receiver window, bytes
     */
    void init(PathCongestionState p, long peerRwnd);

    /**
     * A SACK acknowledged {@code bytesNewlyAcked} (more than 0) bytes of user data last sent on
     * {@code p}, for the first time (by the cumulative ack or gap blocks). Called once per path per
     * SACK, after the flight size was reduced and before any fast retransmit triggered by the same
     * SACK (the cwnd growth comes first, RFC 9260 section 7.2.4). RFC 9260 sections 7.2.1 (slow
     * start) and 7.2.2 (congestion avoidance).
     *
     * @param cumAckAdvanced the SACK advanced the Cumulative TSN Ack Point; with CMT, the earliest
     *     chunk outstanding on {@code p} was acknowledged (its pseudo-cumulative ack advanced)
     * @param cwndFullyUsed before the SACK, the flight size on {@code p} was at least its cwnd
     * @param inFastRecovery the sender is in Fast Recovery (with CMT: {@code p} is)
     */
    void onAck(
            PathCongestionState p,
            long bytesNewlyAcked,
            boolean cumAckAdvanced,
            boolean cwndFullyUsed,
            boolean inFastRecovery);

    /**
     * Fast retransmit on entering Fast Recovery (RFC 9260 section 7.2.4 step 2): called once per
     * path that has chunks marked by the SACK being processed, when the sender (with CMT: that
     * path) was not in Fast Recovery yet. The standard rule is ssthresh = max(cwnd / 2, 4 * MTU),
     * cwnd = ssthresh, partial_bytes_acked = 0.
     */
    void onFastRetransmit(PathCongestionState p);

    /**
     * T3-rtx expired on {@code p} (RFC 9260 section 7.2.3, and 6.3.3 E1), before the RTO is
     * backed off and the outstanding chunks are marked for retransmission. The standard rule is
     * ssthresh = max(cwnd / 2, 4 * MTU), cwnd = 1 MTU.
     */
    void onT3Timeout(PathCongestionState p);

    /**
     * Nothing was sent on {@code p} for longer than its RTO and new data is about to go (RFC 9260
     * section 7.2.1, last paragraph): called just before the packet is filled. The standard rule is
     * cwnd = max(cwnd / 2, 4 * MTU).
     */
    void onIdle(PathCongestionState p);

    /**
     * The peer echoed a Congestion Experienced mark on data sent on {@code p} (an ECNE chunk, RFC
     * 9260 appendix A), and no reduction for an earlier mark covers it: the sender reacts as to a
     * loss found by fast retransmit, but retransmits nothing (nothing was lost). Called at most once
     * per window of data on {@code p} (the ECN procedure checks). The default applies {@link
     * #onFastRetransmit}'s rule: ssthresh = max(cwnd / 2, 4 * MTU), cwnd = ssthresh.
     */
    default void onEcnEcho(PathCongestionState p) {
        onFastRetransmit(p);
    }
}
