package org.sctpj.stack.pathmgmt;

import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpEvent.PeerAddressState;
import org.sctpj.stack.assoc.Association;
import org.sctpj.stack.assoc.Tcb;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.path.PathStatus;

/**
 * Fault management (RFC 9260 sections 8.1 and 8.2) with SCTP-PF (RFC 7829): the error counters of
 * each path and of the association, a path's status as errors come and go (active, Potentially
 * Failed, inactive) with the events that report it, the path new data takes (the primary while it
 * is active, else the best other one: failover, and return to the primary once it is active again),
 * and the Primary Path Switchover of RFC 7829 section 6.
 */
public final class Failover {

    private final Tcb t;

    /** The fault management of the association {@code t} describes. */
    public Failover(Tcb t) {
        this.t = t;
    }

    /**
     * The path new data and retransmissions go to (one destination at a time, without CMT):
     *
     * <ul>
     *   <li>the primary while it is active: with SCTP-PF (the default, PFMR 0) that is until its
     *       first timeout, after which it is Potentially Failed; with SCTP-PF off, until
     *       Path.Max.Retrans is exceeded (the plain failover of RFC 4960 that RFC 7829 improves on);
     *   <li>otherwise the active path with the fewest errors;
     *   <li>with none active, the Potentially Failed path with the fewest errors, ties going to
     *       the one most recently acknowledged (RFC 7829 section 5.1);
     *   <li>with everything inactive, the primary (or any confirmed path): the dormant state.
     * </ul>
     */
    public Path dataPath() {
        Path p = t.paths.get(t.primary);
        if (p.status() == PathStatus.ACTIVE) {
            return p;
        }
        Path best = null;
        for (int k = 0; k < t.paths.size(); k++) {
            Path q = t.paths.get(k);
            if (q.status() == PathStatus.ACTIVE && (best == null || q.errorCount() < best.errorCount())) {
                best = q;
            }
        }
        if (best != null) {
            return best;
        }
        for (Path q : t.paths) {
            if (q.status() == PathStatus.POTENTIALLY_FAILED
                    && (best == null
                            || q.errorCount() < best.errorCount()
                            || (q.errorCount() == best.errorCount() && q.lastAckNanos() > best.lastAckNanos()))) {
                best = q;
            }
        }
        if (best != null) {
            return best;
        }
        // Everything is inactive: keep trying the primary (or any confirmed path).
        return p.status() == PathStatus.UNCONFIRMED ? t.pathSet.firstConfirmed() : p;
    }

    /**
     * A timeout on path p (RFC 9260 section 8.2): past Path.Max.Retrans errors it is inactive; with
     * SCTP-PF, past PFMR errors it is Potentially Failed and probed at once (RFC 7829 section 5.1).
     */
    public void pathError(Path p, long now) {
        p.incrementErrorCount();
        boolean up = p.status() == PathStatus.ACTIVE || p.status() == PathStatus.POTENTIALLY_FAILED;
        if (p.errorCount() > t.o.pathMaxRetrans() && up) {
            setPathStatus(p, PathStatus.INACTIVE);
        } else if (p.status() == PathStatus.ACTIVE
                && t.o.potentiallyFailedEnabled()
                && p.errorCount() > t.o.pfMaxRetrans()) {
            setPathStatus(p, PathStatus.POTENTIALLY_FAILED);
            t.heartbeats.probeNow(p, now);
        }
        if (t.o.primarySwitchover() && p.index() == t.primary && p.status() != PathStatus.ACTIVE) {
            switchPrimary();
        }
    }

    /**
     * RFC 7829 section 6, Primary Path Switchover: the primary failed (PF or inactive), so the
     * active path with the fewest errors becomes the primary and stays so after the old one
     * recovers.
     */
    private void switchPrimary() {
        Path best = null;
        for (Path q : t.paths) {
            if (q.status() == PathStatus.ACTIVE && (best == null || q.errorCount() < best.errorCount())) {
                best = q;
            }
        }
        if (best != null && best.index() != t.primary) {
            t.primary = best.index();
            t.host.emit(new SctpEvent.PeerAddressChange(t.id, best.address(), PeerAddressState.MADE_PRIMARY));
        }
    }

    /**
     * A control chunk sent to {@code p} timed out unanswered (as T3-rtx, RFC 9260 section 6.3.3;
     * the RE-CONFIG and ASCONF timers): the path's RTO backs off and the error counts against the
     * path and the association. Returns false when that ended the association.
     */
    public boolean controlTimedOut(Path p, long now) {
        p.rto().backoff();
        pathError(p, now);
        if (t.state == Association.State.CLOSED) {
            return false;
        }
        countAssociationError(now);
        return t.state != Association.State.CLOSED;
    }

    /** A timeout counted against the association (RFC 9260 section 8.1). */
    public void countAssociationError(long now) {
        if (++t.associationErrors > t.o.associationMaxRetrans()) {
            t.abort.close(
                    AssociationChangeType.COMMUNICATION_LOST,
                    java.util.List.of(),
                    "peer unreachable: " + t.associationErrors + " consecutive timeouts",
                    now);
        }
    }

    /**
     * Sets a path's status and reports the change (unreachable, Potentially Failed, available
     * again); a path that becomes active may be the address policy's pending primary.
     */
    public void setPathStatus(Path p, PathStatus s) {
        PathStatus old = p.status();
        if (old == s || p.removed()) {
            return; // a path the peer deleted stays inactive (RFC 5061 section 5.2)
        }
        p.setStatus(s);
        if (s == PathStatus.ACTIVE && t.pendingPrimary != null) {
            t.pathSet.adoptPendingPrimary();
        }
        if (s == PathStatus.INACTIVE) {
            t.host.emit(new SctpEvent.PeerAddressChange(t.id, p.address(), PeerAddressState.UNREACHABLE));
        } else if (s == PathStatus.POTENTIALLY_FAILED) {
            t.host.emit(new SctpEvent.PeerAddressChange(t.id, p.address(), PeerAddressState.POTENTIALLY_FAILED));
        } else if (s == PathStatus.ACTIVE && (old == PathStatus.INACTIVE || old == PathStatus.POTENTIALLY_FAILED)) {
            t.host.emit(new SctpEvent.PeerAddressChange(t.id, p.address(), PeerAddressState.AVAILABLE));
        }
    }
}
