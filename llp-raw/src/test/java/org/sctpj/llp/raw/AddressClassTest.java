package org.sctpj.llp.raw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AddressClassTest {

    static InetAddress a(String s) throws UnknownHostException {
        return InetAddress.getByName(s);
    }

    @ParameterizedTest
    @CsvSource({
        "0.0.0.0, UNSPECIFIED",
        "0.1.2.3, OTHER",
        "127.0.0.1, LOOPBACK",
        "127.255.255.254, LOOPBACK",
        "169.254.0.1, LINK_LOCAL",
        "169.253.255.255, PUBLIC_V4",
        "10.0.0.1, PRIVATE_V4",
        "10.255.255.255, PRIVATE_V4",
        "11.0.0.1, PUBLIC_V4",
        "172.15.255.255, PUBLIC_V4",
        "172.16.0.1, PRIVATE_V4",
        "172.31.255.255, PRIVATE_V4",
        "172.32.0.0, PUBLIC_V4",
        "192.168.1.1, PRIVATE_V4",
        "192.169.0.1, PUBLIC_V4",
        "100.63.255.255, PUBLIC_V4",
        "100.64.0.1, PRIVATE_V4",
        "100.127.255.255, PRIVATE_V4",
        "100.128.0.0, PUBLIC_V4",
        "8.8.8.8, PUBLIC_V4",
        "223.255.255.255, PUBLIC_V4",
        "224.0.0.1, MULTICAST",
        "239.255.255.255, MULTICAST",
        "240.0.0.1, OTHER",
        "255.255.255.255, OTHER",
        "::, UNSPECIFIED",
        "::1, LOOPBACK",
        "fe80::1, LINK_LOCAL",
        "febf:ffff::1, LINK_LOCAL",
        "fec0::1, OTHER",
        "fc00::1, ULA",
        "fd12:3456::1, ULA",
        "fe00::1, OTHER",
        "2001:db8::1, GLOBAL_V6",
        "2a00:1450::1, GLOBAL_V6",
        "3fff:ffff::1, GLOBAL_V6",
        "4000::1, OTHER",
        "1fff::1, OTHER",
        "ff02::1, MULTICAST",
        "::ffff:10.0.0.1, PRIVATE_V4",
    })
    void classifies(String address, AddressClass expected) throws UnknownHostException {
        assertEquals(expected, AddressClass.of(a(address)), address);
    }

    @Test
    void globalAndUnicast() {
        assertTrue(AddressClass.PUBLIC_V4.isGlobal());
        assertTrue(AddressClass.GLOBAL_V6.isGlobal());
        assertFalse(AddressClass.ULA.isGlobal());
        assertFalse(AddressClass.PRIVATE_V4.isGlobal());
        assertTrue(AddressClass.LOOPBACK.isUnicast());
        assertTrue(AddressClass.ULA.isUnicast());
        assertFalse(AddressClass.MULTICAST.isUnicast());
        assertFalse(AddressClass.UNSPECIFIED.isUnicast());
        assertFalse(AddressClass.OTHER.isUnicast());
    }

    @Test
    void sameNetwork() throws UnknownHostException {
        LocalAddress l = LocalAddress.of(a("10.99.0.1"), 24);
        assertEquals(AddressClass.PRIVATE_V4, l.addressClass());
        assertTrue(l.sameNetwork(a("10.99.0.200")));
        assertFalse(l.sameNetwork(a("10.99.1.1")));
        assertFalse(l.sameNetwork(a("fd00::1")));
        LocalAddress odd = LocalAddress.of(a("10.99.0.1"), 20);
        assertTrue(odd.sameNetwork(a("10.99.15.255")));
        assertFalse(odd.sameNetwork(a("10.99.16.0")));
        LocalAddress v6 = LocalAddress.of(a("fd00:99::1"), 64);
        assertTrue(v6.sameNetwork(a("fd00:99::ffff:1")));
        assertFalse(v6.sameNetwork(a("fd00:98::1")));
        assertTrue(LocalAddress.of(a("10.0.0.1"), 0).sameNetwork(a("1.2.3.4")));
        assertThrows(IllegalArgumentException.class, () -> LocalAddress.of(a("10.0.0.1"), 33));
        assertThrows(IllegalArgumentException.class, () -> LocalAddress.of(a("::1"), -1));
    }
}
