package org.sctpj.tests.obs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sctpj.api.callback.CallbackSocket;
import org.sctpj.api.callback.Callbacks;
import org.sctpj.api.callback.LowerLayerFactory;
import org.sctpj.api.callback.UdpLayers;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.AssociationStats;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.llp.LowerLayer;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * A short loopback transfer (callback API, UDP encapsulation) whose client loses two of its DATA
 * packets on purpose, through a layer decorator: one inside a burst (the packets after it make the
 * receiver report the gap: a fast retransmit) and the only packet of a lone message (nothing
 * follows: T3-rtx expires). Recorded with JFR: the recording read back holds each event type of
 * the stack (association state, path status, retransmission timeout, fast retransmit), and the
 * association counters of both sides show the loss from both ends.
 */
class ObservabilityTest {

    private static final List<String> EVENTS = List.of(
            "org.sctpj.AssociationState",
            "org.sctpj.PathStatus",
            "org.sctpj.RetransmissionTimeout",
            "org.sctpj.FastRetransmit");

    /** Drops the outgoing packets with DATA whose ordinal (1-based, among DATA packets) is listed. */
    static final class Dropper implements LowerLayer {
        final LowerLayer inner;
        final AtomicInteger dataPackets = new AtomicInteger();
        final java.util.Set<Integer> drop;
        final AtomicInteger dropped = new AtomicInteger();

        Dropper(LowerLayer inner, java.util.Set<Integer> drop) {
            this.inner = inner;
            this.drop = drop;
        }

        @Override
        public void send(ByteBuffer sctp, InetAddress source, InetAddress destination) throws IOException {
            if (hasData(sctp) && drop.contains(dataPackets.incrementAndGet())) {
                dropped.incrementAndGet();
                return;
            }
            inner.send(sctp, source, destination);
        }

        static boolean hasData(ByteBuffer p) {
            int off = p.position() + 12;
            while (off + 4 <= p.limit()) {
                if (p.get(off) == 0) {
                    return true;
                }
                int len = p.getShort(off + 2) & 0xffff;
                if (len < 4) {
                    return false;
                }
                off += (len + 3) & ~3;
            }
            return false;
        }

        @Override
        public void flush() throws IOException {
            inner.flush();
        }

        @Override
        public int receive(PacketSink sink, int max) throws IOException {
            return inner.receive(sink, max);
        }

        @Override
        public void await(long timeoutNanos) throws IOException {
            inner.await(timeoutNanos);
        }

        @Override
        public void wakeup() {
            inner.wakeup();
        }

        @Override
        public int encapsulationOverhead() {
            return inner.encapsulationOverhead();
        }

        @Override
        public void close() throws IOException {
            inner.close();
        }

        @Override
        public LowerLayer inner() {
            return inner;
        }
    }

