package org.sctpj.tests.interop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.TransferInfo;
import org.sctpj.trace.TsharkJudge;

/**
 * What survives a failed interop case on a CI machine that is thrown away afterwards: the text
 * printed with the failure. For a failed case it gathers, bounded in size:
 *
 * <ul>
 *   <li>our core's state at the moment the failure was detected (taken before the peer's program
 *       is stopped, which may send an ABORT): per association its state, per path status, cwnd,
 *       ssthresh, flight size, RTO, error count and T3-rtx, and both halves of the data transfer
 *       ({@link TransferInfo}: peer rwnd, outstanding and queued data and TSNs, the receiver's
 *       cumulative TSN, gaps and window);
 *   <li>a one-line-per-packet tshark summary of the case's capture, the last {@link #PACKETS}
 *       packets up to the failure and a few after it (our own closing ABORT, typically), with the
 *       SCTP chunks of each packet (TSNs, SACK cumulative TSN, a_rwnd and gap blocks);
 *   <li>the capture itself, copied to {@code target/interop-failures/} (CI can keep it as an
 *       artifact), and the same text next to it.
 * </ul>
 *
 * Nothing here throws: what cannot be had (no tshark, no association left) is said in the text.
 */
final class FailureEvidence {

    /** Where failed cases' captures and evidence go (relative to the tests module). */
    static final Path DIR = Path.of("target", "interop-failures");

    /** Packets of the capture summarised up to the failure. */
    static final int PACKETS = 60;

    /** Packets summarised after the failure was detected. */
    static final int AFTER = 8;

    /** The most characters of evidence a failure message carries. */
    static final int MAX_CHARS = 24_000;

    /** The most associations described. */
    static final int MAX_ASSOCIATIONS = 4;

    private static final long TSHARK_SECONDS = 120;

    private FailureEvidence() {}

