package org.sctpj.stack;

import java.net.InetAddress;

/**
 * A packet the core wants sent: the SCTP packet (common header, chunks, checksum filled in), the IP
 * addresses it goes from and to, and the ECN codepoint for its IP header. The lower layer adds the
 * IP (and UDP) headers.
 *
 * @param packet the SCTP packet; the caller owns the array
 * @param source the local address to send from
 * @param destination the peer address to send to
 * @param ecn the ECN codepoint of the IP header ({@link org.sctpj.stack.llp.Ecn}): {@link
 *     org.sctpj.stack.llp.Ecn#ECT_0} for a packet with new DATA of an association that negotiated
 *     ECN (RFC 9260 appendix A), otherwise {@link org.sctpj.stack.llp.Ecn#NOT_ECT}
 * @param fragmentable the packet is larger than its path's MTU (a DATA chunk cut for a larger MTU
 *     that fell since, resent): the lower layer sends it with DF clear so that IP fragments it;
 *     every other packet may go with DF set
 */
public record Transmit(byte[] packet, InetAddress source, InetAddress destination, int ecn, boolean fragmentable) {

    /** A packet sent Not-ECT. */
    public Transmit(byte[] packet, InetAddress source, InetAddress destination) {
        this(packet, source, destination, org.sctpj.stack.llp.Ecn.NOT_ECT, false);
    }

    /** A packet sent with ECN codepoint {@code ecn}, not to be fragmented. */
    public Transmit(byte[] packet, InetAddress source, InetAddress destination, int ecn) {
        this(packet, source, destination, ecn, false);
    }
}
