package org.sctpj.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recording and replaying a journal attempts no connection outside loopback: Chronicle's usage
 * analytics (which would resolve and contact an outside host when a queue is first built) are off.
 *
 * <p>How it is observed: a child JVM ({@link PhoneHomeProbe}) records and replays a journal under
 * {@code strace}, which logs every {@code connect}, {@code sendto} and {@code sendmsg} system call
 * with its address, inside a fresh network namespace that has only loopback (so an attempt is seen
 * but cannot reach anything). Any IPv4 or IPv6 address other than loopback in that log fails the
 * test; a DNS lookup would show as a connection to the resolver. A control run, in which the probe
 * tries one connection to a documentation address, shows that the observation catches such an
 * attempt. The child's home directory is a fresh one, and must stay without Chronicle's analytics
 * client-id file. Needs root (the namespace) and strace: skipped otherwise, failing under CI.
 */
class NoPhoneHomeTest {

    private static final Pattern V4 = Pattern.compile("sin_addr=inet_addr\\(\"([0-9.]+)\"\\)");
    private static final Pattern V6 = Pattern.compile("inet_pton\\(AF_INET6, \"([0-9a-fA-F:.]+)\"");

    @TempDir
    Path tmp;

    @Test
    void recordingAndReplayingAttemptNoConnectionOutsideLoopback() throws Exception {
        requireTools();
        List<String> outside = outsideAttempts(run("plain", false));
        assertEquals(List.of(), outside, "connection attempts outside loopback");
        try (Stream<Path> s = Files.walk(tmp.resolve("plain-home"))) {
            assertFalse(
                    s.anyMatch(p -> p.getFileName().toString().contains("chronicle.analytics")),
                    "Chronicle wrote its analytics client-id file");
        }
    }

    @Test
    void theObservationSeesAnAttemptOutsideLoopback() throws Exception {
        requireTools();
        List<String> outside = outsideAttempts(run("control", true));
        assertTrue(outside.stream().anyMatch(l -> l.contains("192.0.2.1")), "the control attempt was not seen");
    }

    private static void requireTools() {
        boolean ok = "root".equals(System.getProperty("user.name"))
                && new File("/usr/bin/strace").canExecute()
                && new File("/usr/bin/unshare").canExecute();
        if (!ok && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("NoPhoneHomeTest needs root, strace and unshare (./test.sh installs strace)");
        }
        assumeTrue(ok, "needs root, /usr/bin/strace and /usr/bin/unshare: skipped");
    }

    /** Runs the probe in a loopback-only namespace under strace; returns the strace log. */
    private Path run(String name, boolean control) throws IOException, InterruptedException {
        Path log = tmp.resolve(name + ".strace");
        Path home = Files.createDirectories(tmp.resolve(name + "-home"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(
                "/usr/bin/unshare",
                "-n",
                "--",
                "/bin/sh",
                "-c",
                "ip link set lo up 2>/dev/null; exec \"$@\"",
                "sh",
                "/usr/bin/strace",
                "-f",
                "-qq",
                "-e",
                "trace=connect,sendto,sendmsg,sendmmsg",
                "-o",
                log.toString(),
                java));
        for (String f : System.getProperty("journal.test.jvmflags", "").split(" ")) {
            if (!f.isBlank()) {
                cmd.add(f);
            }
        }
        cmd.addAll(List.of(
                "-Duser.home=" + home,
                "-cp",
                System.getProperty("java.class.path"),
                PhoneHomeProbe.class.getName(),
                tmp.resolve(name + "-journal").toString()));
        if (control) {
            cmd.add("--control");
        }
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(tmp.resolve(name + ".out").toFile())
                .start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the probe did not finish");
        String out = Files.readString(tmp.resolve(name + ".out"), StandardCharsets.UTF_8);
        System.out.print(out);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("replay identical"), out);
        assertTrue(out.contains("analytics enabled: false"), out);
        return log;
    }

    /** The strace lines with an IPv4 or IPv6 address that is not loopback. */
    static List<String> outsideAttempts(Path log) throws IOException {
        List<String> found = new ArrayList<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            Matcher m4 = V4.matcher(line);
            while (m4.find()) {
                if (!m4.group(1).startsWith("127.")) {
                    found.add(line);
                }
            }
            Matcher m6 = V6.matcher(line);
            while (m6.find()) {
                String a = m6.group(1);
                if (!a.equals("::1") && !a.startsWith("::ffff:127.")) {
                    found.add(line);
                }
            }
        }
        return found;
    }
}
