package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpOptions;

/**
 * The source thesis's failover schedule (SEEDS.md section 2: primary cut at 15 s, back at 35 s,
 * alternate cut at 55 s, back at 75 s) for plain SCTP (SCTP-PF off: RFC 4960 failover), CMT (SCTP-PF
 * off) and CMT-PF, with the thesis's cluster profile (Table 6.1, {@link SctpOptions#LAN}) on two
 * 10 Mb/s paths. Goodput at Z's user is binned per 100 ms, written as CSV and plotted as PNG into
 * {@code tests/target/plots/} (like the thesis's Figures 6.1 to 6.3). With CMT-PF goodput never
 * drops to zero in any 100 ms window; in every run everything is delivered, once, in order.
 */
class CmtFailoverTest {
    static final long S = 1_000_000_000L;
    static final long BIN = 100_000_000L;
    static final long SEND_UNTIL = 85 * S;
    static final double[] MARKS = {15, 35, 55, 75};
    static final String[] LABELS = {"primary cut", "primary back", "alternate cut", "alternate back"};

    record Run(String name, Series series, long zeroBins, double before, double primaryDown, double both) {}

    static SctpOptions lan() {
        return SctpOptions.LAN.toBuilder()
                .noDelay(true)
                .sendBufferBytes(1 << 20)
                .receiveBufferBytes(1 << 20)
                .build();
    }

    static Run run(String name, SctpOptions o) {
        CorePair p = new CorePair(23, 2, o, o, l -> l.delay(Duration.ofMillis(1))
                .bandwidth(10_000_000)
                .queueLimit(32 * 1024));
        p.net.path(0).downAt(15 * S).upAt(35 * S);
        p.net.path(1).downAt(55 * S).upAt(75 * S);
        Transfer t = new Transfer(29, 10_000_000, 1000, 1, false).attach(p);
        t.series = new Series(BIN, 90 * S);
        t.sendUntilNanos = SEND_UNTIL;
        p.connectAt(0);
        assertTrue(
                p.sim.runUntil(t::complete, 200 * S),
                name + ": all sent delivered; sent " + t.sent() + " delivered " + t.deliveredCount);
        assertEquals(0, t.lost() + t.duplicated + t.misordered + t.corrupted, name + ": lost/dup/misordered/corrupt");
        Series s = t.series;
        s.writeCsv(Path.of("target", "plots", "failover-" + name + ".csv"));
        Plot.write(
                Path.of("target", "plots", "failover-" + name + ".png"),
                "Thesis failover schedule, " + name + " (LAN profile, 2 x 10 Mb/s)",
                s,
                30,
                MARKS,
                LABELS);
        Run r = new Run(
                name,
                s,
                s.zeroBins(S, SEND_UNTIL),
                s.meanMbps(5 * S, 15 * S),
                s.meanMbps(16 * S, 35 * S),
                s.meanMbps(40 * S, 55 * S));
        System.out.printf(
                "%-7s zero 100 ms windows in 1..85 s: %3d; mean Mb/s: both up %.2f, primary down %.2f, back %.2f;"
                        + " min per window around cuts: 15 s %.2f, 55 s %.2f%n",
                name,
                r.zeroBins(),
                r.before(),
                r.primaryDown(),
                r.both(),
                minMbps(s, 15 * S, 17 * S),
                minMbps(s, 55 * S, 57 * S));
        return r;
    }

    static double minMbps(Series s, long from, long to) {
        double m = Double.MAX_VALUE;
        for (int i = (int) (from / BIN); i < to / BIN; i++) {
            m = Math.min(m, s.mbps(i));
        }
        return m;
    }

    @Test
    void plainSctpCmtAndCmtPfOnTheThesisSchedule() {
        SctpOptions plainOpts = lan().toBuilder().potentiallyFailedOff().build();
        Run plain = run("sctp", plainOpts);
        Run cmt = run("cmt", plainOpts.toBuilder().cmt(true).cmtDelayedAck(true).build());
        Run cmtPf = run(
                "cmt-pf",
                lan().toBuilder().cmt(true).cmtDelayedAck(true).pfMaxRetrans(0).build());
        assertEquals(0, cmtPf.zeroBins(), "CMT-PF goodput dropped to zero in some 100 ms window");
        assertTrue(plain.zeroBins() > 0, "plain SCTP stalls while it detects the failure");
        assertTrue(cmt.before() > 1.8 * plain.before(), "CMT uses both paths while both are up");
        assertTrue(cmtPf.before() > 1.8 * plain.before(), "CMT-PF uses both paths while both are up");
    }
}
