package org.sctpj.stack;

import java.net.InetAddress;

/**
 * Hears what an {@link Endpoint} did that a monitoring tool shows (JFR events in the {@code
 * timers} module): association state changes (RFC 9260 section 4), path status changes (section
 * 8.2, RFC 7829), T3-rtx expirations (section 6.3.3) and fast retransmissions (section 7.2.4).
 *
 * <p>Set with {@link Endpoint#setProbe}. The endpoint compares each association with what it last
 * reported at the end of each call of its owner (a packet, the timers, a command), so one call
 * reports the net change (a state passed through within one call is not reported) in that order:
 * state, then per path status and timeouts, then fast retransmissions. Runs on the endpoint's
 * owner thread, inside the endpoint call: it must only record (no endpoint calls) and not throw.
 * When {@link #enabled()} is false the endpoint does no comparison at all, so a probe whose sink
 * is off costs one call per endpoint call.
 */
public interface Probe {

    /**
     * The association's state changed ({@code from} null: the first report, just after it was
     * created); names of {@code org.sctpj.stack.assoc.Association.State}, e.g. {@code
     * COOKIE_WAIT}, {@code ESTABLISHED}, {@code CLOSED}.
     */
    void associationState(AssociationId id, int localPort, String from, String to);

    /**
     * The status of the path to {@code peer} changed ({@code from} null: first report): names of
     * {@code org.sctpj.stack.path.PathStatus} (UNCONFIRMED, ACTIVE, POTENTIALLY_FAILED, INACTIVE).
     */
    void pathStatus(AssociationId id, InetAddress peer, String from, String to);

    /**
     * T3-rtx of the path to {@code peer} expired {@code count} times since the last report; the
     * path's RTO (backed off) and congestion window after it.
     */
    void retransmissionTimeout(AssociationId id, InetAddress peer, long count, long rtoNanos, long cwnd);

    /** {@code chunks} DATA chunks were marked for fast retransmission since the last report. */
    void fastRetransmit(AssociationId id, long chunks);

    /** Whether to report now (e.g. whether a JFR recording wants these events); true by default. */
    default boolean enabled() {
        return true;
    }
}
