package org.sctpj.stack;

import java.net.InetAddress;

/**
 * What path MTU discovery (RFC 8899, {@link SctpOptions#pmtuDiscovery()}) did on one path of an
 * association so far. From {@link Endpoint#pmtuStats}.
 *
 * @param address the path's peer address
 * @param mtu the path's MTU now, in bytes of IP packet (what DATA is cut for)
 * @param searching whether a search is under way (false once SEARCH_COMPLETE, or with discovery off)
 * @param probesSent probe packets sent (HEARTBEAT padded with PAD, RFC 8899 section 6.2)
 * @param probesAcked probes the peer's HEARTBEAT ACK confirmed
 * @param probesLost probes given up after PROBE_TIMER
 * @param blackHoles times repeated loss of full-size packets took the path back to the base
 * @param packetTooBigApplied verified ICMP Packet Too Big reports that lowered the MTU
 * @param startedAtNanos when the last search started (the association came up, a black hole, the
 *     raise timer), on the endpoint's clock
 * @param completedAtNanos when the last search completed, on the endpoint's clock (-1: never)
 */
public record PmtuStats(
        InetAddress address,
        int mtu,
        boolean searching,
        long probesSent,
        long probesAcked,
        long probesLost,
        long blackHoles,
        long packetTooBigApplied,
        long startedAtNanos,
        long completedAtNanos) {}
