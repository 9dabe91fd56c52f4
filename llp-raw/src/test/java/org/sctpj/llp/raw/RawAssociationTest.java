package org.sctpj.llp.raw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.llp.LowerLayer;
import org.sctpj.trace.PcapLowerLayer;
import org.sctpj.trace.PcapWriter;
import org.sctpj.trace.TsharkJudge;
import org.sctpj.trace.Verdict;

/**
 * A full association over raw IPv4 and over raw IPv6 between two endpoints in two network namespaces joined by a
 * veth pair (root only): handshake, 1,000 messages checked byte for byte and in order, a
 * heartbeat-confirmed second address, graceful shutdown; both sides' traffic traced to pcap and
 * judged clean by tshark.
 */
@Timeout(120)
class RawAssociationTest {
    static final int MESSAGES = 1000;
    static final int STREAMS = 4;
    static final int PPID_BASE = 0x10000000;

    @TempDir
    Path dir;

    static byte[] content(int index) {
        int size = 1 + (index * 7919) % 3000; // 1..3000 bytes: some span two packets on a 1500-byte MTU
        byte[] b = new byte[size];
        SplittableRandom r = new SplittableRandom(index);
        for (int i = 0; i < size; i++) {
            b[i] = (byte) r.nextInt();
        }
        return b;
    }

    /** Records the local address of every packet the wrapped layer hands over. */
    static LowerLayer recordingDestinations(LowerLayer inner, Set<InetAddress> into) {
        return new LowerLayer() {
            @Override
            public void send(ByteBuffer sctp, InetAddress source, InetAddress destination) throws java.io.IOException {
                inner.send(sctp, source, destination);
            }

            @Override
            public void flush() throws java.io.IOException {
                inner.flush();
            }

            @Override
            public int receive(PacketSink sink, int max) throws java.io.IOException {
                return inner.receive(
                        (b, from, to) -> {
                            into.add(to);
                            sink.packet(b, from, to);
                        },
                        max);
            }

            @Override
            public void await(long timeoutNanos) throws java.io.IOException {
                inner.await(timeoutNanos);
            }

            @Override
            public void wakeup() {
                inner.wakeup();
            }

            @Override
            public int encapsulationOverhead() {
                return inner.encapsulationOverhead();
            }

            @Override
            public void close() throws java.io.IOException {
                inner.close();
            }
        };
    }

