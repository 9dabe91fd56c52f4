package org.sctpj.trace;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.file.Path;
import java.sql.Timestamp;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapDumper;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.Pcaps;
import org.pcap4j.packet.namednumber.DataLinkType;

/**
 * Writes SCTP packets to a classic libpcap capture file (link type Ethernet) that Wireshark and
 * tshark open directly, through pcap4j and the native libpcap.
 *
 * <p>Each SCTP packet (common header and chunks, checksum included, as {@link
 * org.sctpj.stack.wire.SctpPacket#toBytes()} gives it) is wrapped in Ethernet, IPv4 or IPv6 and,
 * for RFC 6951 UDP encapsulation, UDP headers built by {@link Frames}. Timestamps are supplied by
 * the caller in nanoseconds (the simulator passes its virtual time) and are kept to the
 * nanosecond: the file uses libpcap's nanosecond-resolution variant of the classic format, which
 * Wireshark, tshark and tcpdump read.
 *
 * <p>Not thread-safe: use one writer from one thread (the endpoint's owner thread), or
 * synchronize outside. The IPv4 Identification field increments by one per IPv4 packet written.
 *
 * <p>Needs the native libpcap (Debian package {@code libpcap0.8}); {@link #open} fails with a
 * message saying so when it cannot be loaded.
 */
public final class PcapWriter implements AutoCloseable {

    /** The UDP port registered for SCTP over UDP (RFC 6951 section 5.1), used by default. */
    public static final int DEFAULT_UDP_PORT = 9899;

    /** Largest frame the file accepts (libpcap's maximum snapshot length). */
    public static final int SNAPSHOT_LENGTH = 262_144;

    private final Path file;
    private final PcapHandle handle;
    private final PcapDumper dumper;
    private int nextIdentification;
    private boolean closed;

    private PcapWriter(Path file, PcapHandle handle, PcapDumper dumper) {
        this.file = file;
        this.handle = handle;
        this.dumper = dumper;
    }

    /**
     * Creates (or truncates) {@code file} and writes the pcap file header.
     *
     * @throws IOException if the file cannot be created, or if the native libpcap cannot be loaded
     *     (the message then says to install libpcap0.8)
     */
    public static PcapWriter open(Path file) throws IOException {
        PcapHandle handle;
        try {
            handle = Pcaps.openDead(DataLinkType.EN10MB, SNAPSHOT_LENGTH, PcapHandle.TimestampPrecision.NANO);
        } catch (PcapNativeException e) {
            throw new IOException("libpcap refused to open a capture for writing: " + e.getMessage(), e);
        } catch (LinkageError e) {
            throw new IOException(libpcapMissingMessage(e), e);
        }
        try {
            return new PcapWriter(file, handle, handle.dumpOpen(file.toString()));
        } catch (PcapNativeException | NotOpenException e) {
            handle.close();
            throw new IOException("cannot create pcap file " + file + ": " + e.getMessage(), e);
        }
    }

    /** The message of the exception thrown when pcap4j cannot load the native libpcap. */
    static String libpcapMissingMessage(Throwable cause) {
        return "the native libpcap could not be loaded (" + cause
                + "): install the Debian package libpcap0.8 (apt-get install -y libpcap0.8, or run ./test.sh,"
                + " which installs it)";
    }

    /** The file being written. */
    public Path file() {
        return file;
    }

    /**
     * Writes an SCTP packet carried directly over IPv4 (protocol 132).
     *
     * @param sctp the SCTP packet, checksum included
     * @param source IPv4 source address
     * @param destination IPv4 destination address
     * @param timestampNanos capture time in nanoseconds since the epoch (or since the start of a
     *     simulation), not negative
     */
    public void writeIpv4(byte[] sctp, Inet4Address source, Inet4Address destination, long timestampNanos) {
        byte[] ip = Frames.ipv4(source, destination, Frames.PROTOCOL_SCTP, takeIdentification(), sctp);
        writeFrame(source, destination, Frames.ETHERTYPE_IPV4, ip, timestampNanos);
    }

    /**
     * Writes an SCTP packet carried directly over IPv6 (next header 132).
     *
     * @param sctp the SCTP packet, checksum included
     * @param source IPv6 source address
     * @param destination IPv6 destination address
     * @param timestampNanos capture time in nanoseconds, not negative
     */
    public void writeIpv6(byte[] sctp, Inet6Address source, Inet6Address destination, long timestampNanos) {
        byte[] ip = Frames.ipv6(source, destination, Frames.PROTOCOL_SCTP, sctp);
        writeFrame(source, destination, Frames.ETHERTYPE_IPV6, ip, timestampNanos);
    }

    /**
     * Writes an SCTP packet encapsulated in UDP over IPv4 (RFC 6951).
     *
     * @param sctp the SCTP packet, checksum included
     * @param source IPv4 source address
     * @param sourcePort UDP source port
     * @param destination IPv4 destination address
     * @param destinationPort UDP destination port
     * @param timestampNanos capture time in nanoseconds, not negative
     */
    public void writeUdpIpv4(
            byte[] sctp,
            Inet4Address source,
            int sourcePort,
            Inet4Address destination,
            int destinationPort,
            long timestampNanos) {
        byte[] udp = Frames.udp(source, sourcePort, destination, destinationPort, sctp);
        byte[] ip = Frames.ipv4(source, destination, Frames.PROTOCOL_UDP, takeIdentification(), udp);
        writeFrame(source, destination, Frames.ETHERTYPE_IPV4, ip, timestampNanos);
    }

