package org.sctpj.tests.interop.usrsctp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.Extension;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChange;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpEvent.MessageReceived;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.wire.chunk.ChunkType;
import org.sctpj.tests.Requirements;

/**
 * AUTH (RFC 4895) between our stack and usrsctp 0.9.5.0 ({@code upeer} over UDP encapsulation on
 * loopback), both roles. Each side requires DATA and SACK authenticated ({@code upeer
 * --auth-chunks}, our {@link SctpOptions#authChunks()}), so every data packet either way carries
 * an AUTH chunk that the other implementation computed and must verify: an HMAC or key derivation
 * that differs loses the messages (they are silently discarded). Our client also switches keys in
 * the middle: from key 0 (empty) to key 5, an endpoint pair shared key usrsctp was given ({@code
 * --auth-key}); our server requires COOKIE ECHO authenticated too, so usrsctp's AUTH before its
 * COOKIE ECHO is checked with the key vectors of our State Cookie.
 */
@Timeout(90)
class UsrsctpAuthInteropTest {

    private static final InetAddress LO = InetAddress.getLoopbackAddress();
    private static final Duration STEP = Duration.ofSeconds(15);
    private static final int MESSAGES = 100;
    private static final int STREAMS = 4;
    private static final int PPID_BASE = 1000;
    private static final byte[] KEY5 = "an endpoint pair shared key".getBytes(StandardCharsets.US_ASCII);

    @BeforeAll
    static void needPeer() {
        Requirements.need(
                UsrsctpPeer.locate().isPresent(), () -> "usrsctp peer unavailable: " + UsrsctpPeer.unavailableReason());
    }

    private static int sctpPort() {
        return ThreadLocalRandom.current().nextInt(20000, 60000);
    }

    private static SctpOptions options(Set<Integer> required) {
        return SctpOptions.DEFAULTS.toBuilder()
                .outboundStreams(STREAMS)
                .noDelay(true)
                .enable(Extension.AUTH)
                .authChunks(required)
                .build();
    }

    private static byte[] payload(int i, int size) {
        byte[] b = new byte[size];
        for (int j = 0; j < size; j++) {
            b[j] = (byte) (i * 31 + j);
        }
        return b;
    }

    @Test
    void ourClientSwitchesKeysAgainstUsrsctpEchoServer() throws Exception {
        int peerUdp = UsrsctpPeer.freeUdpPort();
        int peerPort = sctpPort();
        try (UsrsctpPeer peer = UsrsctpPeer.builder(UsrsctpPeer.Mode.ECHO)
                        .udpPort(peerUdp)
                        .port(peerPort)
                        .localAddress("127.0.0.1")
                        .streams(STREAMS)
                        .timeout(Duration.ofSeconds(60))
                        .option("auth-chunks", ChunkType.DATA + "," + ChunkType.SACK)
                        .option("auth-key", "5:" + HexFormat.of().formatHex(KEY5))
                        .verbose()
                        .start();
                UdpEncapDriver d = UdpEncapDriver.open(
                        LO, 0, sctpPort(), options(Set.of(ChunkType.DATA, ChunkType.SACK)), peerUdp)) {
            peer.awaitReady(STEP);
            Endpoint ep = d.endpoint();
            List<SctpEvent> events = new ArrayList<>();
            List<MessageReceived> echoes = new ArrayList<>();
            AssociationId id = ep.connect(List.of(LO), peerPort, d.now());
            boolean up = d.runUntil(() -> changed(events, AssociationChangeType.COMMUNICATION_UP), STEP, events::add);
            assertTrue(up, () -> "no COMMUNICATION_UP: " + events + "; " + d.counters() + "\n" + peer.output());
            assertTrue(ep.info(id).orElseThrow().extensions().contains(Extension.AUTH), "AUTH negotiated");
            // usrsctp lists ASCONF and ASCONF ACK as well (its ASCONF support is on by default).
            assertTrue(
                    ep.peerAuthChunks(id).containsAll(Set.of(ChunkType.DATA, ChunkType.SACK)),
                    "usrsctp's CHUNKS: " + ep.peerAuthChunks(id));

            for (int half = 0; half < 2; half++) {
                if (half == 1) {
                    // RFC 6458 8.1.22/8.1.23: key 5, which usrsctp has, becomes our sending key.
                    ep.setAuthKey(id, 5, KEY5);
                    ep.setActiveAuthKey(id, 5);
                }
                int from = half * MESSAGES / 2;
                for (int i = from; i < from + MESSAGES / 2; i++) {
                    SendInfo info = new SendInfo(i % STREAMS, PPID_BASE + i, false, false);
                    assertEquals(SendStatus.ACCEPTED, ep.send(id, info, ByteBuffer.wrap(payload(i, 300)), d.now()));
                }
                int want = from + MESSAGES / 2;
                boolean all = d.runUntil(() -> echoes.size() >= want, STEP, e -> {
                    events.add(e);
                    if (e instanceof MessageReceived m) {
                        echoes.add(m);
                    }
                });
                assertTrue(
                        all,
                        () -> echoes.size() + " echoes of " + want + " (key " + ep.activeAuthKey(id) + "); "
                                + d.counters() + "\n" + peer.output());
            }
            for (MessageReceived m : echoes) {
                int i = m.ppid() - PPID_BASE;
                assertArrayEquals(payload(i, 300), m.data(), "bytes of echo " + i);
            }
            ep.shutdown(id, d.now());
            boolean closed =
                    d.runUntil(() -> changed(events, AssociationChangeType.SHUTDOWN_COMPLETE), STEP, events::add);
            assertTrue(closed, () -> "no SHUTDOWN_COMPLETE: " + events + "\n" + peer.output());
            UsrsctpPeer.Line r = peer.awaitResult(STEP);
            assertTrue(r.ok(), () -> r + "\n" + peer.output());
            assertEquals(MESSAGES, r.getLong("rx_msgs"), "messages usrsctp received (each verified by its HMAC)");
            assertEquals(MESSAGES, r.getLong("echoed"), "messages usrsctp echoed");
        }
    }

