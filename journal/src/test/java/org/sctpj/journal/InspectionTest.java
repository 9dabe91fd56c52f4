package org.sctpj.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import net.openhft.chronicle.core.time.SetTimeProvider;
import net.openhft.chronicle.queue.RollCycles;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpOptions;
import org.sctpj.trace.TsharkJudge;
import org.sctpj.trace.Verdict;
import picocli.CommandLine;

/** The journal and replay commands, the pcap export judged by tshark, the counters, retention. */
class InspectionTest {

    @TempDir
    static Path tmp;

    static SimulatedRun run;

    @BeforeAll
    static void record() throws IOException {
        run = new SimulatedRun(tmp.resolve("a"), tmp.resolve("z")).run(11, 0.03, 300);
        assertEquals(300, run.delivered);
    }

    record Result(int code, String out, String err) {}

    static Result cli(Object command, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(command);
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void theTimelineShowsChunksStateChangesCwndAndRto() {
        Result r = cli(new JournalCommand(), run.dirA.toString(), "--limit", "100000");
        assertEquals(0, r.code(), r.err());
        String o = r.out();
        assertTrue(o.contains("state COOKIE_WAIT") || o.contains("state COOKIE-WAIT"), head(o));
        assertTrue(o.contains("state ESTABLISHED"), head(o));
        assertTrue(o.contains("INIT(itag"), head(o));
        assertTrue(o.contains("DATA(tsn"), head(o));
        assertTrue(o.contains("SACK(cum"), head(o));
        assertTrue(o.contains("cwnd ") && o.contains(" rto "), head(o));
        assertTrue(o.contains("event AssociationChange"), head(o));
    }

    @Test
    void theAssociationsAreListed() {
        Result r = cli(new JournalCommand(), run.dirZ.toString(), "--associations");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("1 ") && l.contains("10.0.0.1")), r.out());
    }

    @Test
    void theExportedPcapDecodesInTsharkWithNothingMalformed() throws IOException {
        Path raw = tmp.resolve("a.pcap");
        Result r = cli(new JournalCommand(), run.dirA.toString(), "--pcap", raw.toString());
        assertEquals(0, r.code(), r.err());
        long packets =
                JournalStats.of(run.dirA).packetsIn + JournalStats.of(run.dirA).packetsOut();
        assertTrue(r.out().contains("wrote " + packets + " packets"), r.out());
        Verdict v = new TsharkJudge().judge(raw);
        assertEquals(0, v.malformed(), v.report());
        assertEquals(packets, v.packets(), v.report());
        assertTrue(v.clean(), v.report());
        Path udp = tmp.resolve("a-udp.pcap");
        PcapExport.export(run.dirA, udp, 9899);
        Verdict vu = new TsharkJudge().judge(udp);
        assertEquals(packets, vu.packets(), vu.report());
        assertTrue(vu.clean(), vu.report());
    }

    @Test
    void thePcapngExportHasAnInterfacePerPathDirectionsAndCommentsAndDecodesCleanly() throws Exception {
        java.util.Optional<Path> tshark = java.util.stream.Stream.of(
                        System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                .map(d -> Path.of(d, "tshark"))
                .filter(Files::isExecutable)
                .findFirst();
        org.junit.jupiter.api.Assumptions.assumeTrue(
                tshark.isPresent(), "tshark is not installed (./test.sh installs it: apt-get install -y tshark)");
        Path ng = tmp.resolve("a.pcapng");
        Result r = cli(new JournalCommand(), run.dirA.toString(), "--pcap", ng.toString(), "--format", "pcapng");
        assertEquals(0, r.code(), r.err());
        long packets =
                JournalStats.of(run.dirA).packetsIn + JournalStats.of(run.dirA).packetsOut();
        assertTrue(r.out().contains("wrote " + packets + " packets"), r.out());
        Verdict v = new TsharkJudge().judge(ng);
        assertEquals(0, v.malformed(), v.report());
        assertEquals(packets, v.packets(), v.report());
        assertTrue(v.clean(), v.report());
        // Each packet: its path's interface, its direction (0 sent, 1 received) and its journal entry.
        Process p = new ProcessBuilder(
                        tshark.get().toString(),
                        "-r",
                        ng.toString(),
                        "-T",
                        "fields",
                        "-e",
                        "frame.interface_name",
                        "-e",
                        "frame.p2p_dir",
                        "-e",
                        "frame.comment")
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        List<String> lines = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                .lines()
                .toList();
        assertEquals(0, p.waitFor());
        assertEquals(packets, lines.size());
        assertTrue(lines.get(0).matches("10\\.0\\.0\\.1 - 10\\.0\\.1\\.1\t0\tjournal entry \\d+"), lines.get(0));
        assertTrue(lines.stream().anyMatch(l -> l.contains("\t1\tjournal entry ")), "received packets");
        SimulatedRun headers = new SimulatedRun(tmp.resolve("ng-a"), tmp.resolve("ng-z"));
        headers.settings = b -> b.headersOnly(true);
        headers.run(2, 0, 20);
        Path hng = tmp.resolve("headers.pcapng");
        PcapExport.export(headers.dirA, hng, 9899, PcapExport.Format.pcapng);
        Verdict vh = new TsharkJudge().judge(hng);
        assertEquals(0, vh.malformed(), vh.report());
    }

    @Test
    void aHeadersOnlyJournalExportsCleanlyAndReplaysWithZeros() throws IOException {
        Path dir = tmp.resolve("headers");
        try (JournalRecorder rec =
                JournalRecorder.builder(dir).headersOnly(true).open()) {
            SimulatedRun.recordedPair(rec, 5);
        }
        Path pcap = tmp.resolve("headers.pcap");
        long n = PcapExport.export(dir, pcap, 0);
        assertTrue(n > 5, "packets " + n);
        Verdict v = new TsharkJudge().judge(pcap);
        assertTrue(v.clean(), v.report());
        assertEquals(n, v.packets());
        Result r = cli(new ReplayCommand(), dir.toString());
        assertEquals(0, r.code(), r.out());
        assertTrue(r.out().contains("replay identical"), r.out());
    }

    @Test
    void theCountersSeeTheRetransmissionsOfALossyRun() throws IOException {
        JournalStats s = JournalStats.of(run.dirA);
        assertTrue(s.dataRetransmitted() > 0, "retransmissions");
        assertTrue(s.dataOut >= 300 + s.dataRetransmitted());
        Result r = cli(new JournalCommand(), run.dirA.toString(), "--stats");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("DATA out, retransmitted " + s.dataOut + ", " + s.dataRetransmitted()), r.out());
        Result st = cli(new StatsCommand(), run.dirA.toString());
        assertEquals(0, st.code(), st.err());
        assertEquals(r.out(), st.out());
    }

    @Test
    void replayExitsZeroWhenIdenticalAndTwoOnABadArgument() {
        Result ok = cli(new ReplayCommand(), run.dirZ.toString());
        assertEquals(0, ok.code(), ok.err());
        assertTrue(ok.out().startsWith("replay identical"), ok.out());
        Result missing = cli(new ReplayCommand(), tmp.resolve("nowhere").toString());
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("is not a directory"), missing.err());
        Result unknown = cli(new JournalCommand(), run.dirZ.toString(), "--bogus");
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().contains("Unknown option"), unknown.err());
        Result badPort = cli(new JournalCommand(), run.dirZ.toString(), "--pcap", "x.pcap", "--udp-port", "70000");
        assertEquals(2, badPort.code());
        assertTrue(badPort.err().contains("--udp-port"), badPort.err());
    }

    @Test
    void retentionKeepsTheNewestCycles() throws IOException {
        Path dir = tmp.resolve("retention");
        SetTimeProvider clock = new SetTimeProvider(1_700_000_000_000L * 1_000_000L);
        try (JournalRecorder rec = JournalRecorder.builder(dir)
                .rollCycle(RollCycles.TEST_SECONDLY)
                .retainCycles(2)
                .batchBytes(1)
                .clock(clock)
                .open()) {
            Endpoint ep = new Endpoint(
                    5000, List.of(SimulatedRun.ip("10.0.0.1")), SctpOptions.DEFAULTS, new SplittableRandom(1), 0, rec);
            for (int i = 0; i < 6; i++) {
                ep.handleTimeout(i);
                rec.flush(); // written by the writer thread before the clock moves on
                clock.advanceMillis(1_000);
            }
            ep.handleTimeout(7);
        }
        try (Stream<Path> s = Files.list(dir)) {
            List<String> cycles = s.map(f -> f.getFileName().toString())
                    .filter(f -> f.endsWith(".cq4"))
                    .sorted()
                    .toList();
            assertEquals(2, cycles.size(), cycles.toString());
        }
    }

    private static String head(String s) {
        return s.length() > 4000 ? s.substring(0, 4000) : s;
    }
}
