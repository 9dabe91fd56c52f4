package org.sctpj.stack.tx;

import java.net.InetAddress;
import java.util.List;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SctpOptions.RetransmissionPolicy;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.path.PathStatus;

/**
 * Destination choice of Concurrent Multipath Transfer (Iyengar, Amer, Stewart, "Concurrent
 * Multipath Transfer Using SCTP Multihoming Over Independent End-to-End Paths", IEEE/ACM ToN
 * 2006), the {@link PathScheduling} of an association with {@link SctpOptions#cmt()}: which
 * destinations take new data, in which order, where retransmissions go, and buffer splitting.
 *
 * <ul>
 *   <li>new data goes to every {@link PathStatus#ACTIVE} destination of the CMT path set ({@link
 *       Path#inCmtSet()}: every path unless an address policy chose a subset) within its own cwnd; with
 *       SCTP-PF on (CMT-PF), a {@link PathStatus#POTENTIALLY_FAILED} destination takes none while
 *       another is active;
 *   <li>retransmissions go by a {@link RetransmissionPolicy}: the destination with the largest
 *       ssthresh (RTX-SSTHRESH), the largest cwnd (RTX-CWND), or the one the chunk was last sent to
 *       (RTX-SAME). Among active destinations those with the fewest consecutive errors come first,
 *       so that without SCTP-PF a destination that just timed out is not chosen while a clean one
 *       exists (a deviation from the paper's pure ssthresh/cwnd order, which ties it to luck).
 *   <li>packets of new data go to those destinations in round robin, one packet each, each within
 *       its own cwnd ({@link #transmit});
 *   <li>buffer splitting ({@link SctpOptions#bufferSplitting()}): with n such destinations, each
 *       may have at most 1/n of the peer's window in flight, so that one failing path cannot take
 *       the whole window;
 *   <li>send-buffer splitting ({@link SctpOptions#sendBufferSplitting()}, as usrsctp's
 *       {@code SCTP_SEND_BUFFER_SPLITTING}): each may have at most 1/n of our send buffer in flight,
 *       so that a slow destination cannot hold the whole send buffer while a fast one waits.
 * </ul>
 *
 * <p>The rules on which destinations are eligible are static; the instance keeps the round-robin
 * position and the retransmission target of the packet being filled. The CMT loss rules are in
 * {@link CmtLossDetector}.
 */
public final class CmtScheduler implements PathScheduling {

    private final RetransmissionPolicy policy;
    private final boolean bufferSplitting;
    private final boolean sendBufferSplitting;
    private final long sendBuffer;
    /** The path after the one that last got data, for round robin over destinations. */
    private int nextPath;
    /** Where retransmissions go in the packet being filled (null: wherever it is sent). */
    private Path rtxTarget;

    CmtScheduler(SctpOptions o) {
        this.policy = o.retransmissionPolicy();
        this.bufferSplitting = o.bufferSplitting();
        this.sendBufferSplitting = o.sendBufferSplitting();
        this.sendBuffer = o.sendBufferBytes();
    }

    @Override
    public boolean stripes(List<Path> paths) {
        return activeCount(paths) > 0;
    }

    /**
     * The next packet of DATA, from the active destinations in turn (round robin, one packet
     * each), each within its own cwnd; null when none may send.
     */
    @Override
    public InetAddress transmit(List<Path> paths, PacketAttempt attempt, long now) {
        int n = paths.size();
        for (int k = 0; k < n; k++) {
            int idx = (nextPath + k) % n;
            Path p = paths.get(idx);
            if (!takesNewData(p)) {
                continue;
            }
            InetAddress dest = attempt.tryPath(p, now);
            if (dest != null) {
                nextPath = (idx + 1) % n;
                return dest;
            }
        }
        return null;
    }

    @Override
    public void beginFill(List<Path> paths) {
        rtxTarget = retransmissionTarget(paths, policy);
    }

    @Override
    public boolean retransmitsTo(Path last, Path p) {
        Path t = retransmissionPathFor(last, rtxTarget, policy);
        return t == null || t == p;
    }

    /**
     * Buffer splitting: with n active destinations, p may have at most 1/n of the peer's window
     * (its last a_rwnd, that is the free estimate plus what is unacknowledged) in flight, and with
     * send-buffer splitting at most 1/n of {@link SctpOptions#sendBufferBytes()}.
     */
    @Override
    public boolean withinShare(Path p, List<Path> paths, long peerWindow) {
        if (!bufferSplitting && !sendBufferSplitting) {
            return true;
        }
        int n = activeCount(paths);
        if (n <= 1 || !takesNewData(p)) {
            return true;
        }
        long flight = p.flightSize();
        return (!bufferSplitting || flight < peerWindow / n) && (!sendBufferSplitting || flight < sendBuffer / n);
    }

    @Override
    public boolean sendsNewDataTo(Path p) {
        return takesNewData(p);
    }

    /**
     * Whether CMT may send new data to {@code p}: it is active and in the CMT path set. When no
     * destination takes new data, the association falls back to one destination at a time (the
     * primary or the best active path), so a path outside the set still carries data after every
     * path of the set failed.
     */
    public static boolean takesNewData(Path p) {
        return p.status() == PathStatus.ACTIVE && p.inCmtSet();
    }

    /** The number of destinations that take new data ({@link #takesNewData}). */
    public static int activeCount(List<Path> paths) {
        int n = 0;
        for (Path p : paths) {
            if (takesNewData(p)) {
                n++;
            }
        }
        return n;
    }

    /**
     * The destination taking new data ({@link #takesNewData}: active and in the CMT path set) the
     * policy picks for retransmissions; {@code null} if there is none (the caller then retransmits
     * wherever it sends). Paths outside the set are never chosen: CMT sends nothing to them while
     * a path of the set is active, so a retransmission aimed there would wait forever. For {@link
     * RetransmissionPolicy#SAME_DESTINATION} this is the fallback for chunks whose destination is
     * no longer active, chosen as for {@link RetransmissionPolicy#LARGEST_SSTHRESH}.
     */
    public static Path retransmissionTarget(List<Path> paths, RetransmissionPolicy policy) {
        Path best = null;
        for (Path p : paths) {
            if (!takesNewData(p)) {
                continue;
            }
            if (best == null || better(p, best, policy)) {
                best = p;
            }
        }
        return best;
    }

    private static boolean better(Path p, Path best, RetransmissionPolicy policy) {
        if (p.errorCount() != best.errorCount()) {
            return p.errorCount() < best.errorCount();
        }
        return policy == RetransmissionPolicy.LARGEST_CWND ? p.cwnd() > best.cwnd() : p.ssthresh() > best.ssthresh();
    }

    /**
     * Where a chunk last sent to {@code last} is retransmitted: {@code last} itself under {@link
     * RetransmissionPolicy#SAME_DESTINATION} while it takes new data, otherwise {@code target}
     * (from {@link #retransmissionTarget}, may be null).
     */
    public static Path retransmissionPathFor(Path last, Path target, RetransmissionPolicy policy) {
        if (policy == RetransmissionPolicy.SAME_DESTINATION && takesNewData(last)) {
            return last;
        }
        return target;
    }
}
