package org.sctpj.tests.e2e;

import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.AssociationChangeNotification;
import com.sun.nio.sctp.HandlerResult;
import com.sun.nio.sctp.MessageInfo;
import com.sun.nio.sctp.ShutdownNotification;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.sctpj.api.callback.CallbackRuntime;
import org.sctpj.api.callback.CallbackSocket;
import org.sctpj.api.callback.Callbacks;
import org.sctpj.api.socket.SctpProvider;
import org.sctpj.api.socket.SctpjAssociationChangeNotification;
import org.sctpj.api.socket.SctpjChannel;
import org.sctpj.api.socket.SctpjMultiChannel;
import org.sctpj.api.socket.SctpjServerChannel;
import org.sctpj.api.socket.SctpjSocketOptions;
import org.sctpj.llp.udp.UdpConfig;
import org.sctpj.llp.udp.UdpEncapsulation;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * The server side of the end-to-end tests, run in a child JVM: {@code E2ePeer MODE HOST [END_AFTER
 * shutdown|abort]}. Prints {@code READY <sctpPort> <udpPort>}, then one {@code RESULT <assoc>
 * <how it ended> bytes=.. messages=.. sha256=..} line per finished association; exits when its
 * standard input closes. Modes: {@code sink-callback} (callback API), {@code sink-socket}
 * (SctpjServerChannel, a blocking thread per accepted channel), {@code sink-multi} (one
 * SctpjMultiChannel, one thread), {@code echo-callback} (callback echo server sending from inside
 * the receive callback). With END_AFTER the server ends each association itself once that many
 * bytes arrived.
 */
public final class E2ePeer {
    private E2ePeer() {}

    /** LAN-like timers, but patient enough for a loaded 2-core machine. */
    static final SctpOptions OPTS = SctpOptions.LAN.toBuilder()
            .rtoInitial(Duration.ofMillis(200))
            .rtoMin(Duration.ofMillis(50))
            .rtoMax(Duration.ofSeconds(1))
            .heartbeatInterval(Duration.ofSeconds(1))
            .pathMaxRetrans(5)
            .associationMaxRetrans(20)
            .delayedAckTime(Duration.ofMillis(10))
            .build();

