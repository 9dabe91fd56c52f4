package org.sctpj.tests.core;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.sctpj.sim.EndpointNode;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Extension;
import org.sctpj.stack.PrPolicy;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.wire.chunk.ChunkType;

/**
 * The extension variants of the seeded matrices ({@link SimulatedMatrixTest}, {@link
 * ScenarioMatrixTest}): both sides offer {@link #OFFERED}, the run checks that exactly that was
 * negotiated on both sides, the chunks of {@link #AUTHENTICATED} carry AUTH, some messages carry a PR-SCTP policy ({@link #POLICIES}) and streams
 * are reset at random points ({@link #RESETS}). The judge is the matrices' own: nothing lost that
 * the sender did not report abandoned (SEND_FAILED) for a message that had a policy, nothing
 * duplicated, nothing out of order within an ordered stream, no conformance-monitor violation, a
 * graceful close. To narrow a failure down, drop an extension from {@link #OFFERED} or turn a
 * switch off.
 */
final class ExtensionsMatrix {

    /** Offered by both sides. */
    static final Set<Extension> OFFERED = EnumSet.of(
            Extension.PR_SCTP,
            Extension.I_DATA,
            Extension.RECONFIG,
            Extension.AUTH,
            Extension.ASCONF,
            Extension.NR_SACK);

    /**
     * With {@link Extension#AUTH}, the chunk types both sides require authenticated (RFC 4895):
     * the data path, its acknowledgements and the extension chunks, so that every packet of the
     * transfer carries AUTH (and the HMAC is checked under loss, reordering and duplication).
     */
    static final Set<Integer> AUTHENTICATED = Set.of(
            ChunkType.DATA,
            ChunkType.I_DATA,
            ChunkType.SACK,
            ChunkType.NR_SACK,
            ChunkType.FORWARD_TSN,
            ChunkType.I_FORWARD_TSN,
            ChunkType.RE_CONFIG,
            ChunkType.SHUTDOWN);

    /** Some messages (see {@link #hasPolicy}) carry a PR-SCTP policy (RFC 7496). */
    static final boolean POLICIES = true;

    /** Streams are reset (RFC 6525 outgoing SSN reset) at random points of a transfer. */
    static final boolean RESETS = true;

    /**
     * A asks Z to take A's address as its primary (RFC 5061 Set Primary Address) at random points
     * of a transfer: ASCONF and ASCONF-ACK under loss, reordering and duplication, judged by the
     * monitor (authenticated, serials by one, one outstanding).
     */
    static final boolean ADDRESS_REQUESTS = true;

    private ExtensionsMatrix() {}

    /** The options with {@link #OFFERED} on. */
    static SctpOptions offering(SctpOptions base) {
        return base.toBuilder().extensions(OFFERED).authChunks(AUTHENTICATED).build();
    }

    /** Whether message {@code index} of a run gets a policy: one in three, chosen by the seed. */
    static boolean hasPolicy(long seed, int index) {
        return POLICIES && new SplittableRandom(seed * 1_000_003L + index).nextInt(3) == 0;
    }

    /** Wires the variant into a transfer: policies on some messages. */
    static Transfer apply(Transfer t, long seed) {
        if (POLICIES) {
            t.sendInfo = m -> hasPolicy(seed, m.index()) ? withPolicy(m, seed) : plain(m);
        }
        return t;
    }

    static SendInfo plain(Transfer.Msg m) {
        return new SendInfo(m.stream(), Transfer.PPID_BASE + m.index(), m.unordered(), false);
    }

    /**
     * The message sent with a PR-SCTP policy drawn from the seed: time to live 50-500 ms, or a
     * limit of 0-3 retransmissions (RFC 3758 section 4.1, RFC 7496 section 3.1).
     */
    static SendInfo withPolicy(Transfer.Msg m, long seed) {
        SplittableRandom r = new SplittableRandom(seed * 31 + m.index());
        PrPolicy policy =
                r.nextBoolean() ? PrPolicy.timeToLive(50 + r.nextInt(451)) : PrPolicy.maxRetransmissions(r.nextInt(4));
        return plain(m).withPrPolicy(policy);
    }

    /**
     * Schedules {@code count} resets of random outgoing streams of A's association at random times
     * in the first {@code withinNanos} of the run (only when {@link #RESETS} is on).
     */
    static void scheduleResets(CorePair p, long seed, int streams, int count, long withinNanos) {
        if (!RESETS) {
            return;
        }
        SplittableRandom r = new SplittableRandom(seed ^ 0x5eedL);
        for (int i = 0; i < count; i++) {
            int stream = r.nextInt(streams);
            p.sim.at(r.nextLong(withinNanos), () -> {
                if (p.assocA != null && p.a.endpoint().info(p.assocA).isPresent()) {
                    resetStreams(p.a, p.assocA, new int[] {stream});
                }
            });
        }
    }

    /**
     * Asks the association to reset these outgoing streams (RFC 6525 section 5.1.2).
     *
     * A reset asked for before the association is up or once it is shutting down is refused, and
     * skipped here.
     */
    static void resetStreams(EndpointNode n, AssociationId id, int[] streams) {
        try {
            n.endpoint().resetStreams(id, streams, true, false, n.now());
        } catch (IllegalStateException notEstablished) {
            // before COMMUNICATION_UP or once shutting down: no reset then
        }
    }

    /**
     * Schedules {@code count} Set Primary Address requests of A's association for A's own address
     * at random times in the first {@code withinNanos} of the run (only when {@link
     * #ADDRESS_REQUESTS} is on); one asked before the association is up or once it is shutting down
     * is refused, and skipped here.
     */
    static void scheduleAddressRequests(CorePair p, long seed, int count, long withinNanos) {
        if (!ADDRESS_REQUESTS) {
            return;
        }
        SplittableRandom r = new SplittableRandom(seed ^ 0xadd1L);
        for (int i = 0; i < count; i++) {
            p.sim.at(r.nextLong(withinNanos), () -> {
                if (p.assocA != null && p.a.endpoint().info(p.assocA).isPresent()) {
                    try {
                        p.a.endpoint().setPeerPrimary(p.assocA, p.addrsA.get(0), p.a.now());
                    } catch (IllegalStateException notEstablished) {
                        // before COMMUNICATION_UP or once shutting down: no request then
                    }
                }
            });
        }
    }

    /** Messages abandoned that had no policy: each is a loss the policy does not excuse. */
    static long abandonedWithoutPolicy(Transfer t, long seed) {
        return t.abandoned.stream().filter(i -> !hasPolicy(seed, i)).count();
    }

    /** Records, at each COMMUNICATION_UP of {@code n}, the extensions its association agreed. */
    static Consumer<SctpEvent> negotiationProbe(EndpointNode n, List<Set<Extension>> seen) {
        return e -> {
            if (e instanceof SctpEvent.AssociationChange c
                    && c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP) {
                n.endpoint().info(c.association()).ifPresent(i -> seen.add(i.extensions()));
            }
        };
    }

    /** The extensions each of the node's current associations agreed. */
    static List<Set<Extension>> agreed(EndpointNode n) {
        List<Set<Extension>> out = new ArrayList<>();
        for (AssociationId id : n.endpoint().associations()) {
            n.endpoint().info(id).ifPresent(i -> out.add(i.extensions()));
        }
        return out;
    }

    /** True when every association seen agreed exactly on {@link #OFFERED}, and there was one. */
    static boolean negotiatedAsOffered(List<Set<Extension>> seen) {
        return !seen.isEmpty() && seen.stream().allMatch(OFFERED::equals);
    }
}
