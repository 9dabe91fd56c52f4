package org.sctpj.llp.raw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Packets both ways between two namespaces over a veth pair: root only. */
@Timeout(60)
class RawIpLowerLayerNamespaceTest {
    private static VethPair pair;

    @BeforeAll
    static void setUp() throws IOException {
        VethPair.assumeRoot();
        pair = VethPair.create();
    }

    @AfterAll
    static void tearDown() {
        if (pair != null) {
            pair.close();
        }
    }

    record Got(byte[] bytes, InetAddress from, InetAddress to) {}

    static List<Got> collect(RawIpLowerLayer l, int want, long timeoutMillis) throws IOException {
        List<Got> got = new ArrayList<>();
        long end = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (got.size() < want && System.nanoTime() < end) {
            l.await(10_000_000L);
            l.receive(
                    (b, from, to) -> {
                        byte[] x = new byte[b.remaining()];
                        b.get(x);
                        got.add(new Got(x, from, to));
                    },
                    64);
        }
        return got;
    }

    static ByteBuffer packet(int marker) {
        // Not a valid SCTP packet: the lower layer carries bytes, it does not judge them.
        ByteBuffer b = ByteBuffer.allocate(24);
        b.putInt(0, 0x12345678).putInt(4, marker).putInt(20, marker);
        return b;
    }

    @Test
    void packetsBothWaysWithTheirLocalDestinations() throws IOException {
        try (RawIpLowerLayer a = RawIpLowerLayer.builder()
                        .requireIpv6(true)
                        .networkNamespace(pair.fileA())
                        .open();
                RawIpLowerLayer b =
                        RawIpLowerLayer.builder().networkNamespace(pair.fileB()).open()) {
            assertTrue(a.hasIpv4() && a.hasIpv6());
            InetAddress a4 = VethPair.addr(VethPair.A4);
            InetAddress a4b = VethPair.addr(VethPair.A4_SECOND);
            InetAddress b4 = VethPair.addr(VethPair.B4);
            InetAddress a6 = VethPair.addr(VethPair.A6);
            InetAddress b6 = VethPair.addr(VethPair.B6);

            b.send(packet(1), b4, a4);
            b.send(packet(2), b4, a4b);
            b.send(packet(3), b6, a6);
            List<Got> atA = collect(a, 3, 5000);
            assertEquals(3, atA.size(), "A received " + atA);
            assertEquals(List.of(b4, b4, b6), atA.stream().map(Got::from).toList());
            assertEquals(List.of(a4, a4b, a6), atA.stream().map(Got::to).toList());
            for (int i = 0; i < 3; i++) {
                assertEquals(24, atA.get(i).bytes().length);
                assertEquals(i + 1, ByteBuffer.wrap(atA.get(i).bytes()).getInt(4));
            }

            // The other way, from a chosen source: A's second address.
            a.send(packet(4), a4b, b4);
            a.send(packet(5), a4, b4);
            a.send(packet(6), null, b6);
            List<Got> atB = collect(b, 3, 5000);
            assertEquals(List.of(a4b, a4, a6), atB.stream().map(Got::from).toList());
            assertEquals(List.of(b4, b4, b6), atB.stream().map(Got::to).toList());
        }
    }
}
