package org.sctpj.tests.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The matrix without CAP_NET_RAW (issue 5: "a run without root gives the clear error for raw IP and
 * the UDP-encapsulated cases still run"): a child JVM started through {@code setpriv
 * --bounding-set=-net_raw} runs the handshake cells; the raw IPv4 and IPv6 rows must be skipped
 * with llp-raw's CAP_NET_RAW message and the UDP row must pass.
 */
class RawWithoutCapNetRawTest {

    @Test
    @Timeout(120)
    void rawCellsAreSkippedWithTheCapNetRawMessageAndUdpStillRuns() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root to drop CAP_NET_RAW for a child");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs setpriv (util-linux)");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = List.of(
                "setpriv",
                "--bounding-set=-net_raw",
                "--inh-caps=-net_raw",
                java,
                "-cp",
                System.getProperty("java.class.path"),
                "-Dsctpj.interop.case=handshake",
                "-Dsctpj.interop.peer=usrsctp",
                "-Dsctpj.interop.direction=we-client",
                InteropMatrix.class.getName());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        assertTrue(p.waitFor(100, TimeUnit.SECONDS), "child JVM did not finish");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        List<String> rows = out.lines().filter(l -> l.startsWith("usrsctp ")).toList();
        assertEquals(3, rows.size(), out);
        assertTrue(rows.get(0).matches("usrsctp +udp +we-client +handshake +pass .*"), out);
        for (String raw : List.of("raw4", "raw6")) {
            String row = rows.stream()
                    .filter(r -> r.contains(" " + raw + " "))
                    .findFirst()
                    .orElseThrow();
            assertTrue(row.matches("usrsctp +" + raw + " +we-client +handshake +skipped .*"), row);
            assertTrue(row.contains("Raw SCTP needs CAP_NET_RAW"), row);
        }
        assertTrue(out.strip().endsWith("1 passed, 0 failed"), out);
    }
}
