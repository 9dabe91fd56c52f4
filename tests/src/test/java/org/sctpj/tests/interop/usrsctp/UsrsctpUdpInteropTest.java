package org.sctpj.tests.interop.usrsctp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChange;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpEvent.MessageReceived;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.tests.Requirements;

/**
 * Our stack against usrsctp 0.9.5.0 (Debian's libusrsctp, through {@code upeer}) over UDP
 * encapsulation on loopback, both directions: our client with usrsctp's echo server, and our echo
 * server with usrsctp's client (which checks every echo: stream, PPID, U flag, bytes, order).
 * Skipped when {@code upeer} cannot be built (see interop/usrsctp/README.md).
 */
@Timeout(90)
class UsrsctpUdpInteropTest {

    private static final InetAddress LO = InetAddress.getLoopbackAddress();
    private static final Duration STEP = Duration.ofSeconds(15);
    private static final int MESSAGES = 100;
    private static final int STREAMS = 4;
    private static final int PPID_BASE = 1000;

    @BeforeAll
    static void needPeer() {
        Requirements.need(
                UsrsctpPeer.locate().isPresent(), () -> "usrsctp peer unavailable: " + UsrsctpPeer.unavailableReason());
    }

    /** SCTP ports: anything but the well-known test ports; usrsctp's UDP port keeps it apart. */
    private static int sctpPort() {
        return ThreadLocalRandom.current().nextInt(20000, 60000);
    }

    private static SctpOptions options() {
        return SctpOptions.DEFAULTS.toBuilder()
                .outboundStreams(STREAMS)
                .noDelay(true)
                .build();
    }

    private static byte[] payload(int i, int size) {
        byte[] b = new byte[size];
        for (int j = 0; j < size; j++) {
            b[j] = (byte) (i * 31 + j);
        }
        return b;
    }

    @ParameterizedTest(name = "unordered={0}")
    @ValueSource(booleans = {false, true})
    void ourClientAgainstUsrsctpEchoServer(boolean unordered) throws Exception {
        int peerUdp = UsrsctpPeer.freeUdpPort();
        int peerPort = sctpPort();
        try (UsrsctpPeer peer = UsrsctpPeer.builder(UsrsctpPeer.Mode.ECHO)
                        .udpPort(peerUdp)
                        .port(peerPort)
                        .localAddress("127.0.0.1")
                        .streams(STREAMS)
                        .timeout(Duration.ofSeconds(60))
                        .verbose()
                        .start();
                UdpEncapDriver d = UdpEncapDriver.open(LO, 0, sctpPort(), options(), peerUdp)) {
            peer.awaitReady(STEP);
            Endpoint ep = d.endpoint();
            List<SctpEvent> events = new ArrayList<>();
            List<MessageReceived> echoes = new ArrayList<>();
            AssociationId id = ep.connect(List.of(LO), peerPort, d.now());

            boolean up = d.runUntil(() -> changed(events, AssociationChangeType.COMMUNICATION_UP), STEP, events::add);
            assertTrue(up, () -> "no COMMUNICATION_UP: " + events + "; " + d.counters() + "\n" + peer.output());
            AssociationChange comUp = change(events, AssociationChangeType.COMMUNICATION_UP);
            assertEquals(STREAMS, comUp.outboundStreams(), "outbound streams");
            assertEquals(STREAMS, comUp.inboundStreams(), "inbound streams");

            int size = 300;
            for (int i = 0; i < MESSAGES; i++) {
                SendInfo info = new SendInfo(i % STREAMS, PPID_BASE + i, unordered, false);
                assertEquals(SendStatus.ACCEPTED, ep.send(id, info, ByteBuffer.wrap(payload(i, size)), d.now()));
            }
            boolean all = d.runUntil(() -> echoes.size() >= MESSAGES, STEP, e -> {
                events.add(e);
                if (e instanceof MessageReceived m) {
                    echoes.add(m);
                }
            });
            assertTrue(
                    all, () -> echoes.size() + " echoes of " + MESSAGES + "; " + d.counters() + "\n" + peer.output());

            boolean[] seen = new boolean[MESSAGES];
            int[] lastPerStream = new int[STREAMS];
            Arrays.fill(lastPerStream, -1);
            for (MessageReceived m : echoes) {
                int i = m.ppid() - PPID_BASE;
                assertTrue(i >= 0 && i < MESSAGES && !seen[i], "echo with PPID " + m.ppid());
                seen[i] = true;
                assertEquals(i % STREAMS, m.streamId(), "stream of echo " + i);
                assertEquals(unordered, m.unordered(), "U flag of echo " + i);
                assertArrayEquals(payload(i, size), m.data(), "bytes of echo " + i);
                if (!unordered) {
                    assertTrue(lastPerStream[m.streamId()] < i, "order on stream " + m.streamId());
                    lastPerStream[m.streamId()] = i;
                }
            }

            ep.shutdown(id, d.now());
            boolean closed =
                    d.runUntil(() -> changed(events, AssociationChangeType.SHUTDOWN_COMPLETE), STEP, events::add);
            assertTrue(closed, () -> "no SHUTDOWN_COMPLETE: " + events + "\n" + peer.output());

            UsrsctpPeer.Line r = peer.awaitResult(STEP);
            assertTrue(r.ok(), () -> r + "\n" + peer.output());
            assertEquals(MESSAGES, r.getLong("rx_msgs"), "messages usrsctp received");
            assertEquals(MESSAGES, r.getLong("echoed"), "messages usrsctp echoed");
            assertEquals(1, r.getLong("peer_shutdown"), "usrsctp saw our SHUTDOWN");
            assertEquals(0, r.getLong("comm_lost"), "usrsctp lost the association");
            assertEquals(STREAMS, r.getLong("istreams"));
            assertEquals(0, d.endpoint().stats().badChecksum(), "packets with a bad CRC32c from usrsctp");
            assertEquals(0, d.endpoint().stats().malformed(), "malformed packets from usrsctp");
        }
    }

