package org.sctpj.api.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.nio.sctp.AbstractNotificationHandler;
import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.AssociationChangeNotification;
import com.sun.nio.sctp.HandlerResult;
import com.sun.nio.sctp.IllegalReceiveException;
import com.sun.nio.sctp.IllegalUnbindException;
import com.sun.nio.sctp.InvalidStreamException;
import com.sun.nio.sctp.MessageInfo;
import com.sun.nio.sctp.Notification;
import com.sun.nio.sctp.NotificationHandler;
import com.sun.nio.sctp.SctpStandardSocketOptions.InitMaxStreams;
import com.sun.nio.sctp.SendFailedNotification;
import com.sun.nio.sctp.ShutdownNotification;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NotYetConnectedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sctpj.api.callback.CallbackRuntime;
import org.sctpj.api.socket.SctpjSocketOptions.Event;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.StreamSchedulerKind;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/** The socket API over real UDP encapsulation on loopback, client and server on separate stack threads. */
@Timeout(60)
class SocketApiTest {

    static final InetAddress LO = InetAddress.getLoopbackAddress();
    static final SctpOptions OPTS =
            SctpOptions.LAN.toBuilder().delayedAckTime(Duration.ofMillis(5)).build();

    final StackRuntime serverRt = StackRuntime.start(1, StackConfig.DEFAULT.withName("srv"));
    final StackRuntime clientRt = StackRuntime.start(1, StackConfig.DEFAULT.withName("cli"));
    final SctpProvider serverP = SctpProvider.of(CallbackRuntime.of(serverRt), OPTS);
    final SctpProvider clientP = SctpProvider.of(CallbackRuntime.of(clientRt), OPTS);
    final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
        clientRt.close();
        serverRt.close();
    }

    SctpjServerChannel server() throws IOException {
        SctpjServerChannel s = serverP.openServerChannel();
        toClose.add(s);
        s.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0);
        s.bind(new InetSocketAddress(LO, 0));
        return s;
    }

    /** A server whose associations advertise {@code rcvbuf} and queue at most twice that. */
    SctpjServerChannel serverWithReceiveBuffer(int rcvbuf) throws IOException {
        SctpjServerChannel s = serverP.openServerChannel();
        toClose.add(s);
        s.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0);
        s.setOption(SctpjSocketOptions.SO_RCVBUF, rcvbuf);
        s.setOption(SctpjSocketOptions.SCTP_RECEIVE_QUEUE_LIMIT, 2 * rcvbuf);
        s.bind(new InetSocketAddress(LO, 0));
        return s;
    }

    SctpjChannel client(SctpjServerChannel s) throws IOException {
        SctpjChannel c = clientP.openSctpChannel();
        toClose.add(c);
        c.setOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, s.udpPort());
        return c;
    }

    static InetSocketAddress addr(SctpjServerChannel s) throws IOException {
        return (InetSocketAddress) s.getAllLocalAddresses().iterator().next();
    }

    static ByteBuffer bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return ByteBuffer.wrap(b);
    }

    @Test
    void connectAcceptAndExchangeMessagesKeepingBoundariesStreamsAndPpid() throws Exception {
        SctpjServerChannel s = server();
        SctpjChannel c = client(s);
        assertTrue(c.connect(addr(s), Duration.ofSeconds(5)));
        SctpjChannel a = s.accept(Duration.ofSeconds(5));
        assertNotNull(a);
        toClose.add(a);
        assertEquals(16, c.association().maxOutboundStreams());
        assertEquals(c.getRemoteAddresses(), Set.of(addr(s)));

        for (int i = 0; i < 50; i++) {
            int n = 1 + i * 97;
            assertEquals(
                    n,
                    c.send(
                            bytes(n, i),
                            SctpjMessageInfo.createOutgoing(null, i % 16).payloadProtocolID(i)));
        }
        ByteBuffer buf = ByteBuffer.allocate(10_000);
        for (int i = 0; i < 50; i++) {
            buf.clear();
            MessageInfo mi = a.receive(buf, null, null, Duration.ofSeconds(5));
            assertNotNull(mi, "message " + i);
            assertEquals(1 + i * 97, mi.bytes());
            assertTrue(mi.isComplete());
            assertEquals(i % 16, mi.streamNumber());
            assertEquals(i, mi.payloadProtocolID());
            buf.flip();
            assertEquals(bytes(1 + i * 97, i), buf);
        }
        // and back, with a small buffer: the message comes in parts
        c.send(bytes(3000, 7), SctpjMessageInfo.createOutgoing(null, 1).unordered(true));
        ByteBuffer small = ByteBuffer.allocate(1000);
        ByteBuffer all = ByteBuffer.allocate(3000);
        for (int part = 0; part < 3; part++) {
            small.clear();
            MessageInfo mi = a.receive(small, null, null);
            assertEquals(1000, mi.bytes());
            assertEquals(part == 2, mi.isComplete());
            assertTrue(mi.isUnordered());
            all.put(small.flip());
        }
        assertEquals(bytes(3000, 7), all.flip());
    }

    @Test
    void notificationsReachTheHandlerAndPeerShutdownEndsTheStream() throws Exception {
        SctpjServerChannel s = server();
        SctpjChannel c = client(s);
        c.connect(addr(s));
        SctpjChannel a = s.accept();
        toClose.add(a);
        List<Notification> seen = new ArrayList<>();
        c.send(bytes(10, 1), null);
        c.shutdown();
        assertThrows(ClosedChannelException.class, () -> c.send(bytes(1, 1), null));
        ByteBuffer buf = ByteBuffer.allocate(100);
        NotificationHandler<List<Notification>> h = (n, l) -> {
            l.add(n);
            return HandlerResult.CONTINUE;
        };
        MessageInfo first = a.receive(buf, seen, h);
        assertEquals(10, first.bytes());
        MessageInfo end = a.receive(buf, seen, h, Duration.ofSeconds(5));
        assertEquals(-1, end.bytes(), "end of stream after the peer's shutdown");
        assertTrue(
                seen.stream()
                        .anyMatch(n -> n instanceof AssociationChangeNotification x
                                && x.event() == AssociationChangeNotification.AssocChangeEvent.COMM_UP),
                seen.toString());
        assertTrue(seen.stream().anyMatch(n -> n instanceof ShutdownNotification), seen.toString());
        // the initiator sees SHUTDOWN complete, then end of stream
        MessageInfo cend = c.receive(buf, null, null, Duration.ofSeconds(5));
        assertEquals(-1, cend.bytes());
    }

    @Test
    void handlerReturnMakesReceiveReturnNullAndReceiveInsideTheHandlerIsRefused() throws Exception {
        SctpjServerChannel s = server();
        SctpjChannel c = client(s);
        c.connect(addr(s));
        SctpjChannel a = s.accept();
        toClose.add(a);
        ByteBuffer buf = ByteBuffer.allocate(100);
        AtomicReference<Throwable> inner = new AtomicReference<>();
        MessageInfo mi = a.receive(buf, null, (n, x) -> {
            inner.set(assertThrows(IllegalReceiveException.class, () -> a.receive(buf, null, null)));
            return HandlerResult.RETURN;
        });
        assertNull(mi);
        assertNotNull(inner.get());
    }

    @Test
    void abortFromTheClientEndsTheServersStreamWithCommLost() throws Exception {
        SctpjServerChannel s = server();
        SctpjChannel c = client(s);
        c.connect(addr(s));
        SctpjChannel a = s.accept();
        toClose.add(a);
        c.abort("test abort");
        List<Notification> seen = new ArrayList<>();
        MessageInfo end = a.receive(
                ByteBuffer.allocate(10),
                seen,
                (n, l) -> {
                    l.add(n);
                    return HandlerResult.CONTINUE;
                },
                Duration.ofSeconds(5));
        assertEquals(-1, end.bytes());
        assertTrue(
                seen.stream()
                        .anyMatch(n -> n instanceof AssociationChangeNotification x
                                && x.event() == AssociationChangeNotification.AssocChangeEvent.COMM_LOST),
                seen.toString());
        assertThrows(SocketException.class, () -> a.send(bytes(5, 0), null));
    }

    @Test
    void closeWithLingerZeroAbortsAndDefaultCloseShutsDownGracefully() throws Exception {
        SctpjServerChannel s = server();
        SctpjChannel c1 = client(s);
        c1.connect(addr(s));
        SctpjChannel a1 = s.accept();
        toClose.add(a1);
        c1.send(bytes(100, 0), null);
        c1.close(); // graceful in the background
        ByteBuffer buf = ByteBuffer.allocate(200);
        assertEquals(100, a1.receive(buf, null, null, Duration.ofSeconds(5)).bytes());
        assertEquals(-1, a1.receive(buf, null, null, Duration.ofSeconds(5)).bytes());

        SctpjChannel c2 = client(s);
        c2.connect(addr(s));
        SctpjChannel a2 = s.accept();
        toClose.add(a2);
        a2.setOption(SctpjSocketOptions.SO_LINGER, 0);
        a2.close(); // abort from the server side
        AtomicReference<AssociationChangeNotification.AssocChangeEvent> ev = new AtomicReference<>();
        assertEquals(
                -1,
                c2.receive(
                                buf,
                                null,
                                (n, x) -> {
                                    if (n instanceof AssociationChangeNotification acn) {
                                        ev.set(acn.event());
                                    }
                                    return HandlerResult.CONTINUE;
                                },
                                Duration.ofSeconds(5))
                        .bytes());
        assertEquals(AssociationChangeNotification.AssocChangeEvent.COMM_LOST, ev.get());
    }

    @Test
    void connectToNobodyFailsAndTimeoutsReturn() throws Exception {
        SctpjServerChannel s = server();
        SctpjChannel c = client(s);
        InetSocketAddress wrongPort = new InetSocketAddress(LO, addr(s).getPort() == 5 ? 6 : 5);
        // the server's endpoint answers INIT for another SCTP port... no: the port does not match, so
        // the packet is dropped and the connect times out
        assertThrows(SocketTimeoutException.class, () -> c.connect(wrongPort, Duration.ofMillis(300)));
        assertNull(s.accept(Duration.ofMillis(50)), "accept times out with null");

        SctpjChannel c2 = client(s);
        c2.connect(addr(s));
        SctpjChannel a = s.accept();
        toClose.add(a);
        long t0 = System.nanoTime();
        assertNull(a.receive(ByteBuffer.allocate(10), null, null, Duration.ofMillis(100)));
        assertTrue(System.nanoTime() - t0 >= 90_000_000L);
        a.configureBlocking(false);
        assertNull(a.receive(ByteBuffer.allocate(10), null, null));
    }

    @Test
    void connectRefusedWhenNotListening() throws Exception {
        SctpjServerChannel s = server();
        SctpjChannel c = client(s);
        c.connect(addr(s));
        SctpjChannel a = s.accept();
        toClose.add(a);
        // a client channel does not listen: connecting to it is refused with an ABORT
        SctpjChannel d = serverP.openSctpChannel();
        toClose.add(d);
        d.setOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, c.udpPort());
        InetSocketAddress target =
                (InetSocketAddress) c.getAllLocalAddresses().iterator().next();
        assertThrows(ConnectException.class, () -> d.connect(target, Duration.ofSeconds(5)));
    }

    @Test
    void sendBlocksWhileTheBufferIsFullTimesOutAndInterruptClosesTheChannel() throws Exception {
        SctpjServerChannel s = server();
        SctpjChannel c = client(s);
        c.setOption(SctpjSocketOptions.SO_SNDBUF, 64 * 1024);
        c.connect(addr(s));
        SctpjChannel a = s.accept();
        toClose.add(a);
        CountDownLatch release = new CountDownLatch(1);
        serverRt.threads().get(0).execute(() -> {
            try {
                release.await(); // stall the server: no SACKs come back
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            int sent = 0;
            while (c.send(bytes(8000, 0), null, Duration.ofMillis(200)) > 0) {
                sent++;
                assertTrue(sent < 100, "the send buffer should fill");
            }
            assertTrue(sent >= 7, "sent " + sent);
            CompletableFuture<Throwable> blocked = new CompletableFuture<>();
            Thread t = new Thread(() -> {
                try {
                    c.send(bytes(8000, 0), null);
                    blocked.complete(null);
                } catch (Throwable e) {
                    blocked.complete(e);
                }
            });
            t.start();
            Thread.sleep(100);
            assertFalse(blocked.isDone(), "send blocks while the buffer is full");
            t.interrupt();
            assertInstanceOf(ClosedByInterruptException.class, blocked.get(5, TimeUnit.SECONDS));
            assertFalse(c.isOpen());
        } finally {
            release.countDown();
        }
    }

    @Test
    void aReaderThatDoesNotReadStopsTheSenderThroughTheWindowAndLosesNothing() throws Exception {
        int rcvbuf = 64 * 1024;
        // A queue limit far below what is sent: before flow control this limit aborted the association.
        SctpjServerChannel s = serverWithReceiveBuffer(rcvbuf);
        SctpjChannel c = client(s);
        c.setOption(SctpjSocketOptions.SO_SNDBUF, 64 * 1024);
        c.connect(addr(s));
        SctpjChannel a = s.accept();
        toClose.add(a);
        int size = 4000;
        int sent = 0;
        while (c.send(bytes(size, sent), null, Duration.ofMillis(300)) > 0) {
            sent++;
            assertTrue(sent < 1000, "the sender should be stopped by the window");
        }
        // The receive queue holds about a window, the send buffer the rest: nothing more moves.
        assertTrue(sent * size <= rcvbuf + 64 * 1024 + 2 * size, "sent " + sent + " messages");
        assertTrue(sent * size >= rcvbuf, "sent only " + sent + " messages");
        assertTrue(a.isOpen() && c.isOpen(), "no abort: the window held the sender");
        // Now read everything while the sender goes on: every message, in order, intact.
        int total = sent + 200;
        int firstUnsent = sent;
        Thread sender = new Thread(() -> {
            try {
                for (int i = firstUnsent; i < total; i++) {
                    c.send(bytes(size, i), null);
                }
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        sender.start();
        ByteBuffer dst = ByteBuffer.allocate(size);
        for (int i = 0; i < total; i++) {
            dst.clear();
            MessageInfo mi = a.receive(dst, null, null, Duration.ofSeconds(10));
            assertNotNull(mi, "message " + i + " did not arrive");
            assertEquals(size, mi.bytes());
            dst.flip();
            assertEquals(bytes(size, i), dst, "message " + i);
        }
        sender.join(10_000);
        assertFalse(sender.isAlive());
        assertTrue(a.isOpen() && c.isOpen());
    }

    @Test
    void aTimedAcceptWaitingBeforeTheConnectReturnsTheAssociationOnceItIsUp() throws Exception {
        SctpjServerChannel s = server();
        CompletableFuture<SctpjChannel> accepted = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                accepted.complete(s.accept(Duration.ofSeconds(60)));
            } catch (Throwable e) {
                accepted.completeExceptionally(e);
            }
        });
        t.start();
        Thread.sleep(100); // accept is waiting when the INIT arrives
        SctpjChannel c = client(s);
        c.connect(addr(s));
        // The association was queued for accept while still being set up; accept must be woken
        // again when it comes up, not sleep out its 60 s and return null.
        SctpjChannel a = accepted.get(20, TimeUnit.SECONDS);
        assertNotNull(a);
        toClose.add(a);
        c.send(bytes(10, 1), null);
        ByteBuffer dst = ByteBuffer.allocate(10);
        assertNotNull(a.receive(dst, null, null, Duration.ofSeconds(10)));
        assertEquals(bytes(10, 1), dst.flip());
    }

    @Test
    void closingFromAnotherThreadWakesABlockedReceiveWithAsynchronousClose() throws Exception {
        SctpjServerChannel s = server();
        SctpjChannel c = client(s);
        c.connect(addr(s));
        SctpjChannel a = s.accept();
        toClose.add(a);
        CompletableFuture<Throwable> r = CompletableFuture.supplyAsync(() -> {
            try {
                a.receive(ByteBuffer.allocate(10), null, null);
                return null;
            } catch (Throwable e) {
                return e;
            }
        });
        Thread.sleep(100);
        a.close();
        assertInstanceOf(AsynchronousCloseException.class, r.get(5, TimeUnit.SECONDS));
    }

    @Test
    void closingTheServerWakesABlockedAcceptWithAsynchronousClose() throws Exception {
        SctpjServerChannel s = server();
        CompletableFuture<Throwable> r = CompletableFuture.supplyAsync(() -> {
            try {
                s.accept();
                return null;
            } catch (Throwable e) {
                return e;
            }
        });
        Thread.sleep(100);
        s.close();
        assertInstanceOf(AsynchronousCloseException.class, r.get(5, TimeUnit.SECONDS));
    }

    @Test
    void oneToManyServesSeveralAssociationsAndBranchPeelsOneOff() throws Exception {
        SctpjMultiChannel m = serverP.openMultiChannel();
        toClose.add(m);
        m.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0, null);
        m.bind(new InetSocketAddress(LO, 0));
        InetSocketAddress maddr =
                (InetSocketAddress) m.getAllLocalAddresses().iterator().next();
        List<SctpjChannel> clients = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            SctpjChannel c = clientP.openSctpChannel();
            toClose.add(c);
            c.setOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, m.udpPort());
            c.connect(maddr);
            c.send(bytes(100 + i, i), SctpjMessageInfo.createOutgoing(null, 0).payloadProtocolID(i));
            clients.add(c);
        }
        ByteBuffer buf = ByteBuffer.allocate(1000);
        Set<Association> from = new java.util.HashSet<>();
        for (int i = 0; i < 3; i++) {
            buf.clear();
            MessageInfo mi = m.receive(buf, null, null, Duration.ofSeconds(5));
            from.add(mi.association());
            // echo back on the same association
            buf.flip();
            m.send(
                    buf,
                    SctpjMessageInfo.createOutgoing(mi.association(), null, 0)
                            .payloadProtocolID(mi.payloadProtocolID()));
        }
        assertEquals(3, from.size());
        assertEquals(from, m.associations());
        for (int i = 0; i < 3; i++) {
            buf.clear();
            MessageInfo mi = clients.get(i).receive(buf, null, null, Duration.ofSeconds(5));
            assertEquals(100 + i, mi.bytes());
            assertEquals(i, mi.payloadProtocolID());
        }
        // peel off the first client's association; queued messages move with it
        clients.get(0).send(bytes(5, 9), null);
        Thread.sleep(100);
        Association first = null;
        for (Association x : m.associations()) {
            if (m.getRemoteAddresses(x).iterator().next() != null && first == null) {
                first = x;
            }
        }
        // find which association is client 0 by a message that only it sends
        SctpjChannel branch = null;
        for (Association x : m.associations()) {
            SctpjChannel b = m.branch(x);
            toClose.add(b);
            buf.clear();
            MessageInfo mi = b.receive(buf, null, null, Duration.ofMillis(200));
            if (mi != null && mi.bytes() == 5) {
                branch = b;
                break;
            }
        }
        assertNotNull(branch);
        branch.send(bytes(7, 1), null);
        buf.clear();
        assertEquals(
                7,
                clients.get(0).receive(buf, null, null, Duration.ofSeconds(5)).bytes());
        assertFalse(m.associations().contains(branch.association()));
    }

    @Test
    void oneToManySendToAnAddressSetsAnAssociationUp() throws Exception {
        SctpjMultiChannel m1 = serverP.openMultiChannel();
        SctpjMultiChannel m2 = clientP.openMultiChannel();
        toClose.add(m1);
        toClose.add(m2);
        m1.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0, null);
        m2.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0, null);
        m1.bind(new InetSocketAddress(LO, 0));
        m2.bind(new InetSocketAddress(LO, 0));
        m2.setOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, m1.udpPort(), null);
        InetSocketAddress to =
                (InetSocketAddress) m1.getAllLocalAddresses().iterator().next();
        m2.send(bytes(42, 3), SctpjMessageInfo.createOutgoing(to, 2));
        m2.send(bytes(43, 3), SctpjMessageInfo.createOutgoing(to, 2));
        assertEquals(1, m2.associations().size(), "the second send reuses the association");
        ByteBuffer buf = ByteBuffer.allocate(100);
        assertEquals(42, m1.receive(buf, null, null, Duration.ofSeconds(5)).bytes());
        buf.clear();
        MessageInfo mi = m1.receive(buf, null, null, Duration.ofSeconds(5));
        assertEquals(43, mi.bytes());
        assertEquals(2, mi.streamNumber());
    }

    @Test
    void optionsAreValidatedAndProtocolOptionsFixedAfterConnect() throws Exception {
        SctpjServerChannel s = server();
        SctpjChannel c = client(s);
        c.setOption(SctpjSocketOptions.SCTP_NODELAY, true);
        c.setOption(SctpjSocketOptions.SCTP_INIT_MAXSTREAMS, InitMaxStreams.create(100, 4));
        c.setOption(
                SctpjSocketOptions.SCTP_RTOINFO,
                new SctpjSocketOptions.RtoInfo(Duration.ofMillis(200), Duration.ofMillis(50), Duration.ofMillis(400)));
        c.setOption(
                SctpjSocketOptions.SCTP_PEER_ADDR_PARAMS,
                new SctpjSocketOptions.PeerAddrParams(Duration.ofMillis(500), true, 3, 1400));
        c.setOption(SctpjSocketOptions.SCTP_EVENTS, EnumSet.of(Event.SHUTDOWN));
        assertThrows(
                UnsupportedOperationException.class,
                () -> c.setOption(SctpjSocketOptions.SCTP_EXPLICIT_COMPLETE, true));
        assertThrows(
                IllegalArgumentException.class,
                () -> c.setOption(
                        SctpjSocketOptions.SCTP_RTOINFO,
                        new SctpjSocketOptions.RtoInfo(
                                Duration.ofMillis(200), Duration.ofMillis(500), Duration.ofMillis(400))));
        assertThrows(
                IllegalArgumentException.class,
                () -> c.setOption(SctpjSocketOptions.SCTP_RECEIVE_SPIN, Duration.ofMillis(11)));
        assertThrows(
                IllegalArgumentException.class,
                () -> c.setOption(SctpjSocketOptions.SCTP_RECEIVE_SPIN, Duration.ofNanos(-1)));
        c.connect(addr(s));
        c.setOption(SctpjSocketOptions.SCTP_RECEIVE_SPIN, Duration.ofMillis(1)); // live
        assertEquals(Duration.ofMillis(1), c.getOption(SctpjSocketOptions.SCTP_RECEIVE_SPIN));
        assertEquals(4, c.association().maxOutboundStreams());
        assertThrows(InvalidStreamException.class, () -> c.send(bytes(1, 0), SctpjMessageInfo.createOutgoing(null, 4)));
        assertThrows(IllegalStateException.class, () -> c.setOption(SctpjSocketOptions.SO_SNDBUF, 10_000));
        assertEquals(true, c.getOption(SctpjSocketOptions.SCTP_NODELAY));
        assertEquals(new InetSocketAddress(LO, addr(s).getPort()), c.getOption(SctpjSocketOptions.SCTP_PRIMARY_ADDR));
        assertTrue(c.getOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT) > 0);
        assertEquals(Set.of(Event.SHUTDOWN), c.getOption(SctpjSocketOptions.SCTP_EVENTS));
        assertNotNull(c.info());
        assertThrows(IllegalArgumentException.class, () -> SctpjMessageInfo.createOutgoing(null, 0)
                .timeToLive(-1));
        assertThrows(IllegalArgumentException.class, () -> SctpjMessageInfo.createOutgoing(null, 0)
                .timeToLive(1L << 32));
    }

    /**
     * The time to live of {@link MessageInfo} (PR-SCTP's timed reliability, RFC 3758 section 4.1):
     * a message that waits behind a closed window past its lifetime never goes on the wire and
     * comes back as a {@link SendFailedNotification} with its data, unsent and abandoned; the
     * messages around it, reliable, all arrive in order; the counters say one was abandoned.
     */
    @Test
    void aMessagePastItsTimeToLiveComesBackAsSendFailedAndTheOthersArrive() throws Exception {
        int rcvbuf = 16 * 1024;
        SctpjServerChannel s = serverWithReceiveBuffer(rcvbuf);
        SctpjChannel c = client(s);
        c.setOption(SctpjSocketOptions.SO_SNDBUF, 1 << 20);
        c.connect(addr(s));
        SctpjChannel a = s.accept();
        toClose.add(a);
        int size = 2000;
        // The receive window and the socket's receive queue take about 24 of them (3 x 16 KiB):
        // the rest waits in the send buffer, the message with a lifetime behind them.
        int sent = 40;
        for (int i = 0; i < sent; i++) {
            assertEquals(size, c.send(bytes(size, i), null));
        }
        ByteBuffer ttl = bytes(size, 99_999);
        assertEquals(
                size,
                c.send(ttl.duplicate(), SctpjMessageInfo.createOutgoing(null, 0).timeToLive(10)));
        assertEquals(size, c.send(bytes(size, sent), null));
        Thread.sleep(100); // its lifetime runs out while it waits for the window
        ByteBuffer dst = ByteBuffer.allocate(size);
        for (int i = 0; i < sent; i++) {
            dst.clear();
            MessageInfo mi = a.receive(dst, null, null, Duration.ofSeconds(10));
            assertNotNull(mi, "message " + i);
            assertEquals(bytes(size, i), dst.flip(), "message " + i);
        }
        dst.clear();
        assertNotNull(a.receive(dst, null, null, Duration.ofSeconds(10)));
        assertEquals(bytes(size, sent), dst.flip(), "the one after the abandoned message comes next");
        List<SctpjSendFailedNotification> failed = new java.util.concurrent.CopyOnWriteArrayList<>();
        AbstractNotificationHandler<Void> h = new AbstractNotificationHandler<>() {
            @Override
            public HandlerResult handleNotification(SendFailedNotification n, Void attachment) {
                failed.add((SctpjSendFailedNotification) n);
                return HandlerResult.RETURN;
            }
        };
        c.receive(ByteBuffer.allocate(100), null, h, Duration.ofSeconds(5));
        assertEquals(1, failed.size());
        SctpjSendFailedNotification f = failed.get(0);
        assertTrue(f.abandoned());
        assertEquals(0, f.errorCode(), "never sent (SCTP_DATA_UNSENT)");
        assertEquals(ttl, f.buffer());
        assertEquals(1, c.prStatus().timeToLive().unsent());
        assertEquals(1, c.prStatus(0).total().total());
    }

    /**
     * Partial delivery (RFC 9260 section 6.9): a message forty times the receiver's receive buffer
     * arrives in parts, {@link MessageInfo#isComplete()} false on each but the last, and the parts
     * are exactly the message. Before partial delivery the transfer stopped once the receive buffer
     * was full of the message, and the receive waited forever.
     */
    @Test
    void aMessageFortyTimesTheReceiveBufferArrivesInPartsMarkedIncompleteUntilTheLast() throws Exception {
        int receiveBuffer = 64 << 10;
        int size = 3_000_000;
        SctpjServerChannel s = SctpProvider.of(
                        CallbackRuntime.of(serverRt),
                        OPTS.toBuilder().receiveBufferBytes(receiveBuffer).build())
                .openServerChannel();
        toClose.add(s);
        s.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0);
        s.bind(new InetSocketAddress(LO, 0));
        SctpjChannel c = SctpProvider.of(
                        CallbackRuntime.of(clientRt),
                        OPTS.toBuilder()
                                .sendBufferBytes(8 << 20)
                                .maxMessageSize(size)
                                .build())
                .openSctpChannel();
        toClose.add(c);
        c.setOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, s.udpPort());
        assertTrue(c.connect(addr(s), Duration.ofSeconds(5)));
        SctpjChannel a = s.accept(Duration.ofSeconds(5));
        assertNotNull(a);
        toClose.add(a);

        byte[] m = new byte[size];
        new java.util.SplittableRandom(5).nextBytes(m);
        assertEquals(
                size,
                c.send(
                        ByteBuffer.wrap(m),
                        SctpjMessageInfo.createOutgoing(null, 3).payloadProtocolID(77)));

        java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
        ByteBuffer buf = ByteBuffer.allocate(1 << 20); // larger than the receive buffer
        int parts = 0;
        while (true) {
            buf.clear();
            MessageInfo mi = a.receive(buf, null, null, Duration.ofSeconds(20));
            assertNotNull(mi, "part " + parts + " after " + got.size() + " bytes: the transfer stalled");
            assertEquals(3, mi.streamNumber());
            assertEquals(77, mi.payloadProtocolID());
            got.write(buf.array(), 0, buf.position());
            parts++;
            if (mi.isComplete()) {
                break;
            }
            assertTrue(got.size() < size, "incomplete after the whole message: " + got.size());
        }
        assertTrue(parts > 1, "came in parts: " + parts);
        org.junit.jupiter.api.Assertions.assertArrayEquals(m, got.toByteArray());
    }

    /**
     * RFC 6458 section 6.1.7: a message that was arriving in parts when the peer aborted the
     * association gives the subscribed {@link PartialDeliveryAbortedNotification}, with its stream
     * and how much of it had come.
     */
    @Test
    void aMessageCutOffByAnAbortGivesThePartialDeliveryAbortedNotification() throws Exception {
        int size = 3_000_000;
        SctpjServerChannel s = SctpProvider.of(
                        CallbackRuntime.of(serverRt),
                        OPTS.toBuilder().receiveBufferBytes(64 << 10).build())
                .openServerChannel();
        toClose.add(s);
        s.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0);
        s.bind(new InetSocketAddress(LO, 0));
        SctpjChannel c = SctpProvider.of(
                        CallbackRuntime.of(clientRt),
                        OPTS.toBuilder()
                                .sendBufferBytes(8 << 20)
                                .maxMessageSize(size)
                                .build())
                .openSctpChannel();
        toClose.add(c);
        c.setOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, s.udpPort());
        assertTrue(c.connect(addr(s), Duration.ofSeconds(5)));
        SctpjChannel a = s.accept(Duration.ofSeconds(5));
        assertNotNull(a);
        toClose.add(a);
        a.setOption(
                SctpjSocketOptions.SCTP_EVENTS, EnumSet.of(Event.ASSOCIATION_CHANGE, Event.PARTIAL_DELIVERY_ABORTED));
        c.send(ByteBuffer.wrap(new byte[size]), SctpjMessageInfo.createOutgoing(null, 3));
        ByteBuffer buf = ByteBuffer.allocate(1 << 20);
        MessageInfo first = a.receive(buf, null, null, Duration.ofSeconds(20));
        assertNotNull(first);
        assertFalse(first.isComplete(), "the first part");
        c.setOption(SctpjSocketOptions.SO_LINGER, 0);
        c.close(); // ABORT
        PartialDeliveryAbortedNotification n = nextNotification(a, PartialDeliveryAbortedNotification.class);
        assertEquals(3, n.streamNumber());
        assertFalse(n.unordered());
        assertTrue(n.deliveredBytes() >= first.bytes() && n.deliveredBytes() < size, n.toString());
    }

    /**
     * The stream scheduler option SCTP_PLUGGABLE_SS before connect and on a live association, and
     * the per-stream value of RFC 8260 section 4.3.3 (SCTP_SS_VALUE) as channel methods, with the
     * errors for misuse.
     */
    @Test
    void theSchedulerChosenBeforeConnectIsLiveAndCanBeSwitched() throws Exception {
        SctpjServerChannel s = server();
        SctpjChannel c = client(s);
        assertEquals(StreamSchedulerKind.ROUND_ROBIN, c.getOption(SctpjSocketOptions.SCTP_PLUGGABLE_SS));
        c.setOption(SctpjSocketOptions.SCTP_PLUGGABLE_SS, StreamSchedulerKind.PRIORITY);
        assertThrows(NotYetConnectedException.class, () -> c.setStreamValue(1, 10));
        assertTrue(c.connect(addr(s), Duration.ofSeconds(5)));
        SctpjChannel a = s.accept(Duration.ofSeconds(5));
        assertNotNull(a);
        toClose.add(a);
        assertEquals(StreamSchedulerKind.PRIORITY, c.getOption(SctpjSocketOptions.SCTP_PLUGGABLE_SS));
        assertEquals(StreamSchedulerKind.ROUND_ROBIN, a.getOption(SctpjSocketOptions.SCTP_PLUGGABLE_SS));

        c.setStreamValue(1, 10);
        assertEquals(10, c.streamValue(1));
        IllegalArgumentException range = assertThrows(IllegalArgumentException.class, () -> c.setStreamValue(1, -1));
        assertTrue(range.getMessage().contains("0..65535"), range.getMessage());
        assertThrows(IllegalArgumentException.class, () -> c.setStreamValue(16, 1), "16 outbound streams: 0..15");

        // Messages sent before and after a switch all arrive, in order per stream.
        for (int i = 0; i < 20; i++) {
            c.send(ByteBuffer.wrap(new byte[] {(byte) i}), SctpjMessageInfo.createOutgoing(null, i % 2));
        }
        c.setOption(SctpjSocketOptions.SCTP_PLUGGABLE_SS, StreamSchedulerKind.FAIR_CAPACITY);
        assertEquals(StreamSchedulerKind.FAIR_CAPACITY, c.getOption(SctpjSocketOptions.SCTP_PLUGGABLE_SS));
        for (int i = 20; i < 40; i++) {
            c.send(ByteBuffer.wrap(new byte[] {(byte) i}), SctpjMessageInfo.createOutgoing(null, i % 2));
        }
        int[] last = {-1, -1};
        ByteBuffer buf = ByteBuffer.allocate(16);
        for (int n = 0; n < 40; n++) {
            buf.clear();
            MessageInfo mi = a.receive(buf, null, null, Duration.ofSeconds(5));
            assertNotNull(mi, "message " + n);
            int v = buf.get(0);
            assertTrue(v > last[mi.streamNumber()], "stream " + mi.streamNumber() + " out of order");
            last[mi.streamNumber()] = v;
        }
        IllegalStateException none = assertThrows(IllegalStateException.class, () -> c.setStreamValue(1, 3));
        assertTrue(none.getMessage().contains("PRIORITY"), none.getMessage());
    }

    /** SCTP_PLUGGABLE_SS and the stream value for one association of a one-to-many channel. */
    @Test
    void aOneToManyChannelSwitchesOneAssociation() throws Exception {
        SctpjServerChannel s = server();
        SctpjMultiChannel m = clientP.openMultiChannel();
        toClose.add(m);
        m.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0, null);
        m.setOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, s.udpPort(), null);
        m.bind(new InetSocketAddress(LO, 0));
        // Set on the bound channel: the associations set up from now on start with it.
        m.setOption(SctpjSocketOptions.SCTP_PLUGGABLE_SS, StreamSchedulerKind.FAIR_CAPACITY, null);
        m.send(ByteBuffer.wrap(new byte[] {1}), SctpjMessageInfo.createOutgoing(addr(s), 0));
        SctpjChannel a = s.accept(Duration.ofSeconds(5));
        assertNotNull(a);
        toClose.add(a);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (m.associations().isEmpty() && System.nanoTime() < end) {
            Thread.sleep(1);
        }
        Association assoc = m.associations().iterator().next();
        assertEquals(StreamSchedulerKind.FAIR_CAPACITY, m.getOption(SctpjSocketOptions.SCTP_PLUGGABLE_SS, assoc));
        m.setOption(SctpjSocketOptions.SCTP_PLUGGABLE_SS, StreamSchedulerKind.WEIGHTED_FAIR_QUEUEING, assoc);
        assertEquals(
                StreamSchedulerKind.WEIGHTED_FAIR_QUEUEING, m.getOption(SctpjSocketOptions.SCTP_PLUGGABLE_SS, assoc));
        m.setStreamValue(assoc, 3, 7);
        assertEquals(7, m.streamValue(assoc, 3));
        assertThrows(
                IllegalArgumentException.class, () -> m.setOption(SctpjSocketOptions.SCTP_PLUGGABLE_SS, null, assoc));
    }

    /**
     * RFC 6458 section 6.1.9: once SENDER_DRY is subscribed, a {@link SenderDryNotification} for
     * the channel's association comes after what it sent has been acknowledged.
     */
    @Test
    void senderDryComesWhenSubscribedAfterWhatWasSentIsAcknowledged() throws Exception {
        SctpjServerChannel s = server();
        SctpjChannel c = client(s);
        c.setOption(SctpjSocketOptions.SCTP_EVENTS, EnumSet.of(Event.ASSOCIATION_CHANGE, Event.SENDER_DRY));
        c.connect(addr(s));
        toClose.add(s.accept());
        c.send(bytes(1000, 3), SctpjMessageInfo.createOutgoing(null, 0));
        SenderDryNotification n = nextNotification(c, SenderDryNotification.class);
        assertEquals(c.association(), n.association());
    }

    /**
     * RFC 6458 section 6.1.6: once subscribed, the peer's Adaptation Layer Indication comes as a
     * notification after COMM_UP; without the subscription it does not come at all.
     */
    @Test
    void anAdaptationIndicationComesOnlyWhenSubscribed() throws Exception {
        SctpjServerChannel s = SctpProvider.of(
                        CallbackRuntime.of(serverRt),
                        OPTS.toBuilder().adaptationIndication(42).build())
                .openServerChannel();
        toClose.add(s);
        s.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0);
        s.bind(new InetSocketAddress(LO, 0));
        for (boolean subscribed : new boolean[] {true, false}) {
            SctpjChannel c = client(s);
            if (subscribed) {
                c.setOption(
                        SctpjSocketOptions.SCTP_EVENTS,
                        EnumSet.of(Event.ASSOCIATION_CHANGE, Event.ADAPTATION_INDICATION));
            }
            c.connect(addr(s));
            SctpjChannel a = s.accept();
            toClose.add(a);
            a.send(bytes(5, 1), SctpjMessageInfo.createOutgoing(null, 0));
            List<Notification> seen = new ArrayList<>();
            NotificationHandler<List<Notification>> h = (n, l) -> {
                l.add(n);
                return HandlerResult.CONTINUE;
            };
            MessageInfo mi = c.receive(ByteBuffer.allocate(100), seen, h, Duration.ofSeconds(5));
            assertEquals(5, mi.bytes());
            List<Long> codes = seen.stream()
                    .filter(n -> n instanceof AdaptationIndicationNotification)
                    .map(n -> ((AdaptationIndicationNotification) n).indication())
                    .toList();
            assertEquals(subscribed ? List.of(42L) : List.of(), codes, seen.toString());
        }
    }

    /**
     * RFC 6458 section 6.1.8: a client offering AUTH (RFC 4895) to a server that does not gets the
     * NO_AUTH notification once subscribed; then a key it sets, activates and deactivates on its
     * channel gives FREE_KEY for the key it left (the association runs without AUTH, so the keys
     * are only kept).
     */
    @Test
    void authenticationNotificationsWhenSubscribed() throws Exception {
        SctpjServerChannel s = serverP.openServerChannel();
        toClose.add(s);
        s.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0);
        s.bind(new InetSocketAddress(LO, 0));
        SctpjChannel c = SctpProvider.of(
                        CallbackRuntime.of(clientRt),
                        OPTS.toBuilder().enable(org.sctpj.stack.Extension.AUTH).build())
                .openSctpChannel();
        toClose.add(c);
        c.setOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, s.udpPort());
        c.setOption(SctpjSocketOptions.SCTP_EVENTS, EnumSet.of(Event.ASSOCIATION_CHANGE, Event.AUTHENTICATION));
        c.connect(addr(s));
        toClose.add(s.accept());
        AuthenticationNotification n = nextNotification(c, AuthenticationNotification.class);
        assertEquals(org.sctpj.stack.SctpEvent.AuthIndication.NO_AUTH, n.indication());
        c.setAuthKey(3, new byte[] {9});
        c.setActiveAuthKey(3);
        c.deactivateAuthKey(0);
        n = nextNotification(c, AuthenticationNotification.class);
        assertEquals(org.sctpj.stack.SctpEvent.AuthIndication.FREE_KEY, n.indication());
        assertEquals(0, n.keyId());
    }

    /**
     * RFC 5061 through the JDK API: with ASCONF and AUTH offered by both ends, {@code
     * SCTP_SET_PEER_PRIMARY_ADDR} asks the peer to take our address as its primary and the answer
     * arrives as a {@link LocalAddressChangeNotification}; the last address cannot be unbound (an
     * exception says so); over UDP encapsulation an address bound after connect gets a socket of
     * its own and is added (ADDED), then unbound (REMOVED). Before connect the option is refused.
     */
    @Test
    void setPeerPrimaryAddressAndLiveBindingWithAsconf() throws Exception {
        SctpOptions asconf = OPTS.toBuilder()
                .enable(org.sctpj.stack.Extension.AUTH)
                .enable(org.sctpj.stack.Extension.ASCONF)
                .build();
        SctpjServerChannel s =
                SctpProvider.of(CallbackRuntime.of(serverRt), asconf).openServerChannel();
        toClose.add(s);
        s.setOption(SctpjSocketOptions.SCTP_UDP_ENCAPS_PORT, 0);
        s.bind(new InetSocketAddress(LO, 0));
        SctpjChannel c = SctpProvider.of(CallbackRuntime.of(clientRt), asconf).openSctpChannel();
        toClose.add(c);
        c.setOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, s.udpPort());
        c.setOption(SctpjSocketOptions.SCTP_EVENTS, EnumSet.of(Event.ASSOCIATION_CHANGE, Event.LOCAL_ADDRESS_CHANGE));
        c.bind(new InetSocketAddress(LO, 0));
        InetSocketAddress mine = new InetSocketAddress(LO, 0);
        assertThrows(
                java.nio.channels.NotYetConnectedException.class,
                () -> c.setOption(SctpjSocketOptions.SCTP_SET_PEER_PRIMARY_ADDR, mine));
        c.connect(addr(s));
        toClose.add(s.accept());
        c.setOption(SctpjSocketOptions.SCTP_SET_PEER_PRIMARY_ADDR, mine);
        LocalAddressChangeNotification n = nextNotification(c, LocalAddressChangeNotification.class);
        assertEquals(org.sctpj.stack.SctpEvent.LocalAddressState.MADE_PRIMARY, n.state());
        assertEquals(LO, n.address());
        assertThrows(IllegalUnbindException.class, () -> c.unbindAddress(LO));
        // over UDP encapsulation too: the layer opens a socket on the new address (same port)
        InetAddress second = InetAddress.getByName("127.0.0.2");
        c.bindAddress(second);
        n = nextNotification(c, LocalAddressChangeNotification.class);
        assertEquals(org.sctpj.stack.SctpEvent.LocalAddressState.ADDED, n.state());
        assertEquals(second, n.address());
        c.unbindAddress(second);
        n = nextNotification(c, LocalAddressChangeNotification.class);
        assertEquals(org.sctpj.stack.SctpEvent.LocalAddressState.REMOVED, n.state(), n.toString());
        assertEquals(second, n.address());
    }

    /** The notifications of stream reconfiguration (RFC 6525 section 6.1), with ASSOCIATION_CHANGE. */
    static final EnumSet<Event> RECONFIG_EVENTS =
            EnumSet.of(Event.ASSOCIATION_CHANGE, Event.STREAM_RESET, Event.STREAM_CHANGE, Event.ASSOCIATION_RESET);

    /** The next notification of {@code type} the channel receives (messages are skipped). */
    static <T extends Notification> T nextNotification(SctpjChannel ch, Class<T> type) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(1000);
        List<Notification> got = new ArrayList<>();
        long end = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < end) {
            buf.clear();
            ch.receive(
                    buf,
                    got,
                    (n, l) -> {
                        l.add(n);
                        return type.isInstance(n) ? HandlerResult.RETURN : HandlerResult.CONTINUE;
                    },
                    Duration.ofSeconds(5));
            for (Notification n : got) {
                if (type.isInstance(n)) {
                    return type.cast(n);
                }
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " in " + got);
    }

    /**
     * Stream reconfiguration (RFC 6525) through the socket API: the calls of {@link SctpjChannel}
     * and the notifications {@link StreamResetNotification}, {@link StreamChangeNotification} and
     * {@link AssociationResetNotification} on both sides, to a subscriber of their events; the
     * association's view follows the added streams.
     */
    @Test
    void resetsAndAddedStreamsAreNotifiedOnBothSides() throws Exception {
        SctpjServerChannel s = server();
        s.setOption(SctpjSocketOptions.SCTP_EVENTS, RECONFIG_EVENTS);
        SctpjChannel c = client(s);
        c.setOption(SctpjSocketOptions.SCTP_EVENTS, RECONFIG_EVENTS);
        assertTrue(c.connect(addr(s), Duration.ofSeconds(5)));
        SctpjChannel a = s.accept(Duration.ofSeconds(5));
        assertNotNull(a);
        toClose.add(a);

        c.resetStreams(new int[] {3}, true, false);
        StreamResetNotification out = nextNotification(c, StreamResetNotification.class);
        assertTrue(out.outgoing());
        assertEquals(org.sctpj.stack.SctpEvent.ReconfigOutcome.PERFORMED, out.outcome());
        assertEquals(List.of(3), out.streams());
        StreamResetNotification in = nextNotification(a, StreamResetNotification.class);
        assertFalse(in.outgoing());
        assertEquals(List.of(3), in.streams());

        int before = c.association().maxOutboundStreams();
        assertThrows(
                InvalidStreamException.class,
                () -> c.send(ByteBuffer.wrap(new byte[] {1}), SctpjMessageInfo.createOutgoing(null, before)));
        c.addStreams(2, 0);
        StreamChangeNotification ch = nextNotification(c, StreamChangeNotification.class);
        assertEquals(before + 2, ch.outboundStreams());
        assertEquals(before + 2, c.association().maxOutboundStreams(), "the association's view follows");
        c.send(ByteBuffer.wrap(new byte[] {9}), SctpjMessageInfo.createOutgoing(null, before + 1));
        MessageInfo mi = a.receive(ByteBuffer.allocate(10), null, null, Duration.ofSeconds(5));
        assertEquals(before + 1, mi.streamNumber());

        c.resetAssociation();
        AssociationResetNotification ra = nextNotification(c, AssociationResetNotification.class);
        AssociationResetNotification rz = nextNotification(a, AssociationResetNotification.class);
        assertEquals(org.sctpj.stack.SctpEvent.ReconfigOutcome.PERFORMED, ra.outcome());
        assertEquals(ra.localTsn(), rz.remoteTsn());
        assertEquals(ra.remoteTsn(), rz.localTsn());
        assertInstanceOf(Association.class, ra.association());
    }
}
