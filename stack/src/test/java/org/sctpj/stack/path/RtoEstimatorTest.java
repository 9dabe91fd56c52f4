package org.sctpj.stack.path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RtoEstimatorTest {
    private static final long MS = 1_000_000L;

    @Test
    void followsTheRfc9260Formulas() {
        RtoEstimator e = new RtoEstimator(3000 * MS, 10 * MS, 60_000 * MS);
        assertEquals(3000 * MS, e.rto());
        assertFalse(e.hasSample());
        e.sample(100 * MS); // C2: SRTT 100, RTTVAR 50, RTO 100 + 200
        assertTrue(e.hasSample());
        assertEquals(100 * MS, e.srtt());
        assertEquals(50 * MS, e.rttvar());
        assertEquals(300 * MS, e.rto());
        e.sample(200 * MS); // C3: RTTVAR 3/4*50 + 1/4*100 = 62.5, SRTT 7/8*100 + 1/8*200 = 112.5
        assertEquals(62_500_000L, e.rttvar());
        assertEquals(112_500_000L, e.srtt());
        assertEquals(112_500_000L + 250 * MS, e.rto());
        e.sample(112_500_000L); // RTTVAR 3/4 * 62.5 = 46.875, SRTT unchanged
        assertEquals(46_875_000L, e.rttvar());
        assertEquals(112_500_000L, e.srtt());
        assertEquals(112_500_000L + 187_500_000L, e.rto());
    }

    @Test
    void clockGranularityFloorsTheVarianceTerm() {
        RtoEstimator e = new RtoEstimator(1000 * MS, MS, 60_000 * MS, 5 * MS);
        e.sample(2 * MS); // RTTVAR 1 ms: 4 * RTTVAR = 4 ms < G = 5 ms
        assertEquals(7 * MS, e.rto());
        RtoEstimator d = new RtoEstimator(1000 * MS, 1, 60_000 * MS);
        for (int i = 0; i < 100; i++) {
            d.sample(40_000); // 40 us: variance vanishes, G = 1 ms dominates
        }
        assertEquals(40_000 + MS, d.rto());
    }

    @Test
    void isClampedToMinAndMax() {
        RtoEstimator e = new RtoEstimator(1000 * MS, 1000 * MS, 60_000 * MS);
        e.sample(10 * MS);
        assertEquals(1000 * MS, e.rto(), "RTO.Min");
        e.sample(100_000 * MS);
        assertEquals(60_000 * MS, e.rto(), "RTO.Max");
    }

    @Test
    void backoffDoublesUpToMax() {
        RtoEstimator e = new RtoEstimator(1000 * MS, 1000 * MS, 5000 * MS);
        e.backoff();
        assertEquals(2000 * MS, e.rto());
        e.backoff();
        assertEquals(4000 * MS, e.rto());
        e.backoff();
        assertEquals(5000 * MS, e.rto());
        e.backoff();
        assertEquals(5000 * MS, e.rto());
        e.sample(1200 * MS);
        assertEquals(1200 * MS + 2400 * MS, e.rto(), "a new sample recomputes from SRTT");
    }

    @Test
    void rejectsNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new RtoEstimator(0, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> new RtoEstimator(1, 3, 2));
    }
}
