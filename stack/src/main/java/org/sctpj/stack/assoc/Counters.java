package org.sctpj.stack.assoc;

/**
 * The association's observability counters, both directions (snapshot: {@link
 * org.sctpj.stack.AssociationStats}): plain fields the data path increments without allocating.
 * Per-path counts live in {@link org.sctpj.stack.path.Path}. Owned by the association's {@link Tcb}.
 */
public final class Counters {
    /** Messages the user handed over and the association accepted. */
    public long messagesSent;
    /** Their user bytes. */
    public long bytesSent;
    /** New DATA or I-DATA chunks received (duplicates and chunks dropped for room excluded). */
    public long chunksReceived;
    /** Their user bytes. */
    public long bytesReceived;
    /** Received chunks that were duplicates (RFC 9260 section 6.2: reported in the next SACK). */
    public long duplicatesReceived;
    /** New chunks that arrived above a gap: with a lower TSN still missing (out of order or after a loss). */
    public long outOfOrderReceived;
    /** Messages delivered to the user whole (those delivered in parts, RFC 6458 partial delivery, are not counted). */
    public long messagesDelivered;
    /** SACKs sent (RFC 9260 section 6.2). */
    public long sacksSent;
    /** SACKs sent that reported at least one gap ack block. */
    public long gapSacksSent;
    /** SACKs received and handled (RFC 9260 section 6.2.1). */
    public long sacksReceived;
    /** SACKs received that reported at least one gap ack block. */
    public long gapSacksReceived;
    /** Duplicate TSNs the peer reported in its SACKs. */
    public long duplicatesReportedByPeer;
    /** T3-rtx expirations, all paths (RFC 9260 section 6.3.3). */
    public long t3Expirations;
    /** DATA chunks marked for fast retransmission (RFC 9260 section 7.2.4). */
    public long fastRetransmits;
    /** Times the sender entered Fast Recovery (RFC 9260 section 7.2.4). */
    public long fastRecoveries;

    /** For the endpoint's probe: the state last reported (null before any). */
    Association.State reportedState;
    /** For the endpoint's probe: {@link #fastRetransmits} when last reported. */
    long reportedFastRetransmits;

    Counters() {}
}
