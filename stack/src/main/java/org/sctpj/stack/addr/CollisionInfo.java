package org.sctpj.stack.addr;

import java.net.InetAddress;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Private-address collisions (not INIT collisions, which are {@code handshake.InitCollision}):
 * what is known about private addresses that more than one host publishes (SEEDS section 5:
 * "private addresses are trusted only when no two hosts publish the same private address").
 * Private here means {@link AddressClass#isPrivate()}: private IPv4 and IPv6 ULA. Public
 * addresses are always trusted.
 *
 * <p>The check itself needs the address lists of the hosts that may talk to each other (a
 * cluster's host table, an MPI runtime's address exchange): {@link #detect} finds the private
 * addresses listed by two or more hosts. An address selector drops untrusted private peer
 * addresses; trusted ones in a local prefix then count as "same network".
 *
 * @param colliding private addresses known to be published by more than one host
 * @param trustPrivate false to trust no private address at all (when no collision check could
 *     be made and the peer may be in another private realm)
 */
public record CollisionInfo(Set<InetAddress> colliding, boolean trustPrivate) {

    /** No known collision: every private address is trusted. */
    public static final CollisionInfo NONE = new CollisionInfo(Set.of(), true);

    /** No private address is trusted: only public addresses are used. */
    public static final CollisionInfo UNTRUSTED_PRIVATE = new CollisionInfo(Set.of(), false);

    /** Validates and copies the set. */
    public CollisionInfo {
        if (colliding == null) {
            throw new IllegalArgumentException("colliding must not be null (use CollisionInfo.NONE)");
        }
        colliding = Set.copyOf(colliding);
    }

    /** Trust private addresses except the given colliding ones. */
    public static CollisionInfo of(Collection<InetAddress> colliding) {
        return new CollisionInfo(Set.copyOf(colliding), true);
    }

    /**
     * The collision check: the private addresses that appear in the published lists of two or
     * more hosts (an address listed twice by one host is no collision).
     *
     * @param publishedByHost one list per host: the addresses that host publishes
     */
    public static CollisionInfo detect(Collection<? extends Collection<InetAddress>> publishedByHost) {
        Map<InetAddress, Integer> hosts = new HashMap<>();
        Set<InetAddress> colliding = new LinkedHashSet<>();
        for (Collection<InetAddress> list : publishedByHost) {
            for (InetAddress a : new HashSet<>(list)) {
                if (AddressClass.of(a).isPrivate() && hosts.merge(a, 1, Integer::sum) == 2) {
                    colliding.add(a);
                }
            }
        }
        return of(List.copyOf(colliding));
    }

    /** True unless {@code address} is private and either all private or this one is untrusted. */
    public boolean trusts(InetAddress address) {
        if (!AddressClass.of(address).isPrivate()) {
            return true;
        }
        return trustPrivate && !colliding.contains(address);
    }
}
