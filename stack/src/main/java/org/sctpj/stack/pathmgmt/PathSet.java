package org.sctpj.stack.pathmgmt;

import java.net.InetAddress;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.PeerAddressState;
import org.sctpj.stack.addr.AddressPolicy;
import org.sctpj.stack.assoc.Association;
import org.sctpj.stack.assoc.Tcb;
import org.sctpj.stack.assoc.TimerKind;
import org.sctpj.stack.assoc.TimerTable;
import org.sctpj.stack.handshake.StateCookie;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.path.PathStatus;

/**
 * The association's set of destinations: adding a path per peer address (confirmed or not, RFC
 * 9260 section 5.4), the address policy's plan (CMT path set, source address per path, its
 * primary), the local address each path's packets leave from, where answers go while an address
 * is unconfirmed, and setting the primary (section 10.1 SET PRIMARY) and a path's MTU.
 */
public final class PathSet {

    private final Tcb t;

    /** The path set of the association {@code t} describes. */
    public PathSet(Tcb t) {
        this.t = t;
    }

    /**
     * Adds a path to {@code addr} with {@code status}, its T3-rtx bound to the timer table and its
     * first HEARTBEAT scheduled; returns the existing path for a known address, or null when the
     * association has as many paths as it keeps ({@link StateCookie#MAX_ADDRESSES}). An address
     * the peer deleted earlier (RFC 5061) gets a fresh path at its old index.
     */
    public Path addPath(InetAddress addr, PathStatus status, long now) {
        for (Path p : t.paths) {
            if (p.address().equals(addr)) {
                return p.removed() ? install(p.index(), addr, status, now) : p;
            }
        }
        if (t.paths.size() >= StateCookie.MAX_ADDRESSES) {
            return null;
        }
        return install(t.paths.size(), addr, status, now);
    }

    /** A new path of index {@code index} (appended, or replacing a deleted one). */
    private Path install(int index, InetAddress addr, PathStatus status, long now) {
        Path p = new Path(index, addr, t.o.pathMtu(), t.o);
        p.setStatus(status);
        p.bindT3(t.timers.slots(), TimerTable.slot(TimerKind.T3_RTX, p.index()));
        if (index == t.paths.size()) {
            t.paths.add(p);
        } else {
            t.paths.set(index, p);
        }
        t.timers.usePaths(t.paths.size());
        if (t.tx != null) {
            t.cc.init(p, t.tx.peerRwnd());
        }
        t.heartbeats.pathAdded(p, now);
        t.host.peerAddressesChanged(t.association);
        return p;
    }

    /**
     * The paths the peer has not deleted (RFC 5061): those that count as its addresses.
     */
    public int livePaths() {
        int n = 0;
        for (Path p : t.paths) {
            n += p.removed() ? 0 : 1;
        }
        return n;
    }

    /**
     * Deletes the path to {@code addr} because the peer deleted the address (RFC 5061 section
     * 5.2): it stays in the list at its index, inactive for good ({@link Path#removed()}); its
     * heartbeats and timers stop, the data outstanding on it is marked for retransmission on
     * another path, and when it was the primary, {@code newPrimary} (another live path) becomes
     * the primary. Packets from the address no longer reach the association. The caller checked
     * that it is not the last one. Returns false when {@code addr} is no path of ours.
     */
    public boolean removePath(InetAddress addr, InetAddress newPrimary, long now) {
        Path p = t.pathOf(addr);
        if (p == null) {
            return false;
        }
        p.markRemoved();
        p.stopT3();
        t.timers.start(TimerKind.PMTU, p.index(), TimerTable.NONE);
        t.heartbeats.pathRemoved(p);
        if (t.tx != null) {
            t.tx.pathRemoved(p, t.paths);
        }
        t.pairedSources.remove(addr);
        t.replySources.remove(addr);
        t.pinnedByPrefix.remove(addr);
        if (addr.equals(t.pendingPrimary)) {
            t.pendingPrimary = null;
            t.pendingPrimaryFromPeer = false;
        }
        if (p.index() == t.primary) {
            Path q = newPrimary != null ? t.pathOf(newPrimary) : null;
            if (q == null) {
                q = t.failover.dataPath();
            }
            if (q.removed()) {
                q = firstConfirmed();
            }
            t.primary = q.index();
            t.host.emit(new SctpEvent.PeerAddressChange(t.id, q.address(), PeerAddressState.MADE_PRIMARY));
        }
        t.host.peerAddressesChanged(t.association);
        return true;
    }

    /**
     * Takes the peer's listed addresses (of its INIT ACK, or of its INIT in a cookie) as
     * unconfirmed paths (RFC 9260 section 5.4), those the address policy keeps when there is one,
     * with {@code keep} (a confirmed address) kept in any case.
     */
    public void addListedPaths(InetAddress keep, List<InetAddress> listed, long now) {
        Set<InetAddress> known = new LinkedHashSet<>();
        known.add(keep);
        known.addAll(t.peerAddresses());
        known.addAll(listed);
        t.announce(known);
        Optional<AddressPolicy.Plan> plan = t.host.planPaths(List.copyOf(known), Optional.of(keep));
        for (InetAddress a : listed) {
            if (plan.isEmpty() || plan.get().peers().contains(a)) {
                addPath(a, PathStatus.UNCONFIRMED, now);
            }
        }
        plan.ifPresent(this::applyPlan);
    }

