package org.sctpj.stack.addr;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * One network interface of the local host, as address selection needs it: a name and the
 * addresses configured on it with their prefix lengths. The core does not discover interfaces
 * (it does no I/O): a lower layer reads them (for example from {@code
 * java.net.NetworkInterface}) and passes them in as this data.
 *
 * @param name the interface name, for example {@code eth0}; only used to tell interfaces apart
 *     and in results, never looked up
 * @param addresses the addresses on the interface, in the host's order (may be empty)
 */
public record LocalInterface(String name, List<Address> addresses) {

    /**
     * An address configured on an interface with the length of its on-link prefix.
     *
     * @param address the address
     * @param prefixLength the prefix length: 0..32 for IPv4, 0..128 for IPv6
     */
    public record Address(InetAddress address, int prefixLength) {
        /** Validates the prefix length against the address family. */
        public Address {
            if (address == null) {
                throw new IllegalArgumentException("address must not be null");
            }
            int bits = Literals.bits(address);
            if (prefixLength < 0 || prefixLength > bits) {
                throw new IllegalArgumentException("prefix length " + prefixLength + " is outside 0.." + bits + " for "
                        + address.getHostAddress());
            }
        }

        /**
         * Parses {@code "address/prefix"}, for example {@code "193.175.13.2/24"} or {@code
         * "2001:906:638:aa01::2/64"}; without {@code /prefix} the prefix is the full length (a
         * host route). Literals only: no name is ever looked up.
         */
        public static Address parse(String cidr) {
            if (cidr == null) {
                throw new IllegalArgumentException("cidr must not be null");
            }
            int slash = cidr.indexOf('/');
            InetAddress a = Literals.parse(slash < 0 ? cidr : cidr.substring(0, slash));
            if (slash < 0) {
                return new Address(a, Literals.bits(a));
            }
            String p = cidr.substring(slash + 1);
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException("prefix length in " + cidr + " must be a decimal number");
            }
            return new Address(a, Integer.parseInt(p));
        }

        /** The class of the address ({@link AddressClass#of}). */
        public AddressClass addressClass() {
            return AddressClass.of(address);
        }

        /**
         * True if {@code other} lies in this address's on-link prefix (same family, same first
         * {@link #prefixLength} bits): address selection's "same network".
         */
        public boolean sameNetwork(InetAddress other) {
            return Literals.samePrefix(address, other, prefixLength);
        }
    }

    /** Validates and copies the list. */
    public LocalInterface {
        if (name == null) {
            throw new IllegalArgumentException("name must not be null (use any label, for example \"eth0\")");
        }
        if (addresses == null) {
            throw new IllegalArgumentException("addresses must not be null (use List.of())");
        }
        addresses = List.copyOf(addresses);
    }

    /**
     * An interface from address literals with prefixes, for example {@code of("eth0",
     * "193.175.13.2/24", "2001:906:638:aa01::2/64")}; see {@link Address#parse}.
     */
    public static LocalInterface of(String name, String... cidrs) {
        List<Address> list = new ArrayList<>(cidrs.length);
        for (String c : cidrs) {
            list.add(Address.parse(c));
        }
        return new LocalInterface(name, list);
    }
}
