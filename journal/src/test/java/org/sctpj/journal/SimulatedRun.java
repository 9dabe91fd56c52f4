package org.sctpj.journal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.sctpj.sim.EndpointNode;
import org.sctpj.sim.LinkStats;
import org.sctpj.sim.LossModel;
import org.sctpj.sim.Network;
import org.sctpj.sim.Simulator;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;

/**
 * A seeded simulated run of two recorded endpoints: A connects to Z over a path with 20 ms delay
 * and loss, and sends {@code messages} messages of 1000 bytes from its event callback (calls made by
 * a handler, which the journal must mark as nested); Z polls its events (the other delivery route).
 */
final class SimulatedRun {

    static final long MS = 1_000_000L;
    static final long S = 1_000 * MS;

    final Path dirA;
    final Path dirZ;
    int delivered;
    /** Settings for both recorders. */
    java.util.function.UnaryOperator<JournalRecorder.Builder> settings = b -> b;

    LinkStats totals;
    /** A's options. */
    SctpOptions optionsA = SctpOptions.DEFAULTS;
    /** Z's options. */
    SctpOptions optionsZ = SctpOptions.DEFAULTS;
    /** The probability that a packet has a bit flipped on its way, each way. */
    double corrupt;
    /** Runs on A once it is created, before it connects (e.g. to set an address policy). */
    java.util.function.Consumer<Endpoint> setupA = ep -> {};

    SimulatedRun(Path dirA, Path dirZ) {
        this.dirA = dirA;
        this.dirZ = dirZ;
    }

    static InetAddress ip(String s) {
        try {
            return InetAddress.getByName(s);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    SimulatedRun run(long seed, double loss, int messages) throws IOException {
        InetAddress a1 = ip("10.0.0.1");
        InetAddress z1 = ip("10.0.1.1");
        try (JournalRecorder ra = settings.apply(JournalRecorder.builder(dirA).lowerLayer("sim"))
                        .open();
                JournalRecorder rz = settings.apply(
                                JournalRecorder.builder(dirZ).lowerLayer("sim"))
                        .open()) {
            Endpoint a = new Endpoint(5000, List.of(a1), optionsA, new SplittableRandom(seed), 0, ra);
            setupA.accept(a);
            Endpoint z = new Endpoint(5001, List.of(z1), optionsZ, new SplittableRandom(seed + 1), 0, rz);
            z.listen(true);
            EndpointNode na = new EndpointNode(a).useBufferTransmit();
            EndpointNode nz = new EndpointNode(z);
            int[] sent = {0};
            na.onEvent(e -> {
                if (e instanceof SctpEvent.AssociationChange c
                        && c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP) {
                    pump(na, c.association(), sent, messages);
                } else if (e instanceof SctpEvent.SendSpaceAvailable s) {
                    pump(na, s.association(), sent, messages);
                }
            });
            na.useEventHandler();
            nz.onEvent(e -> {
                if (e instanceof SctpEvent.MessageReceived) {
                    delivered++;
                }
            });
            Network net = new Network(seed, na, nz);
            net.addPath(a1, z1).both(l -> l.delayNanos(20 * MS)
                    .bandwidth(20_000_000)
                    .loss(LossModel.bernoulli(loss))
                    .corrupt(corrupt));
            Simulator sim = new Simulator(net);
            sim.at(0, () -> a.connect(List.of(z1), 5001, 0));
            sim.runUntil(() -> delivered == messages, 120 * S);
            sim.run(sim.now() + 2 * S);
            totals = net.totals();
        }
        return this;
    }

    private static void pump(EndpointNode n, AssociationId id, int[] sent, int messages) {
        Endpoint ep = n.endpoint();
        ep.setSendThreshold(id, 20_000);
        while (sent[0] < messages) {
            ByteBuffer m = ByteBuffer.allocate(1000);
            m.putInt(0, sent[0]);
            if (ep.send(id, SendInfo.of(0, 7), m, n.now()) != SendStatus.ACCEPTED) {
                return;
            }
            sent[0]++;
        }
    }

    /**
     * A short handshake and {@code messages} messages between two endpoints driven by hand (no
     * simulator), with {@code rec} recording A: for journals of a given kind (headers only).
     */
    static void recordedPair(JournalRecorder rec, int messages) {
        InetAddress a1 = ip("10.0.0.1");
        InetAddress z1 = ip("10.0.1.1");
        Endpoint a = new Endpoint(5000, List.of(a1), SctpOptions.DEFAULTS, new SplittableRandom(5), 0, rec);
        Endpoint z = new Endpoint(5001, List.of(z1), SctpOptions.DEFAULTS, new SplittableRandom(6), 0);
        z.listen(true);
        AssociationId id = a.connect(List.of(z1), 5001, 0);
        long now = 0;
        int sent = 0;
        for (int round = 0; round < 50; round++) {
            now += MS;
            if (a.info(id).map(i -> i.state().equals("ESTABLISHED")).orElse(false) && sent < messages) {
                a.send(id, SendInfo.of(0, 0), ByteBuffer.allocate(800), now);
                sent++;
            }
            exchange(a, z, now);
            exchange(z, a, now);
            while (a.pollEventOrNull() != null) {}
            while (z.pollEventOrNull() != null) {}
        }
    }

    private static void exchange(Endpoint from, Endpoint to, long now) {
        java.util.Optional<org.sctpj.stack.Transmit> t;
        while ((t = from.pollTransmit(now)).isPresent()) {
            to.handleInput(
                    ByteBuffer.wrap(t.get().packet()), t.get().source(), t.get().destination(), now);
        }
    }
}
