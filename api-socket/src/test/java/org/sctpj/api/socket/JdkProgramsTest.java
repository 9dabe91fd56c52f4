package org.sctpj.api.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.nio.sctp.AbstractNotificationHandler;
import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.AssociationChangeNotification;
import com.sun.nio.sctp.AssociationChangeNotification.AssocChangeEvent;
import com.sun.nio.sctp.HandlerResult;
import com.sun.nio.sctp.MessageInfo;
import com.sun.nio.sctp.SctpChannel;
import com.sun.nio.sctp.SctpMultiChannel;
import com.sun.nio.sctp.SctpServerChannel;
import com.sun.nio.sctp.SctpStandardSocketOptions;
import com.sun.nio.sctp.ShutdownNotification;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sctpj.stack.SctpOptions;

/**
 * Programs of the kinds the OpenJDK SCTP project published for {@code com.sun.nio.sctp} (a
 * multistreaming daytime server and client, a one-to-many server, a peel-off server), written
 * here afresh with the JDK's types only: the one sctpj line in each is where a channel is opened
 * ({@code sctp.openServerChannel()} for {@code SctpServerChannel.open()}, and so on).
 */
@Timeout(60)
class JdkProgramsTest {

    static final InetAddress LO = InetAddress.getLoopbackAddress();

    final TwoStacks stacks = new TwoStacks();
    /** The servers' UDP encapsulation port, also the port the clients send to. */
    final int udpPort = freeUdpPort();

    final SctpProvider serverSctp = stacks.server(SctpOptions.LAN).withUdpPorts(udpPort, udpPort);
    final SctpProvider clientSctp = stacks.client(SctpOptions.LAN).withUdpPorts(0, udpPort);

    @AfterEach
    void tearDown() throws Exception {
        stacks.close();
    }

