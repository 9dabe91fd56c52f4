package org.sctpj.stack.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.StreamSchedulerKind;

/**
 * The turn order of the {@link SendQueue} under each stream scheduler of RFC 8260 section 3, with
 * and without interleaving, and a switch at run time. Each order test is chosen so that plain round
 * robin (the default) would give a different order. Messages are sent as {@link PacketFiller} does:
 * ask {@link SendQueue#next()}, cut a chunk from its head message, report it with {@link
 * SendQueue#sent}.
 */
class StreamSchedulingTest {

    /** A queue of 8 streams under {@code kind}, with a 16 MiB buffer (nothing outstanding). */
    private static SendQueue queue(StreamSchedulerKind kind) {
        SctpOptions o = SctpOptions.DEFAULTS.toBuilder()
                .sendBufferBytes(16 << 20)
                .streamScheduler(kind)
                .build();
        TxHarness h = new TxHarness(TxHarness.single(), 1);
        return new SendQueue(o, new SendPool(o.sendBufferBytes()), h.q, 8);
    }

    private static void send(SendQueue q, int stream, int bytes) {
        assertEquals(
                DataSender.SendStatus.ACCEPTED, q.send(stream, stream, false, false, ByteBuffer.wrap(new byte[bytes])));
    }

    /** Queues {@code n} messages of {@code bytes} on stream 1 and on stream 2, alternating. */
    private static void sendAlternating(SendQueue q, int n, int bytes) {
        for (int i = 0; i < n; i++) {
            send(q, 1, bytes);
            send(q, 2, bytes);
        }
    }

    /** Cuts one chunk of at most {@code max} bytes from the head message of the stream whose turn it is. */
    private static Chunk chunk(SendQueue q, int max) {
        OutboundStream s = q.next();
        OutboundMessage m = s.queue.peekFirst();
        int len = Math.min(max, m.unsentBytes());
        boolean last = len == m.unsentBytes();
        m.sentOffset += len;
        q.sent(s, len, last);
        return new Chunk(s.id, len, last);
    }

    private record Chunk(int stream, int len, boolean last) {}

    /** The stream of each message, in the order their last chunks were sent. */
    private static List<Integer> messageOrder(SendQueue q, int chunkSize) {
        List<Integer> order = new ArrayList<>();
        while (q.queuedMessages() > 0) {
            Chunk c = chunk(q, chunkSize);
            if (c.last) {
                order.add(c.stream);
            }
        }
        return order;
    }

    /** The stream of each chunk, in sending order. */
    private static List<Integer> chunkOrder(SendQueue q, int chunkSize) {
        List<Integer> order = new ArrayList<>();
        while (q.queuedMessages() > 0) {
            order.add(chunk(q, chunkSize).stream);
        }
        return order;
    }

    // ------------------------------------------------------------------ each scheduler's order

    @Test
    void firstComeFirstServedKeepsTheUsersOrderAcrossStreams() {
        SendQueue q = queue(StreamSchedulerKind.FIRST_COME_FIRST_SERVED);
        for (int sid : new int[] {3, 1, 3, 2, 1}) {
            send(q, sid, 100);
        }
        // Round robin would give 3, 1, 2, 3, 1.
        assertEquals(List.of(3, 1, 3, 2, 1), messageOrder(q, 1452));
    }

    @Test
    void roundRobinGivesOneMessagePerStreamPerTurn() {
        SendQueue q = queue(StreamSchedulerKind.ROUND_ROBIN);
        for (int sid : new int[] {3, 3, 3, 1, 2, 1}) {
            send(q, sid, 100);
        }
        assertEquals(List.of(3, 1, 2, 3, 1, 3), messageOrder(q, 1452));
    }

    @Test
    void roundRobinPerPacketFillsEachPacketFromOneStream() {
        SendQueue q = queue(StreamSchedulerKind.ROUND_ROBIN_PER_PACKET);
        sendAlternating(q, 5, 100);
        // Packets of room for three 100-byte messages.
        List<List<Integer>> packets = new ArrayList<>();
        while (q.queuedMessages() > 0) {
            q.packetStarted();
            List<Integer> p = new ArrayList<>();
            for (int i = 0; i < 3 && q.queuedMessages() > 0; i++) {
                p.add(chunk(q, 1452).stream);
            }
            packets.add(p);
        }
        // Round robin would give [1, 2, 1], [2, 1, 2], ...; stream 1 runs dry in the third packet
        // and stream 2 fills the rest.
        assertEquals(List.of(List.of(1, 1, 1), List.of(2, 2, 2), List.of(1, 1, 2), List.of(2)), packets);
    }

