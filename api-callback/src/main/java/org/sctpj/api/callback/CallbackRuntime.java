package org.sctpj.api.callback;

import java.util.Objects;
import org.sctpj.stack.SctpOptions;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * The threads callback sockets run on: each socket opened here is driven by one of them (round
 * robin), and its callbacks run there. For code built on this API (the socket API among it) that
 * opens sockets without handling the stack threads itself; code that configures the threads (idle
 * strategy, error reporter, ...) starts a {@link StackRuntime} and wraps it with {@link #of}.
 *
 * <p>All methods may be called from any thread.
 */
public final class CallbackRuntime implements AutoCloseable {

    private final StackRuntime runtime;

    private CallbackRuntime(StackRuntime runtime) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
    }

    /**
     * Starts {@code threads} daemon threads with the default settings, named {@code name-0},
     * {@code name-1}, ...
     *
     * @throws IllegalArgumentException for a thread count outside 1..1024
     */
    public static CallbackRuntime start(int threads, String name) {
        Objects.requireNonNull(name, "name");
        return new CallbackRuntime(StackRuntime.start(threads, StackConfig.DEFAULT.withName(name)));
    }

    /** Sockets on the threads of {@code runtime}, shared with whoever else uses it. */
    public static CallbackRuntime of(StackRuntime runtime) {
        return new CallbackRuntime(runtime);
    }

    /**
     * A new, unbound socket on the next thread: {@link CallbackSocket#open(StackRuntime,
     * SctpOptions, LowerLayerFactory, Callbacks)}.
     */
    public CallbackSocket open(SctpOptions options, LowerLayerFactory layers, Callbacks callbacks) {
        return CallbackSocket.open(runtime, options, layers, callbacks);
    }

    /** The stack threads underneath. */
    public StackRuntime stackRuntime() {
        return runtime;
    }

    /**
     * Closes the threads ({@link StackRuntime#close()}, the runtime given to {@link #of} too): every
     * socket on them is closed abortively. Waits for them unless called on one of them.
     */
    @Override
    public void close() {
        runtime.close();
    }
}
