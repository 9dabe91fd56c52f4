package org.sctpj.stack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.EventHandler;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.DataChunk;

/**
 * One delivery route, deferred: the user's {@link EventHandler} runs only once the core has
 * finished an endpoint call (a whole packet), never from inside it, never re-entered from inside
 * itself; what the handler's own calls produce is handed out after what was waiting, in order.
 */
class DeferredDeliveryTest {

    /** Records what the handler sees, and checks that it is never re-entered. */
    private abstract static class Recorder implements EventHandler {
        final List<String> log = new ArrayList<>();
        int depth;
        int maxDepth;

        @Override
        public final void onEvent(SctpEvent event) {
            enter();
            try {
                log.add(describe(event));
                event(event);
            } finally {
                depth--;
            }
        }

        @Override
        public final void onMessage(AssociationId a, int streamId, int ppid, boolean unordered, ByteBuffer data) {
            enter();
            try {
                log.add("message " + data.get(data.position()));
                message(a, data.get(data.position()));
            } finally {
                depth--;
            }
        }

        private void enter() {
            depth++;
            maxDepth = Math.max(maxDepth, depth);
        }

        void event(SctpEvent event) {}

        void message(AssociationId a, int first) {}

        static String describe(SctpEvent e) {
            if (e instanceof SctpEvent.AssociationChange c) {
                return c.type().name();
            }
            if (e instanceof SctpEvent.PeerAddressChange p) {
                return p.state().name();
            }
            return e.getClass().getSimpleName();
        }
    }

    /** A recorder that runs {@code action} in the callback of the message whose first byte is 1, then logs {@code note}. */
    private static Recorder onFirstMessage(Consumer<AssociationId> action, String note) {
        return new Recorder() {
            @Override
            void message(AssociationId a, int first) {
                if (first == 1) {
                    action.accept(a);
                    log.add(note);
                }
            }
        };
    }

    private static DataChunk data(int tsnOffset, int firstByte) {
        return new DataChunk(
                true, false, true, true, ProtocolErrorsTest.PEER_TSN + tsnOffset, 0, tsnOffset, 1, Bytes.of(new byte[] {
                    (byte) firstByte, 2, 3
                }));
    }

    /**
     * A packet carrying DATA and then an ABORT. Before deferral the message handler ran from
     * inside the ABORT's processing (the association's close delivered what was pending), while
     * the association still looked established: a send from the callback was accepted, only to be
     * handed back as failed a moment later. Now the handler runs once the whole packet is done,
     * and sees the association as the packet left it: gone.
     */
    @Test
    void theHandlerSeesTheAssociationAsTheWholePacketLeftIt() {
        ProtocolErrorsTest.Established e = new ProtocolErrorsTest.Established();
        Endpoint ep = e.p.ep;
        List<String> seenInCallback = new ArrayList<>();
        Recorder r = new Recorder() {
            @Override
            void message(AssociationId a, int first) {
                seenInCallback.add(ep.info(a).map(i -> i.state()).orElse("gone"));
                try {
                    SendStatus s = ep.send(a, SendInfo.DEFAULT, ByteBuffer.wrap(new byte[] {9}), e.p.now);
                    seenInCallback.add("send " + s);
                } catch (IllegalArgumentException | IllegalStateException x) {
                    seenInCallback.add("send refused");
                }
            }
        };
        ep.setEventHandler(r);
        e.p.deliver(e.localTag, data(0, 7), AbortChunk.of(false));
        assertEquals(List.of("gone", "send refused"), seenInCallback);
        assertEquals(List.of("message 7", "COMMUNICATION_LOST"), r.log);
        assertEquals(1, r.maxDepth);
    }

