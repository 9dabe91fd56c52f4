package org.sctpj.llp.udp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.icmp.IcmpReport;
import org.sctpj.stack.llp.LowerLayer;

/**
 * ICMP over UDP encapsulation on loopback (RFC 9260 appendix C, RFC 6951 section 5.5): the native
 * path reads the Port Unreachable the kernel answers a datagram to a closed UDP port with
 * (IP_RECVERR / IPV6_RECVERR), with what it quoted of our SCTP packet; and a connect to a closed
 * port fails on that ICMP, without one INIT retransmission.
 */
class IcmpOverUdpTest {

    static final int SCTP_SRC = 5000;
    static final int SCTP_DST = 6000;

    /** A UDP port of {@code address} where nothing listens (bound, then closed). */
    static int closedPort(InetAddress address) throws IOException {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(address, 0))) {
            return s.getLocalPort();
        }
    }

    /** An SCTP packet with an INIT whose Initiate Tag is {@code tag} (the checksum is not checked). */
    static ByteBuffer init(int tag) {
        ByteBuffer b = ByteBuffer.allocate(32);
        b.putShort((short) SCTP_SRC).putShort((short) SCTP_DST).putInt(0).putInt(0);
        b.put((byte) 1).put((byte) 0).putShort((short) 20).putInt(tag).putInt(65536);
        b.putShort((short) 10).putShort((short) 10).putInt(1);
        return b.flip();
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1", "wildcard socket, 127.0.0.1", "wildcard socket, ::1"})
    void theNativePathReportsAPortUnreachableWithTheQuotedInit(String host) throws Exception {
        boolean wildcard = host.startsWith("wildcard");
        InetAddress lo = InetAddress.getByName(host.substring(host.lastIndexOf(' ') + 1));
        try (UdpEncapsulation u = UdpEncapsulationTest.open(wildcard ? null : lo, UdpEncapsulationTest.Io.NATIVE)) {
            u.setRemotePort(lo, closedPort(lo));
            UdpEncapsulationTest.send(u, init(0xcafebabe), lo, lo);
            List<IcmpReport> reports = new ArrayList<>();
            LowerLayer.PacketSink sink = new LowerLayer.PacketSink() {
                @Override
                public void packet(ByteBuffer sctp, InetAddress from, InetAddress to) {}

                @Override
                public void icmp(IcmpReport report) {
                    reports.add(report);
                }
            };
            long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(5); // a generous wait, not a speed bound
            while (reports.isEmpty() && System.nanoTime() < giveUp) {
                u.await(TimeUnit.MILLISECONDS.toNanos(50));
                u.receive(sink, 64);
            }
            assertEquals(1, reports.size(), "one ICMP error for one datagram: " + reports);
            IcmpReport r = reports.get(0);
            assertEquals(IcmpReport.Kind.PORT_UNREACHABLE, r.kind());
            assertEquals(lo instanceof java.net.Inet6Address, r.ipv6());
            assertTrue(r.udpEncapsulated());
            assertEquals(lo, r.destination());
            assertEquals(SCTP_SRC, r.sourcePort());
            assertEquals(SCTP_DST, r.destinationPort());
            assertEquals(0, r.verificationTag());
            assertEquals(1, r.chunkType());
            assertEquals(0xcafebabeL, r.initiateTag());
            assertEquals(1, u.stats().icmpReported());
        }
    }

    /** The connect's result and its time in the driver's own clock. */
    record Outcome(SctpEvent.AssociationChange change, long nanos, long icmpActedOn) {}

    static Outcome connectToClosedPort(InetAddress lo, SctpOptions o, UdpEncapsulationTest.Io io) throws Exception {
        UdpEncapsulation u = UdpEncapsulationTest.open(lo, io);
        Endpoint ep = new Endpoint(u.localPort(), List.of(lo), o, new SecureRandom(), System.nanoTime());
        u.setRemotePort(lo, closedPort(lo));
        CompletableFuture<Outcome> result = new CompletableFuture<>();
        long[] started = new long[1];
        MiniDriver d = new MiniDriver("icmp-connect", ep, u, (drv, e) -> {
                    if (e instanceof SctpEvent.AssociationChange c) {
                        result.complete(new Outcome(
                                c, drv.now() - started[0], drv.endpoint.stats().icmpActedOn()));
                    }
                })
                .start();
        try {
            d.submit(drv -> {
                started[0] = drv.now();
                drv.endpoint.connect(List.of(lo), 9899, drv.now());
            });
            return result.get(30, TimeUnit.SECONDS);
        } finally {
            d.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void aConnectToAClosedPortFailsOnTheIcmpBeforeAnyInitRetransmission(String host) throws Exception {
        InetAddress lo = InetAddress.getByName(host);
        assumeTrue(
                UdpEncapsulation.open(UdpConfig.builder().localPort(0).build()).isNative(), "needs the native path");
        // Three rounds each: the first connect of the JVM also loads and compiles the code.
        for (SctpOptions o : List.of(
                SctpOptions.LAN, SctpOptions.WAN, SctpOptions.LAN, SctpOptions.WAN, SctpOptions.LAN, SctpOptions.WAN)) {
            Outcome r = connectToClosedPort(lo, o, UdpEncapsulationTest.Io.NATIVE);
            System.out.printf(
                    "connect to a closed UDP port on %s, %s profile (RTO.Initial %d ms): %s after %.3f ms%n",
                    host,
                    o == SctpOptions.LAN ? "LAN" : "WAN",
                    o.rtoInitial().toMillis(),
                    r.change().type(),
                    r.nanos() / 1e6);
            assertEquals(AssociationChangeType.CANT_START, r.change().type());
            assertEquals(1, r.icmpActedOn(), "ended by the ICMP: " + r.change().reason());
            assertTrue(
                    r.change().reason().contains("in answer to our INIT"),
                    r.change().reason());
            // The bound of the issue: within a second on the LAN profile, within about RTO.Initial
            // on the WAN profile (1 s: before T1-init would first fire). In the driver's clock.
            long bound = o == SctpOptions.LAN
                    ? Duration.ofSeconds(1).toNanos()
                    : o.rtoInitial().toNanos();
            assertTrue(r.nanos() < bound, "failed after " + r.nanos() / 1e6 + " ms");
        }
    }

    @Test
    void withIcmpHandlingOffTheConnectWaitsForEveryInitRetransmission() throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        SctpOptions off = SctpOptions.LAN.toBuilder().icmpHandling(false).build();
        Outcome r = connectToClosedPort(lo, off, UdpEncapsulationTest.Io.NATIVE);
        System.out.printf(
                "the same with icmpHandling off (LAN profile): %s after %.3f ms%n",
                r.change().type(), r.nanos() / 1e6);
        assertEquals(AssociationChangeType.CANT_START, r.change().type());
        assertEquals(0, r.icmpActedOn());
        assertNotNull(r.change().reason());
        assertTrue(r.change().reason().contains("retransmissions"), r.change().reason());
        // 8 retransmissions at RTO.Max 100 ms: not before 800 ms (a lower bound: load only delays)
        assertTrue(r.nanos() >= Duration.ofMillis(800).toNanos(), "failed after " + r.nanos() / 1e6 + " ms");
    }
}
