package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sctpj.sim.LossModel;
import org.sctpj.stack.Extension;
import org.sctpj.stack.SctpOptions;

/**
 * The rest of CMT on the simulator (issue 13 item 6): NR-SACK (draft-natarajan-tsvwg-sctp-nrsack-08)
 * negotiated only when both ends offer it and used end to end with loss; and NR-SACK, CUCv2's
 * rtx-pseudo-cumack and send-buffer splitting each measured against their absence on two very
 * different paths (100 Mbit/s with 10 ms one-way delay, 10 Mbit/s with 100 ms), without loss and
 * with 1% loss on the slow one. Every run delivers every message once and in order, under the
 * conformance monitor. The table printed by {@link #cmtVariantsSideBySide} is the one in
 * PERFORMANCE.md.
 */
class CmtNrSackSimulatedTest {
    static final long S = 1_000_000_000L;
    static final int NR_SACK_TYPE = 0x10;
    static final int SACK_TYPE = 3;

    static SctpOptions cmt(boolean nrSack, boolean cucV2, boolean sendSplit, int sendBuffer) {
        Set<Extension> ext = EnumSet.of(Extension.PR_SCTP, Extension.RECONFIG);
        if (nrSack) {
            ext.add(Extension.NR_SACK);
        }
        // RFC 9260's timers (WAN): the slow path's RTT of 200 ms and more is beyond the LAN profile's RTO.
        return SctpOptions.WAN.toBuilder()
                .noDelay(true)
                .cmt(true)
                .cmtDelayedAck(true)
                .cmtRtxPseudoCumack(cucV2)
                .sendBufferSplitting(sendSplit)
                .sendBufferBytes(sendBuffer)
                .maxMessageSize(Math.min(sendBuffer, 64 * 1024))
                .receiveBufferBytes(16 << 20)
                .extensions(ext)
                .build();
    }

    /** Counts of SACK and NR-SACK chunks Z sent that reached A. */
    static final class AckCounter {
        long sacks;
        long nrSacks;

        void onPacket(ByteBuffer b) {
            for (int off = b.position() + 12; off + 4 <= b.limit(); ) {
                int type = b.get(off) & 0xff;
                int len = b.getShort(off + 2) & 0xffff;
                if (type == SACK_TYPE) {
                    sacks++;
                } else if (type == NR_SACK_TYPE) {
                    nrSacks++;
                }
                off += Math.max(4, (len + 3) & ~3);
            }
        }
    }

    /**
     * What one run measured.
     *
     * @param goodputMbps user data delivered at Z per second, warm-up excluded
     * @param slowSharePercent the share of A's DATA bytes (retransmissions included) sent on the
     *     slow path over the whole run
     * @param meanHeldKiB A's send buffer held by sent data not cumulatively acknowledged (less
     *     NR-acknowledged data), mean of one sample per millisecond
     * @param noRoomPercent the share of samples in which that sent data left no room in the send
     *     buffer for a message not yet sent (the sender had nothing new to send whatever its cwnd)
     */
    record Run(
            double goodputMbps,
            double slowSharePercent,
            double meanHeldKiB,
            double noRoomPercent,
            long retransmitted,
            long nrSacks,
            long sacks) {}

    /**
     * A continuous transfer of 1400-byte messages from A to Z over path 0 (100 Mbit/s, 10 ms
     * one-way) and path 1 (10 Mbit/s, 100 ms), path 1 losing {@code slowLoss} of its packets in
     * both directions; goodput at Z from {@code warmup} to {@code end} (simulated time), and A's
     * send-buffer use (the send buffer less {@code sendBufferFree}) sampled every millisecond.
     */
    static Run run(long seed, SctpOptions oa, SctpOptions oz, double slowLoss, long warmup, long end) {
        return run(seed, oa, oz, 0, slowLoss, warmup, end);
    }

