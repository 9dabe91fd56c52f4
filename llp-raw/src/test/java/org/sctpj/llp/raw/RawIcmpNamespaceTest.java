package org.sctpj.llp.raw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;

/**
 * ICMP on the raw lower layer, in two fresh namespaces (root; run under {@code flock
 * /tmp/sctpj-netlock}): side B has no SCTP at all, so its kernel answers an INIT with ICMP Protocol
 * Unreachable (ICMPv6: Unrecognized Next Header); side A reads it through IP_RECVERR and the
 * connect fails at once (RFC 9260 appendix C, ICMP8). With the {@link IcmpGuard} rules in B, no
 * ICMP leaves B. Also the receive buffer sized to the window and the kernel's drop count.
 */
class RawIcmpNamespaceTest {

    static final SctpOptions LAN =
            SctpOptions.LAN.toBuilder().maxInitRetransmits(2).build();
    private static VethPair pair;

    @BeforeAll
    static void setUp() throws IOException {
        VethPair.assumeRoot();
        pair = VethPair.create();
        // The kernel rate-limits the ICMP it sends (per peer and per namespace): off, so that each
        // test sees every ICMP its packets provoke whatever ran before it.
        for (String ns : List.of(pair.nsA, pair.nsB)) {
            pair.in(
                    ns,
                    "sysctl",
                    "-q",
                    "-w",
                    "net.ipv4.icmp_ratelimit=0",
                    "net.ipv6.icmp.ratelimit=0",
                    "net.ipv4.icmp_msgs_per_sec=100000",
                    "net.ipv4.icmp_msgs_burst=100000");
        }
    }

    @AfterAll
    static void tearDown() {
        if (pair != null) {
            pair.close();
        }
    }

    record Outcome(SctpEvent.AssociationChange change, long nanos, long icmpActedOn, RawIpStats stats) {}

