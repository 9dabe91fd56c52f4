package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sctpj.sim.EndpointNode;
import org.sctpj.sim.LossModel;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Extension;
import org.sctpj.stack.PrPolicy;
import org.sctpj.stack.PrStatus;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.SendFailedReason;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.TransferInfo;

/**
 * PR-SCTP end to end on the simulator (RFC 3758, RFC 7496): A sends a mix of reliable messages
 * and messages under one policy to Z over a lossy link, with both sides offering PR-SCTP. Each
 * policy abandons some messages under loss; every abandoned one comes back to A as a {@link
 * SctpEvent.SendFailed} with its data and reason, every other message arrives once, intact and in
 * order per stream, Z's cumulative TSN reaches A's last TSN (the FORWARD TSNs moved it past what
 * was abandoned), the counters match the events, and the conformance monitor sees every packet
 * (it stops the run at the first violation).
 */
class PrSctpSimulatedTest {

    static final int PPID_BASE = 0x10000000;
    static final long S = 1_000_000_000L;

    static SctpOptions options(int sendBuffer) {
        return SctpOptions.LAN.toBuilder()
                .enable(Extension.PR_SCTP)
                .noDelay(true)
                .sendBufferBytes(sendBuffer)
                .maxMessageSize(Math.min(sendBuffer, 64 << 10))
                .build();
    }

    /** One planned message: its policy is null for a reliable one. */
    record Msg(int index, int stream, boolean unordered, int size, PrPolicy policy) {}

    /** The workload and what each side saw. */
    static final class Run {
        final List<Msg> plan = new ArrayList<>();
        final BitSet delivered = new BitSet();
        final BitSet failed = new BitSet();
        /** Handed back as never sent: Z must not have it. */
        final BitSet failedUnsent = new BitSet();

        final Map<Integer, Integer> lastOrdered = new HashMap<>();
        final Map<SendFailedReason, Integer> reasons = new HashMap<>();
        long duplicated;
        long misordered;
        long corrupted;
        long failedSent;
        long badFailures;
        long partialAborted;
        int next;
        /** Messages the user has come to so far (a paced sender raises it). */
        int due = Integer.MAX_VALUE;

        private boolean pumping;
        private boolean pumpAgain;

        AssociationId assoc;
        AssociationId zAssoc;

        static byte[] content(int index, int size) {
            return Transfer.content(index, size);
        }

        void attach(CorePair p) {
            p.a.keepEvents(true).onEvent(e -> onSender(p.a, e));
            p.z.keepEvents(false).onEvent(this::onReceiver);
        }

        void onSender(EndpointNode a, SctpEvent e) {
            if (e instanceof SctpEvent.AssociationChange c
                    && c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP) {
                assoc = c.association();
                pump(a);
            } else if (e instanceof SctpEvent.SendSpaceAvailable) {
                pump(a);
            } else if (e instanceof SctpEvent.SendFailed f) {
                int idx = f.ppid() - PPID_BASE;
                Msg m = plan.get(idx);
                if (failed.get(idx)
                        || m.policy() == null
                        || !f.abandoned()
                        || !java.util.Arrays.equals(f.data(), content(idx, m.size()))
                        || f.streamId() != m.stream()) {
                    badFailures++;
                }
                failed.set(idx);
                reasons.merge(f.reason(), 1, Integer::sum);
                if (f.partiallySent()) {
                    failedSent++;
                } else {
                    failedUnsent.set(idx);
                }
            }
        }

        /**
         * Sends the planned messages until WOULD_BLOCK. The endpoint hands its events out inside
         * {@code send}, so when called from outside the handler (the paced sender) a
         * SendSpaceAvailable can call this again from within a send: the nested call only asks for
         * another pass, else it would send message {@code next} a second time.
         */
        void pump(EndpointNode a) {
            if (pumping) {
                pumpAgain = true;
                return;
            }
            pumping = true;
            try {
                do {
                    pumpAgain = false;
                    pumpOnce(a);
                } while (pumpAgain);
            } finally {
                pumping = false;
            }
        }

        private void pumpOnce(EndpointNode a) {
            while (assoc != null && next < Math.min(due, plan.size())) {
                Msg m = plan.get(next);
                SendInfo info = new SendInfo(m.stream(), PPID_BASE + m.index(), m.unordered(), false);
                if (m.policy() != null) {
                    info = info.withPrPolicy(m.policy());
                }
                if (a.endpoint().send(assoc, info, ByteBuffer.wrap(content(m.index(), m.size())), a.now())
                        == SendStatus.WOULD_BLOCK) {
                    return;
                }
                next++;
            }
        }

