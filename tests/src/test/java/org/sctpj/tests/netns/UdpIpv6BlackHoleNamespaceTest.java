package org.sctpj.tests.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sctpj.llp.raw.NetworkNamespace;
import org.sctpj.llp.udp.NativeIo;
import org.sctpj.llp.udp.UdpConfig;
import org.sctpj.llp.udp.UdpEncapsulation;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.PmtuStats;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;

/**
 * Path MTU discovery over the native UDP path and IPv6 across a black hole (issue 13): A and Z in
 * two namespaces behind a router, UDP encapsulation (RFC 6951) with DF on every datagram
 * ({@code pathMtuProbing}); once the search found 1500, the router's link to Z drops to 1280 and
 * the router's Packet Too Big messages are dropped (nftables), a black hole. The chunks already cut
 * for 1500 go again as fragmentable datagrams: IPv6 routers never fragment, so unless the sender
 * fragments them to 1280 itself they are lost for good. Every message must arrive. Root only; run
 * under {@code flock /tmp/sctpj-netlock}.
 */
@Timeout(180)
class UdpIpv6BlackHoleNamespaceTest {
    static final int MESSAGES = 300;
    static final int SIZE = 4000;

    static final SctpOptions O = SctpOptions.DEFAULTS.toBuilder()
            .pmtuDiscovery(true)
            .pmtuMax(1500)
            .rtoInitial(Duration.ofMillis(300))
            .rtoMin(Duration.ofMillis(100))
            .rtoMax(Duration.ofMillis(1000))
            .delayedAckTime(Duration.ofMillis(50))
            .sendBufferBytes(4 << 20)
            .encapsulationOverhead(UdpEncapsulation.UDP_HEADER_BYTES)
            .build();

    /** One side over native UDP in its namespace, on its own stack thread. */
    static LayerHost host(java.nio.file.Path ns, InetAddress address, int port, boolean listen) throws IOException {
        // the wildcard socket: the JDK lists a namespace's IPv6 addresses from /proc/net of the
        // process, not of the thread that entered the namespace, so a bound address fails there
        UdpConfig c = UdpConfig.builder()
                .localPort(9899)
                .defaultRemotePort(9899)
                .nativeIo(NativeIo.ON)
                .pathMtuProbing(true)
                .build();
        UdpEncapsulation udp = NetworkNamespace.call(ns, () -> UdpEncapsulation.open(c));
        return new LayerHost("udp6-bh", udp, now -> {
            Endpoint ep = new Endpoint(port, List.of(address), O, new SecureRandom(), now);
            ep.listen(listen);
            return ep;
        });
    }

    @Test
    void chunksCutForTheOldMtuCrossAnIpv6BlackHole() throws Exception {
        MultiPathBed.require();
        try (MultiPathBed bed =
                        MultiPathBed.builder().paths(1).router(true).rateMbit(0).create();
                LayerHost z = host(bed.fileZ(), bed.z6(1), 7502, true);
                LayerHost a = host(bed.fileA(), bed.a6(1), 7501, false)) {
            AssociationId id = a.call(ep -> ep.connect(List.of(bed.z6(1)), 7502, a.thread.now()));
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            PmtuStats first = null;
            while (System.nanoTime() < end) {
                first = a.call(ep ->
                        ep.info(id).isPresent() && ep.info(id).get().state().equals("ESTABLISHED")
                                ? ep.pmtuStats(id).map(l -> l.get(0)).orElse(null)
                                : null);
                if (first != null && !first.searching() && first.mtu() >= 1492) {
                    break;
                }
                Thread.sleep(20);
            }
            assertTrue(
                    first != null && !first.searching() && first.mtu() >= 1492,
                    "the first search did not end at 1500: " + first);
            for (int i = 0; i < MESSAGES; i++) {
                if (i == MESSAGES / 3) {
                    // a black hole: the router's link to Z shrinks to 1280 and its Packet Too Big
                    // messages never leave it
                    MultiPathBed.in(bed.nsR(), "nft", "add table inet bh");
                    MultiPathBed.in(
                            bed.nsR(),
                            "nft",
                            "add chain inet bh out { type filter hook output priority 0; policy accept; }");
                    MultiPathBed.in(bed.nsR(), "nft", "add rule inet bh out icmpv6 type packet-too-big drop");
                    bed.farMtu(1, 1280);
                }
                byte[] m = new byte[SIZE];
                ByteBuffer.wrap(m).putInt(i);
                int k = i;
                while (a.call(ep -> ep.send(id, new SendInfo(0, k, false, false), ByteBuffer.wrap(m), a.thread.now()))
                        == SendStatus.WOULD_BLOCK) {
                    Thread.sleep(1);
                }
            }
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (z.messages() < MESSAGES && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            String seen = z.messages() + " of " + MESSAGES + " delivered; "
                    + a.call(
                            ep -> ep.pmtuStats(id).map(l -> l.get(0).toString()).orElse("association gone"))
                    + "; A's events "
                    + a.events.stream()
                            .filter(e -> e instanceof SctpEvent.PathMtuChange
                                    || e instanceof SctpEvent.AssociationChange
                                    || e instanceof SctpEvent.PeerAddressChange)
                            .toList();
            System.out.println("UDP IPv6 black hole: " + seen);
            assertTrue(
                    a.events.stream()
                            .anyMatch(e -> e instanceof SctpEvent.PathMtuChange c
                                    && c.reason() == SctpEvent.PathMtuReason.BLACK_HOLE),
                    "the black hole was there (and seen): " + seen);
            assertEquals(MESSAGES, z.messages(), "every message across the black hole: " + seen);
        }
    }
}
