package org.sctpj.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.sim.Toys.MS;
import static org.sctpj.sim.Toys.S;
import static org.sctpj.sim.Toys.ip;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class LinkTest {

    static final InetAddress A1 = ip("10.0.0.1");
    static final InetAddress Z1 = ip("10.0.1.1");

    /** A sender, a receiver, one path configured A to Z by {@code link}; run for {@code until}. */
    static final class Run {
        final Toys.Sender sender;
        final Toys.Receiver receiver = new Toys.Receiver();
        final Network net;
        final Link link;
        final Simulator sim;

        Run(long seed, Toys.Sender sender, Consumer<Link> link) {
            this.sender = sender;
            this.net = new Network(seed, sender, receiver);
            this.link = net.addPath(A1, Z1).aToZ();
            link.accept(this.link);
            this.sim = new Simulator(net);
        }

        Run run(long until) {
            sim.run(until);
            return this;
        }

        LinkStats stats() {
            return link.stats();
        }
    }

    static Toys.Sender burst(int count, int payload) {
        return new Toys.Sender(count, payload, 0, 0, A1, Z1);
    }

    static List<Integer> range(int from, int to) {
        List<Integer> r = new ArrayList<>();
        for (int i = from; i < to; i++) {
            r.add(i);
        }
        return r;
    }

    /** Payload that makes a 1000-byte packet (12 common header + 16 DATA header). */
    static final int PAYLOAD_1000 = 1000 - 12 - 16;

    @Test
    void packetOfThePayloadForThousandBytesIsThousandBytes() {
        assertEquals(1000, Toys.dataPacket(0, PAYLOAD_1000).length);
    }

    @Test
    void serialisationQueuesABurstBehindEachOther() {
        Run r = new Run(1, burst(10, PAYLOAD_1000), l -> l.delayNanos(5 * MS).bandwidth(1_000_000)).run(1 * S);
        List<Long> expected = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            expected.add((i + 1) * 8 * MS + 5 * MS); // 1000 bytes at 1 Mb/s: 8 ms each
        }
        assertEquals(expected, r.receiver.times);
        assertEquals(range(0, 10), r.receiver.tsns);
        assertEquals(new LinkStats(10, 10_000, 10, 10_000, 0, 0, 0, 0, 0, 0), r.stats());
    }

    @Test
    void aFullQueueTailDropsAndAcceptsAgainOnceItDrains() {
        Run r = new Run(1, burst(10, PAYLOAD_1000), l -> l.delayNanos(5 * MS)
                .bandwidth(1_000_000)
                .queueLimit(5000));
        // at 20 ms three packets (finishing at 24, 32, 40 ms) still hold 3000 bytes: two more fit
        r.sim.at(20 * MS, () -> r.sender.burst(3, r.sim.now()));
        r.run(1 * S);
        List<Integer> tsns = range(0, 5);
        tsns.addAll(List.of(10, 11));
        assertEquals(tsns, r.receiver.tsns);
        assertEquals(List.of(13 * MS, 21 * MS, 29 * MS, 37 * MS, 45 * MS, 53 * MS, 61 * MS), r.receiver.times);
        assertEquals(6, r.stats().droppedQueue());
        assertEquals(13, r.stats().sent());
        assertEquals(7, r.stats().delivered());
    }

    @Test
    void serialisationTimeIsRoundedUpToTheNanosecond() {
        Link l =
                new Network(1, new Toys.Idle(), new Toys.Idle()).addPath(A1, Z1).aToZ();
        assertEquals(0, l.serialisationNanos(1500));
        l.bandwidth(3);
        assertEquals(2_666_666_667L, l.serialisationNanos(1));
        assertEquals(5_333_333_333_333_333_334L, l.serialisationNanos(2_000_000_000L));
        l.bandwidth(1_000_000_000);
        assertEquals(12_000, l.serialisationNanos(1500));
    }

    @Test
    void bernoulliLossRateIsWithinTolerance() {
        int n = 20_000;
        Run r = new Run(42, burst(n, 16), l -> l.loss(LossModel.bernoulli(0.1))).run(1 * S);
        double rate = r.stats().droppedLoss() / (double) n;
        assertEquals(0.1, rate, 0.01, "loss rate");
        assertEquals(n - r.receiver.tsns.size(), r.stats().droppedLoss());
        assertEquals(r.stats().delivered(), r.receiver.tsns.size());
    }

    /** Lengths of runs of consecutive lost TSNs. */
    static List<Integer> lossBursts(List<Integer> received, int n) {
        boolean[] got = new boolean[n];
        for (int t : received) {
            got[t] = true;
        }
        List<Integer> bursts = new ArrayList<>();
        int run = 0;
        for (int i = 0; i < n; i++) {
            if (!got[i]) {
                run++;
            } else if (run > 0) {
                bursts.add(run);
                run = 0;
            }
        }
        if (run > 0) {
            bursts.add(run);
        }
        return bursts;
    }

    static double mean(List<Integer> xs) {
        return xs.stream().mapToInt(Integer::intValue).average().orElse(0);
    }

    @Test
    void gilbertLosesInBurstsOfMeanLengthOneOverR() {
        int n = 50_000;
        LossModel ge = LossModel.gilbert(0.01, 0.25);
        Run r = new Run(42, burst(n, 4), l -> l.loss(ge)).run(1 * S);
        double rate = r.stats().droppedLoss() / (double) n;
        assertEquals(((LossModel.GilbertElliott) ge).meanLossRate(), rate, 0.01, "loss rate");
        double meanBurst = mean(lossBursts(r.receiver.tsns, n));
        assertEquals(4.0, meanBurst, 0.8, "mean burst length");

        // Bernoulli at the same mean rate hardly makes bursts
        Run b = new Run(42, burst(n, 4), l -> l.loss(LossModel.bernoulli(0.01 / 0.26))).run(1 * S);
        assertTrue(mean(lossBursts(b.receiver.tsns, n)) < 1.2);
    }

    @Test
    void gilbertElliottWithPartialLossInBothStatesMatchesItsMeanRate() {
        int n = 50_000;
        LossModel.GilbertElliott ge = new LossModel.GilbertElliott(0.05, 0.3, 0.2, 0.99);
        assertEquals(0.05 / 0.35 * 0.8 + 0.3 / 0.35 * 0.01, ge.meanLossRate(), 1e-12);
        Run r = new Run(9, burst(n, 4), l -> l.loss(ge)).run(1 * S);
        assertEquals(ge.meanLossRate(), r.stats().droppedLoss() / (double) n, 0.015);
    }

    @Test
    void duplicatesArriveRightAfterTheOriginalAtTheConfiguredRate() {
        int n = 20_000;
        Run r = new Run(3, burst(n, 4), l -> l.delayNanos(1 * MS).duplicate(0.05)).run(1 * S);
        LinkStats s = r.stats();
        assertEquals(0.05, s.duplicated() / (double) n, 0.008);
        assertEquals(n + s.duplicated(), s.delivered());
        assertEquals(s.delivered(), r.receiver.tsns.size());
        int twice = 0;
        for (int i = 1; i < r.receiver.tsns.size(); i++) {
            int t = r.receiver.tsns.get(i);
            if (t == r.receiver.tsns.get(i - 1)) {
                twice++;
            } else {
                assertEquals(r.receiver.tsns.get(i - 1) + 1, t, "in order");
            }
        }
        assertEquals(s.duplicated(), twice);
    }

    @Test
    void reorderingHoldsPacketsBackAtTheConfiguredRate() {
        int n = 20_000;
        Toys.Sender paced = new Toys.Sender(n, 4, 0, 1 * MS, A1, Z1);
        Run r = new Run(5, paced, l -> l.delayNanos(10 * MS).reorder(0.1, 2_500_000)).run(30 * S);
        LinkStats s = r.stats();
        assertEquals(0.1, s.reordered() / (double) n, 0.01);
        assertEquals(n, r.receiver.tsns.size());
        assertEquals(new TreeSet<>(range(0, n)), new TreeSet<>(r.receiver.tsns));
        int late = r.receiver.outOfOrder();
        assertTrue(late <= s.reordered() && late > 0.8 * s.reordered(), late + " late of " + s.reordered());
    }

    @Test
    void corruptionFlipsOneBitThatCrc32cCatches() {
        int n = 20_000;
        Run r = new Run(11, burst(n, 40), l -> l.corrupt(0.05)).run(1 * S);
        LinkStats s = r.stats();
        assertEquals(0.05, s.corruptedDelivered() / (double) n, 0.008);
        assertEquals(s.corruptedDelivered(), r.receiver.badChecksum);
        assertEquals(0, r.receiver.otherErrors);
        assertEquals(n, r.receiver.tsns.size() + r.receiver.badChecksum);
    }

    @Test
    void corruptionChangesExactlyOneBitOfACopy() {
        byte[] original = Toys.dataPacket(7, 100);
        byte[] sent = original.clone();
        List<byte[]> arrived = new ArrayList<>();
        Network net = new Network(2, new Toys.Idle(), new Toys.Idle());
        Link l = net.addPath(A1, Z1).aToZ().corrupt(1.0);
        for (int i = 0; i < 50; i++) {
            l.transmit(0, sent.clone(), (link, t0, t1, bytes, corrupted) -> arrived.add(bytes));
        }
        assertEquals(50, arrived.size());
        for (byte[] b : arrived) {
            int bits = 0;
            for (int i = 0; i < b.length; i++) {
                bits += Integer.bitCount((b[i] ^ original[i]) & 0xff);
            }
            assertEquals(1, bits);
        }
        assertArrayEquals(original, sent);
    }

    @Test
    void aLinkDownDropsWhatIsSentAndWhatIsOnTheWire() {
        Toys.Sender paced = new Toys.Sender(100, 4, 0, 1 * MS, A1, Z1);
        Run r = new Run(1, paced, l -> l.delayNanos(5 * MS).downAt(30 * MS).upAt(60 * MS)).run(1 * S);
        // sent at 25..29 ms were on the wire at 30 ms; sent at 30..59 ms met a link down
        List<Integer> expected = range(0, 25);
        expected.addAll(range(60, 100));
        assertEquals(expected, r.receiver.tsns);
        assertEquals(35, r.stats().droppedDown());
        assertTrue(r.link.isUp(29 * MS));
        assertFalse(r.link.isUp(30 * MS));
        assertFalse(r.link.isUp(60 * MS - 1));
        assertTrue(r.link.isUp(60 * MS));
    }

    @Test
    void aPathCutFromAnActionWorksLikeASchedule() {
        Toys.Sender paced = new Toys.Sender(100, 4, 0, 1 * MS, A1, Z1);
        Run r = new Run(1, paced, l -> l.delayNanos(5 * MS));
        r.sim.at(30 * MS, () -> r.link.downAt(r.sim.now()));
        r.sim.at(60 * MS, () -> r.link.upAt(r.sim.now()));
        r.run(1 * S);
        List<Integer> expected = range(0, 25);
        expected.addAll(range(60, 100));
        assertEquals(expected, r.receiver.tsns);
    }

    @Test
    void eachImpairmentDrawsFromItsOwnStream() {
        int n = 5000;
        Run plain = new Run(77, burst(n, 4), l -> l.loss(LossModel.bernoulli(0.2))).run(1 * S);
        Run busy = new Run(77, burst(n, 4), l -> l.loss(LossModel.bernoulli(0.2))
                        .delayNanos(1 * MS)
                        .duplicate(0.3)
                        .reorder(0.3, 1 * MS))
                .run(1 * S);
        assertEquals(new TreeSet<>(plain.receiver.tsns), new TreeSet<>(busy.receiver.tsns));
        Run otherSeed = new Run(78, burst(n, 4), l -> l.loss(LossModel.bernoulli(0.2))).run(1 * S);
        assertFalse(plain.receiver.tsns.equals(otherSeed.receiver.tsns));
    }

    @Test
    void countersAddUp() {
        int n = 5000;
        Toys.Sender paced = new Toys.Sender(n, 100, 0, 100_000, A1, Z1);
        Run r = new Run(13, paced, l -> l.delayNanos(2 * MS)
                        .bandwidth(8_000_000)
                        .queueLimit(400)
                        .loss(LossModel.bernoulli(0.05))
                        .duplicate(0.05)
                        .corrupt(0.05)
                        .reorder(0.05, 1 * MS)
                        .downAt(100 * MS)
                        .upAt(150 * MS))
                .run(10 * S);
        LinkStats s = r.stats();
        assertEquals(n, s.sent());
        assertEquals(s.sent() + s.duplicated(), s.delivered() + s.dropped());
        assertEquals(s.delivered(), r.receiver.tsns.size() + r.receiver.badChecksum);
        assertTrue(s.droppedQueue() > 0 && s.droppedLoss() > 0 && s.droppedDown() > 0, s.toString());
        assertEquals(0, r.sim.pendingEvents());
    }

    @Test
    void misuseIsRejectedWithAnExplanation() {
        Link l =
                new Network(1, new Toys.Idle(), new Toys.Idle()).addPath(A1, Z1).aToZ();
        assertThrows(IllegalArgumentException.class, () -> l.delayNanos(-1));
        assertThrows(IllegalArgumentException.class, () -> l.bandwidth(-1));
        assertThrows(IllegalArgumentException.class, () -> l.queueLimit(-1));
        assertThrows(IllegalArgumentException.class, () -> l.duplicate(1.5));
        assertThrows(IllegalArgumentException.class, () -> l.corrupt(-0.1));
        assertThrows(IllegalArgumentException.class, () -> l.reorder(Double.NaN, 1));
        assertThrows(IllegalArgumentException.class, () -> l.reorder(0.1, -1));
        assertThrows(IllegalArgumentException.class, () -> l.loss(null));
        assertThrows(IllegalArgumentException.class, () -> LossModel.bernoulli(2));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> LossModel.gilbertElliott(0.1, 0.1, 0.1, 1.1));
        assertTrue(e.getMessage().contains("k is a probability"), e.getMessage());
    }
}
