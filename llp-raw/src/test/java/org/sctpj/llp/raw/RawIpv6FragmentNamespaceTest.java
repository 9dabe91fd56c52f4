package org.sctpj.llp.raw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sctpj.llp.raw.RawIpLowerLayerNamespaceTest.Got;
import org.sctpj.stack.llp.LowerLayer;

/**
 * An IPv6 path MTU black hole between two namespaces (root only): B's prerouting drops, before
 * reassembly, every packet longer than 1280 bytes, and no Packet Too Big comes back, as an IPv6
 * router on a 1280-byte link that drops silently. With path MTU probing on, a packet the core marks
 * {@link LowerLayer#FRAGMENTABLE} (a DATA chunk cut for 1500 bytes, RFC 8899 section 4.3) must
 * still arrive: IPv6 routers never fragment (RFC 8200 section 5), so the layer cuts it into
 * fragments of at most 1280 bytes itself.
 */
@Timeout(60)
class RawIpv6FragmentNamespaceTest {
    /** SCTP bytes of the large packets: a full 1500-byte IPv6 packet. */
    private static final int LARGE = 1500 - 40;

    private static VethPair pair;

    @BeforeAll
    static void setUp() throws IOException {
        VethPair.assumeRoot();
        pair = VethPair.create();
        pair.in(pair.nsB, "nft", "add", "table", "ip6", "blackhole");
        pair.in(pair.nsB, "nft", "add chain ip6 blackhole pre { type filter hook prerouting priority -500; }");
        pair.in(pair.nsB, "nft", "add rule ip6 blackhole pre meta length > 1280 counter drop");
    }

    @AfterAll
    static void tearDown() {
        if (pair != null) {
            pair.close();
        }
    }

    private static ByteBuffer packet(int marker, int length) {
        ByteBuffer b = ByteBuffer.allocate(length);
        for (int i = 0; i < length; i++) {
            b.put(i, (byte) (i * 7 + marker));
        }
        return b.putInt(0, 0x12345678).putInt(4, marker);
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] x = new byte[b.remaining()];
        b.duplicate().get(x);
        return x;
    }

    @Test
    void aFragmentablePacketCrossesTheBlackHoleInFragmentsAndAnotherDoesNot() throws IOException {
        try (RawIpLowerLayer a = RawIpLowerLayer.builder()
                        .requireIpv6(true)
                        .pathMtuProbing(true)
                        .networkNamespace(pair.fileA())
                        .open();
                RawIpLowerLayer b =
                        RawIpLowerLayer.builder().networkNamespace(pair.fileB()).open()) {
            InetAddress a6 = VethPair.addr(VethPair.A6);
            InetAddress b6 = VethPair.addr(VethPair.B6);

            a.send(packet(1, LARGE), a6, b6, 0); // a probe-sized packet: lost in the black hole
            a.send(packet(2, LARGE), a6, b6, LowerLayer.FRAGMENTABLE);
            a.send(packet(3, LARGE), null, b6, LowerLayer.FRAGMENTABLE | 1); // kernel's source, ECT(1)
            a.send(packet(4, 1200), a6, b6, LowerLayer.FRAGMENTABLE); // fits 1280: sent whole
            a.send(packet(5, 24), a6, b6, 0);
            a.flush(); // the layer holds packets until flush (LowerLayer contract)

            List<Got> got = RawIpLowerLayerNamespaceTest.collect(b, 4, 5000);
            assertEquals(
                    List.of(2, 3, 4, 5),
                    got.stream().map(g -> ByteBuffer.wrap(g.bytes()).getInt(4)).toList(),
                    "B received (marker of each packet; 1 must be lost, the others arrive)");
            assertArrayEquals(bytes(packet(2, LARGE)), got.get(0).bytes(), "reassembled as sent");
            assertArrayEquals(bytes(packet(3, LARGE)), got.get(1).bytes(), "reassembled as sent");
            assertEquals(a6, got.get(0).from());
            assertEquals(b6, got.get(0).to());
            assertEquals(List.of(), RawIpLowerLayerNamespaceTest.collect(b, 1, 300), "nothing more");
            assertEquals(2, a.stats().fragmented(), "packets 2 and 3 fragmented here");
            assertEquals(1 + 2 + 2 + 1 + 1, a.stats().sent(), "each fragment counts as sent");
            String counter = pair.in(pair.nsB, "nft", "list", "chain", "ip6", "blackhole", "pre");
            assertEquals(true, counter.contains("packets 1 "), "the black hole dropped packet 1 only: " + counter);
        }
    }
}
