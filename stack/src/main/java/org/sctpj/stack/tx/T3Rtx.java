package org.sctpj.stack.tx;

import java.util.List;
import org.sctpj.stack.cc.CongestionController;
import org.sctpj.stack.path.Path;

/**
 * The retransmission timer T3-rtx of each destination (RFC 9260 section 6.3.2 rules R1 to R3 and
 * the expiry of section 6.3.3). The deadline itself lives in the {@link Path}; this class decides
 * when it starts, stops and restarts, and what an expiry does to the outstanding chunks.
 */
final class T3Rtx {

    private final RetransmissionQueue queue;
    private final LossDetector loss;
    private final CongestionController cc;

    T3Rtx(RetransmissionQueue queue, LossDetector loss, CongestionController cc) {
        this.queue = queue;
        this.loss = loss;
        this.cc = cc;
    }

    /** R1: a packet with DATA went to {@code p}; the timer starts if it is not running. */
    void onDataSent(Path p, long now) {
        p.startT3(now);
    }

    /**
     * After a SACK: R2, a path with nothing outstanding stops its timer; R3, a path whose earliest
     * outstanding chunk was acknowledged restarts it with the current RTO.
     */
    void afterSack(List<Path> paths, long now) {
        for (int pi0 = 0; pi0 < paths.size(); pi0++) {
            Path p = paths.get(pi0);
            int i = p.index();
            if (!queue.pendingOn(i)) {
                p.stopT3();
            } else if (queue.earliestAcked(i)) {
                p.restartT3(now);
            }
        }
    }

    /**
     * Whether the expiry about to be handled times out a zero window probe that the peer has been
     * answering with SACKs (RFC 9260 section 6.1 rule A): see {@link
     * DataSender#answeredProbeTimesOut()}.
     */
    boolean answeredProbeTimesOut() {
        return queue.answeredProbeTimesOut();
    }

    /**
     * T3-rtx of {@code p} expired (RFC 9260 section 6.3.3): the controller reduces cwnd (E1), the
     * RTO backs off (E2), the loss detector hears of it, and every chunk outstanding on p is marked
     * for retransmission (E3), to go wherever the association sends next; the timer is stopped and
     * restarts when data is sent. Counting the error is the association's job.
     */
    void onExpired(Path p, long now) {
        queue.probeTimedOut();
        cc.onT3Timeout(p);
        p.rto().backoff();
        loss.onT3Expired();
        moveOutstanding(p);
    }

    /** Marks every chunk outstanding on {@code p} for retransmission and stops its timer. */
    void moveOutstanding(Path p) {
        for (int i = 0; i < queue.size(); i++) {
            SentChunk c = queue.get(i);
            if (c.path == p && !c.acked && !c.marked && !c.abandoned) {
                queue.mark(c);
            }
        }
        p.stopT3();
    }
}
