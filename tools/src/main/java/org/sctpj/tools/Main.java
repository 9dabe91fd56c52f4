package org.sctpj.tools;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ChecksumPolicy;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.chunk.Chunk;

/**
 * Entry point of the {@code ./sctpj} script: dispatches to the command-line tools.
 *
 * <p>Commands: {@code perf} (the default: a loopback bandwidth sweep), {@code echo}, {@code demo
 * [hex]} (decodes an SCTP packet, by default a real INIT sent by usrsctp 0.9.5.0 to Linux 6.1),
 * {@code help}.
 */
public final class Main {
    private Main() {}

    /**
     * An INIT from usrsctp 0.9.5.0 to Linux 6.1 kernel SCTP, raw IPv4 (capture
     * usrsctp-to-kernel_raw_handshake-data-shutdown.pcap, frame 1, SCTP part only).
     */
    static final String SAMPLE_INIT =
            "ce4c177100000000331012ed0100006ab82ab1d5004000000010001077a48ef1c00600085553525380"
                    + "000004c000000480080009c00fc18082000000800200247fefec6812262a39784e4f3ffb29206a281eb138aea6941ffb74dd70c"
                    + "6897e4580040006000100008003000680c10000000c000600050000";

    /** Runs a command; see the class comment. */
    public static void main(String[] args) throws Exception {
        if (args.length == 0 || args[0].startsWith("--")) {
            System.exit(guarded(() -> Perf.run(args))); // options alone: perf
        }
        String cmd = args[0];
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (cmd) {
            case "demo" -> System.exit(demo(rest));
            case "perf" -> System.exit(guarded(() -> Perf.run(rest)));
            case "echo" -> System.exit(guarded(() -> Echo.run(rest)));
            case "help", "-h", "--help" -> usage();
            default -> {
                System.err.println("unknown command: " + cmd);
                usage();
                System.exit(2);
            }
        }
    }

    private interface Command {
        int run() throws Exception;
    }

    private static int guarded(Command c) throws Exception {
        try {
            return c.run();
        } catch (IllegalArgumentException e) {
            System.err.println("sctpj: " + e.getMessage() + " (./sctpj help lists the options)");
            return 2;
        }
    }

    private static void usage() {
        System.out.println("usage: ./sctpj [command] [options]   (no command: perf, the loopback sweep)\n"
                + Perf.USAGE
                + Echo.USAGE
                + "  demo [HEX]             decode an SCTP packet given in hex (default: a real INIT from usrsctp)\n"
                + "  help                   this text");
    }

    static int demo(String[] args) {
        String hex = args.length > 0 ? String.join("", args) : SAMPLE_INIT;
        Bytes bytes;
        try {
            bytes = Bytes.fromHex(hex);
        } catch (IllegalArgumentException e) {
            System.err.println("not hexadecimal: " + e.getMessage());
            return 2;
        }
        Parsed<SctpPacket> p = SctpPacket.decode(bytes.asReadOnlyBuffer(), ChecksumPolicy.VERIFY);
        System.out.println("input: " + bytes.length() + " bytes");
        if (!p.isOk()) {
            System.out.println("malformed: " + p.error());
            return 1;
        }
        SctpPacket packet = p.value();
        System.out.printf(
                "SCTP %d -> %d, verification tag 0x%08x, CRC32c ok, %d chunk(s)%n",
                packet.sourcePort(),
                packet.destinationPort(),
                packet.verificationTag(),
                packet.chunks().size());
        for (Chunk c : packet.chunks()) {
            System.out.println("  " + c);
        }
        ByteBuffer again = ByteBuffer.wrap(packet.toBytes());
        System.out.println("re-encoded identically: " + again.equals(bytes.asReadOnlyBuffer()));
        return 0;
    }
}
