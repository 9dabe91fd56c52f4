package org.sctpj.tests.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sctpj.api.callback.CallbackSocket;
import org.sctpj.api.callback.Callbacks;
import org.sctpj.api.callback.LowerLayerFactory;
import org.sctpj.llp.udp.NativeIo;
import org.sctpj.llp.udp.UdpConfig;
import org.sctpj.llp.udp.UdpEncapsulation;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * Opening and closing 10,000 associations leaves no state behind (issue 15): a one-to-many server
 * socket of the callback API over UDP encapsulation on loopback (one shard, or its associations
 * spread over two stack threads sharing the UDP port), and 20 client sockets that each
 * open an association, send one 100-byte message, wait for its echo and close it (half with
 * SHUTDOWN, half with ABORT), 500 times over. Afterwards:
 *
 * <ul>
 *   <li>every association carried exactly one message each way (none lost, none twice);
 *   <li>no association is left in the server's or any client's socket ({@code associations()}),
 *       nor in their endpoints, whose {@link Endpoint#nextTimeout()} is "none" again (no timer);
 *   <li>every map, collection and queue field of the server's socket, and of each shard's
 *       endpoint, its bookkeeping (ready queue, stale deadlines), its endpoint handle, its stack
 *       thread and that thread's timer wheel, and of the shared lower layer's per-shard inboxes
 *       (found by reflection, so the check follows new fields) holds as many entries as right
 *       after {@code listen()};
 *   <li>the process has no more threads than before the first association.
 * </ul>
 *
 * Not timed: its bound is two minutes (it took 9.4 s with the machine's load average near 50).
 */
class NoStateLeftTest {

    private static final int CLIENTS = 20;
    private static final int ROUNDS = 500;
    private static final SctpOptions OPTS = SctpOptions.LAN.toBuilder()
            .noDelay(true)
            .heartbeatInterval(Duration.ofSeconds(30))
            .build();

    /** The portable UDP path: 21 sockets need no 4 MiB of native receive slots each. */
    private static final LowerLayerFactory UDP = (port, addresses) -> UdpEncapsulation.open(UdpConfig.builder()
            .localPort(0)
            .bindAddresses(addresses)
            .nativeIo(NativeIo.OFF)
            .build());

    @ParameterizedTest(name = "{0} shard(s)")
    @ValueSource(ints = {1, 2})
    void tenThousandAssociationsOpenedAndClosedLeaveNothing(int shards) throws Exception {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        int total = CLIENTS * ROUNDS;
        ConcurrentHashMap<AssociationId, AtomicInteger> serverCounts = new ConcurrentHashMap<>();
        AtomicLong serverUp = new AtomicLong();
        AtomicLong serverEnded = new AtomicLong();
        AtomicLong notOne = new AtomicLong();
        List<String> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        try (StackRuntime rt = StackRuntime.start(
                2, StackConfig.DEFAULT.withName("nostate").withErrors((w, e) -> errors.add(w + ": " + e)))) {
            Callbacks serverCallbacks = new Callbacks() {
                @Override
                public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                    serverCounts.get(m.association()).incrementAndGet();
                    if (s.send(m.association(), SendInfo.of(m.streamId(), m.ppid()), ByteBuffer.wrap(m.data()))
                            != SendStatus.ACCEPTED) {
                        errors.add("echo refused");
                    }
                }

                @Override
                public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
                    switch (c.type()) {
                        case COMMUNICATION_UP -> {
                            serverUp.incrementAndGet();
                            serverCounts.put(c.association(), new AtomicInteger());
                        }
                        case COMMUNICATION_LOST, SHUTDOWN_COMPLETE -> {
                            AtomicInteger n = serverCounts.remove(c.association());
                            if (n == null || n.get() != 1) {
                                notOne.incrementAndGet();
                            }
                            serverEnded.incrementAndGet();
                        }
                        default -> {}
                    }
                }
            };
            CallbackSocket server = shards == 1
                    ? CallbackSocket.open(rt, OPTS, UDP, serverCallbacks)
                    : CallbackSocket.open(rt.threads(), OPTS, UDP, serverCallbacks);
            server.bind(5000, List.of(lo));
            server.listen();
            int udp = server.udpLocalPort();
            List<Object> watched = new ArrayList<>(List.of(server));
            List<Endpoint> serverEndpoints = new ArrayList<>();
            for (Object handle : (Object[]) field(server, "handles")) {
                Endpoint ep = (Endpoint) field(handle, "endpoint");
                serverEndpoints.add(ep);
                watched.addAll(List.of(handle, ep, field(ep, "schedule"), field(handle, "thread")));
            }
            Object shared = field(server, "shared");
            if (shared != null) {
                watched.addAll(List.of((Object[]) field(shared, "views")));
            }
            assertEquals(shards, serverEndpoints.size());
            AtomicLong echoes = new AtomicLong();
            AtomicLong duplicates = new AtomicLong();
            AtomicLong clientLost = new AtomicLong();
            AtomicLong finished = new AtomicLong();
            List<CallbackSocket> clients = new ArrayList<>();
            List<Runnable> starters = new ArrayList<>();
            for (int k = 0; k < CLIENTS; k++) {
                int[] round = {0};
                boolean[] echoed = {false};
                // The association of this round; events of an earlier one (the COMMUNICATION_LOST
                // that follows our own ABORT) are not this round's.
                AssociationId[] current = {null};
                CallbackSocket[] self = {null};
                Runnable open = () -> {
                    echoed[0] = false;
                    current[0] = self[0].connect(List.of(lo), 5000);
                };
                CallbackSocket c = CallbackSocket.open(rt, OPTS, UDP, new Callbacks() {
                    @Override
                    public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                        if (!m.association().equals(current[0])) {
                            return;
                        }
                        echoes.incrementAndGet();
                        if (echoed[0]) {
                            duplicates.incrementAndGet();
                            return;
                        }
                        echoed[0] = true;
                        if (round[0] % 2 == 0) {
                            s.shutdown(m.association());
                        } else {
                            s.abort(m.association(), "done");
                            next(s);
                        }
                    }

                    @Override
                    public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
                        if (!c.association().equals(current[0])) {
                            return;
                        }
                        switch (c.type()) {
                            case COMMUNICATION_UP -> s.send(
                                    c.association(), SendInfo.of(0, 0), ByteBuffer.allocate(100));
                            case SHUTDOWN_COMPLETE -> next(s);
                            case COMMUNICATION_LOST, CANT_START -> {
                                clientLost.incrementAndGet();
                                next(s);
                            }
                            default -> {}
                        }
                    }

                    private void next(CallbackSocket s) {
                        finished.incrementAndGet();
                        current[0] = null;
                        if (++round[0] < ROUNDS) {
                            s.execute(open); // the next round starts once this callback is done
                        }
                    }
                });
                self[0] = c;
                c.bind(6000 + k, List.of(lo));
                c.setUdpRemotePort(lo, udp);
                clients.add(c);
                starters.add(open);
            }
            // Every socket bound, none connected: take the sizes of everything that could hold state.
            Map<String, Integer> before = onStackThreads(server, () -> sizes(watched));
            int threadsBefore = Thread.activeCount();
            for (int k = 0; k < CLIENTS; k++) {
                clients.get(k).execute(starters.get(k));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while ((finished.get() < total || serverEnded.get() < total) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(List.of(), errors, "stack thread errors");
            assertEquals(total, finished.get(), "client associations finished");
            assertEquals(0, clientLost.get(), "client associations lost before their echo");
            assertEquals(total, echoes.get(), "one echo per association");
            assertEquals(0, duplicates.get());
            assertEquals(total, serverUp.get(), "associations the server saw come up");
            assertEquals(total, serverEnded.get(), "associations the server saw end");
            assertEquals(0, notOne.get(), "server associations that did not carry exactly one message");

            for (CallbackSocket c : clients) {
                assertEquals(List.of(), c.associations(), "a client socket keeps an association");
            }
            assertEquals(List.of(), server.associations(), "the server socket keeps an association");
            Map<String, Integer> after = new TreeMap<>();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            do {
                after = onStackThreads(server, () -> sizes(watched));
                if (after.equals(before)) {
                    break;
                }
                Thread.sleep(50);
            } while (System.nanoTime() < end);
            assertEquals(before, after, "sizes of the server's maps, collections and timers");
            for (Endpoint ep : serverEndpoints) {
                assertEquals(
                        Long.MAX_VALUE,
                        onStackThreads(server, ep::nextTimeout),
                        "a timer of a server endpoint is left");
            }
            assertTrue(
                    Thread.activeCount() <= threadsBefore,
                    "threads: " + threadsBefore + " before, " + Thread.activeCount() + " after");
            for (CallbackSocket c : clients) {
                c.close();
            }
            server.close();
        }
    }

    /**
     * Runs {@code task} while every stack thread of the socket waits inside a task of its own (the
     * core's collections are not thread-safe: no shard may touch them meanwhile).
     */
    private static <T> T onStackThreads(CallbackSocket s, java.util.function.Supplier<T> task) throws Exception {
        List<org.sctpj.timers.StackThread> threads = s.stackThreads();
        java.util.concurrent.CountDownLatch parked = new java.util.concurrent.CountDownLatch(threads.size());
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        for (org.sctpj.timers.StackThread t : threads) {
            t.execute(() -> {
                parked.countDown();
                try {
                    release.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        try {
            assertTrue(parked.await(10, TimeUnit.SECONDS), "stack threads parked");
            return task.get();
        } finally {
            release.countDown();
        }
    }

    /** The object in field {@code name} of {@code o} (declared in its class or a superclass). */
    private static Object field(Object o, String name) throws ReflectiveOperationException {
        for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(o);
            } catch (NoSuchFieldException e) {
                // look further up
            }
        }
        throw new NoSuchFieldException(name + " in " + o.getClass());
    }

    /**
     * The size of every map, collection and array-backed queue held in an instance field of the
     * given objects, and of the timer wheel's timers: "Class.field" to size.
     */
    private static Map<String, Integer> sizes(List<Object> objects) {
        Map<String, Integer> m = new TreeMap<>();
        try {
            for (int i = 0; i < objects.size(); i++) {
                Object o = objects.get(i);
                for (Class<?> c = o.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
                    for (Field f : c.getDeclaredFields()) {
                        if (Modifier.isStatic(f.getModifiers())) {
                            continue;
                        }
                        f.setAccessible(true);
                        Object v = f.get(o);
                        String key = i + ":" + c.getSimpleName() + "." + f.getName();
                        if (v instanceof Map<?, ?> map) {
                            m.put(key, map.size());
                        } else if (v instanceof Collection<?> col) {
                            m.put(key, col.size());
                        } else if (v != null && v.getClass().getSimpleName().equals("TimerWheel")) {
                            m.put(key + ".timerCount", (Integer)
                                    v.getClass().getMethod("timerCount").invoke(v));
                        }
                    }
                }
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        return m;
    }
}
