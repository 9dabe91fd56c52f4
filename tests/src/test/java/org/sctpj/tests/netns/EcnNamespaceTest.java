package org.sctpj.tests.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.EcnStats;
import org.sctpj.stack.Extension;
import org.sctpj.stack.SctpOptions;

/**
 * ECN (RFC 9260 appendix A) over raw IP between two namespaces, through the real lower layer: A's
 * DATA goes ECT(0) (set per packet with IP_TOS / IPV6_TCLASS), an nftables rule on A's output marks
 * 2% of the ECT(0) SCTP packets CE ({@code ip ecn set ce}), Z reads the mark (from the IPv4 header,
 * or IPV6_RECVTCLASS) and echoes it, and A's window falls once per window and is answered with CWR.
 * The transfer completes and every message arrives once, in order. Run under {@code flock
 * /tmp/sctpj-netlock}; needs root, ip, tc and nft.
 */
class EcnNamespaceTest {

    static final SctpOptions ECN =
            SctpOptions.DEFAULTS.toBuilder().enable(Extension.ECN).build();

    @ParameterizedTest
    @ValueSource(strings = {"IPv4", "IPv6"})
    void ceMarksByNftablesAreEchoedAndReduceTheWindow(String family) throws Exception {
        MultiPathBed.require();
        try (MultiPathBed bed = MultiPathBed.builder().paths(1).rateMbit(100).create()) {
            bed.markCe(2.0);
            InetAddress peer = family.equals("IPv4") ? bed.z4(1) : bed.z6(1);
            try (BulkRun r = BulkRun.open(bed, ECN, 7310, List.of(peer))) {
                assertTrue(r.info().extensions().contains(Extension.ECN), "ECN negotiated");
                double mbps = r.slice(3000, 500);
                assertNull(r.error.get(), r.error.get());
                long marked = bed.ceMarked();
                EcnStats sender = r.a.call(ep -> ep.ecnStats(r.id).orElseThrow());
                EcnStats receiver =
                        r.z.call(ep -> ep.ecnStats(ep.associations().get(0)).orElseThrow());
                AssociationInfo.PathInfo path = r.info().paths().get(0);
                System.out.printf(
                        "ECN netns %s: %.1f Mbit/s, %d messages, nft marked %d, Z saw %d CE, sent %d ECNE;"
                                + " A: %d ECNE, %d window reductions, %d CWR; cwnd %d ssthresh %d;"
                                + " retransmitted %d bytes%n",
                        family,
                        mbps,
                        r.deliveredMessages.get(),
                        marked,
                        receiver.ceMarked(),
                        receiver.ecneSent(),
                        sender.ecneReceived(),
                        sender.windowReductions(),
                        sender.cwrSent(),
                        path.cwnd(),
                        path.ssthresh(),
                        path.bytesRetransmitted());
                assertTrue(marked > 0, "nftables marked ECT(0) packets: A sent ECT(0)");
                assertEquals(marked, receiver.ceMarked(), "Z read every CE mark from the IP header");
                assertTrue(receiver.ecneSent() > 0 && sender.ecneReceived() > 0, receiver + " / " + sender);
                assertTrue(sender.windowReductions() > 0, sender.toString());
                assertTrue(sender.windowReductions() <= sender.ecneReceived(), sender.toString());
                assertTrue(sender.cwrSent() > 0 && receiver.cwrReceived() > 0, sender + " / " + receiver);
            }
        }
    }
}
