package org.sctpj.tests.obs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.nio.sctp.HandlerResult;
import com.sun.nio.sctp.MessageInfo;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sctpj.api.callback.CallbackRuntime;
import org.sctpj.api.callback.CallbackSocket;
import org.sctpj.api.callback.Callbacks;
import org.sctpj.api.callback.LowerLayerFactory;
import org.sctpj.api.callback.UdpLayers;
import org.sctpj.api.socket.EcnCongestionNotification;
import org.sctpj.api.socket.PathMtuChangeNotification;
import org.sctpj.api.socket.SctpProvider;
import org.sctpj.api.socket.SctpjChannel;
import org.sctpj.api.socket.SctpjMessageInfo;
import org.sctpj.api.socket.SctpjNotificationHandler;
import org.sctpj.api.socket.SctpjServerChannel;
import org.sctpj.api.socket.SctpjSocketOptions;
import org.sctpj.api.socket.SctpjSocketOptions.Event;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Extension;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.PathMtuReason;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.llp.Ecn;
import org.sctpj.stack.llp.LowerLayer;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * The path events of issue 13 through both APIs, over UDP encapsulation on loopback: a path MTU
 * change (path MTU discovery on, RFC 8899: the first probe, of {@value #SEARCH_MAX} bytes, is
 * acknowledged, so the path goes from the base, 1200, to it) and an ECN congestion event (RFC 9260
 * appendix A: the server's lower layer is wrapped so that every packet it receives reads
 * Congestion Experienced, as if a router had marked it; the server echoes the marks, the client's
 * window falls). Callbacks run on the socket's stack thread: the test checks they do; socket API
 * notifications come to the handler inside {@code receive}, on the caller's thread.
 */
@Timeout(60)
class PathEventsTest {

    private static final InetAddress LO = InetAddress.getLoopbackAddress();
    private static final int SEARCH_MAX = 4000;
    /** Messages of 1000 bytes the ECN tests send: the marks start after {@link CeMarker#UNMARKED} packets. */
    private static final int MESSAGES = 600;

    private static final SctpOptions BASE =
            SctpOptions.LAN.toBuilder().delayedAckTime(Duration.ofMillis(5)).build();
    private static final SctpOptions PMTU =
            BASE.toBuilder().pmtuDiscovery(true).pmtuMax(SEARCH_MAX).build();
    private static final SctpOptions ECN =
            BASE.toBuilder().enable(Extension.ECN).build();

    private final StackRuntime serverRt = StackRuntime.start(1, StackConfig.DEFAULT.withName("ev-srv"));
    private final StackRuntime clientRt = StackRuntime.start(1, StackConfig.DEFAULT.withName("ev-cli"));
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
        clientRt.close();
        serverRt.close();
    }

    /**
     * Hands every received packet after the first {@value #UNMARKED} up as Congestion Experienced (a
     * router that marks everything once its queue builds): by then the sender's window is beyond 8
     * MTU, where the reduction (max(cwnd/2, 4 MTU), RFC 9260 section 7.2.3) is a fall.
     */
    static final class CeMarker implements LowerLayer {
        static final int UNMARKED = 150;
        final LowerLayer inner;
        final AtomicInteger seen = new AtomicInteger();
        final AtomicInteger marked = new AtomicInteger();

        CeMarker(LowerLayer inner) {
            this.inner = inner;
        }

        @Override
        public int receive(PacketSink sink, int max) throws IOException {
            return inner.receive(
                    new PacketSink() {
                        @Override
                        public void packet(ByteBuffer sctp, InetAddress from, InetAddress to) {
                            packet(sctp, from, to, Ecn.NOT_ECT);
                        }

                        @Override
                        public void packet(ByteBuffer sctp, InetAddress from, InetAddress to, int ecn) {
                            if (seen.incrementAndGet() <= UNMARKED) {
                                sink.packet(sctp, from, to, ecn);
                                return;
                            }
                            marked.incrementAndGet();
                            sink.packet(sctp, from, to, Ecn.CE);
                        }

                        @Override
                        public void icmp(org.sctpj.stack.icmp.IcmpReport report) {
                            sink.icmp(report);
                        }
                    },
                    max);
        }

        @Override
        public void send(ByteBuffer sctp, InetAddress source, InetAddress destination) throws IOException {
            inner.send(sctp, source, destination);
        }

        @Override
        public void send(ByteBuffer sctp, InetAddress source, InetAddress destination, int ecn) throws IOException {
            inner.send(sctp, source, destination, ecn);
        }

        @Override
        public void flush() throws IOException {
            inner.flush();
        }

        @Override
        public void await(long timeoutNanos) throws IOException {
            inner.await(timeoutNanos);
        }

        @Override
        public void wakeup() {
            inner.wakeup();
        }

        @Override
        public int encapsulationOverhead() {
            return inner.encapsulationOverhead();
        }

        @Override
        public void close() throws IOException {
            inner.close();
        }

        @Override
        public LowerLayer inner() {
            return inner;
        }
    }

    // ---------------------------------------------------------------- callback API

    /** Records events and the thread each callback ran on. */
    private static final class Recorder implements Callbacks {
        final List<SctpEvent> events = new CopyOnWriteArrayList<>();
        final List<Thread> threads = new CopyOnWriteArrayList<>();
        final CountDownLatch up = new CountDownLatch(1);
        volatile AssociationId id;

        @Override
        public void onMessage(CallbackSocket socket, SctpEvent.MessageReceived m) {}

        @Override
        public void onAssociationChange(CallbackSocket socket, SctpEvent.AssociationChange c) {
            if (c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP) {
                id = c.association();
                up.countDown();
            }
        }

        @Override
        public void onPathMtuChange(CallbackSocket socket, SctpEvent.PathMtuChange change) {
            threads.add(Thread.currentThread());
            events.add(change);
        }

        @Override
        public void onEcnCongestion(CallbackSocket socket, SctpEvent.EcnCongestion congestion) {
            threads.add(Thread.currentThread());
            events.add(congestion);
        }
    }

    private CallbackSocket callbackServer(SctpOptions o, LowerLayerFactory layers) throws IOException {
        CallbackSocket s = CallbackSocket.open(serverRt, o, layers, (sock, m) -> {});
        toClose.add(s);
        s.bind(port(), List.of(LO));
        s.listen();
        return s;
    }

    private CallbackSocket callbackClient(SctpOptions o, Recorder r, CallbackSocket server) throws Exception {
        CallbackSocket c = CallbackSocket.open(clientRt, o, UdpLayers.factory(0), r);
        toClose.add(c);
        c.bind(port(), List.of(LO));
        c.setUdpRemotePort(LO, server.udpLocalPort());
        c.connect(List.of(LO), server.localPort());
        assertTrue(r.up.await(10, TimeUnit.SECONDS), "association up");
        return c;
    }

    private static int port() {
        return 20000 + (int) (Math.random() * 30000);
    }

    private static <T> T await(List<SctpEvent> events, Class<T> type) throws InterruptedException {
        long end = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < end) {
            for (SctpEvent e : events) {
                if (type.isInstance(e)) {
                    return type.cast(e);
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no " + type.getSimpleName() + " in " + events);
    }

    @Test
    void callbackApiReportsTheProbedPathMtuOnTheStackThread() throws Exception {
        CallbackSocket server = callbackServer(BASE, UdpLayers.factory(0));
        Recorder r = new Recorder();
        callbackClient(PMTU, r, server);
        SctpEvent.PathMtuChange m = await(r.events, SctpEvent.PathMtuChange.class);
        assertEquals(new SctpEvent.PathMtuChange(r.id, LO, 1200, SEARCH_MAX, PathMtuReason.PROBE), m);
        assertTrue(
                r.threads.stream().allMatch(t -> t.getName().startsWith("ev-cli")),
                "on the stack thread: " + r.threads);
    }

    @Test
    void callbackApiReportsEcnCongestionOnTheStackThread() throws Exception {
        List<CeMarker> markers = new CopyOnWriteArrayList<>();
        CallbackSocket server = callbackServer(ECN, UdpLayers.factory(0).decorated(l -> {
            CeMarker m = new CeMarker(l);
            markers.add(m);
            return m;
        }));
        Recorder r = new Recorder();
        CallbackSocket c = callbackClient(ECN, r, server);
        for (int i = 0; i < MESSAGES; i++) {
            while (c.send(r.id, new SendInfo(0, i, false, false), ByteBuffer.wrap(new byte[1000]))
                    != SendStatus.ACCEPTED) {
                Thread.sleep(1); // the send buffer is full: the peer's SACKs free it
            }
        }
        SctpEvent.EcnCongestion e = await(r.events, SctpEvent.EcnCongestion.class);
        assertEquals(r.id, e.association());
        assertEquals(LO, e.path());
        assertTrue(e.cwndAfter() < e.cwndBefore(), "the window fell: " + e);
        assertEquals(Math.max(e.cwndBefore() / 2, 4 * 1500), e.cwndAfter(), "as after a loss (RFC 9260 7.2.3)");
        assertTrue(markers.get(0).marked.get() > 0, "packets marked");
        assertTrue(
                r.threads.stream().allMatch(t -> t.getName().startsWith("ev-cli")),
                "on the stack thread: " + r.threads);
    }

    // ---------------------------------------------------------------- socket API

    private SctpjServerChannel socketServer(SctpProvider p) throws IOException {
        SctpjServerChannel s = p.openServerChannel();
        toClose.add(s);
        s.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0);
        s.bind(new InetSocketAddress(LO, 0));
        return s;
    }

    private SctpjChannel socketClient(SctpOptions o, SctpjServerChannel s, Event subscribed) throws IOException {
        SctpjChannel c = SctpProvider.of(CallbackRuntime.of(clientRt), o).openSctpChannel();
        toClose.add(c);
        c.setOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, s.udpPort());
        c.setOption(SctpjSocketOptions.SCTP_EVENTS, EnumSet.of(Event.ASSOCIATION_CHANGE, subscribed));
        assertTrue(c.connect(s.getAllLocalAddresses().iterator().next(), Duration.ofSeconds(10)));
        SctpjChannel a = s.accept(Duration.ofSeconds(10));
        assertNotNull(a, "accepted");
        toClose.add(a);
        return c;
    }

    /** Receives on {@code c} until the handler has seen a {@code type}; returns it and its thread. */
    private static <T> T receiveNotification(SctpjChannel c, Class<T> type, Thread[] thread) throws IOException {
        List<Object> got = new ArrayList<>();
        SctpjNotificationHandler<List<Object>> h = new SctpjNotificationHandler<>() {
            @Override
            public HandlerResult handleNotification(PathMtuChangeNotification n, List<Object> l) {
                return take(n, l);
            }

            @Override
            public HandlerResult handleNotification(EcnCongestionNotification n, List<Object> l) {
                return take(n, l);
            }

            private HandlerResult take(Object n, List<Object> l) {
                l.add(n);
                thread[0] = Thread.currentThread();
                return type.isInstance(n) ? HandlerResult.RETURN : HandlerResult.CONTINUE;
            }
        };
        ByteBuffer buf = ByteBuffer.allocate(2000);
        long end = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < end) {
            buf.clear();
            MessageInfo mi = c.receive(buf, got, h, Duration.ofSeconds(2));
            assertFalse(mi != null && mi.bytes() > 0, "no message was sent to the client");
            for (Object n : got) {
                if (type.isInstance(n)) {
                    return type.cast(n);
                }
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " in " + got);
    }

    @Test
    void socketApiNotifiesTheProbedPathMtuToItsTypedHandlerMethod() throws Exception {
        SctpjServerChannel s = socketServer(SctpProvider.of(CallbackRuntime.of(serverRt), BASE));
        SctpjChannel c = socketClient(PMTU, s, Event.PATH_MTU_CHANGE);
        Thread[] on = {null};
        PathMtuChangeNotification n = receiveNotification(c, PathMtuChangeNotification.class, on);
        assertEquals(1200, n.oldMtu());
        assertEquals(SEARCH_MAX, n.newMtu());
        assertEquals(PathMtuReason.PROBE, n.reason());
        assertEquals(LO, n.path());
        assertEquals(c.association(), n.association());
        assertEquals(Thread.currentThread(), on[0], "in receive, on the caller's thread");
    }

    @Test
    void socketApiNotifiesEcnCongestionToItsTypedHandlerMethod() throws Exception {
        SctpjServerChannel s =
                socketServer(SctpProvider.of(CallbackRuntime.of(serverRt), ECN).withLayerDecorator(CeMarker::new));
        SctpjChannel c = socketClient(ECN, s, Event.ECN_CONGESTION);
        for (int i = 0; i < MESSAGES; i++) {
            c.send(ByteBuffer.wrap(new byte[1000]), SctpjMessageInfo.createOutgoing(null, 0));
        }
        Thread[] on = {null};
        EcnCongestionNotification n = receiveNotification(c, EcnCongestionNotification.class, on);
        assertTrue(n.cwndAfter() < n.cwndBefore(), "the window fell: " + n);
        assertEquals(LO, n.path());
        assertEquals(Thread.currentThread(), on[0], "in receive, on the caller's thread");
    }
}
