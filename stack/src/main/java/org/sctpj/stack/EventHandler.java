package org.sctpj.stack;

import java.nio.ByteBuffer;

/**
 * Receives everything an {@link Endpoint} produces for its user, in order: notifications as
 * {@link SctpEvent}s, and received messages seen in place (without the copy and the event object
 * of {@link SctpEvent.MessageReceived}). Install one with {@link Endpoint#setEventHandler}; without
 * one, the same sequence is kept for {@link Endpoint#pollEvent()}.
 *
 * <h2>When and on which thread</h2>
 *
 * <p>Every method runs on the endpoint's owner thread (the thread that makes the endpoint's calls),
 * at the end of an endpoint call ({@link Endpoint#handleInput}, {@link Endpoint#handleTimeout},
 * {@link Endpoint#connect}, {@link Endpoint#send}, {@link Endpoint#shutdown}, {@link
 * Endpoint#abort}, ...): after the core has finished that call's work (for {@code handleInput}:
 * the whole packet has been processed and acknowledged), before the call returns. Nothing of the
 * handler runs in the middle of a packet, so the association it sees is in a consistent state.
 *
 * <p>The handler may call the endpoint again (send, shut down, abort, ...). Such a nested call does
 * its own work at once, but what it produces is appended to the same sequence and handed out by
 * the same loop after what was already waiting: the handler is never re-entered from inside
 * itself, and nothing is reordered. The packets nested calls make come out of the next {@link
 * Endpoint#pollTransmit}.
 *
 * <p>If a method throws, the rest of the sequence is still handed out; then the first exception
 * (with the later ones suppressed) is thrown out of the endpoint call.
 */
public interface EventHandler {

    /**
     * A notification (anything but a complete message seen in place: association and address
     * changes, parts of a message delivered in parts, send-space and sender-dry events, returned
     * messages, ...), in the endpoint's order.
     */
    void onEvent(SctpEvent event);

    /**
     * A complete message, in order with the events. {@code data} (position to limit) is a
     * read-only view that is valid only during the call: usually the received packet itself,
     * which the endpoint's caller still holds since {@link Endpoint#handleInput} has not returned
     * yet. Copy what you keep.
     *
     * <p>The default copies the message into a {@link SctpEvent.MessageReceived} for {@link
     * #onEvent}; override it for a receive path that allocates nothing per message.
     *
     * @param association the association it arrived on
     * @param streamId the stream it was sent on
     * @param ppid its Payload Protocol Identifier
     * @param unordered whether it was sent unordered
     * @param data the message, from position to limit, valid only during the call
     */
    default void onMessage(AssociationId association, int streamId, int ppid, boolean unordered, ByteBuffer data) {
        byte[] copy = new byte[data.remaining()];
        data.get(data.position(), copy);
        onEvent(new SctpEvent.MessageReceived(association, streamId, ppid, unordered, copy));
    }

    /**
     * The association's free send-buffer space grew during the endpoint call (a SACK freed
     * space), whether or not it reached the association's send threshold; {@code freeBytes} is the
     * core's figure ({@link Endpoint#sendBufferFree}) at the time of this call. Called once per
     * association and call, after the call's events and messages. For a driver that publishes the
     * core's figure to other threads (the callback API does); the default does nothing. The
     * threshold notification itself is the {@link SctpEvent.SendSpaceAvailable} event.
     */
    default void onSendBufferFreed(AssociationId association, long freeBytes) {}
}
