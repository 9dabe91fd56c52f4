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
 * @param sendSystemCalls system calls made to send ({@code sendto}, or on the native path {@code
 *     sendmsg}/{@code sendmmsg}, each carrying one or many datagrams)
 * @param receiveSystemCalls system calls made to receive ({@code recvfrom} including the one that
 *     finds the socket empty, or on the native path {@code recvmmsg}); 0 in {@link
 *     ReceiveMode#RECEIVE_THREAD} mode, where the receive threads make them
 * @param gsoSends native path: sends that carried several datagrams with UDP GSO
 * @param groDatagrams native path: received datagrams that the kernel had coalesced (UDP GRO) and
 *     that were split back into packets
 * @param gsoFallbacks native path: sockets that stopped using GSO after a GSO send failed
 * @param truncated native path: datagrams dropped because they did not fit the receive slot
 * @param icmpErrors native path: entries read from the sockets' error queues (IP_RECVERR,
 *     IPV6_RECVERR): ICMP and ICMPv6 errors about datagrams we sent
 * @param icmpReported native path: of those, the ones handed to the core as an ICMP report (RFC
 *     9260 appendix C); the rest quoted fewer than 8 bytes of the SCTP packet or were local errors
 */
public record UdpStats(
        long received,
        long droppedZeroSourcePort,
        long sent,
        long sendDropped,
        long queueFullWaits,
        int learnedPorts,
        long sendSystemCalls,
        long receiveSystemCalls,
        long gsoSends,
        long groDatagrams,
        long gsoFallbacks,
        long truncated,
        long icmpErrors,
        long icmpReported) {}
