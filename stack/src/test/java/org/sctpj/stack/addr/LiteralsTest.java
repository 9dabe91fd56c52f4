package org.sctpj.stack.addr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** IPv6 and IPv4 literals parsed without the JDK's resolver, checked against it. */
class LiteralsTest {
    @Test
    void ipv6FormsMatchTheJdk() throws Exception {
        for (String t : new String[] {
            "::",
            "::1",
            "fe80::1",
            "2001:906:638:aa01::2",
            "2001:db8:0:0:1:0:0:1",
            "1::",
            "fd00:0:0:1:0:0:0:2",
            "::ffff:192.0.2.1",
            "64:ff9b::192.0.2.33",
            "2001:DB8::A",
            "1:2:3:4:5:6:7:8"
        }) {
            assertEquals(InetAddress.getByName("[" + t + "]"), Literals.parse(t), t);
        }
    }

    @Test
    void malformedIpv6IsRefused() {
        for (String t : new String[] {"1::2::3", "12345::", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "::g", ":1:2"}) {
            assertThrows(IllegalArgumentException.class, () -> Literals.parse(t), t);
        }
    }
}
