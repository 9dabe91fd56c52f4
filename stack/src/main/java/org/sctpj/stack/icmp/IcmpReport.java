package org.sctpj.stack.icmp;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.Optional;
import org.sctpj.stack.wire.chunk.ChunkType;

/**
 * An ICMP or ICMPv6 error about an SCTP packet we sent, as a lower layer saw it (RFC 9260 appendix
 * C; over UDP encapsulation RFC 6951 section 5.5): the ICMP type and code, the MTU a Packet Too Big
 * or Fragmentation Needed carried, and what the ICMP quoted of our packet. It is handed to the core
 * with {@link org.sctpj.stack.Endpoint#handleIcmp}, which finds the association by the quoted
 * addresses and ports (ICMP5) and acts only when the quoted Verification Tag is the association's
 * (ICMP6): a report is a claim by whoever sent the ICMP, not a fact.
 *
 * <p>Build it with {@link #fromQuoted}, from the bytes the ICMP quoted starting at our SCTP common
 * header (for UDP encapsulation, after the UDP header): RFC 792 promises only 8 bytes of the
 * original datagram, which over UDP is the UDP header alone; Linux and most routers quote far more.
 *
 * @param kind what the type and code mean for SCTP ({@link #classify})
 * @param ipv6 true for an ICMPv6 message, false for ICMP (IPv4)
 * @param type the ICMP type (0 to 255)
 * @param code the ICMP code (0 to 255)
 * @param udpEncapsulated true when our packet went in UDP (RFC 6951), so that a Port Unreachable is
 *     about the SCTP endpoint (section 5.5), not about a port the IP layer does not have
 * @param source our address the quoted packet was sent from, or {@code null} when the lower layer
 *     does not know it (the association is found by the peer's address and the ports)
 * @param destination the peer's address the quoted packet was sent to
 * @param sourcePort the quoted SCTP source port (ours)
 * @param destinationPort the quoted SCTP destination port (the peer's)
 * @param verificationTag the quoted Verification Tag (RFC 9260 section 3.1)
 * @param chunkType the quoted packet's first chunk type, or -1 when the ICMP quoted no chunk header
 * @param initiateTag for a quoted INIT, its Initiate Tag (section 3.3.2; 0 to 2^32-1), else -1
 * @param mtu the next-hop MTU a Packet Too Big (ICMPv6 type 2) or Fragmentation Needed (ICMP type 3
 *     code 4) carried, 0 when none was given
 */
