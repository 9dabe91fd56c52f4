package org.sctpj.stack.addr;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Address selection from lists the user gives, overriding the default rules: the user knows
 * the network better than any heuristic (for example which private addresses are routed, or
 * which interface pairs should carry CMT paths).
 *
 * <ul>
 *   <li>{@link #announce}: exactly {@link #localAddresses()}, whatever the host and peer.
 *   <li>{@link #rankPeer}: if {@link #peerAddresses()} is empty, the peer's addresses in the
 *       peer's order; otherwise those of {@link #peerAddresses()} that the peer has, in the
 *       user's order. Collision information is ignored (the user decided). IPv4-mapped,
 *       multicast and unspecified peer addresses are always left out.
 *   <li>{@link #pairPaths}: greedily in that order: each ranked peer address whose peer
 *       interface has no path yet gets the first local address of {@link #localAddresses()} in
 *       the same family whose local interface has no path yet. The user's order is the
 *       preference, so this is deliberately not a maximum matching. A local address not found
 *       in the host's interfaces counts as its own interface, named by the address. Weights are
 *       reported as {@link DefaultAddressSelector} would judge the pair (possibly {@link
 *       PathWeight#NONE}) but do not filter.
 * </ul>
 *
 * @param localAddresses the local addresses to announce and use, in order of preference (an
 *     empty list announces none: the peer uses the packet's source address)
 * @param peerAddresses the peer addresses to use, in order of preference; empty to take the
 *     peer's own list
 */
public record ExplicitAddressSelector(List<InetAddress> localAddresses, List<InetAddress> peerAddresses)
        implements AddressSelector {

    /** Validates and copies the lists. */
    public ExplicitAddressSelector {
        localAddresses = checked(localAddresses, "localAddresses");
        peerAddresses = checked(peerAddresses, "peerAddresses");
    }

    /** A selector with fixed local addresses that takes the peer's addresses as the peer lists them. */
    public static ExplicitAddressSelector ofLocal(List<InetAddress> localAddresses) {
        return new ExplicitAddressSelector(localAddresses, List.of());
    }

    @Override
    public List<InetAddress> announce(List<LocalInterface> host, Optional<InetAddress> peerHint) {
        return localAddresses;
    }

    @Override
    public List<InetAddress> rankPeer(List<LocalInterface> host, List<InetAddress> peerAddrs, CollisionInfo c) {
        if (peerAddrs == null) {
            throw new IllegalArgumentException("peerAddrs must not be null (use List.of())");
        }
        Set<InetAddress> offered = new HashSet<>();
        List<InetAddress> inPeerOrder = new ArrayList<>();
        for (InetAddress a : peerAddrs) {
            if (usable(a) && offered.add(a)) {
                inPeerOrder.add(a);
            }
        }
        if (peerAddresses.isEmpty()) {
            return List.copyOf(inPeerOrder);
        }
        return peerAddresses.stream().filter(offered::contains).toList();
    }

    @Override
    public List<PathPair> pairPaths(List<LocalInterface> host, List<PeerInterface> peer, CollisionInfo c) {
        if (host == null || peer == null) {
            throw new IllegalArgumentException("host and peer must not be null (use List.of())");
        }
        Map<InetAddress, String> peerItf = new LinkedHashMap<>();
        for (PeerInterface p : peer) {
            for (InetAddress a : p.addresses()) {
                peerItf.putIfAbsent(a, p.name());
            }
        }
        Map<InetAddress, LocalInterface.Address> localInfo = new HashMap<>();
        Map<InetAddress, String> localItf = new HashMap<>();
        for (LocalInterface itf : host) {
            for (LocalInterface.Address a : itf.addresses()) {
                localInfo.putIfAbsent(a.address(), a);
                localItf.putIfAbsent(a.address(), itf.name());
            }
        }
        List<InetAddress> ranked = rankPeer(host, new ArrayList<>(peerItf.keySet()), c);
        DefaultAddressSelector.Locality where = DefaultAddressSelector.Locality.of(
                host, peerItf.keySet().stream().findFirst());
        Set<String> usedPeer = new HashSet<>();
        Set<String> usedLocal = new HashSet<>();
        List<PathPair> out = new ArrayList<>();
        for (InetAddress p : ranked) {
            String pi = peerItf.get(p);
            if (usedPeer.contains(pi)) {
                continue;
            }
            for (InetAddress l : localAddresses) {
                String li = localItf.getOrDefault(l, l.getHostAddress());
                if ((l instanceof Inet4Address) != (p instanceof Inet4Address) || usedLocal.contains(li)) {
                    continue;
                }
                LocalInterface.Address info =
                        localInfo.getOrDefault(l, new LocalInterface.Address(l, Literals.bits(l)));
                PathWeight w = DefaultAddressSelector.weight(info, p, CollisionInfo.NONE, where);
                out.add(new PathPair(li, l, pi, p, w));
                usedPeer.add(pi);
                usedLocal.add(li);
                break;
            }
        }
        return List.copyOf(out);
    }

    private static boolean usable(InetAddress a) {
        return AddressClass.of(a) != AddressClass.IPV4_MAPPED && !a.isMulticastAddress() && !a.isAnyLocalAddress();
    }

    private static List<InetAddress> checked(List<InetAddress> list, String what) {
        if (list == null) {
            throw new IllegalArgumentException(what + " must not be null (use List.of())");
        }
        for (InetAddress a : list) {
            if (a == null) {
                throw new IllegalArgumentException(what + " must not contain null");
            }
            if (!usable(a)) {
                throw new IllegalArgumentException(what + " contains " + a.getHostAddress()
                        + ": IPv4-mapped, multicast and unspecified addresses are never used; pass a unicast address"
                        + " (for ::ffff:a.b.c.d pass the IPv4 address a.b.c.d)");
            }
        }
        return List.copyOf(new LinkedHashSet<>(list));
    }
}
