package org.sctpj.tests.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sctpj.llp.udp.UdpConfig;
import org.sctpj.llp.udp.UdpEncapsulation;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Extension;
import org.sctpj.stack.PrPolicy;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.trace.PcapLowerLayer;
import org.sctpj.trace.PcapWriter;

/**
 * The interop harness's send pump ({@link OurStack#send}) on loopback UDP, our stack on both
 * sides: the workload of the case prsctp-prio-buffer (300 messages of 1000 bytes on 4 streams,
 * even ones priority 0 and odd ones priority 1, a 16 KiB send buffer), sent faster than it drains,
 * so that sends abandon less important queued messages to make room. A send that abandons hands
 * out SendFailed and SendSpaceAvailable before it returns, and the latter runs the pump again
 * from inside the pump's own send: every message must still be handed to the endpoint exactly
 * once, so each comes back either echoed (once) or as a SendFailed, and never both missing.
 */
class OurStackPumpTest {

    private static final int PPID = 1000;
    private static final int N = 300;

    @Test
    void everyQueuedMessageIsSentOnceEvenWhenASendAnnouncesRoom() throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        int serverUdp = 29411;
        int clientUdp = 29412;
        Path serverPcap = Files.createTempFile("pump-server-", ".pcap");
        Path clientPcap = Files.createTempFile("pump-client-", ".pcap");
        try (PcapWriter sw = PcapWriter.open(serverPcap);
                PcapWriter cw = PcapWriter.open(clientPcap);
                OurStack server = OurStack.start("pump-server", sw, PcapLowerLayer.Framing.udp(serverUdp, clientUdp));
                OurStack client = OurStack.start("pump-client", cw, PcapLowerLayer.Framing.udp(clientUdp, serverUdp))) {
            SctpOptions base = SctpOptions.DEFAULTS.toBuilder()
                    .outboundStreams(4)
                    .maxInboundStreams(4)
                    .enable(Extension.PR_SCTP)
                    .noDelay(true)
                    .build();
            server.echo(true);
            server.bind(5001, List.of(lo), base, () -> udp(lo, serverUdp, clientUdp));
            server.listen();
            client.bind(
                    5002,
                    List.of(lo),
                    base.toBuilder().sendBufferBytes(16 * 1024).build(),
                    () -> udp(lo, clientUdp, serverUdp));
            AssociationId id = client.connect(List.of(lo), 5001);
            client.awaitEvent(
                    e -> e instanceof SctpEvent.AssociationChange c
                            && c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP,
                    Duration.ofSeconds(10),
                    "COMMUNICATION_UP");
            for (int i = 0; i < N; i++) {
                byte[] data = new byte[1000];
                Arrays.fill(data, (byte) i);
                client.send(
                        id, new SendInfo(i % 4, PPID + i, false, false).withPrPolicy(PrPolicy.priority(i % 2)), data);
            }
            Set<Integer> done = new HashSet<>();
            boolean settled = client.await(
                    () -> {
                        done.clear();
                        client.events(e -> e instanceof SctpEvent.SendFailed)
                                .forEach(e -> done.add(((SctpEvent.SendFailed) e).ppid() - PPID));
                        client.messages(0, client.messageCount()).forEach(m -> done.add(m.ppid() - PPID));
                        return done.size() >= N && client.outboxEmpty();
                    },
                    Duration.ofSeconds(30));
            Set<Integer> missing = new HashSet<>();
            for (int i = 0; i < N; i++) {
                if (!done.contains(i)) {
                    missing.add(i);
                }
            }
            assertTrue(settled, "neither echoed nor reported abandoned: " + missing + "; " + client.summary());
            List<SctpEvent.MessageReceived> got = client.messages(0, client.messageCount());
            assertEquals(
                    got.size(),
                    got.stream().map(SctpEvent.MessageReceived::ppid).distinct().count(),
                    "a message echoed twice (sent twice)");
            assertTrue(client.sendErrors().isEmpty(), "send errors: " + client.sendErrors());
        } finally {
            Files.deleteIfExists(serverPcap);
            Files.deleteIfExists(clientPcap);
        }
    }

    private static UdpEncapsulation udp(InetAddress lo, int local, int remote) throws IOException {
        return UdpEncapsulation.open(UdpConfig.builder()
                .bindAddresses(List.of(lo))
                .localPort(local)
                .defaultRemotePort(remote)
                .build());
    }
}