    /** As {@link #run(long, SctpOptions, SctpOptions, double, long, long)}, the fast path losing {@code fastLoss}. */
    static Run run(long seed, SctpOptions oa, SctpOptions oz, double fastLoss, double slowLoss, long warmup, long end) {
        CorePair p = new CorePair(seed, 2, oa, oz, l -> {});
        p.net.path(0)
                .both(l ->
                        l.bandwidth(100_000_000L).delay(Duration.ofMillis(10)).queueLimit(256 * 1024));
        p.net.path(1)
                .both(l ->
                        l.bandwidth(10_000_000L).delay(Duration.ofMillis(100)).queueLimit(256 * 1024));
        if (slowLoss > 0) {
            p.net.path(1).both(l -> l.loss(LossModel.bernoulli(slowLoss)));
        }
        if (fastLoss > 0) {
            p.net.path(0).both(l -> l.loss(LossModel.bernoulli(fastLoss)));
        }
        p.a.useBufferTransmit();
        p.z.useBufferTransmit();
        AckCounter acks = new AckCounter();
        p.sim.addTap((now, link, src, dst, b) -> {
            if (link.endsWith("Z>A")) {
                acks.onPacket(b);
            }
        });
        Transfer t = new Transfer(seed, 2_000_000, 1400, 1, false).attach(p);
        t.series = new Series(100_000_000L, end + 120 * S);
        t.sendUntilNanos = end;
        long[] samples = new long[2];
        long[] full = new long[1];
        long step = 1_000_000L;
        for (long at = warmup; at < end; at += step) {
            p.sim.at(at, () -> {
                if (p.assocA == null) {
                    return;
                }
                long held = p.a.endpoint().sendBufferOutstanding(p.assocA).orElse(0);
                samples[0] += held;
                samples[1]++;
                if (held > oa.sendBufferBytes() - 1400) {
                    full[0]++;
                }
            });
        }
        p.connectAt(0);
        assertTrue(
                p.sim.runUntil(t::complete, end + 120 * S),
                "all sent delivered: sent " + t.sent() + " delivered " + t.deliveredCount);
        assertEquals(0, t.lost() + t.duplicated + t.misordered + t.corrupted, "lost/duplicated/misordered/corrupted");
        var paths = p.a.endpoint().associationStats(p.assocA).orElseThrow().paths();
        long fast = paths.get(0).bytesSent();
        long slow = paths.get(1).bytesSent();
        long rtx = paths.get(0).chunksRetransmitted() + paths.get(1).chunksRetransmitted();
        double meanHeld = samples[1] == 0 ? 0 : samples[0] / (double) samples[1] / 1024.0;
        double noRoom = samples[1] == 0 ? 0 : 100.0 * full[0] / samples[1];
        return new Run(
                t.series.meanMbps(warmup, end),
                100.0 * slow / Math.max(1, fast + slow),
                meanHeld,
                noRoom,
                rtx,
                acks.nrSacks,
                acks.sacks);
    }

    @Test
    void nrSackOnlyWhenBothEndsOfferIt() {
        SctpOptions with = cmt(true, true, false, 1 << 20);
        SctpOptions without = cmt(false, true, false, 1 << 20);
        Run one = run(3, with, without, 0.01, S, 3 * S);
        assertEquals(0, one.nrSacks(), "Z did not offer NR-SACK: plain SACKs only");
        assertTrue(one.sacks() > 0);
        Run both = run(3, with, with, 0.01, S, 3 * S);
        assertTrue(both.nrSacks() > 0, "both offered: Z acknowledges with NR-SACK");
        assertEquals(0, both.sacks(), "no plain SACK once NR-SACK is negotiated");
    }

    /**
     * NR-SACK with CMT, loss on both paths and reordering: everything arrives once and in order,
     * under the monitor's NR-SACK rules (never reneged, blocks consistent).
     */
    @Test
    void nrSackWithLossOnBothPathsLosesNothing() {
        SctpOptions o = cmt(true, true, true, 256 * 1024);
        CorePair p = new CorePair(11, 2, o, o, l -> l.delay(Duration.ofMillis(20))
                .bandwidth(20_000_000L)
                .queueLimit(64 * 1024)
                .loss(LossModel.bernoulli(0.03))
                .reorder(0.02, 5_000_000L));
        p.a.useBufferTransmit();
        p.z.useBufferTransmit();
        Transfer t = new Transfer(11, 4000, 1400, 3, false).attach(p);
        p.connectAt(0);
        assertTrue(p.sim.runUntil(t::complete, 300 * S), "sent " + t.sent() + " delivered " + t.deliveredCount);
        assertEquals(4000, t.deliveredCount);
        assertEquals(0, t.lost() + t.duplicated + t.misordered + t.corrupted);
        assertTrue(p.a.endpoint().info(p.assocA).orElseThrow().extensions().contains(Extension.NR_SACK));
    }

