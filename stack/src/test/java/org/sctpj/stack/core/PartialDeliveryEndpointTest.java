package org.sctpj.stack.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.cause.OutOfResourceCause;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.CookieAckChunk;
import org.sctpj.stack.wire.chunk.CookieEchoChunk;
import org.sctpj.stack.wire.chunk.DataChunk;
import org.sctpj.stack.wire.chunk.InitAckChunk;
import org.sctpj.stack.wire.chunk.InitChunk;
import org.sctpj.stack.wire.chunk.SackChunk;

/**
 * Partial delivery at the endpoint (RFC 9260 section 6.9, RFC 6458 sections 6.1.7 and 8.1.21),
 * with the test as the sending peer: a message many times the receive buffer is taken in {@link
 * SctpEvent.MessagePart}s while the advertised window keeps reopening; a message cut short by an
 * ABORT gets the partial delivery aborted indication before COMMUNICATION_LOST; with partial
 * delivery off, a message that cannot fit ends the association with an Out of Resource ABORT
 * instead of stalling both sides.
 */
class PartialDeliveryEndpointTest {
    static final int PEER_TAG = 0x0a0b0c0d;
    static final int PEER_TSN = 7000;
    static final int BUFFER = 16 << 10;
    static final int FRAGMENT = 1000;

    /** An established association, the endpoint as server, its receive buffer {@link #BUFFER}. */
    static final class Established {
        final Peer p;
        final int localTag;
        final AssociationId id;
        int nextTsn = PEER_TSN;
        /** The last SACK's cumulative TSN ack and a_rwnd. */
        int cumAck = PEER_TSN - 1;

        long rwnd;

        Established(SctpOptions o) {
            p = new Peer(o, 11);
            p.ep.listen(true);
            p.deliver(0, new InitChunk(PEER_TAG, 1 << 20, 4, 4, PEER_TSN, List.of()));
            InitAckChunk ack = (InitAckChunk) p.sent().get(0).chunks().get(0);
            localTag = ack.initiateTag();
            rwnd = Integer.toUnsignedLong(ack.aRwnd());
            Bytes cookie = EndpointSecurityTest.cookieOf(ack);
            p.deliver(localTag, new CookieEchoChunk(cookie));
            assertInstanceOf(CookieAckChunk.class, p.sent().get(0).chunks().get(0));
            id = p.ep.associations().get(0);
        }

        /** Sends fragment {@code k} of {@code count} of a message on {@code stream}, SSN 0. */
        void fragment(byte[] message, int k, int count, int stream, boolean unordered) {
            int from = k * FRAGMENT;
            int to = Math.min(message.length, from + FRAGMENT);
            byte[] part = java.util.Arrays.copyOfRange(message, from, to);
            p.deliver(
                    localTag,
                    // the I bit: each packet is acknowledged at once (RFC 7053)
                    new DataChunk(true, unordered, k == 0, k == count - 1, nextTsn++, stream, 0, 42, Bytes.of(part)));
            for (SctpPacket s : p.sent()) {
                for (Chunk c : s.chunks()) {
                    if (c instanceof SackChunk sack) {
                        cumAck = sack.cumTsnAck();
                        rwnd = sack.aRwnd();
                    }
                }
                sentChunks.addAll(s.chunks());
            }
        }

        final List<Chunk> sentChunks = new ArrayList<>();

