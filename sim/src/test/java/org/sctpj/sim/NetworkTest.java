package org.sctpj.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.sim.Toys.MS;
import static org.sctpj.sim.Toys.S;
import static org.sctpj.sim.Toys.ip;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NetworkTest {

    static final InetAddress A1 = ip("10.0.0.1");
    static final InetAddress A2 = ip("10.0.0.2");
    static final InetAddress Z1 = ip("10.0.1.1");
    static final InetAddress Z2 = ip("10.0.1.2");

    @Test
    void eachAddressPairRoutesToItsOwnPathInEachDirection() {
        Network net = new Network(1, new Toys.Idle(), new Toys.Idle());
        Path p0 = net.addPath(A1, Z1);
        Path p1 = net.addPath(A1, Z2);
        Path p2 = net.addPath(A2, Z1);
        Path p3 = net.addPath(A2, Z2);
        assertEquals(List.of(p0, p1, p2, p3), net.paths());
        assertEquals(Optional.of(p1.aToZ()), net.route(Side.A, A1, Z2));
        assertEquals(Optional.of(p2.zToA()), net.route(Side.Z, Z1, A2));
        assertEquals(Optional.empty(), net.route(Side.A, Z1, A1)); // Z's pair, sent by A
        assertEquals("p3:Z>A", p3.zToA().id());
        assertSame(Side.Z, p3.zToA().from());
        assertSame(Side.A, p3.zToA().to());
        assertEquals(8, net.links().size());
        assertThrows(IllegalArgumentException.class, () -> net.addPath(A2, Z1));
    }

    @Test
    void aPacketWhosePairMatchesNoPathIsCountedAndDropped() {
        Toys.Sender a = new Toys.Sender(5, 4, 0, 0, A1, ip("192.0.2.9"));
        Toys.Receiver z = new Toys.Receiver();
        Network net = new Network(1, a, z);
        net.addPath(A1, Z1);
        new Simulator(net).run(1 * S);
        assertEquals(5, net.unroutable(Side.A));
        assertEquals(0, net.unroutable(Side.Z));
        assertEquals(0, net.totals().sent());
        assertTrue(z.tsns.isEmpty());
    }

    @Test
    void multihomedFailoverMovesTrafficToTheSecondPath() {
        Toys.Sender a = new Toys.Sender(100, 4, 0, 1 * MS, A1, Z1);
        Toys.Receiver z = new Toys.Receiver();
        Network net = new Network(1, a, z);
        Path primary = net.addPath(A1, Z1).both(l -> l.delayNanos(5 * MS));
        Path secondary = net.addPath(A2, Z2).both(l -> l.delayNanos(20 * MS));
        primary.downAt(40 * MS);
        Simulator sim = new Simulator(net);
        sim.at(50 * MS, () -> a.via(A2, Z2));
        sim.run(1 * S);
        assertEquals(35, primary.aToZ().stats().delivered()); // sent at 0..34 ms
        assertEquals(15, primary.aToZ().stats().droppedDown()); // sent at 35..49 ms
        assertEquals(50, secondary.aToZ().stats().delivered());
        assertEquals(85, z.tsns.size());
        assertEquals(Z2, z.toAddresses.get(z.toAddresses.size() - 1));
        assertEquals(70 * MS, z.times.get(35)); // TSN 50, sent at 50 ms over 20 ms
        assertEquals(50, z.tsns.get(35));
    }

    /** A run with every impairment on two paths; the trace of what crossed the links. */
    static List<String> trace(long seed) {
        Toys.PingPong a = new Toys.PingPong(A1, Z1, 0, 3 * MS, 2000);
        Toys.PingPong z = new Toys.PingPong(Z1, A1, 1 * MS, 7 * MS, 800);
        Network net = new Network(seed, a, z);
        net.addPath(A1, Z1).both(l -> l.delayNanos(10 * MS)
                .bandwidth(200_000)
                .queueLimit(300)
                .loss(LossModel.gilbert(0.05, 0.3))
                .duplicate(0.02)
                .reorder(0.05, 4 * MS)
                .corrupt(0.01));
        net.addPath(A2, Z2).both(l -> l.loss(LossModel.bernoulli(0.5)));
        Simulator sim = new Simulator(net);
        List<String> out = new ArrayList<>();
        sim.addTap((t, link, src, dst, bytes) ->
                out.add(t + " " + link + " " + src.getHostAddress() + " " + dst.getHostAddress() + " " + hex(bytes)));
        sim.run(10 * S);
        out.add(net.totals().toString());
        return out;
    }

    static String hex(ByteBuffer b) {
        StringBuilder s = new StringBuilder();
        for (int i = b.position(); i < b.limit(); i++) {
            s.append(String.format("%02x", b.get(i)));
        }
        return s.toString();
    }

    @Test
    void theSameSeedGivesTheSameTraceAndAnotherSeedAnother() {
        List<String> first = trace(2024);
        List<String> again = trace(2024);
        assertTrue(first.size() > 2000, "trace of " + first.size());
        assertEquals(first, again);
        assertNotEquals(first, trace(2025));
    }

    @Test
    void addingAPathDoesNotChangeTheRandomnessOfTheOthers() {
        List<List<Integer>> received = new ArrayList<>();
        for (int paths = 1; paths <= 3; paths++) {
            Toys.Sender a = new Toys.Sender(2000, 4, 0, 0, A1, Z1);
            Toys.Receiver z = new Toys.Receiver();
            Network net = new Network(99, a, z);
            net.addPath(A1, Z1).aToZ().loss(LossModel.bernoulli(0.3));
            for (int extra = 1; extra < paths; extra++) {
                net.addPath(ip("10.0.0." + (10 + extra)), Z1).aToZ().loss(LossModel.bernoulli(0.3));
            }
            new Simulator(net).run(1 * S);
            received.add(z.tsns);
        }
        assertEquals(received.get(0), received.get(1));
        assertEquals(received.get(0), received.get(2));
    }
}