    /**
     * A handler that aborts the association from the callback of the first of three messages of
     * one packet. Before deferral the abort delivered the packet's other messages from inside the
     * callback (the handler re-entered itself). Now the other messages follow, then what the abort
     * produced, each callback after the previous one returned.
     */
    @Test
    void anAbortFromTheCallbackIsNotReenteredAndComesAfterThePacketsMessages() {
        ProtocolErrorsTest.Established e = new ProtocolErrorsTest.Established();
        Endpoint ep = e.p.ep;
        Recorder r = onFirstMessage(a -> ep.abort(a, new byte[0], e.p.now), "aborted");
        ep.setEventHandler(r);
        int polled = e.p.events.size();
        e.p.deliver(e.localTag, data(0, 1), data(1, 2), data(2, 3));
        assertEquals(List.of("message 1", "aborted", "message 2", "message 3", "COMMUNICATION_LOST"), r.log);
        assertEquals(1, r.maxDepth, "the handler was re-entered from inside itself");
        assertEquals(polled, e.p.events.size(), "with a handler nothing waits for pollEvent: " + e.p.events);
    }

    private static final InetAddress ADDR = InetAddress.getLoopbackAddress();

    /** Moves every packet between two endpoints until both are quiet, 1 ms per round. */
    private static long exchange(Endpoint a, Endpoint z, long now, int rounds) {
        ByteBuffer buf = ByteBuffer.allocateDirect(65535);
        for (int i = 0; i < rounds; i++) {
            now += 1_000_000;
            a.handleTimeout(now);
            z.handleTimeout(now);
            buf.clear();
            while (a.pollTransmit(buf, now) != null) {
                z.handleInput(buf, ADDR, ADDR, now);
                buf.clear();
            }
            while (z.pollTransmit(buf, now) != null) {
                a.handleInput(buf, ADDR, ADDR, now);
                buf.clear();
            }
        }
        return now;
    }

