package org.sctpj.stack.cc;

/**
 * The standard SCTP congestion control of RFC 9260 section 7.2:
 *
 * <ul>
 *   <li>initial cwnd = min(4 * MTU, max(2 * MTU, 4380)), ssthresh = peer's a_rwnd (7.2.1);
 *   <li>slow start (cwnd &lt;= ssthresh): when the window was fully used, the SACK advanced the
 *       cumulative ack and the sender is not in Fast Recovery, cwnd grows by the lesser of the
 *       bytes newly acknowledged and one MTU (7.2.1, L = 1);
 *   <li>congestion avoidance (cwnd &gt; ssthresh): partial_bytes_acked accumulates the bytes newly
 *       acknowledged; when it reaches cwnd with the window fully used, it drops by cwnd and cwnd
 *       grows by one MTU; when it exceeds cwnd with the window not fully used, it is reset to cwnd
 *       (7.2.2); it returns to 0 when the path has nothing in flight;
 *   <li>fast retransmit: ssthresh = max(cwnd / 2, 4 * MTU), cwnd = ssthresh (7.2.4);
 *   <li>T3-rtx expiry: ssthresh = max(cwnd / 2, 4 * MTU), cwnd = 1 MTU (7.2.3);
 *   <li>idle for an RTO: cwnd = max(cwnd / 2, 4 * MTU) (7.2.1).
 * </ul>
 *
 * <p>Stateless: one instance may serve any number of paths and associations. Called on the
 * stack's owner thread only (see {@link CongestionController}).
 */
public final class Rfc9260CongestionController implements CongestionController {

    /** The controller; it is stateless, one instance may serve any number of paths. */
    public Rfc9260CongestionController() {}

    @Override
    public void init(PathCongestionState p, long peerRwnd) {
        long mtu = p.mtu();
        p.setCwnd(Math.min(4 * mtu, Math.max(2 * mtu, 4380)));
        p.setSsthresh(peerRwnd);
        p.setPartialBytesAcked(0);
    }

    @Override
    public void onAck(
            PathCongestionState p,
            long bytesNewlyAcked,
            boolean cumAckAdvanced,
            boolean cwndFullyUsed,
            boolean inFastRecovery) {
        long mtu = p.mtu();
        long cwnd = p.cwnd();
        if (cwnd <= p.ssthresh()) {
            if (cwndFullyUsed && cumAckAdvanced && !inFastRecovery && bytesNewlyAcked > 0) {
                p.setCwnd(cwnd + Math.min(bytesNewlyAcked, mtu));
            }
        } else {
            congestionAvoidance(p, bytesNewlyAcked, cwndFullyUsed, cwnd);
        }
        if (p.flightSize() == 0) {
            p.setPartialBytesAcked(0);
        }
    }

    /**
     * The congestion-avoidance step of RFC 9260 section 7.2.2: partial_bytes_acked grows by the
     * bytes newly acknowledged; once it reaches {@code threshold} (cwnd for this controller, the
     * coupled threshold of RFC 6356 for {@link LinkedIncreasesCongestionController}) while cwnd was
     * fully used, cwnd grows by one MTU and the threshold is taken off; otherwise it is capped at
     * the threshold.
     */
    static void congestionAvoidance(
            PathCongestionState p, long bytesNewlyAcked, boolean cwndFullyUsed, long threshold) {
        long pba = p.partialBytesAcked() + Math.max(0, bytesNewlyAcked);
        if (pba >= threshold && cwndFullyUsed) {
            pba -= threshold;
            p.setCwnd(p.cwnd() + p.mtu());
        } else if (pba > threshold) {
            pba = threshold;
        }
        p.setPartialBytesAcked(pba);
    }

    @Override
    public void onFastRetransmit(PathCongestionState p) {
        long mtu = p.mtu();
        p.setSsthresh(Math.max(p.cwnd() / 2, 4 * mtu));
        p.setCwnd(p.ssthresh());
        p.setPartialBytesAcked(0);
    }

    @Override
    public void onT3Timeout(PathCongestionState p) {
        long mtu = p.mtu();
        p.setSsthresh(Math.max(p.cwnd() / 2, 4 * mtu));
        p.setCwnd(mtu);
        p.setPartialBytesAcked(0);
    }

    @Override
    public void onIdle(PathCongestionState p) {
        p.setCwnd(Math.max(p.cwnd() / 2, 4L * p.mtu()));
    }
}
