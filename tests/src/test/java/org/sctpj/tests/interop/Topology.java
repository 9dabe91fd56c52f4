package org.sctpj.tests.interop;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where one case runs: our addresses, the peer's, and the knobs the cases turn (random loss, cutting
 * a path). {@link #create} builds a fresh one per case: loopback for UDP encapsulation, two network
 * namespaces joined by veth pairs for raw IP (PEERS.md: two raw SCTP stacks in one namespace both
 * receive every packet). {@link #close()} always removes what was created.
 */
public interface Topology extends AutoCloseable {

    /** The lower layer. */
    Llp llp();

    /** Our addresses, primary first (two when multihomed). */
    List<InetAddress> ourAddresses();

    /** The peer's addresses, primary first (two when multihomed). */
    List<InetAddress> peerAddresses();

    /** Our UDP encapsulation port (0 for raw IP). */
    int ourUdpPort();

    /** The peer's UDP encapsulation port (0 for raw IP). */
    int peerUdpPort();

    /**
     * The namespace our sockets open in, raw or UDP (empty: the JVM's own, as over loopback UDP).
     */
    Optional<Path> ourNamespace();

    /**
     * The namespace the peer's program runs in (empty over UDP: the JVM's own; empty for the
     * kernel peer, whose programs run in its VM).
     */
    Optional<String> peerNamespace();

    /** Drops {@code percent}% of the packets each way at random (nftables {@code numgen random}). */
    void dropRandomly(int percent) throws IOException;

    /** Cuts path {@code index} (0: the primary) both ways (nftables drop on its link). */
    void cutPath(int index) throws IOException;

    /**
     * Marks about {@code percent}% of the ECN-capable (ECT(0)) packets each way Congestion
     * Experienced, as an ECN router would instead of dropping them (nftables {@code ip ecn set ce},
     * {@code ip6 ecn set ce}) (issue 13).
     */
    default void markCe(int percent) throws IOException {
        throw new UnsupportedOperationException("no CE marking in " + getClass().getSimpleName());
    }

    /**
     * From now on, drops every packet from us to the peer longer than {@code mtu} bytes (the IP
     * packet): a path of that MTU whose router sends no Packet Too Big (a black hole, RFC 8899
     * section 4.3); 0 lifts the limit (issue 13).
     */
    default void limitMtu(int mtu) throws IOException {
        throw new UnsupportedOperationException("no MTU limit in " + getClass().getSimpleName());
    }

    /**
     * Raises the MTU of the primary link on both ends to {@code mtu} (issue 13); empty when done,
     * else why this topology cannot.
     */
    default Optional<String> raiseLinkMtu(int mtu) throws IOException {
        return Optional.of(getClass().getSimpleName() + " cannot change its links' MTU");
    }

    /** Removes namespaces and rules; never throws. */
    @Override
    void close();

    /**
     * A fresh topology for {@code llp}; {@code multihomed} gives two addresses per side (over UDP:
     * two namespaces as for raw IP, since loopback has one address a side).
     */
    static Topology create(Llp llp, boolean multihomed) throws IOException {
        return llp == Llp.UDP && !multihomed ? LoopbackTopology.create() : NamespaceTopology.create(llp, multihomed);
    }
}
