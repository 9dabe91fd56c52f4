package org.sctpj.stack.addr;

import java.net.InetAddress;

/**
 * One path chosen by {@link AddressSelector#pairPaths}: a local address on a local interface
 * paired with a peer address on a peer interface.
 *
 * @param localInterface the name of the local interface ({@link LocalInterface#name()})
 * @param localAddress the local (source) address of the path
 * @param peerInterface the name of the peer interface ({@link PeerInterface#name()})
 * @param peerAddress the peer (destination) address of the path
 * @param weight the pair's weight
 */
public record PathPair(
        String localInterface,
        InetAddress localAddress,
        String peerInterface,
        InetAddress peerAddress,
        PathWeight weight) {

    /** Checks that nothing is null. */
    public PathPair {
        if (localInterface == null
                || localAddress == null
                || peerInterface == null
                || peerAddress == null
                || weight == null) {
            throw new IllegalArgumentException("no field of a PathPair may be null");
        }
    }
}
