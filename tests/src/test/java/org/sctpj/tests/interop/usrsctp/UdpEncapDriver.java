package org.sctpj.tests.interop.usrsctp;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.sctpj.llp.udp.UdpConfig;
import org.sctpj.llp.udp.UdpEncapsulation;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.Transmit;

/**
 * A minimal owner of one {@link Endpoint} over {@link UdpEncapsulation} (RFC 6951, module
 * llp-udp-encap), driven in the test's thread following the endpoint's calling contract: feed
 * packets and timeouts, drain transmits and events, wait in the lower layer until the next
 * deadline. The peer's UDP port is learned by the lower layer from the datagrams that arrive;
 * before any, packets go to the default remote port given here.
 */
final class UdpEncapDriver implements AutoCloseable {

    private final Endpoint endpoint;
    private final UdpEncapsulation udp;
    private final long origin = System.nanoTime();

    private UdpEncapDriver(InetAddress local, int udpPort, int sctpPort, SctpOptions options, int remoteUdpPort)
            throws IOException {
        UdpConfig.Builder cfg = UdpConfig.builder().bind(local).localPort(udpPort);
        if (remoteUdpPort > 0) {
            cfg.defaultRemotePort(remoteUdpPort);
        }
        this.udp = UdpEncapsulation.open(cfg.build());
        SctpOptions o = options.toBuilder()
                .encapsulationOverhead(udp.encapsulationOverhead())
                .build();
        this.endpoint = new Endpoint(sctpPort, List.of(local), o, new SecureRandom(), now());
    }

    /**
     * Opens the UDP socket on {@code local:udpPort} (0: any free port) and an endpoint on {@code
     * sctpPort}; {@code remoteUdpPort} is where packets go before the peer's port is learned (0:
     * the lower layer's default, 9899).
     */
    static UdpEncapDriver open(InetAddress local, int udpPort, int sctpPort, SctpOptions options, int remoteUdpPort)
            throws IOException {
        return new UdpEncapDriver(local, udpPort, sctpPort, options, remoteUdpPort);
    }

    /** The endpoint (call it only from the thread that runs {@link #runUntil}). */
    Endpoint endpoint() {
        return endpoint;
    }

    /** The local UDP port. */
    int udpPort() {
        return udp.localPort();
    }

    /** The endpoint's clock: monotonic nanoseconds, positive. */
    long now() {
        return System.nanoTime() - origin + 1;
    }

    /** Sees each inbound SCTP packet (a duplicate: position and limit are its own) before the endpoint. */
    private Consumer<ByteBuffer> inbound = b -> {};

    /** Sets who sees each inbound SCTP packet before the endpoint takes it (on the runUntil thread). */
    void onInbound(Consumer<ByteBuffer> l) {
        inbound = l;
    }

    /** Counters of the lower layer and the endpoint, for failure messages. */
    String counters() {
        return "udp " + udp.stats() + ", endpoint " + endpoint.stats();
    }

    /**
     * Runs the endpoint until {@code done} is true (checked after each round) or {@code timeout}
     * passes; returns whether {@code done} became true. Events go to {@code onEvent}, which may
     * call the endpoint's commands (the resulting packets are sent in the same round).
     */
    boolean runUntil(BooleanSupplier done, Duration timeout, Consumer<SctpEvent> onEvent) throws IOException {
        long deadline = now() + timeout.toNanos();
        for (; ; ) {
            flush(onEvent);
            if (done.getAsBoolean()) {
                return true;
            }
            long now = now();
            if (now >= deadline) {
                return false;
            }
            long wake = Math.min(deadline, endpoint.nextTimeout());
            udp.await(Math.max(0, Math.min(wake - now, 20_000_000L)));
            while (udp.receive(
                            (sctp, from, to) -> {
                                inbound.accept(sctp.duplicate());
                                endpoint.handleInput(sctp, from, to, now());
                            },
                            Integer.MAX_VALUE)
                    > 0) {
                flush(onEvent);
            }
            now = now();
            if (endpoint.nextTimeout() <= now) {
                endpoint.handleTimeout(now);
            }
        }
    }

    private void flush(Consumer<SctpEvent> onEvent) throws IOException {
        boolean more = true;
        while (more) {
            more = false;
            long now = now();
            for (Optional<Transmit> t = endpoint.pollTransmit(now); t.isPresent(); t = endpoint.pollTransmit(now)) {
                udp.send(
                        ByteBuffer.wrap(t.get().packet()),
                        t.get().source(),
                        t.get().destination());
                more = true;
            }
            udp.flush();
            for (Optional<SctpEvent> e = endpoint.pollEvent(); e.isPresent(); e = endpoint.pollEvent()) {
                onEvent.accept(e.get());
                more = true;
            }
        }
    }

    @Override
    public void close() throws IOException {
        udp.close();
    }
}
