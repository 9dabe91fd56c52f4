package org.sctpj.stack.addr;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An endpoint's address policy: the host's interfaces, the {@link AddressSelector} that decides,
 * and what is known about colliding private addresses. Set with {@code
 * Endpoint.setAddressPolicy}; without one the endpoint announces its local addresses, uses every
 * peer address in the order given and picks sources by longest prefix.
 *
 * <p>With a policy the endpoint uses it for:
 *
 * <ol>
 *   <li>the addresses listed in INIT and INIT ACK: {@link #announce};
 *   <li>the peer addresses an association uses, from {@code connect} and from the peer's INIT /
 *       INIT ACK: {@link #plan} ranks and filters them;
 *   <li>the source address towards each peer address: the local address of its {@link PathPair}
 *       when it has one, else {@link #sourceFor};
 *   <li>the CMT path set: the peer addresses of the pairs (the selector's matching).
 * </ol>
 *
 * <p>Pure data and logic (no I/O): the host's interfaces are discovered by a lower layer (for
 * example {@code Interfaces.localInterfaces()} of {@code llp-raw}) and passed in.
 *
 * @param host the host's interfaces
 * @param selector the rules: {@link DefaultAddressSelector#INSTANCE} or an {@link
 *     ExplicitAddressSelector}
 * @param collisions what is known about colliding private addresses ({@link CollisionInfo#NONE}
 *     when nothing is)
 */
public record AddressPolicy(List<LocalInterface> host, AddressSelector selector, CollisionInfo collisions) {

    /**
     * What a policy decided for one association's peer addresses.
     *
     * @param peers the peer addresses to use, the primary first: the peer addresses of {@link
     *     #pairs} in their order, then the other usable ones by rank, then the address that had to
     *     be kept (see {@link AddressPolicy#plan}) if the selector left it out
     * @param pairs the chosen paths (the selector's matching): their peer addresses form the CMT
     *     path set and their local addresses are the sources; empty if no pair is usable
     */
    public record Plan(List<InetAddress> peers, List<PathPair> pairs) {

        /** Copies the lists. */
        public Plan {
            if (peers == null || pairs == null) {
                throw new IllegalArgumentException("peers and pairs must not be null (use List.of())");
            }
            peers = List.copyOf(peers);
            pairs = List.copyOf(pairs);
        }

        /** The primary path's address, if any address is usable. */
        public Optional<InetAddress> primary() {
            return peers.isEmpty() ? Optional.empty() : Optional.of(peers.get(0));
        }

        /**
         * Whether new data may be striped onto {@code peer} under CMT: it is the peer address of a
         * pair, or no pair was found (then every usable address takes part).
         */
        public boolean inCmtSet(InetAddress peer) {
            if (pairs.isEmpty()) {
                return true;
            }
            for (PathPair p : pairs) {
                if (p.peerAddress().equals(peer)) {
                    return true;
                }
            }
            return false;
        }

        /** The local address of the pair whose peer address is {@code peer}, if there is one. */
        public Optional<InetAddress> pairedSource(InetAddress peer) {
            for (PathPair p : pairs) {
                if (p.peerAddress().equals(peer)) {
                    return Optional.of(p.localAddress());
                }
            }
            return Optional.empty();
        }

        /** The sources of the pairs by peer address (for a lookup per packet). */
        public Map<InetAddress, InetAddress> sources() {
            Map<InetAddress, InetAddress> m = new HashMap<>();
            for (PathPair p : pairs) {
                m.putIfAbsent(p.peerAddress(), p.localAddress());
            }
            return m;
        }
    }

    /** Validates and copies the interface list. */
    public AddressPolicy {
        if (host == null || selector == null || collisions == null) {
            throw new IllegalArgumentException(
                    "host, selector and collisions must not be null (use DefaultAddressSelector.INSTANCE,"
                            + " CollisionInfo.NONE)");
        }
        host = List.copyOf(host);
    }

    /** The default rules ({@link DefaultAddressSelector}) with no known collision. */
    public static AddressPolicy of(List<LocalInterface> host) {
        return new AddressPolicy(host, DefaultAddressSelector.INSTANCE, CollisionInfo.NONE);
    }

    /**
     * The local addresses to list in an INIT or INIT ACK sent to {@code peer} (the connect address
     * or the source of the INIT being answered).
     */
    public List<InetAddress> announce(InetAddress peer) {
        return selector.announce(host, Optional.of(peer));
    }

    /**
     * Ranks and filters the peer addresses of an association and pairs them with local
     * interfaces.
     *
     * @param peers the peer's addresses, first the connect address or the source of the peer's
     *     INIT / INIT ACK / COOKIE ECHO (see {@link AddressSelector})
     * @param keep an address to keep even if the selector leaves it out: the address the
     *     handshake already used, which is known to work (behind NAT it may be the only one that
     *     does); empty for none
     */
    public Plan plan(List<InetAddress> peers, Optional<InetAddress> keep) {
        if (peers == null || keep == null) {
            throw new IllegalArgumentException("peers and keep must not be null (use List.of(), Optional.empty())");
        }
        List<InetAddress> ranked = selector.rankPeer(host, peers, collisions);
        List<PathPair> pairs = selector.pairPaths(host, PeerInterface.eachAddress(ranked), collisions);
        Set<InetAddress> order = new LinkedHashSet<>();
        for (PathPair p : pairs) {
            order.add(p.peerAddress());
        }
        order.addAll(ranked);
        keep.ifPresent(order::add);
        return new Plan(new ArrayList<>(order), pairs);
    }

    /**
     * A source address towards {@code destination} when no pair names one: among the host's
     * addresses of the same family, one of the same {@link AddressClass} if there is one, sharing
     * the longest prefix with it; empty if the host has no address of that family.
     */
    public Optional<InetAddress> sourceFor(InetAddress destination) {
        AddressClass dc = AddressClass.of(destination);
        InetAddress best = null;
        int bestScore = -1;
        for (LocalInterface itf : host) {
            for (LocalInterface.Address a : itf.addresses()) {
                InetAddress l = a.address();
                if ((l instanceof Inet4Address) != (destination instanceof Inet4Address)) {
                    continue;
                }
                AddressClass lc = a.addressClass();
                if (lc == AddressClass.IPV4_MAPPED || lc == AddressClass.OTHER) {
                    continue;
                }
                int score = (lc == dc ? 256 : 0) + Literals.commonPrefix(l, destination);
                if (score > bestScore) {
                    best = l;
                    bestScore = score;
                }
            }
        }
        return Optional.ofNullable(best);
    }
}
