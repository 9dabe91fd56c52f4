package org.sctpj.tests.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** An {@link E2ePeer} in a child JVM started with this JVM's class path; its output lines in a queue. */
final class Child implements AutoCloseable {
    final Process process;
    final int sctpPort;
    final int udpPort;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    Child(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx512m");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(E2ePeer.class.getName());
        cmd.addAll(List.of(args));
        process = new ProcessBuilder(cmd)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader r = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                        String l;
                        while ((l = r.readLine()) != null) {
                            lines.add(l);
                        }
                    } catch (IOException e) {
                        lines.add("ERROR " + e);
                    }
                },
                "child-reader");
        reader.setDaemon(true);
        reader.start();
        String ready = next(30);
        if (!ready.startsWith("READY ")) {
            close();
            throw new IOException("child did not start: " + ready);
        }
        String[] p = ready.split(" ");
        sctpPort = Integer.parseInt(p[1]);
        udpPort = Integer.parseInt(p[2]);
    }

    /** The next output line, waiting up to {@code seconds}. */
    String next(int seconds) throws InterruptedException {
        String l = lines.poll(seconds, TimeUnit.SECONDS);
        if (l == null) {
            throw new AssertionError(
                    "no output from the child within " + seconds + " s (alive: " + process.isAlive() + ")");
        }
        return l;
    }

    @Override
    public void close() {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException | InterruptedException e) {
            process.destroyForcibly();
        }
    }
}
