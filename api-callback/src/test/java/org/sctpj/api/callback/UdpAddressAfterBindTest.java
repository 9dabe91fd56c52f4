package org.sctpj.api.callback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.sctpj.llp.udp.UdpConfig;
import org.sctpj.llp.udp.UdpEncapsulation;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Extension;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.LocalAddressState;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * An address added after bind over UDP encapsulation (RFC 5061 with RFC 6951), both sides ours on
 * loopback: the client bound to 127.0.0.1 adds 127.0.0.2 (its layer opens a socket there on the same
 * port), has the server make it its primary, deletes 127.0.0.1, and messages keep arriving both
 * ways; the old socket closes only once the server answered the deletion.
 */
class UdpAddressAfterBindTest {

    static final InetAddress A1 = InetAddress.getLoopbackAddress();
    static final InetAddress A2 = address("127.0.0.2");
    static final SctpOptions O = SctpOptions.LAN.toBuilder()
            .enable(Extension.AUTH)
            .enable(Extension.ASCONF)
            .delayedAckTime(Duration.ofMillis(5))
            .build();

    final StackRuntime rt = StackRuntime.start(2, StackConfig.DEFAULT.withName("udp-addr"));
    final List<CallbackSocket> sockets = new CopyOnWriteArrayList<>();
    final List<UdpEncapsulation> layers = new CopyOnWriteArrayList<>();
    final List<SctpEvent> clientEvents = new CopyOnWriteArrayList<>();
    final List<SctpEvent> serverEvents = new CopyOnWriteArrayList<>();

    static InetAddress address(String s) {
        try {
            return InetAddress.getByName(s);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @AfterEach
    void stop() {
        sockets.forEach(CallbackSocket::close);
        rt.close();
    }

    private LowerLayerFactory udp() {
        return (port, addresses) -> {
            UdpEncapsulation l = UdpEncapsulation.open(
                    UdpConfig.builder().localPort(0).bindAddresses(addresses).build());
            layers.add(l);
            return l;
        };
    }

    private static Callbacks recording(List<SctpEvent> into, boolean echo) {
        return new Callbacks() {
            @Override
            public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                into.add(m);
                if (echo) {
                    s.send(m.association(), SendInfo.of(m.streamId(), m.ppid()), ByteBuffer.wrap(m.data()));
                }
            }

            @Override
            public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
                into.add(c);
            }

            @Override
            public void onPeerAddressChange(CallbackSocket s, SctpEvent.PeerAddressChange c) {
                into.add(c);
            }

            @Override
            public void onLocalAddressChange(CallbackSocket s, SctpEvent.LocalAddressChange c) {
                into.add(c);
            }
        };
    }