    /**
     * Takes the address policy's decisions: the CMT path set, the source address per path, and
     * its primary (at once if that path is confirmed and the association established, else when
     * both hold; see {@link #adoptPendingPrimary}).
     */
    public void applyPlan(AddressPolicy.Plan plan) {
        t.policyActive = true;
        for (Path p : t.paths) {
            p.setInCmtSet(plan.inCmtSet(p.address()));
        }
        t.pairedSources.putAll(plan.sources());
        t.pendingPrimary = plan.primary().orElse(null);
        t.pendingPrimaryFromPeer = false;
        adoptPendingPrimary();
    }

    /**
     * Remembers that the handshake with {@code peer} arrived on {@code local}, so that replies to
     * {@code peer} leave from it: a peer expects answers from the address it contacted. Kept only
     * when {@code local} is at least as close to {@code peer} (longest common prefix) as the
     * endpoint's own choice, or when an address policy is active: a multihomed peer that answers
     * from its second address must not have that path's packets sent from the first path's
     * address, or a cut of the first path would take the second one down too.
     */
    public void answerFrom(InetAddress peer, InetAddress local) {
        if (local == null || local.isAnyLocalAddress()) {
            return;
        }
        t.replySources.put(peer, local);
        if (commonPrefix(local, peer) >= commonPrefix(t.host.sourceFor(peer), peer)) {
            t.pinnedByPrefix.add(peer);
        }
    }

    /** Bits two addresses share from the left (0 across families). */
    static int commonPrefix(InetAddress x, InetAddress y) {
        byte[] a = x.getAddress();
        byte[] b = y.getAddress();
        if (a.length != b.length) {
            return 0;
        }
        int bits = 0;
        for (int i = 0; i < a.length; i++) {
            int d = (a[i] ^ b[i]) & 0xff;
            if (d != 0) {
                return bits + Integer.numberOfLeadingZeros(d) - 24;
            }
            bits += 8;
        }
        return bits;
    }

    /**
     * Makes the pending primary (the policy's, or the peer's Set Primary Address) the primary once
     * established with its path confirmed; the peer's is reported then with MADE_PRIMARY (RFC 5061
     * section 4.2.4: the path becomes the primary when it can carry data).
     */
    public void adoptPendingPrimary() {
        if (t.pendingPrimary == null || t.settingUp()) {
            return;
        }
        Path p = t.pathOf(t.pendingPrimary);
        if (p == null || p.removed()) {
            t.pendingPrimary = null;
            t.pendingPrimaryFromPeer = false;
        } else if (p.status() == PathStatus.ACTIVE) {
            boolean report = t.pendingPrimaryFromPeer;
            t.primary = p.index();
            t.pendingPrimary = null;
            t.pendingPrimaryFromPeer = false;
            if (report) {
                t.host.emit(new SctpEvent.PeerAddressChange(t.id, p.address(), PeerAddressState.MADE_PRIMARY));
            }
        }
    }

    /**
     * The local address packets to {@code peer} leave from: the address policy's pair for it if
     * there is one, else what the endpoint chooses.
     */
    public InetAddress sourceFor(InetAddress peer) {
        InetAddress src = t.pairedSources.get(peer);
        if (src == null && (t.policyActive || t.pinnedByPrefix.contains(peer))) {
            // Answer from where the peer reached us (see answerFrom for when that holds).
            src = t.replySources.get(peer);
        }
        if (src != null) {
            return src;
        }
        src = t.host.sourceFor(peer);
        if (!t.asconf.mayUseSource(src)) {
            // Our addresses changed (RFC 5061): only those the association keeps.
            src = org.sctpj.stack.Endpoint.chooseSource(List.copyOf(t.asconf.localAddresses()), peer);
        }
        return src;
    }

    /**
     * Where an answer to a packet from {@code from} goes: back to it (RFC 9260 section 6.4), unless
     * it is a path still unconfirmed, where only HEARTBEATs may go (section 5.4): then to the path
     * new data takes.
     */
    public InetAddress replyTo(InetAddress from) {
        Path p = t.pathOf(from);
        return p != null && p.status() == PathStatus.UNCONFIRMED
                ? t.failover.dataPath().address()
                : from;
    }

    /** The first path that is not unconfirmed, else the primary. */
    Path firstConfirmed() {
        for (Path q : t.paths) {
            if (q.status() != PathStatus.UNCONFIRMED && !q.removed()) {
                return q;
            }
        }
        return t.paths.get(t.primary);
    }

    /** See {@link Association#setPrimary}. */
    public void setPrimary(InetAddress address) {
        for (Path p : t.paths) {
            if (p.address().equals(address)) {
                t.primary = p.index();
                t.pendingPrimary = null;
                t.pendingPrimaryFromPeer = false;
                t.host.emit(new SctpEvent.PeerAddressChange(t.id, address, PeerAddressState.MADE_PRIMARY));
                return;
            }
        }
        throw new IllegalArgumentException(
                address + " is not an address of the peer of " + t.id + ": " + t.peerAddresses());
    }

    /** See {@link Association#setPathMtu}. */
    public void setPathMtu(InetAddress address, int mtu) {
        if (mtu < 576 || mtu > 65535) {
            throw new IllegalArgumentException("MTU must be 576..65535, was " + mtu);
        }
        for (Path p : t.paths) {
            if (p.address().equals(address)) {
                p.setMtu(mtu);
                return;
            }
        }
        throw new IllegalArgumentException(address + " is not an address of the peer of " + t.id);
    }
}
