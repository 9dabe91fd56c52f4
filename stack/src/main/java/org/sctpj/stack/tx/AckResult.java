package org.sctpj.stack.tx;

/**
 * What one SACK did, returned by {@link DataSender#onSack}: the association uses it to clear error
 * counters (RFC 9260 section 8.1 and 8.2) and to decide what to do next. One instance is reused
 * by each sender: read it before the next call.
 */
public final class AckResult {
    boolean ignored;
    boolean protocolViolation;
    boolean cumAckAdvanced;
    long bytesNewlyAcked;
    long newlyAckedPathMask;
    boolean enteredFastRecovery;
    int fastRetransmitsMarked;

    AckResult() {}

    void clear() {
        ignored = false;
        protocolViolation = false;
        cumAckAdvanced = false;
        bytesNewlyAcked = 0;
        newlyAckedPathMask = 0;
        enteredFastRecovery = false;
        fastRetransmitsMarked = 0;
    }

    /** The SACK was stale (its cumulative ack older than the current one) and was dropped. */
    public boolean ignored() {
        return ignored;
    }

    /**
     * The SACK acknowledged a TSN never sent; it was dropped. RFC 9260 section 6.2.1 lets the
     * association ABORT with a Protocol Violation cause.
     */
    public boolean protocolViolation() {
        return protocolViolation;
    }

    /** The Cumulative TSN Ack Point moved forward. */
    public boolean cumAckAdvanced() {
        return cumAckAdvanced;
    }

    /** User data bytes acknowledged for the first time (cumulative ack and gap blocks). */
    public long bytesNewlyAcked() {
        return bytesNewlyAcked;
    }

    /** Whether any chunk was acknowledged for the first time. */
    public boolean anyNewlyAcked() {
        return newlyAckedPathMask != 0;
    }

    /** Bit {@code i} set when a chunk last sent on the path of index {@code i} was newly acked. */
    public long newlyAckedPathMask() {
        return newlyAckedPathMask;
    }

    /** Whether a chunk last sent on path {@code index} was newly acknowledged. */
    public boolean newlyAckedOn(int index) {
        return (newlyAckedPathMask & (1L << index)) != 0;
    }

    /** The SACK started Fast Recovery. */
    public boolean enteredFastRecovery() {
        return enteredFastRecovery;
    }

    /** Chunks marked for fast retransmission by this SACK. */
    public int fastRetransmitsMarked() {
        return fastRetransmitsMarked;
    }

    @Override
    public String toString() {
        return "AckResult[ignored=" + ignored + " violation=" + protocolViolation + " cumAdvanced=" + cumAckAdvanced
                + " newlyAcked=" + bytesNewlyAcked + " mask=" + Long.toBinaryString(newlyAckedPathMask)
                + " fastRecovery=" + enteredFastRecovery + " fastMarked=" + fastRetransmitsMarked + "]";
    }
}
