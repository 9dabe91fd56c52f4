package org.sctpj.tests.core;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.sctpj.sim.EndpointNode;
import org.sctpj.sim.Link;
import org.sctpj.sim.Network;
import org.sctpj.sim.Path;
import org.sctpj.sim.Simulator;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;

/**
 * Two sctpj endpoints, A (client, port 5001) and Z (server, port 5002, listening), joined by N
 * simulated paths: path i joins 10.0.(i+1).1 on A to 10.0.(i+1).2 on Z. Everything runs on the
 * simulator's virtual clock in the test's thread.
 */
final class CorePair {
    static final int PORT_A = 5001;
    static final int PORT_Z = 5002;

    final List<InetAddress> addrsA = new ArrayList<>();
    final List<InetAddress> addrsZ = new ArrayList<>();
    final EndpointNode a;
    final EndpointNode z;
    final Network net;
    final Simulator sim;
    AssociationId assocA;

    CorePair(long seed, int paths, SctpOptions oa, SctpOptions oz, Consumer<Link> linkConfig) {
        for (int i = 0; i < paths; i++) {
            addrsA.add(ip(10, 0, i + 1, 1));
            addrsZ.add(ip(10, 0, i + 1, 2));
        }
        Endpoint ea = new Endpoint(PORT_A, addrsA, oa, new SplittableRandom(seed * 31 + 1), 0);
        Endpoint ez = new Endpoint(PORT_Z, addrsZ, oz, new SplittableRandom(seed * 31 + 2), 0);
        ez.listen(true);
        a = new EndpointNode(ea);
        z = new EndpointNode(ez);
        net = new Network(seed, a, z);
        for (int i = 0; i < paths; i++) {
            Path p = net.addPath(addrsA.get(i), addrsZ.get(i));
            p.both(linkConfig);
        }
        sim = new Simulator(net);
    }

    static InetAddress ip(int a, int b, int c, int d) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /** A connects to all of Z's addresses at time {@code at}. */
    CorePair connectAt(long at) {
        sim.at(at, () -> assocA = a.endpoint().connect(addrsZ, PORT_Z, sim.now()));
        return this;
    }

    /** True once the node has seen an association change of this type. */
    static boolean saw(EndpointNode n, SctpEvent.AssociationChangeType type) {
        for (SctpEvent e : n.events()) {
            if (e instanceof SctpEvent.AssociationChange c && c.type() == type) {
                return true;
            }
        }
        return false;
    }

    static long count(EndpointNode n, SctpEvent.AssociationChangeType type) {
        return n.events().stream()
                .filter(e -> e instanceof SctpEvent.AssociationChange c && c.type() == type)
                .count();
    }

    /** The first association id the node saw come up. */
    static AssociationId upId(EndpointNode n) {
        for (SctpEvent e : n.events()) {
            if (e instanceof SctpEvent.AssociationChange c
                    && (c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP)) {
                return c.association();
            }
        }
        throw new AssertionError("no COMMUNICATION_UP in " + n.events());
    }
}
