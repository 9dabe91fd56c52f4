package org.sctpj.api.callback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.sctpj.llp.udp.NativeIo;
import org.sctpj.llp.udp.UdpConfig;
import org.sctpj.llp.udp.UdpEncapsulation;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;
import org.sctpj.timers.StackThread;

/**
 * Associations of different shards side by side (issue 15): a one-to-many server socket whose
 * associations are spread over three stack threads sharing one UDP port, and 30 client sockets
 * (one of them sharded too) that each open an association and exchange 50 numbered messages with
 * it over loopback, both ways at once. Every shard gets associations; every callback of an
 * association runs on its shard's thread; every message comes back once and in order; the
 * socket-wide calls (threshold, close) reach every shard; closing leaves no association.
 */
class ShardedSocketTest {

    private static final int CLIENTS = 30;
    private static final int MESSAGES = 50;
    private static final SctpOptions OPTS = SctpOptions.LAN.toBuilder()
            .noDelay(true)
            .heartbeatInterval(Duration.ofSeconds(30))
            .build();
    private static final LowerLayerFactory UDP = (port, addresses) -> UdpEncapsulation.open(UdpConfig.builder()
            .localPort(0)
            .bindAddresses(addresses)
            .nativeIo(NativeIo.OFF)
            .build());

    @Test
    void associationsOfDifferentShardsWorkSideBySide() throws Exception {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        List<String> errors = new CopyOnWriteArrayList<>();
        try (StackRuntime rt = StackRuntime.start(
                4, StackConfig.DEFAULT.withName("shards").withErrors((w, e) -> errors.add(w + ": " + e)))) {
            List<StackThread> serverThreads = rt.threads().subList(0, 3);
            Map<AssociationId, Thread> callbackThread = new ConcurrentHashMap<>();
            AtomicInteger wrongThread = new AtomicInteger();
            CallbackSocket server = CallbackSocket.open(serverThreads, OPTS, UDP, new Callbacks() {
                @Override
                public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                    onThread(s, m.association());
                    s.send(m.association(), SendInfo.of(m.streamId(), m.ppid()), ByteBuffer.wrap(m.data()));
                }

                @Override
                public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
                    onThread(s, c.association());
                }

                private void onThread(CallbackSocket s, AssociationId id) {
                    Thread owner = s.stackThreads().get(s.shardOf(id)).isStackThread() ? Thread.currentThread() : null;
                    if (owner == null || !s.isSocketThread(id)) {
                        wrongThread.incrementAndGet();
                    }
                    callbackThread.putIfAbsent(id, Thread.currentThread());
                    if (callbackThread.get(id) != Thread.currentThread()) {
                        wrongThread.incrementAndGet();
                    }
                }
            });
            server.bind(5000, List.of(lo));
            server.listen();
            server.setSendThreshold(100); // socket-wide: every shard takes it
            int udp = server.udpLocalPort();
            assertEquals(3, server.stackThreads().size());

            CountDownLatch done = new CountDownLatch(CLIENTS);
            AtomicInteger outOfOrder = new AtomicInteger();
            List<CallbackSocket> clients = new ArrayList<>();
            for (int k = 0; k < CLIENTS; k++) {
                int[] next = {0};
                Callbacks cb = new Callbacks() {
                    @Override
                    public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
                        if (c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP) {
                            for (int i = 0; i < MESSAGES; i++) {
                                s.send(c.association(), SendInfo.of(0, i), ByteBuffer.allocate(100));
                            }
                        }
                    }

                    @Override
                    public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                        if (m.ppid() != next[0]) {
                            outOfOrder.incrementAndGet();
                        }
                        if (++next[0] == MESSAGES) {
                            done.countDown();
                        }
                    }
                };
                CallbackSocket c = k == 0
                        ? CallbackSocket.open(rt.threads().subList(2, 4), OPTS, UDP, cb)
                        : CallbackSocket.open(rt.threads().get(3), OPTS, UDP, cb);
                c.bind(6000 + k, List.of(lo));
                c.setUdpRemotePort(lo, udp);
                c.connect(List.of(lo), 5000);
                clients.add(c);
            }
            assertTrue(done.await(60, TimeUnit.SECONDS), "clients done: " + (CLIENTS - done.getCount()));
            assertEquals(0, outOfOrder.get(), "echoes out of order");
            assertEquals(0, wrongThread.get(), "callbacks off their association's shard thread");
            assertEquals(CLIENTS, server.associations().size());
            int[] perShard = new int[3];
            for (AssociationId id : server.associations()) {
                perShard[server.shardOf(id)]++;
            }
            for (int k = 0; k < 3; k++) {
                assertTrue(perShard[k] > 0, "shard " + k + " has associations: " + java.util.Arrays.toString(perShard));
            }
            for (CallbackSocket c : clients) {
                c.close(true, Duration.ofSeconds(5));
            }
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!server.associations().isEmpty() && System.nanoTime() < end) {
                Thread.sleep(10);
            }
            assertEquals(List.of(), server.associations(), "the server keeps associations after the clients closed");
            server.close();
            assertTrue(server.isClosed());
            assertEquals(List.of(), errors);
        }
    }
}
