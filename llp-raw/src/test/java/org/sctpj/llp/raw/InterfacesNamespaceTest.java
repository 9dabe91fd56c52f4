package org.sctpj.llp.raw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.addr.LocalInterface;

/**
 * As root: discovery inside a namespace describes that namespace, IPv6 included (the JDK alone
 * would report the process's IPv6 addresses there).
 */
class InterfacesNamespaceTest {

    @Test
    void discoveryInsideANamespaceSeesItsOwnIpv4AndIpv6() throws Exception {
        VethPair.assumeRoot();
        try (VethPair pair = VethPair.create()) {
            // A veth end counts as up once it has carrier, which Linux reports up to a second
            // after both ends were set up.
            List<LocalInterface> a = upWith(pair.fileA(), "va");
            List<LocalInterface> b = upWith(pair.fileB(), "vb");
            LocalInterface va = only(a, "va");
            LocalInterface vb = only(b, "vb");
            assertTrue(has(va, VethPair.A4, 24) && has(va, VethPair.A4_SECOND, 24), va.toString());
            assertTrue(has(va, VethPair.A6, 64) && has(va, VethPair.A6_SECOND, 64), va.toString());
            assertTrue(has(vb, VethPair.B4, 24) && has(vb, VethPair.B6, 64), vb.toString());
            for (LocalInterface.Address x : va.addresses()) {
                if (x.address() instanceof java.net.Inet6Address v6 && v6.isLinkLocalAddress()) {
                    assertTrue(v6.getScopeId() > 0, "link-local with its interface as scope: " + x);
                }
            }
            assertEquals(
                    List.of("lo", "va"),
                    a.stream().map(LocalInterface::name).sorted().toList(),
                    "nothing of the process's own namespace: " + a);
            assertTrue(
                    only(a, "lo").addresses().stream()
                            .map(LocalInterface.Address::address)
                            .anyMatch(InetAddress::isLoopbackAddress),
                    a.toString());
        }
    }

    private static List<LocalInterface> upWith(java.nio.file.Path ns, String name) throws Exception {
        long end = System.nanoTime() + 5_000_000_000L;
        while (true) {
            List<LocalInterface> up = NetworkNamespace.call(ns, Interfaces::localInterfaces);
            if (up.stream().anyMatch(i -> i.name().equals(name)) || System.nanoTime() > end) {
                return up;
            }
            Thread.sleep(50);
        }
    }

    private static LocalInterface only(List<LocalInterface> list, String name) {
        return list.stream()
                .filter(i -> i.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + " in " + list));
    }

    private static boolean has(LocalInterface i, String literal, int prefix) {
        InetAddress want = VethPair.addr(literal);
        return i.addresses().stream().anyMatch(x -> x.address().equals(want) && x.prefixLength() == prefix);
    }
}
