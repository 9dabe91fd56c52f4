package org.sctpj.stack.addr;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The default address selection, following SEEDS section 5 (the Jena multi-domain cluster
 * theses): see the package documentation for the rules and their sources.
 *
 * <p>In short: announce every usable address (no loopback or link-local unless the peer is on
 * this host or on-link, never IPv4-mapped); use a peer address only if this host has an address
 * of the same class in the same family (so a private-only host never tries public IPv4), the
 * address is not one of this host's own, and, if private, it is trusted by the {@link
 * CollisionInfo}; rank by the best {@link PathWeight} over the host's addresses, keeping the
 * peer's order among equals; pair paths by a maximum matching of local and peer interfaces (most
 * pairs, then most weight).
 *
 * <p>Stateless and immutable; use {@link #INSTANCE}.
 */
public final class DefaultAddressSelector implements AddressSelector {

    /** The shared instance. */
    public static final DefaultAddressSelector INSTANCE = new DefaultAddressSelector();

    private DefaultAddressSelector() {}

    /**
     * Every address of the host in the host's order, without duplicates, except: {@link
     * AddressClass#IPV4_MAPPED} and {@link AddressClass#OTHER} never; {@link
     * AddressClass#LOOPBACK} only when the peer hint is a loopback address or one of the host's
     * own addresses (the peer is on this host); {@link AddressClass#LINK_LOCAL} only when the
     * peer hint is link-local, and then only those of the hint's family.
     */
    @Override
    public List<InetAddress> announce(List<LocalInterface> host, Optional<InetAddress> peerHint) {
        Locality where = Locality.of(host, peerHint);
        Set<InetAddress> out = new LinkedHashSet<>();
        for (LocalInterface itf : host) {
            for (LocalInterface.Address a : itf.addresses()) {
                boolean use =
                        switch (a.addressClass()) {
                            case PUBLIC_V4, GLOBAL_V6, PRIVATE_V4, ULA -> true;
                            case LOOPBACK -> where.onHost;
                            case LINK_LOCAL -> where.onLink(a.address());
                            case IPV4_MAPPED, OTHER -> false;
                        };
                if (use) {
                    out.add(a.address());
                }
            }
        }
        return List.copyOf(out);
    }

    /**
     * The usable peer addresses ranked by their best {@link PathWeight} over the host's addresses
     * (highest first); equal weights keep the peer's order. With the example of SEEDS section 5
     * (host 192.168.1.55/24 and 2001:638:906:5::55/64; peer 192.168.1.1, 141.35.14.189,
     * 2001:638:906:3::1) the result is 2001:638:906:3::1 (public other-network), 192.168.1.1
     * (private same-network); 141.35.14.189 is dropped since the host has no public IPv4.
     */
    @Override
    public List<InetAddress> rankPeer(List<LocalInterface> host, List<InetAddress> peerAddrs, CollisionInfo c) {
        requireArgs(host, peerAddrs, c);
        List<InetAddress> peers = List.copyOf(new LinkedHashSet<>(peerAddrs));
        Locality where = Locality.of(host, peers.stream().findFirst());
        record Ranked(InetAddress address, PathWeight weight) {}
        List<Ranked> ranked = new ArrayList<>();
        for (InetAddress p : peers) {
            PathWeight best = PathWeight.NONE;
            for (LocalInterface itf : host) {
                for (LocalInterface.Address l : itf.addresses()) {
                    PathWeight w = weight(l, p, c, where);
                    if (w.compareTo(best) > 0) {
                        best = w;
                    }
                }
            }
            if (best.usable()) {
                ranked.add(new Ranked(p, best));
            }
        }
        ranked.sort(Comparator.comparing(Ranked::weight).reversed()); // stable: peer order among equals
        return ranked.stream().map(Ranked::address).toList();
    }

    /**
     * The maximum matching between local and peer interfaces (most pairs, then most total
     * weight; see {@link Matching} for the algorithm and its O(n² · m) cost). The weight of an
     * interface pair is the best {@link PathWeight} over their address pairs; the first address
     * pair reaching it (peer addresses in order, then local addresses in order) becomes the path.
     * A peer address listed on two peer interfaces counts only on the first. The result is sorted
     * by weight (highest first), then by peer interface order, then local interface order; its
     * first element is the primary path.
     */
    @Override
    public List<PathPair> pairPaths(List<LocalInterface> host, List<PeerInterface> peer, CollisionInfo c) {
        if (host == null || peer == null || c == null) {
            throw new IllegalArgumentException(
                    "host, peer and collisions must not be null (use List.of(), CollisionInfo.NONE)");
        }
        Optional<InetAddress> first =
                peer.stream().flatMap(p -> p.addresses().stream()).findFirst();
        Locality where = Locality.of(host, first);
        Set<InetAddress> seen = new HashSet<>();
        List<List<InetAddress>> peerAddrs = new ArrayList<>(peer.size());
        for (PeerInterface p : peer) {
            List<InetAddress> own = new ArrayList<>();
            for (InetAddress a : p.addresses()) {
                if (seen.add(a)) {
                    own.add(a);
                }
            }
            peerAddrs.add(own);
        }
        int n = host.size();
        int m = peer.size();
        int[][] w = new int[n][m];
        PathPair[][] best = new PathPair[n][m];
        for (int i = 0; i < n; i++) {
            LocalInterface li = host.get(i);
            for (int j = 0; j < m; j++) {
                for (InetAddress p : peerAddrs.get(j)) {
                    for (LocalInterface.Address l : li.addresses()) {
                        PathWeight pw = weight(l, p, c, where);
                        if (pw.value() > w[i][j]) {
                            w[i][j] = pw.value();
                            best[i][j] = new PathPair(
                                    li.name(), l.address(), peer.get(j).name(), p, pw);
                        }
                    }
                }
            }
        }
        int[] match = Matching.maximum(w);
        record Chosen(PathPair pair, int local, int remote) {}
        List<Chosen> chosen = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (match[i] >= 0) {
                chosen.add(new Chosen(best[i][match[i]], i, match[i]));
            }
        }
        chosen.sort(Comparator.comparing((Chosen x) -> x.pair().weight())
                .reversed()
                .thenComparingInt(Chosen::remote)
                .thenComparingInt(Chosen::local));
        return chosen.stream().map(Chosen::pair).toList();
    }

    /**
     * The weight of sending from {@code local} to {@code peer}: {@link PathWeight#NONE} unless
     * both are in the same family and class, the peer address is not the host's own (unless the
     * peer is on this host), a private peer address is trusted, and loopback / link-local are
     * allowed by where the peer is.
     */
    static PathWeight weight(LocalInterface.Address local, InetAddress peer, CollisionInfo c, Locality where) {
        InetAddress la = local.address();
        if ((la instanceof Inet4Address) != (peer instanceof Inet4Address)) {
            return PathWeight.NONE;
        }
        AddressClass lc = local.addressClass();
        AddressClass pc = AddressClass.of(peer);
        if (lc != pc || (!where.onHost && where.own.contains(peer))) {
            return PathWeight.NONE;
        }
        boolean same = local.sameNetwork(peer);
        return switch (pc) {
            case PUBLIC_V4, GLOBAL_V6 -> same ? PathWeight.PUBLIC_SAME_NETWORK : PathWeight.PUBLIC_OTHER_NETWORK;
            case PRIVATE_V4, ULA -> !c.trusts(peer)
                    ? PathWeight.NONE
                    : same ? PathWeight.PRIVATE_SAME_NETWORK : PathWeight.PRIVATE_OTHER_NETWORK;
            case LOOPBACK -> where.onHost ? PathWeight.PRIVATE_SAME_NETWORK : PathWeight.NONE;
            case LINK_LOCAL -> where.onLink(peer) && sameScope(la, peer)
                    ? PathWeight.PRIVATE_SAME_NETWORK
                    : PathWeight.NONE;
            case IPV4_MAPPED, OTHER -> PathWeight.NONE;
        };
    }

    private static boolean sameScope(InetAddress a, InetAddress b) {
        if (a instanceof Inet6Address x && b instanceof Inet6Address y) {
            return x.getScopeId() == 0 || y.getScopeId() == 0 || x.getScopeId() == y.getScopeId();
        }
        return true;
    }

    private static void requireArgs(List<LocalInterface> host, List<InetAddress> peerAddrs, CollisionInfo c) {
        if (host == null || peerAddrs == null || c == null) {
            throw new IllegalArgumentException(
                    "host, peerAddrs and collisions must not be null (use List.of(), CollisionInfo.NONE)");
        }
    }

    /**
     * Where the peer is, judged from its first address (the connect address or the packet's
     * source): on this host if that is loopback or one of the host's own addresses; on-link
     * (for its family) if it is link-local.
     */
    static final class Locality {
        final Set<InetAddress> own;
        final boolean onHost;
        private final boolean onLinkV4;
        private final boolean onLinkV6;

        private Locality(Set<InetAddress> own, boolean onHost, boolean onLinkV4, boolean onLinkV6) {
            this.own = own;
            this.onHost = onHost;
            this.onLinkV4 = onLinkV4;
            this.onLinkV6 = onLinkV6;
        }

        static Locality of(List<LocalInterface> host, Optional<InetAddress> first) {
            if (host == null || first == null) {
                throw new IllegalArgumentException(
                        "host and peer hint must not be null (use List.of(), Optional.empty())");
            }
            Set<InetAddress> own = new HashSet<>();
            for (LocalInterface itf : host) {
                for (LocalInterface.Address a : itf.addresses()) {
                    own.add(a.address());
                }
            }
            if (first.isEmpty()) {
                return new Locality(own, false, false, false);
            }
            InetAddress f = first.get();
            AddressClass fc = AddressClass.of(f);
            boolean onHost = fc == AddressClass.LOOPBACK || own.contains(f);
            boolean linkLocal = fc == AddressClass.LINK_LOCAL;
            return new Locality(
                    own, onHost, linkLocal && f instanceof Inet4Address, linkLocal && f instanceof Inet6Address);
        }

        boolean onLink(InetAddress a) {
            return a instanceof Inet4Address ? onLinkV4 : onLinkV6;
        }
    }
}
