package org.sctpj.tests.interop.usrsctp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
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
import org.sctpj.tests.Requirements;

/**
 * NR-SACK (draft-natarajan-tsvwg-sctp-nrsack-08) between our stack and usrsctp 0.9.5.0 ({@code
 * upeer --nrsack}: its sysctls {@code nrsack_enable} and {@code cmt_on_off}, since usrsctp sends
 * NR-SACKs only with CMT on), over UDP encapsulation on loopback, both roles: both sides offer
 * NR-SACK and CMT, NR-SACK is negotiated, usrsctp acknowledges our DATA with NR-SACKs (counted on
 * the wire) and takes ours for its own, and every message is echoed intact. Loopback loses nothing,
 * so the NR-SACKs carry no NR Gap Ack Block: gaps are covered by the simulator's tests.
 */
@Timeout(90)
class UsrsctpNrSackInteropTest {

    private static final InetAddress LO = InetAddress.getLoopbackAddress();
    private static final Duration STEP = Duration.ofSeconds(15);
    private static final int MESSAGES = 200;
    private static final int STREAMS = 2;
    private static final int PPID_BASE = 1000;

    @BeforeAll
    static void needPeer() {
        Requirements.need(
                UsrsctpPeer.locate().isPresent(), () -> "usrsctp peer unavailable: " + UsrsctpPeer.unavailableReason());
    }

    private static int sctpPort() {
        return ThreadLocalRandom.current().nextInt(20000, 60000);
    }

    private static SctpOptions options() {
        return SctpOptions.DEFAULTS.toBuilder()
                .outboundStreams(STREAMS)
                .noDelay(true)
                .cmt(true)
                .extensions(EnumSet.of(Extension.PR_SCTP, Extension.RECONFIG, Extension.NR_SACK))
                .build();
    }

    private static byte[] payload(int i, int size) {
        byte[] b = new byte[size];
        for (int j = 0; j < size; j++) {
            b[j] = (byte) (i * 31 + j);
        }
        return b;
    }

    /** Counts the SACK and NR-SACK chunks of the packets usrsctp sent us. */
    private static final class Acks {
        long sacks;
        long nrSacks;

        void count(ByteBuffer b) {
            for (int off = b.position() + 12; off + 4 <= b.limit(); ) {
                int type = b.get(off) & 0xff;
                int len = b.getShort(off + 2) & 0xffff;
                sacks += type == 3 ? 1 : 0;
                nrSacks += type == 0x10 ? 1 : 0;
                off += Math.max(4, (len + 3) & ~3);
            }
        }
    }

