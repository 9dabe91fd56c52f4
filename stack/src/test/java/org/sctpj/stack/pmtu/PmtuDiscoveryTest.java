package org.sctpj.stack.pmtu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.PmtuStats;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.PathMtuReason;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.Transmit;
import org.sctpj.stack.assoc.AssocFixture;
import org.sctpj.stack.icmp.IcmpReport;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.wire.ChecksumPolicy;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.ChunkType;
import org.sctpj.stack.wire.chunk.DataChunk;
import org.sctpj.stack.wire.chunk.HeartbeatAckChunk;
import org.sctpj.stack.wire.chunk.HeartbeatChunk;
import org.sctpj.stack.wire.chunk.PadChunk;

/**
 * The path MTU search of RFC 8899 on one association driven by hand: the probe packet (HEARTBEAT
 * and PAD, exactly the probed size), confirmation by HEARTBEAT ACK, lost probes and the search's
 * choice of sizes, black hole detection, Packet Too Big, and the oversize retransmission after the MTU fell;
 * each change of the MTU reported once, with its reason ({@link SctpEvent.PathMtuChange}).
 */
class PmtuDiscoveryTest {

    static final SctpOptions ON = SctpOptions.DEFAULTS.toBuilder()
            .pmtuDiscovery(true)
            .pmtuMax(1500)
            .noDelay(true)
            .build();

    static SctpPacket decode(Transmit t) {
        return SctpPacket.decode(ByteBuffer.wrap(t.packet()), ChecksumPolicy.VERIFY)
                .value();
    }

    /** The probe among the packets sent now, or null. */
    static Transmit probe(List<Transmit> ts) {
        for (Transmit t : ts) {
            List<Chunk> cs = decode(t).chunks();
            if (cs.size() == 2 && cs.get(0) instanceof HeartbeatChunk && cs.get(1) instanceof PadChunk) {
                return t;
            }
        }
        return null;
    }

    static void ack(AssocFixture f, Transmit probe) {
        HeartbeatChunk hb = (HeartbeatChunk) decode(probe).chunks().get(0);
        f.deliver(f.tcb().localTag, new HeartbeatAckChunk(hb.parameters()));
    }

    /** Established with discovery on; the PMTU timer (due at once) has run. */
    static AssocFixture up() {
        AssocFixture f = AssocFixture.established(ON);
        f.advance(0);
        return f;
    }

    static PmtuStats stats(AssocFixture f) {
        return f.tcb().pmtu.stats().get(0);
    }

    @Test
    void startsAtTheBaseAndProbesTheMaximumWithHeartbeatAndPad() {
        AssocFixture f = up();
        Path p = f.tcb().paths.get(0);
        assertEquals(1200, p.mtu(), "BASE_PLPMTU");
        Transmit t = probe(f.transmits());
        assertNotNull(t, "a probe goes at once");
        assertEquals(1500 - 20, t.packet().length, "the IP packet is exactly the probed size");
        assertFalse(t.fragmentable(), "probes go with DF");
        ack(f, t);
        assertEquals(1500, p.mtu());
        assertFalse(stats(f).searching(), "the maximum passed: complete");
        assertNull(probe(f.transmits()));
    }

    @Test
    void lostProbesClimbTheCommonMtusThenLookJustAboveThenHalve() {
        AssocFixture f = up();
        Path p = f.tcb().paths.get(0);
        assertEquals(1480, probe(f.transmits()).packet().length);
        loseAllButTheLast(f, 1500);
        f.advance(PmtuDiscovery.MIN_PROBE_TIMER);
        Transmit next = probe(f.transmits());
        assertEquals(1280 - 20, next.packet().length, "1500 failed: the smallest common MTU above 1200");
        ack(f, next);
        assertEquals(1280, p.mtu());
        assertEquals(1400 - 20, probe(f.transmits()).packet().length, "the next common MTU");
        loseAllButTheLast(f, 1400);
        f.advance(PmtuDiscovery.MIN_PROBE_TIMER);
        next = probe(f.transmits());
        assertEquals(1288 - 20, next.packet().length, "1400 failed: just above 1280, is 1280 the link's?");
        ack(f, next);
        assertEquals(1288, p.mtu());
        assertEquals(1344 - 20, probe(f.transmits()).packet().length, "no common MTU: (1288 + 1400) / 2");
        assertEquals(6, stats(f).probesLost());
    }

