package org.sctpj.stack.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.StreamSchedulerKind;
import org.sctpj.stack.wire.chunk.DataChunk;

/**
 * The stream schedulers through the whole sender ({@link DataSender}, {@link PacketFiller}): the
 * packets built, decoded. Round robin per packet (RFC 8260 section 3.3) needs the filler's
 * "packet started" signal; a priority switch must not split a DATA message's consecutive TSNs (RFC
 * 9260 section 6.9).
 */
class StreamSchedulerPacketTest {

    private static SenderFixture sender(StreamSchedulerKind kind) {
        return new SenderFixture(
                SenderFixture.options(true).toBuilder().streamScheduler(kind).build(), 1 << 20);
    }

    /** The stream ids of each packet's DATA chunks, packet by packet, until nothing more goes. */
    private static List<List<Integer>> packets(SenderFixture f) {
        List<List<Integer>> out = new ArrayList<>();
        for (List<DataChunk> c; !(c = f.packet(0)).isEmpty(); ) {
            out.add(c.stream().map(DataChunk::streamId).toList());
        }
        return out;
    }

    @Test
    void roundRobinPerPacketPutsOneStreamInEachPacket() {
        SenderFixture f = sender(StreamSchedulerKind.ROUND_ROBIN_PER_PACKET);
        for (int i = 0; i < 48; i++) {
            f.send(1 + i % 2, 100);
        }
        List<List<Integer>> packets = packets(f);
        // 12 messages of 100 bytes fill a packet: stream 1, stream 2, stream 1, stream 2. Round
        // robin would alternate the streams inside every packet.
        assertEquals(4, packets.size(), packets.toString());
        for (int i = 0; i < 4; i++) {
            assertEquals(List.of(1 + i % 2), packets.get(i).stream().distinct().toList(), packets.toString());
        }
    }

    @Test
    void aSwitchToPriorityKeepsTheFragmentsOfAMessageOnConsecutiveTsns() {
        SenderFixture f = sender(StreamSchedulerKind.ROUND_ROBIN);
        f.send(1, 3 * SenderFixture.FULL); // three full fragments (the initial cwnd takes four packets)
        List<DataChunk> first = f.packet(0);
        assertEquals(1, first.get(0).streamId());
        f.tx.setStreamScheduler(StreamSchedulerKind.PRIORITY);
        f.tx.setStreamValue(1, 100);
        f.send(0, 100); // urgent, priority 0, while stream 1's message is partly sent
        List<DataChunk> all = new ArrayList<>(first);
        all.addAll(f.drain(0));
        List<Integer> streams = all.stream().map(DataChunk::streamId).toList();
        assertEquals(List.of(1, 1, 1, 0), streams, "DATA: the message ends before stream 0 goes");
        for (int i = 1; i < all.size(); i++) {
            assertEquals(all.get(i - 1).tsn() + 1, all.get(i).tsn());
        }
        assertTrue(all.get(2).ending(), "the 3rd fragment ends the message");
        assertEquals(StreamSchedulerKind.PRIORITY, f.tx.streamScheduler());
    }
}
