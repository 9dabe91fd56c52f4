package org.sctpj.llp.raw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.addr.AddressClass;
import org.sctpj.stack.addr.LocalInterface;

class InterfacesTest {

    @Test
    void listsTheLoopbackInterfaceWithItsClassifiedAddress() throws Exception {
        List<InterfaceInfo> all = Interfaces.list();
        InetAddress localhost = InetAddress.getByName("127.0.0.1");
        InterfaceInfo lo =
                all.stream().filter(InterfaceInfo::loopback).findFirst().orElseThrow();
        assertTrue(lo.index() > 0);
        LocalInterface.Address v4 = lo.addresses().stream()
                .filter(a -> a.address().equals(localhost))
                .findFirst()
                .orElseThrow(() -> new AssertionError("127.0.0.1 on " + lo));
        assertEquals(AddressClass.LOOPBACK, v4.addressClass());
        assertEquals(8, v4.prefixLength());
        assertTrue(
                lo.addresses().stream().anyMatch(a -> a.address().isLoopbackAddress() && a.prefixLength() == 128)
                        || !java.nio.file.Files.exists(java.nio.file.Path.of("/proc/net/if_inet6")),
                "::1/128 on " + lo);
    }

    @Test
    void localInterfacesAreTheUpOnesForAddressSelection() throws Exception {
        List<LocalInterface> up = Interfaces.localInterfaces();
        List<InterfaceInfo> all = Interfaces.list();
        assertEquals(
                all.stream().filter(InterfaceInfo::up).map(InterfaceInfo::name).toList(),
                up.stream().map(LocalInterface::name).toList());
        for (InterfaceInfo i : all) {
            assertFalse(i.addresses().isEmpty(), "interfaces without addresses are left out: " + i);
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
