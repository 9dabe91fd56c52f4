package org.sctpj.stack.addr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LocalInterfaceTest {

    @Test
    void parsesCidrLiterals() {
        LocalInterface eth0 = LocalInterface.of("eth0", "193.175.13.2/24", "2001:906:638:aa01::2/64", "10.0.0.1");
        assertEquals("eth0", eth0.name());
        assertEquals(3, eth0.addresses().size());
        LocalInterface.Address v4 = eth0.addresses().get(0);
        assertInstanceOf(Inet4Address.class, v4.address());
        assertEquals("193.175.13.2", v4.address().getHostAddress());
        assertEquals(24, v4.prefixLength());
        LocalInterface.Address v6 = eth0.addresses().get(1);
        assertInstanceOf(Inet6Address.class, v6.address());
        assertEquals(64, v6.prefixLength());
        assertEquals(32, eth0.addresses().get(2).prefixLength(), "no prefix means a host route");
    }

    @Test
    void sameNetworkComparesThePrefix() {
        LocalInterface.Address a = LocalInterface.Address.parse("193.175.13.2/24");
        assertTrue(a.sameNetwork(Literals.parse("193.175.13.200")));
        assertFalse(a.sameNetwork(Literals.parse("193.175.14.2")));
        assertFalse(a.sameNetwork(Literals.parse("2001:906:638:aa01::2")), "other family");
        LocalInterface.Address odd = LocalInterface.Address.parse("172.16.0.1/12");
        assertTrue(odd.sameNetwork(Literals.parse("172.31.255.1")));
        assertFalse(odd.sameNetwork(Literals.parse("172.32.0.1")));
        LocalInterface.Address v6 = LocalInterface.Address.parse("2001:906:638:aa01::2/64");
        assertTrue(v6.sameNetwork(Literals.parse("2001:906:638:aa01::99")));
        assertFalse(v6.sameNetwork(Literals.parse("2001:906:638:bb01::2")));
        assertTrue(LocalInterface.Address.parse("10.0.0.1/0").sameNetwork(Literals.parse("193.1.2.3")));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "10.0.0.1/33",
                "2001::1/129",
                "10.0.0.1/-1",
                "10.0.0.1/",
                "10.0.0.1/x",
                "10.0.0/24",
                "10.0.0.256",
                "1.2.3.4.5",
                "localhost",
                "example.org",
                "fe80::1%eth0",
                "2001:::1",
                "12345::1",
                "",
                "10..0.1",
                "g::1"
            })
    void rejectsWhatIsNoLiteralWithoutLookingItUp(String text) {
        assertThrows(IllegalArgumentException.class, () -> LocalInterface.Address.parse(text));
    }

    @Test
    void copiesTheListAndRejectsNulls() {
        List<LocalInterface.Address> list = new ArrayList<>(List.of(LocalInterface.Address.parse("10.0.0.1/8")));
        LocalInterface itf = new LocalInterface("eth0", list);
        list.clear();
        assertEquals(1, itf.addresses().size());
        assertThrows(IllegalArgumentException.class, () -> new LocalInterface(null, List.of()));
        assertThrows(IllegalArgumentException.class, () -> new LocalInterface("eth0", null));
        assertThrows(IllegalArgumentException.class, () -> new LocalInterface.Address(null, 8));
        assertThrows(IllegalArgumentException.class, () -> new PeerInterface(null, List.of()));
        assertThrows(IllegalArgumentException.class, () -> new PeerInterface("eth0", null));
    }

    @Test
    void eachAddressMakesOneInterfacePerAddress() {
        List<PeerInterface> peers =
                PeerInterface.eachAddress(List.of(Literals.parse("192.168.1.1"), Literals.parse("2001:638:906:3::1")));
        assertEquals(2, peers.size());
        assertEquals("192.168.1.1", peers.get(0).name());
        assertEquals(List.of(Literals.parse("2001:638:906:3::1")), peers.get(1).addresses());
    }
}
