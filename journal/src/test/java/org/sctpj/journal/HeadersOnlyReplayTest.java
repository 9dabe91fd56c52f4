package org.sctpj.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sctpj.stack.Extension;
import org.sctpj.stack.SctpOptions;

/**
 * A journal recorded with headers only (format 3) replays with zeros for the user data: a lossy run
 * replays identically on both sides, packets that arrived corrupted (and were dropped for their
 * checksum) are dropped again in the replay, and an association that authenticates its DATA is
 * refused in one line.
 */
@org.junit.jupiter.api.Timeout(300)
class HeadersOnlyReplayTest {

    @TempDir
    Path tmp;

    @Test
    void aLossyRunRecordedWithHeadersOnlyReplaysIdentically() throws IOException {
        SimulatedRun r = new SimulatedRun(tmp.resolve("a"), tmp.resolve("z"));
        r.settings = b -> b.headersOnly(true);
        r.run(21, 0.03, 300);
        assertEquals(300, r.delivered);
        ReplayResult a = Replay.run(r.dirA);
        assertTrue(a.identical() && a.complete(), a.report());
        ReplayResult z = Replay.run(r.dirZ);
        assertTrue(z.identical() && z.complete(), z.report());
        assertTrue(a.outputsChecked() > 300 && z.outputsChecked() > 300, a.report() + z.report());
        System.out.print("A: " + a.report() + "Z: " + z.report());
    }

    @Test
    void packetsDroppedForTheirChecksumAreDroppedAgainInTheReplay() throws IOException {
        SimulatedRun r = new SimulatedRun(tmp.resolve("a"), tmp.resolve("z"));
        r.settings = b -> b.headersOnly(true);
        r.corrupt = 0.02;
        r.run(23, 0, 300);
        assertTrue(r.totals.corruptedDelivered() > 5, "corrupted packets: " + r.totals);
        long bad = count(r.dirZ, Kind.BAD_CHECKSUM) + count(r.dirA, Kind.BAD_CHECKSUM);
        assertTrue(bad > 5, "BAD_CHECKSUM entries: " + bad);
        ReplayResult a = Replay.run(r.dirA);
        assertTrue(a.identical(), a.report());
        ReplayResult z = Replay.run(r.dirZ);
        assertTrue(z.identical(), z.report());
    }

    @Test
    void anAssociationThatAuthenticatesItsDataIsRefusedInOneLine() throws IOException {
        SctpOptions auth = SctpOptions.DEFAULTS.toBuilder()
                .enable(Extension.AUTH)
                .authChunks(Set.of(0))
                .build();
        SimulatedRun r = new SimulatedRun(tmp.resolve("a"), tmp.resolve("z"));
        r.settings = b -> b.headersOnly(true);
        r.optionsA = auth;
        r.optionsZ = auth;
        r.run(25, 0, 50);
        assertEquals(50, r.delivered);
        ReplayResult z = Replay.run(r.dirZ);
        assertFalse(z.identical());
        String what = z.difference().orElseThrow().what();
        assertTrue(what.contains("SCTP-AUTH") && !what.contains("\n"), what);
    }

    static long count(Path dir, Kind kind) throws IOException {
        long n = 0;
        try (JournalReader in = JournalReader.open(dir)) {
            while (in.hasNext()) {
                if (in.next().kind() == kind) {
                    n++;
                }
            }
        }
        return n;
    }
}
