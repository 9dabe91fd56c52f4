package org.sctpj.stack;

import java.util.Objects;
import java.util.Optional;
import org.sctpj.stack.wire.Wire;

/**
 * How one message is sent (RFC 6458 {@code sctp_sndinfo}, with {@code sctp_prinfo} of section
 * 5.3.7): stream, payload protocol identifier, unordered delivery, the SACK-IMMEDIATELY (I) bit
 * and, optionally, a partial reliability policy.
 *
 * @param streamId the outbound stream, below the association's negotiated outbound stream count
 * @param ppid the Payload Protocol Identifier (opaque to SCTP)
 * @param unordered deliver without regard to the stream's order (U bit)
 * @param immediate ask the peer to SACK at once (I bit, RFC 9260 section 3.3.1); useful for the
 *     last message of a request
 * @param prPolicy the message's PR-SCTP policy ({@link PrPolicy}); empty: the association's
 *     default ({@code SCTP_DEFAULT_PRINFO}, RFC 7496 section 4.4; reliable unless changed with
 *     {@link Endpoint#setDefaultPrPolicy})
 */
public record SendInfo(int streamId, int ppid, boolean unordered, boolean immediate, Optional<PrPolicy> prPolicy) {

    /** Stream 0, PPID 0, ordered, no I bit, the association's default policy. */
    public static final SendInfo DEFAULT = new SendInfo(0, 0, false, false);

    /**
     * Validates the stream id range.
     *
     * @throws IllegalArgumentException for a stream id outside 0..65535
     * @throws NullPointerException for a null policy (use {@link Optional#empty()})
     */
    public SendInfo {
        Wire.checkU16("streamId", streamId);
        Objects.requireNonNull(prPolicy, "prPolicy: use Optional.empty() for the association's default");
    }

    /** Without a policy of its own: the association's default applies. */
    public SendInfo(int streamId, int ppid, boolean unordered, boolean immediate) {
        this(streamId, ppid, unordered, immediate, Optional.empty());
    }

    /** Ordered, no I bit, on the given stream with the given PPID. */
    public static SendInfo of(int streamId, int ppid) {
        return new SendInfo(streamId, ppid, false, false);
    }

    /** This send info with the PR-SCTP policy {@code policy} (for example {@link PrPolicy#timeToLive(long)}). */
    public SendInfo withPrPolicy(PrPolicy policy) {
        return new SendInfo(streamId, ppid, unordered, immediate, Optional.of(policy));
    }
}
