package org.sctpj.stack.cc;

/**
 * What a {@link CongestionController} sees of one destination (path) of an association: the
 * variables of RFC 9260 section 7.2 and the measurements they depend on.
 *
 * <p>Everything here is read-only for the controller except the three congestion variables it
 * owns: cwnd, ssthresh and partial_bytes_acked, which only the controller changes (the stack reads
 * them to decide how much may be in flight). The flight size is kept by the data sender, the MTU by
 * the association, the round-trip measurements by the RTO estimator of RFC 9260 section 6.3.1.
 *
 * <p>Instances belong to the association; a controller may keep a reference for as long as the
 * association lives, and must use it only on the stack's owner thread (see {@link
 * CongestionController}).
 */
public interface PathCongestionState {

    /** The position of this path in its association (0..63), stable for the association's life. */
    int index();

    /** The path MTU in bytes of IP packet: the "MTU" of the arithmetic of RFC 9260 section 7.2. */
    int mtu();

    /** Congestion window, bytes (RFC 9260 section 7.2). */
    long cwnd();

    /** Sets the congestion window, bytes; the stack sends while the flight size is below it. */
    void setCwnd(long bytes);

    /** Slow-start threshold, bytes (RFC 9260 section 7.2). */
    long ssthresh();

    /** Sets the slow-start threshold, bytes. */
    void setSsthresh(long bytes);

    /** partial_bytes_acked of congestion avoidance (RFC 9260 section 7.2.2). */
    long partialBytesAcked();

    /** Sets partial_bytes_acked. */
    void setPartialBytesAcked(long bytes);

    /**
     * Bytes of user data sent to this path and neither acknowledged nor marked for retransmission
     * (the flight size of RFC 9260 section 6.1).
     */
    long flightSize();

    /** Whether the path is active (reachable, RFC 9260 section 8.2), as opposed to failed or unconfirmed. */
    boolean isActive();

    /** Whether a round-trip time has been measured on this path (RFC 9260 section 6.3.1 C2). */
    boolean hasRttSample();

    /** The smoothed round-trip time SRTT in nanoseconds; meaningful once {@link #hasRttSample()}. */
    long srttNanos();

    /** The current retransmission timeout RTO in nanoseconds (RFC 9260 section 6.3.1). */
    long rtoNanos();
}
