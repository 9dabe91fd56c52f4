package org.sctpj.stack.addr;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * Chooses addresses for an association: which local addresses to announce in INIT / INIT ACK,
 * in which order to try the peer's addresses, and which (local, peer) pairs to use as paths (the
 * first one being the primary, the whole set being the CMT path set).
 *
 * <p>Pluggable: {@link DefaultAddressSelector} applies the rules of SEEDS section 5; {@link
 * ExplicitAddressSelector} uses lists the user gives. Implementations are pure functions of
 * their arguments: no I/O, no lookups, no clock; the host's interfaces are passed in as data.
 *
 * <p>Peer address lists follow the order the association keeps them in: <b>the first address is
 * the one the peer was reached at or the source address of its INIT / INIT ACK</b> (RFC 9260
 * section 5.1.2 makes the source address a peer address; behind NAT it is the only trustworthy
 * one). Selectors use it to tell whether the peer is on this host or on-link.
 */
public interface AddressSelector {

    /**
     * The local addresses to list in INIT or INIT ACK, in order. An empty list means "list none":
     * the peer then uses the packet's source address only.
     *
     * @param host the host's interfaces
     * @param peerHint the peer address being connected to, or the source of the INIT being
     *     answered; empty when unknown (then the peer is assumed not to be local)
     */
    List<InetAddress> announce(List<LocalInterface> host, Optional<InetAddress> peerHint);

    /**
     * The peer addresses this host should use, best first; unusable ones are left out.
     *
     * @param host the host's interfaces
     * @param peerAddrs the peer's addresses, first the source / connect address (see the type's
     *     Javadoc); duplicates are ignored
     * @param collisions what is known about colliding private addresses
     */
    List<InetAddress> rankPeer(List<LocalInterface> host, List<InetAddress> peerAddrs, CollisionInfo collisions);

    /**
     * The paths to use: at most one per local interface and one per peer interface; the first is
     * the primary path, all of them form the CMT path set. Empty if no pair is usable.
     *
     * @param host the host's interfaces
     * @param peer the peer's addresses grouped by peer interface; the first address of the first
     *     interface is the source / connect address (see the type's Javadoc)
     * @param collisions what is known about colliding private addresses
     */
    List<PathPair> pairPaths(List<LocalInterface> host, List<PeerInterface> peer, CollisionInfo collisions);

    /** {@link #pairPaths(List, List, CollisionInfo)} with no known collision. */
    default List<PathPair> pairPaths(List<LocalInterface> host, List<PeerInterface> peer) {
        return pairPaths(host, peer, CollisionInfo.NONE);
    }
}
