package org.sctpj.stack;

/**
 * Abandoned messages of an association or of one of its outbound streams, per policy (RFC 7496
 * section 4.5, {@code SCTP_PR_ASSOC_STATUS} and {@code SCTP_PR_STREAM_STATUS}): how many were
 * abandoned before any of them was sent ({@code sprstat_abandoned_unsent}) and after
 * ({@code sprstat_abandoned_sent}). Each abandoned message also came back as a {@link
 * SctpEvent.SendFailed}. Counts only grow, for the life of the association.
 *
 * @param timeToLive abandoned by {@link PrPolicy.Kind#TIME_TO_LIVE}
 * @param limitedRetransmissions abandoned by {@link PrPolicy.Kind#LIMITED_RETRANSMISSIONS}
 * @param priority abandoned by {@link PrPolicy.Kind#PRIORITY}
 */
public record PrStatus(Counts timeToLive, Counts limitedRetransmissions, Counts priority) {

    /** Nothing abandoned. */
    public static final PrStatus NONE = new PrStatus(Counts.ZERO, Counts.ZERO, Counts.ZERO);

    /**
     * Abandoned messages of one policy.
     *
     * @param unsent abandoned before any byte was sent ({@code SCTP_DATA_UNSENT})
     * @param sent abandoned after some of it was sent ({@code SCTP_DATA_SENT})
     */
    public record Counts(long unsent, long sent) {
        /** No message. */
        public static final Counts ZERO = new Counts(0, 0);

        /** Unsent plus sent. */
        public long total() {
            return unsent + sent;
        }
    }

    /** The counts of one policy ({@link Counts#ZERO} for {@link PrPolicy.Kind#NONE}). */
    public Counts of(PrPolicy.Kind kind) {
        return switch (kind) {
            case NONE -> Counts.ZERO;
            case TIME_TO_LIVE -> timeToLive;
            case LIMITED_RETRANSMISSIONS -> limitedRetransmissions;
            case PRIORITY -> priority;
        };
    }

    /** All policies together ({@code SCTP_PR_SCTP_ALL}). */
    public Counts total() {
        return new Counts(
                timeToLive.unsent() + limitedRetransmissions.unsent() + priority.unsent(),
                timeToLive.sent() + limitedRetransmissions.sent() + priority.sent());
    }
}
