package org.sctpj.tests.e2e;

import com.sun.nio.sctp.AssociationChangeNotification;
import com.sun.nio.sctp.HandlerResult;
import com.sun.nio.sctp.MessageInfo;
import com.sun.nio.sctp.SendFailedNotification;
import com.sun.nio.sctp.ShutdownNotification;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.sctpj.api.callback.CallbackRuntime;
import org.sctpj.api.callback.CallbackSocket;
import org.sctpj.api.callback.Callbacks;
import org.sctpj.api.socket.SctpProvider;
import org.sctpj.api.socket.SctpjAssociationChangeNotification;
import org.sctpj.api.socket.SctpjChannel;
import org.sctpj.api.socket.SctpjMessageInfo;
import org.sctpj.api.socket.SctpjSocketOptions;
import org.sctpj.llp.udp.UdpConfig;
import org.sctpj.llp.udp.UdpEncapsulation;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.timers.StackRuntime;

/** The client side of the end-to-end tests, in the test JVM. */
final class Clients {
    private Clients() {}

    /** The most bytes the echo client leaves unanswered (application-level flow control). */
    static final long ECHO_WINDOW = 16L << 20;

    /** What a client sent and received, and how its association ended. */
    record Outcome(Traffic.Digests sent, Traffic.Digests received, String end, double seconds) {}

    /** How the client ends: after sending everything, shut down; or abort after half. */
    enum Ending {
        SHUTDOWN,
        ABORT_HALFWAY,
        /** Keep sending until the server ends the association. */
        WAIT_FOR_SERVER
    }

