package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.EnumSet;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sctpj.sim.LossModel;
import org.sctpj.stack.Extension;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.wire.chunk.ChunkType;

/**
 * I-DATA end to end on the simulator (RFC 8260): two endpoints that both offer I-DATA send each
 * other messages from 1 byte to several times the receive buffer, ordered and unordered, over
 * four streams, with loss, reordering and duplication; every chunk of user data on the wire is I-DATA (none is DATA), and
 * every message arrives once, intact, in order per stream (large ones in parts). The conformance
 * monitor judges every packet.
 */
class IDataSimulatedTest {

    static final int RECEIVE_BUFFER = 256 << 10;

    static SctpOptions.Builder withIData(SctpOptions o) {
        return o.toBuilder().enable(Extension.I_DATA);
    }

    @ParameterizedTest
    @CsvSource({"1, 0.0", "2, 0.02", "3, 0.05", "4, 0.10"})
    void messagesArriveOnceInOrderPerStreamOverIData(long seed, double loss) {
        SctpOptions sender = withIData(SctpOptions.DEFAULTS)
                .sendBufferBytes(8 << 20)
                .maxMessageSize(2_000_000)
                .build();
        SctpOptions receiver = withIData(SctpOptions.DEFAULTS)
                .receiveBufferBytes(RECEIVE_BUFFER)
                .build();
        CorePair p = new CorePair(seed, 1, sender, receiver, l -> l.delay(Duration.ofMillis(5))
                .loss(LossModel.bernoulli(loss))
                .reorder(loss, 3_000_000L)
                .duplicate(loss / 2));
        long[] chunks = new long[256];
        p.sim.addTap((now, link, src, dst, pkt) -> countChunks(pkt, chunks));
        Transfer t = new Transfer(seed, 0, 0, 1, false);
        int[] large = {1, 2_000_000, 300_000, 1_000_000, RECEIVE_BUFFER + 1, 2, 700_000};
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < large.length + 60; i++) {
            int size = i < large.length ? large[i] : 1 + r.nextInt(r.nextBoolean() ? 100 : 30_000);
            t.plan.add(new Transfer.Msg(i, r.nextInt(4), r.nextInt(3) == 0, size));
        }
        t.attach(p);
        p.connectAt(0);
        assertTrue(
                p.sim.runUntil(t::complete, 600_000_000_000L),
                "delivered " + t.deliveredCount + " of " + t.plan.size() + " (sent " + t.sent() + ")");
        assertEquals(
                EnumSet.of(Extension.I_DATA),
                p.a.endpoint().info(t.senderAssociation()).orElseThrow().extensions());
        assertEquals(0, t.lost());
        assertEquals(0, t.duplicated, "duplicated");
        assertEquals(0, t.misordered, "misordered");
        assertEquals(0, t.corrupted, "corrupted");
        assertTrue(t.partedMessages >= 3, "the large messages came in parts: " + t.partedMessages);
        assertTrue(chunks[ChunkType.I_DATA] > 2000, "I-DATA chunks on the wire: " + chunks[ChunkType.I_DATA]);
        assertEquals(0, chunks[ChunkType.DATA], "DATA chunks on an I-DATA association");
        assertEquals(0, CorePair.count(p.a, SctpEvent.AssociationChangeType.COMMUNICATION_LOST));
        assertEquals(1, p.z.endpoint().associations().size(), "the association is still up");
    }

    /** Counts the chunks of a packet by type (the common header is 12 bytes, chunks 4-byte aligned). */
    static void countChunks(ByteBuffer pkt, long[] byType) {
        int at = pkt.position() + 12;
        int end = pkt.limit();
        while (at + 4 <= end) {
            int type = pkt.get(at) & 0xff;
            int len = pkt.getShort(at + 2) & 0xffff;
            if (len < 4) {
                return;
            }
            byType[type]++;
            at += (len + 3) & ~3;
        }
    }
}
