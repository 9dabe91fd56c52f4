package org.sctpj.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The endpoint's bookkeeping ({@link Schedule}: the ready queue and the deadline heap) against a
 * walk of every association, after every step of random runs: two server endpoints and six client
 * endpoints, each client with an association to each server, over a lossy, reordering network on
 * a virtual clock, with random user commands (connect, send with and without partial reliability,
 * shutdown, abort, deferred receive release, stream resets, added streams, thresholds) and echoes
 * sent from inside an event handler. After every step each endpoint is drained the way a driver
 * does, then {@link Endpoint#checkBookkeeping} checks that each association's deadline is in the
 * heap exactly, that {@link Endpoint#nextTimeout()} is the minimum over all associations, and that
 * a poll of every association finds nothing the ready queue did not offer (a lost wake-up).
 *
 * <p>It fails when an entry point forgets to tell the bookkeeping (checked by leaving out, one at a
 * time, the touch of {@code releaseReceived}, of the timer runs, of a packet's association, the
 * deadline re-read after a poll, and the lifetime timer of PR-SCTP's time-to-live policy: each
 * fails within the first two seeds).
 */
class EndpointBookkeepingTest {

    private static final int CLIENTS = 6;
    private static final int SEEDS = 40;
    private static final int STEPS = 1000;

    private static final class Node {
        final Endpoint ep;
        final InetAddress address;
        final boolean echoInHandler;
        final List<AssociationId> delivered = new ArrayList<>();

        Node(Endpoint ep, InetAddress address, boolean echoInHandler) {
            this.ep = ep;
            this.address = address;
            this.echoInHandler = echoInHandler;
        }
    }

    private record InFlight(long at, long seq, byte[] packet, InetAddress from, InetAddress to, int port) {}

    @Test
    void bookkeepingAgreesWithAWalkOfEveryAssociation() throws Exception {
        long[] total = new long[4];
        for (int seed = 1; seed <= SEEDS; seed++) {
            long[] counts = run(seed);
            for (int i = 0; i < total.length; i++) {
                total[i] += counts[i];
            }
        }
        System.out.printf(
                "bookkeeping checked after %d steps: %d packets, %d messages, %d associations up%n",
                total[0], total[1], total[2], total[3]);
        assertTrue(total[1] > 20_000, "the runs moved packets: " + total[1]);
        assertTrue(total[2] > 4_000, "the runs delivered messages: " + total[2]);
    }

    private long[] run(long seed) throws UnknownHostException {
        SplittableRandom r = new SplittableRandom(seed);
        long[] now = {1_000_000_000L};
        SctpOptions base = SctpOptions.LAN.toBuilder()
                .rtoMin(Duration.ofMillis(80))
                .rtoMax(Duration.ofMillis(400))
                .rtoInitial(Duration.ofMillis(100))
                .heartbeatInterval(Duration.ofMillis(300))
                .delayedAckTime(Duration.ofMillis(40))
                .receiveBufferBytes(8192)
                .sendBufferBytes(16384)
                .maxMessageSize(16384)
                .outboundStreams(4)
                .maxInboundStreams(4)
                .deferredReceiveRelease(seed % 2 == 0)
                .noDelay(seed % 3 == 0)
                .enable(Extension.PR_SCTP)
                .enable(Extension.RECONFIG)
                .build();
        SctpOptions opts =
                seed % 4 == 1 ? base.toBuilder().enable(Extension.I_DATA).build() : base;
        InetAddress serverAddr = InetAddress.getByAddress(new byte[] {10, 0, 0, 1});
        List<Node> nodes = new ArrayList<>();
        List<Node> servers = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            Endpoint ep =
                    new Endpoint(5000 + s, List.of(serverAddr), opts, new SplittableRandom(seed * 31 + s), now[0]);
            ep.listen(true);
            Node n = new Node(ep, serverAddr, s == 0);
            servers.add(n);
            nodes.add(n);
        }
        for (int c = 0; c < CLIENTS; c++) {
            InetAddress a = InetAddress.getByAddress(new byte[] {10, 0, 1, (byte) (c + 1)});
            nodes.add(new Node(
                    new Endpoint(6000, List.of(a), opts, new SplittableRandom(seed * 131 + c), now[0]), a, false));
        }
        for (Node n : nodes) {
            if (n.echoInHandler) {
                n.ep.setEventHandler(new EventHandler() {
                    @Override
                    public void onEvent(SctpEvent event) {}

                    @Override
                    public void onMessage(
                            AssociationId association, int streamId, int ppid, boolean unordered, ByteBuffer data) {
                        n.delivered.add(association);
                        int len = Math.min(data.remaining(), 200);
                        try {
                            n.ep.send(
                                    association,
                                    SendInfo.of(streamId, ppid),
                                    data.slice().limit(len),
                                    now[0]);
                        } catch (IllegalStateException | IllegalArgumentException e) {
                            // shutting down, or a stream being reset: no echo
                        }
                        n.ep.releaseReceived(association, data.remaining());
                    }
                });
            }
        }
        PriorityQueue<InFlight> net =
                new PriorityQueue<>((x, y) -> x.at != y.at ? Long.compare(x.at, y.at) : Long.compare(x.seq, y.seq));
        long[] seq = {0};
        long[] moved = {0, 0, 0};
        ByteBuffer buf = ByteBuffer.allocate(65535);
        ByteBuffer scratch = ByteBuffer.allocate(65535);
        double loss = r.nextDouble() * 0.15;
        Runnable drainAll = () -> {
            for (Node n : nodes) {
                drain(n, r, net, seq, moved, now[0], loss, buf);
            }
        };
        int step = 0;
        for (; step < STEPS; step++) {
            int op = r.nextInt(100);
            Node n = nodes.get(r.nextInt(nodes.size()));
            List<AssociationId> ids = n.ep.associations();
            AssociationId id = ids.isEmpty() ? null : ids.get(r.nextInt(ids.size()));
            try {
                if (op < 8 && !servers.contains(n)) {
                    Node s = servers.get(r.nextInt(servers.size()));
                    n.ep.connect(List.of(s.address), s.ep.localPort(), now[0]);
                } else if (op < 40 && id != null) {
                    int len = 1 + r.nextInt(r.nextInt(10) == 0 ? 12000 : 1200);
                    SendInfo info = new SendInfo(r.nextInt(4), op, r.nextInt(5) == 0, r.nextInt(7) == 0);
                    if (r.nextInt(6) == 0) {
                        info = info.withPrPolicy(
                                r.nextBoolean()
                                        ? PrPolicy.timeToLive(1 + r.nextInt(300))
                                        : PrPolicy.maxRetransmissions(1));
                    }
                    n.ep.send(id, info, ByteBuffer.allocate(len), now[0]);
                } else if (op < 43 && id != null) {
                    n.ep.shutdown(id, now[0]);
                } else if (op < 45 && id != null) {
                    n.ep.abort(id, new byte[] {1}, now[0]);
                } else if (op < 55 && id != null) {
                    n.ep.releaseReceived(id, 1 + r.nextInt(6000));
                } else if (op < 58 && id != null) {
                    n.ep.resetStreams(id, new int[] {r.nextInt(4)}, r.nextBoolean(), true, now[0]);
                } else if (op < 59 && id != null) {
                    n.ep.addStreams(id, 1, r.nextInt(2), now[0]);
                } else if (op < 61 && id != null) {
                    n.ep.setSendThreshold(id, r.nextInt(16384));
                } else if (op < 75) {
                    // A little time passes (less than a delay on the network): packets arrive.
                    now[0] += r.nextLong(3_000_000L);
                    deliverDue(nodes, net, now[0], 1 + r.nextInt(8));
                    runDue(nodes, now[0]);
                } else {
                    // Time passes: to a random instant, at most to the next packet or deadline
                    // (sometimes just short of it), then what is due runs.
                    long next = net.isEmpty() ? Long.MAX_VALUE : net.peek().at;
                    for (Node x : nodes) {
                        next = Math.min(next, x.ep.nextTimeout());
                    }
                    long to = now[0] + 1 + r.nextLong(400_000_000L);
                    if (next != Long.MAX_VALUE && next > now[0]) {
                        to = Math.min(to, r.nextInt(4) == 0 ? next - 1 : next);
                    }
                    now[0] = Math.max(now[0], to);
                    deliverDue(nodes, net, now[0], Integer.MAX_VALUE);
                    runDue(nodes, now[0]);
                }
            } catch (IllegalStateException | IllegalArgumentException e) {
                // a command the association's state refuses (not established, shutting down, ...)
            }
            drainAll.run();
            if (r.nextInt(3) > 0) {
                now[0] += r.nextLong(2_000_000L);
                deliverDue(nodes, net, now[0], Integer.MAX_VALUE);
                runDue(nodes, now[0]);
                drainAll.run();
            }
            for (Node x : nodes) {
                SctpEvent ev;
                while ((ev = x.ep.pollEventOrNull()) != null) {
                    if (ev instanceof SctpEvent.MessageReceived) {
                        moved[1]++;
                    } else if (ev instanceof SctpEvent.AssociationChange c
                            && c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP) {
                        moved[2]++;
                    }
                }
                String err = x.ep.checkBookkeeping(scratch, now[0]);
                assertNull(
                        err,
                        "seed " + seed + " step " + step + " op " + op + " on " + n.address + " endpoint " + x.address
                                + ":" + x.ep.localPort());
            }
        }
        // Let everything run out: all associations end, and the heap and the queue empty.
        for (Node n : nodes) {
            for (AssociationId id : n.ep.associations()) {
                n.ep.abort(id, new byte[] {2}, now[0]);
            }
        }
        for (int i = 0; i < 1000 && (!net.isEmpty() || anyTimer(nodes)); i++) {
            drainAll.run();
            long next = net.isEmpty() ? Long.MAX_VALUE : net.peek().at;
            for (Node x : nodes) {
                next = Math.min(next, x.ep.nextTimeout());
            }
            now[0] = Math.max(now[0], next);
            deliverDue(nodes, net, now[0], Integer.MAX_VALUE);
            runDue(nodes, now[0]);
        }
        drainAll.run();
        for (Node x : nodes) {
            assertEquals(List.of(), x.ep.associations(), "seed " + seed);
            assertEquals(Long.MAX_VALUE, x.ep.nextTimeout(), "seed " + seed);
            assertNull(x.ep.checkBookkeeping(scratch, now[0]));
            assertEquals(0, x.ep.scheduleForTest().heapSize(), "seed " + seed + ": heap left");
        }
        return new long[] {step, moved[0], moved[1] + servers.get(0).delivered.size(), moved[2]};
    }

    /** The driver's contract: whenever the clock reaches an endpoint's deadline, its timers run. */
    private static void runDue(List<Node> nodes, long now) {
        for (Node x : nodes) {
            if (x.ep.nextTimeout() <= now) {
                x.ep.handleTimeout(now);
            }
        }
    }

    private static boolean anyTimer(List<Node> nodes) {
        for (Node n : nodes) {
            if (n.ep.nextTimeout() != Long.MAX_VALUE) {
                return true;
            }
        }
        return false;
    }

    /** What a driver does after every call: every packet out (into the network, maybe lost). */
    private static void drain(
            Node n,
            SplittableRandom r,
            PriorityQueue<InFlight> net,
            long[] seq,
            long[] moved,
            long now,
            double loss,
            ByteBuffer buf) {
        while (true) {
            buf.clear();
            InetAddress d = n.ep.pollTransmit(buf, now);
            if (d == null) {
                return;
            }
            moved[0]++;
            if (r.nextDouble() < loss) {
                continue;
            }
            byte[] p = new byte[buf.remaining()];
            buf.get(p);
            int port = ((p[2] & 0xff) << 8) | (p[3] & 0xff);
            long delay = 1_000_000L + r.nextLong(20_000_000L);
            net.add(new InFlight(now + delay, seq[0]++, p, n.address, d, port));
            if (r.nextInt(50) == 0) {
                net.add(new InFlight(now + delay + 3_000_000L, seq[0]++, p.clone(), n.address, d, port));
            }
        }
    }

    /** Hands up to {@code max} packets due by {@code now} to their endpoints. */
    private static void deliverDue(List<Node> nodes, PriorityQueue<InFlight> net, long now, int max) {
        for (int k = 0; k < max && !net.isEmpty() && net.peek().at <= now; k++) {
            InFlight f = net.poll();
            for (Node n : nodes) {
                if (n.address.equals(f.to) && n.ep.localPort() == f.port) {
                    n.ep.handleInput(ByteBuffer.wrap(f.packet), f.from, f.to, now);
                }
            }
        }
    }
}
