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

    /** Runs the replay and prints its report; the exit code. */
    @Override
    public Integer call() throws Exception {
        if (!Files.isDirectory(dir)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), dir + " is not a directory: give the directory a journal was recorded to");
        }
        PrintWriter out = spec.commandLine().getOut();
        ReplayResult r = Replay.run(dir);
        out.print(r.report());
        out.flush();
        return r.identical() ? 0 : 1;
    }

    /** Runs the command on its own: {@code java ... org.sctpj.journal.ReplayCommand DIR}. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new ReplayCommand()).execute(args));
    }
}
