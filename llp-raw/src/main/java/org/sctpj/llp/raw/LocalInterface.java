package org.sctpj.llp.raw;

import java.util.List;

/**
 * A network interface of this host and its addresses.
 *
 * @param name the interface name, e.g. {@code eth0}
 * @param index the interface index (as in IPv6 scope ids and pktinfo), or -1 if unknown
 * @param up whether the interface is up
 * @param loopback whether it is a loopback interface
 * @param mtu its MTU in bytes, or -1 if unknown
 * @param addresses its addresses
 */
public record LocalInterface(
        String name, int index, boolean up, boolean loopback, int mtu, List<LocalAddress> addresses) {

    /** Copies the address list. */
    public LocalInterface {
        addresses = List.copyOf(addresses);
    }
}
