package org.sctpj.llp.raw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class InterfacesTest {

    @Test
    void listsTheLoopbackInterfaceWithItsClassifiedAddress() throws Exception {
        List<LocalInterface> all = Interfaces.list();
        InetAddress localhost = InetAddress.getByName("127.0.0.1");
        LocalInterface lo =
                all.stream().filter(LocalInterface::loopback).findFirst().orElseThrow();
        assertTrue(lo.index() > 0);
        LocalAddress v4 = lo.addresses().stream()
                .filter(a -> a.address().equals(localhost))
                .findFirst()
                .orElseThrow(() -> new AssertionError("127.0.0.1 on " + lo));
        assertEquals(AddressClass.LOOPBACK, v4.addressClass());
        assertEquals(8, v4.prefixLength());
        for (LocalInterface i : all) {
            for (LocalAddress a : i.addresses()) {
                assertEquals(AddressClass.of(a.address()), a.addressClass());
            }
        }
    }

    @Test
    void selectsByClass() throws Exception {
        List<InetAddress> loop = Interfaces.addresses(EnumSet.of(AddressClass.LOOPBACK));
        assertTrue(loop.contains(InetAddress.getByName("127.0.0.1")), loop.toString());
        assertTrue(Interfaces.addresses(EnumSet.noneOf(AddressClass.class)).isEmpty());
        for (InetAddress a : Interfaces.addresses(EnumSet.of(AddressClass.PUBLIC_V4, AddressClass.PRIVATE_V4))) {
            assertFalse(a.isLoopbackAddress());
        }
        assertEquals(
                "lo",
                Interfaces.owning(InetAddress.getByName("127.0.0.1"))
                        .orElseThrow()
                        .name());
        assertTrue(Interfaces.owning(InetAddress.getByName("192.0.2.77")).isEmpty());
    }
}
