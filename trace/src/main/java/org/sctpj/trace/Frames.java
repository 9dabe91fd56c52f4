package org.sctpj.trace;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Wire;

/**
 * Builds the link, network and transport headers around an SCTP packet so that it can be written
 * to a capture file: Ethernet II (IEEE 802.3), IPv4 (RFC 791), IPv6 (RFC 8200) and UDP (RFC 768,
 * with the IPv6 rules of RFC 8200 section 8.1), as used for SCTP over raw IP (protocol 132) and
 * for UDP encapsulation (RFC 6951).
 *
 * <p>Pure functions over byte arrays, no state: the caller chooses the IPv4 Identification (see
 * {@link PcapWriter}, which increments it). All checksums are computed for real, so that tshark
 * with checksum verification on finds nothing to complain about.
 */
public final class Frames {
    private Frames() {}

    /** IP protocol number of SCTP (IANA "Assigned Internet Protocol Numbers"). */
    public static final int PROTOCOL_SCTP = 132;
    /** IP protocol number of UDP. */
    public static final int PROTOCOL_UDP = 17;
    /** EtherType of IPv4. */
    public static final int ETHERTYPE_IPV4 = 0x0800;
    /** EtherType of IPv6. */
    public static final int ETHERTYPE_IPV6 = 0x86DD;
    /** Size of an Ethernet II header (no VLAN tag, no frame check sequence). */
    public static final int ETHERNET_HEADER_LENGTH = 14;
    /** Size of an IPv4 header without options. */
    public static final int IPV4_HEADER_LENGTH = 20;
    /** Size of the fixed IPv6 header. */
    public static final int IPV6_HEADER_LENGTH = 40;
    /** Size of a UDP header. */
    public static final int UDP_HEADER_LENGTH = 8;
    /** Time to live / hop limit written in the headers. */
    public static final int DEFAULT_TTL = 64;

    /**
     * An Ethernet II frame: destination MAC, source MAC, EtherType, payload.
     *
     * @param destination 6-byte MAC address
     * @param source 6-byte MAC address
     * @param etherType 0..65535, e.g. {@link #ETHERTYPE_IPV4}
     * @param payload the network-layer packet
     */
    public static byte[] ethernet(byte[] destination, byte[] source, int etherType, byte[] payload) {
        checkMac("destination", destination);
        checkMac("source", source);
        Wire.checkU16("etherType", etherType);
        ByteBuffer b = ByteBuffer.allocate(ETHERNET_HEADER_LENGTH + payload.length);
        b.put(destination).put(source).putShort((short) etherType).put(payload);
        return b.array();
    }

    /**
     * A locally administered unicast MAC address derived from an IP address ({@code 02:00} then the
     * address's last four bytes), so that each endpoint of a trace keeps one recognisable MAC.
     */
    public static byte[] macFor(InetAddress address) {
        byte[] a = address.getAddress();
        int n = a.length;
        return new byte[] {0x02, 0x00, a[n - 4], a[n - 3], a[n - 2], a[n - 1]};
    }

    /**
     * An IPv4 packet (RFC 791 section 3.1) with a 20-byte header: version 4, IHL 5, DSCP/ECN 0,
     * the Don't Fragment flag set, fragment offset 0, TTL {@link #DEFAULT_TTL} and a correct
     * header checksum.
     *
     * <pre>
     *  0                   1                   2                   3
     *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
     * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
     * |Version|  IHL  |Type of Service|          Total Length         |
     * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
     * |         Identification        |Flags|      Fragment Offset    |
     * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
     * |  Time to Live |    Protocol   |         Header Checksum       |
     * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
     * |                       Source Address                          |
     * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
     * |                    Destination Address                        |
     * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
     * </pre>
     *
     * @param source source address
     * @param destination destination address
     * @param protocol 0..255, e.g. {@link #PROTOCOL_SCTP}
     * @param identification 0..65535
     * @param payload the transport-layer packet; at most 65515 bytes
     */
    public static byte[] ipv4(
            Inet4Address source, Inet4Address destination, int protocol, int identification, byte[] payload) {
        Wire.checkU8("protocol", protocol);
        Wire.checkU16("identification", identification);
        int total = IPV4_HEADER_LENGTH + payload.length;
        if (total > 0xffff) {
            throw new IllegalArgumentException("an IPv4 packet holds at most " + (0xffff - IPV4_HEADER_LENGTH)
                    + " payload bytes, got " + payload.length + ": send smaller SCTP packets");
        }
        ByteBuffer b = ByteBuffer.allocate(total);
        b.put((byte) 0x45); // version 4, IHL 5 words
        b.put((byte) 0); // DSCP 0, not ECN-capable
        b.putShort((short) total);
        b.putShort((short) identification);
        b.putShort((short) 0x4000); // DF, offset 0
        b.put((byte) DEFAULT_TTL);
        b.put((byte) protocol);
        b.putShort((short) 0); // checksum, filled below
        b.put(source.getAddress());
        b.put(destination.getAddress());
        int sum = onesComplementSum(0, b.array(), 0, IPV4_HEADER_LENGTH);
        b.putShort(10, (short) ~sum);
        b.put(payload);
        return b.array();
    }