    @ParameterizedTest(name = "end={0}")
    @ValueSource(strings = {"shutdown", "abort", "unordered"})
    void usrsctpClientAgainstOurEchoServer(String variant) throws Exception {
        boolean abort = variant.equals("abort");
        int ourPort = sctpPort();
        try (UdpEncapDriver d = UdpEncapDriver.open(LO, 0, ourPort, options(), 0)) {
            Endpoint ep = d.endpoint();
            ep.listen(true);
            UsrsctpPeer.Builder b = UsrsctpPeer.builder(UsrsctpPeer.Mode.CLIENT)
                    .udpPort(UsrsctpPeer.freeUdpPort())
                    .remoteUdpPort(d.udpPort())
                    .localAddress("127.0.0.1")
                    .port(0)
                    .peer("127.0.0.1", ourPort)
                    .streams(STREAMS)
                    .messages(MESSAGES)
                    .size(500)
                    .ppid(PPID_BASE)
                    .endWithAbort(abort)
                    .timeout(Duration.ofSeconds(60))
                    .verbose();
            if (variant.equals("unordered")) {
                b.unordered();
            }
            try (UsrsctpPeer peer = b.start()) {
                peer.awaitReady(STEP);
                List<SctpEvent> events = new ArrayList<>();
                int[] echoed = {0};
                AssociationChangeType end =
                        abort ? AssociationChangeType.COMMUNICATION_LOST : AssociationChangeType.SHUTDOWN_COMPLETE;
                boolean ended = d.runUntil(() -> changed(events, end), Duration.ofSeconds(30), e -> {
                    events.add(e);
                    if (e instanceof MessageReceived m) {
                        SendInfo info = new SendInfo(m.streamId(), m.ppid(), m.unordered(), false);
                        assertEquals(
                                SendStatus.ACCEPTED,
                                ep.send(m.association(), info, ByteBuffer.wrap(m.data()), d.now()));
                        echoed[0]++;
                    }
                });
                assertTrue(ended, () -> "no " + end + ": " + events + "; " + d.counters() + "\n" + peer.output());
                assertEquals(MESSAGES, echoed[0], "messages we received and echoed");
                AssociationChange up = change(events, AssociationChangeType.COMMUNICATION_UP);
                assertEquals(STREAMS, up.outboundStreams(), "outbound streams");
                assertEquals(STREAMS, up.inboundStreams(), "inbound streams");
                if (!abort) {
                    assertTrue(
                            events.stream().anyMatch(e -> e instanceof SctpEvent.ShutdownReceived),
                            () -> "no ShutdownReceived: " + events);
                }

                UsrsctpPeer.Line r = peer.awaitResult(STEP);
                assertTrue(r.ok(), () -> r + "\n" + peer.output());
                assertEquals(MESSAGES, r.getLong("rx_msgs"), "echoes usrsctp received and verified");
                assertEquals(0, r.getLong("errors"));
                assertEquals(1, r.getLong("assocs_ended"));
                assertEquals(0, d.endpoint().stats().badChecksum(), "packets with a bad CRC32c from usrsctp");
                assertEquals(0, d.endpoint().stats().malformed(), "malformed packets from usrsctp");
            }
        }
    }

