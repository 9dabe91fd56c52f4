package org.sctpj.timers.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.sctpj.timers.StackThread;

/**
 * The probe loads the JFR event classes only once JFR runs: loading them makes the JDK instrument
 * them, which costs every process that never records.
 */
class JfrProbeTest {

    /** Run in a fresh JVM: a stack thread and its probe, with no recording. */
    public static final class Child {
        public static void main(String[] args) {
            StackThread t = new StackThread();
            System.out.println("enabled=" + JfrProbe.INSTANCE.enabled() + " thread=" + t.name());
        }
    }

    @Test
    void withoutARecordingNoEventClassIsLoaded() throws Exception {
        Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
        // surefire puts the modules on the module path: the child takes them on its class path
        String cp =
                System.getProperty("java.class.path") + File.pathSeparator + System.getProperty("jdk.module.path", "");
        Process p = new ProcessBuilder(javaBin.toString(), "-Xlog:class+load=info", "-cp", cp, Child.class.getName())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the child JVM did not end");
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("enabled=false"), out);
        assertTrue(out.contains("org.sctpj.timers.jfr.JfrProbe "), "the probe itself is loaded");
        for (String event : List.of(
                "AssociationStateEvent", "PathStatusEvent", "RetransmissionTimeoutEvent", "FastRetransmitEvent")) {
            assertFalse(out.contains("org.sctpj.timers.jfr." + event + " "), event + " was loaded without a recording");
        }
    }

    @Test
    void onceARecordingRunsTheProbeIsEnabled() {
        try (Recording r = new Recording()) {
            r.enable("org.sctpj.PathStatus");
            r.start();
            assertTrue(JfrProbe.INSTANCE.enabled());
        }
    }
}
