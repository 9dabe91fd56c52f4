package org.sctpj.stack.path;

/**
 * The reachability state of one destination transport address (RFC 9260 sections 5.4 and 8.2).
 * The Potentially Failed state of RFC 7829 will be added later.
 */
public enum PathStatus {
    /** Not yet confirmed by a HEARTBEAT-ACK or by data acknowledged after being sent there. */
    UNCONFIRMED,
    /** Confirmed and reachable: data may be sent there. */
    ACTIVE,
    /** Path.Max.Retrans consecutive errors: no new data is sent there until it recovers. */
    INACTIVE
}
