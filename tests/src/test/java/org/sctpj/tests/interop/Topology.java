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

    /** Removes namespaces and rules; never throws. */
    @Override
    void close();

    /** A fresh topology for {@code llp}; {@code multihomed} gives two addresses per side. */
    static Topology create(Llp llp, boolean multihomed) throws IOException {
        return llp == Llp.UDP ? LoopbackTopology.create() : NamespaceTopology.create(llp, multihomed);
    }
}