        void onReceiver(SctpEvent e) {
            if (e instanceof SctpEvent.AssociationChange c
                    && c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP) {
                zAssoc = c.association();
            }
            if (e instanceof SctpEvent.PartialDeliveryAborted) {
                partialAborted++;
            }
            if (!(e instanceof SctpEvent.MessageReceived r)) {
                return;
            }
            int idx = r.ppid() - PPID_BASE;
            Msg m = plan.get(idx);
            if (delivered.get(idx)) {
                duplicated++;
            }
            delivered.set(idx);
            if (!java.util.Arrays.equals(r.data(), content(idx, m.size())) || r.streamId() != m.stream()) {
                corrupted++;
            }
            if (!m.unordered()) {
                Integer last = lastOrdered.put(m.stream(), idx);
                if (last != null && last > idx) {
                    misordered++;
                }
            }
        }

        /** Every message delivered or handed back, and the sender empty. */
        boolean settled(CorePair p) {
            if (assoc == null || next < plan.size()) {
                return false;
            }
            BitSet all = (BitSet) delivered.clone();
            all.or(failed);
            if (all.cardinality() < plan.size()) {
                return false;
            }
            TransferInfo a = p.a.endpoint()
                    .info(assoc)
                    .orElseThrow(() -> new AssertionError("A's association ended: "
                            + p.a.events().stream()
                                    .filter(e -> e instanceof SctpEvent.AssociationChange)
                                    .toList()))
                    .transfer();
            TransferInfo z = p.z.endpoint().info(zAssoc).orElseThrow().transfer();
            return a.outstandingChunks() == 0
                    && a.queuedMessages() == 0
                    && z.cumulativeTsn() == ((a.nextTsn() - 1) & 0xffffffffL);
        }
    }

