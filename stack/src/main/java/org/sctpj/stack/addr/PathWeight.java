package org.sctpj.stack.addr;

/**
 * The weight of a (local address, peer address) pair in path pairing, lowest to highest (SEEDS
 * section 5): none &lt; private other-network &lt; private same-network &lt; public other-network
 * &lt; public same-network. "Public" covers {@link AddressClass#PUBLIC_V4} and {@link
 * AddressClass#GLOBAL_V6}; "private" covers {@link AddressClass#PRIVATE_V4} and {@link
 * AddressClass#ULA}, and also loopback and link-local pairs where those are allowed. "Same
 * network" means the peer address lies in the local address's on-link prefix.
 */
public enum PathWeight {
    /** Not usable: different family or class, or an untrusted or excluded address. */
    NONE,
    /** Both private, trusted, different networks (reachable through private routing only). */
    PRIVATE_OTHER_NETWORK,
    /** Both private, trusted, same on-link prefix. */
    PRIVATE_SAME_NETWORK,
    /** Both public, different networks. */
    PUBLIC_OTHER_NETWORK,
    /** Both public, same on-link prefix. */
    PUBLIC_SAME_NETWORK;

    /** The numeric weight: 0 for {@link #NONE} up to 4 for {@link #PUBLIC_SAME_NETWORK}. */
    public int value() {
        return ordinal();
    }

    /** True for every weight above {@link #NONE}. */
    public boolean usable() {
        return this != NONE;
    }
}
