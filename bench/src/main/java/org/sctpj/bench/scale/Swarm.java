package org.sctpj.bench.scale;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.EventHandler;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.wire.Wire;

/**
 * The client side of the scale benchmarks: many protocol-core {@link Endpoint}s, one association
 * each, driven by one thread over UDP encapsulation (RFC 6951), so that one process can hold the
 * 10^5 client ends a one-to-many server needs (an endpoint has at most one association with a
 * given peer endpoint, so every association needs its own client port).
 *
 * <p>Endpoint {@code i} has SCTP port {@code 2000 + i % 60000} on local address {@code 127.0.0.(2 +
 * i / 60000)}; all endpoints of one address share one UDP socket (RFC 6951 lets one UDP port
 * carry every SCTP port), and an inbound datagram goes to the endpoint its SCTP destination port
 * names. Timers: a priority queue of each endpoint's {@link Endpoint#nextTimeout()}. Events are
 * queued during the core call and handed to the {@link Handler} after it, on the same thread.
 *
 * <p>Not thread-safe: everything, the handler included, runs on the thread that calls {@link
 * #runUntil}. It is a load generator, not a stack: a datagram the kernel refuses (full send buffer)
 * is counted and dropped, and the protocol retransmits it.
 */
final class Swarm implements AutoCloseable {

    /** SCTP ports per local address. */
    static final int PORTS_PER_ADDRESS = 60000;

    /** What the swarm tells its user, on the swarm's thread, after the core call that produced it. */
    interface Handler {
        /** An event of endpoint {@code slot} (association changes, received messages, ...). */
        void onEvent(Swarm swarm, int slot, SctpEvent event, long now);

        /** Once per loop turn, after the events: start work (connects, sends). */
        default void onTurn(Swarm swarm, long now) {}
    }

    private final Endpoint[] endpoints;
    private final AssociationId[] ids;
    private final long[] scheduled;
    private final DatagramChannel[] channels;
    private final InetSocketAddress server;
    private final Selector selector;
    private final ByteBuffer in = ByteBuffer.allocateDirect(65535);
    private final ByteBuffer out = ByteBuffer.allocateDirect(65535);
    private final PriorityQueue<long[]> timers = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
    private final ArrayDeque<Object> pending = new ArrayDeque<>();
    private final int[] touched;
    private final boolean[] isTouched;
    private int touchedHead;
    private int touchedCount;
    private long sendDrops;
    private long datagramsIn;
    private long datagramsOut;