    /**
     * An IPv6 packet (RFC 8200 section 3) with no extension header: traffic class 0, flow label 0,
     * hop limit {@link #DEFAULT_TTL}.
     *
     * <pre>
     * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
     * |Version| Traffic Class |           Flow Label                  |
     * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
     * |         Payload Length        |  Next Header  |   Hop Limit   |
     * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
     * |                     Source Address (128 bits)                 |
     * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
     * |                  Destination Address (128 bits)               |
     * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
     * </pre>
     *
     * @param source source address
     * @param destination destination address
     * @param nextHeader 0..255, e.g. {@link #PROTOCOL_SCTP}
     * @param payload the transport-layer packet; at most 65535 bytes (no jumbograms)
     */
    public static byte[] ipv6(Inet6Address source, Inet6Address destination, int nextHeader, byte[] payload) {
        Wire.checkU8("nextHeader", nextHeader);
        if (payload.length > 0xffff) {
            throw new IllegalArgumentException("an IPv6 packet holds at most 65535 payload bytes without a"
                    + " jumbo option, got " + payload.length + ": send smaller SCTP packets");
        }
        ByteBuffer b = ByteBuffer.allocate(IPV6_HEADER_LENGTH + payload.length);
        b.putInt(0x6000_0000); // version 6, traffic class 0, flow label 0
        b.putShort((short) payload.length);
        b.put((byte) nextHeader);
        b.put((byte) DEFAULT_TTL);
        b.put(source.getAddress());
        b.put(destination.getAddress());
        b.put(payload);
        return b.array();
    }

    /**
     * A UDP datagram (RFC 768) with its checksum computed over the pseudo-header of the address
     * family (RFC 768 for IPv4, RFC 8200 section 8.1 for IPv6). A computed checksum of zero is sent
     * as 0xFFFF.
     *
     * <pre>
     *  0      7 8     15 16    23 24    31
     * +--------+--------+--------+--------+
     * |     Source      |   Destination   |
     * |      Port       |      Port       |
     * +--------+--------+--------+--------+
     * |                 |                 |
     * |     Length      |    Checksum     |
     * +--------+--------+--------+--------+
     * |          data octets ...
     * +---------------- ...
     * </pre>
     *
     * @param source source address (for the pseudo-header); same family as {@code destination}
     * @param sourcePort 0..65535
     * @param destination destination address (for the pseudo-header)
     * @param destinationPort 0..65535
     * @param payload the datagram's data; at most 65527 bytes
     */
    public static byte[] udp(
            InetAddress source, int sourcePort, InetAddress destination, int destinationPort, byte[] payload) {
        Wire.checkU16("sourcePort", sourcePort);
        Wire.checkU16("destinationPort", destinationPort);
        byte[] src = source.getAddress();
        byte[] dst = destination.getAddress();
        if (src.length != dst.length) {
            throw new IllegalArgumentException(
                    "source " + source + " and destination " + destination + " must both be IPv4 or both IPv6");
        }
        int length = UDP_HEADER_LENGTH + payload.length;
        if (length > 0xffff) {
            throw new IllegalArgumentException("a UDP datagram holds at most " + (0xffff - UDP_HEADER_LENGTH)
                    + " bytes, got " + payload.length + ": send smaller SCTP packets");
        }
        ByteBuffer b = ByteBuffer.allocate(length);
        b.putShort((short) sourcePort);
        b.putShort((short) destinationPort);
        b.putShort((short) length);
        b.putShort((short) 0);
        b.put(payload);
        byte[] datagram = b.array();
        // Pseudo-header: addresses, then protocol and length (IPv4: zero byte, protocol, 16-bit
        // length; IPv6: 32-bit length, three zero bytes, next header). Both sum to the same
        // 16-bit words: the length and the protocol number.
        int sum = onesComplementSum(0, src, 0, src.length);
        sum = onesComplementSum(sum, dst, 0, dst.length);
        sum = fold(sum + PROTOCOL_UDP + length);
        sum = onesComplementSum(sum, datagram, 0, datagram.length);
        int checksum = ~sum & 0xffff;
        if (checksum == 0) {
            checksum = 0xffff;
        }
        b.putShort(6, (short) checksum);
        return datagram;
    }

    /**
     * The 16-bit ones' complement sum (RFC 1071) of {@code data[offset..offset+length)}, added to
     * {@code initial}; an odd last byte is padded with zero. The checksum field is the complement
     * of the result.
     */
    public static int onesComplementSum(int initial, byte[] data, int offset, int length) {
        long sum = initial;
        int i = offset;
        int end = offset + length;
        for (; i + 1 < end; i += 2) {
            sum += ((data[i] & 0xff) << 8) | (data[i + 1] & 0xff);
        }
        if (i < end) {
            sum += (data[i] & 0xff) << 8;
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xffff) + (sum >>> 16);
        }
        return (int) sum;
    }

    private static int fold(int sum) {
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xffff) + (sum >>> 16);
        }
        return sum;
    }

    private static void checkMac(String name, byte[] mac) {
        if (mac.length != 6) {
            throw new IllegalArgumentException(name + " MAC address must have 6 bytes, has " + mac.length);
        }
    }
}
