package org.sctpj.journal;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code journal DIR}: shows a journal. With no option, its timeline ({@link Timeline}); {@code
 * --associations} lists its associations; {@code --pcap FILE} exports its packets ({@link
 * PcapExport}); {@code --stats} prints its counters ({@link JournalStats}). Exit code 0, 1 when
 * the state could not be derived to the end (the replay differed; what was shown is still printed),
 * 2 for a bad argument.
 */
@Command(
        name = "journal",
        mixinStandardHelpOptions = true,
        description = {
            "Shows a journal: its timeline (packets and chunks, calls, timers, events, and the association"
                    + " state, cwnd and RTO derived by replaying it), its associations, its counters, or"
                    + " exports its packets to a pcap or pcapng file for Wireshark.",
            "Exit code: 0 done, 1 the replay that derives the state stopped at a difference, 2 a bad argument."
        })
public final class JournalCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "the journal's directory (a JournalRecorder's)")
    Path dir;

    @Option(
            names = {"-a", "--associations"},
            description = "list the associations (id, primary peer, last state, first and last packet, packets)")
    boolean associations;

    @Option(
            names = {"-t", "--timeline"},
            description = "print the timeline (the default when no other option is given)")
    boolean timeline;

    @Option(
            names = "--limit",
            paramLabel = "N",
            defaultValue = "500",
            description = "print at most N timeline entries (default ${DEFAULT-VALUE})")
    long limit;

    @Option(names = "--empty-polls", description = "show the polls that found nothing to send")
    boolean emptyPolls;

    @Option(
            names = "--pcap",
            paramLabel = "FILE",
            description = "write the journal's packets to FILE (pcap, or pcapng with --format pcapng)")
    Path pcap;

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            defaultValue = "pcap",
            description = "the export's format: pcap (the default) or pcapng (one interface per path, directions,"
                    + " comments)")
    PcapExport.Format format;

    @Option(
            names = "--udp-port",
            paramLabel = "PORT",
            defaultValue = "0",
            description = "frame the exported packets in UDP on PORT (RFC 6951; 9899 is Wireshark's default"
                    + " for SCTP over UDP); 0, the default, writes SCTP over IP")
    int udpPort;

    @Option(names = "--stats", description = "print counters: packets, bytes, chunks by type, retransmissions")
    boolean stats;

    /** Does what the options ask; the exit code. */
    @Override
    public Integer call() throws Exception {
        CommandLine cl = spec.commandLine();
        if (!Files.isDirectory(dir)) {
            throw new CommandLine.ParameterException(
                    cl, dir + " is not a directory: give the directory a journal was recorded to");
        }
        if (limit < 0) {
            throw new CommandLine.ParameterException(cl, "--limit must be >= 0, was " + limit);
        }
        if (udpPort < 0 || udpPort > 65535) {
            throw new CommandLine.ParameterException(
                    cl, "--udp-port must be 0 (SCTP over IP) or 1..65535, was " + udpPort);
        }
        PrintWriter w = cl.getOut();
        w.flush();
        PrintStream out = new PrintStream(new WriterStream(w), true, java.nio.charset.StandardCharsets.UTF_8);
        boolean ok = true;
        if (pcap != null) {
            long n = PcapExport.export(dir, pcap, udpPort, format);
            out.println("wrote " + n + " packets to " + pcap);
        }
        if (stats) {
            JournalStats.of(dir).print(out);
        }
        if (associations) {
            ok &= Timeline.associations(dir, out).identical();
        }
        if (timeline || (pcap == null && !associations && !stats)) {
            ok &= Timeline.print(dir, out, limit, emptyPolls).identical();
        }
        out.flush();
        return ok ? 0 : 1;
    }

    /** Lets the timeline's PrintStream write to picocli's writer. */
    private static final class WriterStream extends java.io.OutputStream {
        private final PrintWriter w;

        WriterStream(PrintWriter w) {
            this.w = w;
        }

        @Override
        public void write(int b) {
            w.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            w.write(new String(b, off, len, java.nio.charset.StandardCharsets.UTF_8));
        }

        @Override
        public void flush() {
            w.flush();
        }
    }

    /** Runs the command on its own: {@code java ... org.sctpj.journal.JournalCommand DIR [options]}. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new JournalCommand()).execute(args));
    }
}
