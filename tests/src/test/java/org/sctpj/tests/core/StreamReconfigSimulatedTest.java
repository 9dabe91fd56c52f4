package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.sctpj.sim.EndpointNode;
import org.sctpj.sim.Link;
import org.sctpj.sim.LossModel;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.ReconfigOutcome;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.wire.ChecksumPolicy;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.DataChunk;
import org.sctpj.stack.wire.chunk.ReConfigChunk;
import org.sctpj.stack.wire.param.OutgoingSsnResetRequestParameter;
import org.sctpj.stack.wire.param.Parameter;

/**
 * Stream reconfiguration (RFC 6525) between two sctpj endpoints on the simulator, under the
 * conformance monitor, while messages flow: an SSN reset in each direction, an SSN/TSN reset,
 * streams added and used, a lost request retransmitted. Every message is checked by {@link
 * Transfer} (nothing lost, duplicated, corrupted or out of order within its stream), and the DATA
 * on the wire shows the reset streams starting again at SSN 0 right after the request's Sender's
 * Last Assigned TSN.
 */
class StreamReconfigSimulatedTest {

    /** A small send buffer keeps the workload going while the reconfiguration happens. */
    static final SctpOptions O =
            SctpOptions.LAN.toBuilder().sendBufferBytes(32 << 10).build();

    static final long LIMIT = 120_000_000_000L;

    /** A DATA chunk seen on the wire. */
    record Seen(String link, int tsn, int stream, int ssn, boolean begin) {}

    /** A pair with a workload from {@code from} to {@code to}, and every packet decoded. */
    static final class Run {
        final CorePair p;
        final Transfer t;
        final List<SctpEvent> eventsA = new ArrayList<>();
        final List<SctpEvent> eventsZ = new ArrayList<>();
        final List<Seen> data = new ArrayList<>();
        final List<Parameter> reconfigAtoZ = new ArrayList<>();
        final List<Parameter> reconfigZtoA = new ArrayList<>();

        Run(long seed, int messages, int streams, boolean zSends, Consumer<Link> link) {
            p = new CorePair(seed, 1, O, O, link);
            t = new Transfer(seed, messages, 600, streams, false);
            EndpointNode sender = zSends ? p.z : p.a;
            EndpointNode receiver = zSends ? p.a : p.z;
            Consumer<SctpEvent> send = t.senderPart(sender);
            Consumer<SctpEvent> recv = t.receiverPart(receiver);
            p.a.keepEvents(true).onEvent(e -> {
                eventsA.add(e);
                (zSends ? recv : send).accept(e);
            });
            p.z.keepEvents(true).onEvent(e -> {
                eventsZ.add(e);
                (zSends ? send : recv).accept(e);
            });
            p.sim.addTap(this::tap);
            p.connectAt(0);
        }

        private void tap(long now, String link, InetAddress src, InetAddress dst, ByteBuffer packet) {
            Parsed<SctpPacket> d = SctpPacket.decode(packet.duplicate(), ChecksumPolicy.IGNORE);
            if (!d.isOk()) {
                return;
            }
            for (Chunk c : d.value().chunks()) {
                if (c instanceof DataChunk x) {
                    data.add(new Seen(link, x.tsn(), x.streamId(), x.ssn(), x.beginning()));
                } else if (c instanceof ReConfigChunk r) {
                    (link.contains("A>Z") ? reconfigAtoZ : reconfigZtoA).addAll(r.parameters());
                }
            }
        }

        /** Runs until the workload has sent {@code count} messages. */
        void runUntilSent(int count) {
            assertTrue(
                    p.sim.runUntil(
                            () -> t.sent() >= count
                                    && CorePair.saw(p.a, SctpEvent.AssociationChangeType.COMMUNICATION_UP),
                            LIMIT),
                    "sent " + t.sent());
        }

        /** Runs until {@code events} holds an event of {@code type}. */
        void await(List<SctpEvent> events, Class<? extends SctpEvent> type) {
            assertTrue(
                    p.sim.runUntil(() -> events.stream().anyMatch(type::isInstance), p.sim.now() + LIMIT),
                    "no " + type.getSimpleName());
        }

