package org.sctpj.llp.raw;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Discovery of this host's interfaces and addresses (through {@link NetworkInterface}), with each
 * address's {@link AddressClass}, to choose the local addresses of a multihomed endpoint.
 *
 * <pre>{@code
 * List<InetAddress> mine = Interfaces.addresses(EnumSet.of(AddressClass.PUBLIC_V4, AddressClass.GLOBAL_V6));
 * }</pre>
 */
public final class Interfaces {
    private Interfaces() {}

    /**
     * Every interface, up or down, in the order the system lists them.
     *
     * @throws IOException if the system refuses to list them
     */
    public static List<LocalInterface> list() throws IOException {
        List<LocalInterface> out = new ArrayList<>();
        try {
            for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                List<LocalAddress> addresses = new ArrayList<>();
                for (InterfaceAddress ia : ni.getInterfaceAddresses()) {
                    InetAddress a = ia.getAddress();
                    if (a == null) {
                        continue;
                    }
                    int max = a.getAddress().length * 8;
                    int prefix = ia.getNetworkPrefixLength();
                    addresses.add(LocalAddress.of(a, prefix < 0 || prefix > max ? max : prefix));
                }
                out.add(new LocalInterface(
                        ni.getName(), ni.getIndex(), ni.isUp(), ni.isLoopback(), ni.getMTU(), addresses));
            }
        } catch (SocketException e) {
            throw new IOException("cannot list the network interfaces: " + e.getMessage(), e);
        }
        return out;
    }

    /** The addresses of the interfaces that are up. */
    public static List<LocalAddress> upAddresses() throws IOException {
        List<LocalAddress> out = new ArrayList<>();
        for (LocalInterface i : list()) {
            if (i.up()) {
                out.addAll(i.addresses());
            }
        }
        return out;
    }

    /** The addresses of the interfaces that are up whose class is one of {@code classes}. */
    public static List<InetAddress> addresses(Set<AddressClass> classes) throws IOException {
        Set<AddressClass> wanted = classes.isEmpty() ? EnumSet.noneOf(AddressClass.class) : EnumSet.copyOf(classes);
        List<InetAddress> out = new ArrayList<>();
        for (LocalAddress a : upAddresses()) {
            if (wanted.contains(a.addressClass())) {
                out.add(a.address());
            }
        }
        return out;
    }

    /** The interface that holds {@code address}, if any. */
    public static Optional<LocalInterface> owning(InetAddress address) throws IOException {
        for (LocalInterface i : list()) {
            for (LocalAddress a : i.addresses()) {
                if (a.address().equals(address)) {
                    return Optional.of(i);
                }
            }
        }
        return Optional.empty();
    }
}
