package org.sctpj.stack.assoc;

/**
 * The protocol timers of an association, one row each in its {@link TimerTable}. The declaration
 * order is the order in which {@link TimerTable#handleTimeout} runs the timers that are due at the
 * same time: the setup timer first, then the shutdown guard (which ends the association), the
 * shutdown timer, then per path the retransmission timers and the heartbeats.
 *
 * <p>New kinds (for instance the ASCONF timer of RFC 5061 section 5.1) are added here with their
 * owner in the association's dispatch.
 */
public enum TimerKind {
    /** T1-init (RFC 9260 section 5.1 A): INIT sent, no INIT ACK yet. */
    T1_INIT(false),
    /** T1-cookie (RFC 9260 section 5.1 C): COOKIE ECHO sent, no COOKIE ACK yet. */
    T1_COOKIE(false),
    /** T5-shutdown-guard (RFC 9260 section 9.2): the whole SHUTDOWN procedure gives up. */
    T5_SHUTDOWN_GUARD(false),
    /** T2-shutdown (RFC 9260 section 9.2): SHUTDOWN or SHUTDOWN ACK sent, no answer yet. */
    T2_SHUTDOWN(false),
    /** T3-rtx (RFC 9260 section 6.3.2), one per destination. */
    T3_RTX(true),
    /**
     * The heartbeat of a destination (RFC 9260 section 8.3): while a HEARTBEAT is outstanding, when
     * it times out; otherwise when the next one is due.
     */
    HEARTBEAT(true),
    /** The delayed SACK (RFC 9260 section 6.2): when a SACK held back for more DATA is due. */
    DELAYED_SACK(false),
    /**
     * The stream reconfiguration timer (RFC 6525 section 5.1.1): a RE-CONFIG request is
     * outstanding, no response yet (or the peer answered In progress).
     */
    RECONFIG(false),
    /**
     * Path MTU discovery of a destination (RFC 8899 section 5.1.1): PROBE_TIMER while a probe is
     * out, else when the next probe is due (the PMTU_RAISE_TIMER once the search completed).
     */
    PMTU(true),
    /**
     * The ASCONF retransmission timer (RFC 5061 section 5.1, the RTO of the path the ASCONF went
     * to): an ASCONF is outstanding, no ASCONF-ACK yet.
     */
    ASCONF(false),
    /**
     * The end of the earliest lifetime of a queued message with the time-to-live policy (RFC 7496
     * section 3.1): then a packet may be filled differently (the expired message at a stream's head
     * is abandoned, RFC 3758 section 4.1 TR3, and a FORWARD TSN may follow), so the association is
     * asked to transmit again. Without it, what an association sends would depend on when it is
     * polled, not only on its inputs and deadlines.
     */
    PR_LIFETIME(false);

    private final boolean perPath;

    TimerKind(boolean perPath) {
        this.perPath = perPath;
    }

    /** Whether the association has one such timer per destination (else exactly one). */
    public boolean perPath() {
        return perPath;
    }
}
