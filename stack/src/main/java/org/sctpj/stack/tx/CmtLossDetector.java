package org.sctpj.stack.tx;

import java.util.List;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.cc.CongestionController;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.wire.Serial;

/**
 * Loss detection of Concurrent Multipath Transfer (Iyengar, Amer, Stewart, IEEE/ACM ToN 2006),
 * per destination, replacing the association-wide rules of RFC 9260 section 7.2.4:
 *
 * <ul>
 *   <li>split fast retransmit (SFR): a chunk gets a miss indication only when a later chunk sent
 *       to the same destination is newly acknowledged; with {@link SctpOptions#cmtDelayedAck()}
 *       two when two such chunks are (the receiver then acknowledges two packets per SACK);
 *   <li>at the third miss indication the chunk is marked for fast retransmit, and its
 *       destination, unless already in Fast Recovery, enters its own Fast Recovery (cwnd reduced
 *       once, by the congestion controller) until every chunk sent there up to the highest TSN
 *       sent at entry is acknowledged;
 *   <li>the cwnd update by pseudo-cumulative ack (CUC): a destination's slow start counts an
 *       acknowledgement as advancing when the earliest chunk outstanding on it was acknowledged,
 *       not only when the association's cumulative ack moves; with {@link
 *       SctpOptions#cmtRtxPseudoCumack()} (CUCv2, the default) two such points are kept per
 *       destination, the earliest chunk in flight there sent once and the earliest retransmission
 *       in flight there, and either acknowledged counts, so that a retransmission in flight on a
 *       destination (one more RTT away) does not stop its slow start while its new data is
 *       acknowledged;
 *   <li>T3-rtx expiry leaves per-destination Fast Recovery as it was: ending it too would change
 *       how much of a shared bottleneck CMT takes (the coupled controller couples congestion
 *       avoidance, not the slow start that follows), which is a question of its own.
 * </ul>
 */
final class CmtLossDetector implements LossDetector {

    private final RetransmissionQueue queue;
    private final CongestionController cc;
    private final boolean delayedAck;
    /** CUCv2: a pseudo-cumack for chunks sent once and one for retransmissions. */
    private final boolean rtxPseudoCumack;
    /** Bit i: destination i is in Fast Recovery. */
    private long recoveryMask;

    private final int[] recoveryPoints = new int[RetransmissionQueue.MAX_PATHS];
    private boolean inFastRecovery;

    CmtLossDetector(RetransmissionQueue queue, CongestionController cc, SctpOptions o) {
        this.queue = queue;
        this.cc = cc;
        this.delayedAck = o.cmtDelayedAck();
        this.rtxPseudoCumack = o.cmtRtxPseudoCumack();
    }

    @Override
    public boolean skipsPlainSack() {
        return false; // per-destination Fast Recovery may end on any SACK
    }

    @Override
    public void onCumulativeAck(int cumAck) {}

    @Override
    public boolean ackAdvances(Path p, boolean cumAckAdvanced) {
        return rtxPseudoCumack ? queue.pseudoCumackAdvanced(p.index()) : queue.earliestAcked(p.index());
    }

    @Override
    public boolean inFastRecovery(Path p) {
        return (recoveryMask & (1L << p.index())) != 0;
    }

    @Override
    public boolean inFastRecovery() {
        return inFastRecovery;
    }

    @Override
    public void detect(List<Path> paths, AckResult r, boolean cumAckAdvanced) {
        RetransmissionQueue q = queue;
        long fastPaths = 0;
        for (int i = 0; i < q.size(); i++) {
            SentChunk c = q.get(i);
            if (c.acked || c.marked || c.abandoned) {
                continue;
            }
            int pi = c.path.index();
            long bit = 1L << pi;
            if (q.hasPathHtna(pi) && Serial.lt(c.tsn, q.pathHtna(pi))) {
                boolean two = delayedAck && q.hasSecondPathHtna(pi) && Serial.lt(c.tsn, q.secondPathHtna(pi));
                c.missCount += two ? 2 : 1;
                if (c.missCount >= 3 && !c.fastDone) {
                    q.markFast(c);
                    fastPaths |= bit;
                    r.fastRetransmitsMarked++;
                    continue;
                }
            }
            q.countPending(pi);
        }
        // Leave per-destination Fast Recovery once nothing sent there up to its point is unacked.
        long stillRecovering = 0;
        for (int i = 0; i < q.size() && recoveryMask != 0; i++) {
            SentChunk c = q.get(i);
            if (c.abandoned) {
                continue; // no longer outstanding (an abandoned end has no path)
            }
            int pi = c.path.index();
            long bit = 1L << pi;
            if (!c.acked && (recoveryMask & bit) != 0 && Serial.le(c.tsn, recoveryPoints[pi])) {
                stillRecovering |= bit;
            }
        }
        recoveryMask &= stillRecovering;
        for (int pi0 = 0; pi0 < paths.size(); pi0++) {
            Path p = paths.get(pi0);
            long bit = 1L << p.index();
            if ((fastPaths & bit) != 0 && (recoveryMask & bit) == 0) {
                recoveryMask |= bit;
                recoveryPoints[p.index()] = q.nextTsn() - 1;
                r.enteredFastRecovery = true;
                cc.onFastRetransmit(p);
            }
        }
        inFastRecovery = recoveryMask != 0;
    }

    @Override
    public void onT3Expired() {}

    @Override
    public void reset() {
        recoveryMask = 0;
    }
}