    /** Writes an SCTP packet in UDP over IPv4 between the default ports 9899 and 9899. */
    public void writeUdpIpv4(byte[] sctp, Inet4Address source, Inet4Address destination, long timestampNanos) {
        writeUdpIpv4(sctp, source, DEFAULT_UDP_PORT, destination, DEFAULT_UDP_PORT, timestampNanos);
    }

    /**
     * Writes an SCTP packet encapsulated in UDP over IPv6 (RFC 6951).
     *
     * @param sctp the SCTP packet, checksum included
     * @param source IPv6 source address
     * @param sourcePort UDP source port
     * @param destination IPv6 destination address
     * @param destinationPort UDP destination port
     * @param timestampNanos capture time in nanoseconds, not negative
     */
    public void writeUdpIpv6(
            byte[] sctp,
            Inet6Address source,
            int sourcePort,
            Inet6Address destination,
            int destinationPort,
            long timestampNanos) {
        byte[] udp = Frames.udp(source, sourcePort, destination, destinationPort, sctp);
        byte[] ip = Frames.ipv6(source, destination, Frames.PROTOCOL_UDP, udp);
        writeFrame(source, destination, Frames.ETHERTYPE_IPV6, ip, timestampNanos);
    }

    /** Writes an SCTP packet in UDP over IPv6 between the default ports 9899 and 9899. */
    public void writeUdpIpv6(byte[] sctp, Inet6Address source, Inet6Address destination, long timestampNanos) {
        writeUdpIpv6(sctp, source, DEFAULT_UDP_PORT, destination, DEFAULT_UDP_PORT, timestampNanos);
    }

    /**
     * Writes an SCTP packet over raw IP of the addresses' family: a convenience for callers that
     * hold {@link InetAddress}es.
     *
     * @throws IllegalArgumentException if the two addresses are not of the same family
     */
    public void writeRaw(byte[] sctp, InetAddress source, InetAddress destination, long timestampNanos) {
        if (source instanceof Inet4Address s && destination instanceof Inet4Address d) {
            writeIpv4(sctp, s, d, timestampNanos);
        } else if (source instanceof Inet6Address s && destination instanceof Inet6Address d) {
            writeIpv6(sctp, s, d, timestampNanos);
        } else {
            throw new IllegalArgumentException(
                    "source " + source + " and destination " + destination + " must both be IPv4 or both IPv6");
        }
    }

    /**
     * Writes an SCTP packet in UDP over the addresses' family (RFC 6951).
     *
     * @throws IllegalArgumentException if the two addresses are not of the same family
     */
    public void writeUdp(
            byte[] sctp,
            InetAddress source,
            int sourcePort,
            InetAddress destination,
            int destinationPort,
            long timestampNanos) {
        if (source instanceof Inet4Address s && destination instanceof Inet4Address d) {
            writeUdpIpv4(sctp, s, sourcePort, d, destinationPort, timestampNanos);
        } else if (source instanceof Inet6Address s && destination instanceof Inet6Address d) {
            writeUdpIpv6(sctp, s, sourcePort, d, destinationPort, timestampNanos);
        } else {
            throw new IllegalArgumentException(
                    "source " + source + " and destination " + destination + " must both be IPv4 or both IPv6");
        }
    }

    /**
     * Writes a complete Ethernet frame as it is, for callers that build their own headers (or
     * deliberately broken ones).
     *
     * @param frame the frame, Ethernet header first, at most {@link #SNAPSHOT_LENGTH} bytes
     * @param timestampNanos capture time in nanoseconds, not negative
     */
    public void writeEthernetFrame(byte[] frame, long timestampNanos) {
        if (frame.length > SNAPSHOT_LENGTH) {
            throw new IllegalArgumentException(
                    "frame of " + frame.length + " bytes exceeds the snapshot length " + SNAPSHOT_LENGTH);
        }
        Timestamp ts = toTimestamp(timestampNanos);
        if (closed) {
            throw new IllegalStateException("pcap writer for " + file + " is closed: open a new one");
        }
        try {
            dumper.dumpRaw(frame, ts);
        } catch (NotOpenException e) {
            throw new IllegalStateException("pcap writer for " + file + " is closed: open a new one", e);
        }
    }

    /** Flushes buffered packets to the file, so that it can be read while writing goes on. */
    public void flush() throws IOException {
        if (closed) {
            return;
        }
        try {
            dumper.flush();
        } catch (PcapNativeException | NotOpenException e) {
            throw new IOException("cannot flush pcap file " + file + ": " + e.getMessage(), e);
        }
    }

    /** Flushes and closes the file. Closing twice is harmless. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        dumper.close();
        handle.close();
    }

    private void writeFrame(
            InetAddress source, InetAddress destination, int etherType, byte[] ip, long timestampNanos) {
        byte[] frame = Frames.ethernet(Frames.macFor(destination), Frames.macFor(source), etherType, ip);
        writeEthernetFrame(frame, timestampNanos);
    }

    private int takeIdentification() {
        int id = nextIdentification;
        nextIdentification = (nextIdentification + 1) & 0xffff;
        return id;
    }

    /** A {@link Timestamp} holding {@code nanos} nanoseconds since the epoch, to the nanosecond. */
    static Timestamp toTimestamp(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException(
                    "timestamp must not be negative, was " + nanos + " ns: count from the start of the trace");
        }
        Timestamp ts = new Timestamp(nanos / 1_000_000);
        ts.setNanos((int) (nanos % 1_000_000_000));
        return ts;
    }
}
