package org.sctpj.api.callback;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/** Two shards, an in-memory network and helpers shared by the callback socket tests. */
abstract class SocketFixture {

    static final InetAddress LOCAL = InetAddress.getLoopbackAddress();
    static final int SERVER_PORT = 5002;
    static final int CLIENT_PORT = 5001;
    static final SctpOptions OPTS = SctpOptions.LAN.toBuilder()
            .delayedAckTime(Duration.ofMillis(5))
            .maxInitRetransmits(2)
            .build();

    final List<String> reported = new CopyOnWriteArrayList<>();
    InMemoryNetwork net;
    StackRuntime rt;
    final List<CallbackSocket> sockets = new ArrayList<>();

    @BeforeEach
    void start() {
        net = new InMemoryNetwork();
        rt = StackRuntime.start(
                2,
                StackConfig.DEFAULT.withName("cb-test").withErrors((w, e) -> reported.add(w + ": " + e.getMessage())));
    }

    @AfterEach
    void stop() {
        for (CallbackSocket s : sockets) {
            s.close();
        }
        rt.close();
    }

    /** Records every callback; subclasses add behaviour. */
    static class Recorder implements Callbacks {
        final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
        final List<SctpEvent.SendFailed> failed = new CopyOnWriteArrayList<>();
        final CountDownLatch closed = new CountDownLatch(1);
        final Semaphore space = new Semaphore(0);

        @Override
        public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
            events.add(m);
        }

        @Override
        public void onSendSpace(CallbackSocket s, AssociationId id, long free) {
            space.release();
        }

        @Override
        public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
            events.add(c);
        }

        @Override
        public void onSendFailed(CallbackSocket s, SctpEvent.SendFailed f) {
            failed.add(f);
        }

        @Override
        public void onClosed(CallbackSocket s) {
            closed.countDown();
        }

        Object await(Predicate<Object> p) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < end) {
                Object e = events.poll(50, TimeUnit.MILLISECONDS);
                if (e != null && p.test(e)) {
                    return e;
                }
            }
            throw new AssertionError("callback not seen within 20 s");
        }

        AssociationId awaitUp() throws InterruptedException {
            return ((SctpEvent.AssociationChange) await(change(AssociationChangeType.COMMUNICATION_UP))).association();
        }
    }

    static Predicate<Object> change(AssociationChangeType t) {
        return e -> e instanceof SctpEvent.AssociationChange c && c.type() == t;
    }

    CallbackSocket socket(SctpOptions o, Callbacks cb, int port) throws Exception {
        CallbackSocket s = CallbackSocket.open(rt, o, net::open, cb);
        sockets.add(s);
        s.bind(port, List.of(LOCAL));
        return s;
    }

    CallbackSocket server(SctpOptions o, Callbacks cb) throws Exception {
        CallbackSocket s = socket(o, cb, SERVER_PORT);
        s.listen();
        return s;
    }

    /** Sends, waiting for the send callback on WOULD_BLOCK. */
    static void sendBlocking(CallbackSocket s, Recorder r, AssociationId id, SendInfo info, byte[] msg)
            throws InterruptedException {
        ByteBuffer buf = ByteBuffer.wrap(msg);
        while (s.send(id, info, buf) == SendStatus.WOULD_BLOCK) {
            r.space.tryAcquire(10, TimeUnit.MILLISECONDS);
        }
        assertFalse(buf.hasRemaining(), "an accepted message is consumed");
    }

    /** A message of {@code size} bytes numbered {@code seq} by sending thread {@code thread}. */
    static byte[] numbered(int thread, int seq, int size) {
        byte[] m = new byte[size];
        m[0] = (byte) thread;
        m[1] = (byte) (seq >> 8);
        m[2] = (byte) seq;
        return m;
    }

    /**
     * Checks that each thread's {@link #numbered} messages came in its order, none missing in
     * between, and returns how many of each thread came.
     */
    static int[] perThreadCounts(List<byte[]> received, int threads, String what) {
        int[] next = new int[threads];
        for (byte[] m : received) {
            int t = m[0];
            int i = ((m[1] & 0xff) << 8) | (m[2] & 0xff);
            org.junit.jupiter.api.Assertions.assertEquals(next[t]++, i, what + ": per-thread order");
        }
        return next;
    }

    static void waitUntil(java.util.function.BooleanSupplier c) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!c.getAsBoolean()) {
            assertTrue(System.nanoTime() < end, "condition not met within 10 s");
            Thread.sleep(1);
        }
    }
}
