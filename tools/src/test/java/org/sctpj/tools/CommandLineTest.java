package org.sctpj.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The command line refuses what it cannot run: every option of every command given a bad value,
 * unknown commands and options, each answered with exactly one line on standard error, nothing on
 * standard output, exit code 2, no stack trace, and nothing started.
 */
class CommandLineTest {

    record Run(int code, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    /** Each: a command line with one bad value (or unknown word), and a word the message must name. */
    static Stream<List<String>> refused() {
        return Stream.of(
                List.of("--mode", "perf", "--mode", "sideways"),
                List.of("--api", "perf", "--api", "rest"),
                List.of("--sizes", "perf", "--sizes", "100,abc"),
                List.of("--sizes", "perf", "--sizes", "0"),
                List.of("--sizes", "perf", "--sizes", "3Gi"),
                List.of("--duration", "perf", "--duration", "soon"),
                List.of("--duration", "perf", "--duration", "0s"),
                List.of("--bytes", "perf", "--bytes", "-5"),
                List.of("--bytes", "perf", "--bytes", "12X"),
                List.of("--threshold", "perf", "--threshold", "maybe"),
                List.of("--streams", "perf", "--streams", "0"),
                List.of("--streams", "perf", "--streams", "70000"),
                List.of("--profile", "perf", "--profile", "moon"),
                List.of("--host", "perf", "--host", "no.such.host.invalid"),
                List.of("--port", "perf", "--port", "70000"),
                List.of("--udp-port", "perf", "--udp-port", "-1"),
                List.of("--remote-udp-port", "perf", "--remote-udp-port", "x"),
                List.of("--csv", "perf", "--csv=perhaps"),
                List.of("--json", "perf", "--json", "--csv"),
                List.of("--plot", "perf", "--plot", "/no/such/directory/plot.png"),
                List.of("--pcap", "perf", "--pcap", "/no/such/directory/run.pcap"),
                List.of("--pcap", "echo", "--pcap", "/no/such/directory/run.pcap"),
                List.of("--progress", "perf", "--progress=sometimes"),
                List.of("--quiet", "perf", "--quiet=loud"),
                List.of("--unordered", "perf", "--unordered=yes please"),
                List.of("--duration", "--duration", "soon"), // options alone go to perf
                List.of("ROLE", "echo", "sideways"),
                List.of("--host", "echo", "--host", "no.such.host.invalid"),
                List.of("--port", "echo", "--port", "65536"),
                List.of("--udp-port", "echo", "server", "--udp-port", "port"),
                List.of("--remote-udp-port", "echo", "client", "--remote-udp-port", "-2"),
                List.of("--count", "echo", "--count", "0"),
                List.of("--size", "echo", "--size", "big"),
                List.of("--streams", "echo", "--streams", "-1"),
                List.of("--journal", "echo", "--journal", "/no/such/directory/journal"),
                List.of("--csv", "echo", "--csv=perhaps"),
                List.of("--json", "echo", "--json", "--csv"),
                List.of("--csv", "echo", "server", "--csv"),
                List.of("--json", "echo", "server", "--json"),
                List.of("HEX", "demo", "not-hex"),
                List.of("--sise", "perf", "--sise", "100"),
                List.of("frobnicate", "frobnicate"),
                List.of("--nope", "echo", "--nope"),
                List.of("--nope", "demo", "--nope"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void aBadValueIsRefusedInOneLineWithExitCode2(List<String> c) {
        String[] args = c.subList(1, c.size()).toArray(String[]::new);
        Run r = run(args);
        assertEquals(2, r.code, "exit code of " + c + "; err: " + r.err);
        assertEquals("", r.out, "nothing on standard output for " + c);
        String err = r.err.strip();
        assertFalse(err.isEmpty(), "a message for " + c);
        assertFalse(err.contains("\n"), "one line for " + c + ", got:\n" + r.err);
        assertTrue(err.startsWith("sctpj: "), err);
        assertTrue(err.contains(c.get(0)), "the message names " + c.get(0) + ": " + err);
        assertFalse(err.contains("Exception") || err.contains("\tat "), "no stack trace: " + err);
    }

    @Test
    void aMisspeltOptionDoesNotStartASweep() {
        long t0 = System.nanoTime();
        Run r = run("--sizes", "100", "--duraton", "1s");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(2, r.code, r.err);
        assertTrue(r.err.contains("did you mean --duration?"), r.err);
        assertFalse(r.out.contains("sctpj perf"), "no sweep started: " + r.out);
        assertTrue(
                Thread.getAllStackTraces().keySet().stream()
                        .noneMatch(t -> t.getName().startsWith("perf")),
                "no stack thread was started");
        assertTrue(ms < 3000, "refused at once, took " + ms + " ms");
    }

    @Test
    void aRunThatFailsExitsNonZeroInOneLine() {
        // A client to a port nobody listens on: the association cannot start.
        Run r = run(
                "perf",
                "--mode",
                "client",
                "--host",
                "127.0.0.1",
                "--port",
                "9",
                "--remote-udp-port",
                "9",
                "--sizes",
                "100",
                "--duration",
                "200ms",
                "--quiet");
        assertEquals(1, r.code, r.err);
        assertFalse(r.err.strip().contains("\n"), r.err);
        assertTrue(r.err.startsWith("sctpj perf: failed: "), r.err);
    }

    @Test
    void csvAndJsonAndThePlotOfAShortLoopbackRun(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path png = dir.resolve("t.png");
        Run csv = run("perf", "--sizes", "1000,2k", "--duration", "200ms", "--csv", "--plot", png.toString());
        assertEquals(0, csv.code, csv.err);
        String[] lines = csv.out.strip().split("\n");
        assertEquals(3, lines.length, csv.out);
        assertTrue(lines[0].startsWith("size_bytes,bytes,messages,seconds,MB_per_s"), lines[0]);
        assertTrue(lines[0].endsWith(",chunks_retransmitted,timeouts,fast_retransmits,srtt_us"), lines[0]);
        assertEquals(12, lines[1].split(",", -1).length, lines[1]);
        assertTrue(lines[1].startsWith("1000,") && lines[2].startsWith("2000,"), csv.out);
        java.awt.image.BufferedImage img = javax.imageio.ImageIO.read(png.toFile());
        assertEquals(900, img.getWidth());
        Run json = run("perf", "--sizes", "1000", "--duration", "200ms", "--json");
        assertEquals(0, json.code, json.err);
        assertTrue(
                json.out.strip().startsWith("{\"run\":\"loopback")
                        && json.out.contains("\"size_bytes\":1000")
                        && json.out.contains("\"srtt_us\":"),
                json.out);
        assertFalse(json.out.contains("\r"), "no progress line off a terminal");
        assertFalse(csv.err.contains("\r"), "no progress line off a terminal");
    }

    /**
     * The sending window starts when the association is up: a handshake slower than the window
     * (here 1 ms, shorter than any handshake) no longer leaves the socket-API sender no time, a
     * "successful" run of 0 bytes.
     */
    @Test
    void echoRecordsAJournalThatReplaysAndExportsToPcapng(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        java.nio.file.Path journals = dir.resolve("journals");
        Run echo = run("echo", "--count", "30", "--journal", journals.toString());
        assertEquals(0, echo.code, echo.err);
        java.nio.file.Path journal;
        try (Stream<java.nio.file.Path> s = java.nio.file.Files.list(journals)) {
            journal = s.filter(p -> p.getFileName().toString().startsWith("port-"))
                    .findFirst()
                    .orElseThrow();
        }
        Run replay = run("replay", journal.toString());
        assertEquals(0, replay.code, replay.out + replay.err);
        assertTrue(replay.out.startsWith("replay identical"), replay.out);
        assertFalse(replay.out.contains("note:"), "the journal is whole: " + replay.out);
        java.nio.file.Path ng = dir.resolve("echo.pcapng");
        Run export = run("journal", journal.toString(), "--pcap", ng.toString(), "--format", "pcapng");
        assertEquals(0, export.code, export.err);
        assertTrue(java.nio.file.Files.size(ng) > 30 * 2 * 100, "60 echoes and more: " + java.nio.file.Files.size(ng));
    }

    @Test
    void echoGivesItsRoundTripsAsCsvOrJson() {
        Run csv = run("echo", "--count", "50", "--size", "200", "--csv");
        assertEquals(0, csv.code, csv.err);
        String[] lines = csv.out.strip().split("\n");
        assertEquals(2, lines.length, "a header and one row, nothing else on standard output: " + csv.out);
        assertEquals("messages,size_bytes,streams,rtt_median_us,rtt_p99_us,rtt_max_us", lines[0]);
        assertTrue(lines[1].matches("50,200,1,[0-9.]+,[0-9.]+,[0-9.]+"), lines[1]);
        Run json = run("echo", "--count", "50", "--json");
        assertEquals(0, json.code, json.err);
        String o = json.out.strip();
        assertFalse(o.contains("\n"), "one line: " + o);
        assertTrue(
                o.startsWith("{\"run\":\"echo")
                        && o.endsWith("}")
                        && o.contains("\"messages\":50")
                        && o.contains("\"size_bytes\":100")
                        && o.contains("\"rtt_median_us\":"),
                o);
    }

    @Test
    void theSendingWindowStartsOnceTheAssociationIsUp() {
        for (String api : new String[] {"socket", "callback"}) {
            Run r = run("perf", "--api", api, "--sizes", "1000", "--duration", "1ms", "--csv");
            assertEquals(0, r.code, r.err);
            String row = r.out.strip().split("\n")[1];
            long messages = Long.parseLong(row.split(",")[2]);
            assertTrue(messages > 0, api + " API sent nothing: " + row);
        }
    }
}
