package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sctpj.sim.LinkStats;
import org.sctpj.sim.LossModel;
import org.sctpj.sim.monitor.ProtocolViolation;
import org.sctpj.stack.Extension;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;

/**
 * The seeded matrix of issue 3: every combination of loss {0, 1, 5, 20%} (both directions),
 * reordering on/off, duplication on/off, message sizes {1 B, 1000 B, 4 KiB, 200 KiB},
 * ordered/unordered and {1, 16} streams, each over several seeds: every message delivered exactly
 * once, byte-identical, in order per stream when ordered, and the association ends CLOSED by a
 * graceful shutdown, and no packet breaks a rule of the conformance monitor (counted as violations;
 * the run is replayed by its seed and combination). {@code -Dsctpj.matrix.seeds=N} sets the seeds per combination (default 8:
 * 2,048 runs; 391 gives the long mode's 100,000). The extension variant (issue 12) is {@link
 * #withTheExtensionsOfferedNothingIsLostButWhatAPolicyAbandoned}.
 */
class SimulatedMatrixTest {

    static final double[] LOSS = {0, 0.01, 0.05, 0.20};
    static final int[] SIZES = {1, 1000, 4096, 200 * 1024};
    static final int[] STREAMS = {1, 16};

    /** Options for lossy runs: faster timers than WAN, and retransmission limits that 20% loss cannot exhaust. */
    static final SctpOptions OPTIONS = SctpOptions.DEFAULTS.toBuilder()
            .rtoInitial(Duration.ofMillis(200))
            .rtoMin(Duration.ofMillis(50))
            .rtoMax(Duration.ofSeconds(1))
            .delayedAckTime(Duration.ofMillis(25))
            .associationMaxRetrans(40)
            .pathMaxRetrans(40)
            .maxInitRetransmits(40)
            .shutdownGuardFactor(60)
            .sendBufferBytes(512 * 1024)
            .receiveBufferBytes(512 * 1024)
            .maxMessageSize(256 * 1024)
            .build();

    static int messagesFor(int size) {
        return switch (size) {
            case 1 -> 40;
            case 1000 -> 20;
            case 4096 -> 10;
            default -> 2;
        };
    }

    @Test
    void everyCombinationDeliversEverythingExactlyOnceInOrder() {
        int seeds = Integer.getInteger("sctpj.matrix.seeds", 8);
        Tally tally = new Tally();
        for (double loss : LOSS) {
            for (boolean reorder : new boolean[] {false, true}) {
                for (boolean dup : new boolean[] {false, true}) {
                    for (int size : SIZES) {
                        for (boolean unordered : new boolean[] {false, true}) {
                            for (int streams : STREAMS) {
                                for (int s = 0; s < seeds; s++) {
                                    long seed = tally.runs * 1_000_003L + 17;
                                    tally.run(seed, loss, reorder, dup, size, unordered, streams, false);
                                }
                            }
                        }
                    }
                }
            }
        }
        tally.print("");
        assertTrue(tally.runs >= 2000 || seeds < 8, "the matrix must run at least 2,000 runs by default");
        tally.assertClean();
    }

    /** Loss of the extension variant: up to 30%, both directions. */
    static final double[] EXTENSION_LOSS = {0, 0.05, 0.20, 0.30};

    /**
     * The extension variant (issue 12): both sides offer {@link ExtensionsMatrix#OFFERED}, under
     * loss up to 30%, reordering, duplication, all sizes, ordered and unordered, 16 streams, with
     * PR-SCTP policies on some messages and stream resets at random points once {@link
     * ExtensionsMatrix} switches them on. Each run must also have negotiated exactly what was
     * offered, and lose only messages abandoned by a policy. {@code -Dsctpj.matrix.extensionSeeds=N}
     * sets the seeds per combination (default 4: 256 runs).
     */
    @Test
    void withTheExtensionsOfferedNothingIsLostButWhatAPolicyAbandoned() {
        int seeds = Integer.getInteger("sctpj.matrix.extensionSeeds", 4);
        Tally tally = new Tally();
        for (double loss : EXTENSION_LOSS) {
            for (boolean reorder : new boolean[] {false, true}) {
                for (int size : SIZES) {
                    for (boolean unordered : new boolean[] {false, true}) {
                        for (int s = 0; s < seeds; s++) {
                            long seed = tally.runs * 1_000_003L + 29;
                            tally.run(seed, loss, reorder, true, size, unordered, 16, true);
                        }
                    }
                }
            }
        }
        tally.print("extensions " + ExtensionsMatrix.OFFERED + " (policies " + ExtensionsMatrix.POLICIES + ", resets "
                + ExtensionsMatrix.RESETS + "): ");
        assertTrue(tally.runs >= 250 || seeds < 4, "the extension variant must run at least 250 runs by default");
        tally.assertClean();
    }

    /** The sums of a matrix, the first failures, and the wall clock. */
    static final class Tally {
        final long started = System.nanoTime();
        long runs;
        long messages;
        long lost;
        long duplicated;
        long misordered;
        long corrupted;
        long notClosed;
        long violations;
        long abandoned;
        long notNegotiated;
        long packets;
        long droppedByNetwork;
        long duplicatedByNetwork;
        long reorderedByNetwork;
        final List<String> failures = new ArrayList<>();

