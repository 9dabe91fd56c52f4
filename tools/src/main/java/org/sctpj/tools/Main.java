package org.sctpj.tools;

import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Callable;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ChecksumPolicy;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.chunk.Chunk;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Entry point of the {@code ./sctpj} script: the command line, parsed by picocli.
 *
 * <p>Commands: {@code perf} (the default: a loopback bandwidth sweep; options given without a
 * command go to it), {@code echo}, {@code demo [hex]} (decodes an SCTP packet, by default a real
 * INIT sent by usrsctp 0.9.5.0 to Linux 6.1), {@code help [command]}. A command is a picocli
 * {@code @Command} class; adding one is one line in {@link #COMMANDS}.
 *
 * <p>Exit codes: 0 success; 1 the run failed (an association did not come up, an echo was wrong,
 * a packet did not decode, an I/O error: one line on standard error saying what); 2 the command
 * line was refused (an unknown command or option, or a bad value: one line on standard error, and
 * nothing was started).
 */
@Command(
        name = "sctpj",
        mixinStandardHelpOptions = true,
        version = "sctpj 0.1.0",
        description = "sctpj command-line tools. Without a command: perf, the loopback bandwidth sweep.",
        subcommands = {CommandLine.HelpCommand.class},
        footer = {
            "",
            "Units: MB = 10^6 bytes, Mbit = 10^6 bits; byte counts take k, M, G (10^3, 10^6, 10^9) or Ki, Mi, Gi"
                    + " (2^10, 2^20, 2^30).",
            "Exit codes: 0 success, 1 the run failed, 2 the command line was refused."
        })
public final class Main implements Callable<Integer> {

    /** Exit code of a run that failed. */
    static final int FAILED = 1;

    /** Exit code of a refused command line. */
    static final int USAGE = 2;

    /**
     * The subcommands, each a picocli {@code @Command} class with a public no-argument constructor
     * (or a {@code @Command} object). Add a command here: one line.
     */
    static final List<Object> COMMANDS = List.of(
            Perf.class,
            Echo.class,
            Demo.class,
            org.sctpj.journal.ReplayCommand.class,
            org.sctpj.journal.JournalCommand.class,
            org.sctpj.journal.StatsCommand.class);

    @Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * An INIT from usrsctp 0.9.5.0 to Linux 6.1 kernel SCTP, raw IPv4 (capture
     * usrsctp-to-kernel_raw_handshake-data-shutdown.pcap, frame 1, SCTP part only).
     */
    static final String SAMPLE_INIT =
            "ce4c177100000000331012ed0100006ab82ab1d5004000000010001077a48ef1c00600085553525380"
                    + "000004c000000480080009c00fc18082000000800200247fefec6812262a39784e4f3ffb29206a281eb138aea6941ffb74dd70c"
                    + "6897e4580040006000100008003000680c10000000c000600050000";

    /** Picocli's constructor; the command line is built by {@link #commandLine}. */
    public Main() {}

    /** Runs the command line and exits with its code (see the class comment). */
    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command line with the given streams and returns the exit code; never exits. */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        String[] argv = args;
        if (args.length > 0 && args[0].startsWith("-") && !isTopLevelOption(args[0])) {
            argv = new String[args.length + 1]; // options alone go to perf, the default command
            argv[0] = "perf";
            System.arraycopy(args, 0, argv, 1, args.length);
        }
        try {
            return commandLine(out, err).execute(argv);
        } finally {
            out.flush();
            err.flush();
        }
    }

    private static boolean isTopLevelOption(String a) {
        return a.equals("-h") || a.equals("--help") || a.equals("-V") || a.equals("--version");
    }

    /** The command line with every command, writing to {@code out} and {@code err}. */
    static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Main());
        for (Object c : COMMANDS) {
            cl.addSubcommand(c);
        }
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setParameterExceptionHandler(Main::refuse);
        cl.setExecutionExceptionHandler((e, commandLine, parsed) -> {
            commandLine.getErr().println(oneLine("sctpj " + commandLine.getCommandName() + ": failed: ", e));
            return FAILED;
        });
        return cl;
    }

    /** One line, exit code 2: what was wrong, a suggestion for a misspelt option, where help is. */
    private static int refuse(CommandLine.ParameterException e, String[] args) {
        CommandLine c = e.getCommandLine();
        String msg = e.getMessage() == null ? "bad command line" : e.getMessage();
        if (c.getParent() == null && e instanceof CommandLine.UnmatchedArgumentException u && !u.isUnknownOption()) {
            msg = "unknown command '" + u.getUnmatched().get(0) + "'";
        }
        StringBuilder line =
                new StringBuilder("sctpj: ").append(msg.replace('\n', ' ').trim());
        if (e instanceof CommandLine.UnmatchedArgumentException u
                && !u.getSuggestions().isEmpty()) {
            line.append(" (did you mean ")
                    .append(String.join(" or ", u.getSuggestions()))
                    .append("?)");
        }
        String name = c.getCommandName();
        line.append("; see ./sctpj help").append(c.getParent() == null ? "" : " " + name);
        c.getErr().println(line);
        return USAGE;
    }

    /** {@code prefix} and the exception's message on one line (the class name when it has none). */
    static String oneLine(String prefix, Throwable e) {
        String m = e.getMessage();
        String s = m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
        if (e.getCause() != null
                && e.getCause().getMessage() != null
                && !s.contains(e.getCause().getMessage())) {
            s += " (" + e.getCause().getMessage() + ")";
        }
        return prefix + s.replace('\n', ' ');
    }

    /** No command: the default loopback sweep. */
    @Override
    public Integer call() throws Exception {
        CommandLine perf = spec.commandLine().getSubcommands().get("perf");
        perf.parseArgs(); // the defaults
        return ((Perf) perf.getCommand()).call();
    }

    /** {@code demo [HEX]}: decodes one SCTP packet. */
    @Command(
            name = "demo",
            mixinStandardHelpOptions = true,
            description = "Decode an SCTP packet given in hex (default: a real INIT sent by usrsctp to Linux).")
    static final class Demo implements Callable<Integer> {
        @Spec
        CommandLine.Model.CommandSpec spec;

        @Parameters(arity = "0..*", paramLabel = "HEX", description = "the packet, in hex (spaces allowed)")
        List<String> hex = List.of();

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            Bytes bytes;
            try {
                bytes = Bytes.fromHex(hex.isEmpty() ? SAMPLE_INIT : String.join("", hex));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "HEX is not hexadecimal: " + e.getMessage());
            }
            Parsed<SctpPacket> p = SctpPacket.decode(bytes.asReadOnlyBuffer(), ChecksumPolicy.VERIFY);
            out.println("input: " + bytes.length() + " bytes");
            if (!p.isOk()) {
                out.println("malformed: " + p.error());
                return FAILED;
            }
            SctpPacket packet = p.value();
            out.printf(
                    "SCTP %d -> %d, verification tag 0x%08x, CRC32c ok, %d chunk(s)%n",
                    packet.sourcePort(),
                    packet.destinationPort(),
                    packet.verificationTag(),
                    packet.chunks().size());
            for (Chunk c : packet.chunks()) {
                out.println("  " + c);
            }
            ByteBuffer again = ByteBuffer.wrap(packet.toBytes());
            out.println("re-encoded identically: " + again.equals(bytes.asReadOnlyBuffer()));
            return 0;
        }
    }
}
