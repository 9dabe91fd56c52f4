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

    private PcapExport() {}

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
        try (JournalReader in = JournalReader.open(journal);
                PcapWriter out = PcapWriter.open(pcap)) {
            while (in.hasNext()) {
                JournalEntry e = in.next();
                if (start == Long.MIN_VALUE) {
                    start = e.now();
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
                byte[] packet = Headers.restore(b.bytes(), original);
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
