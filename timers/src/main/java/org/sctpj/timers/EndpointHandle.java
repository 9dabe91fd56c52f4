package org.sctpj.timers;

import java.util.Objects;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.llp.LowerLayer;

/**
 * An endpoint, its lower layer and its listener, owned by one {@link StackThread}. Created by
 * {@link StackThread#register}; the thread feeds the endpoint the packets the lower layer
 * receives, runs its timers through the thread's {@link TimerWheel}, sends what it transmits and
 * hands its events to the listener.
 *
 * <p>{@link #endpoint()} may be used on the stack thread only (inside a listener callback or a
 * command given to {@link #execute}); every use marks the handle so that the packets and events
 * it produces are drained before the thread waits again. The other methods work from any thread.
 */
public final class EndpointHandle {

    final StackThread thread;
    final Endpoint endpoint;
    final LowerLayer layer;
    final EndpointListener listener;
    int slot = -1;
    long timerId = TimerWheel.NULL_TIMER;
    long deadline = Long.MAX_VALUE;
    boolean dirty;
    boolean registered;
    boolean closing;
    boolean closingGraceful;
    long lingerDeadline;
    volatile boolean closed;

    EndpointHandle(StackThread thread, Endpoint endpoint, LowerLayer layer, EndpointListener listener) {
        this.thread = thread;
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.layer = Objects.requireNonNull(layer, "layer");
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /**
     * The endpoint; call on the stack thread only. Marks the handle for draining.
     *
     * @throws IllegalStateException on any other thread
     */
    public Endpoint endpoint() {
        if (!thread.isStackThread()) {
            throw new IllegalStateException("the endpoint belongs to " + thread.name()
                    + ": use it inside a callback, or hand a command over with execute()");
        }
        dirty = true;
        return endpoint;
    }

    /** The lower layer carrying this endpoint's packets. */
    public LowerLayer lowerLayer() {
        return layer;
    }

    /** The stack thread that owns this endpoint. */
    public StackThread thread() {
        return thread;
    }

    /** True once the handle has been closed (its lower layer is closed). */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Runs {@code command} on the stack thread, after every command handed over before it from
     * the same thread; from the stack thread itself it is queued too (it runs on the next turn).
     * Commands given after the handle closed are dropped. Never blocks; lock-free.
     *
     * @throws IllegalStateException if the stack thread is closed
     */
    public void execute(Runnable command) {
        Objects.requireNonNull(command, "command");
        thread.execute(() -> {
            if (!closed && !closing) {
                dirty = true;
                command.run();
            }
        });
    }

    /**
     * Closes the endpoint from any thread: with {@code graceful}, shuts every association down
     * (RFC 9260 section 9.2) and waits up to {@code lingerNanos} for them to finish, then aborts
     * those left; otherwise aborts them at once. Then closes the lower layer and calls {@link
     * EndpointListener#onClosed}. Returns at once; does nothing if already closed or closing.
     */
    public void close(boolean graceful, long lingerNanos) {
        thread.executeInternal(() -> thread.beginClose(this, graceful, lingerNanos));
    }
}
