package org.sctpj.stack.path;

/**
 * The reachability state of one destination transport address (RFC 9260 sections 5.4 and 8.2, and
 * the Potentially Failed state of RFC 7829 section 5.1).
 */
public enum PathStatus {
    /** Not yet confirmed by a HEARTBEAT-ACK or by data acknowledged after being sent there. */
    UNCONFIRMED,
    /** Confirmed and reachable: data may be sent there. */
    ACTIVE,
    /**
     * SCTP-PF (RFC 7829): more than PFMR and at most Path.Max.Retrans consecutive errors. No new data
     * goes there while another destination is active; a HEARTBEAT probes it once per RTO; an
     * acknowledgement (of data or heartbeat) makes it active again.
     */
    POTENTIALLY_FAILED,
    /** Path.Max.Retrans consecutive errors: no new data is sent there until it recovers. */
    INACTIVE
}
