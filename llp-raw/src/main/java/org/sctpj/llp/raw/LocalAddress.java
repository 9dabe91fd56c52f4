package org.sctpj.llp.raw;

import java.net.InetAddress;

/**
 * One address of a local interface.
 *
 * @param address the address (IPv6 link-local ones carry the interface as scope)
 * @param prefixLength the network prefix length (0..32 or 0..128)
 * @param addressClass what kind of address it is
 */
public record LocalAddress(InetAddress address, int prefixLength, AddressClass addressClass) {

    /** Checks the prefix length against the family. */
    public LocalAddress {
        int max = address.getAddress().length * 8;
        if (prefixLength < 0 || prefixLength > max) {
            throw new IllegalArgumentException(
                    "prefix length of " + address + " must be 0.." + max + ", was " + prefixLength);
        }
    }

    /** The address with its class computed by {@link AddressClass#of}. */
    public static LocalAddress of(InetAddress address, int prefixLength) {
        return new LocalAddress(address, prefixLength, AddressClass.of(address));
    }

    /** Whether {@code other} lies in this address's network (same family, same prefix). */
    public boolean sameNetwork(InetAddress other) {
        byte[] a = address.getAddress();
        byte[] b = other.getAddress();
        if (a.length != b.length) {
            return false;
        }
        int bits = prefixLength;
        for (int i = 0; i < a.length && bits > 0; i++, bits -= 8) {
            int mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
            if (((a[i] ^ b[i]) & mask) != 0) {
                return false;
            }
        }
        return true;
    }
}
