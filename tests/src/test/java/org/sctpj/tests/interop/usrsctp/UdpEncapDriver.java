package org.sctpj.tests.interop.usrsctp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.Transmit;

/**
 * A minimal owner of one {@link Endpoint} over UDP encapsulation (RFC 6951) on one {@link
 * DatagramChannel}, driven in the test's thread following the endpoint's calling contract: feed
 * datagrams and timeouts, drain transmits and events, sleep in a selector until the next deadline.
 * A stand-in until {@code org.sctpj.llp.udp.UdpEncapsulation} (module llp-udp-encap) lands.
 *
 * <p>The peer's UDP port is learned per peer address from the datagrams that arrive (RFC 6951
 * section 5.4); before any arrives, packets go to {@code defaultRemoteUdpPort}.
 */
final class UdpEncapDriver implements AutoCloseable {

    private final Endpoint endpoint;
    private final DatagramChannel channel;
    private final Selector selector;
    private final InetAddress localAddress;
    private final int defaultRemoteUdpPort;
    private final Map<InetAddress, Integer> remoteUdpPorts = new HashMap<>();
    private final ByteBuffer rx = ByteBuffer.allocate(65536);
    private final long origin = System.nanoTime();
    private long datagramsIn;
    private long datagramsOut;

    private UdpEncapDriver(InetAddress local, int udpPort, int sctpPort, SctpOptions options, int defaultRemoteUdpPort)
            throws IOException {
        this.localAddress = local;
        this.defaultRemoteUdpPort = defaultRemoteUdpPort;
        this.channel = DatagramChannel.open();
        channel.bind(new InetSocketAddress(local, udpPort));
        channel.configureBlocking(false);
        this.selector = Selector.open();
        channel.register(selector, SelectionKey.OP_READ);
        SctpOptions o = options.toBuilder().encapsulationOverhead(8).build();
        this.endpoint = new Endpoint(sctpPort, List.of(local), o, new SecureRandom(), now());
    }

    /**
     * Opens the UDP socket on {@code local:udpPort} (0: any free port) and an endpoint on {@code
     * sctpPort}.
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
        try {
            return ((InetSocketAddress) channel.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The endpoint's clock: monotonic nanoseconds, positive. */
    long now() {
        return System.nanoTime() - origin + 1;
    }

    /** Datagrams received and sent so far. */
    String counters() {
        return "datagrams in " + datagramsIn + ", out " + datagramsOut + ", endpoint " + endpoint.stats();
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
            long waitMs = Math.min(20, Math.max(0, (wake - now + 999_999) / 1_000_000));
            if (waitMs == 0) {
                selector.selectNow();
            } else {
                selector.select(waitMs);
            }
            selector.selectedKeys().clear();
            receiveAll();
            now = now();
            if (endpoint.nextTimeout() <= now) {
                endpoint.handleTimeout(now);
            }
        }
    }

    private void receiveAll() throws IOException {
        for (; ; ) {
            rx.clear();
            SocketAddress from = channel.receive(rx);
            if (from == null) {
                return;
            }
            datagramsIn++;
            rx.flip();
            InetSocketAddress f = (InetSocketAddress) from;
            remoteUdpPorts.put(f.getAddress(), f.getPort());
            endpoint.handleInput(rx, f.getAddress(), localAddress, now());
        }
    }

    private void flush(Consumer<SctpEvent> onEvent) throws IOException {
        boolean more = true;
        while (more) {
            more = false;
            long now = now();
            for (Optional<Transmit> t = endpoint.pollTransmit(now); t.isPresent(); t = endpoint.pollTransmit(now)) {
                int port = remoteUdpPorts.getOrDefault(t.get().destination(), defaultRemoteUdpPort);
                channel.send(
                        ByteBuffer.wrap(t.get().packet()),
                        new InetSocketAddress(t.get().destination(), port));
                datagramsOut++;
                more = true;
            }
            for (Optional<SctpEvent> e = endpoint.pollEvent(); e.isPresent(); e = endpoint.pollEvent()) {
                onEvent.accept(e.get());
                more = true;
            }
        }
    }

    @Override
    public void close() throws IOException {
        try {
            selector.close();
        } finally {
            channel.close();
        }
    }
}