    /**
     * Callback API client: sends {@code total} bytes from the send-space callback, digests every
     * message sent (and every message received, for echo), then ends as told.
     */
    static Outcome callback(
            StackRuntime rt, InetAddress host, Child server, long total, int seed, Ending ending, boolean echo)
            throws Exception {
        Traffic t = new Traffic(seed);
        Traffic.Digests sent = new Traffic.Digests();
        Traffic.Digests got = new Traffic.Digests();
        CountDownLatch up = new CountDownLatch(1);
        CountDownLatch sentAll = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        CountDownLatch echoed = new CountDownLatch(1);
        AtomicReference<String> end = new AtomicReference<>("?");
        AtomicBoolean stop = new AtomicBoolean();
        long limit =
                ending == Ending.ABORT_HALFWAY ? total / 2 : ending == Ending.WAIT_FOR_SERVER ? Long.MAX_VALUE : total;
        long[] next = {0};
        Callbacks cb = new Callbacks() {
            byte[] pending;

            AssociationId assoc;

            @Override
            public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                got.add(m.streamId(), m.unordered(), m.data());
                if (echo && sentAll.getCount() == 0 && got.bytes >= sent.bytes) {
                    echoed.countDown();
                }
                if (echo && assoc != null) {
                    pump(s, assoc); // echoes came back: the window of unanswered bytes opened
                }
            }

            void pump(CallbackSocket s, AssociationId id) {
                try {
                    // Echo: at most ECHO_WINDOW bytes unanswered. Neither the core nor the callback
                    // API slows a sender down when the receiving application lags (the window opens
                    // as messages are handed over), so the echo server's queue of messages waiting
                    // to go back would otherwise grow with the transfer.
                    while (!stop.get() && sent.bytes < limit && (!echo || sent.bytes - got.bytes < ECHO_WINDOW)) {
                        if (pending == null) {
                            pending = t.message(next[0]);
                        }
                        int st = Traffic.stream(next[0]);
                        SendInfo info = new SendInfo(st, 0, Traffic.unordered(st), false);
                        if (s.send(id, info, ByteBuffer.wrap(pending)) != SendStatus.ACCEPTED) {
                            return;
                        }
                        sent.add(st, info.unordered(), pending);
                        pending = null;
                        next[0]++;
                    }
                } catch (IllegalStateException e) {
                    // the server shut the association down or aborted it
                }
                if (sent.bytes >= limit) {
                    sentAll.countDown();
                }
            }

            @Override
            public void onSendSpace(CallbackSocket s, AssociationId id, long free) {
                pump(s, id);
            }

            @Override
            public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
                if (c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP) {
                    assoc = c.association();
                    up.countDown();
                    pump(s, c.association());
                } else {
                    end.set(c.type().name());
                    up.countDown();
                    sentAll.countDown();
                    echoed.countDown();
                    done.countDown();
                }
            }
        };
        try (CallbackSocket s = CallbackSocket.open(
                rt,
                E2ePeer.OPTS,
                (p, a) -> {
                    UdpEncapsulation u = UdpEncapsulation.open(
                            UdpConfig.builder().localPort(0).bindAddresses(a).build());
                    u.setRemotePort(host, server.udpPort);
                    return u;
                },
                cb)) {
            s.setSendThreshold(64 * 1024);
            s.bind(40000 + seed % 9000, List.of(host));
            long t0 = System.nanoTime();
            AssociationId id = s.connect(List.of(host), server.sctpPort);
            if (!up.await(30, TimeUnit.SECONDS)) {
                throw new IOException("not up");
            }
            sentAll.await(); // bounded by the test's timeout
            if (echo) {
                echoed.await();
            }
            stop.set(true);
            if (done.getCount() > 0) {
                if (ending == Ending.ABORT_HALFWAY) {
                    s.abort(id, "e2e: client aborts");
                } else if (ending == Ending.SHUTDOWN) {
                    s.shutdown(id);
                }
            }
            if (!done.await(120, TimeUnit.SECONDS)) {
                throw new IOException("the association did not end");
            }
            return new Outcome(sent, got, end.get(), (System.nanoTime() - t0) / 1e9);
        }
    }

    /**
     * Socket API client: an {@link SctpjChannel} sending {@code total} bytes with blocking sends,
     * then ending as told; reads until the end of stream and reports the last association event.
     */
    static Outcome socket(StackRuntime rt, InetAddress host, Child server, long total, int seed, Ending ending)
            throws Exception {
        return socket(rt, host, server, total, seed, ending, 0);
    }

    /** As above, with a send buffer of {@code sendBuffer} bytes (0: the default). */
    static Outcome socket(
            StackRuntime rt, InetAddress host, Child server, long total, int seed, Ending ending, int sendBuffer)
            throws Exception {
        Traffic t = new Traffic(seed);
        Traffic.Digests sent = new Traffic.Digests();
        long limit =
                ending == Ending.ABORT_HALFWAY ? total / 2 : ending == Ending.WAIT_FOR_SERVER ? Long.MAX_VALUE : total;
        try (SctpjChannel ch =
                SctpProvider.of(CallbackRuntime.of(rt), E2ePeer.OPTS).openSctpChannel()) {
            ch.setOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, server.udpPort);
            if (sendBuffer > 0) {
                ch.setOption(SctpjSocketOptions.SO_SNDBUF, sendBuffer);
            }
            long t0 = System.nanoTime();
            ch.connect(new InetSocketAddress(host, server.sctpPort), Duration.ofSeconds(30));
            try {
                for (long i = 0; sent.bytes < limit; i++) {
                    byte[] m = t.message(i);
                    int st = Traffic.stream(i);
                    ch.send(
                            ByteBuffer.wrap(m),
                            SctpjMessageInfo.createOutgoing(null, st).unordered(Traffic.unordered(st)));
                    sent.add(st, Traffic.unordered(st), m);
                }
                if (ending == Ending.ABORT_HALFWAY) {
                    ch.abort("e2e: client aborts");
                } else {
                    ch.shutdown();
                }
            } catch (SocketException | ClosedChannelException e) {
                // the server ended the association (WAIT_FOR_SERVER)
            }
            AtomicReference<String> end = new AtomicReference<>("?");
            java.util.Map<ByteBuffer, Integer> failed = new java.util.HashMap<>();
            ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
            while (true) {
                buf.clear();
                MessageInfo mi = ch.receive(
                        buf,
                        end,
                        (n, e) -> {
                            if (n instanceof AssociationChangeNotification a) {
                                e.set(a.event().name()
                                        + (a.event().name().equals("COMM_LOST")
                                                ? " " + ((SctpjAssociationChangeNotification) a).reason()
                                                : ""));
                            } else if (n instanceof ShutdownNotification) {
                                e.set("SHUTDOWN"); // the peer shut down: end of stream follows
                            } else if (n instanceof SendFailedNotification f) {
                                // accepted by send, then refused as the peer's SHUTDOWN came first
                                failed.merge(f.buffer(), 1, Integer::sum);
                            }
                            return HandlerResult.CONTINUE;
                        },
                        Duration.ofSeconds(120));
                if (mi == null) {
                    throw new IOException("no end of stream");
                }
                if (mi.bytes() < 0) {
                    break;
                }
            }
            if (!failed.isEmpty() && !end.get().startsWith("COMM_LOST")) {
                // After a graceful end: what was sent and not handed back (after an abort, handed
                // back means unacknowledged, which may still have arrived): the same messages in the same order.
                Traffic.Digests delivered = new Traffic.Digests();
                for (long i = 0; i < sent.messages; i++) {
                    byte[] m = t.message(i);
                    ByteBuffer key = ByteBuffer.wrap(m);
                    Integer k = failed.get(key);
                    if (k != null) {
                        if (k == 1) {
                            failed.remove(key);
                        } else {
                            failed.put(key, k - 1);
                        }
                        continue;
                    }
                    int st = Traffic.stream(i);
                    delivered.add(st, Traffic.unordered(st), m);
                }
                if (!failed.isEmpty()) {
                    throw new AssertionError(failed.size() + " messages handed back that were never sent");
                }
                sent = delivered;
            }
            return new Outcome(sent, new Traffic.Digests(), end.get(), (System.nanoTime() - t0) / 1e9);
        }
    }
}
