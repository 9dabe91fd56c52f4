package org.sctpj.tests.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.sctpj.llp.udp.UdpConfig;
import org.sctpj.llp.udp.UdpEncapsulation;
import org.sctpj.stack.SctpOptions;
import org.sctpj.tests.Requirements;
import org.sctpj.trace.PcapLowerLayer;
import org.sctpj.trace.PcapWriter;

/**
 * The evidence a failed interop case leaves ({@link FailureEvidence}): a deliberately failing case
 * against a fake peer (our own stack on loopback UDP, offering fewer streams than the case
 * expects, so the handshake case fails right after COMMUNICATION_UP) must print our core's state
 * at the failure, a tshark summary of the capture with the failure marked, and keep the capture
 * under {@code target/interop-failures/}. The line formatting is checked on tshark rows written
 * out here.
 */
class FailureEvidenceTest {

    @Test
    void failedCaseCarriesCoreStateCaptureSummaryAndKeepsThePcap() throws IOException {
        Requirements.need(Shell.has("tshark"), () -> "tshark is missing: apt-get install -y tshark");
        FakePeer fake = new FakePeer();
        Path kept = FailureEvidence.DIR.resolve("fake-udp-we-client-handshake.pcap");
        Files.deleteIfExists(kept);

        Outcome o = new CaseRunner(fake).run(Llp.UDP, Direction.WE_CLIENT, InteropCase.HANDSHAKE);

        String d = o.detail();
        assertEquals(Outcome.Status.FAIL, o.status(), d);
        assertTrue(d.startsWith("AssertionError: streams out/in 4/4, expected 16 each\n"), d);
        assertTrue(d.contains("==== evidence of fake-udp-we-client-handshake"), d);
        // our core's state, taken before the peer was stopped: still established
        assertTrue(d.contains(" ESTABLISHED primary 127.0.0.1 streams out/in 4/4"), d);
        assertTrue(d.contains("  path 127.0.0.1 ACTIVE cwnd="), d);
        assertTrue(d.contains("  send: peer rwnd="), d);
        assertTrue(d.contains("  receive: cum TSN="), d);
        // the capture, one line per packet, with the failure marked
        assertTrue(d.contains(" INIT\n") || d.contains(" INIT "), d);
        assertTrue(d.contains(" INIT_ACK"), d);
        assertTrue(d.contains(" COOKIE_ECHO"), d);
        assertTrue(d.contains(" COOKIE_ACK"), d);
        assertTrue(d.contains("---- failure detected at "), d);
        // our stack's close after the failure aborts the association: after the marker
        int marker = d.indexOf("---- failure detected at ");
        assertTrue(d.indexOf(" ABORT", marker) > marker, d);
        assertTrue(d.length() <= FailureEvidence.MAX_CHARS, "evidence of " + d.length() + " characters");
        assertTrue(d.contains("capture kept: " + kept.toAbsolutePath()), d);
        assertTrue(Files.size(kept) > 0, "kept capture is empty");
        assertTrue(Files.readString(FailureEvidence.DIR.resolve("fake-udp-we-client-handshake.txt"))
                .contains("our core's state at the failure"));
        assertTrue(fake.closed, "the fake peer was not stopped");
    }

    @Test
    void packetLinesCondenseDataRunsAndShowSackGaps() {
        String[] data = {
            "7",
            "100.5",
            "5000",
            "6000",
            "0,0,0",
            "10,11,12",
            "1,1,1",
            "3,3,3",
            "1,0,0",
            "0,0,1",
            "9,9,9",
            "",
            "",
            "",
            "",
            ""
        };
        assertEquals(
                "#7   0.500000 5000>6000 DATAx3(tsn=10..12 sid=1 first B last E)",
                FailureEvidence.packetLine(data, 0.5));
        String[] sack = {"8", "101", "6000", "5000", "3,0", "13", "2", "0", "1", "1", "7", "9", "928", "2,5", "3,6", "9"
        };
        assertEquals(
                "#8   1.000000 6000>5000 SACK(cum=9 a_rwnd=928 gaps=2-3,5-6 dups=1) DATA(tsn=13 sid=2 ssn=0 ppid=7 BE)",
                FailureEvidence.packetLine(sack, 1.0));
        String[] ctl = {"9", "102", "6000", "5000", "4,6", "", "", "", "", "", "", "", "", "", "", ""};
        assertEquals("#9   2.000000 6000>5000 HEARTBEAT ABORT", FailureEvidence.packetLine(ctl, 2.0));
    }

    @Test
    void evidenceIsBounded() {
        String big = "x".repeat(100_000);
        String b = FailureEvidence.bound(big, 1000);
        assertTrue(b.length() <= 1000, "bounded to " + b.length());
        assertTrue(b.contains("characters left out"));
        assertEquals("short", FailureEvidence.bound("short", 1000));
    }

    /**
     * A peer that is our own stack as an echo server over loopback UDP, offering 4 streams each
     * way whatever the job asks: every case expecting 16 fails after the handshake.
     */
    private static final class FakePeer implements Peer {
        volatile boolean closed;

        @Override
        public String name() {
            return "fake";
        }

        @Override
        public Optional<String> unavailable() {
            return Optional.empty();
        }

        @Override
        public Optional<String> notApplicable(Llp llp, Direction direction, InteropCase c) {
            return Optional.empty();
        }

        @Override
        public PeerRun start(PeerJob job, Topology topology) throws IOException {
            Path scratch = Files.createTempFile("fake-peer-", ".pcap");
            PcapWriter w = PcapWriter.open(scratch);
            OurStack s = OurStack.start(
                    "fake-peer", w, PcapLowerLayer.Framing.udp(topology.peerUdpPort(), topology.ourUdpPort()));
            s.echo(true);
            UdpConfig config = UdpConfig.builder()
                    .bindAddresses(List.of(InetAddress.getLoopbackAddress()))
                    .localPort(topology.peerUdpPort())
                    .defaultRemotePort(topology.ourUdpPort())
                    .build();
            SctpOptions o = SctpOptions.DEFAULTS.toBuilder()
                    .outboundStreams(4)
                    .maxInboundStreams(4)
                    .build();
            s.bind(job.port(), job.localAddresses(), o, () -> UdpEncapsulation.open(config));
            s.listen();
            return new PeerRun() {
                @Override
                public void awaitReady(Duration timeout) {}

                @Override
                public PeerResult awaitResult(Duration timeout) {
                    throw new AssertionError("the fake peer has no result");
                }

                @Override
                public void awaitPaused(Duration timeout) {}

                @Override
                public void resume() {}

                @Override
                public void kill() {
                    close();
                }

                @Override
                public String output() {
                    return "(fake peer)";
                }

                @Override
                public void close() {
                    closed = true;
                    s.close();
                    try {
                        w.close();
                        Files.deleteIfExists(scratch);
                    } catch (IOException e) {
                        // a scratch file left in /tmp
                    }
                }
            };
        }
    }
}
