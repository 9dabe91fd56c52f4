package org.sctpj.stack.cc;

import java.util.List;
import java.util.Objects;

/**
 * A coupled congestion controller for CMT: the "linked increases" algorithm of RFC 6356 (MPTCP's
 * LIA), adapted to SCTP's byte counting, so that an association striping over several paths takes
 * no more of a shared bottleneck than a single-path flow would, and moves its traffic away from
 * congested paths (resource pooling).
 *
 * <p>Slow start, fast retransmit, T3-rtx and idle decay are those of RFC 9260 section 7.2 on each
 * destination ({@link Rfc9260CongestionController}). Congestion avoidance is coupled: over the
 * active destinations (index i, cwnd_i, smoothed RTT rtt_i, total cwnd_total),
 *
 * <pre>
 *   alpha = cwnd_total * max_i(cwnd_i / rtt_i^2) / (sum_i cwnd_i / rtt_i)^2
 * </pre>
 *
 * and for each byte acknowledged on destination i, cwnd_i grows by MTU * min(alpha / cwnd_total,
 * 1 / cwnd_i) bytes (RFC 6356 section 3, with MSS = MTU and per-byte instead of per-ACK counting).
 * With partial_bytes_acked this is: when partial_bytes_acked reaches T_i = max(cwnd_i, cwnd_total /
 * alpha) while the window was fully used, cwnd_i grows by one MTU and partial_bytes_acked drops by
 * T_i. With one destination alpha = 1 and T_i = cwnd_i: exactly RFC 9260.
 *
 * <p>The controller reads the association's live path list; destinations that are not {@link
 * PathCongestionState#isActive() active} take no part in the sums (but an acknowledged one still
 * grows by its own rule). One controller per association (its factory is {@link
 * CongestionControllerFactory#LINKED_INCREASES}); called on the stack's owner thread only (see
 * {@link CongestionController}).
 */
public final class LinkedIncreasesCongestionController implements CongestionController {

    private final List<? extends PathCongestionState> paths;
    private final Rfc9260CongestionController base = new Rfc9260CongestionController();

    /**
     * A controller coupling the destinations of {@code paths}, which it reads on every
     * acknowledgement (pass the association's own list, not a copy).
     */
    public LinkedIncreasesCongestionController(List<? extends PathCongestionState> paths) {
        this.paths = Objects.requireNonNull(paths, "paths: pass the association's path list");
    }

    @Override
    public void init(PathCongestionState p, long peerRwnd) {
        base.init(p, peerRwnd);
    }

    @Override
    public void onAck(
            PathCongestionState p,
            long bytesNewlyAcked,
            boolean cumAckAdvanced,
            boolean cwndFullyUsed,
            boolean inFastRecovery) {
        if (p.cwnd() <= p.ssthresh()) {
            base.onAck(p, bytesNewlyAcked, cumAckAdvanced, cwndFullyUsed, inFastRecovery);
            return;
        }
        Rfc9260CongestionController.congestionAvoidance(p, bytesNewlyAcked, cwndFullyUsed, increaseThreshold(p));
        if (p.flightSize() == 0) {
            p.setPartialBytesAcked(0);
        }
    }

    /**
     * T_i = max(cwnd_i, cwnd_total / alpha): the bytes to acknowledge on {@code p} for one MTU of
     * growth. Public for tests and statistics.
     */
    public long increaseThreshold(PathCongestionState p) {
        double total = 0;
        double bestRatio = 0;
        double sumRate = 0;
        boolean selfCounted = false;
        for (int k = 0; k < paths.size(); k++) {
            PathCongestionState q = paths.get(k);
            if (!q.isActive() && q != p) {
                continue;
            }
            selfCounted |= q == p;
            double c = q.cwnd();
            double rtt = rttSeconds(q);
            total += c;
            bestRatio = Math.max(bestRatio, c / (rtt * rtt));
            sumRate += c / rtt;
        }
        if (!selfCounted || sumRate <= 0 || bestRatio <= 0) {
            return p.cwnd();
        }
        double alpha = total * bestRatio / (sumRate * sumRate);
        double t = total / alpha;
        return Math.max(p.cwnd(), t >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) Math.ceil(t));
    }

    private static double rttSeconds(PathCongestionState q) {
        long nanos = q.hasRttSample() ? q.srttNanos() : q.rtoNanos();
        return Math.max(nanos, 1_000L) / 1e9;
    }

    @Override
    public void onFastRetransmit(PathCongestionState p) {
        base.onFastRetransmit(p);
    }

    @Override
    public void onT3Timeout(PathCongestionState p) {
        base.onT3Timeout(p);
    }

    @Override
    public void onIdle(PathCongestionState p) {
        base.onIdle(p);
    }
}
