package org.sctpj.sim;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Two nodes, A and Z, joined by any number of {@link Path}s, each between one address of A and one
 * address of Z (several paths may share an address, as in a multihomed pair where every local
 * address can reach every remote one). A packet is routed by its (source, destination) address pair
 * to the link of the matching path in the sender's direction; a packet whose pair matches no path
 * is counted in {@link #unroutable(Side)} and dropped.
 *
 * <p>All randomness derives from the master seed given here: the same seed, topology and node
 * behaviour give the same run, packet for packet.
 */
public final class Network {

    private record Route(Side from, InetAddress source, InetAddress destination) {}

    private final long seed;
    private final SimNode a;
    private final SimNode z;
    private final List<Path> paths = new ArrayList<>();
    private final Map<Route, Link> routes = new HashMap<>();
    private long unroutableA;
    private long unroutableZ;

    /**
     * A network of two nodes and no path yet.
     *
     * @param seed the master seed of every random decision
     * @param a node A
     * @param z node Z
     */
    public Network(long seed, SimNode a, SimNode z) {
        this.seed = seed;
        this.a = Objects.requireNonNull(a, "node A: pass the SimNode for side A");
        this.z = Objects.requireNonNull(z, "node Z: pass the SimNode for side Z");
    }

    /** The master seed. */
    public long seed() {
        return seed;
    }

    /** The node on {@code side}. */
    public SimNode node(Side side) {
        return side == Side.A ? a : z;
    }

    /**
     * Adds a path between {@code addressA} (on node A) and {@code addressZ} (on node Z), with ideal
     * links (no delay, no limit, no impairment) to configure. Its links draw from random streams
     * fixed by the master seed and the path's index, so adding a path never changes the others.
     *
     * @throws IllegalArgumentException if a path between these two addresses exists already
     */
    public Path addPath(InetAddress addressA, InetAddress addressZ) {
        Objects.requireNonNull(addressA, "addressA: pass node A's address on this path");
        Objects.requireNonNull(addressZ, "addressZ: pass node Z's address on this path");
        Route forward = new Route(Side.A, addressA, addressZ);
        if (routes.containsKey(forward)) {
            throw new IllegalArgumentException("a path between " + addressA.getHostAddress() + " and "
                    + addressZ.getHostAddress() + " exists already; each address pair routes to one path");
        }
        Path p = new Path(paths.size(), addressA, addressZ, seed);
        paths.add(p);
        routes.put(forward, p.aToZ());
        routes.put(new Route(Side.Z, addressZ, addressA), p.zToA());
        return p;
    }

    /**
     * Routes one more address pair over the links of an existing path, so that several address
     * pairs (for example the paths of a multipath association and a single-path flow) share one
     * bottleneck: its queue, bandwidth, delay, impairments and schedule.
     *
     * @throws IllegalArgumentException if the pair is routed already
     */
    public void shareLinks(InetAddress addressA, InetAddress addressZ, Path path) {
        Objects.requireNonNull(addressA, "addressA: pass node A's address");
        Objects.requireNonNull(addressZ, "addressZ: pass node Z's address");
        Objects.requireNonNull(path, "path: pass the path whose links to share");
        Route forward = new Route(Side.A, addressA, addressZ);
        if (routes.containsKey(forward)) {
            throw new IllegalArgumentException("the pair " + addressA.getHostAddress() + " -> "
                    + addressZ.getHostAddress() + " is routed already; each address pair routes to one link");
        }
        routes.put(forward, path.aToZ());
        routes.put(new Route(Side.Z, addressZ, addressA), path.zToA());
    }

    /** The paths, in the order they were added (index order). */
    public List<Path> paths() {
        return List.copyOf(paths);
    }

    /** The path of index {@code index}. */
    public Path path(int index) {
        return paths.get(index);
    }

    /** The links of all paths: for each path its A-to-Z link then its Z-to-A link. */
    public List<Link> links() {
        List<Link> all = new ArrayList<>(paths.size() * 2);
        for (Path p : paths) {
            all.add(p.aToZ());
            all.add(p.zToA());
        }
        return all;
    }

    /** The link a packet from {@code side} with this address pair takes, if any. */
    public Optional<Link> route(Side side, InetAddress source, InetAddress destination) {
        return Optional.ofNullable(routes.get(new Route(side, source, destination)));
    }

    /** Packets sent by {@code side} whose address pair matched no path. */
    public long unroutable(Side side) {
        return side == Side.A ? unroutableA : unroutableZ;
    }

    /** The sum of all links' counters. */
    public LinkStats totals() {
        long[] t = new long[10];
        for (Link l : links()) {
            LinkStats s = l.stats();
            long[] v = {
                s.sent(),
                s.bytesSent(),
                s.delivered(),
                s.bytesDelivered(),
                s.droppedLoss(),
                s.droppedQueue(),
                s.droppedDown(),
                s.corruptedDelivered(),
                s.duplicated(),
                s.reordered()
            };
            for (int i = 0; i < t.length; i++) {
                t[i] += v[i];
            }
        }
        return new LinkStats(t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9]);
    }

    /** Routes a packet sent by {@code side} at {@code now} onto its link, or counts it unroutable. */
    void send(Side side, long now, byte[] bytes, InetAddress source, InetAddress destination, Link.Arrivals out) {
        send(side, now, bytes, source, destination, 0, false, out);
    }

    /**
     * As {@link #send(Side, long, byte[], InetAddress, InetAddress, Link.Arrivals)}, sent with ECN
     * codepoint {@code ecn}, for a packet IP may fragment or not ({@link Outgoing#fragmentable()}).
     */
    void send(
            Side side,
            long now,
            byte[] bytes,
            InetAddress source,
            InetAddress destination,
            int ecn,
            boolean fragmentable,
            Link.Arrivals out) {
        Link link = routes.get(new Route(side, source, destination));
        if (link == null) {
            if (side == Side.A) {
                unroutableA++;
            } else {
                unroutableZ++;
            }
            return;
        }
        int ipHeader = destination instanceof java.net.Inet6Address ? 40 : 20;
        if (link.tooBig(bytes.length + ipHeader, fragmentable)) {
            return;
        }
        link.transmit(now, bytes, ecn, out);
    }
}