    /**
     * An echo server that sends from the message callback and shuts the association down after
     * the tenth message: every echo is taken, the sends after the shutdown are refused with the
     * reason, the events come in order (up, ten messages, shutdown complete) and the handler is
     * never re-entered.
     */
    @Test
    void aHandlerThatSendsAndShutsDownFromTheCallbackSeesAConsistentAssociation() {
        SctpOptions o = SctpOptions.LAN;
        Endpoint a = new Endpoint(5000, List.of(ADDR), o, new SplittableRandom(1), 0);
        Endpoint z = new Endpoint(5001, List.of(ADDR), o, new SplittableRandom(2), 0);
        z.listen(true);
        long[] now = {0};
        List<String> sendResults = new ArrayList<>();
        Recorder server = new Recorder() {
            @Override
            void message(AssociationId id, int first) {
                try {
                    sendResults.add(z.send(id, SendInfo.DEFAULT, ByteBuffer.wrap(new byte[] {(byte) first}), now[0])
                            .name());
                } catch (IllegalStateException x) {
                    sendResults.add(x.getMessage().contains("shutting down") ? "refused: shutting down" : "?");
                }
                if (first == 10) {
                    z.shutdown(id, now[0]);
                }
            }
        };
        z.setEventHandler(server);
        Recorder client = new Recorder() {};
        a.setEventHandler(client);
        AssociationId id = a.connect(List.of(ADDR), 5001, 0);
        now[0] = exchange(a, z, now[0], 10);
        for (int i = 1; i <= 12; i++) {
            // Twelve messages, several per packet: the last two arrive after the shutdown.
            assertEquals(
                    SendStatus.ACCEPTED, a.send(id, SendInfo.DEFAULT, ByteBuffer.wrap(new byte[] {(byte) i}), now[0]));
        }
        now[0] = exchange(a, z, now[0], 200);
        List<String> expected = new ArrayList<>();
        expected.add("COMMUNICATION_UP");
        for (int i = 1; i <= 10; i++) {
            expected.add("message " + i);
        }
        List<String> serverLog = server.log.stream()
                .filter(s -> !s.equals("SenderDry") && !s.equals("SendSpaceAvailable"))
                .toList();
        assertEquals(
                "SHUTDOWN_COMPLETE", serverLog.get(serverLog.size() - 1), "the association ends last: " + serverLog);
        assertEquals(expected, serverLog.subList(0, 11), "up, then the messages in order: " + serverLog);
        List<String> sends = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            sends.add("ACCEPTED");
        }
        assertEquals(12, sendResults.size(), "every message reached the server: " + sendResults);
        assertEquals(sends, sendResults.subList(0, 10));
        assertTrue(
                sendResults.subList(10, sendResults.size()).stream().allMatch(s -> s.equals("refused: shutting down")),
                "sends after the shutdown are refused: " + sendResults);
        assertEquals(1, server.maxDepth, "the handler was re-entered from inside itself");
        List<String> echoes =
                client.log.stream().filter(s -> s.startsWith("message")).toList();
        assertEquals(expected.subList(1, 11), echoes, "every echo arrives, in order");
    }

    /**
     * Events made by a call from inside the handler join the end of the outbox and are handed out
     * by the same loop: setPrimary from the callback of the first of two messages of a packet makes
     * MADE_PRIMARY come after the second message, and not from inside the callback.
     */
    @Test
    void eventsOfNestedCallsAreHandedOutAfterWhatWasWaiting() {
        ProtocolErrorsTest.Established e = new ProtocolErrorsTest.Established();
        Endpoint ep = e.p.ep;
        Recorder r = onFirstMessage(a -> ep.setPrimary(a, Peer.REMOTE), "primary set");
        ep.setEventHandler(r);
        e.p.deliver(e.localTag, data(0, 1), data(1, 2));
        assertEquals(List.of("message 1", "primary set", "message 2", "MADE_PRIMARY"), r.log);
        assertEquals(1, r.maxDepth);
    }

    /** Without a handler the events wait for pollEvent; a handler set later takes them at once. */
    @Test
    void aHandlerSetLaterTakesWhatWaited() {
        ProtocolErrorsTest.Established e = new ProtocolErrorsTest.Established();
        Endpoint ep = e.p.ep;
        ep.handleInput(
                ByteBuffer.wrap(
                        org.sctpj.stack.wire.SctpPacket.of(Peer.REMOTE_PORT, Peer.LOCAL_PORT, e.localTag, data(0, 4))
                                .toBytes()),
                Peer.REMOTE,
                Peer.LOCAL,
                e.p.now);
        Recorder r = new Recorder() {};
        ep.setEventHandler(r);
        assertEquals(List.of("message 4"), r.log);
        assertEquals(null, ep.pollEventOrNull());
        assertThrows(IllegalArgumentException.class, () -> ep.abort(new AssociationId(99), new byte[0], 0));
    }

    /**
     * The core owns the send threshold: SendSpaceAvailable comes only once the free space reached
     * it, while onSendBufferFreed reports every SACK that freed space (below the threshold too),
     * with the core's figure at that time, after the call's events.
     */
    @Test
    void theThresholdEventIsTheCoresAndEveryFreeingIsReported() {
        int buffer = 8_000;
        SctpOptions o = SctpOptions.LAN.toBuilder()
                .sendBufferBytes(buffer)
                .maxMessageSize(buffer)
                .build();
        Endpoint a = new Endpoint(5000, List.of(ADDR), o, new SplittableRandom(1), 0);
        Endpoint z = new Endpoint(5001, List.of(ADDR), o, new SplittableRandom(2), 0);
        z.listen(true);
        List<String> log = new ArrayList<>();
        a.setEventHandler(new EventHandler() {
            @Override
            public void onEvent(SctpEvent e) {
                if (e instanceof SctpEvent.SendSpaceAvailable s) {
                    log.add("threshold " + s.freeBytes());
                }
            }

            @Override
            public void onSendBufferFreed(AssociationId id, long freeBytes) {
                assertEquals(a.sendBufferFree(id).getAsLong(), freeBytes, "the core's figure");
                log.add("freed " + freeBytes);
            }
        });
        AssociationId id = a.connect(List.of(ADDR), 5001, 0);
        long now = exchange(a, z, 0, 10);
        a.setSendThreshold(id, buffer);
        for (int i = 0; i < 8; i++) {
            assertEquals(SendStatus.ACCEPTED, a.send(id, SendInfo.DEFAULT, ByteBuffer.wrap(new byte[1000]), now));
        }
        exchange(a, z, now, 50);
        assertTrue(
                log.stream().anyMatch(s -> s.startsWith("freed") && !s.equals("freed " + buffer)),
                "a SACK freed space below the threshold: " + log);
        assertEquals(List.of("threshold " + buffer, "freed " + buffer), log.subList(log.size() - 2, log.size()));
        assertEquals(1, log.stream().filter(s -> s.startsWith("threshold")).count(), "only at the threshold: " + log);
    }
}