    /**
     * Each of NR-SACK, CUCv2 and send-buffer splitting against its absence, all three together,
     * and all three but each, under CMT with a 512 KiB send buffer; prints the table of
     * PERFORMANCE.md (with {@code -Dsctpj.cmt.table=true}: 24 runs of 10 simulated seconds, without
     * loss, with 1% loss on the slow path and with 1% on the fast one, some minutes; without it
     * only the first two variants with loss on the slow path, 6 simulated seconds).
     *
     * <p>One comparison is asserted, because it is structural rather than a measured speed:
     * without NR-SACK a chunk sent on the fast path stays in the send buffer until every chunk
     * before it, some sent on the slow path, is acknowledged, that is for about the slow path's
     * one-way delay plus the fast path's round trip (about 130 ms here), so the 512 KiB buffer
     * lets through at most about 512 KiB per 130 ms, some 32 Mbit/s, whatever the paths could
     * carry; with NR-SACK the fast path's chunks leave the buffer one fast round trip (about 20
     * ms) after they are sent, a bound above the fast path's 100 Mbit/s. So NR-SACK must at least
     * double the goodput; everything else is only printed. Every run delivers everything, once, in
     * order, under the monitor.
     */
    @Test
    void cmtVariantsSideBySide() {
        boolean full = Boolean.getBoolean("sctpj.cmt.table");
        int buf = 512 * 1024;
        record Variant(String name, boolean nr, boolean cuc, boolean split) {}
        List<Variant> variants = List.of(
                new Variant("CMT (none of the three)", false, false, false),
                new Variant("+ NR-SACK", true, false, false),
                new Variant("+ CUCv2", false, true, false),
                new Variant("+ send-buffer splitting", false, false, true),
                new Variant("all three", true, true, true),
                new Variant("all but NR-SACK", false, true, true),
                new Variant("all but CUCv2", true, false, true),
                new Variant("all but send-buffer splitting", true, true, false));
        List<String> rows = new ArrayList<>();
        List<Run> lossy = new ArrayList<>();
        // {fast path loss, slow path loss}
        double[][] losses = full ? new double[][] {{0, 0}, {0, 0.01}, {0.01, 0}} : new double[][] {{0, 0.01}};
        for (double[] loss : losses) {
            for (Variant v : full ? variants : variants.subList(0, 2)) {
                SctpOptions o = cmt(v.nr, v.cuc, v.split, buf);
                Run r = run(5, o, o, loss[0], loss[1], 2 * S, (full ? 10 : 6) * S);
                if (loss[1] > 0) {
                    lossy.add(r);
                }
                rows.add(String.format(
                        "| %s | %s | %.2f | %.1f | %.0f | %.1f | %d |",
                        loss[1] > 0 ? "1% on the slow path" : loss[0] > 0 ? "1% on the fast path" : "none",
                        v.name,
                        r.goodputMbps(),
                        r.slowSharePercent(),
                        r.meanHeldKiB(),
                        r.noRoomPercent(),
                        r.retransmitted()));
            }
        }
        System.out.println("| loss | variant | goodput (Mbit/s) | slow path's share of DATA (%) | send buffer held by"
                + " sent data (KiB of 512, mean) | no room for unsent data (% of time) | chunks retransmitted |");
        System.out.println("|---|---|---:|---:|---:|---:|---:|");
        rows.forEach(System.out::println);
        assertTrue(
                lossy.get(1).goodputMbps() >= 2 * lossy.get(0).goodputMbps(),
                "NR-SACK " + lossy.get(1) + " vs none " + lossy.get(0));
    }
}
