package org.sctpj.journal;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code stats DIR}: the counters of a journal ({@link JournalStats}): packets and bytes each way,
 * chunks by type, DATA retransmitted, SACK gaps, timers, sends, messages, events. The same as
 * {@code journal DIR --stats}. Exit code 0, 2 for a bad argument.
 */
@Command(
        name = "stats",
        mixinStandardHelpOptions = true,
        description = {
            "Prints the counters of a journal: packets and bytes each way, chunks by type, DATA"
                    + " retransmitted, SACK gap blocks, timer runs, sends, messages and events (MB = 10^6 bytes).",
            "Exit code: 0 done, 2 a bad argument."
        })
public final class StatsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "the journal's directory (a JournalRecorder's)")
    Path dir;

    /** Prints the counters; the exit code. */
    @Override
    public Integer call() throws Exception {
        if (!Files.isDirectory(dir)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), dir + " is not a directory: give the directory a journal was recorded to");
        }
        java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
        JournalStats.of(dir).print(new PrintStream(text, true, StandardCharsets.UTF_8));
        spec.commandLine().getOut().print(text.toString(StandardCharsets.UTF_8));
        spec.commandLine().getOut().flush();
        return 0;
    }

    /** Runs the command on its own: {@code java ... org.sctpj.journal.StatsCommand DIR}. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new StatsCommand()).execute(args));
    }
}
