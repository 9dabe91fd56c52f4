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
     * sequence for ordered messages, as soon as complete for unordered ones. A message too large
     * to wait for whole comes as {@link MessagePart}s instead (see {@link
     * SctpOptions#partialDeliveryPoint()}).
     *
     * @param association the association it arrived on
     * @param streamId the stream it was sent on
     * @param ppid its Payload Protocol Identifier
     * @param unordered whether it was sent unordered
     * @param data the message; the receiver owns the array
     */
    record MessageReceived(AssociationId association, int streamId, int ppid, boolean unordered, byte[] data)
            implements SctpEvent {}

    /**
     * One part of a message delivered in parts (partial delivery, RFC 9260 section 6.9 and RFC 6458
     * sections 3.1.4 and 8.1.21): a message whose bytes in sequence from its first fragment reached
     * {@link SctpOptions#partialDeliveryPoint()}, or whose next fragment would not fit in the
     * receive buffer, is handed over as it arrives instead of whole, so that its bytes leave the
     * receive buffer and the window reopens. The parts of one message come in order and together
     * make the message; the last has {@code last} true. A message delivered in parts comes only as
     * parts, never also as a {@link MessageReceived}.
     *
     * <p>Order: the first part comes where the whole message would have been delivered (for an
     * ordered message: after every earlier message of its stream). While a message is being
     * delivered in parts, no other message of the same stream (ordered or unordered) is delivered:
     * they wait until its last part. Messages of other streams are delivered meanwhile, so parts
     * of one message may be interleaved with messages and parts of other streams (RFC 6458's
     * fragment interleave level 2): tell the messages apart by {@code streamId}. If the
     * association ends, is aborted or restarts before the last part, a {@link
     * PartialDeliveryAborted} says so (before the {@link AssociationChange}).
     *
     * @param association the association it arrived on
     * @param streamId the stream the message was sent on
     * @param ppid the message's Payload Protocol Identifier
     * @param unordered whether the message was sent unordered
     * @param data the bytes of this part (at least one); the receiver owns the array
     * @param last whether this part ends the message
     */
    record MessagePart(AssociationId association, int streamId, int ppid, boolean unordered, byte[] data, boolean last)
            implements SctpEvent {}

    /**
     * The partial delivery event with its aborted indication (RFC 6458 section 6.1.7,
     * SCTP_PARTIAL_DELIVERY_EVENT, {@code pdapi_indication} SCTP_PARTIAL_DELIVERY_ABORTED): a message
     * was being delivered in {@link MessagePart}s and its last part will never come, because the
     * association ended (ABORT sent or received, peer unreachable, shutdown) or the peer restarted
     * it. The parts already delivered are all of the message there will be: discard them. Comes
     * before the {@link AssociationChange} that reports the end or restart.
     *
     * @param association the association
     * @param streamId the stream of the message ({@code pdapi_stream})
     * @param sequenceNumber its Stream Sequence Number ({@code pdapi_seq}; meaningless when
     *     unordered)
     * @param unordered whether the message was sent unordered
     * @param deliveredBytes how many bytes of it were delivered in parts
     */
    record PartialDeliveryAborted(
            AssociationId association, int streamId, int sequenceNumber, boolean unordered, long deliveredBytes)
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
        POTENTIALLY_FAILED,
        /**
         * The peer added the address to the association with an ASCONF (RFC 5061 section 4.2.1,
         * SCTP_ADDR_ADDED); it is unconfirmed until a HEARTBEAT confirms it (CONFIRMED follows).
         */
        ADDED,
        /**
         * The peer deleted the address from the association with an ASCONF (RFC 5061 section 4.2.2,
         * SCTP_ADDR_REMOVED): nothing goes there any more, data outstanding on it is resent elsewhere.
         */
        REMOVED
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

    /** Why a message was given back in a {@link SendFailed}. */
    enum SendFailedReason {
        /** The association ended (ABORT, peer unreachable, shutdown) before the peer acknowledged it. */
        ASSOCIATION_ENDED,
        /** Abandoned by {@link PrPolicy.Kind#TIME_TO_LIVE}: its lifetime expired (RFC 3758 section 4.1). */
        LIFETIME_EXPIRED,
        /** Abandoned by {@link PrPolicy.Kind#LIMITED_RETRANSMISSIONS} (RFC 7496 section 3.1). */
        RETRANSMISSIONS_EXHAUSTED,
        /** Abandoned by {@link PrPolicy.Kind#PRIORITY} to make room for a more important message (RFC 7496 section 3.2). */
        LOWER_PRIORITY
    }

    /**
     * A message that will not be delivered, returned to the user (RFC 6458 section 6.1.11,
     * SCTP_SEND_FAILED_EVENT): the association ended before the peer acknowledged it, or its
     * partial reliability policy abandoned it ({@link PrPolicy}; RFC 3758 section 3.5 and RFC
     * 7496). An abandoned message of which something was sent may still have been received in
     * part (never delivered as a whole unless it was received whole before the sender gave up).
     *
     * @param association the association
     * @param streamId its stream
     * @param ppid its PPID
     * @param unordered whether it was unordered
     * @param data the message
     * @param partiallySent true if some of it was put on the wire ({@code SCTP_DATA_SENT}); false if
     *     none of it was ({@code SCTP_DATA_UNSENT})
     * @param reason why it comes back
     */
    record SendFailed(
            AssociationId association,
            int streamId,
            int ppid,
            boolean unordered,
            byte[] data,
            boolean partiallySent,
            SendFailedReason reason)
            implements SctpEvent {

        /** Checks the reason is given. */
        public SendFailed {
            java.util.Objects.requireNonNull(reason, "reason");
        }

        /** A message the association's end took back ({@link SendFailedReason#ASSOCIATION_ENDED}). */
        public SendFailed(
                AssociationId association,
                int streamId,
                int ppid,
                boolean unordered,
                byte[] data,
                boolean partiallySent) {
            this(association, streamId, ppid, unordered, data, partiallySent, SendFailedReason.ASSOCIATION_ENDED);
        }

        /** Whether a PR-SCTP policy abandoned it (rather than the association ending). */
        public boolean abandoned() {
            return reason != SendFailedReason.ASSOCIATION_ENDED;
        }
    }

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

    /**
     * The peer sent an Adaptation Layer Indication in its INIT or INIT ACK (RFC 5061 section 4.2.6;
     * RFC 6458 section 6.1.6, SCTP_ADAPTATION_INDICATION). Comes right after the {@link
     * AssociationChange} that reports the association up (or restarted).
     *
     * @param association the association
     * @param indication the peer's 32-bit Adaptation Code Point, 0 to 4294967295
     */
    record AdaptationIndication(AssociationId association, long indication) implements SctpEvent {}

    /**
     * The outcome of a stream reconfiguration (RFC 6525 section 6.1: the {@code _DENIED} and {@code
     * _FAILED} flags of its events, neither of them for success).
     */
    enum ReconfigOutcome {
        /** The change was made on both sides. */
        PERFORMED,
        /** The peer refused the request (result Denied, RFC 6525 section 4.4); nothing changed. */
        DENIED,
        /**
         * The request failed (an error result of RFC 6525 section 4.4: Wrong SSN, Request already in
         * progress, Bad Sequence Number, or Nothing to do for a reset); nothing changed. The
         * application may ask again.
         */
        FAILED
    }

    /**
     * Streams were reset, or a reset of streams was refused (RFC 6525 section 6.1.1,
     * SCTP_STREAM_RESET_EVENT). One event per direction: an outgoing reset (ours, or one the peer
     * asked for with an Incoming SSN Reset Request) is reported when the peer answered; from then
     * on our messages on those streams start again at SSN 0. An incoming reset is reported when the
     * peer's Outgoing SSN Reset Request was performed here: every message of the old numbering was
     * delivered before this event, the next one on each stream has SSN 0.
     *
     * @param association the association
     * @param outgoing true for our outbound streams (SCTP_STREAM_RESET_OUTGOING_SSN), false for
     *     the peer's (SCTP_STREAM_RESET_INCOMING_SSN)
     * @param outcome performed, denied ({@code SCTP_STREAM_RESET_DENIED}) or failed ({@code
     *     SCTP_STREAM_RESET_FAILED})
     * @param streams the streams ({@code strreset_stream_list}); empty means all streams
     */
    record StreamReset(AssociationId association, boolean outgoing, ReconfigOutcome outcome, List<Integer> streams)
            implements SctpEvent {
        /** Copies the stream list. */
        public StreamReset {
            streams = List.copyOf(streams);
        }
    }

    /**
     * The association's TSNs and every stream's SSNs were reset, or such a reset was refused (RFC
     * 6525 section 6.1.2, SCTP_ASSOC_RESET_EVENT): after an SSN/TSN Reset Request (ours or the
     * peer's), both directions start with the TSNs below and SSN 0 on every stream.
     *
     * @param association the association
     * @param outcome performed, denied or failed (then the TSNs are the ones in use, unchanged)
     * @param localTsn the next TSN we send ({@code assocreset_local_tsn}), 32 bits as an int
     * @param remoteTsn the next TSN we expect from the peer ({@code assocreset_remote_tsn}), 32
     *     bits as an int
     */
    record AssociationReset(AssociationId association, ReconfigOutcome outcome, int localTsn, int remoteTsn)
            implements SctpEvent {}

    /**
     * The number of streams changed, or a request to add streams was refused (RFC 6525 section
     * 6.1.3, SCTP_STREAM_CHANGE_EVENT): after an Add Outgoing Streams Request (ours, the peer's, or
     * ours in answer to the peer's Add Incoming Streams Request). The new streams are usable at
     * once, starting at SSN 0.
     *
     * @param association the association
     * @param outcome performed, denied or failed (then the counts are unchanged)
     * @param inboundStreams the inbound streams now ({@code strchange_instrms})
     * @param outboundStreams the outbound streams now ({@code strchange_outstrms})
     */
    record StreamChange(AssociationId association, ReconfigOutcome outcome, int inboundStreams, int outboundStreams)
            implements SctpEvent {}

    /** What an {@link Authentication} event reports (RFC 6458 section 6.1.8, {@code auth_indication}). */
    enum AuthIndication {
        /**
         * The peer authenticated a packet with a key identifier other than the one it used before
         * (SCTP_AUTH_NEW_KEY): it has switched to that key.
         */
        NEW_KEY,
        /**
         * A deactivated key is no longer used by this association (SCTP_AUTH_FREE_KEY): it may now
         * be deleted.
         */
        FREE_KEY,
        /**
         * We offered AUTH (RFC 4895) but the peer does not support it (SCTP_AUTH_NO_AUTH): the
         * association runs unauthenticated. Given once, after COMMUNICATION_UP.
         */
        NO_AUTH
    }

    /**
     * An authentication event (RFC 6458 section 6.1.8, SCTP_AUTHENTICATION_EVENT) of an
     * association that offered AUTH (RFC 4895): the peer switched keys, a deactivated key became
     * free, or the peer has no AUTH.
     *
     * @param association the association
     * @param indication what happened ({@code auth_indication})
     * @param keyId the Shared Key Identifier concerned ({@code auth_keynumber}; 0 for NO_AUTH)
     */
    record Authentication(AssociationId association, AuthIndication indication, int keyId) implements SctpEvent {}

    /** What became of a change of one of our own addresses on an association (RFC 5061). */
    enum LocalAddressState {
        /** The peer added our address to the association: we may send from it now. */
        ADDED,
        /** The peer deleted our address from the association: it sends there no more. */
        REMOVED,
        /** The peer took our address as its primary destination (Set Primary Address, section 4.2.4). */
        MADE_PRIMARY,
        /**
         * The peer refused to add the address (the causes say why), or the request was given up
         * (the association ended, or the peer does not understand Add IP Address).
         */
        ADD_FAILED,
        /**
         * The peer refused to delete the address (for instance "Request to Delete Last Remaining IP
         * Address", "Request to Delete Source IP Address"), or the request was given up; the
         * association sends from it again.
         */
        REMOVE_FAILED,
        /** The peer refused to take the address as its primary, or the request was given up. */
        SET_PRIMARY_FAILED
    }

    /**
     * The peer answered a request about one of our addresses of an association (RFC 5061 section
     * 5.2, the ASCONF-ACK), or it was given up: the outcome of {@link Endpoint#addLocalAddress},
     * {@link Endpoint#removeLocalAddress} and {@link Endpoint#setPeerPrimary}.
     *
     * @param association the association
     * @param address our address
     * @param state what became of the request
     * @param causes the error causes the peer gave when it refused (empty otherwise, and when the
     *     request was given up)
     */
    record LocalAddressChange(
            AssociationId association, InetAddress address, LocalAddressState state, List<ErrorCause> causes)
            implements SctpEvent {
        /** Copies the causes. */
        public LocalAddressChange {
            causes = List.copyOf(causes);
        }
    }

    /** Why a path's MTU changed ({@link PathMtuChange}). */
    enum PathMtuReason {
        /**
         * A probe of that size was acknowledged (RFC 8899 section 5.2, the search of packetization
         * layer path MTU discovery, {@link SctpOptions#pmtuDiscovery()}): the MTU went up.
         */
        PROBE,
        /**
         * A verified ICMP Packet Too Big or Fragmentation Needed reported a smaller MTU (RFC 8899
         * section 4.6.2): the MTU went down to it.
         */
        PACKET_TOO_BIG,
        /**
         * Packets of the path's size stopped arriving (two T3-rtx expiries in a row, RFC 8899
         * section 4.3): the MTU went back to the base, 1200 bytes, and the search starts again.
         */
        BLACK_HOLE
    }

    /**
     * The MTU of a path changed through path MTU discovery ({@link SctpOptions#pmtuDiscovery()},
     * RFC 8899): a probe confirmed a larger size, a Packet Too Big reported a smaller one, or a
     * black hole took it back to the base. Not given when the association starts (every path then
     * begins at the base, 1200 bytes, before the first probe), nor with discovery off. The sizes
     * are of IP packets (headers included, UDP encapsulation's too); messages are cut to fit.
     *
     * @param association the association
     * @param path the path's peer address
     * @param oldMtu the MTU before, in bytes
     * @param newMtu the MTU now, in bytes
     * @param reason what changed it
     */
    record PathMtuChange(AssociationId association, InetAddress path, int oldMtu, int newMtu, PathMtuReason reason)
            implements SctpEvent {}

    /**
     * The peer echoed a Congestion Experienced mark (an ECNE chunk, RFC 9260 appendix A) and we
     * reacted as to a loss, through the congestion controller's reduction of the congestion window of the path the marked data went on: at most once per window
     * of data (later echoes for the same window are answered with CWR but reduce nothing). Given
     * only on associations that negotiated {@link Extension#ECN}.
     *
     * @param association the association
     * @param path the path's peer address
     * @param cwndBefore the path's congestion window before, in bytes
     * @param cwndAfter the path's congestion window after, in bytes: as after a fast retransmit
     *     (RFC 9260 section 7.2.3), max(cwnd/2, 4 MTU) with the default controller, which is
     *     more than before while the window is below 8 MTU (early in slow start)
     */
    record EcnCongestion(AssociationId association, InetAddress path, long cwndBefore, long cwndAfter)
            implements SctpEvent {}
}