    @Test
    @Timeout(60)
    void jfrShowsTheStackAndTheCountersShowTheLoss(@TempDir Path dir) throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        SctpOptions o = SctpOptions.LAN;
        int burst = 40;
        AtomicInteger received = new AtomicInteger();
        CountDownLatch allIn = new CountDownLatch(burst + 1);
        CountDownLatch up = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        AtomicReference<AssociationId> serverAssoc = new AtomicReference<>();
        AtomicReference<Dropper> dropper = new AtomicReference<>();
        // The 5th DATA packet of the burst and the 1st transmission of the lone message (the 41st).
        LowerLayerFactory lossy = UdpLayers.factory(0).decorated(inner -> {
            Dropper d = new Dropper(inner, java.util.Set.of(5, burst + 1));
            dropper.set(d);
            return d;
        });
        Path jfr = dir.resolve("run.jfr");
        try (Recording rec = new Recording();
                StackRuntime rt = StackRuntime.start(2, StackConfig.DEFAULT.withName("obs"))) {
            for (String e : EVENTS) {
                rec.enable(e);
            }
            rec.start();
            CallbackSocket server = CallbackSocket.open(rt.threads().get(0), o, UdpLayers.factory(0), new Callbacks() {
                @Override
                public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                    serverAssoc.set(m.association());
                    received.incrementAndGet();
                    allIn.countDown();
                }
            });
            server.bind(40000 + (int) (Math.random() * 10000), List.of(lo));
            server.listen();
            CallbackSocket client = CallbackSocket.open(rt.threads().get(1), o, lossy, new Callbacks() {
                @Override
                public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {}

                @Override
                public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
                    if (c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP) {
                        up.countDown();
                    } else {
                        closed.countDown();
                    }
                }
            });
            client.bind(30000 + (int) (Math.random() * 10000), List.of(lo));
            client.setUdpRemotePort(lo, server.udpLocalPort());
            AssociationId id = client.connect(List.of(lo), server.localPort());
            assertTrue(up.await(10, TimeUnit.SECONDS), "association up");
            for (int i = 0; i < burst; i++) {
                assertEquals(SendStatus.ACCEPTED, client.send(id, SendInfo.DEFAULT, ByteBuffer.wrap(new byte[1000])));
            }
            long t0 = System.nanoTime();
            while (allIn.getCount() > 1 && System.nanoTime() - t0 < 10_000_000_000L) {
                Thread.sleep(5);
            }
            assertEquals(1, allIn.getCount(), "the burst arrived, the lost packet recovered");
            assertEquals(SendStatus.ACCEPTED, client.send(id, SendInfo.DEFAULT, ByteBuffer.wrap(new byte[100])));
            assertTrue(allIn.await(20, TimeUnit.SECONDS), "the lone message arrived after its timeout");
            assertEquals(2, dropper.get().dropped.get(), "two DATA packets dropped");

            AssociationStats c = client.stats(id);
            AssociationStats s = server.stats(serverAssoc.get());
            assertEquals(burst + 1, c.messagesSent(), c.toString());
            assertEquals(burst * 1000L + 100, c.bytesSent(), c.toString());
            assertTrue(c.fastRetransmissions() >= 1, "fast retransmit counted: " + c);
            assertTrue(c.timeoutRetransmissions() >= 1, "T3 expiry counted: " + c);
            assertEquals(c.timeoutRetransmissions(), c.paths().get(0).timeoutRetransmissions(), c.toString());
            assertTrue(c.chunksRetransmitted() >= 2, c.toString());
            assertTrue(c.sacksReceived() > 0 && c.gapSacksReceived() >= 1, c.toString());
            assertTrue(c.paths().get(0).srttNanos() > 0 && c.paths().get(0).rttNanos() > 0, c.toString());
            assertTrue(c.paths().get(0).cwnd() > 0, c.toString());
            assertEquals(burst + 1, s.messagesReceived(), s.toString());
            assertEquals(burst * 1000L + 100, s.bytesReceived(), s.toString());
            assertEquals(s.bytesReceived(), s.paths().get(0).bytesReceived(), s.toString());
            assertTrue(s.outOfOrderReceived() >= 1, "chunks above the gap: " + s);
            assertTrue(s.gapSacksSent() >= 1 && s.sacksSent() >= s.gapSacksSent(), s.toString());
            // No SACK was lost and the client's snapshot came first: the client handled at most what the server sent.
            assertTrue(s.sacksSent() >= c.sacksReceived(), "SACKs: " + s + " / " + c);

            client.shutdown(id);
            assertTrue(closed.await(10, TimeUnit.SECONDS), "shutdown complete");
            client.close();
            server.close();
            rec.stop();
            rec.dump(jfr);
        }
        Map<String, Integer> seen = new HashMap<>();
        java.util.Set<String> states = new java.util.HashSet<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            String name = e.getEventType().getName();
            seen.merge(name, 1, Integer::sum);
            if (name.equals("org.sctpj.AssociationState")) {
                states.add(e.getString("to"));
            }
        }
        for (String e : EVENTS) {
            assertTrue(seen.containsKey(e), e + " recorded; seen " + seen);
        }
        assertTrue(states.containsAll(List.of("ESTABLISHED", "CLOSED")), "states recorded: " + states);
    }
}