    @Test
    void roundRobinPerPacketKeepsTheTurnWhenAPacketTookNothing() {
        SendQueue q = queue(StreamSchedulerKind.ROUND_ROBIN_PER_PACKET);
        send(q, 1, 100);
        send(q, 2, 100);
        q.packetStarted(); // a packet that took no new data (say the window was closed)
        q.packetStarted();
        assertEquals(1, q.next().id, "a packet without new data does not end stream 1's turn");
    }

    @Test
    void priorityServesTheLowestValueFirstAndEqualValuesInTurn() {
        SendQueue q = queue(StreamSchedulerKind.PRIORITY);
        q.setStreamValue(1, 10); // bulk
        q.setStreamValue(2, 0); // urgent
        q.setStreamValue(3, 10); // bulk too
        for (int i = 0; i < 3; i++) {
            send(q, 1, 100);
        }
        for (int i = 0; i < 3; i++) {
            send(q, 3, 100);
        }
        send(q, 2, 100);
        send(q, 2, 100);
        // Round robin would give 1, 3, 2, 1, 3, 2, 1, 3.
        assertEquals(List.of(2, 2, 1, 3, 1, 3, 1, 3), messageOrder(q, 1452));
    }

    @Test
    void priorityChangedWhileQueuedTakesEffectAtTheNextTurn() {
        SendQueue q = queue(StreamSchedulerKind.PRIORITY);
        q.setStreamValue(2, 5);
        for (int i = 0; i < 3; i++) {
            send(q, 1, 100);
        }
        send(q, 2, 100);
        send(q, 2, 100);
        assertEquals(1, chunk(q, 1452).stream);
        q.setStreamValue(1, 9);
        // Round robin would give 2, 1, 2, 1; without the change stream 1 would finish first.
        assertEquals(List.of(2, 2, 1, 1), messageOrder(q, 1452));
        assertEquals(9, q.streamValue(1));
    }

    @Test
    void fairCapacityLetsTheStreamThatSentFewestBytesGoNext() {
        SendQueue q = queue(StreamSchedulerKind.FAIR_CAPACITY);
        for (int i = 0; i < 3; i++) {
            send(q, 1, 1000);
        }
        for (int i = 0; i < 30; i++) {
            send(q, 2, 100);
        }
        List<Integer> order = messageOrder(q, 1452);
        // Round robin would alternate: one 100-byte message of stream 2 per 1000 bytes of stream 1.
        // Here, before stream 1's second message, stream 2 has caught up with its 1000 bytes.
        List<Integer> beforeSecond = order.subList(0, indexOfNth(order, 1, 2));
        assertEquals(10, beforeSecond.stream().filter(s -> s == 2).count(), order.toString());
        assertBytesLevel(order, Map.of(1, 1000, 2, 100), 1000);
    }

    private static int indexOfNth(List<Integer> order, int stream, int n) {
        int seen = 0;
        for (int i = 0; i < order.size(); i++) {
            if (order.get(i) == stream && ++seen == n) {
                return i;
            }
        }
        return -1;
    }

    /**
     * While both streams still have messages, the bytes each has sent never differ by more than
     * {@code slack}.
     */
    private static void assertBytesLevel(List<Integer> order, Map<Integer, Integer> size, int slack) {
        Map<Integer, Integer> bytes = new HashMap<>();
        Map<Integer, Integer> left = new HashMap<>();
        order.forEach(s -> left.merge(s, 1, Integer::sum));
        for (int s : order) {
            bytes.merge(s, size.get(s), Integer::sum);
            left.merge(s, -1, Integer::sum);
            if (left.values().stream().allMatch(n -> n > 0)) {
                int a = bytes.getOrDefault(1, 0);
                int b = bytes.getOrDefault(2, 0);
                assertTrue(Math.abs(a - b) <= slack, "sent " + bytes + " in " + order);
            }
        }
    }

    @Test
    void weightedFairQueueingGivesEachStreamItsWeightsShare() {
        SendQueue q = queue(StreamSchedulerKind.WEIGHTED_FAIR_QUEUEING);
        q.setStreamValue(1, 3);
        assertEquals(1, q.streamValue(2), "the default weight");
        sendAlternating(q, 12, 100);
        List<Integer> first8 = messageOrder(q, 1452).subList(0, 8);
        // Round robin would give four of each.
        assertEquals(6, first8.stream().filter(s -> s == 1).count(), first8.toString());
        assertEquals(2, first8.stream().filter(s -> s == 2).count(), first8.toString());
    }

    @Test
    void weightedFairQueueingLetsAShortMessageOvertakeALongOne() {
        SendQueue q = queue(StreamSchedulerKind.WEIGHTED_FAIR_QUEUEING);
        send(q, 1, 20_000);
        send(q, 2, 100);
        // Equal weights: the 100-byte message finishes first in virtual time. Round robin would
        // send stream 1's message first (it was queued first).
        assertEquals(List.of(2, 1), messageOrder(q, 1452));
    }

    // ------------------------------------------------------------------ interleaving

