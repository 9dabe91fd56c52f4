package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.sim.LossModel;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.AssociationStats;
import org.sctpj.stack.Probe;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;

/**
 * The association counters and the probe on the simulator, deterministic: a transfer over a link
 * that loses 2% and duplicates 5% of packets; the receiver counts each message and byte exactly
 * once, the duplicates it saw and the chunks that arrived above a gap; the sender counts the
 * duplicates the receiver reported and its retransmissions; the probe hears each state of the
 * association in order, the path turning ACTIVE, and the retransmissions.
 */
class AssociationStatsSimulatedTest {

    /** Records what the endpoint reports. */
    static final class Recorder implements Probe {
        final List<String> log = new ArrayList<>();
        long timeouts;
        long fast;

        @Override
        public void associationState(AssociationId id, int localPort, String from, String to) {
            log.add(localPort + " " + from + "->" + to);
        }

        @Override
        public void pathStatus(AssociationId id, InetAddress peer, String from, String to) {
            log.add("path " + from + "->" + to);
        }

        @Override
        public void retransmissionTimeout(AssociationId id, InetAddress peer, long count, long rtoNanos, long cwnd) {
            timeouts += count;
            assertTrue(rtoNanos > 0 && cwnd > 0);
        }

        @Override
        public void fastRetransmit(AssociationId id, long chunks) {
            fast += chunks;
        }
    }

    @Test
    void countersAndProbeUnderLossAndDuplication() {
        int count = 2000;
        int size = 700;
        CorePair p = new CorePair(7, 1, SctpOptions.DEFAULTS, SctpOptions.DEFAULTS, l -> l.delay(Duration.ofMillis(5))
                .loss(LossModel.bernoulli(0.02))
                .duplicate(0.05));
        Recorder ra = new Recorder();
        Recorder rz = new Recorder();
        p.a.endpoint().setProbe(ra);
        p.z.endpoint().setProbe(rz);
        Transfer t = new Transfer(3, count, size, 1, false).attach(p);
        p.connectAt(0);
        assertTrue(p.sim.runUntil(t::complete, 600_000_000_000L), "delivered " + t.deliveredCount);
        assertEquals(0, t.duplicated, "the user saw no duplicate");

        AssociationStats a = p.a.endpoint().associationStats(p.assocA).orElseThrow();
        AssociationId zid = p.z.endpoint().associations().get(0);
        AssociationStats z = p.z.endpoint().associationStats(zid).orElseThrow();
        assertEquals(count, a.messagesSent(), a.toString());
        assertEquals((long) count * size, a.bytesSent(), a.toString());
        assertEquals(count, z.messagesReceived(), z.toString());
        assertEquals((long) count * size, z.bytesReceived(), "each byte counted once: " + z);
        assertEquals(z.bytesReceived(), z.paths().get(0).bytesReceived(), z.toString());
        assertEquals(z.chunksReceived(), z.paths().get(0).chunksReceived(), z.toString());
        assertTrue(z.duplicatesReceived() > 0, "duplicates seen: " + z);
        assertTrue(a.duplicatesReportedByPeer() > 0, "duplicates reported: " + a);
        assertTrue(z.outOfOrderReceived() > 0 && z.gapSacksSent() > 0, "gaps: " + z);
        assertTrue(a.gapSacksReceived() > 0 && a.sacksReceived() > 0, a.toString());
        assertTrue(a.chunksRetransmitted() > 0, a.toString());
        assertTrue(a.timeoutRetransmissions() + a.fastRetransmissions() > 0, a.toString());
        assertEquals(a.timeoutRetransmissions(), ra.timeouts, "the probe heard every T3 expiry");
        assertEquals(a.fastRetransmissions(), ra.fast, "the probe heard every fast retransmit");
        assertTrue(a.paths().get(0).srttNanos() >= 10_000_000L, "SRTT about the 10 ms round trip: " + a);
        assertEquals(0, z.messagesSent());

        p.sim.at(p.sim.now(), () -> p.a.endpoint().shutdown(p.assocA, p.sim.now()));
        assertTrue(p.sim.runUntil(
                () -> CorePair.saw(p.a, AssociationChangeType.SHUTDOWN_COMPLETE), p.sim.now() + 60_000_000_000L));
        List<String> states = ra.log.stream().filter(s -> !s.startsWith("path")).toList();
        assertEquals(
                List.of(
                        "5001 null->COOKIE_WAIT",
                        "5001 COOKIE_WAIT->COOKIE_ECHOED",
                        "5001 COOKIE_ECHOED->ESTABLISHED",
                        "5001 ESTABLISHED->SHUTDOWN_PENDING", // the last SACK was still on its way
                        "5001 SHUTDOWN_PENDING->SHUTDOWN_SENT",
                        "5001 SHUTDOWN_SENT->CLOSED"),
                states);
        assertTrue(
                ra.log.contains("path null->ACTIVE") || ra.log.contains("path UNCONFIRMED->ACTIVE"), ra.log.toString());
        assertTrue(rz.log.get(0).startsWith("5002 null->"), rz.log.toString());
    }
}