public record IcmpReport(
        Kind kind,
        boolean ipv6,
        int type,
        int code,
        boolean udpEncapsulated,
        InetAddress source,
        InetAddress destination,
        int sourcePort,
        int destinationPort,
        int verificationTag,
        int chunkType,
        long initiateTag,
        int mtu) {

    /** Bytes of the quoted SCTP packet needed to find an association and check its tag. */
    public static final int MIN_QUOTED = 8;

    /** What an ICMP type and code mean for SCTP (RFC 9260 appendix C, RFC 6951 section 5.5). */
    public enum Kind {
        /**
         * ICMP Destination Unreachable code 2 (Protocol Unreachable), or ICMPv6 Parameter Problem
         * code 1 (Unrecognized Next Header Type Encountered): the peer's host has no SCTP (ICMP8).
         */
        PROTOCOL_UNREACHABLE,
        /**
         * ICMP Destination Unreachable code 3, ICMPv6 Destination Unreachable code 4: over UDP
         * encapsulation no socket listens on the peer's UDP port, which RFC 6951 section 5.5 maps to
         * Protocol Unreachable; over raw IP it says nothing about SCTP (ICMP3).
         */
        PORT_UNREACHABLE,
        /**
         * The network or host cannot be reached: ICMP Destination Unreachable codes 0, 1, 6, 7, 11
         * and 12; ICMPv6 Destination Unreachable codes 0, 2 and 3 (ICMP9).
         */
        HOST_UNREACHABLE,
        /** ICMP Fragmentation Needed (type 3 code 4) or ICMPv6 Packet Too Big (type 2) (ICMP7). */
        PACKET_TOO_BIG,
        /** Anything else (administratively prohibited, time exceeded, ...): ignored (ICMP1 to ICMP4). */
        OTHER
    }

    /** Validates the fields. */
    public IcmpReport {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(destination, "destination (the peer address the quoted packet went to)");
        if (type < 0 || type > 255 || code < 0 || code > 255) {
            throw new IllegalArgumentException("ICMP type and code are 0..255, were " + type + "/" + code);
        }
        if (sourcePort < 0 || sourcePort > 65535 || destinationPort < 0 || destinationPort > 65535) {
            throw new IllegalArgumentException("ports are 0..65535, were " + sourcePort + ", " + destinationPort);
        }
        if (chunkType < -1 || chunkType > 255) {
            throw new IllegalArgumentException("chunkType is -1 (not quoted) or 0..255, was " + chunkType);
        }
        if (initiateTag < -1 || initiateTag > 0xffff_ffffL) {
            throw new IllegalArgumentException("initiateTag is -1 (not quoted) or 0..2^32-1, was " + initiateTag);
        }
        if (mtu < 0) {
            throw new IllegalArgumentException("mtu is 0 (not given) or positive, was " + mtu);
        }
    }

    /** The meaning of ICMP ({@code ipv6} false) or ICMPv6 {@code type}/{@code code} for SCTP. */
    public static Kind classify(boolean ipv6, int type, int code) {
        if (!ipv6) {
            if (type != 3) {
                return Kind.OTHER; // ICMP1: only Destination Unreachable concerns SCTP
            }
            return switch (code) {
                case 0, 1, 6, 7, 11, 12 -> Kind.HOST_UNREACHABLE;
                case 2 -> Kind.PROTOCOL_UNREACHABLE;
                case 3 -> Kind.PORT_UNREACHABLE;
                case 4 -> Kind.PACKET_TOO_BIG;
                default -> Kind.OTHER;
            };
        }
        return switch (type) {
            case 1 -> switch (code) {
                case 0, 2, 3 -> Kind.HOST_UNREACHABLE;
                case 4 -> Kind.PORT_UNREACHABLE;
                default -> Kind.OTHER;
            };
            case 2 -> Kind.PACKET_TOO_BIG;
            case 4 -> code == 1 ? Kind.PROTOCOL_UNREACHABLE : Kind.OTHER; // ICMP4
            default -> Kind.OTHER; // ICMP2
        };
    }

    /**
     * The report of an ICMP error whose quoted bytes, from {@code quoted}'s position to its limit,
     * start with our SCTP common header; empty when fewer than {@value #MIN_QUOTED} bytes were
     * quoted (the association and its tag cannot be known: RFC 6951 section 5.5 and ICMP5/ICMP6
     * say to discard it). The chunk type and Initiate Tag are taken when quoted. The buffer is
     * read (big-endian, whatever its byte order), not kept, and its position is left alone.
     *
     * @param mtu the MTU the ICMP carried, 0 when none (kept for {@link Kind#PACKET_TOO_BIG} only)
     * @param source our address, or {@code null} when unknown
     * @param destination the peer's address the quoted packet was sent to
     */
    public static Optional<IcmpReport> fromQuoted(
            boolean ipv6,
            int type,
            int code,
            int mtu,
            boolean udpEncapsulated,
            InetAddress source,
            InetAddress destination,
            ByteBuffer quoted) {
        int p = quoted.position();
        int n = quoted.remaining();
        if (n < MIN_QUOTED || destination == null) {
            return Optional.empty();
        }
        int ports = int32(quoted, p);
        int srcPort = ports >>> 16;
        int dstPort = ports & 0xffff;
        int vtag = int32(quoted, p + 4);
        int chunk = n >= 13 ? quoted.get(p + 12) & 0xff : -1;
        long initTag = chunk == ChunkType.INIT && n >= 20 ? int32(quoted, p + 16) & 0xffff_ffffL : -1;
        Kind kind = classify(ipv6, type, code);
        return Optional.of(new IcmpReport(
                kind,
                ipv6,
                type,
                code,
                udpEncapsulated,
                source,
                destination,
                srcPort,
                dstPort,
                vtag,
                chunk,
                initTag,
                kind == Kind.PACKET_TOO_BIG ? Math.max(0, mtu) : 0));
    }

    /** The big-endian 32 bits at {@code at}, whatever the buffer's byte order. */
    private static int int32(ByteBuffer b, int at) {
        return (b.get(at) & 0xff) << 24
                | (b.get(at + 1) & 0xff) << 16
                | (b.get(at + 2) & 0xff) << 8
                | b.get(at + 3) & 0xff;
    }
}