        void finish() {
            assertTrue(p.sim.runUntil(t::complete, p.sim.now() + LIMIT), "delivered " + t.deliveredCount);
            assertEquals(0, t.lost());
            assertEquals(0, t.duplicated, "duplicated");
            assertEquals(0, t.misordered, "misordered within a stream");
            assertEquals(0, t.corrupted, "corrupted");
        }

        <T extends SctpEvent> List<T> of(List<SctpEvent> l, Class<T> type) {
            return l.stream().filter(type::isInstance).map(type::cast).toList();
        }

        /**
         * The first DATA chunk on {@code link} starting a message of {@code stream} after {@code
         * lastTsn}: its SSN must be 0 once the stream was reset.
         */
        int firstSsnAfter(String link, int stream, int lastTsn) {
            for (Seen s : data) {
                if (s.link.contains(link) && s.stream == stream && s.begin && s.tsn - lastTsn > 0) {
                    return s.ssn;
                }
            }
            throw new AssertionError("no message of stream " + stream + " after TSN " + lastTsn);
        }
    }

    static Consumer<Link> lan() {
        return l -> l.delay(Duration.ofMillis(2)).bandwidth(100_000_000L);
    }

    static Consumer<Link> lossy(double p) {
        return l -> l.delay(Duration.ofMillis(2)).bandwidth(100_000_000L).loss(new LossModel.Bernoulli(p));
    }

    @Test
    void outgoingResetWhileDataFlowsRestartsTheStreamsAtSsnZeroAndLosesNothing() {
        Run r = new Run(3, 3000, 4, false, lossy(0.02));
        r.runUntilSent(1000);
        r.p.sim.at(
                r.p.sim.now(),
                () -> r.p.a.endpoint().resetStreams(r.p.assocA, new int[] {1, 2}, true, false, r.p.sim.now()));
        r.finish();
        assertEquals(
                List.of(new SctpEvent.StreamReset(r.p.assocA, true, ReconfigOutcome.PERFORMED, List.of(1, 2))),
                r.of(r.eventsA, SctpEvent.StreamReset.class));
        List<SctpEvent.StreamReset> atZ = r.of(r.eventsZ, SctpEvent.StreamReset.class);
        assertEquals(1, atZ.size());
        assertEquals(ReconfigOutcome.PERFORMED, atZ.get(0).outcome());
        assertEquals(List.of(1, 2), atZ.get(0).streams());
        OutgoingSsnResetRequestParameter req = (OutgoingSsnResetRequestParameter) r.reconfigAtoZ.get(0);
        assertEquals(0, r.firstSsnAfter("A>Z", 1, req.sendersLastAssignedTsn()));
        assertEquals(0, r.firstSsnAfter("A>Z", 2, req.sendersLastAssignedTsn()));
        assertTrue(r.firstSsnAfter("A>Z", 0, req.sendersLastAssignedTsn()) > 0, "stream 0 was not reset");
    }

    @Test
    void incomingResetAsksThePeerToResetItsStreamsWhileItSends() {
        Run r = new Run(4, 3000, 3, true, lossy(0.02));
        r.runUntilSent(800);
        r.p.sim.at(
                r.p.sim.now(), () -> r.p.a.endpoint().resetStreams(r.p.assocA, new int[0], false, true, r.p.sim.now()));
        r.finish();
        // A learns of it when Z's outgoing reset (the answer) is performed at A.
        List<SctpEvent.StreamReset> atA = r.of(r.eventsA, SctpEvent.StreamReset.class);
        assertEquals(1, atA.size(), atA.toString());
        assertEquals(ReconfigOutcome.PERFORMED, atA.get(0).outcome());
        assertEquals(false, atA.get(0).outgoing());
        List<SctpEvent.StreamReset> atZ = r.of(r.eventsZ, SctpEvent.StreamReset.class);
        assertEquals(1, atZ.size(), atZ.toString());
        assertTrue(atZ.get(0).outgoing());
        OutgoingSsnResetRequestParameter zReq = (OutgoingSsnResetRequestParameter) r.reconfigZtoA.get(0);
        for (int s = 0; s < 3; s++) {
            assertEquals(0, r.firstSsnAfter("Z>A", s, zReq.sendersLastAssignedTsn()), "stream " + s);
        }
    }

