package org.sctpj.llp.raw;

import java.util.List;
import org.sctpj.stack.addr.LocalInterface;

/**
 * A network interface of this host as discovery finds it: what address selection needs ({@link
 * #toLocalInterface()}) plus the index, state and MTU.
 *
 * @param name the interface name, e.g. {@code eth0}
 * @param index the interface index (as in IPv6 scope ids and pktinfo), or -1 if unknown
 * @param up whether the interface is up
 * @param loopback whether it is a loopback interface
 * @param mtu its MTU in bytes, or -1 if unknown
 * @param addresses its addresses with their prefix lengths (classify them with {@link
 *     LocalInterface.Address#addressClass()})
 */
public record InterfaceInfo(
        String name, int index, boolean up, boolean loopback, int mtu, List<LocalInterface.Address> addresses) {

    /** Copies the address list. */
    public InterfaceInfo {
        if (name == null || addresses == null) {
            throw new IllegalArgumentException("name and addresses must not be null (use List.of())");
        }
        addresses = List.copyOf(addresses);
    }

    /** The interface as the core's address selection takes it ({@code org.sctpj.stack.addr}). */
    public LocalInterface toLocalInterface() {
        return new LocalInterface(name, addresses);
    }
}
