package org.sctpj.stack.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.path.PathStatus;

class CongestionControllerTest {
    private final CongestionController cc = new Rfc9260CongestionController();

    private static Path path(int mtu) throws Exception {
        return new Path(0, InetAddress.getByAddress(new byte[] {10, 0, 0, 1}), mtu, SctpOptions.DEFAULTS);
    }

    @Test
    void initialWindowFollows721() throws Exception {
        Path p = path(1500);
        cc.init(p, 100_000);
        assertEquals(4380, p.cwnd());
        assertEquals(100_000, p.ssthresh());
        Path small = path(576);
        cc.init(small, 100_000);
        assertEquals(2304, small.cwnd(), "min(4 * 576, max(1152, 4380))");
        Path jumbo = path(9000);
        cc.init(jumbo, 100_000);
        assertEquals(18_000, jumbo.cwnd(), "max(2 * 9000, 4380)");
    }

    @Test
    void slowStartGrowsByAtMostOneMtuPerSackAndOnlyWhenAllowed() throws Exception {
        Path p = path(1500);
        cc.init(p, 100_000);
        cc.onAck(p, 3000, true, true, false);
        assertEquals(4380 + 1500, p.cwnd(), "capped at one MTU");
        cc.onAck(p, 700, true, true, false);
        assertEquals(4380 + 1500 + 700, p.cwnd(), "the bytes acknowledged when fewer");
        cc.onAck(p, 3000, true, false, false);
        assertEquals(6580, p.cwnd(), "window not fully used");
        cc.onAck(p, 3000, false, true, false);
        assertEquals(6580, p.cwnd(), "cumulative ack did not advance");
        cc.onAck(p, 3000, true, true, true);
        assertEquals(6580, p.cwnd(), "in Fast Recovery");
    }

    @Test
    void congestionAvoidanceAddsOneMtuPerWindowAcknowledged() throws Exception {
        Path p = path(1500);
        cc.init(p, 5000);
        p.setCwnd(6000);
        p.addFlight(6000);
        cc.onAck(p, 3000, true, true, false);
        assertEquals(6000, p.cwnd());
        assertEquals(3000, p.partialBytesAcked());
        cc.onAck(p, 3500, true, true, false);
        assertEquals(7500, p.cwnd());
        assertEquals(500, p.partialBytesAcked());
        cc.onAck(p, 9000, true, false, false);
        assertEquals(7500, p.cwnd(), "not fully used: no growth");
        assertEquals(7500, p.partialBytesAcked(), "reset to cwnd");
        p.addFlight(-6000);
        cc.onAck(p, 100, true, true, false);
        assertEquals(0, p.partialBytesAcked(), "all data acknowledged");
    }

    @Test
    void fastRetransmitHalvesAndT3CollapsesAndIdleDecays() throws Exception {
        Path p = path(1500);
        cc.init(p, 1_000_000);
        p.setCwnd(20_000);
        p.setPartialBytesAcked(900);
        cc.onFastRetransmit(p);
        assertEquals(10_000, p.ssthresh());
        assertEquals(10_000, p.cwnd());
        assertEquals(0, p.partialBytesAcked());
        p.setCwnd(10_000);
        cc.onFastRetransmit(p);
        assertEquals(6000, p.cwnd(), "at least 4 MTU");
        p.setCwnd(30_000);
        cc.onT3Timeout(p);
        assertEquals(15_000, p.ssthresh());
        assertEquals(1500, p.cwnd());
        p.setCwnd(20_000);
        cc.onIdle(p);
        assertEquals(10_000, p.cwnd());
        cc.onIdle(p);
        assertEquals(6000, p.cwnd());
        cc.onIdle(p);
        assertEquals(6000, p.cwnd());
    }

    @Test
    void pathKeepsTimersCountersAndPacketSize() throws Exception {
        Path p = path(1500);
        assertEquals(PathStatus.UNCONFIRMED, p.status());
        assertEquals(1480, p.maxPacketBytes());
        Path v6 = new Path(
                1,
                InetAddress.getByName("::1"),
                1500,
                SctpOptions.DEFAULTS.toBuilder().encapsulationOverhead(8).build());
        assertEquals(1452, v6.maxPacketBytes());
        assertEquals(Long.MAX_VALUE, p.t3Deadline());
        p.startT3(5);
        assertEquals(5 + 1_000_000_000L, p.t3Deadline());
        p.startT3(100);
        assertEquals(5 + 1_000_000_000L, p.t3Deadline(), "start does not restart a running timer");
        p.restartT3(100);
        assertEquals(100 + 1_000_000_000L, p.t3Deadline());
        p.stopT3();
        assertEquals(Long.MAX_VALUE, p.t3Deadline());
        p.incrementErrorCount();
        p.incrementErrorCount();
        assertEquals(2, p.errorCount());
        p.resetErrorCount();
        assertEquals(0, p.errorCount());
        p.recordSent(7, 1000, 1, 400);
        assertEquals(7, p.lastSendNanos());
        assertEquals(1000, p.bytesSent());
        assertEquals(1, p.packetsSent());
        assertEquals(1, p.chunksRetransmitted());
        assertEquals(400, p.bytesRetransmitted());
        assertThrows(IllegalArgumentException.class, () -> p.setMtu(500));
        assertThrows(IllegalArgumentException.class, () -> new Path(64, p.address(), 1500, SctpOptions.DEFAULTS));
    }
}