    @Test
    void associationResetMidTransferRestartsTsnsAndSsnsWithNothingLost() {
        Run r = new Run(5, 2000, 4, false, lan());
        r.runUntilSent(700);
        r.p.sim.at(r.p.sim.now(), () -> r.p.a.endpoint().resetAssociation(r.p.assocA, r.p.sim.now()));
        r.await(r.eventsA, SctpEvent.AssociationReset.class);
        assertTrue(r.t.sent() < 2000, "the reset happened while data flowed");
        r.finish();
        List<SctpEvent.AssociationReset> atA = r.of(r.eventsA, SctpEvent.AssociationReset.class);
        List<SctpEvent.AssociationReset> atZ = r.of(r.eventsZ, SctpEvent.AssociationReset.class);
        assertEquals(1, atA.size());
        assertEquals(1, atZ.size());
        assertEquals(ReconfigOutcome.PERFORMED, atA.get(0).outcome());
        // What A sends next is what Z expects next, and the other way round.
        assertEquals(atA.get(0).localTsn(), atZ.get(0).remoteTsn());
        assertEquals(atA.get(0).remoteTsn(), atZ.get(0).localTsn());
        int first = atA.get(0).localTsn();
        assertTrue(r.data.stream().anyMatch(s -> s.link.contains("A>Z") && s.tsn == first && s.ssn == 0));
    }

