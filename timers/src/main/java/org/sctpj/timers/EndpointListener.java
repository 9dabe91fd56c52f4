package org.sctpj.timers;

import org.sctpj.stack.SctpEvent;

/**
 * Receives what an endpoint driven by a {@link StackThread} produces. Every method runs on that
 * stack thread. A method that throws is reported to the thread's {@link ErrorReporter} and the
 * thread goes on.
 */
public interface EndpointListener {

    /**
     * The endpoint emitted an event (a message, a notification), in the endpoint's order. Any
     * handle's endpoint may be called from here (e.g. to send): what that produces is sent before
     * the thread waits again.
     */
    void onEvent(EndpointHandle handle, SctpEvent event);

    /**
     * The handle was closed (its associations shut down or aborted and its lower layer closed),
     * after {@link EndpointHandle#close} or the thread's close.
     */
    default void onClosed(EndpointHandle handle) {}
}
