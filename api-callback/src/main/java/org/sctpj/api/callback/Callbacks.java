package org.sctpj.api.callback;

import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;

/**
 * What a {@link CallbackSocket} tells its user. Every method runs on the socket's stack thread
 * (see {@link CallbackSocket#stackThread()}), one at a time, in the order the protocol core
 * produced the events; so callbacks need no lock among themselves. They run when the core has
 * finished the work that produced them (a received packet processed whole, a timer, a command),
 * never in the middle of a packet. They should return quickly: while one runs, the thread serves
 * no packet, timer or command of any socket of its shard.
 *
 * <p>Every method may call the socket (and any other socket): {@link CallbackSocket#send} from a
 * callback goes straight into the core, and the packets it makes are sent once the callbacks of
 * that core call have run; what such a call produces (its own notifications) comes after the
 * callbacks already waiting, never from inside the running callback. A callback that throws is
 * passed to {@link #onCallbackError}; the stack thread goes on, and so do the other callbacks.
 */
public interface Callbacks {

    /**
     * A complete message arrived (all its fragments reassembled), in delivery order: in sequence
     * per stream for ordered messages, as soon as complete for unordered ones. Fires once per
     * message, as soon as the packet completing it has been processed. The callee owns {@code
     * message.data()}. A message delivered in parts comes to {@link #onMessagePart} instead, or,
     * when that returns false, here once whole after its last part.
     */
    void onMessage(CallbackSocket socket, SctpEvent.MessageReceived message);

    /**
     * The receive callback without a copy: a complete message, seen in place in the packet that
     * completed it. {@code data} (position to limit) is read-only and valid only during the call;
     * copy what you keep. Fires for every complete message, in order with the other callbacks,
     * once the packet completing it has been processed; {@link #onMessage} alone is called for a
     * message the socket gathered from parts (see {@link #onMessagePart}).
     *
     * <p>The default copies the message and calls {@link #onMessage}; override it (and keep
     * {@link #onMessage} for gathered messages) for a receive path that allocates nothing per
     * message.
     */
    default void onMessage(
            CallbackSocket socket,
            AssociationId association,
            int streamId,
            int ppid,
            boolean unordered,
            java.nio.ByteBuffer data) {
        byte[] copy = new byte[data.remaining()];
        data.get(data.position(), copy);
        onMessage(socket, new SctpEvent.MessageReceived(association, streamId, ppid, unordered, copy));
    }

    /**
     * One part of a message delivered in parts (partial delivery, RFC 9260 section 6.9): a message
     * whose bytes reached the {@linkplain org.sctpj.stack.SctpOptions#partialDeliveryPoint() partial
     * delivery point} (RFC 6458 SCTP_PARTIAL_DELIVERY_POINT) before it was complete, or would not
     * fit in the receive buffer, is handed over as it arrives, so that any message size passes
     * through a receive buffer of any size. Fires on the stack thread once per part, as soon as
     * the packet that brought the part's bytes has been processed, in delivery order with the other
     * callbacks: the first part where the whole message would have come, then the others in order,
     * {@code part.last()} true on the final one. {@code part.streamId()} and {@code part.ppid()}
     * are the message's. While a message is delivered in parts no other message of its stream
     * arrives; messages of other streams may come between its parts, so put parts together per
     * stream. If the association ends or restarts before the last part, {@link
     * #onPartialDeliveryAborted} says so. The callee owns {@code part.data()}.
     *
     * <p>Return true when you took the part. The default returns false: the socket then gathers
     * this and the message's following parts itself (without calling this method again for it)
     * and calls {@link #onMessage} once with the whole message after the last part, which keeps
     * the whole message in memory; override to handle parts as they come.
     *
     * @return whether the part was taken; false lets the socket gather the message
     */
    default boolean onMessagePart(CallbackSocket socket, SctpEvent.MessagePart part) {
        return false;
    }

