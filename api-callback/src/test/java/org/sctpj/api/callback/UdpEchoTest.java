package org.sctpj.api.callback;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.BindException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.sctpj.llp.udp.UdpConfig;
import org.sctpj.llp.udp.UdpEncapsulation;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/** The callback echo server end to end over real UDP encapsulation (RFC 6951) on loopback. */
class UdpEchoTest {

    static final InetAddress LOCAL = InetAddress.getLoopbackAddress();
    final List<String> reported = new CopyOnWriteArrayList<>();
    final StackRuntime rt = StackRuntime.start(
            2, StackConfig.DEFAULT.withName("udp-test").withErrors((w, e) -> reported.add(w + ": " + e)));
    final List<CallbackSocket> sockets = new ArrayList<>();
    final List<UdpEncapsulation> layers = new CopyOnWriteArrayList<>();

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

    @Test
    void echoServerOverUdpReturnsEveryMessageInOrder() throws Exception {
        SctpOptions o =
                SctpOptions.LAN.toBuilder().delayedAckTime(Duration.ofMillis(5)).build();
        CallbackSocket server = CallbackSocket.open(rt, o, udp(), new Callbacks() {
            final ArrayDeque<SctpEvent.MessageReceived> pending = new ArrayDeque<>();

            @Override
            public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                pending.add(m);
                onSendSpace(s, m.association(), 0);
            }

            @Override
            public void onSendSpace(CallbackSocket s, AssociationId id, long free) {
                SctpEvent.MessageReceived m;
                while ((m = pending.peek()) != null
                        && s.send(m.association(), SendInfo.of(m.streamId(), m.ppid()), ByteBuffer.wrap(m.data()))
                                == SendStatus.ACCEPTED) {
                    pending.poll();
                }
            }
        });
        sockets.add(server);
        server.bind(7001, List.of(LOCAL));
        server.listen();
        int serverUdpPort = layers.get(0).localPort();

        int n = 2_000;
        List<byte[]> got = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(n);
        CountDownLatch up = new CountDownLatch(1);
        java.util.concurrent.Semaphore space = new java.util.concurrent.Semaphore(0);
        CallbackSocket client = CallbackSocket.open(rt, o, udp(), new Callbacks() {
            @Override
            public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                got.add(m.data());
                done.countDown();
            }

            @Override
            public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
                if (c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP) {
                    up.countDown();
                }
            }

            @Override
            public void onSendSpace(CallbackSocket s, AssociationId id, long free) {
                space.release();
            }
        });
        sockets.add(client);
        client.bind(7002, List.of(LOCAL));
        assertEquals(8, client.options().encapsulationOverhead(), "taken from the lower layer");
        layers.get(1).setRemotePort(LOCAL, serverUdpPort);
        AssociationId id = client.connect(List.of(LOCAL), 7001);
        assertTrue(up.await(10, TimeUnit.SECONDS));
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] m = new byte[1 + (i * 37) % 3000];
            m[0] = (byte) i;
            m[m.length - 1] = (byte) (i >> 8);
            sent.add(m);
            ByteBuffer b = ByteBuffer.wrap(m);
            while (client.send(id, SendInfo.of(0, 1), b) == SendStatus.WOULD_BLOCK) {
                space.tryAcquire(10, TimeUnit.MILLISECONDS);
            }
        }
        assertTrue(done.await(30, TimeUnit.SECONDS), "missing " + done.getCount());
        for (int i = 0; i < n; i++) {
            assertArrayEquals(sent.get(i), got.get(i), "message " + i);
        }
        assertEquals(List.of(), reported);
    }

    @Test
    void aUdpPortInUseIsABindException() throws Exception {
        UdpEncapsulation taken = UdpEncapsulation.open(
                UdpConfig.builder().localPort(0).bind(LOCAL).build());
        try {
            int port = taken.localPort();
            CallbackSocket s = CallbackSocket.open(
                    rt,
                    SctpOptions.LAN,
                    (p, a) -> UdpEncapsulation.open(
                            UdpConfig.builder().localPort(port).bindAddresses(a).build()),
                    new Callbacks() {
                        @Override
                        public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {}
                    });
            sockets.add(s);
            BindException e = org.junit.jupiter.api.Assertions.assertThrows(
                    BindException.class, () -> s.bind(7003, List.of(LOCAL)));
            assertTrue(e.getMessage().contains(String.valueOf(port)), e.getMessage());
        } finally {
            taken.close();
        }
    }
}
