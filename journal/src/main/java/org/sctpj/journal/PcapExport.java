package org.sctpj.journal;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import org.sctpj.trace.PcapWriter;

/**
 * Writes the packets of a journal (those the endpoint received and those it sent, in journal
 * order) to a pcap file for Wireshark or tshark, through the {@code trace} module's {@link
 * PcapWriter} (pcap4j and libpcap; the classic pcap format, which both read). Each packet is framed
 * in Ethernet and IP with the addresses recorded, as SCTP over IP (protocol 132), or with {@code
 * udpPort} &gt; 0 in UDP on that port at both ends (RFC 6951), which is how Wireshark decodes SCTP
 * over UDP encapsulation by default at port 9899. Timestamps are the endpoint's times relative to
 * the journal's first entry. From a journal recorded with headers only, DATA chunks are written
 * at their original length with zeros for the user data and the checksum computed afresh (Wireshark
 * then decodes the zeros by the chunk's Payload Protocol Identifier, which for some identifiers
 * shows as a malformed upper-layer message: the SCTP layer itself is well formed).
 */
public final class PcapExport {

    /** The file formats of an export. */
    public enum Format {
        /** The classic libpcap format, written through pcap4j and libpcap. */
        pcap,
        /**
         * pcapng, written by the journal module: one interface per path (local and peer address)
         * named after it and described with the endpoint's lower layer, each packet's direction,
         * and comments (the journal entry of each packet, its ECN codepoint, user data left out by
         * digest or headers-only recording, entries dropped before it; the section's comment
         * describes the journal).
         */
        pcapng
    }

    private PcapExport() {}

    /**
     * Exports the journal in {@code journal} to {@code file} in {@code format}; returns the number
     * of packets written.
     *
     * @param udpPort 0 for SCTP over IP, else the UDP port to frame each packet with
     * @throws IOException if the journal cannot be read or the file written
     */
    public static long export(Path journal, Path file, int udpPort, Format format) throws IOException {
        return format == Format.pcap ? export(journal, file, udpPort) : exportPcapng(journal, file, udpPort);
    }

    /**
     * True when the journal of this CREATED entry records packets with their checksums as 0
     * (headers only, format 3 on): an export computes them afresh.
     */
    private static boolean zeroedChecksums(JournalEntry created) {
        Codec.In b = created.body();
        int format = b.i32();
        b.i32();
        b.pos = Describe.skipValue(b);
        b.pos = Describe.skipValue(b);
        b.string();
        return b.u8() != 0 && format >= 3;
    }

    private static long exportPcapng(Path journal, Path file, int udpPort) throws IOException {
        if (udpPort < 0 || udpPort > 65535) {
            throw new IllegalArgumentException("udpPort must be 0 (SCTP over IP) or 1..65535, was " + udpPort);
        }
        String header = "sctpj journal " + journal.toAbsolutePath();
        String layer = "unknown";
        String recorded = "";
        try (JournalReader in = JournalReader.open(journal)) {
            if (in.hasNext() && in.peek().kind() == Kind.CREATED) {
                Codec.In b = in.peek().body();
                int format = b.i32();
                int port = b.i32();
                b.pos = Describe.skipValue(b); // local addresses
                b.pos = Describe.skipValue(b); // options
                layer = b.string();
                boolean headersOnly = b.u8() != 0;
                boolean digests = b.u8() != 0;
                recorded = headersOnly
                        ? "; recorded with headers only: DATA user data is zeros"
                        : digests ? "; outputs recorded by digest: the user data of DATA sent is zeros" : "";
                header += ": the endpoint on SCTP port " + port + ", lower layer " + layer + ", journal format "
                        + format + recorded;
            }
        }
        long n = 0;
        long start = Long.MIN_VALUE;
        java.util.Map<String, Integer> paths = new java.util.HashMap<>();
        String pending = null;
        boolean zeroed = false;
        try (JournalReader in = JournalReader.open(journal);
                PcapngWriter out = PcapngWriter.open(file, header + "; timestamps from the journal's first entry")) {
            while (in.hasNext()) {
                JournalEntry e = in.next();
                if (start == Long.MIN_VALUE) {
                    start = e.now();
                }
                if (e.kind() == Kind.GAP) {
                    pending = e.describe();
                }
                if (e.kind() == Kind.CREATED) {
                    zeroed = zeroedChecksums(e);
                }
                if (e.kind() != Kind.PACKET_IN && e.kind() != Kind.TRANSMIT) {
                    continue;
                }
                boolean inbound = e.kind() == Kind.PACKET_IN;
                Codec.In b = e.body();
                InetAddress from;
                InetAddress to;
                int ecn = -1;
                if (inbound) {
                    from = b.address();
                    to = b.address();
                    ecn = b.i32();
                } else {
                    b.i32();
                    from = b.address();
                    to = b.address();
                }
                int original = b.i32();
                byte[] cut = b.bytes();
                byte[] packet = Headers.restore(cut, original, zeroed);
                InetAddress local = inbound ? to : from;
                InetAddress peer = inbound ? from : to;
                String key = local.getHostAddress() + " - " + peer.getHostAddress();
                Integer id = paths.get(key);
                if (id == null) {
                    id = out.addInterface(
                            key,
                            "path from local " + local.getHostAddress() + " to peer " + peer.getHostAddress() + " over "
                                    + layer);
                    paths.put(key, id);
                }
                StringBuilder c = new StringBuilder("journal entry ").append(e.index());
                if (ecn > 0) {
                    c.append(", ECN codepoint ").append(ecn);
                }
                if (cut.length != original) {
                    c.append(", user data not recorded (zeros)");
                }
                if (pending != null) {
                    c.append("; before it: ").append(pending);
                    pending = null;
                }
                out.packet(id, packet, from, to, udpPort, inbound, Math.max(0, e.now() - start), c.toString());
                n++;
            }
        }
        return n;
    }

    /**
     * Exports the journal in {@code journal} to {@code pcap}; returns the number of packets written.
     *
     * @param udpPort 0 for SCTP over IP, else the UDP port to frame each packet with
     * @throws IOException if the journal cannot be read or the file written (libpcap missing: the
     *     message says what to install)
     */
    public static long export(Path journal, Path pcap, int udpPort) throws IOException {
        if (udpPort < 0 || udpPort > 65535) {
            throw new IllegalArgumentException("udpPort must be 0 (SCTP over IP) or 1..65535, was " + udpPort);
        }
        long n = 0;
        long start = Long.MIN_VALUE;
        boolean zeroed = false;
        try (JournalReader in = JournalReader.open(journal);
                PcapWriter out = PcapWriter.open(pcap)) {
            while (in.hasNext()) {
                JournalEntry e = in.next();
                if (start == Long.MIN_VALUE) {
                    start = e.now();
                }
                if (e.kind() == Kind.CREATED) {
                    zeroed = zeroedChecksums(e);
                }
                if (e.kind() != Kind.PACKET_IN && e.kind() != Kind.TRANSMIT) {
                    continue;
                }
                Codec.In b = e.body();
                InetAddress from;
                InetAddress to;
                if (e.kind() == Kind.PACKET_IN) {
                    from = b.address();
                    to = b.address();
                    b.i32();
                } else {
                    b.i32();
                    from = b.address();
                    to = b.address();
                }
                int original = b.i32();
                byte[] packet = Headers.restore(b.bytes(), original, zeroed);
                long t = Math.max(0, e.now() - start);
                if (udpPort == 0) {
                    out.writeRaw(packet, from, to, t);
                } else {
                    out.writeUdp(packet, from, udpPort, to, udpPort, t);
                }
                n++;
            }
        }
        return n;
    }
}
