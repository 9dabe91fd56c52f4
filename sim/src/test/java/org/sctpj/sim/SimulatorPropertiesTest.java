package org.sctpj.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.sim.Toys.MS;
import static org.sctpj.sim.Toys.S;
import static org.sctpj.sim.Toys.ip;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

class SimulatorPropertiesTest {

    static final InetAddress A1 = ip("10.0.0.1");
    static final InetAddress Z1 = ip("10.0.1.1");

    @Property(tries = 200)
    void countersBalanceAndNothingArrivesThatWasNotSent(
            @ForAll long seed,
            @ForAll @DoubleRange(max = 0.5) double loss,
            @ForAll @DoubleRange(max = 0.5) double duplicate,
            @ForAll @DoubleRange(max = 0.5) double reorder,
            @ForAll @DoubleRange(max = 0.2) double corrupt,
            @ForAll @IntRange(max = 2_000_000) int bandwidth,
            @ForAll @IntRange(min = 100, max = 5000) int queue,
            @ForAll @IntRange(max = 50) int downAtMs) {
        int n = 200;
        Toys.Sender a = new Toys.Sender(n, 20, 0, 100_000, A1, Z1);
        Toys.Receiver z = new Toys.Receiver();
        Network net = new Network(seed, a, z);
        Link l = net.addPath(A1, Z1)
                .aToZ()
                .delayNanos(3 * MS)
                .bandwidth(bandwidth)
                .queueLimit(queue)
                .loss(LossModel.bernoulli(loss))
                .duplicate(duplicate)
                .reorder(reorder, 2 * MS)
                .corrupt(corrupt)
                .downAt(downAtMs * MS)
                .upAt(downAtMs * MS + 5 * MS);
        Simulator sim = new Simulator(net);
        sim.run(100_000 * S); // long enough to drain even a 1 bit/s link's queue
        LinkStats s = l.stats();
        assertEquals(n, s.sent());
        assertEquals(0, sim.pendingEvents());
        assertEquals(s.sent() + s.duplicated(), s.delivered() + s.dropped(), s.toString());
        assertEquals(s.delivered(), z.tsns.size() + z.badChecksum);
        assertEquals(s.corruptedDelivered(), z.badChecksum);
        assertTrue(new TreeSet<>(z.tsns).stream().allMatch(t -> t >= 0 && t < n));
    }

    @Property(tries = 100)
    void anIdealLinkDeliversEverythingInOrderAfterExactlyItsDelay(
            @ForAll @IntRange(max = 100_000_000) int delay, @ForAll @IntRange(min = 1, max = 300) int count) {
        Toys.Sender a = new Toys.Sender(count, 8, 0, 1 * MS, A1, Z1);
        Toys.Receiver z = new Toys.Receiver();
        Network net = new Network(1, a, z);
        net.addPath(A1, Z1).aToZ().delayNanos(delay);
        new Simulator(net).run(10 * S);
        List<Integer> expected = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            expected.add(i);
            times.add(i * MS + delay);
        }
        assertEquals(expected, z.tsns);
        assertEquals(times, z.times);
    }
}
