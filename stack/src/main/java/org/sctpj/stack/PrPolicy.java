package org.sctpj.stack;

import java.time.Duration;
import java.util.Objects;

/**
 * The partial reliability policy of one message (PR-SCTP, RFC 3758 with the policies of RFC
 * 7496; RFC 6458 section 5.3.7 {@code sctp_prinfo} and RFC 7496 section 4): when the sender may
 * give a message up ("abandon" it, RFC 3758 section 3.4) instead of delivering it reliably. An
 * abandoned message comes back as a {@link SctpEvent.SendFailed} with its data; if some of it was
 * sent, a FORWARD TSN tells the peer to skip it (RFC 3758 section 3.5).
 *
 * <ul>
 *   <li>{@link Kind#NONE} ({@code SCTP_PR_SCTP_NONE}): reliable, as in RFC 9260;
 *   <li>{@link Kind#TIME_TO_LIVE} ({@code SCTP_PR_SCTP_TTL}, "timed reliability", RFC 3758
 *       section 4.1): {@code value} milliseconds after the send call, a message not yet
 *       completely sent and acknowledged is abandoned: before its first transmission it never
 *       goes on the wire (rule TR3), after it no more retransmission is made (TR4). The lifetime
 *       is checked where the sender acts anyway (TSN assignment, SACK, T3-rtx expiry, a full send
 *       buffer), as TR5 allows, not at the exact millisecond;
 *   <li>{@link Kind#LIMITED_RETRANSMISSIONS} ({@code SCTP_PR_SCTP_RTX}, RFC 7496 section 3.1): a
 *       message is retransmitted at most {@code value} times (0: sent once, never again); when
 *       one of its chunks would need one more retransmission, the message is abandoned;
 *   <li>{@link Kind#PRIORITY} ({@code SCTP_PR_SCTP_PRIO}, RFC 7496 section 3.2): {@code value}
 *       is a priority, lower values more important (0 the highest). When a new message with this
 *       policy does not fit the send buffer, messages with this policy and a strictly larger
 *       value (less important) are abandoned, least important first and oldest first among
 *       equals, until it fits; if even all of them would not make room, none is abandoned and
 *       the send blocks as usual. Messages without this policy are never removed for room.
 * </ul>
 *
 * <p>Sent data can only be abandoned when both endpoints announced PR-SCTP ({@link
 * Extension#PR_SCTP}); without it, only messages of which nothing was sent yet are abandoned
 * (a lifetime that expires in the queue, RFC 9260 section 10.1 SEND "life time"), and sent ones
 * stay reliable.
 *
 * @param kind the policy
 * @param value its parameter: milliseconds for {@link Kind#TIME_TO_LIVE}, retransmissions for
 *     {@link Kind#LIMITED_RETRANSMISSIONS}, the priority for {@link Kind#PRIORITY}, 0 for {@link
 *     Kind#NONE}; 0 to 2^32-1 (RFC 6458's 32-bit {@code pr_value})
 */
public record PrPolicy(Kind kind, long value) {

    /** The policies of RFC 7496 section 4 ({@code pr_policy}). */
    public enum Kind {
        /** Reliable ({@code SCTP_PR_SCTP_NONE}). */
        NONE,
        /** Timed reliability, value in milliseconds ({@code SCTP_PR_SCTP_TTL}, RFC 3758 section 4.1). */
        TIME_TO_LIVE,
        /** At most value retransmissions ({@code SCTP_PR_SCTP_RTX}, RFC 7496 section 3.1). */
        LIMITED_RETRANSMISSIONS,
        /** Buffer-based priority, lower value more important ({@code SCTP_PR_SCTP_PRIO}, RFC 7496 section 3.2). */
        PRIORITY
    }

    /** The largest value ({@code pr_value} is 32 bits unsigned). */
    public static final long MAX_VALUE = 0xffff_ffffL;

    /** Reliable delivery. */
    public static final PrPolicy RELIABLE = new PrPolicy(Kind.NONE, 0);

    /**
     * Validates the policy.
     *
     * @throws IllegalArgumentException for a value outside 0..2^32-1, or a value other than 0 with
     *     {@link Kind#NONE}
     */
    public PrPolicy {
        Objects.requireNonNull(kind, "kind: use Kind.NONE for reliable delivery");
        if (value < 0 || value > MAX_VALUE) {
            throw new IllegalArgumentException(
                    "a PR-SCTP policy value must be 0.." + MAX_VALUE + " (32 bits), was " + value + " for " + kind);
        }
        if (kind == Kind.NONE && value != 0) {
            throw new IllegalArgumentException(
                    "the reliable policy (NONE) takes no value, was " + value + ": use 0, or choose a policy");
        }
    }

    /** Timed reliability: abandoned {@code millis} milliseconds after the send if not delivered by then. */
    public static PrPolicy timeToLive(long millis) {
        return new PrPolicy(Kind.TIME_TO_LIVE, millis);
    }

    /**
     * Timed reliability with a {@link Duration} (whole milliseconds).
     *
     * @throws IllegalArgumentException for a negative duration or one above 2^32-1 ms
     */
    public static PrPolicy timeToLive(Duration lifetime) {
        if (lifetime.isNegative()) {
            throw new IllegalArgumentException("a lifetime cannot be negative, was " + lifetime);
        }
        return timeToLive(lifetime.compareTo(Duration.ofMillis(MAX_VALUE)) > 0 ? MAX_VALUE + 1 : lifetime.toMillis());
    }

    /** At most {@code retransmissions} retransmissions (0: sent once). */
    public static PrPolicy maxRetransmissions(long retransmissions) {
        return new PrPolicy(Kind.LIMITED_RETRANSMISSIONS, retransmissions);
    }

    /** Buffer-based priority {@code priority} (0 the most important). */
    public static PrPolicy priority(long priority) {
        return new PrPolicy(Kind.PRIORITY, priority);
    }

    /** Whether this is reliable delivery ({@link Kind#NONE}). */
    public boolean isReliable() {
        return kind == Kind.NONE;
    }
}
