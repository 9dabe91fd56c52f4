package org.sctpj.stack.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.StreamSchedulerKind;
import org.sctpj.stack.tx.DataSender.SendStatus;

/**
 * {@link SendQueue}: send-buffer accounting over queued and outstanding bytes, the default stream
 * turn order (round robin, one whole message per turn; the other schedulers are in {@link
 * StreamSchedulingTest}) and draining.
 */
class SendQueueTest {

    private static SendQueue queue(int bufferBytes, RetransmissionQueue q) {
        SctpOptions o =
                SctpOptions.DEFAULTS.toBuilder().sendBufferBytes(bufferBytes).build();
        return new SendQueue(o, new SendPool(bufferBytes), q, 8);
    }

    @Test
    void theBufferCountsQueuedAndOutstandingBytes() {
        TxHarness h = new TxHarness(TxHarness.single(), 1);
        SendQueue s = queue(5000, h.q);
        assertEquals(SendStatus.ACCEPTED, s.send(0, 0, false, false, ByteBuffer.wrap(new byte[2000])));
        assertEquals(3000, s.freeBytes());
        h.send(0, 0); // 1000 outstanding
        assertEquals(2000, s.freeBytes());
        assertEquals(3000, s.bufferedBytes());
        ByteBuffer big = ByteBuffer.wrap(new byte[2001]);
        assertEquals(SendStatus.WOULD_BLOCK, s.send(0, 0, false, false, big));
        assertEquals(0, big.position(), "nothing taken");
    }

    @Test
    void streamsTakeTurnsOneWholeMessageEach() {
        TxHarness h = new TxHarness(TxHarness.single(), 1);
        SendQueue s = queue(1 << 20, h.q);
        for (int sid : new int[] {3, 3, 1, 5}) {
            s.send(sid, 0, false, sid == 5, ByteBuffer.wrap(new byte[100]));
        }
        assertTrue(s.hasImmediate());
        List<Integer> order = new ArrayList<>();
        while (s.queuedMessages() > 0) {
            OutboundStream st = s.next();
            order.add(st.id);
            OutboundMessage m = st.queue.peekFirst();
            s.sent(st, 60, false);
            assertSame(st, s.next(), "a message's fragments keep the turn");
            s.sent(st, m.length - 60, true);
        }
        assertEquals(List.of(3, 1, 5, 3), order);
        assertFalse(s.hasImmediate());
        assertEquals(0, s.queuedBytes());
    }

    @Test
    void withInterleavingTheTurnPassesAfterEveryChunk() {
        TxHarness h = new TxHarness(TxHarness.single(), 1);
        SendQueue s = queue(1 << 20, h.q);
        s.setInterleaving(true);
        s.send(0, 0, false, false, ByteBuffer.wrap(new byte[300]));
        s.send(1, 0, false, false, ByteBuffer.wrap(new byte[100]));
        List<Integer> order = new ArrayList<>();
        while (s.queuedMessages() > 0) {
            OutboundStream st = s.next();
            order.add(st.id);
            OutboundMessage m = st.queue.peekFirst();
            int len = Math.min(100, m.unsentBytes());
            m.sentOffset += len;
            s.sent(st, len, m.unsentBytes() == 0);
        }
        assertEquals(List.of(0, 1, 0, 0), order, "stream 1's message goes between stream 0's chunks");
    }

    @Test
    void theChunkEstimateCountsTheChunkHeaderInUse() {
        TxHarness h = new TxHarness(TxHarness.single(), 1);
        SendQueue s = queue(1 << 20, h.q);
        s.send(0, 0, false, false, ByteBuffer.wrap(new byte[100]));
        s.send(1, 0, false, false, ByteBuffer.wrap(new byte[100]));
        assertEquals(232, s.chunkBytesEstimate(), "two DATA headers of 16 bytes");
        s.setChunkHeader(20);
        assertEquals(240, s.chunkBytesEstimate(), "two I-DATA headers of 20 bytes");
    }

    @Test
    void drainReturnsQueuedMessagesInTheOrderQueued() {
        TxHarness h = new TxHarness(TxHarness.single(), 1);
        SendQueue s = queue(1 << 20, h.q);
        s.send(2, 7, false, false, ByteBuffer.wrap(new byte[10]));
        s.send(1, 8, true, false, ByteBuffer.wrap(new byte[20]));
        List<UnsentMessage> out = new ArrayList<>();
        s.drainInto(out, java.util.Set.of());
        assertEquals(2, out.size());
        assertEquals(2, out.get(0).streamId());
        assertEquals(20, out.get(1).data().length);
        assertEquals(0, s.queuedMessages());
        assertEquals(0, s.queuedBytes());
    }

    /**
     * An abandoned message behind its stream's head (the priority policy takes any queued message)
     * leaves first come, first served with its place gone: the others keep the order they were
     * queued in, and a stream whose messages are all gone never gets the turn again (it used to
     * keep a stale entry: a3 went before b2, and a later message of stream 2 found the turn on the
     * empty stream 0, whose head the packet filler then read as null).
     */
    @Test
    void firstComeFirstServedForgetsAMessageAbandonedBehindItsStreamsHead() {
        TxHarness h = new TxHarness(TxHarness.single(), 1);
        SendQueue s = queue(1 << 20, h.q);
        s.setScheduler(StreamSchedulerKind.FIRST_COME_FIRST_SERVED);
        OutboundMessage a2 = null;
        for (int sid : new int[] {0, 1, 0, 1, 0}) {
            s.send(sid, 0, false, false, ByteBuffer.wrap(new byte[100]));
            if (sid == 0 && a2 == null && s.queuedMessages() == 3) {
                a2 = s.messages().get(2);
            }
        }
        s.remove(a2);
        List<Integer> order = new ArrayList<>();
        while (s.queuedMessages() > 0) {
            OutboundStream st = s.next();
            order.add(st.id);
            s.sent(st, st.queue.peekFirst().length, true);
        }
        assertEquals(List.of(0, 1, 1, 0), order, "a1 b1 b2 a3: the order they were queued in");
        s.send(2, 0, false, false, ByteBuffer.wrap(new byte[100]));
        assertEquals(2, s.next().id, "the turn is the only queued message's stream");
    }
}