    @Test
    void withoutInterleavingAStreamKeepsItsTurnUntilItsMessageIsSent() {
        SendQueue q = queue(StreamSchedulerKind.ROUND_ROBIN);
        send(q, 1, 3000);
        send(q, 2, 100);
        assertEquals(List.of(1, 1, 1, 2), chunkOrder(q, 1000));
    }

    @Test
    void withInterleavingRoundRobinSwitchesStreamsBetweenChunks() {
        SendQueue q = queue(StreamSchedulerKind.ROUND_ROBIN);
        q.setInterleaving(true);
        send(q, 1, 3000);
        send(q, 2, 2000);
        send(q, 3, 100);
        assertEquals(List.of(1, 2, 3, 1, 2, 1), chunkOrder(q, 1000));
    }

    @Test
    void withInterleavingAnUrgentMessageGoesBetweenTheFragmentsOfABulkOne() {
        for (boolean interleaving : new boolean[] {false, true}) {
            SendQueue q = queue(StreamSchedulerKind.PRIORITY);
            q.setInterleaving(interleaving);
            q.setStreamValue(1, 10);
            send(q, 1, 5000);
            assertEquals(1, chunk(q, 1000).stream);
            send(q, 0, 100); // urgent, priority 0, while stream 1's message is partly sent
            List<Integer> rest = chunkOrder(q, 1000);
            assertEquals(
                    interleaving ? List.of(0, 1, 1, 1, 1) : List.of(1, 1, 1, 1, 0),
                    rest,
                    "interleaving " + interleaving);
        }
    }

    @Test
    void interleavingCannotBeTurnedOffWithTwoPartlySentMessages() {
        SendQueue q = queue(StreamSchedulerKind.ROUND_ROBIN);
        q.setInterleaving(true);
        send(q, 1, 3000);
        send(q, 2, 3000);
        chunk(q, 1000);
        chunk(q, 1000);
        assertThrows(IllegalStateException.class, () -> q.setInterleaving(false));
    }

    // ------------------------------------------------------------------ switching at run time

    @Test
    void switchingSchedulerKeepsEveryMessageInItsStreamsOrder() {
        SendQueue q = queue(StreamSchedulerKind.ROUND_ROBIN);
        // Message i on stream i % 3, 300 bytes + i so that each is recognisable by its length.
        for (int i = 0; i < 12; i++) {
            send(q, i % 3, 300 + i);
        }
        chunk(q, 1452); // stream 0's first message
        chunk(q, 100); // stream 1's first message, partly: DATA holds stream 1's turn
        q.setScheduler(StreamSchedulerKind.FIRST_COME_FIRST_SERVED);
        assertEquals(StreamSchedulerKind.FIRST_COME_FIRST_SERVED, q.schedulerKind());
        List<Integer> lengths = new ArrayList<>();
        List<Integer> streams = new ArrayList<>();
        while (q.queuedMessages() > 0) {
            OutboundStream s = q.next();
            int len = s.queue.peekFirst().length;
            if (chunk(q, 1452).last) {
                lengths.add(len);
                streams.add(s.id);
            }
        }
        // Stream 1's partly sent message first, then the user's order.
        assertEquals(List.of(301, 302, 303, 304, 305, 306, 307, 308, 309, 310, 311), lengths);
        assertEquals(List.of(1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2), streams);
        assertEquals(0, q.queuedBytes());
    }

    @Test
    void switchingToPriorityKeepsTheQueueAndThenFollowsTheValues() {
        SendQueue q = queue(StreamSchedulerKind.FIRST_COME_FIRST_SERVED);
        sendAlternating(q, 3, 100);
        q.setScheduler(StreamSchedulerKind.PRIORITY);
        q.setStreamValue(1, 7);
        assertEquals(List.of(2, 2, 2, 1, 1, 1), messageOrder(q, 1452));
    }

    @Test
    void valuesAreCheckedAndBelongToSchedulersThatHaveThem() {
        SendQueue q = queue(StreamSchedulerKind.ROUND_ROBIN);
        IllegalStateException none = assertThrows(IllegalStateException.class, () -> q.setStreamValue(1, 3));
        assertTrue(none.getMessage().contains("PRIORITY"), none.getMessage());
        q.setScheduler(StreamSchedulerKind.WEIGHTED_FAIR_QUEUEING);
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> q.setStreamValue(1, 0));
        assertTrue(zero.getMessage().contains("1..65535"), zero.getMessage());
        assertThrows(IllegalArgumentException.class, () -> q.setStreamValue(8, 2), "stream 8 is not open");
        q.setStreamValue(1, 4);
        q.setScheduler(StreamSchedulerKind.PRIORITY);
        assertEquals(0, q.streamValue(1), "a switch resets the values");
        assertThrows(IllegalArgumentException.class, () -> q.setStreamValue(1, 65536));
    }
}