        /** The parts delivered so far, put together; asserts they are parts and only the last is last. */
        byte[] parts(boolean expectLast) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            List<SctpEvent.MessagePart> parts = p.events.stream()
                    .filter(e -> e instanceof SctpEvent.MessagePart)
                    .map(e -> (SctpEvent.MessagePart) e)
                    .toList();
            for (int i = 0; i < parts.size(); i++) {
                SctpEvent.MessagePart m = parts.get(i);
                assertEquals(expectLast && i == parts.size() - 1, m.last(), "only the final part is last");
                assertEquals(42, m.ppid());
                assertEquals(id, m.association());
                out.writeBytes(m.data());
            }
            return out.toByteArray();
        }
    }

    static SctpOptions options(int partialDeliveryPoint) {
        return SctpOptions.DEFAULTS.toBuilder()
                .receiveBufferBytes(BUFFER)
                .partialDeliveryPoint(partialDeliveryPoint)
                .build();
    }

    static byte[] message(int size) {
        byte[] m = new byte[size];
        new SplittableRandom(size).nextBytes(m);
        return m;
    }

    @Test
    void aMessageTwentyTimesTheBufferComesInPartsAndTheWindowKeepsReopening() {
        Established e = new Established(options(BUFFER / 4));
        byte[] m = message(20 * BUFFER + 123);
        int count = (m.length + FRAGMENT - 1) / FRAGMENT;
        for (int k = 0; k < count; k++) {
            assertTrue(e.rwnd >= FRAGMENT, "the window is open for fragment " + k + " (a_rwnd " + e.rwnd + ")");
            e.fragment(m, k, count, 2, false);
            assertEquals(PEER_TSN + k, e.cumAck, "fragment " + k + " was taken, not dropped");
        }
        assertArrayEquals(m, e.parts(true), "the parts make the message, in order");
        assertFalse(e.p.events.stream().anyMatch(x -> x instanceof SctpEvent.MessageReceived));
        assertTrue(
                e.p.events.stream()
                                .filter(x -> x instanceof SctpEvent.MessagePart)
                                .count()
                        > 20,
                "handed over as it arrived, not at the end");
        assertEquals(BUFFER, e.rwnd, "all of it released: the window is whole again");
    }

    @Test
    void theAbortedIndicationComesWhenThePeerAbortsMidMessage() {
        Established e = new Established(options(BUFFER / 4));
        byte[] m = message(10 * BUFFER);
        int count = m.length / FRAGMENT;
        for (int k = 0; k < count / 2; k++) {
            e.fragment(m, k, count, 3, false);
        }
        byte[] delivered = e.parts(false);
        assertTrue(delivered.length >= BUFFER / 4, "parts were delivered: " + delivered.length);
        e.p.deliver(e.localTag, AbortChunk.of(false));
        List<SctpEvent> tail = e.p.events.subList(e.p.events.size() - 2, e.p.events.size());
        SctpEvent.PartialDeliveryAborted pd = assertInstanceOf(SctpEvent.PartialDeliveryAborted.class, tail.get(0));
        assertEquals(new SctpEvent.PartialDeliveryAborted(e.id, 3, 0, false, delivered.length), pd);
        SctpEvent.AssociationChange c = assertInstanceOf(SctpEvent.AssociationChange.class, tail.get(1));
        assertEquals(SctpEvent.AssociationChangeType.COMMUNICATION_LOST, c.type());
    }

    @Test
    void theAbortedIndicationComesWhenTheApplicationAbortsMidMessage() {
        Established e = new Established(options(BUFFER / 4));
        byte[] m = message(3 * BUFFER);
        int count = m.length / FRAGMENT;
        for (int k = 0; k < count - 1; k++) {
            e.fragment(m, k, count, 1, true);
        }
        e.p.ep.abort(e.id, new byte[0], e.p.now);
        e.p.drainEvents();
        long pds = e.p.events.stream()
                .filter(x -> x instanceof SctpEvent.PartialDeliveryAborted a && a.unordered() && a.streamId() == 1)
                .count();
        assertEquals(1, pds, "one aborted indication for the unordered message: " + e.p.events);
    }

    @Test
    void theAbortedIndicationComesBeforeTheRestartWhenThePeerRestartsMidMessage() {
        Established e = new Established(options(BUFFER / 4));
        byte[] m = message(4 * BUFFER);
        int count = m.length / FRAGMENT;
        for (int k = 0; k < count / 2; k++) {
            e.fragment(m, k, count, 1, false);
        }
        long delivered = e.parts(false).length;
        assertTrue(delivered > 0);
        // The peer restarts (RFC 9260 section 5.2.4 case A): a new INIT, then its COOKIE ECHO.
        e.p.deliver(0, new InitChunk(0x01020304, 1 << 20, 4, 4, 90_000, List.of()));
        InitAckChunk ack = (InitAckChunk) e.p.sent().get(0).chunks().get(0);
        Bytes cookie = EndpointSecurityTest.cookieOf(ack);
        e.p.deliver(ack.initiateTag(), new CookieEchoChunk(cookie));
        List<SctpEvent> tail = e.p.events.subList(e.p.events.size() - 2, e.p.events.size());
        assertEquals(new SctpEvent.PartialDeliveryAborted(e.id, 1, 0, false, delivered), tail.get(0), "" + tail);
        SctpEvent.AssociationChange c = assertInstanceOf(SctpEvent.AssociationChange.class, tail.get(1));
        assertEquals(SctpEvent.AssociationChangeType.RESTART, c.type());
    }

    @Test
    void withPartialDeliveryOffAMessageLargerThanTheBufferEndsTheAssociationVisibly() {
        Established e = new Established(options(0));
        byte[] m = message(4 * BUFFER);
        int count = m.length / FRAGMENT;
        int k = 0;
        while (e.p.ep.associations().contains(e.id)) {
            assertTrue(k < count, "the association still waits after the whole message was offered");
            e.fragment(m, k++, count, 0, false);
        }
        assertTrue(k <= BUFFER / FRAGMENT + 2, "ended as soon as the buffer was full, at fragment " + k);
        AbortChunk abort = e.sentChunks.stream()
                .filter(c -> c instanceof AbortChunk)
                .map(c -> (AbortChunk) c)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no ABORT sent: " + e.sentChunks));
        assertEquals(List.of(OutOfResourceCause.INSTANCE), abort.causes());
        SctpEvent.AssociationChange c = e.p.events.stream()
                .filter(x -> x instanceof SctpEvent.AssociationChange a
                        && a.type() == SctpEvent.AssociationChangeType.COMMUNICATION_LOST)
                .map(x -> (SctpEvent.AssociationChange) x)
                .findFirst()
                .orElseThrow();
        assertTrue(c.reason().contains("partial delivery is off"), c.reason());
    }

    @Test
    void aPartialDeliveryPointBeyondTheReceiveBufferIsRefusedWithTheReason() {
        var ex = assertThrows(IllegalArgumentException.class, () -> SctpOptions.DEFAULTS.toBuilder()
                .receiveBufferBytes(BUFFER)
                .partialDeliveryPoint(BUFFER + 1)
                .build());
        assertTrue(ex.getMessage().contains("partialDeliveryPoint"), ex.getMessage());
        assertEquals(
                BUFFER / 2,
                SctpOptions.DEFAULTS.toBuilder()
                        .receiveBufferBytes(BUFFER)
                        .build()
                        .partialDeliveryPoint());
    }
}
