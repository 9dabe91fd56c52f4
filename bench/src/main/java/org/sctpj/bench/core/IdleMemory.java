package org.sctpj.bench.core;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.wire.Wire;

/**
 * Heap held by idle associations in the protocol core: one listening endpoint and {@code n}
 * client endpoints in one thread (no sockets, no stack thread), every client with one
 * established association to the server, no data sent. Heap in use is read after full
 * collections ({@code System.gc()}, several times, then {@code MemoryMXBean}):
 *
 * <ul>
 *   <li>both ends of one association: (heap with the associations - heap with the same endpoints
 *       unconnected) / n;
 *   <li>the server's side alone: the heap freed by dropping the server endpoint, minus an empty
 *       endpoint, / n;
 *   <li>an empty endpoint: the heap of 1,000 unconnected endpoints / 1,000.
 * </ul>
 *
 * <pre>java -cp bench/target/benchmarks.jar org.sctpj.bench.core.IdleMemory [n]</pre>
 */
public final class IdleMemory {
    private IdleMemory() {}

    private static final MemoryMXBean MEM = ManagementFactory.getMemoryMXBean();
    private static final InetAddress LOCAL = InetAddress.getLoopbackAddress();

    private static long heap() throws InterruptedException {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(100);
            best = Math.min(best, MEM.getHeapMemoryUsage().getUsed());
        }
        return best;
    }

    private static Endpoint endpoint(int port, SctpOptions o, long seed) {
        return new Endpoint(port, List.of(LOCAL), o, new SplittableRandom(seed), 0);
    }

    /** Measures and prints the figures. */
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        SctpOptions o = SctpOptions.LAN.toBuilder().encapsulationOverhead(8).build();

        long e0 = heap();
        List<Endpoint> empties = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            empties.add(endpoint(20000 + i, o, i));
        }
        long e1 = heap();
        double empty = (e1 - e0) / 1000.0;
        empties.clear();

        Map<Integer, Endpoint> byPort = new HashMap<>();
        Endpoint server = endpoint(5001, o, 1);
        server.listen(true);
        byPort.put(5001, server);
        List<Endpoint> clients = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Endpoint c = endpoint(10000 + i, o, 100 + i);
            clients.add(c);
            byPort.put(10000 + i, c);
        }
        long h0 = heap();
        long now = 0;
        List<AssociationId> ids = new ArrayList<>();
        ByteBuffer out = ByteBuffer.allocate(65535);
        int up = 0;
        // In batches of 100: the server queues at most 256 packets of its own (INIT ACKs) at a time.
        for (int from = 0; from < n; from += 100) {
            for (Endpoint c : clients.subList(from, Math.min(n, from + 100))) {
                ids.add(c.connect(List.of(LOCAL), 5001, now));
            }
            int target = 2 * Math.min(n, from + 100);
            for (int round = 0; round < 50 && up < target; round++) {
                now += 1_000_000;
                for (Endpoint e : byPort.values()) {
                    // As the stack thread does: every packet built into one caller-owned buffer.
                    while (true) {
                        out.clear();
                        if (e.pollTransmit(out, now) == null) {
                            break;
                        }
                        Endpoint to = byPort.get(Wire.u16(out, out.position() + 2));
                        to.handleInput(out, LOCAL, LOCAL, now);
                    }
                }
                for (Endpoint e : byPort.values()) {
                    Optional<SctpEvent> ev;
                    while ((ev = e.pollEvent()).isPresent()) {
                        if (ev.get() instanceof SctpEvent.AssociationChange ch
                                && ch.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP) {
                            up++;
                        }
                    }
                }
            }
        }
        if (up < 2 * n) {
            throw new IllegalStateException("only " + up + " of " + 2 * n + " association ends came up");
        }
        long h1 = heap();
        byPort.remove(5001);
        server = null;
        long h2 = heap();
        double both = (h1 - h0) / (double) n;
        double serverSide = (h1 - h2 - empty) / n;
        System.out.printf(
                Locale.ROOT,
                "IDLE-MEMORY associations=%d bytes_per_association_both_ends=%.0f server_side=%.0f"
                        + " client_side=%.0f empty_endpoint=%.0f (heap used after GC: %d -> %d -> %d)%n",
                n,
                both,
                serverSide,
                both - serverSide,
                empty,
                h0,
                h1,
                h2);
        if (clients.size() != n || ids.size() != n) {
            throw new AssertionError();
        }
    }
}
