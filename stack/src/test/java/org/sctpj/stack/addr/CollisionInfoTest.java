package org.sctpj.stack.addr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.stack.addr.Topologies.ip;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CollisionInfoTest {

    @Test
    void detectFindsPrivateAddressesPublishedByTwoHosts() {
        CollisionInfo c = CollisionInfo.detect(List.of(
                List.of(ip("10.0.0.1"), ip("193.175.13.2"), ip("fd00::1")),
                List.of(ip("10.0.0.1"), ip("10.0.0.2"), ip("193.175.13.2"), ip("fd00::1")),
                List.of(ip("10.0.0.3"), ip("10.0.0.3"))));
        assertEquals(
                Set.of(ip("10.0.0.1"), ip("fd00::1")), c.colliding(), "public and same-host repeats are no collision");
        assertFalse(c.trusts(ip("10.0.0.1")));
        assertFalse(c.trusts(ip("fd00::1")));
        assertTrue(c.trusts(ip("10.0.0.2")));
        assertTrue(c.trusts(ip("10.0.0.3")));
        assertTrue(c.trusts(ip("193.175.13.2")), "public addresses are always trusted");
    }

    @Test
    void noneTrustsAllUntrustedPrivateTrustsOnlyPublic() {
        assertTrue(CollisionInfo.NONE.trusts(ip("192.168.1.1")));
        assertFalse(CollisionInfo.UNTRUSTED_PRIVATE.trusts(ip("192.168.1.1")));
        assertFalse(CollisionInfo.UNTRUSTED_PRIVATE.trusts(ip("fd00::1")));
        assertTrue(CollisionInfo.UNTRUSTED_PRIVATE.trusts(ip("2001:db8::1")));
        assertTrue(CollisionInfo.UNTRUSTED_PRIVATE.trusts(ip("141.35.14.189")));
        assertEquals(CollisionInfo.NONE, CollisionInfo.detect(List.of()));
    }

    @Test
    void nullIsMisuse() {
        assertThrows(IllegalArgumentException.class, () -> new CollisionInfo(null, true));
    }
}