    static synchronized void out(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /** Runs one server; see the class comment. */
    public static void main(String[] args) throws Exception {
        String mode = args[0];
        InetAddress host = InetAddress.getByName(args[1]);
        long endAfter = args.length > 2 ? Long.parseLong(args[2]) : -1;
        boolean abort = args.length > 3 && args[3].equals("abort");
        int port = 20000 + (int) (ProcessHandle.current().pid() % 20000);
        StackRuntime rt = StackRuntime.start(1, StackConfig.DEFAULT.withName("peer"));
        switch (mode) {
            case "sink-callback" -> sinkCallback(rt, host, port, endAfter, abort, false);
            case "echo-callback" -> sinkCallback(rt, host, port, endAfter, abort, true);
            case "sink-socket" -> sinkSocket(rt, host, port, endAfter, abort);
            case "sink-multi" -> sinkMulti(rt, host, port);
            default -> throw new IllegalArgumentException(mode);
        }
        while (System.in.read() >= 0) {
            // until the parent closes our stdin (or dies)
        }
        System.exit(0);
    }

    static void sinkCallback(StackRuntime rt, InetAddress host, int port, long endAfter, boolean abort, boolean echo)
            throws IOException {
        Map<AssociationId, Traffic.Digests> digests = new HashMap<>();
        Set<AssociationId> ending = new HashSet<>();
        Map<AssociationId, ArrayDeque<SctpEvent.MessageReceived>> waiting = new HashMap<>();
        int[] udp = new int[1];
        CallbackSocket s = CallbackSocket.open(
                rt,
                OPTS,
                (p, a) -> {
                    UdpEncapsulation u = UdpEncapsulation.open(
                            UdpConfig.builder().localPort(0).bindAddresses(a).build());
                    udp[0] = u.localPort();
                    return u;
                },
                new Callbacks() {
                    @Override
                    public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                        Traffic.Digests d = digests.computeIfAbsent(m.association(), k -> new Traffic.Digests());
                        d.add(m.streamId(), m.unordered(), m.data());
                        if (echo) {
                            ArrayDeque<SctpEvent.MessageReceived> q =
                                    waiting.computeIfAbsent(m.association(), k -> new ArrayDeque<>());
                            if (!q.isEmpty() || !echo(s, m)) {
                                q.add(m);
                            }
                        }
                        if (endAfter >= 0 && d.bytes >= endAfter && ending.add(m.association())) {
                            if (abort) {
                                s.abort(m.association(), "e2e: server aborts");
                            } else {
                                s.shutdown(m.association());
                            }
                        }
                    }

                    @Override
                    public void onSendSpace(CallbackSocket s, AssociationId id, long free) {
                        ArrayDeque<SctpEvent.MessageReceived> q = waiting.get(id);
                        while (q != null && !q.isEmpty() && echo(s, q.peek())) {
                            q.poll();
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
                            return true; // shutting down: nothing more to echo
                        }
                    }

                    @Override
                    public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
                        switch (c.type()) {
                            case COMMUNICATION_UP, RESTART -> {}
                            default -> {
                                Traffic.Digests d = digests.remove(c.association());
                                waiting.remove(c.association());
                                out("RESULT " + c.association().value() + " " + c.type() + " "
                                        + (d == null ? new Traffic.Digests() : d).summary());
                            }
                        }
                    }
                });
        s.setSendThreshold(64 * 1024);
        s.bind(port, List.of(host));
        s.listen();
        s.setSendThreshold(64 * 1024);
        out("READY " + port + " " + udp[0]);
    }

    static void sinkSocket(StackRuntime rt, InetAddress host, int port, long endAfter, boolean abort)
            throws IOException {
        SctpjServerChannel server =
                SctpProvider.of(CallbackRuntime.of(rt), OPTS).openServerChannel();
        server.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0);
        server.bind(new InetSocketAddress(host, port));
        Thread acceptor = new Thread(() -> {
            try {
                while (true) {
                    SctpjChannel ch = server.accept();
                    new Thread(() -> serve(ch, endAfter, abort), "serve").start();
                }
            } catch (IOException e) {
                // closed
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
        out("READY " + port + " " + server.udpPort());
    }

    private static void serve(SctpjChannel ch, long endAfter, boolean abort) {
        Traffic.Digests d = new Traffic.Digests();
        AtomicReference<String> how = new AtomicReference<>("?");
        ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);
        boolean ended = false;
        try (ch) {
            int id = ch.association().associationID();
            while (true) {
                buf.clear();
                MessageInfo mi = ch.receive(buf, how, (n, h) -> {
                    if (n instanceof AssociationChangeNotification a) {
                        h.set(a.event().name());
                    } else if (n instanceof ShutdownNotification) {
                        h.set("SHUTDOWN"); // the peer shut down: end of stream follows
                    }
                    return HandlerResult.CONTINUE;
                });
                if (mi.bytes() < 0) {
                    break;
                }
                if (!mi.isComplete()) {
                    throw new IOException("a message larger than 64 KiB: not part of the e2e traffic");
                }
                buf.flip();
                d.add(mi.streamNumber(), mi.isUnordered(), buf);
                if (endAfter >= 0 && d.bytes >= endAfter && !ended) {
                    ended = true;
                    if (abort) {
                        ch.abort("e2e: server aborts");
                    } else {
                        ch.shutdown();
                    }
                }
            }
            out("RESULT " + id + " " + how.get() + " " + d.summary());
        } catch (IOException e) {
            out("ERROR " + e);
        }
    }

    static void sinkMulti(StackRuntime rt, InetAddress host, int port) throws IOException {
        SctpjMultiChannel m = SctpProvider.of(CallbackRuntime.of(rt), OPTS).openMultiChannel();
        m.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0, null);
        m.setOption(SctpjSocketOptions.SO_RCVBUF, OneToManyE2eTest.BUFFER, null);
        m.bind(new InetSocketAddress(host, port));
        Map<Association, Traffic.Digests> digests = new HashMap<>();
        Thread t = new Thread(() -> {
            ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);
            try {
                while (true) {
                    buf.clear();
                    MessageInfo mi = m.receive(buf, null, (n, x) -> {
                        if (n instanceof AssociationChangeNotification a
                                && a.event() != AssociationChangeNotification.AssocChangeEvent.COMM_UP) {
                            Traffic.Digests d = digests.remove(a.association());
                            if (a.event() != AssociationChangeNotification.AssocChangeEvent.SHUTDOWN) {
                                System.err.println(
                                        "association " + a.association().associationID() + ": " + a.event() + " "
                                                + ((SctpjAssociationChangeNotification) a).reason());
                            }
                            out("RESULT " + a.association().associationID() + " " + a.event() + " "
                                    + (d == null ? new Traffic.Digests() : d).summary());
                        }
                        return HandlerResult.CONTINUE;
                    });
                    buf.flip();
                    digests.computeIfAbsent(mi.association(), k -> new Traffic.Digests())
                            .add(mi.streamNumber(), mi.isUnordered(), buf);
                }
            } catch (IOException e) {
                out("ERROR " + e);
            }
        });
        t.setDaemon(true);
        t.start();
        out("READY " + port + " " + m.udpPort());
    }
}
