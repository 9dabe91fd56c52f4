package org.sctpj.stack;

import java.net.InetAddress;

/**
 * A packet the core wants sent: the SCTP packet (common header, chunks, checksum filled in) and
 * the IP addresses it goes from and to. The lower layer adds the IP (and UDP) headers.
 *
 * @param packet the SCTP packet; the caller owns the array
 * @param source the local address to send from
 * @param destination the peer address to send to
 */
public record Transmit(byte[] packet, InetAddress source, InetAddress destination) {}
