package org.sctpj.journal;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code replay DIR}: replays the journal in DIR into a fresh endpoint on a virtual clock and checks
 * every output byte for byte ({@link Replay}). Exit code 0 when identical, 1 at the first difference
 * (printed with its context), 2 for a bad argument.
 */
@Command(
        name = "replay",
        mixinStandardHelpOptions = true,
        description = {
            "Replays a journal into a fresh endpoint on a virtual clock and checks that every packet and"
                    + " event is the same, byte for byte; prints the first difference with its context.",
            "Exit code: 0 identical, 1 a difference, 2 a bad argument."
        })
public final class ReplayCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "the journal's directory (a JournalRecorder's)")
    Path dir;

    @picocli.CommandLine.Option(
            names = "--instance",
            paramLabel = "NAME=CLASS",
            description = "build an instance of CLASS (public no-arg constructor) wherever the journal names NAME"
                    + " (a custom congestion controller factory or address selector recorded by class name)")
    java.util.Map<String, String> instances = new java.util.LinkedHashMap<>();

    @picocli.CommandLine.Option(
            names = "--class-path",
            paramLabel = "PATH",
            split = ":",
            description = "jars or directories holding the classes the journal names (the recorded application's)")
    java.util.List<Path> classPath = new java.util.ArrayList<>();

    /** Runs the replay and prints its report; the exit code. */
    @Override
    public Integer call() throws Exception {
        if (!Files.isDirectory(dir)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), dir + " is not a directory: give the directory a journal was recorded to");
        }
        PrintWriter out = spec.commandLine().getOut();
        java.net.URL[] urls = new java.net.URL[classPath.size()];
        for (int i = 0; i < urls.length; i++) {
            if (!Files.exists(classPath.get(i))) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "--class-path: " + classPath.get(i) + " does not exist");
            }
            urls[i] = classPath.get(i).toUri().toURL();
        }
        ClassLoader loader = new java.net.URLClassLoader(urls, ReplayCommand.class.getClassLoader());
        java.util.Map<String, java.util.function.Supplier<?>> substitutes = new java.util.HashMap<>();
        for (var m : instances.entrySet()) {
            Class<?> c;
            try {
                c = Class.forName(m.getValue(), true, loader);
                c.getConstructor();
            } catch (ClassNotFoundException | NoSuchMethodException | LinkageError x) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(),
                        "--instance " + m.getKey() + "=" + m.getValue() + ": no class " + m.getValue()
                                + " with a public no-arg constructor on the class path (add its jar with --class-path)");
            }
            substitutes.put(m.getKey(), () -> {
                try {
                    return c.getConstructor().newInstance();
                } catch (ReflectiveOperationException x) {
                    throw new IllegalArgumentException("cannot build " + c.getName() + ": " + x, x);
                }
            });
        }
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        t.setContextClassLoader(loader);
        ReplayResult r;
        try {
            r = Replay.run(dir, substitutes);
        } finally {
            t.setContextClassLoader(before);
        }
        out.print(r.report());
        out.flush();
        return r.identical() ? 0 : 1;
    }

    /** Runs the command on its own: {@code java ... org.sctpj.journal.ReplayCommand DIR}. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new ReplayCommand()).execute(args));
    }
}
