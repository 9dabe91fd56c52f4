package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sctpj.sim.LossModel;
import org.sctpj.sim.Side;
import org.sctpj.stack.Extension;
import org.sctpj.stack.IDataFragmentNumbering;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
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
                EnumSet.copyOf(
                        SctpOptions.DEFAULTS.extensions().isEmpty()
                                ? EnumSet.of(Extension.I_DATA)
                                : union(SctpOptions.DEFAULTS.extensions(), Extension.I_DATA)),
                p.a.endpoint().info(t.senderAssociation()).orElseThrow().extensions(),
                "I-DATA on top of the default extensions");
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

    /**
     * {@link IDataFragmentNumbering}: A numbers its fragments as Linux 6.1 does (B, then FSN 0, 1,
     * ...); Z, with AUTO, answers A's fragmented message with a fragmented one numbered the same way,
     * while Z with RFC8260 keeps the RFC's numbering. Both ends deliver what they receive intact
     * either way. The conformance monitor is told which side may use the Linux numbering.
     */
    @ParameterizedTest
    @CsvSource({"AUTO, 0", "RFC8260, 1"})
    void autoAnswersALinuxNumberingPeerInItsNumbering(IDataFragmentNumbering zNumbering, int zSecondFsn) {
        SctpOptions a = withIData(SctpOptions.DEFAULTS)
                .iDataFragmentNumbering(IDataFragmentNumbering.LINUX_6_1)
                .build();
        SctpOptions z = withIData(SctpOptions.DEFAULTS)
                .iDataFragmentNumbering(zNumbering)
                .build();
        CorePair p = new CorePair(5, 1, a, z, l -> l.delay(Duration.ofMillis(5)));
        p.sim.monitor().allowLinuxFragmentNumbering(Side.A, "A is configured with LINUX_6_1");
        if (zNumbering == IDataFragmentNumbering.AUTO) {
            p.sim.monitor().allowLinuxFragmentNumbering(Side.Z, "Z follows A's numbering (AUTO)");
        }
        List<String> secondFsn = new ArrayList<>();
        p.sim.addTap((now, link, src, dst, pkt) -> secondFragmentFsn(link, pkt, secondFsn));
        byte[] big = new byte[5000];
        new SplittableRandom(5).nextBytes(big);
        List<byte[]> atZ = new ArrayList<>();
        List<byte[]> atA = new ArrayList<>();
        p.a.onEvent(e -> {
            if (e instanceof SctpEvent.AssociationChange c
                    && c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP) {
                p.a.endpoint().send(c.association(), new SendInfo(0, 1, false, false), ByteBuffer.wrap(big), p.a.now());
            } else if (e instanceof SctpEvent.MessageReceived m) {
                atA.add(m.data());
            }
        });
        p.z.onEvent(e -> {
            if (e instanceof SctpEvent.MessageReceived m) {
                atZ.add(m.data());
                p.z.endpoint()
                        .send(CorePair.upId(p.z), new SendInfo(0, 2, false, false), ByteBuffer.wrap(big), p.z.now());
            }
        });
        p.connectAt(0);
        assertTrue(p.sim.runUntil(() -> !atA.isEmpty(), 10_000_000_000L), "Z's answer arrived");
        assertArrayEquals(big, atZ.get(0));
        assertArrayEquals(big, atA.get(0));
        assertEquals(List.of("A>Z 0", "Z>A " + zSecondFsn), secondFsn, "FSN of each message's second fragment");
    }

    /** Notes the FSN of each I-DATA fragment that follows the first one directly (FSN 0 or 1). */
    static void secondFragmentFsn(String link, ByteBuffer pkt, List<String> out) {
        int at = pkt.position() + 12;
        while (at + 20 <= pkt.limit()) {
            int type = pkt.get(at) & 0xff;
            int flags = pkt.get(at + 1) & 0xff;
            int len = pkt.getShort(at + 2) & 0xffff;
            if (len < 4) {
                return;
            }
            int fsn = pkt.getInt(at + 16);
            if (type == ChunkType.I_DATA && (flags & 0x02) == 0 && fsn <= 1) {
                String dir = link.substring(link.indexOf(':') + 1);
                if (out.stream().noneMatch(x -> x.startsWith(dir + " "))) {
                    out.add(dir + " " + fsn);
                }
            }
            at += (len + 3) & ~3;
        }
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

    static EnumSet<Extension> union(java.util.Set<Extension> a, Extension e) {
        EnumSet<Extension> out = EnumSet.copyOf(a);
        out.add(e);
        return out;
    }
}
