package org.sctpj.tests.interop;

import java.util.Optional;
import java.util.Set;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.Extension;
import org.sctpj.stack.PrPolicy;
import org.sctpj.stack.ReconfigRequestKind;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;

/**
 * THE ADAPTER between the interop cases of issue 12 ({@link ExtensionCell}) and our stack's
 * extension API: every call those cases make of the stack's PR-SCTP, I-DATA and RE-CONFIG API goes
 * through here, and nowhere else.
 *
 * <p>Negotiation (on main) is wired. The feature calls belong to the {@code prsctp} and {@code
 * reconfig} branches, which were not on main when these cases were written: each such method
 * throws {@link NotWired} naming the branch and the call expected (the names those branches use),
 * so a case that needs it fails saying what it waits for. Wiring one is replacing the throw by the
 * commented call.
 */
final class ExtensionCalls {
    private ExtensionCalls() {}

    /** A feature call whose branch had not landed when the case was written. */
    static final class NotWired extends UnsupportedOperationException {
        private static final long serialVersionUID = 1L;

        NotWired(String branch, String call) {
            super("waits for the " + branch + " branch: wire ExtensionCalls to " + call);
        }
    }

    /** The PR-SCTP policies of RFC 7496 the cases send with (mirrors {@link PeerExtensions.Policy}). */
    enum Policy {
        /** Time to live, milliseconds (section 3.1). */
        TTL,
        /** Limited retransmissions (section 3.2). */
        RTX,
        /** Priority: lower value, higher priority (section 3.3). */
        PRIO
    }

    /** Options offering {@code extensions} (RFC 5061 Supported Extensions, RFC 3758 Forward-TSN-Supported). */
    static SctpOptions.Builder offer(SctpOptions.Builder b, Set<Extension> extensions) {
        return b.extensions(extensions);
    }

    /** What the association negotiated (both sides announced). */
    static Set<Extension> negotiated(AssociationInfo info) {
        return info.extensions();
    }

    /**
     * Options accepting every RE-CONFIG request of the peer (RFC 6525 section 6.3.1,
     * SCTP_ENABLE_STREAM_RESET with every bit).
     */
    static SctpOptions.Builder acceptAllReconfigRequests(SctpOptions.Builder b) {
        return b.acceptedReconfigRequests(java.util.EnumSet.allOf(ReconfigRequestKind.class));
    }

    /** {@code base} sent with PR-SCTP policy {@code p} and value {@code value} (RFC 7496). */
    static SendInfo withPolicy(SendInfo base, Policy p, long value) {
        return base.withPrPolicy(
                switch (p) {
                    case TTL -> PrPolicy.timeToLive(value);
                    case RTX -> PrPolicy.maxRetransmissions(value);
                    case PRIO -> PrPolicy.priority(value);
                });
    }

    /**
     * Resets our outgoing streams {@code streams} (empty: all; RFC 6525 section 5.1.2, Outgoing SSN
     * Reset Request). Stack thread only.
     */
    static void resetOutgoing(Endpoint ep, AssociationId id, int[] streams, long now) {
        ep.resetStreams(id, streams, true, false, now);
    }

    /**
     * Adds {@code outbound} outgoing and {@code inbound} incoming streams (RFC 6525 sections 5.1.5
     * and 5.1.6). Stack thread only.
     */
    static void addStreams(Endpoint ep, AssociationId id, int outbound, int inbound, long now) {
        ep.addStreams(id, outbound, inbound, now);
    }

    /**
     * A stream reset event (RFC 6525 section 6.1.1; RFC 6458 section 6.1.9) that succeeded.
     */
    static boolean isStreamReset(SctpEvent e) {
        return e instanceof SctpEvent.StreamReset r && r.outcome() == SctpEvent.ReconfigOutcome.PERFORMED;
    }

    /**
     * The outbound streams of a stream change event (RFC 6458 section 6.1.11), or empty when
     * {@code e} is none.
     */
    static Optional<Integer> streamChangeOutbound(SctpEvent e) {
        return e instanceof SctpEvent.StreamChange c && c.outcome() == SctpEvent.ReconfigOutcome.PERFORMED
                ? Optional.of(c.outboundStreams())
                : Optional.empty();
    }

    /** The PPID of a message returned as abandoned or unsent (RFC 6458 section 6.1.4), or empty. */
    static Optional<Integer> sendFailedPpid(SctpEvent e) {
        return e instanceof SctpEvent.SendFailed f ? Optional.of(f.ppid()) : Optional.empty();
    }

    /** Whether {@code e} returns a message of which something had been sent ({@code SCTP_DATA_SENT}). */
    static boolean sendFailedAfterSending(SctpEvent e) {
        return e instanceof SctpEvent.SendFailed f && f.partiallySent();
    }
}