    static void await(List<SctpEvent> events, Predicate<SctpEvent> p, String what) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < end) {
            if (events.stream().anyMatch(p)) {
                return;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("no " + what + " in "
                + events.stream()
                        .filter(e -> !(e instanceof SctpEvent.MessageReceived))
                        .toList());
    }

    static Predicate<SctpEvent> local(LocalAddressState s, InetAddress a) {
        return e -> e instanceof SctpEvent.LocalAddressChange c
                && c.state() == s
                && c.address().equals(a);
    }

    static long messages(List<SctpEvent> events) {
        return events.stream()
                .filter(e -> e instanceof SctpEvent.MessageReceived)
                .count();
    }

    @Test
    void addMakePrimaryAndDeleteWhileMessagesFlow() throws Exception {
        Pair p = pair(7101, 7102, udp());
        CallbackSocket server = p.server();
        CallbackSocket client = p.client();
        UdpEncapsulation clientLayer = p.clientLayer();
        AssociationId id = p.id();
        int sent = 0;
        sent += send(client, id, 50, sent);

        client.addLocalAddress(A2);
        client.setPeerPrimary(id, A2);
        await(clientEvents, local(LocalAddressState.ADDED, A2), "ADDED");
        await(clientEvents, local(LocalAddressState.MADE_PRIMARY, A2), "MADE_PRIMARY");
        int port = clientLayer.localPort();
        assertEquals(
                List.of(new InetSocketAddress(A1, port), new InetSocketAddress(A2, port)),
                clientLayer.localAddresses(),
                "a socket on the new address, same port");
        sent += send(client, id, 50, sent);
        client.removeLocalAddress(A1);
        await(clientEvents, local(LocalAddressState.REMOVED, A1), "REMOVED");
        sent += send(client, id, 50, sent);
        int all = sent;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (messages(clientEvents) < all && System.nanoTime() < end) {
            Thread.sleep(5);
        }
        assertEquals(all, messages(clientEvents), "every message echoed");
        assertEquals(all, messages(serverEvents), "every message received once");
        // the server answered the deletion, so the old socket is gone
        long closeBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (clientLayer.localAddresses().size() > 1 && System.nanoTime() < closeBy) {
            Thread.sleep(5);
        }
        assertEquals(List.of(new InetSocketAddress(A2, port)), clientLayer.localAddresses());
        assertTrue(server.info(serverAssoc()).primary().equals(A2), "the server sends to the new address");
    }

    @Test
    void deletingTheAddressThePeerStillSendsToKeepsItsSocketUntilThePeerAnswered() throws Exception {
        // No Set Primary: the server sends its echoes to 127.0.0.1 until the deletion reaches it,
        // and here it reaches it late (the server's layer drops ASCONFs for a while, so ours is
        // retransmitted). A socket closed at once would answer those echoes with ICMP Port
        // Unreachable, which the server must take as an ABORT (RFC 6951 section 5.5).
        DropAsconf[] serverLayer = new DropAsconf[1];
        LowerLayerFactory dropping =
                (port, addresses) -> serverLayer[0] = new DropAsconf((UdpEncapsulation) udp().open(port, addresses));
        Pair p = pair(7103, 7104, dropping);
        CallbackSocket client = p.client();
        UdpEncapsulation clientLayer = p.clientLayer();
        AssociationId id = p.id();
        client.addLocalAddress(A2);
        await(clientEvents, local(LocalAddressState.ADDED, A2), "ADDED");
        serverLayer[0].drop = true;
        int sent = send(client, id, 20, 0);
        client.removeLocalAddress(A1);
        for (int round = 0; round < 10; round++) {
            Thread.sleep(30); // the echoes keep coming to 127.0.0.1 meanwhile
            sent += send(client, id, 10, sent);
        }
        assertTrue(
                clientLayer.localAddresses().contains(new InetSocketAddress(A1, clientLayer.localPort())),
                "the socket of 127.0.0.1 stays while the server may still send there");
        serverLayer[0].drop = false;
        await(clientEvents, local(LocalAddressState.REMOVED, A1), "REMOVED");
        int all = sent;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (messages(clientEvents) < all && System.nanoTime() < end) {
            Thread.sleep(5);
        }
        assertEquals(
                all,
                messages(clientEvents),
                "every message echoed, the association alive: "
                        + clientEvents.stream()
                                .filter(e -> !(e instanceof SctpEvent.MessageReceived))
                                .toList());
    }

    /** A UDP layer that drops the ASCONF chunks it receives while {@link #drop} is set. */
    static final class DropAsconf implements org.sctpj.stack.llp.LowerLayer {
        final UdpEncapsulation udp;
        volatile boolean drop;

        DropAsconf(UdpEncapsulation udp) {
            this.udp = udp;
        }

        @Override
        public void send(ByteBuffer sctp, InetAddress source, InetAddress destination) throws java.io.IOException {
            udp.send(sctp, source, destination);
        }

        @Override
        public void flush() throws java.io.IOException {
            udp.flush();
        }

        @Override
        public int receive(PacketSink sink, int max) throws java.io.IOException {
            return udp.receive(
                    (b, from, to) -> {
                        if (!(drop && hasAsconf(b))) {
                            sink.packet(b, from, to);
                        }
                    },
                    max);
        }

        static boolean hasAsconf(ByteBuffer b) {
            for (int off = b.position() + 12; off + 4 <= b.limit(); ) {
                if ((b.get(off) & 0xff) == 0xc1) {
                    return true;
                }
                off += Math.max(4, ((b.getShort(off + 2) & 0xffff) + 3) & ~3);
            }
            return false;
        }

        @Override
        public void await(long timeoutNanos) throws java.io.IOException {
            udp.await(timeoutNanos);
        }

        @Override
        public void wakeup() {
            udp.wakeup();
        }

        @Override
        public int encapsulationOverhead() {
            return udp.encapsulationOverhead();
        }

        @Override
        public void close() throws java.io.IOException {
            udp.close();
        }

        @Override
        public org.sctpj.stack.llp.LowerLayer inner() {
            return udp;
        }
    }

    /** Our server and client, both bound to 127.0.0.1, and the client's association once up. */
    record Pair(CallbackSocket server, CallbackSocket client, UdpEncapsulation clientLayer, AssociationId id) {}

    private Pair pair(int serverPort, int clientPort, LowerLayerFactory serverLayers) throws Exception {
        CallbackSocket server = CallbackSocket.open(rt, O, serverLayers, recording(serverEvents, true));
        sockets.add(server);
        server.bind(serverPort, List.of(A1));
        server.listen();
        UdpEncapsulation serverLayer = layers.get(layers.size() - 1);
        CallbackSocket client = CallbackSocket.open(rt, O, udp(), recording(clientEvents, false));
        sockets.add(client);
        client.bind(clientPort, List.of(A1));
        UdpEncapsulation clientLayer = layers.get(layers.size() - 1);
        clientLayer.setRemotePort(A1, serverLayer.localPort());
        AssociationId id = client.connect(List.of(A1), serverPort);
        await(
                clientEvents,
                e -> e instanceof SctpEvent.AssociationChange c
                        && c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP,
                "COMMUNICATION_UP");
        return new Pair(server, client, clientLayer, id);
    }

    private AssociationId serverAssoc() {
        return serverEvents.stream()
                .filter(e -> e instanceof SctpEvent.AssociationChange)
                .map(e -> ((SctpEvent.AssociationChange) e).association())
                .findFirst()
                .orElseThrow();
    }

    private static int send(CallbackSocket c, AssociationId id, int n, int from) {
        for (int i = 0; i < n; i++) {
            byte[] m = new byte[200];
            m[0] = (byte) (from + i);
            c.send(id, SendInfo.of(0, from + i), ByteBuffer.wrap(m));
        }
        return n;
    }
}
