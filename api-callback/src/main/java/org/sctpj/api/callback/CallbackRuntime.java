package org.sctpj.api.callback;

import java.util.Objects;
import org.sctpj.stack.SctpOptions;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * The threads callback sockets run on. By default each socket opened here is driven by one of
 * them (round robin), and its callbacks run there. With {@link #withShardsPerSocket} a socket's
 * associations are spread over several of them (shards, issue 15): each association stays on one
 * thread for its whole life and its callbacks run there, and the socket's one port and lower
 * layer are shared ({@link CallbackSocket#open(java.util.List, SctpOptions, LowerLayerFactory,
 * Callbacks)}). For code built on this API (the socket API among it) that opens sockets without
 * handling the stack threads itself; code that configures the threads (idle strategy, error
 * reporter, ...) starts a {@link StackRuntime} and wraps it with {@link #of}.
 *
 * <p>All methods may be called from any thread.
 */
public final class CallbackRuntime implements AutoCloseable {

    /**
     * The shard count {@link #sharded} starts with: one per two cores (at least one). On the
     * two-core machine of PERFORMANCE.md ("Scale") two shards did not beat one, since the lower
     * layer's work and the application's own thread need the second core; on more cores each
     * shard adds a core's worth of associations' work.
     */
    public static final int DEFAULT_SHARDS = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);

    private final StackRuntime runtime;
    private final int shardsPerSocket;

    private CallbackRuntime(StackRuntime runtime, int shardsPerSocket) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        if (shardsPerSocket < 1 || shardsPerSocket > runtime.threads().size()) {
            throw new IllegalArgumentException("shards per socket must be 1.."
                    + runtime.threads().size() + " (the runtime's threads), was " + shardsPerSocket);
        }
        this.shardsPerSocket = shardsPerSocket;
    }

    /**
     * Starts {@code threads} daemon threads with the default settings, named {@code name-0},
     * {@code name-1}, ...
     *
     * @throws IllegalArgumentException for a thread count outside 1..1024
     */
    public static CallbackRuntime start(int threads, String name) {
        Objects.requireNonNull(name, "name");
        return new CallbackRuntime(StackRuntime.start(threads, StackConfig.DEFAULT.withName(name)), 1);
    }

    /**
     * Starts {@link #DEFAULT_SHARDS} daemon threads, and spreads the associations of every socket
     * opened here over all of them ({@link #withShardsPerSocket}).
     */
    public static CallbackRuntime sharded(String name) {
        return start(DEFAULT_SHARDS, name).withShardsPerSocket(DEFAULT_SHARDS);
    }

    /** Sockets on the threads of {@code runtime}, shared with whoever else uses it. */
    public static CallbackRuntime of(StackRuntime runtime) {
        return new CallbackRuntime(runtime, 1);
    }

    /**
     * The same threads, opening sockets whose associations are spread over {@code shards} of them
     * (1: each socket on one thread, the default). A socket's shards are consecutive threads of the
     * runtime, starting at the next one round robin.
     *
     * @throws IllegalArgumentException for a count outside 1..the runtime's threads
     */
    public CallbackRuntime withShardsPerSocket(int shards) {
        return new CallbackRuntime(runtime, shards);
    }

    /** The threads each socket opened here spreads its associations over. */
    public int shardsPerSocket() {
        return shardsPerSocket;
    }

    /**
     * A new, unbound socket on the next thread: {@link CallbackSocket#open(StackRuntime,
     * SctpOptions, LowerLayerFactory, Callbacks)}; with several shards per socket, on that thread
     * and the ones after it.
     */
    public CallbackSocket open(SctpOptions options, LowerLayerFactory layers, Callbacks callbacks) {
        if (shardsPerSocket == 1) {
            return CallbackSocket.open(runtime, options, layers, callbacks);
        }
        java.util.List<org.sctpj.timers.StackThread> all = runtime.threads();
        int first = all.indexOf(runtime.next());
        java.util.List<org.sctpj.timers.StackThread> mine = new java.util.ArrayList<>();
        for (int k = 0; k < shardsPerSocket; k++) {
            mine.add(all.get((first + k) % all.size()));
        }
        return CallbackSocket.open(mine, options, layers, callbacks);
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