    @Test
    void streamsAddedDuringATransferAreUsedAtOnce() {
        Run r = new Run(6, 1500, 4, false, lan());
        r.runUntilSent(500);
        int before = r.p.a.endpoint().info(r.p.assocA).orElseThrow().outboundStreams();
        r.p.sim.at(r.p.sim.now(), () -> r.p.a.endpoint().addStreams(r.p.assocA, 3, 2, r.p.sim.now()));
        assertTrue(r.p.sim.runUntil(
                () -> !r.of(r.eventsA, SctpEvent.StreamChange.class).isEmpty(), r.p.sim.now() + LIMIT));
        SctpEvent.StreamChange ch =
                r.of(r.eventsA, SctpEvent.StreamChange.class).get(0);
        assertEquals(ReconfigOutcome.PERFORMED, ch.outcome());
        assertEquals(before + 3, ch.outboundStreams());
        int newStream = before + 2;
        List<Integer> got = new ArrayList<>();
        r.p.z.onEvent(e -> {
            r.eventsZ.add(e);
            if (e instanceof SctpEvent.MessageReceived m && m.streamId() == newStream) {
                got.add(m.ppid());
            }
        });
        // Sent on the new stream while the workload goes on, as the shared send buffer allows.
        int[] next = {0};
        Runnable[] offer = new Runnable[1];
        offer[0] = () -> {
            while (next[0] < 20
                    && r.p.a
                                    .endpoint()
                                    .send(
                                            r.p.assocA,
                                            new SendInfo(newStream, next[0], false, false),
                                            ByteBuffer.wrap(new byte[100]),
                                            r.p.sim.now())
                            == SendStatus.ACCEPTED) {
                next[0]++;
            }
            if (next[0] < 20) {
                r.p.sim.after(1_000_000L, offer[0]);
            }
        };
        r.p.sim.at(r.p.sim.now(), offer[0]);
        assertTrue(r.p.sim.runUntil(() -> got.size() == 20, r.p.sim.now() + LIMIT), "got " + got);
        assertTrue(r.t.sent() < 1500, "the new stream was used while the workload flowed");
        List<Integer> inOrder = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            inOrder.add(i);
        }
        assertEquals(inOrder, got);
        // Z added the inbound streams A asked for, as outgoing streams of its own.
        assertTrue(r.p.sim.runUntil(
                () -> r.of(r.eventsZ, SctpEvent.StreamChange.class).size() >= 2, r.p.sim.now() + LIMIT));
        int zOut = r.p.z.endpoint().info(CorePair.upId(r.p.z)).orElseThrow().outboundStreams();
        assertEquals(before + 2, zOut, "Z's outbound grew by the 2 A asked for");
    }

    @Test
    void lostRequestIsRetransmittedAndTheResetCompletes() {
        Run r = new Run(7, 600, 2, false, lan());
        boolean[] dropped = {false};
        r.p.z.dropInbound(b -> {
            if (dropped[0]) {
                return false;
            }
            Parsed<SctpPacket> d = SctpPacket.decode(b.duplicate(), ChecksumPolicy.IGNORE);
            boolean has = d.isOk() && d.value().chunks().stream().anyMatch(c -> c instanceof ReConfigChunk);
            dropped[0] = has;
            return has;
        });
        r.runUntilSent(200);
        r.p.sim.at(
                r.p.sim.now(),
                () -> r.p.a.endpoint().resetStreams(r.p.assocA, new int[] {0}, true, false, r.p.sim.now()));
        r.finish();
        assertTrue(dropped[0]);
        assertEquals(2, r.reconfigAtoZ.size(), "the request went twice: " + r.reconfigAtoZ);
        assertEquals(r.reconfigAtoZ.get(0), r.reconfigAtoZ.get(1), "unchanged");
        assertEquals(
                List.of(new SctpEvent.StreamReset(r.p.assocA, true, ReconfigOutcome.PERFORMED, List.of(0))),
                r.of(r.eventsA, SctpEvent.StreamReset.class));
    }

    @Test
    void resetsAskedForByBothSidesAtOnce() {
        Run r = new Run(8, 2000, 3, false, lan());
        r.runUntilSent(500);
        AssociationId z = CorePair.upId(r.p.z);
        // Both reset their outgoing stream 0 at the same instant: the sequence numbers of the
        // two directions are independent, so both are performed.
        r.p.sim.at(r.p.sim.now(), () -> {
            r.p.a.endpoint().resetStreams(r.p.assocA, new int[] {0}, true, false, r.p.sim.now());
            r.p.z.endpoint().resetStreams(z, new int[] {0}, true, false, r.p.sim.now());
        });
        assertTrue(r.p.sim.runUntil(
                () -> r.of(r.eventsA, SctpEvent.StreamReset.class).size() == 2
                        && r.of(r.eventsZ, SctpEvent.StreamReset.class).size() == 2,
                r.p.sim.now() + LIMIT));
        for (List<SctpEvent> l : List.of(r.eventsA, r.eventsZ)) {
            assertTrue(r.of(l, SctpEvent.StreamReset.class).stream()
                    .allMatch(e -> e.outcome() == ReconfigOutcome.PERFORMED
                            && e.streams().equals(List.of(0))));
        }
        // Both ask for an association reset at once. Z, with nothing to send, asks first; A is
        // busy with its own (waiting for its data to be acknowledged) and answers "Request
        // already in progress", so Z's fails; then A's is performed at Z.
        r.p.sim.at(r.p.sim.now(), () -> {
            r.p.a.endpoint().resetAssociation(r.p.assocA, r.p.sim.now());
            r.p.z.endpoint().resetAssociation(z, r.p.sim.now());
        });
        assertTrue(r.p.sim.runUntil(
                () -> !r.of(r.eventsA, SctpEvent.AssociationReset.class).isEmpty()
                        && r.of(r.eventsZ, SctpEvent.AssociationReset.class).size() == 2,
                r.p.sim.now() + LIMIT));
        r.finish();
        List<SctpEvent.AssociationReset> atA = r.of(r.eventsA, SctpEvent.AssociationReset.class);
        List<SctpEvent.AssociationReset> atZ = r.of(r.eventsZ, SctpEvent.AssociationReset.class);
        assertEquals(1, atA.size(), atA.toString());
        assertEquals(ReconfigOutcome.PERFORMED, atA.get(0).outcome());
        assertEquals(
                List.of(ReconfigOutcome.FAILED, ReconfigOutcome.PERFORMED),
                atZ.stream().map(SctpEvent.AssociationReset::outcome).toList());
        assertEquals(atA.get(0).localTsn(), atZ.get(1).remoteTsn());
    }
}
