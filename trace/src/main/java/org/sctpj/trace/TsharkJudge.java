package org.sctpj.trace;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Runs Wireshark's command-line decoder, tshark, over a capture file and reports what it found:
 * an implementation independent of ours that checks the bytes we write.
 *
 * <p>tshark runs with CRC32c verification on ({@code -o "sctp.checksum:CRC 32c"}; by default it
 * does not check SCTP checksums), with IPv4 header and UDP checksum verification on, and with UDP
 * port 9899 (RFC 6951) decoded as SCTP. The fields it prints per frame are parsed into a {@link
 * Verdict}.
 *
 * <p>Needs the {@code tshark} program (Debian package {@code tshark}) on the {@code PATH}, or a
 * path given to the constructor; {@link #judge} throws an {@link IOException} saying how to install
 * it when it cannot be started.
 */
public final class TsharkJudge {

    /** Expert info severity "warning" as tshark prints it ({@code PI_WARN}). */
    static final long SEVERITY_WARN = 0x0060_0000L;
    /** Expert info severity "error" as tshark prints it ({@code PI_ERROR}). */
    static final long SEVERITY_ERROR = 0x0080_0000L;
    /** {@code sctp.checksum.status} value of a wrong checksum (Wireshark's {@code PROTO_CHECKSUM_E_BAD}). */
    static final String CHECKSUM_BAD = "0";

    /** Separates the occurrences of a field repeated in one frame (a byte that no field prints). */
    static final char AGGREGATOR = '\u001f';

    /** The fields asked of tshark, in this order (tab-separated columns of the output). */
    static final List<String> FIELDS = List.of(
            "frame.number",
            "frame.protocols",
            "sctp.checksum.status",
            "_ws.malformed",
            "_ws.expert.severity",
            "_ws.expert.message",
            "sctp.chunk_type",
            "sctp.parameter_type",
            "sctp.cause_code");

    private static final long TIMEOUT_SECONDS = 300;

    private final String executable;
    private final int udpPort;

    /** A judge running {@code tshark} from the {@code PATH}, decoding UDP port 9899 as SCTP. */
    public TsharkJudge() {
        this("tshark", PcapWriter.DEFAULT_UDP_PORT);
    }

    /**
     * A judge running the given tshark program.
     *
     * @param executable program name or path
     * @param udpPort UDP port whose datagrams are decoded as SCTP (RFC 6951), 1..65535
     */
    public TsharkJudge(String executable, int udpPort) {
        if (udpPort < 1 || udpPort > 0xffff) {
            throw new IllegalArgumentException("udpPort must be in 1..65535, was " + udpPort);
        }
        this.executable = executable;
        this.udpPort = udpPort;
    }

    /** The command line run for {@code pcap}. */
    public List<String> command(Path pcap) {
        List<String> cmd = new ArrayList<>(List.of(
                executable,
                "-n",
                "-r",
                pcap.toString(),
                "-o",
                "sctp.checksum:CRC 32c",
                "-o",
                "ip.check_checksum:TRUE",
                "-o",
                "udp.check_checksum:TRUE",
                "-d",
                "udp.port==" + udpPort + ",sctp"));
        cmd.addAll(fieldColumns(FIELDS, String.valueOf(AGGREGATOR)));
        return cmd;
    }

    /**
     * tshark's arguments for printing {@code fields} as tab-separated columns, one line per
     * frame, no header, every occurrence of a field joined by {@code aggregator}.
     */
    public static List<String> fieldColumns(List<String> fields, String aggregator) {
        List<String> args = new ArrayList<>(List.of(
                "-T",
                "fields",
                "-E",
                "header=n",
                "-E",
                "separator=/t",
                "-E",
                "occurrence=a",
                "-E",
                "aggregator=" + aggregator));
        for (String f : fields) {
            args.add("-e");
            args.add(f);
        }
        return args;
    }

    /**
     * Decodes {@code pcap} with tshark and reports what it found.
     *
     * @throws IOException if tshark is missing (the message says how to install it), fails, or
     *     does not finish within five minutes
     */
    public Verdict judge(Path pcap) throws IOException {
        if (!Files.isReadable(pcap)) {
            throw new IOException("cannot read capture file " + pcap);
        }
        Path out = Files.createTempFile("tshark-", ".out");
        Path err = Files.createTempFile("tshark-", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(command(pcap))
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            Process p;
            try {
                p = pb.start();
            } catch (IOException e) {
                throw new IOException(
                        "cannot run " + executable + " (" + e.getMessage()
                                + "): install tshark: run ./test.sh, which installs it"
                                + " (or apt-get install -y tshark)",
                        e);
            }
            boolean done;
            try {
                done = p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for tshark", e);
            }
            if (!done) {
                p.destroyForcibly();
                throw new IOException("tshark did not finish within " + TIMEOUT_SECONDS + " s on " + pcap);
            }
            if (p.exitValue() != 0) {
                throw new IOException("tshark exited with status " + p.exitValue() + " on " + pcap + ": "
                        + Files.readString(err, StandardCharsets.UTF_8).strip());
            }
            return parse(Files.readAllLines(out, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** Builds the verdict from tshark's output lines (one per frame, columns as {@link #FIELDS}). */
    static Verdict parse(List<String> lines) {
        int frames = 0;
        int packets = 0;
        int malformed = 0;
        int badChecksums = 0;
        List<String> expert = new ArrayList<>();
        Set<Integer> chunkTypes = new TreeSet<>();
        Set<Integer> parameterTypes = new TreeSet<>();
        Set<Integer> causeCodes = new TreeSet<>();
        List<String> problems = new ArrayList<>();
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            String[] col = line.split("\t", -1);
            String frame = column(col, 0);
            frames++;
            List<String> protocols = List.of(column(col, 1).split(":"));
            if (protocols.contains("sctp")) {
                packets++;
            } else {
                problems.add("frame " + frame + ": no SCTP decoded (protocols " + column(col, 1) + ")");
            }
            if (occurrences(column(col, 2)).contains(CHECKSUM_BAD)) {
                badChecksums++;
                problems.add("frame " + frame + ": bad SCTP checksum");
            }
            if (!column(col, 3).isEmpty()) {
                malformed++;
                problems.add("frame " + frame + ": malformed");
            }
            List<String> severities = occurrences(column(col, 4));
            List<String> messages = occurrences(column(col, 5));
            for (int i = 0; i < severities.size(); i++) {
                long severity = parseNumber(severities.get(i));
                if (severity >= SEVERITY_WARN) {
                    String what = (severity >= SEVERITY_ERROR ? "Error: " : "Warning: ")
                            + (i < messages.size() ? messages.get(i) : "(no message)");
                    expert.add("frame " + frame + ": " + what);
                    problems.add("frame " + frame + ": expert " + what);
                }
            }
            addNumbers(chunkTypes, column(col, 6));
            addNumbers(parameterTypes, column(col, 7));
            addNumbers(causeCodes, column(col, 8));
        }
        return new Verdict(
                frames, packets, malformed, badChecksums, expert, chunkTypes, parameterTypes, causeCodes, problems);
    }

    private static String column(String[] col, int i) {
        return i < col.length ? col[i].strip() : "";
    }

    /** The occurrences of a field in one frame, as tshark joined them with {@link #AGGREGATOR}. */
    private static List<String> occurrences(String value) {
        List<String> out = new ArrayList<>();
        for (String s : value.split(String.valueOf(AGGREGATOR), -1)) {
            if (!s.isBlank()) {
                out.add(s.strip());
            }
        }
        return out;
    }

    private static void addNumbers(Set<Integer> into, String value) {
        for (String s : occurrences(value)) {
            // an occurrence holding several values (a list field) is comma-separated
            for (String n : s.split(",")) {
                if (!n.isBlank()) {
                    into.add((int) parseNumber(n.strip()));
                }
            }
        }
    }

    private static long parseNumber(String s) {
        try {
            return Long.decode(s);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("tshark printed an unexpected value " + s + ": " + e.getMessage(), e);
        }
    }
}