    /**
     * {@code n} endpoints talking to the server at {@code serverAddress}, UDP port {@code udpPort}.
     */
    Swarm(int n, SctpOptions options, InetAddress serverAddress, int udpPort) throws IOException {
        endpoints = new Endpoint[n];
        ids = new AssociationId[n];
        scheduled = new long[n];
        touched = new int[n];
        isTouched = new boolean[n];
        server = new InetSocketAddress(serverAddress, udpPort);
        int addresses = (n + PORTS_PER_ADDRESS - 1) / PORTS_PER_ADDRESS;
        channels = new DatagramChannel[addresses];
        selector = Selector.open();
        SctpOptions o = options.toBuilder().encapsulationOverhead(8).build();
        for (int a = 0; a < addresses; a++) {
            InetAddress local = address(a);
            DatagramChannel ch = DatagramChannel.open();
            ch.setOption(StandardSocketOptions.SO_RCVBUF, 16 << 20);
            ch.setOption(StandardSocketOptions.SO_SNDBUF, 16 << 20);
            ch.bind(new InetSocketAddress(local, 0));
            ch.configureBlocking(false);
            ch.register(selector, SelectionKey.OP_READ, a);
            channels[a] = ch;
        }
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < n; i++) {
            final int slot = i;
            Endpoint e = new Endpoint(port(i), List.of(address(i / PORTS_PER_ADDRESS)), o, random.split(), now());
            e.setEventHandler(new EventHandler() {
                @Override
                public void onEvent(SctpEvent event) {
                    pending.add(slot);
                    pending.add(event);
                }
            });
            endpoints[i] = e;
            scheduled[i] = Long.MAX_VALUE;
        }
    }

    static InetAddress address(int a) {
        try {
            return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) (2 + a)});
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static int port(int slot) {
        return 2000 + slot % PORTS_PER_ADDRESS;
    }

    static long now() {
        return System.nanoTime();
    }

    int size() {
        return endpoints.length;
    }

    /** The association of {@code slot} from its last {@link #connect}, or null. */
    AssociationId id(int slot) {
        return ids[slot];
    }

    /** Opens an association from endpoint {@code slot} to the server's SCTP port. */
    void connect(int slot, int serverSctpPort, long now) {
        ids[slot] = endpoints[slot].connect(List.of(server.getAddress()), serverSctpPort, now);
        touch(slot);
    }

    /** Queues {@code data} (position to limit, not consumed) on endpoint {@code slot}'s association. */
    boolean send(int slot, org.sctpj.stack.SendInfo info, ByteBuffer data, long now) {
        boolean ok =
                endpoints[slot].send(ids[slot], info, data.duplicate(), now) == org.sctpj.stack.SendStatus.ACCEPTED;
        touch(slot);
        return ok;
    }

    void shutdown(int slot, long now) {
        endpoints[slot].shutdown(ids[slot], now);
        touch(slot);
    }

    void abort(int slot, long now) {
        endpoints[slot].abort(ids[slot], new byte[0], now);
        touch(slot);
    }

    /** Live associations over all endpoints (a walk: for checks, not the hot path). */
    int liveAssociations() {
        int n = 0;
        for (Endpoint e : endpoints) {
            n += e.associations().size();
        }
        return n;
    }

    long sendDrops() {
        return sendDrops;
    }

    long datagramsIn() {
        return datagramsIn;
    }

    long datagramsOut() {
        return datagramsOut;
    }

    private void touch(int slot) {
        if (!isTouched[slot]) {
            isTouched[slot] = true;
            touched[(touchedHead + touchedCount++) % touched.length] = slot;
        }
    }

    /** Runs the loop until {@code deadline} (nanoTime) or until {@code done} says so. */
    void runUntil(long deadline, java.util.function.BooleanSupplier done, Handler handler) throws IOException {
        while (true) {
            long now = now();
            if (now >= deadline || done.getAsBoolean()) {
                return;
            }
            // 1. Inbound datagrams, each into the endpoint its SCTP destination port names.
            boolean any = false;
            for (int a = 0; a < channels.length; a++) {
                for (int k = 0; k < 256; k++) {
                    in.clear();
                    if (channels[a].receive(in) == null) {
                        break;
                    }
                    any = true;
                    datagramsIn++;
                    in.flip();
                    if (in.remaining() < 12) {
                        continue;
                    }
                    int p = Wire.u16(in, 2) - 2000;
                    int slot = a * PORTS_PER_ADDRESS + p;
                    if (p < 0 || p >= PORTS_PER_ADDRESS || slot >= endpoints.length) {
                        continue;
                    }
                    endpoints[slot].handleInput(in, server.getAddress(), address(a), now);
                    touch(slot);
                    deliver(handler, now);
                }
            }
            // 2. Due timers.
            long[] t;
            while ((t = timers.peek()) != null && t[0] <= now) {
                timers.poll();
                int slot = (int) t[1];
                if (scheduled[slot] != t[0]) {
                    continue; // superseded by an earlier deadline
                }
                scheduled[slot] = Long.MAX_VALUE;
                if (endpoints[slot].nextTimeout() <= now) {
                    endpoints[slot].handleTimeout(now);
                    deliver(handler, now);
                }
                touch(slot);
            }
            // 3. The user's turn, then everything touched: transmit, re-arm its timer.
            handler.onTurn(this, now);
            deliver(handler, now);
            any |= touchedCount > 0;
            flush(handler, now);
            if (!any) {
                long next = timers.isEmpty() ? Long.MAX_VALUE : timers.peek()[0];
                long waitMs = Math.max(1, Math.min(5, (next - now) / 1_000_000));
                selector.select(waitMs);
                selector.selectedKeys().clear();
            }
        }
    }

    private void deliver(Handler handler, long now) {
        Object o;
        while ((o = pending.poll()) != null) {
            int slot = (Integer) o;
            handler.onEvent(this, slot, (SctpEvent) pending.poll(), now);
            touch(slot);
        }
    }

    private void flush(Handler handler, long now) throws IOException {
        while (touchedCount > 0) {
            int slot = touched[touchedHead];
            touchedHead = (touchedHead + 1) % touched.length;
            touchedCount--;
            isTouched[slot] = false;
            Endpoint e = endpoints[slot];
            while (true) {
                out.clear();
                if (e.pollTransmit(out, now) == null) {
                    break;
                }
                datagramsOut++;
                if (channels[slot / PORTS_PER_ADDRESS].send(out, server) == 0) {
                    sendDrops++;
                }
            }
            long d = e.nextTimeout();
            if (d < scheduled[slot]) {
                scheduled[slot] = d;
                timers.add(new long[] {d, slot});
            }
            deliver(handler, now); // may touch this or other endpoints again: they queue behind
        }
    }

    /** Closes the UDP sockets (the endpoints are dropped with the swarm). */
    @Override
    public void close() throws IOException {
        for (DatagramChannel ch : channels) {
            ch.close();
        }
        selector.close();
    }

    /** Endpoints by slot, for checks. */
    List<Endpoint> endpoints() {
        return new ArrayList<>(List.of(endpoints));
    }
}
