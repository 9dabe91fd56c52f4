package org.sctpj.stack.tx;

import java.net.InetAddress;
import java.util.List;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.path.Path;

/**
 * Data scheduling: which destinations take new data and retransmissions, chosen once per
 * association when its data path starts ({@link DataSender}'s constructor, from {@link
 * SctpOptions#cmt()}):
 *
 * <ul>
 *   <li>one destination at a time ({@link SinglePathScheduling}): everything goes to the path the
 *       association picks (its primary, or the path it failed over to, RFC 9260 section 6.4), and
 *       retransmissions go wherever it sends next (section 6.4.1);
 *   <li>Concurrent Multipath Transfer ({@link CmtScheduler}): every active destination of the CMT
 *       path set takes new data within its own cwnd, in round robin one packet each;
 *       retransmissions go by {@link SctpOptions#retransmissionPolicy()}; with buffer splitting a
 *       destination keeps at most its share of the peer's window in flight.
 * </ul>
 *
 * <p>The association asks {@link #sendsNewDataTo} whether a packet to a path may carry DATA beside
 * the single data path, {@link #stripes} whether this scheduling builds the next DATA packet
 * itself, and then {@link #transmit}; the {@link PacketFiller} asks the rest while filling a
 * packet. All on the association's thread.
 */
public interface PathScheduling {

    /**
     * What the association does to build one packet of DATA (and a due SACK) to a path: returns
     * the packet's destination, or null when nothing went into it.
     */
    @FunctionalInterface
    interface PacketAttempt {
        /** Builds a packet to {@code p}; its destination, or null if it stayed empty. */
        InetAddress tryPath(Path p, long now);
    }

    /**
     * Whether a packet to {@code p} may carry DATA even when p is not the association's single
     * data path (with CMT: p takes new data).
     */
    boolean sendsNewDataTo(Path p);

    /**
     * Whether this scheduling picks the destination of the next DATA packet itself ({@link
     * #transmit}); otherwise the association sends to its single data path.
     */
    boolean stripes(List<Path> paths);

    /**
     * The next DATA packet, when {@link #stripes}: tries destinations in turn through {@code
     * attempt} until one packet is built; its destination, or null when none may send.
     */
    InetAddress transmit(List<Path> paths, PacketAttempt attempt, long now);

    /** A packet to a path is being filled: fixes the retransmission target for it. */
    void beginFill(List<Path> paths);

    /** Whether a chunk marked for retransmission, last sent to {@code last}, may go to {@code p}. */
    boolean retransmitsTo(Path last, Path p);

    /**
     * Whether {@code p} may have more in flight given the peer's window {@code peerWindow} (its
     * last a_rwnd: the free estimate plus what is unacknowledged).
     */
    boolean withinShare(Path p, List<Path> paths, long peerWindow);
}
