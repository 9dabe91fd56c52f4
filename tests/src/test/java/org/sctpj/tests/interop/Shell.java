package org.sctpj.tests.interop;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the system programs the topologies need ({@code ip}, {@code nft}), bounded in time (also used by the kernel peer). */
public final class Shell {
    private Shell() {}

    /** Runs {@code command}, feeding {@code stdin} (may be null); returns its output; throws if it fails. */
    public static String run(List<String> command, String stdin) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (OutputStream in = p.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        }
        try {
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("timed out after 20 s: " + String.join(" ", command));
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", command), e);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " exited with " + p.exitValue() + ": " + out.strip());
        }
        return out;
    }

    /** Runs a command given as words. */
    public static String run(String... command) throws IOException {
        return run(List.of(command), null);
    }

    /** Runs {@code command} inside network namespace {@code ns} ({@code ip netns exec}). */
    public static String inNamespace(String ns, List<String> command, String stdin) throws IOException {
        List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", ns));
        c.addAll(command);
        return run(c, stdin);
    }

    /** True when {@code program} is on the PATH (or in /usr/sbin, /sbin). */
    public static boolean has(String program) {
        for (String dir : (System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin").split(":")) {
            if (!dir.isEmpty() && new java.io.File(dir, program).canExecute()) {
                return true;
            }
        }
        return false;
    }
}
