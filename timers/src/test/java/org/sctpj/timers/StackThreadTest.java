package org.sctpj.timers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;

class StackThreadTest {

    private static final InetAddress LOCAL = InetAddress.getLoopbackAddress();
    private static final SctpOptions FAST = SctpOptions.LAN.toBuilder()
            .maxInitRetransmits(2)
            .delayedAckTime(Duration.ofMillis(10))
            .build();

    private final List<String> reported = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    private StackThread thread(IdleStrategy idle) {
        StackThread t = new StackThread(StackConfig.DEFAULT
                .withName("test-stack")
                .withIdle(idle)
                .withErrors((where, e) -> reported.add(where + ": " + e.getMessage())));
        toClose.add(t);
        t.start();
        return t;
    }

    /** Collects events; optionally throws from the callback for some of them. */
    static final class Events implements EndpointListener {
        final BlockingQueue<SctpEvent> queue = new LinkedBlockingQueue<>();
        final CountDownLatch closed = new CountDownLatch(1);
        volatile Predicate<SctpEvent> throwFor = e -> false;

        @Override
        public void onEvent(EndpointHandle h, SctpEvent e) {
            queue.add(e);
            if (throwFor.test(e)) {
                throw new IllegalStateException(
                        "callback failure for " + e.getClass().getSimpleName());
            }
        }

        @Override
        public void onClosed(EndpointHandle h) {
            closed.countDown();
        }

