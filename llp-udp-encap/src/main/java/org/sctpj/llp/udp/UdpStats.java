package org.sctpj.llp.udp;

/**
 * Counters of a {@link UdpEncapsulation} since it was opened.
 *
 * @param received datagrams handed to the packet sink
 * @param droppedZeroSourcePort datagrams dropped because their UDP source port was 0 (RFC 6951
 *     section 5.4: no reply could reach the sender)
 * @param sent datagrams given to the kernel
 * @param sendDropped packets dropped because the socket's send buffer was full (SCTP retransmits)
 * @param queueFullWaits in {@link ReceiveMode#RECEIVE_THREAD} mode, times a receive thread found the
 *     queue to the stack thread full and had to wait (the socket buffer absorbs the backlog)
 * @param learnedPorts remote addresses whose UDP port is currently learned
 */
public record UdpStats(
        long received,
        long droppedZeroSourcePort,
        long sent,
        long sendDropped,
        long queueFullWaits,
        int learnedPorts) {}
