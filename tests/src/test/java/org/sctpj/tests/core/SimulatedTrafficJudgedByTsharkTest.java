package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sctpj.sim.LossModel;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;
import org.sctpj.trace.PcapWriter;
import org.sctpj.trace.TsharkJudge;
import org.sctpj.trace.Verdict;

/**
 * Everything our core sends in a lossy two-path run (handshake, DATA, SACK with gaps, HEARTBEAT,
 * retransmissions, SHUTDOWN) is written to a pcap through the simulator's tap and judged by
 * Wireshark's decoder: no malformed packet, no bad checksum, no expert error.
 */
class SimulatedTrafficJudgedByTsharkTest {

    @Test
    void everyPacketOfALossyRunDecodesCleanly() throws Exception {
        CorePair p = new CorePair(31, 2, SctpOptions.LAN, SctpOptions.LAN, l -> l.delay(Duration.ofMillis(2))
                .loss(LossModel.bernoulli(0.05)));
        Verdict v = judge(p, "simulated-lossy-two-paths.pcap", () -> {
            Transfer t = new Transfer(31, 300, 3000, 4, false).attach(p);
            p.connectAt(0);
            assertTrue(p.sim.runUntil(t::complete, 60_000_000_000L));
        });
        // DATA, INIT, INIT ACK, SACK, HEARTBEAT, HEARTBEAT ACK, SHUTDOWN, SHUTDOWN ACK, COOKIE ECHO, COOKIE ACK,
        // SHUTDOWN COMPLETE
        assertTrue(v.chunkTypes().containsAll(Set.of(0, 1, 2, 3, 4, 5, 7, 8, 10, 11, 14)), "seen " + v.chunkTypes());
    }

    /**
     * An authenticated association (RFC 4895): INIT and INIT ACK with RANDOM, CHUNKS and
     * HMAC-ALGO, AUTH before COOKIE ECHO, DATA, SACK, HEARTBEAT and SHUTDOWN, a key change, and
     * the graceful close, all decoded by Wireshark without a malformed packet or expert error.
     */
    @Test
    void everyPacketOfAnAuthenticatedRunDecodesCleanly() throws Exception {
        SctpOptions o = SctpOptions.LAN.toBuilder()
                .enable(org.sctpj.stack.Extension.AUTH)
                .authChunks(Set.of(0, 3, 4, 7, 10))
                .build();
        CorePair p =
                new CorePair(32, 1, o, o, l -> l.delay(Duration.ofMillis(2)).loss(LossModel.bernoulli(0.05)));
        Verdict v = judge(p, "simulated-auth.pcap", () -> {
            Transfer t = new Transfer(32, 200, 1500, 4, false).attach(p);
            p.connectAt(0);
            assertTrue(p.sim.runUntil(() -> t.sent() >= 100, 60_000_000_000L));
            p.sim.at(p.sim.now(), () -> {
                p.a.endpoint().setAuthKey(p.assocA, 1, new byte[] {1, 2, 3});
                p.z.endpoint().setAuthKey(p.z.endpoint().associations().get(0), 1, new byte[] {1, 2, 3});
                p.a.endpoint().setActiveAuthKey(p.assocA, 1);
            });
            assertTrue(p.sim.runUntil(t::complete, 60_000_000_000L));
        });
        assertTrue(
                v.chunkTypes().containsAll(Set.of(0, 1, 2, 3, 4, 5, 7, 8, 10, 11, 14, 15)), "seen " + v.chunkTypes());
    }

    /**
     * Runs {@code transfer} on {@code p}, then an idle second (heartbeats) and A's graceful
     * shutdown, with every packet written to {@code target/pcaps/name}; Wireshark must decode each
     * as SCTP with no malformed packet, bad checksum or expert error.
     */
    static Verdict judge(CorePair p, String name, Runnable transfer) throws Exception {
        Path file = Files.createDirectories(Path.of("target", "pcaps")).resolve(name);
        long[] written = {0};
        try (PcapWriter pcap = PcapWriter.open(file)) {
            p.sim.addTap((t, link, src, dst, bytes) -> {
                ByteBuffer b = bytes.duplicate();
                byte[] copy = new byte[b.remaining()];
                b.get(copy);
                pcap.writeRaw(copy, src, dst, t);
                written[0]++;
            });
            transfer.run();
            p.sim.run(p.sim.now() + 1_000_000_000L); // idle: heartbeats
            p.sim.at(p.sim.now(), () -> p.a.endpoint().shutdown(p.assocA, p.sim.now()));
            p.sim.runUntil(
                    () -> CorePair.saw(p.a, AssociationChangeType.SHUTDOWN_COMPLETE), p.sim.now() + 10_000_000_000L);
            p.sim.runUntil(() -> p.z.endpoint().associations().isEmpty(), p.sim.now() + 10_000_000_000L);
        }
        Verdict v = new TsharkJudge().judge(file);
        System.out.println(v.summary() + " (" + file + ")");
        assertEquals(written[0], v.packets(), "every packet decoded as SCTP");
        assertEquals(0, v.malformed(), v.problems().toString());
        assertEquals(0, v.badChecksums(), v.problems().toString());
        assertEquals(java.util.List.of(), v.expertErrors());
        return v;
    }
}
