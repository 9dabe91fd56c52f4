package org.sctpj.stack.path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SctpOptions.RetransmissionPolicy;
import org.sctpj.stack.cc.LinkedIncreasesCongestionController;
import org.sctpj.stack.tx.CmtScheduler;

/** CMT's destination choice, the linked-increases controller and the SCTP-PF/CMT options. */
class CmtPathTest {
    private static Path path(int i) throws Exception {
        Path p = new Path(i, InetAddress.getByAddress(new byte[] {10, 0, (byte) i, 1}), 1500, SctpOptions.DEFAULTS);
        p.setStatus(PathStatus.ACTIVE);
        return p;
    }

    @Test
    void retransmissionPoliciesPickByCwndSsthreshOrSameDestination() throws Exception {
        Path a = path(0);
        Path b = path(1);
        a.setCwnd(10_000);
        a.setSsthresh(20_000);
        b.setCwnd(20_000);
        b.setSsthresh(10_000);
        List<Path> ps = List.of(a, b);
        assertSame(b, CmtScheduler.retransmissionTarget(ps, RetransmissionPolicy.LARGEST_CWND));
        assertSame(a, CmtScheduler.retransmissionTarget(ps, RetransmissionPolicy.LARGEST_SSTHRESH));
        assertSame(b, CmtScheduler.retransmissionPathFor(b, a, RetransmissionPolicy.SAME_DESTINATION));
        b.setStatus(PathStatus.POTENTIALLY_FAILED);
        assertSame(a, CmtScheduler.retransmissionPathFor(b, a, RetransmissionPolicy.SAME_DESTINATION));
        assertSame(a, CmtScheduler.retransmissionTarget(ps, RetransmissionPolicy.LARGEST_CWND), "PF excluded");
        assertFalse(CmtScheduler.takesNewData(b));
        assertEquals(1, CmtScheduler.activeCount(ps));
        a.setStatus(PathStatus.INACTIVE);
        assertNull(CmtScheduler.retransmissionTarget(ps, RetransmissionPolicy.LARGEST_SSTHRESH));
    }

    @Test
    void aDestinationThatTimedOutComesLastAmongActiveOnes() throws Exception {
        Path a = path(0);
        Path b = path(1);
        a.setSsthresh(100_000);
        b.setSsthresh(10_000);
        a.incrementErrorCount();
        assertSame(b, CmtScheduler.retransmissionTarget(List.of(a, b), RetransmissionPolicy.LARGEST_SSTHRESH));
    }

    @Test
    void linkedIncreasesWithOnePathIsRfc9260() throws Exception {
        Path a = path(0);
        List<Path> ps = new ArrayList<>(List.of(a));
        LinkedIncreasesCongestionController lia = new LinkedIncreasesCongestionController(ps);
        lia.init(a, 5000);
        a.setCwnd(6000);
        a.addFlight(6000);
        a.rto().sample(10_000_000L);
        assertEquals(6000, lia.increaseThreshold(a));
        lia.onAck(a, 6000, true, true, false);
        assertEquals(7500, a.cwnd(), "one MTU per cwnd acknowledged");
    }

    @Test
    void linkedIncreasesOnTwoEqualPathsGrowEachAtHalfTheRate() throws Exception {
        Path a = path(0);
        Path b = path(1);
        List<Path> ps = List.of(a, b);
        LinkedIncreasesCongestionController lia = new LinkedIncreasesCongestionController(ps);
        for (Path p : ps) {
            lia.init(p, 5000);
            p.setCwnd(10_000);
            p.addFlight(10_000);
            p.rto().sample(10_000_000L);
        }
        // alpha = 20000 * (10000/r^2) / (20000/r)^2 = 1/2; T = max(10000, 20000 / 0.5) = 40000.
        assertEquals(40_000, lia.increaseThreshold(a));
        lia.onAck(a, 10_000, true, true, false);
        assertEquals(10_000, a.cwnd(), "a whole window acknowledged is not enough any more");
        lia.onAck(a, 30_000, true, true, false);
        assertEquals(11_500, a.cwnd());
        // Slow start stays uncoupled.
        b.setSsthresh(100_000);
        lia.onAck(b, 1500, true, true, false);
        assertEquals(11_500, b.cwnd());
    }

    @Test
    void optionsDefaultsKeepCmtOffAndPfAtFirstTimeout() {
        SctpOptions d = SctpOptions.DEFAULTS;
        assertFalse(d.cmt());
        assertEquals(0, d.pfMaxRetrans());
        assertTrue(d.potentiallyFailedEnabled());
        assertFalse(d.primarySwitchover());
        assertEquals(SctpOptions.CongestionControl.RFC9260, d.congestionControl());
        assertFalse(d.toBuilder().potentiallyFailedOff().build().potentiallyFailedEnabled());
        assertFalse(d.toBuilder().pfMaxRetrans(5).build().potentiallyFailedEnabled(), "PFMR >= PMR disables PF");
        assertThrows(
                IllegalArgumentException.class,
                () -> d.toBuilder().pfMaxRetrans(-1).build());
        assertThrows(
                IllegalArgumentException.class,
                () -> d.toBuilder().retransmissionPolicy(null).build());
        assertThrows(
                IllegalArgumentException.class,
                () -> d.toBuilder().congestionControl(null).build());
    }
}