    @Test
    void ourClientAgainstUsrsctpEchoServer() throws Exception {
        int peerUdp = UsrsctpPeer.freeUdpPort();
        int peerPort = sctpPort();
        try (UsrsctpPeer peer = UsrsctpPeer.builder(UsrsctpPeer.Mode.ECHO)
                        .udpPort(peerUdp)
                        .port(peerPort)
                        .localAddress("127.0.0.1")
                        .streams(STREAMS)
                        .timeout(Duration.ofSeconds(60))
                        .option("nrsack", null)
                        .verbose()
                        .start();
                UdpEncapDriver d = UdpEncapDriver.open(LO, 0, sctpPort(), options(), peerUdp)) {
            peer.awaitReady(STEP);
            Acks acks = new Acks();
            d.onInbound(acks::count);
            Endpoint ep = d.endpoint();
            List<SctpEvent> events = new ArrayList<>();
            List<MessageReceived> echoes = new ArrayList<>();
            AssociationId id = ep.connect(List.of(LO), peerPort, d.now());
            boolean up = d.runUntil(() -> changed(events, AssociationChangeType.COMMUNICATION_UP), STEP, events::add);
            assertTrue(up, () -> "no COMMUNICATION_UP: " + events + "; " + d.counters() + "\n" + peer.output());
            assertTrue(ep.info(id).orElseThrow().extensions().contains(Extension.NR_SACK), "NR-SACK negotiated");
            for (int i = 0; i < MESSAGES; i++) {
                SendInfo info = new SendInfo(i % STREAMS, PPID_BASE + i, false, false);
                assertEquals(SendStatus.ACCEPTED, ep.send(id, info, ByteBuffer.wrap(payload(i, 1000)), d.now()));
            }
            boolean all = d.runUntil(() -> echoes.size() >= MESSAGES, STEP, e -> {
                events.add(e);
                if (e instanceof MessageReceived m) {
                    echoes.add(m);
                }
            });
            assertTrue(all, () -> echoes.size() + " echoes; " + d.counters() + "\n" + peer.output());
            for (MessageReceived m : echoes) {
                assertArrayEquals(payload(m.ppid() - PPID_BASE, 1000), m.data());
            }
            assertTrue(acks.nrSacks > 0, () -> "usrsctp sent " + acks.sacks + " SACKs and no NR-SACK");
            assertEquals(0, acks.sacks, "usrsctp acknowledges with NR-SACK only");
            ep.shutdown(id, d.now());
            boolean closed =
                    d.runUntil(() -> changed(events, AssociationChangeType.SHUTDOWN_COMPLETE), STEP, events::add);
            assertTrue(closed, () -> "no SHUTDOWN_COMPLETE: " + events + "\n" + peer.output());
            UsrsctpPeer.Line r = peer.awaitResult(STEP);
            assertTrue(r.ok(), () -> r + "\n" + peer.output());
            assertEquals(MESSAGES, r.getLong("echoed"), "messages usrsctp echoed");
        }
    }

    @Test
    void usrsctpClientAgainstOurEchoServer() throws Exception {
        int ourPort = sctpPort();
        try (UdpEncapDriver d = UdpEncapDriver.open(LO, 0, ourPort, options(), 0)) {
            Endpoint ep = d.endpoint();
            ep.listen(true);
            Acks acks = new Acks();
            d.onInbound(acks::count);
            try (UsrsctpPeer peer = UsrsctpPeer.builder(UsrsctpPeer.Mode.CLIENT)
                    .udpPort(UsrsctpPeer.freeUdpPort())
                    .remoteUdpPort(d.udpPort())
                    .localAddress("127.0.0.1")
                    .port(0)
                    .peer("127.0.0.1", ourPort)
                    .streams(STREAMS)
                    .messages(MESSAGES)
                    .size(1000)
                    .ppid(PPID_BASE)
                    .timeout(Duration.ofSeconds(60))
                    .option("nrsack", null)
                    .verbose()
                    .start()) {
                peer.awaitReady(STEP);
                List<SctpEvent> events = new ArrayList<>();
                int[] echoed = {0};
                boolean[] negotiated = {false};
                boolean ended = d.runUntil(
                        () -> changed(events, AssociationChangeType.SHUTDOWN_COMPLETE), Duration.ofSeconds(30), e -> {
                            events.add(e);
                            if (e instanceof AssociationChange c
                                    && c.type() == AssociationChangeType.COMMUNICATION_UP) {
                                negotiated[0] = ep.info(c.association())
                                        .orElseThrow()
                                        .extensions()
                                        .contains(Extension.NR_SACK);
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
                assertTrue(negotiated[0], "NR-SACK negotiated");
                assertEquals(MESSAGES, echoed[0], "messages we received and echoed");
                assertTrue(acks.nrSacks > 0, () -> "usrsctp sent " + acks.sacks + " SACKs and no NR-SACK");
                UsrsctpPeer.Line r = peer.awaitResult(STEP);
                assertTrue(r.ok(), () -> r + "\n" + peer.output());
                assertEquals(MESSAGES, r.getLong("rx_msgs"), "echoes usrsctp received");
                assertEquals(0, r.getLong("errors"));
            }
        }
    }

    private static boolean changed(List<SctpEvent> events, AssociationChangeType type) {
        return events.stream().anyMatch(e -> e instanceof AssociationChange c && c.type() == type);
    }
}
