package org.sctpj.stack.addr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Inet6Address;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AddressClassTest {

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
        "127.0.0.1, LOOPBACK",
        "127.255.255.254, LOOPBACK",
        "169.254.0.1, LINK_LOCAL",
        "169.253.255.255, PUBLIC_V4",
        "169.255.0.1, PUBLIC_V4",
        "10.0.0.1, PRIVATE_V4",
        "10.255.255.255, PRIVATE_V4",
        "172.16.0.1, PRIVATE_V4",
        "172.31.255.255, PRIVATE_V4",
        "172.15.255.255, PUBLIC_V4",
        "172.32.0.0, PUBLIC_V4",
        "192.168.1.1, PRIVATE_V4",
        "192.169.0.1, PUBLIC_V4",
        "100.64.0.1, PRIVATE_V4",
        "100.127.255.255, PRIVATE_V4",
        "100.63.255.255, PUBLIC_V4",
        "100.128.0.0, PUBLIC_V4",
        "141.35.14.189, PUBLIC_V4",
        "193.175.13.2, PUBLIC_V4",
        "192.0.2.1, PUBLIC_V4",
        "198.51.100.1, PUBLIC_V4",
        "203.0.113.1, PUBLIC_V4",
        "198.18.0.1, PUBLIC_V4",
        "0.0.0.0, OTHER",
        "0.1.2.3, OTHER",
        "224.0.0.1, OTHER",
        "239.255.255.255, OTHER",
        "240.0.0.1, OTHER",
        "255.255.255.255, OTHER",
        "::1, LOOPBACK",
        "::, OTHER",
        "fe80::1, LINK_LOCAL",
        "febf:ffff::1, LINK_LOCAL",
        "fec0::1, OTHER",
        "fc00::1, ULA",
        "fd12:3456:789a::1, ULA",
        "fe00::1, OTHER",
        "2000::1, GLOBAL_V6",
        "2001:906:638:aa01::2, GLOBAL_V6",
        "2001:638:906:3::1, GLOBAL_V6",
        "2001:db8::1, GLOBAL_V6",
        "3fff:ffff::1, GLOBAL_V6",
        "4000::1, OTHER",
        "1fff::1, OTHER",
        "ff02::1, OTHER",
        "64:ff9b::c000:201, OTHER",
        "::2, OTHER",
    })
    void classifiesByPrefix(String literal, AddressClass expected) {
        assertEquals(expected, AddressClass.of(Literals.parse(literal)));
    }

    @Test
    void ipv4MappedIsItsOwnClassWhenKeptAsIpv6() throws Exception {
        byte[] b = new byte[16];
        b[10] = (byte) 0xff;
        b[11] = (byte) 0xff;
        b[12] = (byte) 193;
        b[13] = (byte) 175;
        b[14] = 13;
        b[15] = 2;
        InetAddress mapped = Inet6Address.getByAddress(null, b, -1);
        assertInstanceOf(Inet6Address.class, mapped);
        assertEquals(AddressClass.IPV4_MAPPED, AddressClass.of(mapped));
    }

    @Test
    void publicAndPrivateGroups() {
        assertTrue(AddressClass.PUBLIC_V4.isPublic());
        assertTrue(AddressClass.GLOBAL_V6.isPublic());
        assertTrue(AddressClass.PRIVATE_V4.isPrivate());
        assertTrue(AddressClass.ULA.isPrivate());
        for (AddressClass c : new AddressClass[] {
            AddressClass.LOOPBACK, AddressClass.LINK_LOCAL, AddressClass.IPV4_MAPPED, AddressClass.OTHER
        }) {
            assertFalse(c.isPublic() || c.isPrivate(), c.name());
        }
    }

    @Test
    void nullIsMisuse() {
        assertThrows(IllegalArgumentException.class, () -> AddressClass.of(null));
    }
}
