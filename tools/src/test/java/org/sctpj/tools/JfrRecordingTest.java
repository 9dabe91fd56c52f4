package org.sctpj.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JFR recording of a short {@code ./sctpj perf} run (in this JVM) holds the stack's association
 * and path events, as the JDK's {@code jfr} tool prints them: what a Mission Control user sees.
 */
class JfrRecordingTest {

    @Test
    void theJfrToolFindsTheStackEventsInARecordingOfPerf(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("perf.jfr");
        try (Recording r = new Recording()) {
            r.enable("org.sctpj.AssociationState");
            r.enable("org.sctpj.PathStatus");
            r.enable("org.sctpj.RetransmissionTimeout");
            r.enable("org.sctpj.FastRetransmit");
            r.start();
            CommandLineTest.Run run = CommandLineTest.run("perf", "--sizes", "1000", "--duration", "200ms");
            assertEquals(0, run.code(), run.err());
            r.stop();
            r.dump(file);
        }
        Path jfr = Path.of(System.getProperty("java.home"), "bin", "jfr");
        Process p = new ProcessBuilder(
                        jfr.toString(),
                        "print",
                        "--events",
                        "org.sctpj.AssociationState,org.sctpj.PathStatus",
                        file.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        for (String s : new String[] {
            "org.sctpj.AssociationState",
            "to = \"ESTABLISHED\"",
            "to = \"CLOSED\"",
            "org.sctpj.PathStatus",
            "to = \"ACTIVE\""
        }) {
            assertTrue(out.contains(s), s + " in the jfr tool's output:\n" + out);
        }
    }
}
