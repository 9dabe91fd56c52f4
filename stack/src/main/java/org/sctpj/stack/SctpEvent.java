package org.sctpj.stack;

import java.net.InetAddress;
import java.util.List;
import org.sctpj.stack.wire.cause.ErrorCause;

/**
 * What the core tells its user, in order, through {@link Endpoint#pollEvent()}: received messages
 * and notifications (RFC 6458 section 6.1 names them). The wrappers around the core turn them into
 * callbacks (api-callback) or blocking receives (api-socket).
 */
public sealed interface SctpEvent {

    /** The association the event concerns. */
    AssociationId association();

    /**
     * A complete message (all its fragments reassembled), in delivery order: per stream in
     * sequence for ordered messages, as soon as complete for unordered ones.
     *
     * @param association the association it arrived on
     * @param streamId the stream it was sent on
     * @param ppid its Payload Protocol Identifier
     * @param unordered whether it was sent unordered
     * @param data the message; the receiver owns the array
     */
    record MessageReceived(AssociationId association, int streamId, int ppid, boolean unordered, byte[] data)
            implements SctpEvent {}

    /** Kinds of {@link AssociationChange} (RFC 6458 section 6.1.1, {@code sac_state}). */
    enum AssociationChangeType {
        /** The association is up and may carry data (COMMUNICATION_UP). */
        COMMUNICATION_UP,
        /** The association failed: the peer is unreachable or aborted it (COMMUNICATION_LOST). */
        COMMUNICATION_LOST,
        /** The peer restarted; the association goes on with new tags and sequence numbers (RESTART). */
        RESTART,
        /** A graceful shutdown completed (SHUTDOWN_COMP). */
        SHUTDOWN_COMPLETE,
        /** Setup failed: INIT or COOKIE ECHO retransmissions exhausted or an ABORT came back (CANT_STR_ASSOC). */
        CANT_START
    }

    /**
     * The association changed state.
     *
     * @param association the association
     * @param type what happened
     * @param outboundStreams negotiated outbound streams (0 when not established)
     * @param inboundStreams negotiated inbound streams (0 when not established)
     * @param causes error causes the peer gave (from an ABORT), or none
     * @param reason a short explanation for logs
     */
    record AssociationChange(
            AssociationId association,
            AssociationChangeType type,
            int outboundStreams,
            int inboundStreams,
            List<ErrorCause> causes,
            String reason)
            implements SctpEvent {}

    /** States of {@link PeerAddressChange} (RFC 6458 section 6.1.2, {@code spc_state}). */
    enum PeerAddressState {
        /** The address is reachable again (ADDR_AVAILABLE). */
        AVAILABLE,
        /** The address exceeded Path.Max.Retrans and is inactive (ADDR_UNREACHABLE). */
        UNREACHABLE,
        /** A heartbeat confirmed the address (ADDR_CONFIRMED). */
        CONFIRMED,
        /** The address became the primary path (ADDR_MADE_PRIM). */
        MADE_PRIMARY,
        /**
         * The address timed out more than PFMR times and is Potentially Failed (RFC 7829,
         * ADDR_POTENTIALLY_FAILED of RFC 6458's successors); AVAILABLE follows when it answers.
         */
        POTENTIALLY_FAILED
    }

    /**
     * A peer address changed state.
     *
     * @param association the association
     * @param address the peer address
     * @param state its new state
     */
    record PeerAddressChange(AssociationId association, InetAddress address, PeerAddressState state)
            implements SctpEvent {}

    /**
     * A message that will not be delivered, returned to the user (RFC 6458 section 6.1.11): the
     * association ended before the peer acknowledged it.
     *
     * @param association the association
     * @param streamId its stream
     * @param ppid its PPID
     * @param unordered whether it was unordered
     * @param data the message
     * @param partiallySent true if some of it was sent (it may have been partly received)
     */
    record SendFailed(
            AssociationId association, int streamId, int ppid, boolean unordered, byte[] data, boolean partiallySent)
            implements SctpEvent {}

    /**
     * The peer reported an error in an ERROR chunk (RFC 6458 section 6.1.3).
     *
     * @param association the association
     * @param causes what the peer reported
     */
    record RemoteError(AssociationId association, List<ErrorCause> causes) implements SctpEvent {}

    /**
     * The peer started a graceful shutdown: no more data will arrive (RFC 6458 section 6.1.5).
     *
     * @param association the association
     */
    record ShutdownReceived(AssociationId association) implements SctpEvent {}

    /**
     * Everything sent has been acknowledged and nothing waits (RFC 6458 section 6.1.9).
     *
     * @param association the association
     */
    record SenderDry(AssociationId association) implements SctpEvent {}

    /**
     * The free space of the association's send buffer has reached its send threshold (the
     * callback API's send callback, after the source thesis). Fires after a SACK frees space, when
     * the free space is at least the threshold; with threshold 0, after every SACK that frees
     * space.
     *
     * @param association the association
     * @param freeBytes free send-buffer bytes now
     */
    record SendSpaceAvailable(AssociationId association, long freeBytes) implements SctpEvent {}
}
