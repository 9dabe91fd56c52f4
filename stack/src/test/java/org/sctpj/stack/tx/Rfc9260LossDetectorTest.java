package org.sctpj.stack.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link Rfc9260LossDetector} driven by hand (RFC 9260 section 7.2.4): miss indications by the
 * HTNA rule counting to three, one fast retransmit per chunk, one Fast Recovery per association
 * with a single cwnd reduction, its end at the recovery point, and its end on T3-rtx expiry.
 * Chunks 1000.. on one path; gap offsets are relative to the cumulative ack (offset k from 999 is
 * TSN 999 + k).
 */
class Rfc9260LossDetectorTest {

    private static TxHarness sixSent() {
        TxHarness h = new TxHarness(TxHarness.single(), 1);
        h.sendAlternating(6); // TSN 1000..1005
        return h;
    }

    @Test
    void theThirdMissIndicationMarksAFastRetransmitAndEntersFastRecoveryOnce() {
        TxHarness h = sixSent(); // 1000 is lost
        h.sack(999, 2, 2);
        assertEquals(1, h.chunk(1000).missCount);
        h.sack(999, 2, 3);
        assertEquals(2, h.chunk(1000).missCount);
        assertFalse(h.chunk(1000).marked, "two miss indications are not enough");
        assertFalse(h.loss.inFastRecovery());

        AckResult r = h.sack(999, 2, 4);
        assertEquals(3, h.chunk(1000).missCount);
        assertTrue(h.chunk(1000).marked && h.chunk(1000).fast, "marked for fast retransmit at the third");
        assertEquals(1, r.fastRetransmitsMarked());
        assertTrue(r.enteredFastRecovery());
        assertTrue(h.loss.inFastRecovery());
        assertTrue(h.loss.inFastRecovery(h.paths.get(0)), "one Fast Recovery for every path");
        assertEquals(1, h.q.fastPending());
        assertEquals(1, h.cc.count("fast0"), "cwnd reduced once");
        assertEquals(2 * TxHarness.LEN, h.paths.get(0).flightSize(), "1001..1003 acked, 1000 marked: 1004, 1005");
    }

    @Test
    void onlyANewlyAcknowledgedHigherTsnGivesAMissIndication() {
        TxHarness h = sixSent();
        h.sack(999, 2, 2); // 1001 newly acked: 1000 below it gets one, 1002.. above get none
        assertEquals(1, h.chunk(1000).missCount);
        assertEquals(0, h.chunk(1002).missCount);
        h.sack(999, 2, 2); // the same SACK again: nothing newly acknowledged, no miss indication
        assertEquals(1, h.chunk(1000).missCount);
        h.sack(999, 2, 2, 4, 4); // 1003 newly acked: 1000 and 1002 below it
        assertEquals(2, h.chunk(1000).missCount);
        assertEquals(1, h.chunk(1002).missCount);
    }

    @Test
    void fastRecoveryLastsUntilTheCumulativeAckReachesTheRecoveryPointWithoutASecondReduction() {
        TxHarness h = sixSent();
        h.sack(999, 2, 2);
        h.sack(999, 2, 3);
        h.sack(999, 2, 4); // Fast Recovery, recovery point 1005 (the highest TSN sent)
        h.sendAlternating(4); // 1006..1009
        h.sack(1004); // 1000 (as if resent) .. 1004 acked; 1005 is lost
        assertTrue(h.loss.inFastRecovery(), "1004 is below the recovery point 1005");
        h.sack(1004, 2, 2);
        h.sack(1004, 2, 3);
        AckResult r = h.sack(1004, 2, 4);
        assertTrue(h.chunk(1005).fast, "1005 is marked for fast retransmit");
        assertFalse(r.enteredFastRecovery(), "already in Fast Recovery");
        assertEquals(1, h.cc.count("fast0"), "no second cwnd reduction in the same Fast Recovery");
        h.sack(1005, 1, 3);
        assertFalse(h.loss.inFastRecovery(), "the cumulative ack reached the recovery point");
    }

    @Test
    void t3ExpiryEndsFastRecovery() {
        TxHarness h = sixSent();
        h.sack(999, 2, 2);
        h.sack(999, 2, 3);
        h.sack(999, 2, 4);
        assertTrue(h.loss.inFastRecovery());
        h.loss.onT3Expired();
        assertFalse(h.loss.inFastRecovery(), "slow start from one MTU needs Fast Recovery ended (7.2.1, 7.2.3)");
    }

    @Test
    void slowStartCountsTheAssociationsCumulativeAck() {
        TxHarness h = sixSent();
        assertTrue(h.loss.skipsPlainSack());
        assertTrue(h.loss.ackAdvances(h.paths.get(0), true));
        assertFalse(h.loss.ackAdvances(h.paths.get(0), false));
    }
}
