package org.sctpj.stack.path;

/**
 * The retransmission timeout of one destination, RFC 9260 section 6.3.1, with the exponential
 * backoff of section 6.3.3 (E2). All values are nanoseconds.
 *
 * <ul>
 *   <li>before any measurement, RTO = RTO.Initial (C1);
 *   <li>first measurement R: SRTT = R, RTTVAR = R/2, RTO = SRTT + max(G, 4 * RTTVAR) (C2);
 *   <li>later measurements R': RTTVAR = (1 - 1/4) * RTTVAR + 1/4 * |SRTT - R'|, then SRTT = (1 -
 *       1/8) * SRTT + 1/8 * R', then RTO = SRTT + max(G, 4 * RTTVAR) (C3);
 *   <li>RTO is then clamped to [RTO.Min, RTO.Max] (C6, C7);
 *   <li>{@link #backoff()} doubles the RTO, capped at RTO.Max (E2).
 * </ul>
 *
 * <p>G, the clock granularity, defaults to 1 ms. Arithmetic is integer (truncating) in
 * nanoseconds, so the results are exact and repeatable.
 */
public final class RtoEstimator {

    /** The default clock granularity G: 1 ms. */
    public static final long DEFAULT_GRANULARITY_NANOS = 1_000_000L;

    private final long initialNanos;
    private final long minNanos;
    private final long maxNanos;
    private final long granularityNanos;
    private long srtt;
    private long rttvar;
    private long rto;
    private long lastRtt;
    private boolean hasSample;

    /**
     * An estimator with RTO.Initial, RTO.Min and RTO.Max and the default granularity of 1 ms.
     *
     * @throws IllegalArgumentException if a value is not positive or min exceeds max
     */
    public RtoEstimator(long initialNanos, long minNanos, long maxNanos) {
        this(initialNanos, minNanos, maxNanos, DEFAULT_GRANULARITY_NANOS);
    }

    /**
     * An estimator with an explicit clock granularity G.
     *
     * @throws IllegalArgumentException if a value is not positive or min exceeds max
     */
    public RtoEstimator(long initialNanos, long minNanos, long maxNanos, long granularityNanos) {
        if (initialNanos <= 0 || minNanos <= 0 || maxNanos <= 0 || granularityNanos < 0) {
            throw new IllegalArgumentException("RTO values must be positive (granularity non-negative), were initial="
                    + initialNanos + " min=" + minNanos + " max=" + maxNanos + " G=" + granularityNanos);
        }
        if (minNanos > maxNanos) {
            throw new IllegalArgumentException("RTO.Min " + minNanos + " exceeds RTO.Max " + maxNanos);
        }
        this.initialNanos = initialNanos;
        this.minNanos = minNanos;
        this.maxNanos = maxNanos;
        this.granularityNanos = granularityNanos;
        this.rto = initialNanos;
    }

    /**
     * Takes one round-trip measurement (rules C2/C3). The caller follows Karn's rule: only chunks
     * sent once are measured. Negative samples (clock misuse) are taken as zero.
     */
    public void sample(long rttNanos) {
        long r = Math.max(0, rttNanos);
        lastRtt = r;
        if (!hasSample) {
            srtt = r;
            rttvar = r / 2;
            hasSample = true;
        } else {
            long diff = Math.abs(srtt - r);
            rttvar = rttvar - rttvar / 4 + diff / 4;
            srtt = srtt - srtt / 8 + r / 8;
        }
        rto = clamp(srtt + Math.max(granularityNanos, 4 * rttvar));
    }

    private long clamp(long v) {
        return Math.max(minNanos, Math.min(maxNanos, v));
    }

    /** The current retransmission timeout. */
    public long rto() {
        return rto;
    }

    /** Doubles the RTO after a T3-rtx expiry, capped at RTO.Max (RFC 9260 section 6.3.3 E2). */
    public void backoff() {
        rto = rto >= maxNanos / 2 ? maxNanos : clamp(rto * 2);
    }

    /** Smoothed round-trip time; 0 before the first sample. */
    public long srtt() {
        return srtt;
    }

    /** The latest round-trip measurement, nanoseconds; 0 before the first sample. */
    public long lastRtt() {
        return lastRtt;
    }

    /** Round-trip time variation; 0 before the first sample. */
    public long rttvar() {
        return rttvar;
    }

    /** Whether at least one measurement was taken. */
    public boolean hasSample() {
        return hasSample;
    }

    /** RTO.Initial, the value before any measurement. */
    public long initial() {
        return initialNanos;
    }

    @Override
    public String toString() {
        return "RTO[rto=" + rto + " srtt=" + srtt + " rttvar=" + rttvar + "]";
    }
}