    /**
     * A message was being delivered in parts ({@link #onMessagePart}) and its last part will
     * never come (RFC 6458 section 6.1.7, SCTP_PARTIAL_DELIVERY_EVENT with
     * SCTP_PARTIAL_DELIVERY_ABORTED): the association ended (ABORT, peer unreachable) or the peer
     * restarted it. Discard the parts already received. Fires on the stack thread, before the
     * {@link #onAssociationChange} that reports the end or the restart. A message the socket was
     * gathering for {@link #onMessage} is dropped, and this fires for it too.
     */
    default void onPartialDeliveryAborted(CallbackSocket socket, SctpEvent.PartialDeliveryAborted event) {}

    /**
     * The send callback: a SACK freed space in the association's send buffer and the free space
     * reached the socket's {@linkplain CallbackSocket#setSendThreshold send threshold} (threshold
     * 0: after every SACK that frees space); the protocol core, which keeps the send buffer's
     * account, decides. {@code freeBytes} is the core's free space when the callback runs (at
     * least the threshold, unless a callback before it in the same batch sent); {@link
     * CallbackSocket#sendBufferFree} tells what {@link CallbackSocket#send} can take, which also
     * counts messages other threads handed over and the core has not taken yet. Fires after the
     * SACK's packet has been processed, before the thread waits again.
     */
    default void onSendSpace(CallbackSocket socket, AssociationId association, long freeBytes) {}

    /**
     * An association changed state: COMMUNICATION_UP (after {@link CallbackSocket#connect}, or
     * when a peer's association to a listening socket is accepted: its first appearance), RESTART,
     * COMMUNICATION_LOST, SHUTDOWN_COMPLETE or CANT_START (the last three end it: its id is
     * closed). Fires as the state changes.
     */
    default void onAssociationChange(CallbackSocket socket, SctpEvent.AssociationChange change) {}

    /** A peer address became available, unreachable, confirmed or primary. */
    default void onPeerAddressChange(CallbackSocket socket, SctpEvent.PeerAddressChange change) {}

    /**
     * The peer started a graceful shutdown: no more data will arrive and {@link
     * CallbackSocket#send} is refused from now on. SHUTDOWN_COMPLETE follows as an {@link
     * #onAssociationChange}.
     */
    default void onShutdown(CallbackSocket socket, SctpEvent.ShutdownReceived event) {}

    /**
     * A message accepted by {@link CallbackSocket#send} will not be delivered (RFC 6458 section
     * 6.1.11): the association ended before the peer acknowledged it, or it ended between an
     * accepted send from another thread and the stack thread taking the message ({@code
     * partiallySent} false then), or its partial reliability policy abandoned it ({@link
     * SctpEvent.SendFailed#abandoned()}, the policy in {@link SctpEvent.SendFailed#reason()}; see
     * {@link org.sctpj.stack.PrPolicy}). The message's bytes are handed back, with whether some of
     * it was put on the wire ({@code partiallySent}: SCTP_DATA_SENT, else SCTP_DATA_UNSENT). Runs
     * on the socket's stack thread, after the call (a send, a received SACK, a timer) in which the
     * sender gave it up.
     */
    default void onSendFailed(CallbackSocket socket, SctpEvent.SendFailed failed) {}

    /** The peer reported an error in an ERROR chunk. */
    default void onRemoteError(CallbackSocket socket, SctpEvent.RemoteError error) {}

    /** Everything sent on the association has been acknowledged and nothing waits. */
    default void onSenderDry(CallbackSocket socket, AssociationId association) {}

    /**
     * The peer announced an Adaptation Layer Indication (RFC 5061 section 4.2.6, RFC 6458 section
     * 6.1.6); called right after {@link #onAssociationChange} reported the association up or
     * restarted. Set ours with {@link org.sctpj.stack.SctpOptions.Builder#adaptationIndication}.
     */
    default void onAdaptationIndication(CallbackSocket socket, SctpEvent.AdaptationIndication indication) {}

