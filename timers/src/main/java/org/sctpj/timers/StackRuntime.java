package org.sctpj.timers;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A set of {@link StackThread}s (shards) sharing the work of many endpoints: each new endpoint
 * goes to the next shard, round robin, and stays there. Use one shard per core you give to
 * networking; one is enough for most programs.
 */
public final class StackRuntime implements AutoCloseable {

    private final List<StackThread> threads;
    private final AtomicInteger next = new AtomicInteger();

    private StackRuntime(List<StackThread> threads) {
        this.threads = List.copyOf(threads);
    }

    /**
     * Starts {@code shards} stack threads with these settings (thread names get {@code -0},
     * {@code -1}, ... appended).
     */
    public static StackRuntime start(int shards, StackConfig config) {
        if (shards < 1 || shards > 1024) {
            throw new IllegalArgumentException("shards must be 1..1024, was " + shards);
        }
        List<StackThread> ts = new ArrayList<>();
        for (int i = 0; i < shards; i++) {
            StackThread t = new StackThread(config.withName(config.name() + "-" + i));
            t.start();
            ts.add(t);
        }
        return new StackRuntime(ts);
    }

    /** One shard with {@link StackConfig#DEFAULT}. */
    public static StackRuntime start() {
        return start(1, StackConfig.DEFAULT);
    }

    /** The shard for the next endpoint (round robin). Callable from any thread. */
    public StackThread next() {
        return threads.get(Math.floorMod(next.getAndIncrement(), threads.size()));
    }

    /** The shards. */
    public List<StackThread> threads() {
        return threads;
    }

    /** Errors caught by all shards so far. */
    public long errorCount() {
        long n = 0;
        for (StackThread t : threads) {
            n += t.errorCount();
        }
        return n;
    }

    /** Closes every shard abortively and waits for them ({@link StackThread#close()}). */
    @Override
    public void close() {
        close(false, 0);
    }

    /**
     * Closes every shard ({@link StackThread#close(boolean, long)}), in parallel, and waits, unless
     * called on one of the shards (then it only starts the close).
     */
    public void close(boolean graceful, long lingerNanos) {
        for (StackThread t : threads) {
            if (t.isStackThread()) {
                for (StackThread u : threads) {
                    new Thread(() -> u.close(graceful, lingerNanos), u.name() + "-closer").start();
                }
                return;
            }
        }
        List<Thread> closers = new ArrayList<>();
        for (StackThread t : threads) {
            Thread c = new Thread(() -> t.close(graceful, lingerNanos), t.name() + "-closer");
            c.start();
            closers.add(c);
        }
        boolean interrupted = false;
        for (Thread c : closers) {
            while (c.isAlive()) {
                try {
                    c.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
