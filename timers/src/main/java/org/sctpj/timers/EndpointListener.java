package org.sctpj.timers;

import java.nio.ByteBuffer;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;

/**
 * Receives what an endpoint driven by a {@link StackThread} produces. Every method runs on that
 * stack thread, at the end of an endpoint call (a packet processed, timers run, a command done),
 * never in the middle of a packet: the thread forwards the endpoint's deferred hand-out (see
 * {@link org.sctpj.stack.EventHandler}). A method that throws is reported to the thread's {@link
 * ErrorReporter} and the thread goes on, and so does the rest of the hand-out.
 */
public interface EndpointListener {

    /**
     * The endpoint emitted an event (a notification, or a message the default {@link #onMessage}
     * copied), in the endpoint's order. Any handle's endpoint may be called from here (e.g. to
     * send): what that produces for the listener comes after what was already waiting, and what
     * it transmits is sent before the thread waits again.
     */
    void onEvent(EndpointHandle handle, SctpEvent event);

    /**
     * A complete message, in order with the events, seen in place: {@code data} (position to
     * limit) is a read-only view, usually of the received packet, valid only during the call; copy
     * what you keep. The default copies it into a {@link SctpEvent.MessageReceived} for {@link
     * #onEvent}.
     */
    default void onMessage(
            EndpointHandle handle,
            AssociationId association,
            int streamId,
            int ppid,
            boolean unordered,
            ByteBuffer data) {
        byte[] copy = new byte[data.remaining()];
        data.get(data.position(), copy);
        onEvent(handle, new SctpEvent.MessageReceived(association, streamId, ppid, unordered, copy));
    }

    /**
     * The association's free send-buffer space grew during the endpoint call (a SACK freed space,
     * whether or not it reached the send threshold); {@code freeBytes} is the core's figure now.
     * After the call's events. For publishing the core's figure to other threads; by default
     * nothing.
     */
    default void onSendBufferFreed(EndpointHandle handle, AssociationId association, long freeBytes) {}

    /**
     * The handle was closed (its associations shut down or aborted and its lower layer closed),
     * after {@link EndpointHandle#close} or the thread's close.
     */
    default void onClosed(EndpointHandle handle) {}
}