    static int freeUdpPort() {
        try (DatagramSocket s = new DatagramSocket(0, LO)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    // ------------------------------------------------------------------ multistreaming daytime

    static final int US_STREAM = 0;
    static final int FR_STREAM = 1;

    /** Server: each client gets the time on two streams, one per language, then a shutdown. */
    static void daytimeServer(SctpServerChannel ssc, int clients) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(60);
        for (int i = 0; i < clients; i++) {
            try (SctpChannel sc = ssc.accept()) {
                String now = java.time.LocalTime.of(12, 30).toString();
                buf.clear()
                        .put(("US " + now).getBytes(StandardCharsets.US_ASCII))
                        .flip();
                sc.send(buf, MessageInfo.createOutgoing(null, US_STREAM));
                buf.clear()
                        .put(("FR " + now).getBytes(StandardCharsets.US_ASCII))
                        .flip();
                sc.send(buf, MessageInfo.createOutgoing(null, FR_STREAM));
                sc.shutdown();
            }
        }
    }

    /** The client's handler: notes the association and returns at the peer's shutdown. */
    static final class DaytimeHandler extends AbstractNotificationHandler<List<String>> {
        @Override
        public HandlerResult handleNotification(AssociationChangeNotification n, List<String> log) {
            if (n.event() == AssocChangeEvent.COMM_UP) {
                log.add("up: out " + n.association().maxOutboundStreams());
            }
            return HandlerResult.CONTINUE;
        }

        @Override
        public HandlerResult handleNotification(ShutdownNotification n, List<String> log) {
            log.add("shutdown");
            return HandlerResult.RETURN;
        }
    }

    /** Client: reads until the server shuts down; returns the log of what it saw. */
    static List<String> daytimeClient(SctpChannel sc, SocketAddress server) throws IOException {
        List<String> log = new ArrayList<>();
        sc.connect(server, 2, 2);
        ByteBuffer buf = ByteBuffer.allocateDirect(60);
        DaytimeHandler handler = new DaytimeHandler();
        MessageInfo mi;
        while ((mi = sc.receive(buf, log, handler)) != null && mi.bytes() > 0) {
            buf.flip();
            CharBuffer text = StandardCharsets.US_ASCII.decode(buf);
            log.add("stream " + mi.streamNumber() + ": " + text);
            buf.clear();
        }
        sc.close();
        return log;
    }

    @Test
    void multistreamingDaytimeServerAndClient() throws Exception {
        SctpServerChannel ssc = serverSctp.openServerChannel(); // was SctpServerChannel.open()
        stacks.later(ssc);
        ssc.bind(new InetSocketAddress(LO, 0));
        SocketAddress server = ssc.getAllLocalAddresses().iterator().next();
        CompletableFuture<Void> s = CompletableFuture.runAsync(() -> {
            try {
                daytimeServer(ssc, 2);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        for (int c = 0; c < 2; c++) {
            SctpChannel sc = clientSctp.openSctpChannel(); // was SctpChannel.open()
            stacks.later(sc);
            List<String> log = daytimeClient(sc, server);
            assertEquals(List.of("up: out 2", "stream 0: US 12:30", "stream 1: FR 12:30", "shutdown"), log);
        }
        s.get(20, TimeUnit.SECONDS);
    }

    // ------------------------------------------------------------------ one-to-many server

    /** Server: answers each message on the association and stream it came on, {@code n} times. */
    static void oneToManyServer(SctpMultiChannel smc, int n) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(100);
        for (int i = 0; i < n; ) {
            MessageInfo mi = smc.receive(buf.clear(), null, null);
            if (mi == null || mi.bytes() <= 0) {
                continue;
            }
            buf.flip();
            String in = StandardCharsets.UTF_8.decode(buf).toString();
            ByteBuffer out = StandardCharsets.UTF_8.encode("re: " + in);
            smc.send(out, MessageInfo.createOutgoing(mi.association(), null, mi.streamNumber()));
            i++;
        }
    }

    @Test
    void oneToManyServerAnswersSeveralClients() throws Exception {
        SctpMultiChannel smc = serverSctp.openMultiChannel(); // was SctpMultiChannel.open()
        stacks.later(smc);
        smc.bind(new InetSocketAddress(LO, 0));
        SocketAddress server = smc.getAllLocalAddresses().iterator().next();
        int clients = 3;
        CompletableFuture<Void> s = CompletableFuture.runAsync(() -> {
            try {
                oneToManyServer(smc, clients * 2);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        ByteBuffer buf = ByteBuffer.allocate(100);
        for (int c = 0; c < clients; c++) {
            SctpChannel sc = clientSctp.openSctpChannel(); // was SctpChannel.open()
            stacks.later(sc);
            sc.connect(server);
            for (int stream = 0; stream < 2; stream++) {
                sc.send(StandardCharsets.UTF_8.encode("client " + c), MessageInfo.createOutgoing(null, stream));
                MessageInfo mi = sc.receive(buf.clear(), null, null);
                assertNotNull(mi);
                assertEquals(stream, mi.streamNumber());
                assertEquals(
                        "re: client " + c,
                        StandardCharsets.UTF_8.decode(buf.flip()).toString());
            }
        }
        s.get(20, TimeUnit.SECONDS);
        assertEquals(clients, smc.associations().size());
        for (Association a : smc.associations()) {
            assertEquals(1, smc.getRemoteAddresses(a).size());
            int port = ((InetSocketAddress) smc.getRemoteAddresses(a).iterator().next()).getPort();
            assertTrue(port > 0, "the peer's real SCTP port, not 0: " + port);
        }
    }

    // ------------------------------------------------------------------ peel-off

    /**
     * Server: a one-to-many channel whose every new association is peeled off into its own
     * one-to-one channel and served by a thread of its own, echoing until the client closes.
     */
    static void peelOffServer(SctpMultiChannel smc, int clients, Map<SocketAddress, Integer> served) throws Exception {
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        ByteBuffer buf = ByteBuffer.allocate(100);
        AbstractNotificationHandler<List<Association>> onUp = new AbstractNotificationHandler<>() {
            @Override
            public HandlerResult handleNotification(AssociationChangeNotification n, List<Association> up) {
                if (n.event() == AssocChangeEvent.COMM_UP) {
                    up.add(n.association());
                    return HandlerResult.RETURN;
                }
                return HandlerResult.CONTINUE;
            }
        };
        while (workers.size() < clients) {
            List<Association> up = new ArrayList<>();
            smc.receive(buf.clear(), up, onUp);
            for (Association a : up) {
                SctpChannel peeled = smc.branch(a);
                workers.add(CompletableFuture.runAsync(() -> {
                    ByteBuffer b = ByteBuffer.allocate(100);
                    try (peeled) {
                        SocketAddress peer =
                                peeled.getRemoteAddresses().iterator().next();
                        MessageInfo mi;
                        while ((mi = peeled.receive(b.clear(), null, null)) != null && mi.bytes() > 0) {
                            peeled.send(b.flip(), MessageInfo.createOutgoing(null, mi.streamNumber()));
                            served.merge(peer, 1, Integer::sum);
                        }
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                }));
            }
        }
        CompletableFuture.allOf(workers.toArray(new CompletableFuture<?>[0])).get(30, TimeUnit.SECONDS);
    }

    @Test
    void peelOffServerServesEachAssociationOnItsOwnChannel() throws Exception {
        SctpMultiChannel smc = serverSctp.openMultiChannel(); // was SctpMultiChannel.open()
        stacks.later(smc);
        smc.setOption(SctpStandardSocketOptions.SCTP_NODELAY, true, null);
        smc.bind(new InetSocketAddress(LO, 0));
        SocketAddress server = smc.getAllLocalAddresses().iterator().next();
        int clients = 3;
        Map<SocketAddress, Integer> served = new ConcurrentHashMap<>();
        CompletableFuture<Void> s = CompletableFuture.runAsync(() -> {
            try {
                peelOffServer(smc, clients, served);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        List<SocketAddress> locals = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            SctpChannel sc = clientSctp.openSctpChannel(); // was SctpChannel.open()
            sc.connect(server);
            locals.add(sc.getAllLocalAddresses().iterator().next());
            ByteBuffer buf = ByteBuffer.allocate(100);
            for (int k = 0; k < 4; k++) {
                sc.send(StandardCharsets.UTF_8.encode("m" + k), MessageInfo.createOutgoing(null, k % 2));
                MessageInfo mi = sc.receive(buf.clear(), null, null);
                assertEquals(k % 2, mi.streamNumber());
                assertEquals("m" + k, StandardCharsets.UTF_8.decode(buf.flip()).toString());
            }
            sc.close();
        }
        s.get(30, TimeUnit.SECONDS);
        assertEquals(clients, served.size());
        for (SocketAddress l : locals) {
            assertEquals(4, served.get(l), "the peeled-off channel saw the client's real address and port " + l);
        }
        assertTrue(smc.associations().isEmpty(), "branched associations leave the one-to-many channel");
    }
}
