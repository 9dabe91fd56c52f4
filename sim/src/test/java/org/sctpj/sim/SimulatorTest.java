package org.sctpj.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.sim.Toys.MS;
import static org.sctpj.sim.Toys.S;
import static org.sctpj.sim.Toys.ip;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulatorTest {

    static final InetAddress A1 = ip("10.0.0.1");
    static final InetAddress Z1 = ip("10.0.1.1");

    @Test
    void delaysAddUpExactlyOverARoundTrip() {
        Toys.PingPong a = new Toys.PingPong(A1, Z1, 0, 100 * MS, 5);
        Toys.PingPong z = new Toys.PingPong(Z1, A1, Long.MAX_VALUE, 100 * MS, 0);
        Network net = new Network(1, a, z);
        Path p = net.addPath(A1, Z1);
        p.aToZ().delayNanos(10 * MS);
        p.zToA().delayNanos(15 * MS + 7);
        Simulator sim = new Simulator(net);
        sim.run(1 * S);
        assertEquals(List.of(25 * MS + 7, 25 * MS + 7, 25 * MS + 7, 25 * MS + 7, 25 * MS + 7), a.rtts);
        assertEquals(5, z.pongsAnswered);
        assertEquals(1 * S, sim.now());
    }

    @Test
    void clockJumpsToEachEventAndStopsAtTheLimit() {
        Toys.Sender a = new Toys.Sender(3, 10, 5 * MS, 10 * MS, A1, Z1);
        Toys.Receiver z = new Toys.Receiver();
        Network net = new Network(1, a, z);
        net.addPath(A1, Z1).aToZ().delayNanos(2 * MS);
        Simulator sim = new Simulator(net);
        sim.run(17 * MS); // sends at 5 and 15; arrivals at 7 and 17 (inclusive)
        assertEquals(List.of(5 * MS, 15 * MS), a.sendTimes);
        assertEquals(List.of(7 * MS, 17 * MS), z.times);
        sim.run(1 * S);
        assertEquals(List.of(7 * MS, 17 * MS, 27 * MS), z.times);
        // 3 timeouts + 3 arrivals, nothing else
        assertEquals(6, sim.steps());
    }

    @Test
    void runUntilStopsWhenDoneOrAtTheLimit() {
        Toys.Sender a = new Toys.Sender(10, 10, 0, 10 * MS, A1, Z1);
        Toys.Receiver z = new Toys.Receiver();
        Network net = new Network(1, a, z);
        net.addPath(A1, Z1).aToZ().delayNanos(1 * MS);
        Simulator sim = new Simulator(net);
        assertTrue(sim.runUntil(() -> z.tsns.size() == 3, 1 * S));
        assertEquals(21 * MS, sim.now());
        assertFalse(sim.runUntil(() -> z.tsns.size() == 11, 2 * S));
        assertEquals(2 * S, sim.now());
        assertEquals(10, z.tsns.size());
    }

    @Test
    void actionsRunAtTheirTimeInScheduleOrderAndTheNodesAreDrainedAfter() {
        Toys.Sender a = new Toys.Sender(0, 10, 0, 0, A1, Z1);
        Toys.Receiver z = new Toys.Receiver();
        Network net = new Network(1, a, z);
        net.addPath(A1, Z1).aToZ().delayNanos(3 * MS);
        Simulator sim = new Simulator(net);
        List<String> log = new ArrayList<>();
        sim.at(20 * MS, () -> log.add("second@" + sim.now()));
        sim.at(10 * MS, () -> log.add("first@" + sim.now()));
        sim.at(20 * MS, () -> log.add("third@" + sim.now()));
        sim.run(100 * MS);
        assertEquals(List.of("first@10000000", "second@20000000", "third@20000000"), log);
        assertThrows(IllegalArgumentException.class, () -> sim.at(50 * MS, () -> {}));
    }

    @Test
    void aUserCallFromAnActionIsSentAtOnce() {
        Toys.Sender a = new Toys.Sender(2, 10, Long.MAX_VALUE, 0, A1, Z1);
        Toys.Receiver z = new Toys.Receiver();
        Network net = new Network(1, a, z);
        net.addPath(A1, Z1).aToZ().delayNanos(3 * MS);
        Simulator sim = new Simulator(net);
        sim.at(30 * MS, () -> a.nextSend = sim.now());
        sim.run(100 * MS);
        assertEquals(List.of(0, 1), z.tsns);
        assertEquals(List.of(33 * MS, 33 * MS), z.times);
    }

    @Test
    void tiesAreBrokenInSendOrder() {
        Toys.Sender a = new Toys.Sender(50, 10, 0, 0, A1, Z1);
        Toys.Receiver z = new Toys.Receiver();
        Network net = new Network(1, a, z);
        net.addPath(A1, Z1).aToZ().delayNanos(1 * MS);
        new Simulator(net).run(1 * S);
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            expected.add(i);
        }
        assertEquals(expected, z.tsns);
    }

    @Test
    void aNodeThatNeverMovesItsDeadlineStopsTheRunWithAClearMessage() {
        SimNode stuck = new Toys.Idle() {
            @Override
            public long nextTimeout() {
                return 5 * MS;
            }
        };
        Simulator sim = new Simulator(new Network(1, stuck, new Toys.Idle()));
        SimulationStalledException e = assertThrows(SimulationStalledException.class, () -> sim.run(1 * S));
        assertTrue(e.getMessage().contains("node A: nextTimeout()"), e.getMessage());
        assertEquals(5 * MS, sim.now());
    }

    @Test
    void endlessExchangeAtOneInstantIsReportedAsAStall() {
        SimNode echo = new Toys.Idle() {
            ByteBuffer pending;

            @Override
            public void handleInput(ByteBuffer packet, InetAddress from, InetAddress to, long nowNanos) {
                pending = packet;
            }

            @Override
            public Outgoing pollTransmit(long nowNanos) {
                ByteBuffer p = pending;
                pending = null;
                return p == null ? null : new Outgoing(p, Z1, A1);
            }
        };
        SimNode mirror = new Toys.Idle() { // A side: sends back whatever arrives, for ever
                    ByteBuffer pending = ByteBuffer.wrap(Toys.dataPacket(0, 4));

                    @Override
                    public void handleInput(ByteBuffer packet, InetAddress from, InetAddress to, long nowNanos) {
                        pending = packet;
                    }

                    @Override
                    public Outgoing pollTransmit(long nowNanos) {
                        ByteBuffer p = pending;
                        pending = null;
                        return p == null ? null : new Outgoing(p, A1, Z1);
                    }
                };
        Network net = new Network(1, mirror, echo);
        net.addPath(A1, Z1); // zero delay both ways
        Simulator sim = new Simulator(net).maxStepsPerInstant(10_000);
        SimulationStalledException e = assertThrows(SimulationStalledException.class, () -> sim.run(1 * S));
        assertTrue(e.getMessage().contains("without time moving"), e.getMessage());
    }

    @Test
    void runningFromInsideTheSimulationIsRefused() {
        Simulator sim = new Simulator(new Network(1, new Toys.Idle(), new Toys.Idle()));
        List<Throwable> caught = new ArrayList<>();
        sim.at(1 * MS, () -> {
            try {
                sim.run(2 * MS);
            } catch (IllegalStateException e) {
                caught.add(e);
            }
        });
        sim.run(10 * MS);
        assertEquals(1, caught.size());
        assertThrows(IllegalArgumentException.class, () -> sim.run(5 * MS));
    }

    @Test
    void tapsSeeWhatEachLinkDelivers() {
        Toys.PingPong a = new Toys.PingPong(A1, Z1, 0, 10 * MS, 2);
        Toys.PingPong z = new Toys.PingPong(Z1, A1, Long.MAX_VALUE, 10 * MS, 0);
        Network net = new Network(1, a, z);
        net.addPath(A1, Z1).both(l -> l.delayNanos(1 * MS));
        Simulator sim = new Simulator(net);
        List<String> seen = new ArrayList<>();
        sim.addTap((t, link, src, dst, bytes) -> seen.add(t / MS + "ms " + link + " " + src.getHostAddress() + ">"
                + dst.getHostAddress() + " " + bytes.remaining() + (bytes.isReadOnly() ? " ro" : "")));
        sim.run(1 * S);
        assertEquals(
                List.of(
                        "1ms p0:A>Z 10.0.0.1>10.0.1.1 36 ro",
                        "2ms p0:Z>A 10.0.1.1>10.0.0.1 36 ro",
                        "11ms p0:A>Z 10.0.0.1>10.0.1.1 36 ro",
                        "12ms p0:Z>A 10.0.1.1>10.0.0.1 36 ro"),
                seen);
    }

    @Test
    void aSimulatedMinuteWithTimersRunsFast() {
        // the first run pays for JIT warm-up; the second shows the steady speed and the same result
        LinkStats first = minute();
        assertEquals(first, minute());
    }

    private static LinkStats minute() {
        InetAddress a2 = ip("10.0.0.2");
        InetAddress z2 = ip("10.0.1.2");
        Toys.PingPong a = new Toys.PingPong(A1, Z1, 0, 10 * MS, Integer.MAX_VALUE);
        Toys.PingPong z = new Toys.PingPong(Z1, A1, 5 * MS, 10 * MS, Integer.MAX_VALUE);
        Network net = new Network(7, a, z);
        net.addPath(A1, Z1)
                .both(l -> l.delayNanos(20 * MS).bandwidth(10_000_000).loss(LossModel.bernoulli(0.01)));
        net.addPath(a2, z2).both(l -> l.delayNanos(40 * MS));
        Simulator sim = new Simulator(net);
        long t0 = System.nanoTime();
        sim.run(60 * S);
        long realMs = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf(
                "60 s simulated in %d ms of real time: %d steps, %d pings each way, totals %s%n",
                realMs, sim.steps(), a.sent, net.totals());
        assertEquals(60 * S, sim.now());
        assertEquals(6001, a.sent); // at 0, 10 ms, ..., 60 s inclusive
        assertEquals(6000, z.sent); // at 5 ms, 15 ms, ..., 59.995 s
        assertTrue(a.rtts.size() > 5800 && a.rtts.size() < 6000, "rtts " + a.rtts.size());
        return net.totals();
    }
}