    @Test
    void usrsctpPingPongAgainstOurEchoServer() throws Exception {
        int ourPort = sctpPort();
        try (UdpEncapDriver d = UdpEncapDriver.open(LO, 0, ourPort, options(), 0)) {
            Endpoint ep = d.endpoint();
            ep.listen(true);
            try (UsrsctpPeer peer = UsrsctpPeer.builder(UsrsctpPeer.Mode.PINGPONG)
                    .udpPort(UsrsctpPeer.freeUdpPort())
                    .remoteUdpPort(d.udpPort())
                    .port(0)
                    .peer("127.0.0.1", ourPort)
                    .messages(200)
                    .size(30)
                    .timeout(Duration.ofSeconds(60))
                    .start()) {
                peer.awaitReady(STEP);
                List<SctpEvent> events = new ArrayList<>();
                boolean ended = d.runUntil(
                        () -> changed(events, AssociationChangeType.SHUTDOWN_COMPLETE), Duration.ofSeconds(30), e -> {
                            events.add(e);
                            if (e instanceof MessageReceived m) {
                                SendInfo info = new SendInfo(m.streamId(), m.ppid(), m.unordered(), true);
                                ep.send(m.association(), info, ByteBuffer.wrap(m.data()), d.now());
                            }
                        });
                assertTrue(ended, () -> "no SHUTDOWN_COMPLETE: " + d.counters() + "\n" + peer.output());
                UsrsctpPeer.Line r = peer.awaitResult(STEP);
                assertTrue(r.ok(), () -> r + "\n" + peer.output());
                assertEquals(200, r.getLong("round_trips"));
                // No assertion on speed (tests never time); the numbers are in the report for a look.
                System.out.println("usrsctp ping-pong against sctpj: median " + r.get("rtt_median_us") + " us, p99 "
                        + r.get("rtt_p99_us") + " us");
            }
        }
    }

    @Test
    void usrsctpBulkOfLargeMessagesIntoOurSink() throws Exception {
        int ourPort = sctpPort();
        try (UdpEncapDriver d = UdpEncapDriver.open(LO, 0, ourPort, options(), 0)) {
            Endpoint ep = d.endpoint();
            ep.listen(true);
            int size = 100_000; // fragmented into ~70 DATA chunks each; usrsctp delivers in pieces too
            try (UsrsctpPeer peer = UsrsctpPeer.builder(UsrsctpPeer.Mode.BULK)
                    .udpPort(UsrsctpPeer.freeUdpPort())
                    .remoteUdpPort(d.udpPort())
                    .port(0)
                    .peer("127.0.0.1", ourPort)
                    .streams(STREAMS)
                    .size(size)
                    .duration(Duration.ofSeconds(1))
                    .timeout(Duration.ofSeconds(60))
                    .start()) {
                peer.awaitReady(STEP);
                List<SctpEvent> events = new ArrayList<>();
                long[] got = {0, 0};
                boolean ended = d.runUntil(
                        () -> changed(events, AssociationChangeType.SHUTDOWN_COMPLETE), Duration.ofSeconds(40), e -> {
                            if (e instanceof MessageReceived m) {
                                assertEquals(size, m.data().length, "message size");
                                got[0]++;
                                got[1] += m.data().length;
                            } else {
                                events.add(e);
                            }
                        });
                assertTrue(ended, () -> "no SHUTDOWN_COMPLETE: " + events + "; " + d.counters() + "\n" + peer.output());
                UsrsctpPeer.Line r = peer.awaitResult(STEP);
                assertTrue(r.ok(), () -> r + "\n" + peer.output());
                assertTrue(got[0] > 0, "no message arrived");
                assertEquals(r.getLong("tx_msgs"), got[0], "messages usrsctp sent vs. we received");
                assertEquals(r.getLong("tx_bytes"), got[1], "bytes usrsctp sent vs. we received");
                System.out.println("usrsctp bulk into sctpj: " + r.get("tx_mb_per_s") + " MB/s, " + got[0]
                        + " messages of " + size + " bytes");
            }
        }
    }

    private static boolean changed(List<SctpEvent> events, AssociationChangeType type) {
        return events.stream().anyMatch(e -> e instanceof AssociationChange c && c.type() == type);
    }

    private static AssociationChange change(List<SctpEvent> events, AssociationChangeType type) {
        return events.stream()
                .filter(e -> e instanceof AssociationChange c && c.type() == type)
                .map(e -> (AssociationChange) e)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + type + " in " + events));
    }
}