    @Test
    void usrsctpClientAgainstOurEchoServerWithAuthenticatedCookieEcho() throws Exception {
        int ourPort = sctpPort();
        Set<Integer> required = Set.of(ChunkType.DATA, ChunkType.SACK, ChunkType.COOKIE_ECHO);
        try (UdpEncapDriver d = UdpEncapDriver.open(LO, 0, ourPort, options(required), 0)) {
            Endpoint ep = d.endpoint();
            ep.listen(true);
            try (UsrsctpPeer peer = UsrsctpPeer.builder(UsrsctpPeer.Mode.CLIENT)
                    .udpPort(UsrsctpPeer.freeUdpPort())
                    .remoteUdpPort(d.udpPort())
                    .localAddress("127.0.0.1")
                    .port(0)
                    .peer("127.0.0.1", ourPort)
                    .streams(STREAMS)
                    .messages(MESSAGES)
                    .size(500)
                    .ppid(PPID_BASE)
                    .timeout(Duration.ofSeconds(60))
                    .option("auth-chunks", ChunkType.DATA + "," + ChunkType.SACK)
                    .verbose()
                    .start()) {
                peer.awaitReady(STEP);
                List<SctpEvent> events = new ArrayList<>();
                int[] echoed = {0};
                AssociationId[] up = {null};
                boolean ended = d.runUntil(
                        () -> changed(events, AssociationChangeType.SHUTDOWN_COMPLETE), Duration.ofSeconds(30), e -> {
                            events.add(e);
                            if (e instanceof AssociationChange c
                                    && c.type() == AssociationChangeType.COMMUNICATION_UP) {
                                up[0] = c.association();
                                assertTrue(ep.info(c.association())
                                        .orElseThrow()
                                        .extensions()
                                        .contains(Extension.AUTH));
                            }
                            if (e instanceof MessageReceived m) {
                                SendInfo info = new SendInfo(m.streamId(), m.ppid(), m.unordered(), false);
                                assertEquals(
                                        SendStatus.ACCEPTED,
                                        ep.send(m.association(), info, ByteBuffer.wrap(m.data()), d.now()));
                                echoed[0]++;
                            }
                        });
                assertTrue(ended, () -> "no SHUTDOWN_COMPLETE: " + events + "; " + d.counters() + "\n" + peer.output());
                assertTrue(up[0] != null, "the association came up: usrsctp's AUTH before COOKIE ECHO verified");
                assertEquals(MESSAGES, echoed[0], "messages we received (each verified by its HMAC) and echoed");
                UsrsctpPeer.Line r = peer.awaitResult(STEP);
                assertTrue(r.ok(), () -> r + "\n" + peer.output());
                assertEquals(MESSAGES, r.getLong("rx_msgs"), "echoes usrsctp received and verified");
                assertEquals(0, r.getLong("errors"));
            }
        }
    }

    private static boolean changed(List<SctpEvent> events, AssociationChangeType type) {
        return events.stream().anyMatch(e -> e instanceof AssociationChange c && c.type() == type);
    }
}
