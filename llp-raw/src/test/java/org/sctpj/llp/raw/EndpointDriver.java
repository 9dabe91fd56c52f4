package org.sctpj.llp.raw;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.Transmit;
import org.sctpj.stack.llp.LowerLayer;

/**
 * A minimal driver of an {@link Endpoint} over a real {@link LowerLayer}, following the calling
 * contract in the Endpoint's Javadoc on a thread of its own: receive, run due timers, run queued
 * user commands, drain transmits and events, then await input until the next deadline.
 */
final class EndpointDriver implements AutoCloseable {
    private static final long MAX_WAIT_NANOS = 50_000_000L;

    private final Endpoint endpoint;
    private final LowerLayer llp;
    private final Consumer<SctpEvent> onEvent;
    private final long origin;
    private final ConcurrentLinkedQueue<Consumer<Endpoint>> commands = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile boolean stop;
    private volatile Throwable failure;
    private long now;

    /**
     * @param onEvent runs on the driver thread for each event; it may call the endpoint with
     *     {@link #now()}
     */
    EndpointDriver(String name, Endpoint endpoint, LowerLayer llp, long origin, Consumer<SctpEvent> onEvent) {
        this.endpoint = endpoint;
        this.llp = llp;
        this.origin = origin;
        this.onEvent = onEvent;
        this.thread = new Thread(this::run, name);
        thread.setDaemon(true);
    }

    EndpointDriver start() {
        thread.start();
        return this;
    }

    /** The time of the current loop turn (driver thread only). */
    long now() {
        return now;
    }

    /** Runs {@code command} on the driver thread. */
    void execute(Consumer<Endpoint> command) {
        commands.add(command);
        llp.wakeup();
    }

    /** What went wrong on the driver thread, if anything. */
    Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    private void run() {
        LowerLayer.PacketSink sink = new LowerLayer.PacketSink() {
            @Override
            public void packet(ByteBuffer b, InetAddress from, InetAddress to) {
                endpoint.handleInput(b, from, to, now);
            }

            @Override
            public void icmp(org.sctpj.stack.icmp.IcmpReport report) {
                endpoint.handleIcmp(report, now);
            }
        };
        try {
            while (!stop) {
                now = System.nanoTime() - origin;
                llp.receive(sink, 64);
                if (endpoint.nextTimeout() <= now) {
                    endpoint.handleTimeout(now);
                }
                Consumer<Endpoint> c;
                while ((c = commands.poll()) != null) {
                    c.accept(endpoint);
                }
                drain();
                long next = endpoint.nextTimeout();
                long wait = next == Long.MAX_VALUE
                        ? MAX_WAIT_NANOS
                        : Math.max(0, Math.min(MAX_WAIT_NANOS, next - (System.nanoTime() - origin)));
                llp.await(wait);
            }
        } catch (Throwable t) {
            failure = t;
        }
    }

    private void drain() throws IOException {
        boolean any = true;
        while (any) {
            any = false;
            Optional<Transmit> t;
            while ((t = endpoint.pollTransmit(now)).isPresent()) {
                Transmit x = t.get();
                llp.send(ByteBuffer.wrap(x.packet()), x.source(), x.destination());
                any = true;
            }
            llp.flush();
            Optional<SctpEvent> e;
            while ((e = endpoint.pollEvent()).isPresent()) {
                onEvent.accept(e.get());
                any = true;
            }
        }
    }

    /** Stops the thread and waits for it. */
    @Override
    public void close() throws InterruptedException {
        stop = true;
        llp.wakeup();
        thread.join(10_000);
    }
}
