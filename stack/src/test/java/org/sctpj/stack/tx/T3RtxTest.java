package org.sctpj.stack.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sctpj.stack.path.Path;

/**
 * {@link T3Rtx}: the expiry of RFC 9260 section 6.3.3 (E1 cwnd to one MTU through the controller,
 * E2 RTO backed off, E3 the expired path's chunks marked, and only those) and rules R1 to R3 of
 * section 6.3.2.
 */
class T3RtxTest {
    private final TxHarness h = new TxHarness(TxHarness.single(), 2);
    private final T3Rtx t3 = new T3Rtx(h.q, h.loss, h.cc);
    private final Path a = h.paths.get(0);
    private final Path b = h.paths.get(1);

    T3RtxTest() {
        h.sendAlternating(4); // 1000, 1002 on A; 1001, 1003 on B
    }

    @Test
    void anExpiryReducesCwndBacksOffAndMarksOnlyTheExpiredPathsChunks() {
        t3.onDataSent(a, 0);
        long rto = a.rto().rto();

        t3.onExpired(a, 5);
        assertEquals(1, h.cc.count("t3-0"));
        assertEquals(a.mtu(), a.cwnd(), "E1: cwnd is one MTU");
        assertEquals(2 * rto, a.rto().rto(), "E2: the RTO doubles");
        assertTrue(h.chunk(1000).marked && h.chunk(1002).marked, "E3");
        assertFalse(h.chunk(1001).marked || h.chunk(1003).marked, "B's chunks are not A's timeout");
        assertEquals(0, a.flightSize());
        assertEquals(2 * TxHarness.LEN, b.flightSize());
        assertFalse(a.t3Running(), "restarts when data is sent again");
    }

    @Test
    void aSackStopsTheTimerOfAPathWithNothingOutstandingAndRestartsItWhenTheEarliestIsAcked() {
        t3.onDataSent(a, 0);
        t3.onDataSent(b, 0);
        t3.onDataSent(a, 7); // R1: already running, not restarted
        assertEquals(a.rto().rto(), a.t3Deadline());

        h.sack(999, 2, 2, 4, 4); // B's 1001 and 1003: nothing left on B; A's earliest not acked
        t3.afterSack(h.paths, 100);
        assertFalse(b.t3Running(), "R2");
        assertEquals(a.rto().rto(), a.t3Deadline(), "A's earliest is outstanding: unchanged");

        h.sack(1000, 1, 1, 3, 3); // A's earliest 1000 acked, 1002 still outstanding
        t3.afterSack(h.paths, 200);
        assertEquals(200 + a.rto().rto(), a.t3Deadline(), "R3: restarted with the current RTO");
    }
}