    /** Loses the probe of {@code size} out now and its retransmissions but the last. */
    private static void loseAllButTheLast(AssocFixture f, int size) {
        for (int i = 1; i < PmtuDiscovery.MAX_PROBES; i++) {
            f.advance(PmtuDiscovery.MIN_PROBE_TIMER);
            assertEquals(size - 20, probe(f.transmits()).packet().length, "the same size, attempt " + (i + 1));
        }
    }

    @Test
    void aSearchFromTheBaseTo1500Under9000LosesThreeSizes() {
        int ok = PmtuDiscovery.BASE;
        int bad = 9000; // the maximum, lost first
        List<Integer> lost = new java.util.ArrayList<>();
        for (int size = PmtuDiscovery.nextProbeSize(ok, bad); size != 0; size = PmtuDiscovery.nextProbeSize(ok, bad)) {
            if (size <= 1500) {
                ok = size;
            } else {
                bad = size;
                lost.add(size);
            }
        }
        assertEquals(1500, ok);
        assertEquals(List.of(2002, 1508), lost, "with 9000: three sizes lost, where halving lost eleven");
    }

    @Test
    void aStaleProbeAckTeachesNothing() {
        AssocFixture f = up();
        Transmit first = probe(f.transmits());
        f.advance(PmtuDiscovery.MIN_PROBE_TIMER);
        probe(f.transmits()); // the second attempt, another nonce
        ack(f, first);
        assertEquals(1200, f.tcb().paths.get(0).mtu(), "the first attempt's nonce no longer counts");
    }

    @Test
    void offKeepsThePathMtuAndSendsNoProbe() {
        AssocFixture f = AssocFixture.established(SctpOptions.DEFAULTS);
        assertEquals(1500, f.tcb().paths.get(0).mtu());
        assertNull(probe(f.transmits()));
        f.a.handleIcmp(tooBig(f, 1280), f.now);
        assertEquals(1500, f.tcb().paths.get(0).mtu(), "Packet Too Big only recorded");
    }

    static IcmpReport tooBig(AssocFixture f, int mtu) {
        return new IcmpReport(
                IcmpReport.classify(false, 3, 4),
                false,
                3,
                4,
                false,
                AssocFixture.LOCAL,
                AssocFixture.PEER,
                AssocFixture.LOCAL_PORT,
                AssocFixture.PEER_PORT,
                f.tcb().peerTag,
                ChunkType.DATA,
                -1,
                mtu);
    }

    @Test
    void packetTooBigLowersTheMtuBetweenTheBaseAndTheCurrentOne() {
        AssocFixture f = up();
        ack(f, probe(f.transmits()));
        Path p = f.tcb().paths.get(0);
        assertEquals(1500, p.mtu());
        f.a.handleIcmp(tooBig(f, 1600), f.now);
        assertEquals(1500, p.mtu(), "not below the current MTU: ignored");
        f.a.handleIcmp(tooBig(f, 1000), f.now);
        assertEquals(1500, p.mtu(), "below the base: ignored (RFC 8899 4.6.2)");
        f.a.handleIcmp(tooBig(f, 1400), f.now);
        assertEquals(1400, p.mtu());
        assertEquals(1, stats(f).packetTooBigApplied());
        assertEquals(
                List.of(
                        new SctpEvent.PathMtuChange(f.tcb().id, p.address(), 1200, 1500, PathMtuReason.PROBE),
                        new SctpEvent.PathMtuChange(f.tcb().id, p.address(), 1500, 1400, PathMtuReason.PACKET_TOO_BIG)),
                f.eventsOf(SctpEvent.PathMtuChange.class),
                "each change reported once, the ignored reports not at all");
    }

