package org.sctpj.tests.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.PmtuStats;
import org.sctpj.stack.SctpOptions;

/**
 * The thesis's MTU 9000 case found on its own (issue 13 item 4): two namespaces joined by a veth
 * link of MTU 9000, raw IP with DF on every packet; the association starts at the base of 1200
 * bytes and path MTU discovery (RFC 8899, HEARTBEAT + PAD probes) must find 9000, after which a
 * bulk transfer of 8,900-byte messages (one packet each at 9000) arrives intact. Run under {@code
 * flock /tmp/sctpj-netlock}; needs root, ip, tc and nft.
 */
class PmtuNamespaceTest {

    @Test
    void mtu9000IsFoundOnItsOwn() throws Exception {
        MultiPathBed.require();
        SctpOptions o = SctpOptions.DEFAULTS.toBuilder()
                .pmtuDiscovery(true)
                .pmtuMax(9000)
                .build();
        try (MultiPathBed bed =
                        MultiPathBed.builder().paths(1).mtu(9000).rateMbit(100).create();
                BulkRun r = BulkRun.open(bed, o, 7320, List.of(bed.z4(1)), true)) {
            r.a.awaitTrue(ep -> ep.pmtuStats(r.id).orElseThrow().get(0).mtu() == 9000, 10_000, "path MTU 9000 found");
            PmtuStats s = r.a.call(ep -> ep.pmtuStats(r.id).orElseThrow().get(0));
            double mbps = r.slice(2000, 500);
            assertNull(r.error.get(), r.error.get());
            assertEquals(9000, s.mtu(), s.toString());
            assertTrue(r.deliveredMessages.get() > 0);
            System.out.printf(
                    "PMTU netns: 9000 found %.3f ms after the search started (%d probe(s) sent, %d lost);"
                            + " then %.1f Mbit/s of 8,900-byte messages, %d delivered%n",
                    (s.completedAtNanos() - s.startedAtNanos()) / 1e6,
                    s.probesSent(),
                    s.probesLost(),
                    mbps,
                    r.deliveredMessages.get());
        }
    }

    /**
     * DF holds: on a veth of MTU 1500 with the search allowed up to 9000, probes above 1500 must be
     * lost (the kernel refuses them, PMTUDISC_PROBE) instead of fragmented, so the search ends on
     * 1500 (within its 8-byte step), not on 9000.
     */
    @Test
    void probesAboveTheLinkAreLostNotFragmented() throws Exception {
        MultiPathBed.require();
        SctpOptions o = SctpOptions.DEFAULTS.toBuilder()
                .pmtuDiscovery(true)
                .pmtuMax(9000)
                .build();
        try (MultiPathBed bed =
                        MultiPathBed.builder().paths(1).mtu(1500).rateMbit(100).create();
                BulkRun r = BulkRun.open(bed, o, 7321, List.of(bed.z4(1)), true)) {
            r.a.awaitTrue(ep -> !ep.pmtuStats(r.id).orElseThrow().get(0).searching(), 60_000, "the search completed");
            PmtuStats s = r.a.call(ep -> ep.pmtuStats(r.id).orElseThrow().get(0));
            assertEquals(1500, s.mtu(), s.toString());
            assertTrue(s.probesLost() > 0, s.toString());
            System.out.printf(
                    "PMTU netns: veth 1500, max 9000: found %d in %.1f s (%d probes, %d lost)%n",
                    s.mtu(), (s.completedAtNanos() - s.startedAtNanos()) / 1e9, s.probesSent(), s.probesLost());
        }
    }

    /**
     * ICMP used where the lower layer reads it (IP_RECVERR): behind a router whose link to Z has MTU
     * 1280, the probe of 1500 draws a Fragmentation Needed from the router; the raw layer hands it
     * to the core, which probes the reported 1280 at once and settles there.
     */
    @Test
    void fragmentationNeededFromARouterSettlesTheSearch() throws Exception {
        MultiPathBed.require();
        SctpOptions o = SctpOptions.DEFAULTS.toBuilder()
                .pmtuDiscovery(true)
                .pmtuMax(1500)
                .build();
        try (MultiPathBed bed =
                MultiPathBed.builder().paths(1).router(true).rateMbit(100).create()) {
            bed.farMtu(1, 1280);
            try (BulkRun r = BulkRun.open(bed, o, 7322, List.of(bed.z4(1)), true)) {
                r.a.awaitTrue(
                        ep -> !ep.pmtuStats(r.id).orElseThrow().get(0).searching(), 60_000, "the search completed");
                PmtuStats s = r.a.call(ep -> ep.pmtuStats(r.id).orElseThrow().get(0));
                double mbps = r.slice(1500, 300);
                assertNull(r.error.get(), r.error.get());
                assertEquals(1280, s.mtu(), s.toString());
                assertTrue(s.packetTooBigApplied() > 0, s.toString());
                System.out.printf(
                        "PMTU netns: router link 1280: found %d in %.1f ms (%d probes, %d lost, %d Packet Too Big"
                                + " used); then %.1f Mbit/s%n",
                        s.mtu(),
                        (s.completedAtNanos() - s.startedAtNanos()) / 1e6,
                        s.probesSent(),
                        s.probesLost(),
                        s.packetTooBigApplied(),
                        mbps);
            }
        }
    }
}
