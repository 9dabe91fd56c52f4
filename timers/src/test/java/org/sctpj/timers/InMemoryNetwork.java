package org.sctpj.timers;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.sctpj.stack.llp.LowerLayer;

/**
 * Lower layers joined by in-memory queues, for tests: a packet sent to (address, SCTP destination
 * port) lands in the queue of the layer bound there, or is dropped (counted) when none is.
 */
final class InMemoryNetwork {

    private record Key(InetAddress address, int port) {}

    private record Packet(byte[] bytes, InetAddress from, InetAddress to) {}

    private final Map<Key, Layer> bound = new ConcurrentHashMap<>();
    final AtomicLong delivered = new AtomicLong();
    final AtomicLong dropped = new AtomicLong();
    final AtomicLong flushes = new AtomicLong();
    private final boolean holdUntilFlush;

    /** Layers that send each packet at once. */
    InMemoryNetwork() {
        this(false);
    }

    /**
     * @param holdUntilFlush whether layers hold what {@code send} gets until {@code flush} (as a
     *     batching layer may), to check that the driver flushes
     */
    InMemoryNetwork(boolean holdUntilFlush) {
        this.holdUntilFlush = holdUntilFlush;
    }

    /** A layer receiving for SCTP port {@code port} on each of {@code addresses}. */
    Layer open(int port, List<InetAddress> addresses) throws BindException {
        Layer l = new Layer(port, List.copyOf(addresses));
        for (int i = 0; i < addresses.size(); i++) {
            if (bound.putIfAbsent(new Key(addresses.get(i), port), l) != null) {
                for (int j = 0; j < i; j++) {
                    bound.remove(new Key(addresses.get(j), port), l);
                }
                throw new BindException("port " + port + " is in use on " + addresses.get(i));
            }
        }
        return l;
    }

    /** One endpoint's layer. */
    final class Layer implements LowerLayer {
        final int port;
        final List<InetAddress> addresses;
        private final ConcurrentLinkedQueue<Packet> inbox = new ConcurrentLinkedQueue<>();
        /** ICMP reports to hand to the sink on the next receive, as a layer with IP_RECVERR would. */
        final ConcurrentLinkedQueue<org.sctpj.stack.icmp.IcmpReport> icmp = new ConcurrentLinkedQueue<>();
        /** What {@link #receiveDropped()} reports. */
        volatile long kernelDropped;

        private final Semaphore signal = new Semaphore(0);
        private final java.util.ArrayList<Packet> held = new java.util.ArrayList<>();
        private volatile boolean closed;

        Layer(int port, List<InetAddress> addresses) {
            this.port = port;
            this.addresses = addresses;
        }

        @Override
        public void send(ByteBuffer sctp, InetAddress source, InetAddress destination) throws IOException {
            if (closed) {
                throw new ClosedChannelException();
            }
            if (holdUntilFlush) {
                byte[] copy = new byte[sctp.remaining()];
                sctp.get(copy);
                held.add(new Packet(copy, source, destination));
                return;
            }
            deliver(sctp, source, destination);
        }

        @Override
        public void flush() throws IOException {
            flushes.incrementAndGet();
            for (Packet pk : held) {
                deliver(ByteBuffer.wrap(pk.bytes()), pk.from(), pk.to());
            }
            held.clear();
        }

        private void deliver(ByteBuffer sctp, InetAddress source, InetAddress destination) {
            int p = sctp.position();
            if (sctp.remaining() < 4) {
                dropped.incrementAndGet(); // no destination port to route by
                return;
            }
            int dstPort = ((sctp.get(p + 2) & 0xff) << 8) | (sctp.get(p + 3) & 0xff);
            Layer target = bound.get(new Key(destination, dstPort));
            if (target == null || target.closed) {
                dropped.incrementAndGet();
                return;
            }
            byte[] copy = new byte[sctp.remaining()];
            sctp.get(copy);
            target.inbox.add(new Packet(copy, source, destination));
            target.signal.release();
            delivered.incrementAndGet();
        }

        @Override
        public int receive(PacketSink sink, int max) throws IOException {
            if (closed) {
                throw new ClosedChannelException();
            }
            org.sctpj.stack.icmp.IcmpReport r;
            while ((r = icmp.poll()) != null) {
                sink.icmp(r);
            }
            int n = 0;
            Packet pk;
            while (n < max && (pk = inbox.poll()) != null) {
                sink.packet(ByteBuffer.wrap(pk.bytes()), pk.from(), pk.to());
                n++;
            }
            return n;
        }

        @Override
        public long receiveDropped() {
            return kernelDropped;
        }

        /** Queues an ICMP report for the next receive and wakes the waiting thread. */
        void injectIcmp(org.sctpj.stack.icmp.IcmpReport r) {
            icmp.add(r);
            signal.release();
        }

        @Override
        public void await(long timeoutNanos) throws IOException {
            if (!inbox.isEmpty() || timeoutNanos <= 0) {
                return;
            }
            try {
                signal.tryAcquire(timeoutNanos, TimeUnit.NANOSECONDS);
                signal.drainPermits();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void wakeup() {
            signal.release();
        }

        @Override
        public int encapsulationOverhead() {
            return 0;
        }

        @Override
        public void close() {
            closed = true;
            for (InetAddress a : addresses) {
                bound.remove(new Key(a, port), this);
            }
        }

        boolean isClosed() {
            return closed;
        }
    }
}