    static Run workload(long seed, int count, PrPolicy.Kind kind) {
        Run run = new Run();
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < count; i++) {
            int size = 1 + r.nextInt(r.nextInt(4) == 0 ? 4000 : 600);
            PrPolicy pol = null;
            if (r.nextInt(5) != 0) { // one in five stays reliable
                pol = switch (kind) {
                    case TIME_TO_LIVE -> PrPolicy.timeToLive(30 + r.nextInt(100));
                    case LIMITED_RETRANSMISSIONS -> PrPolicy.maxRetransmissions(r.nextInt(2));
                    case PRIORITY -> PrPolicy.priority(r.nextInt(10));
                    case NONE -> null;
                };
            }
            run.plan.add(new Msg(i, r.nextInt(4), r.nextInt(4) == 0, size, pol));
        }
        return run;
    }

    @ParameterizedTest(name = "{0} seed {1} loss {2}")
    @CsvSource({
        "TIME_TO_LIVE, 1, 0.05",
        "TIME_TO_LIVE, 2, 0.20",
        "LIMITED_RETRANSMISSIONS, 3, 0.05",
        "LIMITED_RETRANSMISSIONS, 4, 0.20",
        "PRIORITY, 5, 0.05",
        "PRIORITY, 6, 0.20"
    })
    void abandonedMessagesComeBackAndNothingElseIsLost(PrPolicy.Kind kind, long seed, double loss) {
        int sendBuffer = kind == PrPolicy.Kind.PRIORITY ? 24 << 10 : 1 << 20;
        CorePair p = new CorePair(seed, 1, options(sendBuffer), options(1 << 20), l -> l.delay(Duration.ofMillis(5))
                .bandwidth(20_000_000)
                .loss(LossModel.bernoulli(loss)));
        Run run = workload(seed, 600, kind);
        run.attach(p);
        p.connectAt(0);
        boolean done = p.sim.runUntil(() -> run.settled(p), 300 * S);
        TransferInfo a = p.a.endpoint().info(run.assoc).orElseThrow().transfer();
        TransferInfo z = p.z.endpoint().info(run.zAssoc).orElseThrow().transfer();
        List<Msg> missing = new ArrayList<>();
        for (Msg m : run.plan) {
            if (!run.delivered.get(m.index()) && !run.failed.get(m.index())) {
                missing.add(m);
            }
        }
        assertTrue(
                done,
                "missing " + missing + " sent " + run.next + " delivered " + run.delivered.cardinality() + " failed "
                        + run.failed.cardinality() + " of " + run.plan.size() + "; sender " + a + "; receiver cum "
                        + z.cumulativeTsn());
        System.out.printf(
                "PR-SCTP %s seed %d loss %.2f: %d messages, %d delivered, %d abandoned (%d after sending),"
                        + " settled at %.3f s%n",
                kind,
                seed,
                loss,
                run.plan.size(),
                run.delivered.cardinality(),
                run.failed.cardinality(),
                run.failedSent,
                p.sim.now() / 1e9);
        for (Msg m : run.plan) {
            if (m.policy() == null) {
                assertTrue(run.delivered.get(m.index()), "reliable message " + m.index() + " lost");
                assertFalse(run.failed.get(m.index()));
            } else if (!run.failed.get(m.index())) {
                assertTrue(run.delivered.get(m.index()), "message " + m.index() + " neither delivered nor failed");
            }
        }
        assertEquals(0, run.badFailures, "a SendFailed without its data, twice, or for a reliable message");
        assertEquals(0, run.duplicated, "duplicated");
        assertEquals(0, run.misordered, "misordered");
        assertEquals(0, run.corrupted, "corrupted");
        assertTrue(run.failed.cardinality() > 0, "the policy abandoned nothing under loss " + loss);
        SendFailedReason expected =
                switch (kind) {
                    case TIME_TO_LIVE -> SendFailedReason.LIFETIME_EXPIRED;
                    case LIMITED_RETRANSMISSIONS -> SendFailedReason.RETRANSMISSIONS_EXHAUSTED;
                    default -> SendFailedReason.LOWER_PRIORITY;
                };
        assertEquals(Map.of(expected, run.failed.cardinality()), run.reasons);
        PrStatus st = p.a.endpoint().prStatus(run.assoc).orElseThrow();
        assertEquals(run.failed.cardinality(), st.total().total(), "counters match the events: " + st);
        assertEquals(run.failedSent, st.total().sent());
        assertEquals(st.of(kind), st.total());
        long perStream = 0;
        for (int s = 0; s < 4; s++) {
            perStream +=
                    p.a.endpoint().prStatus(run.assoc, s).orElseThrow().total().total();
        }
        assertEquals(st.total().total(), perStream, "per-stream counters add up");
        assertEquals((a.nextTsn() - 1) & 0xffffffffL, z.cumulativeTsn(), "Z's cumulative TSN moved past everything");
        assertEquals(0, z.pendingFragments(), "no fragment of an abandoned message is left at Z");
        assertEquals(0, CorePair.count(p.a, SctpEvent.AssociationChangeType.COMMUNICATION_LOST));
        if (kind == PrPolicy.Kind.LIMITED_RETRANSMISSIONS) {
            assertTrue(run.failedSent > 0, "limited retransmissions abandon sent messages");
        }
    }

    /**
     * Every message with a 5 ms lifetime on four streams over a 10 % lossy link (as the usrsctp
     * interop case prsctp-ttl-loss): most expire in the queue, at the head of their stream or
     * behind it. Each message must reach Z at most once, and every one is either delivered or
     * handed back, the counters matching the events. A message object given back to the pool
     * while its stream still queued it came out again as a new message with a new TSN and SSN,
     * so Z delivered it twice.
     */
    @ParameterizedTest(name = "seed {0} size {1} gap {2} us buffer {3}")
    @CsvSource({
        "11, 200, 0, 1048576",
        "12, 1000, 0, 16384",
        "13, 3000, 0, 65536",
        "14, 1000, 100, 16384",
        "15, 1000, 300, 65536",
        "16, 200, 500, 16384",
        "17, 1000, 1000, 1048576",
        "18, 3000, 200, 65536",
        "19, 1000, 0, 65536",
        "20, 1000, 50, 32768"
    })
    void shortLifetimesOnEveryMessageNeverDuplicate(long seed, int maxSize, long gapMicros, int sendBuffer) {
        CorePair p = new CorePair(seed, 1, options(sendBuffer), options(1 << 20), l -> l.delay(Duration.ofMillis(5))
                .bandwidth(20_000_000)
                .loss(LossModel.bernoulli(0.10)));
        Run run = new Run();
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < 2000; i++) {
            run.plan.add(new Msg(i, i % 4, false, 1 + r.nextInt(maxSize), PrPolicy.timeToLive(5)));
        }
        run.attach(p);
        if (gapMicros > 0) {
            // A user sending one message every gapMicros from 50 ms on (after the handshake).
            run.due = 0;
            for (int i = 0; i < run.plan.size(); i++) {
                int upTo = i + 1;
                p.sim.at(50_000_000L + i * gapMicros * 1000, () -> {
                    run.due = upTo;
                    run.pump(p.a);
                });
            }
        }
        p.connectAt(0);
        boolean done = p.sim.runUntil(() -> run.settled(p), 300 * S);
        assertEquals(0, run.duplicated, "messages delivered twice");
        assertEquals(0, run.badFailures, "a SendFailed without its data, twice, or for a reliable message");
        BitSet both = (BitSet) run.delivered.clone();
        both.and(run.failedUnsent);
        assertEquals(0, both.cardinality(), "delivered though handed back as never sent: " + both);
        assertTrue(
                done,
                "not settled: delivered " + run.delivered.cardinality() + " failed " + run.failed.cardinality() + " of "
                        + run.plan.size());
        BitSet all = (BitSet) run.delivered.clone();
        all.or(run.failed);
        assertEquals(run.plan.size(), all.cardinality(), "every message delivered or handed back");
        assertTrue(run.failed.cardinality() > 0, "nothing expired");
        assertEquals(0, run.misordered, "misordered");
        assertEquals(0, run.corrupted, "corrupted");
        PrStatus st = p.a.endpoint().prStatus(run.assoc).orElseThrow();
        assertEquals(run.failed.cardinality(), st.total().total(), "counters match the events: " + st);
        assertEquals(run.failedSent, st.total().sent());
        System.out.printf(
                "TTL 5 ms seed %d size 1..%d: %d messages, %d delivered, %d abandoned (%d after sending)%n",
                seed, maxSize, run.plan.size(), run.delivered.cardinality(), run.failed.cardinality(), run.failedSent);
    }

    /**
     * The interop case prsctp-prio-buffer on the simulator: 300 messages of 1000 bytes on 4
     * streams, even ones priority 0 and odd ones priority 1, through a 16 KiB send buffer over 10%
     * loss, with Z echoing every message back as the interop peer does. Every message must come
     * back echoed or as a SendFailed; none may vanish (the core's side of a silent loss seen in
     * that case, whose cause was the interop harness's send pump: see OurStackPumpTest).
     */
    @ParameterizedTest(name = "seed {0}")
    @CsvSource({"11", "12", "13", "14"})
    void priorityBufferWorkloadLosesNothingSilently(long seed) {
        CorePair p = new CorePair(seed, 1, options(16 << 10), options(1 << 20), l -> l.delay(Duration.ofMillis(5))
                .bandwidth(20_000_000)
                .loss(LossModel.bernoulli(0.10)));
        Run run = new Run();
        for (int i = 0; i < 300; i++) {
            run.plan.add(new Msg(i, i % 4, false, 1000, PrPolicy.priority(i % 2)));
        }
        // Z echoes every message back, as the interop peer does; A counts the echoes.
        BitSet echoed = new BitSet();
        p.a.keepEvents(false).onEvent(e -> {
            if (e instanceof SctpEvent.MessageReceived r) {
                echoed.set(r.ppid() - PPID_BASE);
            } else {
                run.onSender(p.a, e);
            }
        });
        p.z.keepEvents(false).onEvent(e -> {
            run.onReceiver(e);
            if (e instanceof SctpEvent.MessageReceived r) {
                assertEquals(
                        SendStatus.ACCEPTED,
                        p.z.endpoint()
                                .send(
                                        r.association(),
                                        new SendInfo(r.streamId(), r.ppid(), false, false),
                                        ByteBuffer.wrap(r.data()),
                                        p.z.now()));
            }
        });
        p.connectAt(0);
        boolean done =
                p.sim.runUntil(() -> run.settled(p) && echoed.cardinality() == run.delivered.cardinality(), 300 * S);
        List<Integer> missing = new ArrayList<>();
        for (Msg m : run.plan) {
            if (!echoed.get(m.index()) && !run.failed.get(m.index())) {
                missing.add(m.index());
            }
        }
        TransferInfo a = p.a.endpoint().info(run.assoc).orElseThrow().transfer();
        assertTrue(
                done && missing.isEmpty(),
                "neither echoed nor failed: " + missing + "; sent " + run.next + " delivered "
                        + run.delivered.cardinality() + " failed " + run.failed.cardinality() + "; sender " + a);
        assertEquals(0, run.badFailures, "a SendFailed without its data, twice, or for a reliable message");
        assertEquals(0, run.duplicated, "duplicated");
        assertEquals(0, run.misordered, "misordered");
        assertTrue(run.failed.stream().allMatch(i -> i % 2 == 1), "priority-0 messages abandoned");
        System.out.printf(
                "prio buffer seed %d: %d delivered, %d abandoned (%d after sending)%n",
                seed, run.delivered.cardinality(), run.failed.cardinality(), run.failedSent);
    }

    @Test
    void withoutPrSctpOnOneSideSentDataStaysReliable() {
        SctpOptions off =
                options(1 << 20).toBuilder().disable(Extension.PR_SCTP).build();
        CorePair p = new CorePair(
                7, 1, options(1 << 20), off, l -> l.delay(Duration.ofMillis(5)).loss(LossModel.bernoulli(0.1)));
        Run run = workload(7, 200, PrPolicy.Kind.LIMITED_RETRANSMISSIONS);
        run.attach(p);
        p.connectAt(0);
        assertTrue(p.sim.runUntil(() -> run.settled(p), 300 * S));
        assertEquals(0, run.failed.cardinality(), "sent messages cannot be abandoned without PR-SCTP");
        assertEquals(run.plan.size(), run.delivered.cardinality());
        assertEquals(0, run.misordered);
    }
}
