package org.sctpj.llp.udp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.Transmit;
import org.sctpj.stack.icmp.IcmpReport;
import org.sctpj.stack.llp.LowerLayer;

/**
 * A minimal stack thread for tests and the benchmark: one thread owns an {@link Endpoint} and a
 * {@link LowerLayer} and follows the Endpoint's calling contract (input, timeouts, commands, then
 * drain transmits and events, then sleep in {@link LowerLayer#await} until the next deadline). The
 * real stack thread lives in module {@code timers}; this one exists so that this module does not
 * depend on it.
 */
final class MiniDriver implements AutoCloseable {

    /** What runs on the driver thread: event handling and a hook called every turn. */
    interface App {
        /** One event from the endpoint. */
        void onEvent(MiniDriver d, SctpEvent e);

        /** Called every turn before the output is drained (for example to send more). */
        default void onTurn(MiniDriver d) {}
    }

    /** Longest sleep when no timer is pending, so that {@link #close()} is noticed. */
    private static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    final Endpoint endpoint;
    final LowerLayer llp;
    private final App app;
    private final ConcurrentLinkedQueue<Consumer<MiniDriver>> commands = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Throwable failure;
    private long now;

    MiniDriver(String name, Endpoint endpoint, LowerLayer llp, App app) {
        this.endpoint = endpoint;
        this.llp = llp;
        this.app = app;
        this.thread = new Thread(this::loop, name);
        thread.setDaemon(true);
    }

    MiniDriver start() {
        thread.start();
        return this;
    }

    /** The driver's current time (driver thread). */
    long now() {
        return now;
    }

    /** Runs {@code command} on the driver thread. */
    void submit(Consumer<MiniDriver> command) {
        commands.add(command);
        llp.wakeup();
    }

    /** The error that stopped the driver thread, if any. */
    Throwable failure() {
        return failure;
    }

    private void loop() {
        LowerLayer.PacketSink sink = new LowerLayer.PacketSink() {
            @Override
            public void packet(ByteBuffer buf, java.net.InetAddress from, java.net.InetAddress to) {
                endpoint.handleInput(buf, from, to, now);
            }

            @Override
            public void icmp(IcmpReport report) {
                endpoint.handleIcmp(report, now);
            }
        };
        try {
            while (running) {
                now = System.nanoTime();
                int n = llp.receive(sink, 64);
                if (now >= endpoint.nextTimeout()) {
                    endpoint.handleTimeout(now);
                }
                Consumer<MiniDriver> c;
                while ((c = commands.poll()) != null) {
                    c.accept(this);
                }
                flush();
                if (n == 0 && commands.isEmpty()) {
                    long next = endpoint.nextTimeout();
                    long wait = next == Long.MAX_VALUE ? IDLE_NANOS : Math.min(IDLE_NANOS, next - System.nanoTime());
                    if (wait > 0) {
                        llp.await(wait);
                    }
                }
            }
        } catch (Throwable t) {
            failure = t;
        }
    }

    private void flush() throws IOException {
        boolean again;
        do {
            again = false;
            app.onTurn(this);
            Optional<Transmit> t;
            while ((t = endpoint.pollTransmit(now)).isPresent()) {
                Transmit x = t.get();
                llp.send(ByteBuffer.wrap(x.packet()), x.source(), x.destination());
            }
            llp.flush();
            Optional<SctpEvent> e;
            while ((e = endpoint.pollEvent()).isPresent()) {
                app.onEvent(this, e.get());
                again = true;
            }
        } while (again);
    }

    @Override
    public void close() {
        running = false;
        llp.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            llp.close();
        } catch (Exception e) {
            throw new UncheckedIOException(new IOException(e));
        }
    }
}