    /** A connects from its address to {@code peer} port 7000, where B has no SCTP. */
    static Outcome connectFromA(InetAddress local, InetAddress peer) throws Exception {
        RawIpLowerLayer l = RawIpLowerLayer.builder()
                .networkNamespace(pair.fileA())
                .localAddresses(List.of(local))
                .open();
        Endpoint ep = new Endpoint(6000, List.of(local), LAN, new SecureRandom(), 0);
        CompletableFuture<SctpEvent.AssociationChange> done = new CompletableFuture<>();
        long[] at = new long[2];
        EndpointDriver d = new EndpointDriver("raw-icmp", ep, l, System.nanoTime(), e -> {
            if (e instanceof SctpEvent.AssociationChange c) {
                at[1] = System.nanoTime();
                done.complete(c);
            }
        });
        d.start();
        try {
            d.execute(e -> {
                at[0] = System.nanoTime();
                e.connect(List.of(peer), 7000, d.now());
            });
            SctpEvent.AssociationChange c = done.get(30, TimeUnit.SECONDS);
            CompletableFuture<long[]> counters = new CompletableFuture<>();
            d.execute(e -> counters.complete(new long[] {e.stats().icmpActedOn()}));
            long acted = counters.get(10, TimeUnit.SECONDS)[0];
            return new Outcome(c, at[1] - at[0], acted, l.stats());
        } finally {
            d.close();
            l.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {VethPair.B4, VethPair.B6})
    void aHostWithoutSctpRefusesTheInitWithAnIcmpThatEndsTheSetupAtOnce(String b) throws Exception {
        InetAddress peer = VethPair.addr(b);
        InetAddress local = VethPair.addr(b.contains(":") ? VethPair.A6 : VethPair.A4);
        Outcome r = connectFromA(local, peer);
        System.out.printf(
                "raw IP: connect to %s (no SCTP there): %s after %.3f ms, %s%n",
                b, r.change().type(), r.nanos() / 1e6, r.stats());
        assertEquals(AssociationChangeType.CANT_START, r.change().type());
        assertEquals(1, r.icmpActedOn(), r.change().reason());
        assertTrue(
                r.change().reason().contains("in answer to our INIT"),
                r.change().reason());
        assertTrue(r.stats().icmpReported() >= 1);
        assertTrue(r.nanos() < Duration.ofSeconds(1).toNanos(), "within a second: " + r.nanos() / 1e6 + " ms");
    }

    @Test
    void theGuardRulesKeepTheProtocolUnreachableIn() throws Exception {
        IcmpGuard g = IcmpGuard.install(pair.fileB());
        try {
            assertTrue(pair.in(pair.nsB, "nft", "list", "tables").contains(g.table()));
            Outcome r = connectFromA(VethPair.addr(VethPair.A4), VethPair.addr(VethPair.B4));
            assertEquals(AssociationChangeType.CANT_START, r.change().type());
            assertEquals(0, r.icmpActedOn(), "no ICMP came: " + r.change().reason());
            assertTrue(
                    r.change().reason().contains("retransmissions"), r.change().reason());
            assertEquals(0, r.stats().icmpErrors());
        } finally {
            g.remove();
        }
        assertFalse(pair.in(pair.nsB, "nft", "list", "tables").contains(g.table()), "removed");
    }

    @Test
    void theLayerInstallsTheGuardWhenAskedAndRemovesItOnClose() throws Exception {
        RawIpLowerLayer l = RawIpLowerLayer.builder()
                .networkNamespace(pair.fileB())
                .suppressProtocolUnreachable(true)
                .open();
        String table = l.icmpGuardTable().orElseThrow();
        assertTrue(pair.in(pair.nsB, "nft", "list", "tables").contains(table));
        l.close();
        assertFalse(pair.in(pair.nsB, "nft", "list", "tables").contains(table));
        try (RawIpLowerLayer plain =
                RawIpLowerLayer.builder().networkNamespace(pair.fileB()).open()) {
            assertTrue(plain.icmpGuardTable().isEmpty());
        }
    }

    @Test
    void theReceiveBufferIsSizedToTheWindow() throws Exception {
        int window = SctpOptions.DEFAULTS.receiveBufferBytes();
        try (RawIpLowerLayer big =
                        RawIpLowerLayer.builder().networkNamespace(pair.fileA()).open();
                RawIpLowerLayer kernelDefault = RawIpLowerLayer.builder()
                        .networkNamespace(pair.fileA())
                        .receiveBufferBytes(0)
                        .open()) {
            assertTrue(big.receiveBufferBytes() >= window, "granted " + big.receiveBufferBytes());
            assertTrue(kernelDefault.receiveBufferBytes() < window, "default " + kernelDefault.receiveBufferBytes());
        }
    }

    /**
     * A burst into A's small raw receive buffer from B: the packets A's socket cannot take are
     * answered by A's kernel with ICMP Protocol Unreachable (seen by B's raw socket), unless the
     * {@link IcmpGuard} rules are in A's namespace. ICMP rate limiting is off in A for the test.
     */
    @Test
    void dropsOnAFullRawSocketAreCountedAndAnsweredWithProtocolUnreachableUnlessGuarded() throws Exception {
        Burst unguarded = burst();
        IcmpGuard g = IcmpGuard.install(pair.fileA());
        Burst guarded;
        try {
            guarded = burst();
        } finally {
            g.remove();
        }
        System.out.println("a burst of 200 packets of 1200 bytes into a 16 KiB raw socket buffer: " + unguarded
                + " without the guard, " + guarded + " with it");
        assertTrue(unguarded.kernelDropped() > 0 && guarded.kernelDropped() > 0, "the buffer overflowed");
        assertTrue(unguarded.icmp() > 0, "the kernel answers the drops");
        assertEquals(0, guarded.icmp());
    }

    /** What a burst did: packets A's kernel dropped, and ICMP errors B read about them. */
    record Burst(long kernelDropped, long icmp) {}

    /** B sends 200 packets at once to A's small buffer; then A reads what it kept, B its ICMPs. */
    private static Burst burst() throws Exception {
        InetAddress a4 = VethPair.addr(VethPair.A4);
        InetAddress b4 = VethPair.addr(VethPair.B4);
        try (RawIpLowerLayer a = RawIpLowerLayer.builder()
                        .networkNamespace(pair.fileA())
                        .ipv6(false)
                        .receiveBufferBytes(8192)
                        .open();
                RawIpLowerLayer b = RawIpLowerLayer.builder()
                        .networkNamespace(pair.fileB())
                        .ipv6(false)
                        .open()) {
            ByteBuffer p = ByteBuffer.allocate(1200);
            p.putShort((short) 7000).putShort((short) 6000).putInt(1);
            for (int i = 0; i < 200; i++) {
                b.send(p.clear(), b4, a4);
                b.flush(); // one at a time, as the receive buffer fills
            }
            Thread.sleep(300);
            a.receive((buf, from, to) -> {}, 1024); // empties the buffer
            // The kernel stamps its drop count on packets queued after the drops: one more.
            b.send(p.clear(), b4, a4);
            b.flush();
            a.await(TimeUnit.SECONDS.toNanos(2));
            a.receive((buf, from, to) -> {}, 1024);
            long giveUp = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
            while (System.nanoTime() < giveUp) {
                b.await(TimeUnit.MILLISECONDS.toNanos(50));
                b.receive((buf, from, to) -> {}, 64);
            }
            return new Burst(a.stats().kernelDropped(), b.stats().icmpErrors());
        }
    }
}