        SctpEvent await(Predicate<SctpEvent> p) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < end) {
                SctpEvent e = queue.poll(100, TimeUnit.MILLISECONDS);
                if (e != null && p.test(e)) {
                    return e;
                }
            }
            throw new AssertionError("event not seen within 10 s");
        }
    }

    static Predicate<SctpEvent> change(AssociationChangeType type) {
        return e -> e instanceof SctpEvent.AssociationChange c && c.type() == type;
    }

    private static Endpoint endpoint(int port, long seed) {
        return new Endpoint(port, List.of(LOCAL), FAST, new SplittableRandom(seed), System.nanoTime());
    }

    @Test
    void startsRunsCommandsOnItsOwnThreadAndStopsCleanly() throws Exception {
        StackThread t = new StackThread(StackConfig.DEFAULT.withName("lifecycle"));
        CompletableFuture<Boolean> onStack = new CompletableFuture<>();
        t.execute(() -> onStack.complete(t.isStackThread())); // given before start: kept
        assertFalse(t.isRunning());
        t.start();
        assertTrue(t.isRunning());
        assertTrue(onStack.get(5, TimeUnit.SECONDS));
        assertFalse(t.isStackThread());
        assertThrows(IllegalStateException.class, t::start);
        t.close();
        assertFalse(t.isRunning());
        t.close(); // idempotent
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> t.execute(() -> {}));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }

    @Test
    void commandsFromManyThreadsRunInOrderPerProducer() throws Exception {
        StackThread t = thread(IdleStrategy.park());
        int producers = 4;
        int each = 5_000;
        int[] last = new int[producers];
        java.util.Arrays.fill(last, -1);
        List<String> violations = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(producers * each);
        List<Thread> ts = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int pp = p;
            Thread th = new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    int ii = i;
                    t.execute(() -> {
                        if (!t.isStackThread() || last[pp] != ii - 1) {
                            violations.add(pp + ":" + ii);
                        }
                        last[pp] = ii;
                        done.countDown();
                    });
                }
            });
            th.start();
            ts.add(th);
        }
        for (Thread th : ts) {
            th.join();
        }
        assertTrue(done.await(10, TimeUnit.SECONDS));
        assertEquals(List.of(), violations);
    }

    @Test
    void atTurnEndRunsAfterTheTurnsCommandsOncePerCallOnTheStackThread() throws Exception {
        StackThread t = thread(IdleStrategy.park());
        List<String> log = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        CountDownLatch hold = new CountDownLatch(1);
        CountDownLatch holding = new CountDownLatch(1);
        t.execute(
                () -> { // holds the thread so that both commands below wait for one turn
                    holding.countDown();
                    try {
                        hold.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
        assertTrue(holding.await(5, TimeUnit.SECONDS));
        t.execute(() -> {
            log.add("command 1");
            t.atTurnEnd(() -> log.add("end A on stack " + t.isStackThread()));
            t.atTurnEnd(() -> {
                log.add("end B");
                t.atTurnEnd(() -> log.add("end C added by B"));
                t.atTurnEnd(done::countDown);
            });
            t.atTurnEnd(() -> {
                throw new IllegalStateException("a failing task is reported, the others run");
            });
            for (int i = 0; i < 20; i++) { // grows the task array past its first size
                t.atTurnEnd(() -> log.add("end x"));
            }
        });
        t.execute(() -> log.add("command 2")); // same turn: runs before the end-of-turn tasks
        hold.countDown();
        assertTrue(done.await(5, TimeUnit.SECONDS));
        assertEquals("command 1", log.get(0));
        assertEquals("command 2", log.get(1));
        assertEquals("end A on stack true", log.get(2));
        assertEquals("end B", log.get(3));
        assertEquals(20, log.stream().filter("end x"::equals).count());
        assertEquals("end C added by B", log.get(log.size() - 1));
        assertEquals(1, t.errorCount());
        IllegalStateException off = assertThrows(IllegalStateException.class, () -> t.atTurnEnd(() -> {}));
        assertTrue(off.getMessage().contains("execute"), off.getMessage());
        // Nothing runs twice: a later turn adds only its own task.
        CountDownLatch again = new CountDownLatch(1);
        int before = log.size();
        t.execute(() -> t.atTurnEnd(again::countDown));
        assertTrue(again.await(5, TimeUnit.SECONDS));
        assertEquals(before, log.size());
    }

    @Test
    void whenIdleRunsOnceTheThreadFindsNoWorkAfterTheTurnEndTasks() throws Exception {
        StackThread t = thread(IdleStrategy.park());
        List<String> log = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        t.execute(() -> {
            t.whenIdle(() -> log.add("idle on stack " + t.isStackThread()));
            t.whenIdle(done::countDown);
            t.atTurnEnd(() -> log.add("turn end"));
            log.add("command");
        });
        assertTrue(done.await(5, TimeUnit.SECONDS));
        assertEquals(List.of("command", "turn end", "idle on stack true"), log);
        IllegalStateException off = assertThrows(IllegalStateException.class, () -> t.whenIdle(() -> {}));
        assertTrue(off.getMessage().contains("execute"), off.getMessage());
    }

    @Test
    void whenIdleStillRunsSoonOnAThreadThatStaysBusy() throws Exception {
        StackThread t = thread(IdleStrategy.park());
        long busyUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        CompletableFuture<Boolean> ranWhileBusy = new CompletableFuture<>();
        Runnable[] busy = new Runnable[1];
        busy[0] = () -> { // a command every turn: the thread never finds a turn without work
            if (System.nanoTime() < busyUntil && !ranWhileBusy.isDone()) {
                t.execute(busy[0]);
            }
        };
        t.execute(() -> {
            t.whenIdle(() -> ranWhileBusy.complete(System.nanoTime() < busyUntil));
            t.execute(busy[0]);
        });
        assertTrue(ranWhileBusy.get(10, TimeUnit.SECONDS), "the idle task waited for the busy phase to end");
    }

    @Test
    void endpointIsOnlyReachableFromTheStackThread() throws Exception {
        StackThread t = thread(IdleStrategy.park());
        InMemoryNetwork net = new InMemoryNetwork();
        EndpointHandle h = t.register(endpoint(7000, 1), net.open(7000, List.of(LOCAL)), new Events());
        IllegalStateException e = assertThrows(IllegalStateException.class, h::endpoint);
        assertTrue(e.getMessage().contains("execute"), e.getMessage());
        CompletableFuture<Integer> port = new CompletableFuture<>();
        h.execute(() -> port.complete(h.endpoint().localPort()));
        assertEquals(7000, port.get(5, TimeUnit.SECONDS));
    }

    private void exchange(StackThread ta, StackThread tz) throws Exception {
        exchange(ta, tz, new InMemoryNetwork());
    }

    private void exchange(StackThread ta, StackThread tz, InMemoryNetwork net) throws Exception {
        Events ea = new Events();
        Events ez = new Events();
        Endpoint z = endpoint(5002, 2);
        z.listen(true);
        tz.register(z, net.open(5002, List.of(LOCAL)), ez);
        EndpointHandle a = ta.register(endpoint(5001, 1), net.open(5001, List.of(LOCAL)), ea);
        CompletableFuture<AssociationId> id = new CompletableFuture<>();
        a.execute(() -> id.complete(a.endpoint().connect(List.of(LOCAL), 5002, ta.now())));
        ea.await(change(AssociationChangeType.COMMUNICATION_UP));
        ez.await(change(AssociationChangeType.COMMUNICATION_UP));
        AssociationId aid = id.get(5, TimeUnit.SECONDS);
        for (int i = 0; i < 100; i++) {
            byte[] msg = ("message " + i).getBytes(StandardCharsets.US_ASCII);
            CompletableFuture<SendStatus> s = new CompletableFuture<>();
            a.execute(() -> s.complete(a.endpoint().send(aid, SendInfo.of(0, 7), ByteBuffer.wrap(msg), ta.now())));
            assertEquals(SendStatus.ACCEPTED, s.get(5, TimeUnit.SECONDS));
            SctpEvent.MessageReceived m =
                    (SctpEvent.MessageReceived) ez.await(e -> e instanceof SctpEvent.MessageReceived);
            assertArrayEquals(msg, m.data());
            assertEquals(7, m.ppid());
        }
        a.close(true, TimeUnit.SECONDS.toNanos(5));
        ez.await(change(AssociationChangeType.SHUTDOWN_COMPLETE));
        assertTrue(ea.closed.await(5, TimeUnit.SECONDS));
        assertTrue(a.isClosed());
        assertTrue(((InMemoryNetwork.Layer) a.lowerLayer()).isClosed());
    }

    @Test
    void twoEndpointsOnOneParkingThreadConnectExchangeAndShutDown() throws Exception {
        StackThread t = thread(IdleStrategy.park());
        exchange(t, t);
    }

    @Test
    void aLayerThatSendsOnlyOnFlushIsFlushedAfterEveryBurst() throws Exception {
        // Nothing but LowerLayer.flush makes these layers send: without the stack thread's flush
        // after each burst the handshake would never complete.
        InMemoryNetwork net = new InMemoryNetwork(true);
        exchange(thread(IdleStrategy.park()), thread(IdleStrategy.park()), net);
        assertTrue(net.flushes.get() > 0);
    }

    @Test
    void twoThreadsWithEachIdleStrategy() throws Exception {
        exchange(thread(IdleStrategy.park()), thread(IdleStrategy.backoff(100, 10)));
        exchange(thread(IdleStrategy.spin()), thread(IdleStrategy.yielding()));
    }

    @Test
    void timersRunOnTheWheel_InitRetransmissionsEndInCantStart() throws Exception {
        StackThread t = thread(IdleStrategy.park());
        InMemoryNetwork net = new InMemoryNetwork();
        Events ea = new Events();
        EndpointHandle a = t.register(endpoint(5001, 1), net.open(5001, List.of(LOCAL)), ea);
        long start = System.nanoTime();
        a.execute(() -> a.endpoint().connect(List.of(LOCAL), 9 /* nobody there */, t.now()));
        ea.await(change(AssociationChangeType.CANT_START));
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        // INIT + 2 retransmissions with RTO 100 ms (LAN profile): about 300 ms.
        assertTrue(ms >= 250, "gave up after " + ms + " ms: timers fired early");
        assertEquals(3, net.dropped.get(), "INIT sent three times");
    }

    @Test
    void aThrowingCallbackIsReportedAndTheThreadGoesOn() throws Exception {
        StackThread t = thread(IdleStrategy.park());
        InMemoryNetwork net = new InMemoryNetwork();
        Events ea = new Events();
        Events ez = new Events();
        ez.throwFor = e -> true; // every callback of Z throws
        Endpoint z = endpoint(5002, 2);
        z.listen(true);
        t.register(z, net.open(5002, List.of(LOCAL)), ez);
        EndpointHandle a = t.register(endpoint(5001, 1), net.open(5001, List.of(LOCAL)), ea);
        CompletableFuture<AssociationId> id = new CompletableFuture<>();
        a.execute(() -> id.complete(a.endpoint().connect(List.of(LOCAL), 5002, t.now())));
        ea.await(change(AssociationChangeType.COMMUNICATION_UP));
        AssociationId aid = id.get(5, TimeUnit.SECONDS);
        for (int i = 0; i < 10; i++) {
            a.execute(() -> a.endpoint().send(aid, SendInfo.DEFAULT, ByteBuffer.wrap(new byte[] {1}), t.now()));
            assertNotNull(ez.await(e -> e instanceof SctpEvent.MessageReceived));
        }
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (t.errorCount() < 11 && System.nanoTime() < end) {
            Thread.sleep(1);
        }
        assertTrue(t.errorCount() >= 11, "one report per throwing callback: " + t.errorCount());
        assertTrue(reported.stream().anyMatch(r -> r.contains("MessageReceived") && r.contains("callback failure")));
        // A throwing command too.
        t.execute(() -> {
            throw new IllegalArgumentException("bad command");
        });
        CompletableFuture<Boolean> after = new CompletableFuture<>();
        t.execute(() -> after.complete(true));
        assertTrue(after.get(5, TimeUnit.SECONDS));
        assertTrue(reported.stream().anyMatch(r -> r.startsWith("command") && r.contains("bad command")));
        assertTrue(t.isRunning());
    }

    @Test
    void icmpReportsReachTheEndpointAndTheLayersDropCountItsStats() throws Exception {
        StackThread t = thread(IdleStrategy.park());
        InMemoryNetwork net = new InMemoryNetwork();
        Events ea = new Events();
        Endpoint a = endpoint(5001, 1);
        InMemoryNetwork.Layer la = net.open(5001, List.of(LOCAL));
        InMemoryNetwork.Layer peer = net.open(6000, List.of(LOCAL)); // silent: it only collects
        la.kernelDropped = 5;
        EndpointHandle h = t.register(a, la, ea);
        h.execute(() -> a.connect(List.of(LOCAL), 6000, t.now()));
        CompletableFuture<byte[]> init = new CompletableFuture<>(); // the INIT, as the peer got it
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!init.isDone() && System.nanoTime() < giveUp) {
            peer.await(TimeUnit.MILLISECONDS.toNanos(50));
            peer.receive((buf, from, to) -> init.complete(toArray(buf)), 1);
        }
        assertTrue(init.isDone(), "no INIT within 10 s; reported: " + reported);
        // The Port Unreachable a UDP layer would read for that INIT (RFC 6951 section 5.5)
        la.injectIcmp(org.sctpj.stack.icmp.IcmpReport.fromQuoted(
                        false, 3, 3, 0, true, LOCAL, LOCAL, ByteBuffer.wrap(init.getNow(new byte[0])))
                .orElseThrow());
        SctpEvent.AssociationChange c =
                (SctpEvent.AssociationChange) ea.await(change(AssociationChangeType.CANT_START));
        assertTrue(c.reason().contains("in answer to our INIT"), c.reason());
        byte[] any = new byte[12]; // any packet to port 5001: a receive that returns packets
        any[2] = (byte) (5001 >> 8);
        any[3] = (byte) 5001;
        peer.send(ByteBuffer.wrap(any), LOCAL, LOCAL);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long dropped = 0;
        while (dropped != 5 && System.nanoTime() < end) {
            CompletableFuture<Long> d = new CompletableFuture<>();
            t.execute(() -> d.complete(a.stats().lowerLayerDropped()));
            dropped = d.get(10, TimeUnit.SECONDS);
        }
        assertEquals(5, dropped);
        CompletableFuture<Long> acted = new CompletableFuture<>();
        t.execute(() -> acted.complete(a.stats().icmpActedOn()));
        assertEquals(1, acted.get(10, TimeUnit.SECONDS));
        assertEquals(List.of(), reported);
    }

    private static byte[] toArray(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    @Test
    void garbageFromThePeerNeverStopsTheThread() throws Exception {
        StackThread t = thread(IdleStrategy.park());
        InMemoryNetwork net = new InMemoryNetwork();
        Events ez = new Events();
        Endpoint z = endpoint(5002, 2);
        z.listen(true);
        t.register(z, net.open(5002, List.of(LOCAL)), ez);
        InMemoryNetwork.Layer raw = net.open(6000, List.of(LOCAL));
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < 2_000; i++) {
            byte[] junk = new byte[rnd.nextInt(0, 200)];
            rnd.nextBytes(junk);
            if (junk.length >= 4) {
                junk[2] = (byte) (5002 >> 8);
                junk[3] = (byte) 5002;
            }
            raw.send(ByteBuffer.wrap(junk), LOCAL, LOCAL);
        }
        CompletableFuture<Long> received = new CompletableFuture<>();
        t.execute(() -> received.complete(z.stats().received()));
        assertTrue(received.get(10, TimeUnit.SECONDS) > 0);
        assertTrue(t.isRunning());
    }

    @Test
    void abortiveCloseOfTheThreadAbortsAssociationsAndClosesLayers() throws Exception {
        StackThread t = new StackThread(StackConfig.DEFAULT.withName("closing"));
        t.start();
        StackThread peer = thread(IdleStrategy.park());
        InMemoryNetwork net = new InMemoryNetwork();
        Events ea = new Events();
        Events ez = new Events();
        Endpoint z = endpoint(5002, 2);
        z.listen(true);
        peer.register(z, net.open(5002, List.of(LOCAL)), ez);
        EndpointHandle a = t.register(endpoint(5001, 1), net.open(5001, List.of(LOCAL)), ea);
        a.execute(() -> a.endpoint().connect(List.of(LOCAL), 5002, t.now()));
        ez.await(change(AssociationChangeType.COMMUNICATION_UP));
        ea.await(change(AssociationChangeType.COMMUNICATION_UP)); // else A may still be COOKIE-ECHOED
        t.close();
        assertFalse(t.isRunning());
        assertTrue(a.isClosed());
        ea.await(change(AssociationChangeType.COMMUNICATION_LOST));
        ez.await(change(AssociationChangeType.COMMUNICATION_LOST)); // the ABORT reached the peer
    }

    @Test
    void runtimeAssignsShardsRoundRobin() {
        try (StackRuntime rt = StackRuntime.start(3, StackConfig.DEFAULT.withName("shard"))) {
            assertEquals(3, rt.threads().size());
            StackThread a = rt.next();
            StackThread b = rt.next();
            StackThread c = rt.next();
            assertEquals(List.of(a, b, c), rt.threads());
            assertEquals(a, rt.next());
            assertEquals("shard-1", b.name());
            assertTrue(a.isRunning() && b.isRunning() && c.isRunning());
        }
        assertThrows(IllegalArgumentException.class, () -> StackRuntime.start(0, StackConfig.DEFAULT));
    }

    @Test
    void badConfigSaysWhatToDo() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> StackConfig.DEFAULT.withTickNanos(0));
        assertTrue(e.getMessage().contains("tickNanos"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> StackConfig.DEFAULT.withMaxParkNanos(0));
        assertThrows(IllegalArgumentException.class, () -> IdleStrategy.backoff(-1, 0));
    }
}