    @ParameterizedTest(name = "IPv{0}")
    @ValueSource(ints = {4, 6})
    void handshakeThousandMessagesAndShutdown(int version) throws Exception {
        VethPair.assumeRoot();
        boolean v6 = version == 6;
        InetAddress a1 = VethPair.addr(v6 ? VethPair.A6 : VethPair.A4);
        InetAddress a2 = VethPair.addr(v6 ? VethPair.A6_SECOND : VethPair.A4_SECOND);
        InetAddress b1 = VethPair.addr(v6 ? VethPair.B6 : VethPair.B4);
        Path pcapA = dir.resolve("server-a-ipv" + version + ".pcap");
        Path pcapB = dir.resolve("client-b-ipv" + version + ".pcap");
        Set<InetAddress> destinationsAtA = ConcurrentHashMap.newKeySet();
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        int[] nextExpected = new int[STREAMS];
        int[] received = new int[1];
        CountDownLatch doneA = new CountDownLatch(1);
        CountDownLatch doneB = new CountDownLatch(1);
        CountDownLatch allReceived = new CountDownLatch(1);
        long origin = System.nanoTime();
        SctpOptions options = SctpOptions.LAN;

        try (VethPair pair = VethPair.create()) {
            RawIpLowerLayer rawA = RawIpLowerLayer.builder()
                    .ipv4(!v6)
                    .ipv6(v6)
                    .localAddresses(List.of(a1, a2))
                    .networkNamespace(pair.fileA())
                    .open();
            RawIpLowerLayer rawB = RawIpLowerLayer.builder()
                    .ipv4(!v6)
                    .ipv6(v6)
                    .localAddresses(List.of(b1))
                    .networkNamespace(pair.fileB())
                    .open();
            LowerLayer llpA = recordingDestinations(
                    new PcapLowerLayer(rawA, PcapWriter.open(pcapA), PcapLowerLayer.Framing.raw()), destinationsAtA);
            LowerLayer llpB = new PcapLowerLayer(rawB, PcapWriter.open(pcapB), PcapLowerLayer.Framing.raw());
            Endpoint epA = new Endpoint(5000, List.of(a1, a2), options, new SplittableRandom(1), 0);
            Endpoint epB = new Endpoint(5001, List.of(b1), options, new SplittableRandom(2), 0);
            epA.listen(true);

            EndpointDriver[] driverA = new EndpointDriver[1];
            driverA[0] = new EndpointDriver("raw-a", epA, llpA, origin, e -> {
                if (e instanceof SctpEvent.MessageReceived m) {
                    int index = m.ppid() - PPID_BASE;
                    if (index < 0 || index >= MESSAGES) {
                        problems.add("unexpected PPID " + m.ppid());
                        return;
                    }
                    if (m.streamId() != index % STREAMS
                            || index != nextExpected[m.streamId()] * STREAMS + m.streamId()) {
                        problems.add("message " + index + " out of order on stream " + m.streamId());
                    }
                    nextExpected[m.streamId()]++;
                    if (!java.util.Arrays.equals(content(index), m.data())) {
                        problems.add("message " + index + " corrupted");
                    }
                    if (++received[0] == MESSAGES) {
                        allReceived.countDown();
                    }
                } else if (e instanceof SctpEvent.AssociationChange c) {
                    if (c.type() == SctpEvent.AssociationChangeType.SHUTDOWN_COMPLETE) {
                        doneA.countDown();
                    } else if (c.type() != SctpEvent.AssociationChangeType.COMMUNICATION_UP) {
                        problems.add("A: " + c);
                    }
                }
            });

            int[] sent = new int[1];
            boolean[] confirmedSecond = new boolean[1];
            boolean[] dry = new boolean[1];
            boolean[] shutdown = new boolean[1];
            AssociationId[] assoc = new AssociationId[1];
            EndpointDriver[] driverB = new EndpointDriver[1];
            Runnable maybeShutdown = () -> {
                if (sent[0] == MESSAGES && dry[0] && confirmedSecond[0] && !shutdown[0]) {
                    shutdown[0] = true;
                    epB.shutdown(assoc[0], driverB[0].now());
                }
            };
            Runnable pump = () -> {
                while (sent[0] < MESSAGES) {
                    int i = sent[0];
                    SendStatus s = epB.send(
                            assoc[0],
                            SendInfo.of(i % STREAMS, PPID_BASE + i),
                            ByteBuffer.wrap(content(i)),
                            driverB[0].now());
                    if (s != SendStatus.ACCEPTED) {
                        return;
                    }
                    sent[0]++;
                }
            };
            driverB[0] = new EndpointDriver("raw-b", epB, llpB, origin, e -> {
                if (e instanceof SctpEvent.AssociationChange c) {
                    switch (c.type()) {
                        case COMMUNICATION_UP -> {
                            assoc[0] = c.association();
                            pump.run();
                        }
                        case SHUTDOWN_COMPLETE -> doneB.countDown();
                        default -> problems.add("B: " + c);
                    }
                } else if (e instanceof SctpEvent.SendSpaceAvailable) {
                    pump.run();
                } else if (e instanceof SctpEvent.SenderDry) {
                    dry[0] = sent[0] == MESSAGES;
                    maybeShutdown.run();
                } else if (e instanceof SctpEvent.PeerAddressChange p
                        && p.address().equals(a2)
                        && p.state() == SctpEvent.PeerAddressState.CONFIRMED) {
                    confirmedSecond[0] = true;
                    maybeShutdown.run();
                }
            });
            driverA[0].start();
            driverB[0].start();
            try {
                driverB[0].execute(ep -> ep.connect(List.of(a1), 5000, driverB[0].now()));
                assertTrue(
                        allReceived.await(60, TimeUnit.SECONDS),
                        "A received " + received[0] + " of " + MESSAGES + "; problems " + problems + "; failures "
                                + driverA[0].failure() + driverB[0].failure());
                assertTrue(
                        doneB.await(30, TimeUnit.SECONDS),
                        "B's shutdown did not complete (second address" + " confirmed: " + confirmedSecond[0]
                                + ", dry: " + dry[0] + ")");
                assertTrue(doneA.await(10, TimeUnit.SECONDS), "A's shutdown did not complete");
            } finally {
                driverA[0].close();
                driverB[0].close();
                llpA.close();
                llpB.close();
            }
            assertEquals(List.of(), problems);
            assertEquals(Optional.empty().toString(), driverA[0].failure().toString());
            assertEquals(Optional.empty().toString(), driverB[0].failure().toString());
            assertEquals(0, epA.stats().badChecksum());
            assertEquals(0, epA.stats().malformed());
            assertEquals(0, epB.stats().malformed());
            RawIpStats sa = rawA.stats();
            assertEquals(0, sa.malformed());
            assertEquals(0, sa.truncated());
            assertEquals(Set.of(a1, a2), destinationsAtA, "packets arrived on both of A's addresses, each known");
        }

        assertTrue(Files.size(pcapA) > 24 && Files.size(pcapB) > 24);
        Verdict va;
        Verdict vb;
        try {
            va = new TsharkJudge().judge(pcapA);
            vb = new TsharkJudge().judge(pcapB);
        } catch (java.io.IOException e) {
            org.junit.jupiter.api.Assumptions.assumeTrue(false, "tshark is not available: " + e.getMessage());
            return;
        }
        assertTrue(va.clean(), va.report());
        assertTrue(vb.clean(), vb.report());
        assertTrue(
                va.chunkTypes().containsAll(Set.of(0, 1, 2, 3, 4, 5, 7, 8, 10, 11, 14)),
                "A's trace: " + va.chunkTypes());
    }
}