        void run(
                long seed,
                double loss,
                boolean reorder,
                boolean dup,
                int size,
                boolean unordered,
                int streams,
                boolean extensions) {
            String combo = String.format(
                    "seed=%d loss=%.2f reorder=%b dup=%b size=%d unordered=%b streams=%d%s",
                    seed, loss, reorder, dup, size, unordered, streams, extensions ? " extensions" : "");
            Outcome o;
            try {
                o = SimulatedMatrixTest.run(seed, loss, reorder, dup, size, unordered, streams, extensions);
            } catch (ProtocolViolation v) {
                runs++;
                violations++;
                fail(combo + ": " + v.getMessage());
                return;
            }
            runs++;
            packets += o.net().sent();
            droppedByNetwork += o.net().droppedLoss() + o.net().droppedQueue();
            duplicatedByNetwork += o.net().duplicated();
            reorderedByNetwork += o.net().reordered();
            messages += o.t.plan.size();
            lost += o.t.lost() + o.abandonedWithoutPolicy();
            duplicated += o.t.duplicated;
            misordered += o.t.misordered;
            corrupted += o.t.corrupted;
            abandoned += o.t.abandoned.cardinality();
            notClosed += o.closed ? 0 : 1;
            notNegotiated += o.negotiated ? 0 : 1;
            if ((o.t.lost() | o.abandonedWithoutPolicy() | o.t.duplicated | o.t.misordered | o.t.corrupted) != 0
                    || !o.closed
                    || !o.negotiated) {
                fail(String.format(
                        "%s: lost %d (abandoned without a policy %d) dup %d misordered %d corrupted %d closed %b"
                                + " negotiated %b",
                        combo,
                        o.t.lost(),
                        o.abandonedWithoutPolicy(),
                        o.t.duplicated,
                        o.t.misordered,
                        o.t.corrupted,
                        o.closed,
                        o.negotiated));
            }
        }

        void fail(String what) {
            if (failures.size() < 10) {
                failures.add(what);
            }
        }

        void print(String title) {
            System.out.printf(
                    "%sruns %d, messages %d, lost %d, duplicated %d, misordered %d, violations %d%n",
                    title, runs, messages, lost, duplicated, misordered, violations);
            System.out.printf(
                    "(packets %d: the network dropped %d, duplicated %d, reordered %d; corrupted %d, not closed %d;"
                            + " abandoned by policy %d, not negotiated as offered %d; %.1f s wall clock)%n",
                    packets,
                    droppedByNetwork,
                    duplicatedByNetwork,
                    reorderedByNetwork,
                    corrupted,
                    notClosed,
                    abandoned,
                    notNegotiated,
                    (System.nanoTime() - started) / 1e9);
            failures.forEach(System.out::println);
        }

        void assertClean() {
            assertEquals(List.of(), failures);
            assertEquals(0, lost + duplicated + misordered + corrupted + notClosed + violations + notNegotiated);
        }
    }

    /**
     * One run: its transfer, whether it closed gracefully, the network's counts, whether both
     * sides negotiated what was offered (always true without extensions), and the seed.
     */
    record Outcome(Transfer t, boolean closed, LinkStats net, boolean negotiated, long seed) {
        long abandonedWithoutPolicy() {
            return ExtensionsMatrix.abandonedWithoutPolicy(t, seed);
        }
    }

    static Outcome run(
            long seed,
            double loss,
            boolean reorder,
            boolean dup,
            int size,
            boolean unordered,
            int streams,
            boolean extensions) {
        SctpOptions options = extensions ? ExtensionsMatrix.offering(OPTIONS) : OPTIONS;
        CorePair p = new CorePair(seed, 1, options, options, l -> {
            l.delay(Duration.ofMillis(5)).bandwidth(50_000_000).queueLimit(512 * 1024);
            if (loss > 0) {
                l.loss(LossModel.bernoulli(loss));
            }
            if (reorder) {
                l.reorder(0.05, 3_000_000);
            }
            if (dup) {
                l.duplicate(0.03);
            }
        });
        Transfer t = new Transfer(seed, messagesFor(size), size, streams, unordered).attach(p);
        if (extensions) {
            ExtensionsMatrix.apply(t, seed);
            ExtensionsMatrix.scheduleResets(p, seed, streams, 2, 2_000_000_000L);
            ExtensionsMatrix.scheduleAddressRequests(p, seed, 2, 2_000_000_000L);
        }
        if ((seed & 1) == 1) {
            p.z.useEventHandler(); // half the runs receive through the event handler, messages in place
        }
        if ((seed & 2) == 2) {
            p.a.useBufferTransmit(); // and half send through it
            p.z.useBufferTransmit();
        }
        p.connectAt(0);
        long limit = 600_000_000_000L;
        p.sim.runUntil(t::complete, limit);
        boolean negotiated = true;
        if (extensions) {
            List<Set<Extension>> agreed = new ArrayList<>(ExtensionsMatrix.agreed(p.a));
            agreed.addAll(ExtensionsMatrix.agreed(p.z));
            negotiated = agreed.size() == 2 && ExtensionsMatrix.negotiatedAsOffered(agreed);
        }
        if (t.complete()) {
            p.sim.at(p.sim.now(), () -> p.a.endpoint().shutdown(p.assocA, p.sim.now()));
            p.sim.runUntil(
                    () -> CorePair.saw(p.a, AssociationChangeType.SHUTDOWN_COMPLETE)
                            && p.z.endpoint().associations().isEmpty(),
                    p.sim.now() + limit);
        }
        boolean closed = CorePair.saw(p.a, AssociationChangeType.SHUTDOWN_COMPLETE)
                && p.a.endpoint().associations().isEmpty()
                && p.z.endpoint().associations().isEmpty();
        return new Outcome(t, closed, p.net.totals(), negotiated, seed);
    }
}
