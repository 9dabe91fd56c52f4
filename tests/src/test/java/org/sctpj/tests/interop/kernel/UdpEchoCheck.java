package org.sctpj.tests.interop.kernel;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.sctpj.llp.udp.UdpConfig;
import org.sctpj.llp.udp.UdpEncapsulation;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.Transmit;
import org.sctpj.stack.llp.LowerLayer;

/**
 * An sctpj client over UDP encapsulation that runs inside the kernel VM's namespace (a separate
 * JVM, started by {@link KernelVmSmokeTest} through {@code ip netns exec}): connects to an echo
 * server, sends N messages on K streams, checks every echo (payload, stream, PPID, unordered flag,
 * order within the stream), shuts down gracefully, and prints one line: {@code ok ...} with
 * timings, or {@code err ...}. Exit code 0 on success.
 *
 * <p>It drives one {@link Endpoint} in the calling thread, following the Endpoint's calling
 * contract, over {@link UdpEncapsulation}.
 *
 * <p>Arguments: {@code LOCAL_ADDR PEER_ADDR PEER_SCTP_PORT MESSAGES STREAMS [UDP_PORT
 * [AUTH_CHUNKS]]}; with {@code AUTH_CHUNKS} (chunk types, comma-separated) the client offers AUTH
 * (RFC 4895) requiring those chunk types authenticated, and the {@code ok} line says {@code
 * auth=1} when the association used it.
 */
public final class UdpEchoCheck {

    private static final int LOCAL_SCTP_PORT = 5000;
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private final Endpoint endpoint;
    private final LowerLayer llp;
    private final int messages;
    private final int streams;
    private final List<byte[]> sent = new ArrayList<>();
    private final boolean[] echoed;
    private final int[] lastOrdered;
    private AssociationId assoc;
    private boolean up;
    /** Whether the association uses AUTH (RFC 4895). */
    private boolean auth;

    private boolean done;
    private int next;
    private int received;
    private int sendErrors;
    private String failure;
    private long tUp;
    private long tEchoed;

    private UdpEchoCheck(Endpoint endpoint, LowerLayer llp, int messages, int streams) {
        this.endpoint = endpoint;
        this.llp = llp;
        this.messages = messages;
        this.streams = streams;
        this.echoed = new boolean[messages];
        this.lastOrdered = new int[streams];
        java.util.Arrays.fill(lastOrdered, -1);
    }

    /** The message with index i: sizes from 4 bytes to beyond one packet, so some are fragmented. */
    static byte[] message(int i) {
        int size = 4 + (i * 397) % 3000;
        byte[] b = new byte[size];
        for (int j = 4; j < size; j++) {
            b[j] = (byte) (i * 131 + j * 7);
        }
        ByteBuffer.wrap(b).putInt(0, i);
        return b;
    }

    static SendInfo info(int i, int streams) {
        return new SendInfo(i % streams, 1000 + i, i % 5 == 4, i % 10 == 9);
    }

    /** Entry point in the child JVM. */
    public static void main(String[] args) throws Exception {
        InetAddress local = InetAddress.getByName(args[0]);
        InetAddress peer = InetAddress.getByName(args[1]);
        int peerPort = Integer.parseInt(args[2]);
        int messages = Integer.parseInt(args[3]);
        int streams = Integer.parseInt(args[4]);
        int udpPort = args.length > 5 ? Integer.parseInt(args[5]) : UdpConfig.DEFAULT_PORT;
        java.util.Set<Integer> authChunks = new java.util.TreeSet<>();
        if (args.length > 6) {
            for (String t : args[6].split(",")) {
                authChunks.add(Integer.parseInt(t.trim()));
            }
        }
        String result;
        try (UdpEncapsulation udp = UdpEncapsulation.open(UdpConfig.builder()
                .localPort(udpPort)
                .bind(local)
                .defaultRemotePort(udpPort)
                .build())) {
            SctpOptions opts = SctpOptions.WAN.toBuilder()
                    .encapsulationOverhead(udp.encapsulationOverhead())
                    .outboundStreams(streams)
                    .rtoInitial(Duration.ofMillis(500))
                    .rtoMin(Duration.ofMillis(200))
                    .delayedAckTime(Duration.ofMillis(100))
                    .build();
            if (args.length > 6) {
                opts = opts.toBuilder()
                        .enable(org.sctpj.stack.Extension.AUTH)
                        .authChunks(authChunks)
                        .build();
            }
            Endpoint ep =
                    new Endpoint(LOCAL_SCTP_PORT, List.of(local), opts, new SplittableRandom(), System.nanoTime());
            result = new UdpEchoCheck(ep, udp, messages, streams).run(peer, peerPort);
        } catch (Exception e) {
            result = "err " + e;
        }
        System.out.println(result);
        System.out.flush();
        System.exit(result.startsWith("ok") ? 0 : 1);
    }

