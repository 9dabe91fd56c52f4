package org.sctpj.stack;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.sctpj.stack.assoc.Association;
import org.sctpj.stack.path.Path;

/**
 * A snapshot of an association (RFC 6458 {@code SCTP_STATUS} and {@code SCTP_GET_PEER_ADDR_INFO}).
 *
 * @param id the association
 * @param state its state (RFC 9260 section 4), e.g. {@code ESTABLISHED}
 * @param primary the primary path's peer address
 * @param outboundStreams negotiated outbound streams
 * @param inboundStreams negotiated inbound streams
 * @param sendBufferFree free bytes in the send buffer
 * @param paths one entry per peer address
 * @param transfer both halves of the data transfer: windows, TSNs, outstanding, queued and
 *     received data
 * @param extensions the extensions the association uses: those both sides announced (RFC 5061
 *     section 4.2.7)
 * @param peerAdaptation the peer's Adaptation Code Point (RFC 5061 section 4.2.6), or -1 when it
 *     sent none
 */
public record AssociationInfo(
        AssociationId id,
        String state,
        InetAddress primary,
        int outboundStreams,
        int inboundStreams,
        long sendBufferFree,
        List<PathInfo> paths,
        TransferInfo transfer,
        Set<Extension> extensions,
        long peerAdaptation) {

    /**
     * Per-path statistics.
     *
     * @param address the peer address
     * @param status UNCONFIRMED, ACTIVE, POTENTIALLY_FAILED (RFC 7829) or INACTIVE
     * @param cwnd congestion window, bytes
     * @param ssthresh slow-start threshold, bytes
     * @param srttNanos smoothed RTT (0 before the first measurement)
     * @param rtoNanos current retransmission timeout
     * @param errorCount consecutive timeouts
     * @param bytesSent user-data bytes sent on the path, retransmissions included
     * @param packetsSent packets sent on the path
     * @param bytesRetransmitted user-data bytes retransmitted on the path
     * @param packetsRetransmitted packets sent on the path that carried a retransmitted chunk
     * @param chunksRetransmitted DATA chunks retransmitted on the path
     * @param flightSize user-data bytes in flight on the path now
     * @param source the local address packets on this path leave from
     * @param inCmtSet whether CMT stripes new data onto this path (every path unless an address
     *     policy chose a subset)
     * @param t3DeadlineNanos when T3-rtx of the path expires, on the endpoint's clock ({@link
     *     Long#MAX_VALUE} when it is not running)
     */
    public record PathInfo(
            InetAddress address,
            String status,
            long cwnd,
            long ssthresh,
            long srttNanos,
            long rtoNanos,
            int errorCount,
            long bytesSent,
            long packetsSent,
            long bytesRetransmitted,
            long packetsRetransmitted,
            long chunksRetransmitted,
            long flightSize,
            InetAddress source,
            boolean inCmtSet,
            long t3DeadlineNanos) {}

    static AssociationInfo of(Association a) {
        List<PathInfo> ps = new ArrayList<>();
        for (Path p : a.paths()) {
            if (p.removed()) {
                continue; // deleted by the peer (RFC 5061)
            }
            ps.add(new PathInfo(
                    p.address(),
                    p.status().name(),
                    p.cwnd(),
                    p.ssthresh(),
                    p.rto().srtt(),
                    p.rto().rto(),
                    p.errorCount(),
                    p.bytesSent(),
                    p.packetsSent(),
                    p.bytesRetransmitted(),
                    p.packetsRetransmitted(),
                    p.chunksRetransmitted(),
                    p.flightSize(),
                    a.sourceFor(p.address()),
                    p.inCmtSet(),
                    p.t3Deadline()));
        }
        return new AssociationInfo(
                a.id(),
                a.state().name(),
                a.primaryAddress(),
                a.outboundStreams(),
                a.inboundStreams(),
                a.sendBufferFree(),
                List.copyOf(ps),
                TransferInfo.of(a.sender(), a.receiver()),
                a.extensions(),
                a.peerAdaptation());
    }
}
