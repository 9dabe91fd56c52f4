package org.sctpj.stack;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.sctpj.stack.assoc.Association;
import org.sctpj.stack.assoc.Counters;
import org.sctpj.stack.path.Path;

/**
 * Counters of an association in both directions, from its start, and of each of its paths: what a
 * monitoring page or a bug report shows. Counts only grow. Taken with {@link
 * Endpoint#associationStats} (the callback and socket APIs offer the same snapshot).
 *
 * @param id the association
 * @param state its state now (RFC 9260 section 4)
 * @param messagesSent messages the user handed over and the association accepted
 * @param bytesSent their user bytes
 * @param messagesReceived messages delivered to the user whole (those delivered in parts are not
 *     counted)
 * @param chunksReceived new DATA or I-DATA chunks received (duplicates and chunks dropped for lack
 *     of room excluded)
 * @param bytesReceived their user bytes
 * @param duplicatesReceived DATA chunks received again (RFC 9260 section 6.2)
 * @param outOfOrderReceived new chunks that arrived above a gap (a lower TSN still missing)
 * @param droppedNoRoom DATA chunks the receiver dropped for lack of room
 * @param sacksSent SACKs sent
 * @param gapSacksSent SACKs sent that reported gap ack blocks
 * @param sacksReceived SACKs received
 * @param gapSacksReceived SACKs received that reported gap ack blocks
 * @param duplicatesReportedByPeer duplicate TSNs the peer reported
 * @param timeoutRetransmissions T3-rtx expirations, all paths (RFC 9260 section 6.3.3)
 * @param fastRetransmissions DATA chunks marked for fast retransmission (section 7.2.4)
 * @param fastRecoveries times the sender entered Fast Recovery
 * @param chunksRetransmitted DATA chunks retransmitted, all paths, however decided
 * @param abandoned messages abandoned under a PR-SCTP policy (RFC 7496), sent or not
 * @param paths one entry per peer address
 */
public record AssociationStats(
        AssociationId id,
        String state,
        long messagesSent,
        long bytesSent,
        long messagesReceived,
        long chunksReceived,
        long bytesReceived,
        long duplicatesReceived,
        long outOfOrderReceived,
        long droppedNoRoom,
        long sacksSent,
        long gapSacksSent,
        long sacksReceived,
        long gapSacksReceived,
        long duplicatesReportedByPeer,
        long timeoutRetransmissions,
        long fastRetransmissions,
        long fastRecoveries,
        long chunksRetransmitted,
        long abandoned,
        List<PathStats> paths) {

    /**
     * Counters of one path, both directions.
     *
     * @param address the peer address
     * @param status UNCONFIRMED, ACTIVE, POTENTIALLY_FAILED (RFC 7829) or INACTIVE
     * @param packetsSent packets carrying DATA sent to it (SACK-only and control packets are not counted)
     * @param bytesSent user bytes sent to it, retransmissions included
     * @param chunksReceived new DATA or I-DATA chunks that arrived from it
     * @param bytesReceived their user bytes
     * @param chunksRetransmitted DATA chunks retransmitted to it
     * @param timeoutRetransmissions T3-rtx expirations of the path
     * @param rttNanos the latest round-trip measurement (0 before any; RFC 9260 section 6.3.1)
     * @param srttNanos smoothed RTT (0 before any measurement)
     * @param rttvarNanos RTT variation
     * @param rtoNanos current retransmission timeout
     * @param cwnd congestion window, bytes
     * @param ssthresh slow-start threshold, bytes
     * @param flightSize user bytes in flight on the path now
     */
    public record PathStats(
            InetAddress address,
            String status,
            long packetsSent,
            long bytesSent,
            long chunksReceived,
            long bytesReceived,
            long chunksRetransmitted,
            long timeoutRetransmissions,
            long rttNanos,
            long srttNanos,
            long rttvarNanos,
            long rtoNanos,
            long cwnd,
            long ssthresh,
            long flightSize) {}

    /** Copies the list. */
    public AssociationStats {
        paths = List.copyOf(paths);
    }

    static AssociationStats of(Association a) {
        List<PathStats> ps = new ArrayList<>();
        long rtx = 0;
        for (Path p : a.paths()) {
            rtx += p.chunksRetransmitted();
            ps.add(new PathStats(
                    p.address(),
                    p.status().name(),
                    p.packetsSent(),
                    p.bytesSent(),
                    p.chunksReceived(),
                    p.bytesReceived(),
                    p.chunksRetransmitted(),
                    p.t3Expirations(),
                    p.rto().lastRtt(),
                    p.rto().srtt(),
                    p.rto().rttvar(),
                    p.rto().rto(),
                    p.cwnd(),
                    p.ssthresh(),
                    p.flightSize()));
        }
        Counters c = a.counters();
        PrStatus pr = a.prStatus();
        return new AssociationStats(
                a.id(),
                a.state().name(),
                c.messagesSent,
                c.bytesSent,
                c.messagesDelivered,
                c.chunksReceived,
                c.bytesReceived,
                c.duplicatesReceived,
                c.outOfOrderReceived,
                a.receiver() == null ? 0 : a.receiver().droppedChunks(),
                c.sacksSent,
                c.gapSacksSent,
                c.sacksReceived,
                c.gapSacksReceived,
                c.duplicatesReportedByPeer,
                c.t3Expirations,
                c.fastRetransmits,
                c.fastRecoveries,
                rtx,
                pr.timeToLive().total()
                        + pr.limitedRetransmissions().total()
                        + pr.priority().total(),
                ps);
    }
}