    private String run(InetAddress peer, int peerPort) throws IOException {
        long t0 = System.nanoTime();
        long deadline = t0 + DEADLINE.toNanos();
        assoc = endpoint.connect(List.of(peer), peerPort, t0);
        LowerLayer.PacketSink sink = (buf, from, to) -> endpoint.handleInput(buf, from, to, System.nanoTime());
        while (!done && failure == null) {
            long now = System.nanoTime();
            if (now > deadline) {
                return "err deadline passed: up=" + up + " sent=" + next + " echoed=" + received;
            }
            int n = llp.receive(sink, 64);
            if (now >= endpoint.nextTimeout()) {
                endpoint.handleTimeout(now);
            }
            sendMore(now);
            flush(now);
            if (n == 0) {
                long wait = Math.min(endpoint.nextTimeout(), System.nanoTime() + 100_000_000L) - System.nanoTime();
                if (wait > 0) {
                    llp.await(wait);
                }
            }
        }
        if (failure != null) {
            return "err " + failure;
        }
        long t1 = System.nanoTime();
        return String.format(
                "ok messages=%d streams=%d handshake_ms=%d transfer_ms=%d shutdown_ms=%d send_errors=%d auth=%d",
                messages,
                streams,
                (tUp - t0) / 1_000_000,
                (tEchoed - tUp) / 1_000_000,
                (t1 - tEchoed) / 1_000_000,
                sendErrors,
                auth ? 1 : 0);
    }

    private void sendMore(long now) {
        while (up && next < messages) {
            byte[] m = message(next);
            if (endpoint.send(assoc, info(next, streams), ByteBuffer.wrap(m), now) == SendStatus.WOULD_BLOCK) {
                return;
            }
            sent.add(m);
            next++;
        }
    }

    private void flush(long now) throws IOException {
        boolean again;
        do {
            again = false;
            Optional<Transmit> t;
            while ((t = endpoint.pollTransmit(now)).isPresent()) {
                Transmit x = t.get();
                try {
                    llp.send(ByteBuffer.wrap(x.packet()), x.source(), x.destination());
                } catch (IOException unreachable) {
                    sendErrors++; // as IP would: the packet is lost, SCTP retransmits or fails the path
                }
            }
            try {
                llp.flush();
            } catch (IOException unreachable) {
                sendErrors++;
            }
            Optional<SctpEvent> e;
            while ((e = endpoint.pollEvent()).isPresent()) {
                onEvent(e.get(), now);
                again = true;
            }
        } while (again && !done && failure == null);
    }

    private void onEvent(SctpEvent e, long now) {
        if (e instanceof SctpEvent.AssociationChange c) {
            switch (c.type()) {
                case COMMUNICATION_UP -> {
                    up = true;
                    tUp = now;
                    auth = endpoint.info(c.association())
                            .map(i -> i.extensions().contains(org.sctpj.stack.Extension.AUTH))
                            .orElse(false);
                    if (c.outboundStreams() < streams) {
                        failure = "kernel granted " + c.outboundStreams() + " streams, " + streams + " needed";
                    }
                }
                case SHUTDOWN_COMPLETE -> {
                    if (received == messages) {
                        done = true;
                    } else {
                        failure = "shutdown before every echo: " + c;
                    }
                }
                default -> failure = "association change " + c.type() + ": " + c.reason() + " " + c.causes();
            }
        } else if (e instanceof SctpEvent.MessageReceived m) {
            check(m);
            if (failure == null && received == messages) {
                tEchoed = now;
                endpoint.shutdown(assoc, now);
            }
        } else if (e instanceof SctpEvent.SendFailed f) {
            failure = "send failed on stream " + f.streamId();
        }
    }

    private void check(SctpEvent.MessageReceived m) {
        byte[] d = m.data();
        if (d.length < 4) {
            failure = "echo of " + d.length + " bytes";
            return;
        }
        int i = ByteBuffer.wrap(d).getInt(0);
        if (i < 0 || i >= next || echoed[i]) {
            failure = "echo with bad or repeated index " + i;
            return;
        }
        SendInfo want = info(i, streams);
        String bad = null;
        if (!java.util.Arrays.equals(d, sent.get(i))) {
            bad = "payload";
        } else if (m.streamId() != want.streamId()) {
            bad = "stream " + m.streamId();
        } else if (m.ppid() != want.ppid()) {
            bad = "ppid " + m.ppid();
        } else if (m.unordered() != want.unordered()) {
            bad = "unordered flag";
        } else if (!m.unordered() && i < lastOrdered[m.streamId()]) {
            bad = "order within stream " + m.streamId();
        }
        if (bad != null) {
            failure = "echo of message " + i + ": wrong " + bad;
            return;
        }
        if (!m.unordered()) {
            lastOrdered[m.streamId()] = i;
        }
        echoed[i] = true;
        received++;
    }
}
