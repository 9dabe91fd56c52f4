package org.sctpj.stack.addr;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The addresses of one network interface of the peer, as far as they are known. SCTP's INIT
 * lists addresses without saying which interface holds them; the grouping comes from
 * configuration or a directory (for example a cluster's host table). Without it, use {@link
 * #eachAddress} (every address its own interface).
 *
 * @param name a label for the interface, only used to tell interfaces apart and in results
 * @param addresses the interface's addresses, in the peer's order
 */
public record PeerInterface(String name, List<InetAddress> addresses) {

    /** Validates and copies the list. */
    public PeerInterface {
        if (name == null) {
            throw new IllegalArgumentException("name must not be null (use any label, for example \"eth0\")");
        }
        if (addresses == null) {
            throw new IllegalArgumentException("addresses must not be null (use List.of())");
        }
        addresses = List.copyOf(addresses);
    }

    /** An interface from address literals, for example {@code of("eth1", "193.175.15.2", "2001:906:638:bb02::2")}. */
    public static PeerInterface of(String name, String... literals) {
        List<InetAddress> list = new ArrayList<>(literals.length);
        for (String l : literals) {
            list.add(Literals.parse(l));
        }
        return new PeerInterface(name, list);
    }

    /**
     * One interface per address, named by the address, for when the peer's grouping is unknown:
     * pairing then only keeps each local interface to one path.
     */
    public static List<PeerInterface> eachAddress(List<InetAddress> addresses) {
        List<PeerInterface> list = new ArrayList<>(addresses.size());
        for (InetAddress a : addresses) {
            list.add(new PeerInterface(a.getHostAddress(), List.of(a)));
        }
        return List.copyOf(list);
    }
}
