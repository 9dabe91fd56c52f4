package org.sctpj.stack;

import java.nio.ByteBuffer;

/**
 * Receives messages straight from the packets that complete them, without the copy and the event
 * object of {@link SctpEvent.MessageReceived}: set one with {@link Endpoint#setMessageHandler}.
 *
 * <p>It is called on the owner thread, from inside {@link Endpoint#handleInput} (or another
 * endpoint call that completes or flushes messages, such as {@link Endpoint#abort}), once per
 * message, in delivery order. It may call {@link Endpoint#send} (the packets it makes come out
 * of the next {@link Endpoint#pollTransmit}). While order-sensitive events (anything but {@link
 * SctpEvent.SendSpaceAvailable} and {@link SctpEvent.SenderDry}) wait to be polled, messages are
 * queued as {@link SctpEvent.MessageReceived} events instead, so that no message overtakes the
 * COMMUNICATION_UP before it or a notification queued before it; drain {@link
 * Endpoint#pollEvent()} after every call to keep messages on the direct path.
 *
 * <p>Parts of a message delivered in parts ({@link SctpEvent.MessagePart}, see {@link
 * SctpOptions#partialDeliveryPoint()}) never come here: they are events, and like other
 * order-sensitive events they send the messages after them to the event queue until polled.
 */
@FunctionalInterface
public interface MessageHandler {

    /**
     * One complete message.
     *
     * @param association the association it arrived on
     * @param streamId the stream it was sent on
     * @param ppid its Payload Protocol Identifier
     * @param unordered whether it was sent unordered
     * @param data the message, from position to limit: a read-only view that is valid only
     *     during the call (it usually shows the received packet itself); copy what you keep
     */
    void onMessage(AssociationId association, int streamId, int ppid, boolean unordered, ByteBuffer data);
}
