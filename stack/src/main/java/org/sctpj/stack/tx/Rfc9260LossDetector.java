package org.sctpj.stack.tx;

import java.util.List;
import org.sctpj.stack.cc.CongestionController;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.wire.Serial;

/**
 * Loss detection of RFC 9260 section 7.2.4, one Fast Recovery per association:
 *
 * <ul>
 *   <li>a SACK that newly acknowledges chunks gives a miss indication to each chunk outstanding
 *       below the highest TSN newly acknowledged (the HTNA rule); in Fast Recovery, a SACK that
 *       advances the cumulative ack gives one to each chunk below the highest TSN it reports;
 *   <li>at the third miss indication a chunk is marked for fast retransmit (once in its life);
 *   <li>the first such marking enters Fast Recovery until the cumulative ack reaches the highest
 *       TSN sent at that moment, and the congestion controller reduces the cwnd of each path that
 *       had a chunk marked (step 2), once;
 *   <li>T3-rtx expiry ends Fast Recovery: afterwards the sender slow-starts from one MTU (section
 *       7.2.3), which it may only do outside Fast Recovery (section 7.2.1). Staying in it until the
 *       old recovery point is acknowledged would hold cwnd at one MTU while every chunk marked by
 *       the timeout is resent one or two per round trip (the stall of a 1 MiB transfer against
 *       usrsctp: 616 chunks at one per delayed SACK). Linux does the same.
 * </ul>
 */
final class Rfc9260LossDetector implements LossDetector {

    private final RetransmissionQueue queue;
    private final CongestionController cc;
    private boolean inFastRecovery;
    private int recoveryPoint;

    Rfc9260LossDetector(RetransmissionQueue queue, CongestionController cc) {
        this.queue = queue;
        this.cc = cc;
    }

    @Override
    public boolean skipsPlainSack() {
        return true;
    }

    @Override
    public void onCumulativeAck(int cumAck) {
        if (inFastRecovery && Serial.ge(cumAck, recoveryPoint)) {
            inFastRecovery = false;
        }
    }

    @Override
    public boolean ackAdvances(Path p, boolean cumAckAdvanced) {
        return cumAckAdvanced;
    }

    @Override
    public boolean inFastRecovery(Path p) {
        return inFastRecovery;
    }

    @Override
    public boolean inFastRecovery() {
        return inFastRecovery;
    }

    @Override
    public void detect(List<Path> paths, AckResult r, boolean cumAckAdvanced) {
        RetransmissionQueue q = queue;
        boolean allReported = inFastRecovery && cumAckAdvanced;
        int missLimit = allReported ? q.highestReported() : q.htna();
        boolean countMisses = allReported || q.anyHtna();
        long fastPaths = 0;
        for (int i = 0; i < q.size(); i++) {
            SentChunk c = q.get(i);
            if (c.acked || c.marked || c.abandoned) {
                continue;
            }
            if (countMisses && Serial.lt(c.tsn, missLimit)) {
                c.missCount++;
                if (c.missCount >= 3 && !c.fastDone) {
                    q.markFast(c);
                    fastPaths |= 1L << c.path.index();
                    r.fastRetransmitsMarked++;
                    continue;
                }
            }
            q.countPending(c.path.index());
        }
        if (fastPaths != 0 && !inFastRecovery) {
            inFastRecovery = true;
            recoveryPoint = q.nextTsn() - 1;
            r.enteredFastRecovery = true;
            for (int pi0 = 0; pi0 < paths.size(); pi0++) {
                Path p = paths.get(pi0);
                if ((fastPaths & (1L << p.index())) != 0) {
                    cc.onFastRetransmit(p);
                }
            }
        }
    }

    @Override
    public void onT3Expired() {
        inFastRecovery = false;
    }

    @Override
    public void reset() {
        // Fast Recovery ends with the next cumulative ack past the recovery point, as before.
    }
}