    @Test
    void repeatedLossOfFullSizePacketsIsABlackHole() {
        AssocFixture f = up();
        ack(f, probe(f.transmits()));
        Path p = f.tcb().paths.get(0);
        f.a.send(SendInfo.of(0, 0), ByteBuffer.allocate(1400), f.now);
        Transmit data = f.transmits().get(0);
        assertTrue(data.packet().length > 1200 - 20, "a full-size packet: " + data.packet().length);
        f.advance(p.rtoNanos() + 1);
        f.transmits();
        assertEquals(1500, p.mtu(), "one timeout is not yet a black hole");
        f.advance(p.rtoNanos() + 1);
        List<Transmit> after = f.transmits();
        assertEquals(1200, p.mtu(), "back to the base");
        assertEquals(1, stats(f).blackHoles());
        assertEquals(
                new SctpEvent.PathMtuChange(f.tcb().id, p.address(), 1500, 1200, PathMtuReason.BLACK_HOLE),
                f.eventsOf(SctpEvent.PathMtuChange.class).get(1));
        // The chunk cut for 1500 still goes: in a packet IP may fragment.
        Transmit rtx = null;
        for (Transmit t : after) {
            for (Chunk c : decode(t).chunks()) {
                if (c instanceof DataChunk) {
                    rtx = t;
                }
            }
        }
        assertNotNull(rtx, "the retransmission went: " + after);
        assertTrue(rtx.fragmentable());
        assertTrue(rtx.packet().length > 1200 - 20);
        assertTrue(stats(f).searching(), "searching again below the size that stopped passing");
    }

    @Test
    void packetTooBigForTheProbeOutHasItsSizeProbedNext() {
        AssocFixture f = up();
        assertEquals(1480, probe(f.transmits()).packet().length, "1500 probed first");
        f.a.handleIcmp(tooBig(f, 1400), f.now);
        Transmit next = probe(f.transmits());
        assertNotNull(next, "no PROBE_TIMER wait: the reported size goes at once");
        assertEquals(1400 - 20, next.packet().length);
        assertEquals(1200, f.tcb().paths.get(0).mtu(), "not taken before it is confirmed");
        ack(f, next);
        assertEquals(1400, f.tcb().paths.get(0).mtu());
        assertEquals(1420 - 20, probe(f.transmits()).packet().length, "the next common MTU: 1500 failed");
    }

    @Test
    void aCompletedSearchStartsAgainAfterTheRaiseInterval() {
        AssocFixture f = AssocFixture.established(ON.toBuilder()
                .pmtuRaiseInterval(java.time.Duration.ofSeconds(5))
                .build());
        f.advance(0);
        ack(f, probe(f.transmits()));
        assertFalse(stats(f).searching(), "1500, the maximum, confirmed: complete");
        long done = stats(f).startedAtNanos();
        f.advance(5_000_000_000L - 1_000_000);
        assertEquals(done, stats(f).startedAtNanos(), "no new search before PMTU_RAISE_TIMER");
        f.advance(2_000_000);
        // RFC 8899 section 5.1.1: a new search (here it ends at once: the path is at the maximum)
        assertTrue(stats(f).startedAtNanos() > done + 4_000_000_000L, "searched again: " + stats(f));
    }

    @Test
    void aRaiseIntervalBelowOneSecondIsRefused() {
        IllegalArgumentException e =
                org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> ON.toBuilder()
                        .pmtuRaiseInterval(java.time.Duration.ofMillis(500))
                        .build());
        assertTrue(e.getMessage().contains("pmtuRaiseInterval"), e.getMessage());
    }
}
