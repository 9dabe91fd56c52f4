package org.sctpj.llp.raw;

/**
 * Counters of a {@link RawIpLowerLayer}, both sockets together.
 *
 * @param received datagrams read from the sockets, including those dropped below
 * @param truncated datagrams larger than the receive buffer (dropped)
 * @param malformed datagrams whose IPv4 header did not hold together, or with no usable source
 *     address (dropped)
 * @param notLocal datagrams sent to an address outside {@link RawIpLowerLayer.Builder#localAddresses}
 *     (dropped)
 * @param sent packets the kernel accepted
 * @param sendDropped packets dropped because the socket buffer was full (EAGAIN, ENOBUFS), as IP
 *     would drop them
 * @param tooBig packets dropped as larger than the path or interface allows (EMSGSIZE)
 * @param filtered packets a local firewall rule dropped on output (EPERM from sendmsg): dropped as
 *     the network would, SCTP retransmits or fails over
 * @param kernelDropped packets the kernel dropped before we read them because a socket's receive
 *     buffer was full (SO_RXQ_OVFL, both sockets; the count the kernel reports with the next packet
 *     read, so it may lag): the peer retransmits them. Size the buffer with {@link
 *     RawIpLowerLayer.Builder#receiveBufferBytes} to the associations' receive windows
 * @param icmpErrors entries read from the sockets' error queues (IP_RECVERR, IPV6_RECVERR): ICMP
 *     errors about packets we sent
 * @param icmpReported of those, the ones handed to the core as an ICMP report (RFC 9260 appendix
 *     C); the rest quoted fewer than 8 bytes of the SCTP packet or were local errors
 * @param fragmented IPv6 packets the core marked fragmentable that were cut into fragments of at
 *     most 1280 bytes here (path MTU probing on, {@link RawIpLowerLayer.Builder#pathMtuProbing});
 *     each fragment counts once in {@code sent}
 */
public record RawIpStats(
        long received,
        long truncated,
        long malformed,
        long notLocal,
        long sent,
        long sendDropped,
        long tooBig,
        long filtered,
        long kernelDropped,
        long icmpErrors,
        long icmpReported,
        long fragmented) {}
