package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.sim.LinkStats;
import org.sctpj.sim.LossModel;
import org.sctpj.sim.monitor.ProtocolViolation;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;

/**
 * The seeded matrix of issue 3: every combination of loss {0, 1, 5, 20%} (both directions),
 * reordering on/off, duplication on/off, message sizes {1 B, 1000 B, 4 KiB, 200 KiB},
 * ordered/unordered and {1, 16} streams, each over several seeds: every message delivered exactly
 * once, byte-identical, in order per stream when ordered, and the association ends CLOSED by a
 * graceful shutdown, and no packet breaks a rule of the conformance monitor (counted as violations;
 * the run is replayed by its seed and combination). {@code -Dsctpj.matrix.seeds=N} sets the seeds per combination (default 8:
 * 2,048 runs; 391 gives the long mode's 100,000).
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
        long runs = 0;
        long messages = 0;
        long lost = 0;
        long duplicated = 0;
        long misordered = 0;
        long corrupted = 0;
        long notClosed = 0;
        long violations = 0;
        long packets = 0;
        long droppedByNetwork = 0;
        long duplicatedByNetwork = 0;
        long reorderedByNetwork = 0;
        List<String> failures = new ArrayList<>();
        long started = System.nanoTime();
        for (double loss : LOSS) {
            for (boolean reorder : new boolean[] {false, true}) {
                for (boolean dup : new boolean[] {false, true}) {
                    for (int size : SIZES) {
                        for (boolean unordered : new boolean[] {false, true}) {
                            for (int streams : STREAMS) {
                                for (int s = 0; s < seeds; s++) {
                                    long seed = runs * 1_000_003L + 17;
                                    String combo = String.format(
                                            "seed=%d loss=%.2f reorder=%b dup=%b size=%d unordered=%b streams=%d",
                                            seed, loss, reorder, dup, size, unordered, streams);
                                    Outcome o;
                                    try {
                                        o = run(seed, loss, reorder, dup, size, unordered, streams);
                                    } catch (ProtocolViolation v) {
                                        runs++;
                                        violations++;
                                        if (failures.size() < 10) {
                                            failures.add(combo + ": " + v.getMessage());
                                        }
                                        continue;
                                    }
                                    runs++;
                                    packets += o.net().sent();
                                    droppedByNetwork +=
                                            o.net().droppedLoss() + o.net().droppedQueue();
                                    duplicatedByNetwork += o.net().duplicated();
                                    reorderedByNetwork += o.net().reordered();
                                    messages += o.t.plan.size();
                                    lost += o.t.lost();
                                    duplicated += o.t.duplicated;
                                    misordered += o.t.misordered;
                                    corrupted += o.t.corrupted;
                                    if (!o.closed) {
                                        notClosed++;
                                    }
                                    if ((o.t.lost() | o.t.duplicated | o.t.misordered | o.t.corrupted) != 0
                                            || !o.closed) {
                                        if (failures.size() < 10) {
                                            failures.add(String.format(
                                                    "%s: lost %d dup %d misordered %d corrupted %d closed %b",
                                                    combo,
                                                    o.t.lost(),
                                                    o.t.duplicated,
                                                    o.t.misordered,
                                                    o.t.corrupted,
                                                    o.closed));
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        System.out.printf(
                "runs %d, messages %d, lost %d, duplicated %d, misordered %d, violations %d%n",
                runs, messages, lost, duplicated, misordered, violations);
        System.out.printf(
                "(packets %d: the network dropped %d, duplicated %d, reordered %d; corrupted %d, not closed %d;"
                        + " %.1f s wall clock)%n",
                packets,
                droppedByNetwork,
                duplicatedByNetwork,
                reorderedByNetwork,
                corrupted,
                notClosed,
                (System.nanoTime() - started) / 1e9);
        failures.forEach(System.out::println);
        assertTrue(runs >= 2000 || seeds < 8, "the matrix must run at least 2,000 runs by default");
        assertEquals(List.of(), failures);
        assertEquals(0, lost + duplicated + misordered + corrupted + notClosed + violations);
    }

    record Outcome(Transfer t, boolean closed, LinkStats net) {}

    static Outcome run(long seed, double loss, boolean reorder, boolean dup, int size, boolean unordered, int streams) {
        CorePair p = new CorePair(seed, 1, OPTIONS, OPTIONS, l -> {
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
        return new Outcome(t, closed, p.net.totals());
    }
}
