package org.sctpj.stack.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.path.PathStatus;

/**
 * {@link CmtScheduler} as the association's data scheduling: round robin over the destinations
 * that take new data, one packet each; buffer splitting; where retransmissions go; and {@link
 * SinglePathScheduling}, which leaves every choice to the association.
 */
class CmtSchedulerTest {

    private static List<Path> paths(int n) throws Exception {
        List<Path> ps = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Path p = new Path(i, InetAddress.getByAddress(new byte[] {10, 0, (byte) i, 1}), 1500, SctpOptions.DEFAULTS);
            p.setStatus(PathStatus.ACTIVE);
            ps.add(p);
        }
        return ps;
    }

    private static CmtScheduler cmt(boolean bufferSplitting) {
        return new CmtScheduler(SctpOptions.DEFAULTS.toBuilder()
                .cmt(true)
                .bufferSplitting(bufferSplitting)
                .build());
    }

    @Test
    void packetsGoToTheActiveDestinationsInTurnSkippingThoseThatTakeNothing() throws Exception {
        List<Path> ps = paths(3);
        ps.get(1).setStatus(PathStatus.INACTIVE);
        CmtScheduler s = cmt(true);
        assertTrue(s.stripes(ps));
        List<Integer> tried = new ArrayList<>();
        PathScheduling.PacketAttempt all = (p, now) -> {
            tried.add(p.index());
            return p.address();
        };
        for (int k = 0; k < 4; k++) {
            s.transmit(ps, all, 0);
        }
        assertEquals(List.of(0, 2, 0, 2), tried, "one packet each, the inactive path skipped");

        tried.clear();
        PathScheduling.PacketAttempt onlyTwo = (p, now) -> {
            tried.add(p.index());
            return p.index() == 2 ? p.address() : null;
        };
        assertSame(ps.get(2).address(), s.transmit(ps, onlyTwo, 0));
        assertEquals(List.of(0, 2), tried, "a path that took nothing is passed over");
        assertNull(s.transmit(ps, (p, now) -> null, 0), "no path may send");

        for (Path p : ps) {
            p.setStatus(PathStatus.INACTIVE);
        }
        assertFalse(s.stripes(ps), "no destination takes data: the association's data path does");
    }

    @Test
    void bufferSplittingGivesEachActiveDestinationItsShareOfThePeersWindow() throws Exception {
        List<Path> ps = paths(2);
        CmtScheduler s = cmt(true);
        Path a = ps.get(0);
        a.addFlight(4999);
        assertTrue(s.withinShare(a, ps, 10_000));
        a.addFlight(1);
        assertFalse(s.withinShare(a, ps, 10_000), "half of 10000 is in flight");
        assertTrue(cmt(false).withinShare(a, ps, 10_000), "off: no share");
        ps.get(1).setStatus(PathStatus.INACTIVE);
        assertTrue(s.withinShare(a, ps, 10_000), "alone: the whole window");
    }

    @Test
    void retransmissionsGoToTheTargetOfThePolicy() throws Exception {
        List<Path> ps = paths(2);
        ps.get(1).setSsthresh(ps.get(0).ssthresh() + 1);
        CmtScheduler s = cmt(true); // LARGEST_SSTHRESH
        s.beginFill(ps);
        assertTrue(s.retransmitsTo(ps.get(0), ps.get(1)));
        assertFalse(s.retransmitsTo(ps.get(1), ps.get(0)), "A is not the target");
        assertTrue(s.sendsNewDataTo(ps.get(0)));
    }

    @Test
    void singlePathSchedulingRestrictsNothingAndNeverStripes() throws Exception {
        List<Path> ps = paths(2);
        SinglePathScheduling s = new SinglePathScheduling();
        assertFalse(s.stripes(ps));
        assertFalse(s.sendsNewDataTo(ps.get(0)));
        assertTrue(s.retransmitsTo(ps.get(0), ps.get(1)));
        ps.get(0).addFlight(1 << 30);
        assertTrue(s.withinShare(ps.get(0), ps, 10));
    }
}
