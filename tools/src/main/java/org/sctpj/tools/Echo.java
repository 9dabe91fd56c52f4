package org.sctpj.tools;

import com.sun.nio.sctp.MessageInfo;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sctpj.api.callback.CallbackRuntime;
import org.sctpj.api.callback.CallbackSocket;
import org.sctpj.api.callback.Callbacks;
import org.sctpj.api.socket.SctpProvider;
import org.sctpj.api.socket.SctpjChannel;
import org.sctpj.api.socket.SctpjMessageInfo;
import org.sctpj.api.socket.SctpjSocketOptions;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * Echo server (callback API: each message is sent back from inside the receive callback, on the
 * same stream and PPID; what the send buffer refuses waits for the send callback) and echo client
 * (socket API: blocking send and receive, checking every byte and measuring round trips).
 */
final class Echo {
    private Echo() {}

    static final String USAGE =
            """
              echo server [options]  callback echo server: sends every message back from the receive callback
                --host H             address to bind (127.0.0.1)
                --port P             SCTP port (5002)
                --udp-port U         local UDP port (9899; 0 for an ephemeral one, printed)
              echo client [options]  socket-API client: sends messages, checks the echoes, prints round-trip times
                --host H --port P    the server (127.0.0.1, 5002)
                --remote-udp-port U  the server's UDP port (9899)
                --count N            messages (1000), --size S bytes each (100), --streams N (1)
              echo                   both in this process over loopback
            """;

    static int run(String[] argv) throws Exception {
        Args a = new Args(argv, Set.of());
        String role = a.positional.isEmpty() ? "loopback" : a.positional.get(0);
        InetAddress host = InetAddress.getByName(a.get("host", "127.0.0.1"));
        SctpOptions o = Net.profile("lan", true);
        try (StackRuntime rt = StackRuntime.start(2, StackConfig.DEFAULT.withName("echo"))) {
            switch (role) {
                case "server" -> {
                    int[] udp = new int[1];
                    CallbackSocket s = server(rt, o, host, a.getInt("port", 5002), a.getInt("udp-port", 9899), udp);
                    System.out.printf(
                            "echo server on %s SCTP port %d, UDP port %d; Ctrl-C to stop%n",
                            host.getHostAddress(), s.localPort(), udp[0]);
                    Thread.currentThread().join();
                    return 0;
                }
                case "client" -> {
                    return client(
                            rt,
                            o,
                            new InetSocketAddress(host, a.getInt("port", 5002)),
                            a.getInt("remote-udp-port", 9899),
                            a.getInt("count", 1000),
                            (int) a.getBytes("size", 100),
                            a.getInt("streams", 1));
                }
                case "loopback" -> {
                    int[] udp = new int[1];
                    int port = 5002 + (int) (Math.random() * 1000);
                    try (CallbackSocket s = server(rt, o, host, port, 0, udp)) {
                        return client(
                                rt,
                                o,
                                new InetSocketAddress(host, port),
                                udp[0],
                                a.getInt("count", 1000),
                                (int) a.getBytes("size", 100),
                                a.getInt("streams", 1));
                    }
                }
                default -> throw new IllegalArgumentException("echo server | echo client | echo");
            }
        }
    }

    /** The callback echo server. */
    static CallbackSocket server(StackRuntime rt, SctpOptions o, InetAddress host, int port, int udpPort, int[] udp)
            throws IOException {
        Map<AssociationId, ArrayDeque<SctpEvent.MessageReceived>> waiting = new HashMap<>();
        CallbackSocket s = CallbackSocket.open(rt.threads().get(0), o, Net.udp(udpPort, null, 0, udp), new Callbacks() {
            @Override
            public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                ArrayDeque<SctpEvent.MessageReceived> q = waiting.get(m.association());
                if (q != null && !q.isEmpty()) {
                    q.add(m); // keep the order behind what already waits
                    return;
                }
                if (!echo(s, m)) {
                    waiting.computeIfAbsent(m.association(), k -> new ArrayDeque<>())
                            .add(m);
                }
            }

            @Override
            public void onSendSpace(CallbackSocket s, AssociationId id, long free) {
                ArrayDeque<SctpEvent.MessageReceived> q = waiting.get(id);
                while (q != null && !q.isEmpty() && echo(s, q.peek())) {
                    q.poll();
                }
            }

            @Override
            public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
                if (c.type() != SctpEvent.AssociationChangeType.COMMUNICATION_UP
                        && c.type() != SctpEvent.AssociationChangeType.RESTART) {
                    waiting.remove(c.association());
                }
            }

            private boolean echo(CallbackSocket s, SctpEvent.MessageReceived m) {
                try {
                    return s.send(
                                    m.association(),
                                    new SendInfo(m.streamId(), m.ppid(), m.unordered(), false),
                                    ByteBuffer.wrap(m.data()))
                            == SendStatus.ACCEPTED;
                } catch (IllegalStateException e) {
                    return true; // the peer is shutting down: nothing to echo to
                }
            }
        });
        s.setSendThreshold(64 * 1024);
        s.bind(port, List.of(host));
        s.listen();
        return s;
    }

    /** The socket-API client: one message at a time, checked, timed. */
    static int client(
            StackRuntime rt, SctpOptions o, InetSocketAddress server, int udpPort, int count, int size, int streams)
            throws IOException {
        try (SctpjChannel ch = SctpProvider.of(CallbackRuntime.of(rt), o).openSctpChannel()) {
            ch.setOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, udpPort);
            ch.connect(server, Duration.ofSeconds(10));
            ByteBuffer in = ByteBuffer.allocate(size);
            long[] rtt = new long[count];
            byte[] msg = new byte[size];
            for (int i = 0; i < count; i++) {
                Arrays.fill(msg, (byte) i);
                long t0 = System.nanoTime();
                ch.send(
                        ByteBuffer.wrap(msg),
                        SctpjMessageInfo.createOutgoing(null, i % streams).sackImmediately(true));
                in.clear();
                MessageInfo mi = ch.receive(in, null, null, Duration.ofSeconds(10));
                rtt[i] = System.nanoTime() - t0;
                if (mi == null || mi.bytes() != size || !Arrays.equals(in.array(), msg)) {
                    System.out.println("echo " + i + " wrong or missing: " + mi);
                    return 1;
                }
            }
            ch.shutdown();
            Arrays.sort(rtt);
            System.out.printf(
                    "%d echoes of %d bytes checked; round trip: median %.1f us, p99 %.1f us, max %.1f us%n",
                    count, size, rtt[count / 2] / 1e3, rtt[(int) (count * 0.99)] / 1e3, rtt[count - 1] / 1e3);
            return 0;
        }
    }
}
