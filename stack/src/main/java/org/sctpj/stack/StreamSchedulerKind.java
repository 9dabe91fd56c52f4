package org.sctpj.stack;

/**
 * Which stream scheduler of RFC 8260 section 3 decides, each time the association may send new
 * user data, which outgoing stream's queued message goes next. Chosen per association with {@link
 * SctpOptions.Builder#streamScheduler} and changed at run time with {@link
 * Endpoint#setStreamScheduler} (RFC 8260 section 4.3.2, SCTP_PLUGGABLE_SS); the per-stream value of
 * {@link #PRIORITY} and {@link #WEIGHTED_FAIR_QUEUEING} is set with {@link Endpoint#setStreamValue}
 * (section 4.3.3, SCTP_SS_VALUE).
 *
 * <p>Without user message interleaving (DATA chunks, RFC 9260) a stream whose message is partly
 * sent keeps its turn until the message's last fragment is sent, whatever the scheduler: the
 * fragments of one message must take consecutive TSNs (RFC 9260 section 6.9). With interleaving
 * (I-DATA, RFC 8260 section 2) the scheduler may hand the turn to another stream between any two
 * fragments, and each stream keeps its own partly sent message.
 *
 * <p>Switching scheduler keeps every queued message: nothing is dropped and nothing is reordered
 * within a stream. The per-stream values belong to the scheduler and go back to their defaults on
 * a switch (as in usrsctp).
 */
public enum StreamSchedulerKind {
    /**
     * First come, first served (RFC 8260 section 3.1, SCTP_SS_FCFS): messages leave in the order
     * the user sent them, across all streams. Takes no per-stream value.
     */
    FIRST_COME_FIRST_SERVED,

    /**
     * Round robin (RFC 8260 section 3.2, SCTP_SS_RR), the default: the streams with queued data
     * take turns, one message per turn (with interleaving, one fragment per turn); a stream joins
     * the end of the turn order when it gets data. Takes no per-stream value.
     */
    ROUND_ROBIN,

    /**
     * Round robin per packet (RFC 8260 section 3.3, SCTP_SS_RR_PKT): as {@link #ROUND_ROBIN}, but
     * a stream keeps its turn for the rest of the packet being filled, so a packet carries one
     * stream's data while that stream has any; the next packet starts with the next stream. When
     * the stream runs out of data the next one in turn fills the rest of the packet. Takes no
     * per-stream value.
     */
    ROUND_ROBIN_PER_PACKET,

    /**
     * Priority (RFC 8260 section 3.4, SCTP_SS_PRIO): the stream with the lowest priority value
     * among those with queued data goes first; streams of equal value take turns as in {@link
     * #ROUND_ROBIN}. The value is 0 (highest priority, the default) to 65535.
     */
    PRIORITY,

    /**
     * Fair capacity (RFC 8260 section 3.5, SCTP_SS_FC; "fair bandwidth" in usrsctp): the stream
     * that has sent the fewest bytes goes next, so streams of small and of large messages get the
     * same share of the capacity. A stream that had nothing queued starts level with the streams
     * that did (it does not get credit for the time it was idle). Takes no per-stream value.
     */
    FAIR_CAPACITY,

    /**
     * Weighted fair queueing (RFC 8260 section 3.6, SCTP_SS_WFQ): each stream has a weight, and a
     * stream of weight n gets n times the capacity of a stream of weight 1 while both have data.
     * The message with the earliest virtual finish time goes next: the stream's virtual start
     * plus the message's bytes divided by the weight. The value is the weight, 1 (the default) to
     * 65535.
     */
    WEIGHTED_FAIR_QUEUEING;

    /** Whether this scheduler has a per-stream value ({@link #PRIORITY}, {@link #WEIGHTED_FAIR_QUEUEING}). */
    public boolean hasStreamValue() {
        return this == PRIORITY || this == WEIGHTED_FAIR_QUEUEING;
    }

    /** The value every stream starts with: priority 0, weight 1; 0 for schedulers without a value. */
    public int defaultStreamValue() {
        return this == WEIGHTED_FAIR_QUEUEING ? 1 : 0;
    }

    /** The smallest value {@link Endpoint#setStreamValue} accepts: priority 0, weight 1. */
    public int minStreamValue() {
        return this == WEIGHTED_FAIR_QUEUEING ? 1 : 0;
    }

    /** The largest value {@link Endpoint#setStreamValue} accepts: 65535 (16 bits, as SCTP_SS_VALUE). */
    public int maxStreamValue() {
        return 65535;
    }
}
