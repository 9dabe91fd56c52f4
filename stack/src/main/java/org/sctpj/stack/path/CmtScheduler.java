package org.sctpj.stack.path;

import java.util.List;
import org.sctpj.stack.SctpOptions.RetransmissionPolicy;

/**
 * Destination choice of Concurrent Multipath Transfer (Iyengar, Amer, Stewart, "Concurrent
 * Multipath Transfer Using SCTP Multihoming Over Independent End-to-End Paths", IEEE/ACM ToN
 * 2006): which destinations take new data, and where retransmissions go.
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
 * </ul>
 *
 * <p>Stateless; all methods are static.
 */
public final class CmtScheduler {

    private CmtScheduler() {}

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
