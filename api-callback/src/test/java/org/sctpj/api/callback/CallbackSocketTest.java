package org.sctpj.api.callback;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;

class CallbackSocketTest extends SocketFixture {

    /** Echoes every message back from inside the receive callback, queueing on WOULD_BLOCK. */
    static final class EchoServer extends Recorder {
        final ArrayDeque<SctpEvent.MessageReceived> pending = new ArrayDeque<>(); // stack thread only
        final AtomicInteger echoed = new AtomicInteger();

        @Override
        public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
            pending.add(m);
            flush(s);
        }

        @Override
        public void onSendSpace(CallbackSocket s, AssociationId id, long free) {
            flush(s);
        }

        private void flush(CallbackSocket s) {
            SctpEvent.MessageReceived m;
            while ((m = pending.peek()) != null) {
                SendInfo info = new SendInfo(m.streamId(), m.ppid(), m.unordered(), false);
                if (s.send(m.association(), info, ByteBuffer.wrap(m.data())) == SendStatus.WOULD_BLOCK) {
                    return;
                }
                pending.poll();
                echoed.incrementAndGet();
            }
        }
    }

    static byte[] message(int i, SplittableRandom sizes) {
        int len = 1 + sizes.nextInt(2_000);
        byte[] b = new byte[len];
        for (int k = 0; k < len; k++) {
            b[k] = (byte) (i * 31 + k);
        }
        b[0] = (byte) i;
        return b;
    }

    @Test
    void echoServerSendingFromTheReceiveCallbackReturnsTenThousandMessagesIntact() throws Exception {
        EchoServer echo = new EchoServer();
        server(
                OPTS.toBuilder()
                        .sendBufferBytes(256 << 10)
                        .maxMessageSize(64 << 10)
                        .build(),
                echo);
        int streams = 4;
        Map<Integer, List<byte[]>> got = new ConcurrentHashMap<>();
        CountDownLatch all = new CountDownLatch(10_000);
        Recorder rec = new Recorder() {
            @Override
            public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                got.computeIfAbsent(m.streamId(), k -> new CopyOnWriteArrayList<>())
                        .add(m.data());
                all.countDown();
            }
        };
        CallbackSocket client = socket(
                OPTS.toBuilder()
                        .sendBufferBytes(256 << 10)
                        .maxMessageSize(64 << 10)
                        .build(),
                rec,
                CLIENT_PORT);
        AssociationId id = client.connect(List.of(LOCAL), SERVER_PORT);
        assertEquals(id, rec.awaitUp());
        SplittableRandom sizes = new SplittableRandom(1);
        List<List<byte[]>> sent = new ArrayList<>();
        for (int s = 0; s < streams; s++) {
            sent.add(new ArrayList<>());
        }
        for (int i = 0; i < 10_000; i++) {
            byte[] m = message(i, sizes);
            int stream = i % streams;
            sent.get(stream).add(m);
            sendBlocking(client, rec, id, SendInfo.of(stream, 42), m);
        }
        assertTrue(all.await(60, TimeUnit.SECONDS), "echoes missing: " + all.getCount());
        for (int s = 0; s < streams; s++) {
            List<byte[]> g = got.get(s);
            assertEquals(sent.get(s).size(), g.size());
            for (int k = 0; k < g.size(); k++) {
                assertArrayEquals(sent.get(s).get(k), g.get(k), "stream " + s + " message " + k);
            }
        }
        assertEquals(10_000, echo.echoed.get());
        assertEquals(List.of(), rec.failed);
        assertEquals(List.of(), reported);
    }

    @Test
    void sendCallbackFiresOnlyAtOrAboveTheThresholdAndAChangeTakesEffectAtRunTime() throws Exception {
        int buffer = 16_384;
        server(OPTS, new Recorder());
        List<long[]> fired = new CopyOnWriteArrayList<>(); // {free, threshold when it fired}
        Recorder rec = new Recorder() {
            @Override
            public void onSendSpace(CallbackSocket s, AssociationId id, long free) {
                fired.add(new long[] {free, s.sendThreshold()});
                super.onSendSpace(s, id, free);
            }
        };
        CallbackSocket client = socket(
                OPTS.toBuilder().sendBufferBytes(buffer).maxMessageSize(buffer).build(), rec, CLIENT_PORT);
        AssociationId id = client.connect(List.of(LOCAL), SERVER_PORT);
        rec.awaitUp();
        byte[] msg = new byte[1_000];

        // Phase 1: the whole buffer must be free before the callback fires.
        client.setSendThreshold(buffer);
        for (int round = 0; round < 5; round++) {
            fill(client, id, msg);
            assertTrue(rec.space.tryAcquire(10, TimeUnit.SECONDS));
        }
        assertFalse(fired.isEmpty());
        for (long[] f : fired) {
            assertEquals(buffer, f[0], "fired below the threshold");
        }

        // Phase 2: threshold 0, changed at run time: fires after every SACK that frees space, so
        // also while part of the buffer is still in flight.
        rec.space.drainPermits();
        fired.clear();
        client.setSendThreshold(0);
        for (int round = 0; round < 5; round++) {
            fill(client, id, msg);
            assertTrue(rec.space.tryAcquire(10, TimeUnit.SECONDS));
            waitUntil(() -> client.sendBufferFree(id) == buffer);
        }
        assertTrue(fired.stream().anyMatch(f -> f[0] < buffer), "threshold 0 must fire before the buffer is empty");

        // Phase 3: a middle threshold holds for every firing.
        fired.clear();
        client.setSendThreshold(9_000);
        for (int round = 0; round < 5; round++) {
            fill(client, id, msg);
            waitUntil(() -> client.sendBufferFree(id) == buffer);
        }
        assertFalse(fired.isEmpty());
        for (long[] f : fired) {
            assertTrue(f[0] >= 9_000, "fired with " + f[0] + " free, below the threshold 9000");
        }
    }

    private static void fill(CallbackSocket s, AssociationId id, byte[] msg) {
        int n = 0;
        while (s.send(id, SendInfo.DEFAULT, ByteBuffer.wrap(msg)) == SendStatus.ACCEPTED) {
            n++;
        }
        assertTrue(n > 0);
    }

    @Test
    void concurrentSendersNeverOverbookTheSendBuffer() throws Exception {
        List<byte[]> received = new CopyOnWriteArrayList<>();
        int threads = 4;
        int each = 1_000;
        CountDownLatch all = new CountDownLatch(threads * each);
        server(OPTS, new Recorder() {
            @Override
            public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                received.add(m.data());
                all.countDown();
            }
        });
        Recorder rec = new Recorder();
        CallbackSocket client = socket(
                OPTS.toBuilder().sendBufferBytes(32_768).maxMessageSize(32_768).build(), rec, CLIENT_PORT);
        AssociationId id = client.connect(List.of(LOCAL), SERVER_PORT);
        rec.awaitUp();
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int tt = t;
            Thread th = new Thread(() -> {
                try {
                    for (int i = 0; i < each; i++) {
                        sendBlocking(client, rec, id, SendInfo.of(tt, 0), numbered(tt, i, 500));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            th.start();
            ts.add(th);
        }
        for (Thread th : ts) {
            th.join();
        }
        assertTrue(all.await(30, TimeUnit.SECONDS), "missing " + all.getCount());
        perThreadCounts(received, threads, "per-stream");
        assertEquals(List.of(), rec.failed, "an accepted message was refused later");
    }

    @Test
    void sendingFromTheAssociationCallbackWorks() throws Exception {
        Recorder srv = new Recorder();
        server(OPTS, srv);
        Recorder rec = new Recorder() {
            @Override
            public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
                if (c.type() == AssociationChangeType.COMMUNICATION_UP) {
                    assertEquals(
                            SendStatus.ACCEPTED,
                            s.send(c.association(), SendInfo.of(1, 9), ByteBuffer.wrap(new byte[] {7, 7})));
                }
                super.onAssociationChange(s, c);
            }
        };
        socket(OPTS, rec, CLIENT_PORT).connect(List.of(LOCAL), SERVER_PORT);
        SctpEvent.MessageReceived m =
                (SctpEvent.MessageReceived) srv.await(e -> e instanceof SctpEvent.MessageReceived);
        assertArrayEquals(new byte[] {7, 7}, m.data());
        assertEquals(1, m.streamId());
        assertEquals(9, m.ppid());
        assertEquals(List.of(), reported);
    }

    @Test
    void aThrowingCallbackIsReportedAndTheStackGoesOn() throws Exception {
        AtomicInteger handled = new AtomicInteger();
        AtomicInteger calls = new AtomicInteger();
        Recorder srv = new Recorder() {
            @Override
            public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                calls.incrementAndGet();
                super.onMessage(s, m);
                throw new IllegalStateException("user bug " + m.data()[0]);
            }

            @Override
            public boolean onCallbackError(CallbackSocket s, Throwable error) {
                return handled.incrementAndGet() % 2 == 0; // every other one goes to the reporter
            }
        };
        server(OPTS, srv);
        Recorder rec = new Recorder();
        CallbackSocket client = socket(OPTS, rec, CLIENT_PORT);
        AssociationId id = client.connect(List.of(LOCAL), SERVER_PORT);
        rec.awaitUp();
        for (int i = 0; i < 10; i++) {
            sendBlocking(client, rec, id, SendInfo.DEFAULT, new byte[] {(byte) i});
        }
        waitUntil(() -> calls.get() == 10 && handled.get() == 10 && reported.size() == 5);
        assertTrue(reported.get(0).contains("user bug"), reported.get(0));
        assertEquals(5, rt.errorCount());
        // Still serving.
        sendBlocking(client, rec, id, SendInfo.DEFAULT, new byte[] {99});
        waitUntil(() -> calls.get() == 11);
    }

    @Test
    void gracefulCloseShutsDownTheAssociations() throws Exception {
        Recorder srv = new Recorder();
        server(OPTS, srv);
        Recorder rec = new Recorder();
        CallbackSocket client = socket(OPTS, rec, CLIENT_PORT);
        AssociationId id = client.connect(List.of(LOCAL), SERVER_PORT);
        rec.awaitUp();
        sendBlocking(client, rec, id, SendInfo.DEFAULT, new byte[100]);
        client.close(true, Duration.ofSeconds(5));
        assertTrue(rec.closed.await(5, TimeUnit.SECONDS));
        srv.await(change(AssociationChangeType.SHUTDOWN_COMPLETE));
        assertTrue(client.isClosed());
        assertEquals(List.of(), client.associations());
        IllegalStateException e = assertThrows(
                IllegalStateException.class, () -> client.send(id, SendInfo.DEFAULT, ByteBuffer.allocate(1)));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }

    /**
     * RFC 5061 section 4.2.6 / RFC 6458 section 6.1.6: the server's Adaptation Layer Indication
     * reaches the client's callback after the association is up; the client sent none, so the
     * server's callback never fires.
     */
    @Test
    void thePeersAdaptationIndicationReachesItsCallbackAfterCommunicationUp() throws Exception {
        List<Object> serverSaw = new CopyOnWriteArrayList<>();
        server(OPTS.toBuilder().adaptationIndication(0xCAFEF00DL).build(), new Recorder() {
            @Override
            public void onAdaptationIndication(CallbackSocket s, SctpEvent.AdaptationIndication a) {
                serverSaw.add(a);
            }
        });
        Recorder rec = new Recorder() {
            @Override
            public void onAdaptationIndication(CallbackSocket s, SctpEvent.AdaptationIndication a) {
                events.add(a);
            }
        };
        CallbackSocket client = socket(OPTS, rec, CLIENT_PORT);
        AssociationId id = client.connect(List.of(LOCAL), SERVER_PORT);
        assertEquals(id, rec.awaitUp());
        SctpEvent.AdaptationIndication a =
                (SctpEvent.AdaptationIndication) rec.await(e -> e instanceof SctpEvent.AdaptationIndication);
        assertEquals(id, a.association());
        assertEquals(0xCAFEF00DL, a.indication());
        Thread.sleep(100);
        assertEquals(List.of(), serverSaw);
    }

    /**
     * RFC 6458 section 6.1.9 (SCTP_SENDER_DRY_EVENT): once everything the client sent has been
     * acknowledged, {@link Callbacks#onSenderDry} reports it for that association, on the stack
     * thread. Only what comes after the send counts here.
     */
    @Test
    void senderDryFollowsTheAcknowledgementOfWhatWasSent() throws Exception {
        server(OPTS, new Recorder());
        List<AssociationId> dry = new CopyOnWriteArrayList<>();
        Recorder rec = new Recorder() {
            @Override
            public void onSenderDry(CallbackSocket s, AssociationId a) {
                dry.add(a);
            }
        };
        CallbackSocket client = socket(OPTS, rec, CLIENT_PORT);
        AssociationId id = client.connect(List.of(LOCAL), SERVER_PORT);
        assertEquals(id, rec.awaitUp());
        Thread.sleep(100); // a dry report of the handshake, if any, comes before the send
        dry.clear();
        assertEquals(SendStatus.ACCEPTED, client.send(id, SendInfo.DEFAULT, ByteBuffer.wrap(new byte[1000])));
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (dry.isEmpty() && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertEquals(List.of(id), dry);
    }

    /**
     * AUTH (RFC 4895) through the callback API: both ends offer it and require DATA authenticated;
     * the client switches to a key it set on both sides (RFC 6458 8.1.22, 8.1.23) and the server's
     * {@link Callbacks#onAuthentication} reports NEW_KEY; deactivating the old key gives FREE_KEY on
     * the client. A message sent after the switch still arrives.
     */
    @Test
    void authKeysAndTheirEventsThroughTheCallbackApi() throws Exception {
        org.sctpj.stack.SctpOptions auth = OPTS.toBuilder()
                .enable(org.sctpj.stack.Extension.AUTH)
                .authChunks(java.util.Set.of(0))
                .build();
        Recorder srv = new Recorder() {
            @Override
            public void onAuthentication(CallbackSocket s, SctpEvent.Authentication a) {
                events.add(a);
            }
        };
        CallbackSocket server = server(auth, srv);
        Recorder rec = new Recorder() {
            @Override
            public void onAuthentication(CallbackSocket s, SctpEvent.Authentication a) {
                events.add(a);
            }
        };
        CallbackSocket client = socket(auth, rec, CLIENT_PORT);
        AssociationId id = client.connect(List.of(LOCAL), SERVER_PORT);
        rec.awaitUp();
        AssociationId sid = srv.awaitUp();
        assertEquals(java.util.Set.of(0), client.peerAuthChunks(id));
        byte[] key = {1, 2, 3, 4};
        server.setAuthKey(sid, 7, key);
        client.setAuthKey(id, 7, key);
        client.setActiveAuthKey(id, 7);
        assertEquals(7, client.activeAuthKey(id));
        client.deactivateAuthKey(id, 0);
        assertEquals(
                new SctpEvent.Authentication(id, SctpEvent.AuthIndication.FREE_KEY, 0),
                rec.await(e -> e instanceof SctpEvent.Authentication));
        sendBlocking(client, rec, id, SendInfo.DEFAULT, new byte[] {42});
        assertEquals(
                new SctpEvent.Authentication(sid, SctpEvent.AuthIndication.NEW_KEY, 7),
                srv.await(e -> e instanceof SctpEvent.Authentication));
        assertThrows(IllegalStateException.class, () -> client.deleteAuthKey(id, 7)); // the active key
    }
}