    /**
     * Streams were reset, or a reset was refused (RFC 6525 section 6.1.1): our outgoing streams
     * after the peer answered {@link CallbackSocket#resetStreams} (or a reset the peer asked for),
     * the peer's when its reset was performed here (every message of the old numbering was
     * delivered before this callback). Fires on the stack thread, after the packet that brought
     * the answer or the request was processed.
     */
    default void onStreamReset(CallbackSocket socket, SctpEvent.StreamReset reset) {}

    /**
     * The association's TSNs and SSNs were reset, or such a reset was refused (RFC 6525 section
     * 6.1.2), after {@link CallbackSocket#resetAssociation} or the peer's request. Fires on the
     * stack thread, after the packet that brought the answer or the request was processed.
     */
    default void onAssociationReset(CallbackSocket socket, SctpEvent.AssociationReset reset) {}

    /**
     * The association's stream counts changed, or an addition was refused (RFC 6525 section
     * 6.1.3), after {@link CallbackSocket#addStreams} or the peer's request. Fires on the stack
     * thread, after the packet that brought the answer or the request was processed.
     */
    default void onStreamChange(CallbackSocket socket, SctpEvent.StreamChange change) {}

    /**
     * An authentication event (RFC 6458 section 6.1.8, SCTP_AUTHENTICATION_EVENT) of an
     * association that offered AUTH (RFC 4895): the peer switched to a new key (NEW_KEY), a key
     * deactivated with {@link CallbackSocket#deactivateAuthKey} is no longer used and may be
     * deleted (FREE_KEY), or the peer does not support AUTH (NO_AUTH, right after {@link
     * #onAssociationChange} reported the association up). Fires on the stack thread.
     */
    default void onAuthentication(CallbackSocket socket, SctpEvent.Authentication event) {}

    /**
     * The peer answered a change of one of our addresses (RFC 5061): {@link
     * CallbackSocket#addLocalAddress} (ADDED: the association now sends from it too, or
     * ADD_FAILED), {@link CallbackSocket#removeLocalAddress} (REMOVED or REMOVE_FAILED) or {@link
     * CallbackSocket#setPeerPrimary} (MADE_PRIMARY or SET_PRIMARY_FAILED), with the peer's error
     * causes when it refused. Fires on the stack thread, once per association and request.
     */
    default void onLocalAddressChange(CallbackSocket socket, SctpEvent.LocalAddressChange change) {}

    /**
     * Path MTU discovery ({@link org.sctpj.stack.SctpOptions#pmtuDiscovery()}, RFC 8899) changed a
     * path's MTU: a probe confirmed a larger size, an ICMP Packet Too Big reported a smaller one,
     * or a black hole took it back to 1200 bytes ({@link SctpEvent.PathMtuChange#reason()}). Fires
     * on the socket's stack thread, after the packet or timer that changed it was processed;
     * messages sent from then on are cut for the new size.
     */
    default void onPathMtuChange(CallbackSocket socket, SctpEvent.PathMtuChange change) {}

    /**
     * The peer echoed a Congestion Experienced mark (ECN, RFC 9260 appendix A, on associations that
     * negotiated {@link org.sctpj.stack.Extension#ECN}) and the congestion window of the path went
     * down, from {@link SctpEvent.EcnCongestion#cwndBefore()} to {@link
     * SctpEvent.EcnCongestion#cwndAfter()}; at most once per window of data. Fires on the socket's
     * stack thread, after the packet that carried the echo was processed.
     */
    default void onEcnCongestion(CallbackSocket socket, SctpEvent.EcnCongestion congestion) {}

    /** The socket was closed and its lower layer released; the last callback of the socket. */
    default void onClosed(CallbackSocket socket) {}

    /**
     * Another callback of this socket threw {@code error}.
     *
     * @return true if handled; false (the default) passes it to the stack thread's {@link
     *     org.sctpj.timers.ErrorReporter}
     */
    default boolean onCallbackError(CallbackSocket socket, Throwable error) {
        return false;
    }
}
