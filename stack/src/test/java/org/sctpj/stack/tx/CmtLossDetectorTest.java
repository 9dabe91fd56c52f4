package org.sctpj.stack.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sctpj.stack.path.Path;

/**
 * {@link CmtLossDetector} driven by hand on two destinations A (path 0: TSN 1000, 1002, 1004,
 * 1006) and B (path 1: 1001, 1003, 1005, 1007): split fast retransmit, CMT's delayed-ack miss
 * counting, Fast Recovery per destination and the pseudo-cumulative ack. Gap offsets are relative
 * to the cumulative ack 999 (offset k is TSN 999 + k).
 */
class CmtLossDetectorTest {

    private static TxHarness eightSent(boolean delayedAck) {
        TxHarness h = new TxHarness(TxHarness.cmt(delayedAck), 2);
        h.sendAlternating(8);
        return h;
    }

    @Test
    void onlyLaterChunksOfTheSameDestinationGiveMissIndications() {
        TxHarness h = eightSent(false); // 1000 on A is lost
        h.sack(999, 2, 2);
        h.sack(999, 2, 2, 4, 4);
        h.sack(999, 2, 2, 4, 4, 6, 6, 8, 8); // B's 1001, 1003, 1005, 1007
        assertEquals(0, h.chunk(1000).missCount, "acks of B say nothing about A");
        h.sack(999, 2, 4, 6, 6, 8, 8); // A's 1002
        assertEquals(1, h.chunk(1000).missCount);
        h.sack(999, 2, 6, 8, 8); // A's 1004
        assertEquals(2, h.chunk(1000).missCount);
        AckResult r = h.sack(999, 2, 8); // A's 1006
        assertTrue(h.chunk(1000).fast, "the third miss indication from A marks it");
        assertTrue(r.enteredFastRecovery());
        Path a = h.paths.get(0);
        Path b = h.paths.get(1);
        assertTrue(h.loss.inFastRecovery(a));
        assertFalse(h.loss.inFastRecovery(b), "Fast Recovery is per destination");
        assertTrue(h.loss.inFastRecovery(), "some destination is in Fast Recovery");
        assertEquals(1, h.cc.count("fast0"));
        assertEquals(0, h.cc.count("fast1"), "B's cwnd is not reduced");
    }

    @Test
    void withCmtDelayedAckTwoNewlyAckedLaterChunksOfTheDestinationCountTwice() {
        for (boolean dac : new boolean[] {false, true}) {
            TxHarness h = eightSent(dac);
            h.sack(999, 2, 2); // B's 1001 only
            h.sack(999, 2, 6); // A's 1002 and 1004 (and B's 1003, 1005) newly acked
            assertEquals(dac ? 2 : 1, h.chunk(1000).missCount, "delayed ack " + dac);
        }
    }

    @Test
    void aDestinationLeavesFastRecoveryOnceEverythingSentThereUpToItsPointIsAcked() {
        TxHarness h = eightSent(false);
        h.sack(999, 2, 3);
        h.sack(999, 2, 5);
        h.sack(999, 2, 7); // A in Fast Recovery, its point 1007
        Path a = h.paths.get(0);
        assertTrue(h.loss.inFastRecovery(a));
        h.sendAlternating(2); // 1008 on A, 1009 on B
        h.sack(999, 2, 7); // nothing new: 1000 is still unacknowledged
        assertTrue(h.loss.inFastRecovery(a));
        h.sack(1007); // everything A sent up to 1007 is acknowledged; 1008 is not, and is above the point
        assertFalse(h.loss.inFastRecovery(a));
        assertFalse(h.loss.inFastRecovery());
    }

    @Test
    void t3ExpiryLeavesPerDestinationFastRecoveryAsItWas() {
        TxHarness h = eightSent(false);
        h.sack(999, 2, 3);
        h.sack(999, 2, 5);
        h.sack(999, 2, 7);
        assertTrue(h.loss.inFastRecovery(h.paths.get(0)));
        h.loss.onT3Expired();
        assertTrue(h.loss.inFastRecovery(h.paths.get(0)));
    }

    @Test
    void slowStartCountsTheDestinationsPseudoCumulativeAck() {
        TxHarness h = eightSent(false);
        assertFalse(h.loss.skipsPlainSack(), "per-destination recovery may end on any SACK");
        h.sack(999, 2, 2); // B's earliest (1001) acked; A's earliest (1000) not; cum ack unmoved
        assertTrue(h.loss.ackAdvances(h.paths.get(1), false), "B's pseudo-cumulative ack advanced");
        assertFalse(h.loss.ackAdvances(h.paths.get(0), true), "A's did not, whatever the cumulative ack");
    }
}
