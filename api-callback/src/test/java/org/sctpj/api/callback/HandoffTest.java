package org.sctpj.api.callback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SendInfo;

/**
 * Messages sent from application threads reach the stack thread in batches (one command per
 * batch): none is lost or reordered, and one a thread sent before its {@code shutdown} reaches the
 * core before the shutdown does, while other threads keep sending.
 */
@Timeout(120)
class HandoffTest extends SocketFixture {

    @Test
    void messagesSentBeforeShutdownArriveWhileOtherThreadsSend() throws Exception {
        for (int round = 0; round < 8; round++) {
            oneRound(round);
        }
    }

    private void oneRound(int round) throws Exception {
        int threads = 3;
        int each = 400;
        List<byte[]> received = new CopyOnWriteArrayList<>();
        CountDownLatch ended = new CountDownLatch(1);
        Recorder srv = new Recorder() {
            @Override
            public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                received.add(m.data());
            }

            @Override
            public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
                if (c.type() == AssociationChangeType.SHUTDOWN_COMPLETE) {
                    ended.countDown();
                }
            }
        };
        CallbackSocket server = server(OPTS, srv);
        Recorder rec = new Recorder();
        CallbackSocket client =
                socket(OPTS.toBuilder().sendBufferBytes(64 * 1024).build(), rec, CLIENT_PORT);
        AssociationId id = client.connect(List.of(LOCAL), SERVER_PORT);
        rec.awaitUp();
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int tt = t;
            Thread th = new Thread(() -> {
                try {
                    for (int i = 0; i < each; i++) {
                        sendBlocking(client, rec, id, SendInfo.of(tt, 0), numbered(tt, i, 300));
                    }
                    if (tt == 0) {
                        client.shutdown(id); // right after the last send, while the others send
                    }
                } catch (IllegalStateException shuttingDown) {
                    // threads 1 and 2 may find the association shutting down: they stop there
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            ts.add(th);
        }
        ts.forEach(Thread::start);
        for (Thread th : ts) {
            th.join();
        }
        assertTrue(ended.await(30, TimeUnit.SECONDS), "round " + round + ": the shutdown did not complete");
        int[] next = perThreadCounts(received, threads, "round " + round);
        assertEquals(each, next[0], "round " + round + ": every message sent before the shutdown arrived");
        List<SctpEvent.SendFailed> failedOfThread0 =
                rec.failed.stream().filter(f -> f.data()[0] == 0).toList();
        assertEquals(List.of(), failedOfThread0, "round " + round + ": thread 0's messages were refused");
        client.close();
        server.close();
        sockets.clear();
    }
}
