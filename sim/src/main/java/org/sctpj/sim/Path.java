package org.sctpj.sim;

import java.net.InetAddress;
import java.util.function.Consumer;

/**
 * A path between an address of node A and an address of node Z: two {@link Link}s, one per
 * direction, configured independently. A packet from A with source {@link #addressA()} and
 * destination {@link #addressZ()} takes {@link #aToZ()}; the reverse pair takes {@link #zToA()}.
 */
public final class Path {

    private final int index;
    private final InetAddress addressA;
    private final InetAddress addressZ;
    private final Link aToZ;
    private final Link zToA;

    Path(int index, InetAddress addressA, InetAddress addressZ, long seed) {
        this.index = index;
        this.addressA = addressA;
        this.addressZ = addressZ;
        this.aToZ = new Link("p" + index + ":A>Z", Side.A, Seeds.derive(seed, 2L * index));
        this.zToA = new Link("p" + index + ":Z>A", Side.Z, Seeds.derive(seed, 2L * index + 1));
    }

    /** The path's position in the network, from 0 in the order of {@link Network#addPath}. */
    public int index() {
        return index;
    }

    /** Node A's address on this path. */
    public InetAddress addressA() {
        return addressA;
    }

    /** Node Z's address on this path. */
    public InetAddress addressZ() {
        return addressZ;
    }

    /** The link from A to Z. */
    public Link aToZ() {
        return aToZ;
    }

    /** The link from Z to A. */
    public Link zToA() {
        return zToA;
    }

    /** The link on which {@code side} sends. */
    public Link from(Side side) {
        return side == Side.A ? aToZ : zToA;
    }

    /** Applies the same configuration to both links, for example {@code p.both(l -> l.delayNanos(d))}. */
    public Path both(Consumer<Link> configure) {
        configure.accept(aToZ);
        configure.accept(zToA);
        return this;
    }

    /** Both directions go down at {@code nanos} (see {@link Link#downAt}). */
    public Path downAt(long nanos) {
        aToZ.downAt(nanos);
        zToA.downAt(nanos);
        return this;
    }

    /** Both directions come up at {@code nanos} (see {@link Link#upAt}). */
    public Path upAt(long nanos) {
        aToZ.upAt(nanos);
        zToA.upAt(nanos);
        return this;
    }

    @Override
    public String toString() {
        return "Path[" + index + " " + addressA.getHostAddress() + " <-> " + addressZ.getHostAddress() + "]";
    }
}