    /**
     * Our core's state: one block per association (at most {@link #MAX_ASSOCIATIONS}), {@code
     * nowNanos} being the stack's clock when the snapshot was taken (T3-rtx is shown relative to
     * it).
     */
    static String coreState(List<AssociationInfo> infos, long nowNanos) {
        if (infos.isEmpty()) {
            return "no live association at the failure\n";
        }
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < Math.min(infos.size(), MAX_ASSOCIATIONS); k++) {
            describe(sb, infos.get(k), nowNanos);
        }
        if (infos.size() > MAX_ASSOCIATIONS) {
            sb.append("(").append(infos.size() - MAX_ASSOCIATIONS).append(" more associations)\n");
        }
        return sb.toString();
    }

    private static void describe(StringBuilder sb, AssociationInfo a, long now) {
        sb.append(a.id())
                .append(' ')
                .append(a.state())
                .append(" primary ")
                .append(a.primary().getHostAddress())
                .append(" streams out/in ")
                .append(a.outboundStreams())
                .append('/')
                .append(a.inboundStreams())
                .append(" send buffer free ")
                .append(a.sendBufferFree())
                .append('\n');
        for (AssociationInfo.PathInfo p : a.paths()) {
            sb.append(String.format(
                    Locale.ROOT,
                    "  path %s %s cwnd=%d ssthresh=%d flight=%d srtt=%.1fms rto=%.1fms errors=%d t3=%s"
                            + " sent=%d pkts/%d B rtx=%d chunks/%d pkts%n",
                    p.address().getHostAddress(),
                    p.status(),
                    p.cwnd(),
                    p.ssthresh(),
                    p.flightSize(),
                    p.srttNanos() / 1e6,
                    p.rtoNanos() / 1e6,
                    p.errorCount(),
                    p.t3DeadlineNanos() == Long.MAX_VALUE
                            ? "off"
                            : String.format(Locale.ROOT, "in %.1fms", (p.t3DeadlineNanos() - now) / 1e6),
                    p.packetsSent(),
                    p.bytesSent(),
                    p.chunksRetransmitted(),
                    p.packetsRetransmitted()));
        }
        TransferInfo t = a.transfer();
        sb.append(String.format(
                Locale.ROOT,
                "  send: peer rwnd=%d next TSN=%d cum ack=%d outstanding=%d chunks/%d B marked for rtx=%d"
                        + " queued=%d msgs/%d B fast recovery=%s%n",
                t.peerRwnd(),
                t.nextTsn(),
                t.cumAckTsn(),
                t.outstandingChunks(),
                t.outstandingBytes(),
                t.markedForRetransmission(),
                t.queuedMessages(),
                t.queuedBytes(),
                t.inFastRecovery()));
        sb.append(String.format(
                Locale.ROOT,
                "  receive: cum TSN=%d highest=%d gaps=%s buffered=%d B fragments=%d a_rwnd now=%d last sent=%d"
                        + " dropped (no room)=%d SACK pending=%s%n",
                t.cumulativeTsn(),
                t.highestTsn(),
                t.gapBlocks().isEmpty() ? "none" : String.join(",", t.gapBlocks()),
                t.receiveBuffered(),
                t.pendingFragments(),
                t.advertisedRwnd(),
                t.lastAdvertisedRwnd(),
                t.droppedChunks(),
                t.sackPending()));
    }

    /** The tshark fields of {@link #packetSummary}, in this order. */
    static final List<String> FIELDS = List.of(
            "frame.number",
            "frame.time_epoch",
            "sctp.srcport",
            "sctp.dstport",
            "sctp.chunk_type",
            "sctp.data_tsn_raw",
            "sctp.data_sid",
            "sctp.data_ssn",
            "sctp.data_b_bit",
            "sctp.data_e_bit",
            "sctp.data_payload_proto_id",
            "sctp.sack_cumulative_tsn_ack_raw",
            "sctp.sack_a_rwnd",
            "sctp.sack_gap_block_start",
            "sctp.sack_gap_block_end",
            "sctp.sack_duplicate_tsn");

    /** The tshark command line for {@code pcap}; {@code udpPort} 0 for raw IP. */
    static List<String> tsharkCommand(Path pcap, int udpPort) {
        // TSNs as on the wire (the _raw fields), as the core's state shows them; no reassembly
        // (faster, and not needed).
        List<String> cmd =
                new ArrayList<>(List.of("tshark", "-n", "-r", pcap.toString(), "-o", "sctp.reassembly:FALSE"));
        if (udpPort > 0) {
            cmd.addAll(List.of("-d", "udp.port==" + udpPort + ",sctp"));
        }
        cmd.addAll(List.of("-Y", "sctp"));
        cmd.addAll(TsharkJudge.fieldColumns(FIELDS, ","));
        return cmd;
    }

    /**
     * A one-line-per-packet summary of {@code pcap} (SCTP over UDP port {@code udpPort}, or raw IP
     * when 0): the last {@link #PACKETS} packets captured up to {@code failedAt}, a marker line,
     * then at most {@link #AFTER} packets after it. Times are seconds since the first packet.
     */
    static String packetSummary(Path pcap, int udpPort, Instant failedAt) {
        if (!Files.isRegularFile(pcap)) {
            return "no capture at " + pcap + "\n";
        }
        List<String> cmd = tsharkCommand(pcap, udpPort);
        Process p;
        try {
            p = new ProcessBuilder(cmd)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            return "tshark could not run (" + e.getMessage() + "): install it with apt-get install -y tshark\n";
        }
        double failed = failedAt.getEpochSecond() + failedAt.getNano() / 1e9;
        Deque<String> before = new ArrayDeque<>();
        List<String> after = new ArrayList<>();
        long total = 0;
        long beforeCount = 0;
        double first = Double.NaN;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String[] f = line.split("\t", -1);
                if (f.length < FIELDS.size()) {
                    continue;
                }
                double t = parseDouble(f[1]);
                if (Double.isNaN(first)) {
                    first = t;
                }
                total++;
                String s = packetLine(f, t - first);
                if (t <= failed) {
                    beforeCount++;
                    before.addLast(s);
                    if (before.size() > PACKETS) {
                        before.removeFirst();
                    }
                } else if (after.size() < AFTER) {
                    after.add(s);
                }
            }
            if (!p.waitFor(TSHARK_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "tshark did not finish within " + TSHARK_SECONDS + " s on " + pcap + "\n";
            }
        } catch (IOException e) {
            p.destroyForcibly();
            return "reading tshark's output failed: " + e + "\n";
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            return "interrupted while tshark ran\n";
        }
        StringBuilder sb = new StringBuilder();
        sb.append(total)
                .append(" SCTP packets in ")
                .append(pcap.getFileName())
                .append("; the last ")
                .append(before.size())
                .append(" of the ")
                .append(beforeCount)
                .append(" before the failure (")
                .append(String.join(" ", cmd.subList(0, Math.min(cmd.size(), udpPort > 0 ? 8 : 6))))
                .append(" ...):\n");
        before.forEach(l -> sb.append(l).append('\n'));
        sb.append(String.format(
                Locale.ROOT, "---- failure detected at %.6f ----%n", Double.isNaN(first) ? 0.0 : failed - first));
        after.forEach(l -> sb.append(l).append('\n'));
        return sb.toString();
    }

    private static double parseDouble(String s) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** {@code #frame +seconds src>dst} and the chunks, DATA runs of one packet condensed. */
    static String packetLine(String[] f, double t) {
        StringBuilder sb = new StringBuilder();
        sb.append('#').append(f[0]).append(String.format(Locale.ROOT, " %10.6f ", t));
        sb.append(f[2]).append('>').append(f[3]);
        Cursor c = new Cursor(f);
        List<String> types = split(f[4]);
        int i = 0;
        while (i < types.size()) {
            String type = types.get(i);
            if (type.equals("0")) {
                int j = i;
                while (j < types.size() && types.get(j).equals("0")) {
                    j++;
                }
                int n = j - i;
                String firstTsn = c.next(5);
                String sid = c.next(6);
                String ssn = c.next(7);
                String flags = be(c.next(8), c.next(9));
                String ppid = c.next(10);
                String lastTsn = firstTsn;
                String lastFlags = flags;
                for (int k = 1; k < n; k++) {
                    lastTsn = c.next(5);
                    c.next(6);
                    c.next(7);
                    lastFlags = be(c.next(8), c.next(9));
                    c.next(10);
                }
                if (n == 1) {
                    sb.append(" DATA(tsn=")
                            .append(firstTsn)
                            .append(" sid=")
                            .append(sid)
                            .append(" ssn=")
                            .append(ssn);
                    sb.append(" ppid=")
                            .append(ppid)
                            .append(flags.isEmpty() ? "" : " " + flags)
                            .append(')');
                } else {
                    sb.append(" DATAx")
                            .append(n)
                            .append("(tsn=")
                            .append(firstTsn)
                            .append("..")
                            .append(lastTsn);
                    sb.append(" sid=").append(sid).append(" first ").append(flags.isEmpty() ? "-" : flags);
                    sb.append(" last ")
                            .append(lastFlags.isEmpty() ? "-" : lastFlags)
                            .append(')');
                }
                i = j;
                continue;
            }
            if (type.equals("3")) {
                sb.append(" SACK(cum=").append(c.next(11)).append(" a_rwnd=").append(c.next(12));
                List<String> starts = split(f[13]);
                List<String> ends = split(f[14]);
                if (!starts.isEmpty()) {
                    sb.append(" gaps=");
                    int shown = Math.min(starts.size(), 8);
                    for (int k = 0; k < shown; k++) {
                        sb.append(k == 0 ? "" : ",")
                                .append(starts.get(k))
                                .append('-')
                                .append(k < ends.size() ? ends.get(k) : "?");
                    }
                    if (starts.size() > shown) {
                        sb.append(",+").append(starts.size() - shown);
                    }
                }
                List<String> dups = split(f[15]);
                if (!dups.isEmpty()) {
                    sb.append(" dups=").append(dups.size());
                }
                sb.append(')');
            } else {
                sb.append(' ').append(chunkName(type));
            }
            i++;
        }
        return sb.toString();
    }

    private static String be(String b, String e) {
        return (isSet(b) ? "B" : "") + (isSet(e) ? "E" : "");
    }

    private static boolean isSet(String v) {
        return v.equals("1") || v.equalsIgnoreCase("true");
    }

    private static List<String> split(String s) {
        return s.isEmpty() ? List.of() : List.of(s.split(","));
    }

    /** Walks the occurrences of each field of one packet. */
    private static final class Cursor {
        private final List<List<String>> values = new ArrayList<>();
        private final int[] next;

        Cursor(String[] f) {
            for (String s : f) {
                values.add(split(s));
            }
            next = new int[f.length];
        }

        String next(int field) {
            List<String> v = values.get(field);
            return next[field] < v.size() ? v.get(next[field]++) : "?";
        }
    }

    /** The RFC name of chunk type {@code t} (decimal), or the number. */
    static String chunkName(String t) {
        return switch (t) {
            case "0" -> "DATA";
            case "1" -> "INIT";
            case "2" -> "INIT_ACK";
            case "3" -> "SACK";
            case "4" -> "HEARTBEAT";
            case "5" -> "HEARTBEAT_ACK";
            case "6" -> "ABORT";
            case "7" -> "SHUTDOWN";
            case "8" -> "SHUTDOWN_ACK";
            case "9" -> "ERROR";
            case "10" -> "COOKIE_ECHO";
            case "11" -> "COOKIE_ACK";
            case "12" -> "ECNE";
            case "13" -> "CWR";
            case "14" -> "SHUTDOWN_COMPLETE";
            case "15" -> "AUTH";
            case "16" -> "NR_SACK";
            case "64" -> "I_DATA";
            case "128" -> "ASCONF_ACK";
            case "130" -> "RE_CONFIG";
            case "132" -> "PAD";
            case "192" -> "FORWARD_TSN";
            case "193" -> "ASCONF";
            case "194" -> "I_FORWARD_TSN";
            default -> "chunk" + t;
        };
    }

    /**
     * Copies the capture of case {@code name} into {@link #DIR} and writes {@code text} next to it
     * ({@code <name>.txt}); returns the copy's path, or a sentence saying why there is none.
     */
    static String keep(Path pcap, String name, String text) {
        try {
            Files.createDirectories(DIR);
            Files.writeString(DIR.resolve(name + ".txt"), text, StandardCharsets.UTF_8);
            if (!Files.isRegularFile(pcap)) {
                return "no capture was written";
            }
            Path copy = DIR.resolve(name + ".pcap");
            Files.copy(pcap, copy, StandardCopyOption.REPLACE_EXISTING);
            return copy.toAbsolutePath().toString();
        } catch (IOException e) {
            return "could not keep the capture: " + e;
        }
    }

    /**
     * The whole evidence of a failed case, at most {@link #MAX_CHARS} characters: the core's state
     * (or why there is none), the packet summary, and where the capture was kept.
     */
    static String report(String name, String coreState, Path pcap, int udpPort, Instant failedAt) {
        StringBuilder sb = new StringBuilder();
        sb.append("==== evidence of ")
                .append(name)
                .append(" (failed at ")
                .append(failedAt)
                .append(") ====\n");
        sb.append("-- our core's state at the failure --\n").append(coreState);
        sb.append("-- capture --\n").append(packetSummary(pcap, udpPort, failedAt));
        String text = bound(sb.toString(), MAX_CHARS - 400);
        String kept = keep(pcap, name, text);
        return text + "capture kept: " + kept + "\n==== end of evidence ====";
    }

    /** {@code s} cut to {@code max} characters, keeping its head and tail around a marker. */
    static String bound(String s, int max) {
        if (s.length() <= max) {
            return s;
        }
        int head = max / 3;
        int tail = max - head - 60;
        return s.substring(0, head) + "\n[... " + (s.length() - head - tail) + " characters left out ...]\n"
                + s.substring(s.length() - tail);
    }
}
