package org.sctpj.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sctpj.api.callback.CallbackRuntime;
import org.sctpj.api.callback.CallbackSocket;
import org.sctpj.api.callback.Callbacks;
import org.sctpj.api.callback.UdpLayers;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;

/**
 * A real run over loopback (UDP encapsulation, the callback API, the stack thread's clock),
 * recorded on both sides, replays identically on a virtual clock.
 */
class LoopbackReplayTest {

    @TempDir
    Path tmp;

    static final int MESSAGES = 3000;

    @Test
    void aLoopbackRunThroughTheCallbackApiReplaysIdentically() throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        CountDownLatch received = new CountDownLatch(MESSAGES);
        CompletableFuture<AssociationId> up = new CompletableFuture<>();
        Path journals = tmp.resolve("journals");
        try (CallbackRuntime rt = CallbackRuntime.start(1, "journal-test")) {
            CallbackSocket server = rt.open(SctpOptions.LAN, UdpLayers.factory(0), new Callbacks() {
                @Override
                public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                    received.countDown();
                }
            });
            // the server's messages handed out are recorded by digest, the client's outputs whole
            server.recordTo(JournalRecorder.factory(journals, b -> b.digestOutputs(true)));
            server.bind(7201, List.of(lo));
            server.listen();
            CallbackSocket client = rt.open(SctpOptions.LAN, UdpLayers.factory(0), new Callbacks() {
                @Override
                public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {}

                @Override
                public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
                    if (c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP) {
                        up.complete(c.association());
                    }
                }
            });
            client.recordTo(
                    JournalRecorder.factory(journals, b -> b.batchBytes(8192).digestOutputs(false)));
            client.bind(7202, List.of(lo));
            client.setUdpRemotePort(lo, server.udpLocalPort());
            client.connect(List.of(lo), 7201);
            AssociationId id = up.get(10, TimeUnit.SECONDS);
            int sent = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (sent < MESSAGES && System.nanoTime() < deadline) {
                ByteBuffer m = ByteBuffer.allocate(1000);
                m.putInt(0, sent);
                if (client.send(id, SendInfo.of(0, 1), m) == SendStatus.ACCEPTED) {
                    sent++;
                } else {
                    Thread.onSpinWait();
                }
            }
            assertTrue(received.await(30, TimeUnit.SECONDS), "messages left: " + received.getCount());
            client.close(true, Duration.ofSeconds(5));
            server.close(true, Duration.ofSeconds(5));
        }
        for (int port : new int[] {7201, 7202}) {
            ReplayResult r = Replay.run(journals.resolve("port-" + port));
            System.out.print("port " + port + ": " + r.report());
            assertTrue(r.identical(), r.report());
            assertTrue(r.outputsChecked() > MESSAGES / 2, r.report());
        }
        // The server's journal holds every message it handed out.
        long messages = 0;
        try (JournalReader in = JournalReader.open(journals.resolve("port-7201"))) {
            while (in.hasNext()) {
                if (in.next().kind() == Kind.MESSAGE) {
                    messages++;
                }
            }
        }
        assertEquals(MESSAGES, messages);
    }
}
