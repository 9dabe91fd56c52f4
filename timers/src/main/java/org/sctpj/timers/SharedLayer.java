package org.sctpj.timers;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.sctpj.stack.icmp.IcmpReport;
import org.sctpj.stack.llp.LowerLayer;

/**
 * One lower layer (one socket: one UDP port, or the raw socket) shared by the shards of a sharded
 * endpoint (issue 15), each shard a stack thread with an endpoint of its own: {@link #view}{@code
 * (k)} is the {@link LowerLayer} shard k's endpoint is registered with.
 *
 * <p>The layer itself is used by one thread at a time, under one lock, as the {@link LowerLayer}
 * contract asks. A shard's {@code send} copies the packet into a burst of its own, which its
 * {@code flush} hands to the layer under the lock once; its {@code receive} first hands over what
 * other shards received for it, then reads the socket itself if the lock is free, copying its own
 * packets aside and each other shard's into that shard's inbox (waking it), as {@link Shards#of}
 * names them, and works on its own once the lock is free again. When every other shard sleeps,
 * shard 0 blocks in the socket for all ({@link LowerLayer#await}, with the lock held; a shard that
 * wants the lock meanwhile wakes it first, {@link LowerLayer#wakeup}); while another is awake, it
 * reads for all and shard 0 parks at most 100 us at a time. The other shards, when idle, wait on
 * their inbox.
 *
 * <p>A packet for another shard costs a copy and a hand-over; PERFORMANCE.md ("Scale") has the
 * figures against one shard. The layer is closed when every view is.
 */
public final class SharedLayer {

    private final LowerLayer inner;
    private final ReentrantLock lock = new ReentrantLock();
    private final View[] views;
    private final AtomicInteger open;
    /** Bytes of a shard's own packets of one read kept without allocation (see {@code View.receive}). */
    private static final int SLAB = 256 << 10;

    /** How long shard 0 parks while another shard is awake (it then reads the socket for it). */
    private static final long AWAKE_PARK_NANOS = 100_000;

    /** Shards other than 0 parked in their await. */
    private final AtomicInteger sleeping = new AtomicInteger();

    /** Set while shard 0 blocks in the layer's await with the lock held. */
    private volatile boolean awaiting;

    private SharedLayer(LowerLayer inner, int shards) {
        this.inner = Objects.requireNonNull(inner, "inner");
        this.views = new View[shards];
        for (int k = 0; k < shards; k++) {
            views[k] = new View(k);
        }
        this.open = new AtomicInteger(shards);
    }

    /**
     * Shares {@code inner} among {@code shards} shards.
     *
     * @throws IllegalArgumentException for a count outside 1..1024
     */
    public static SharedLayer share(LowerLayer inner, int shards) {
        if (shards < 1 || shards > 1024) {
            throw new IllegalArgumentException("shards must be 1..1024, was " + shards);
        }
        return new SharedLayer(inner, shards);
    }

    /** The lower layer shard {@code k} uses. */
    public LowerLayer view(int k) {
        return views[k];
    }

    /** The shared layer. Use it only through {@link #locked}. */
    public LowerLayer inner() {
        return inner;
    }

    /** Runs {@code task} with the layer to itself (for settings made on the layer, e.g. a remote UDP port). */
    public void locked(Runnable task) {
        acquire();
        try {
            task.run();
        } finally {
            lock.unlock();
        }
    }

    /** A call into the layer. */
    private interface LayerCall {
        void run() throws IOException;
    }

    /** Runs {@code call} with the lock held (rare calls: the data path takes the lock itself). */
    private void withLock(LayerCall call) throws IOException {
        acquire();
        try {
            call.run();
        } finally {
            lock.unlock();
        }
    }

    /** Takes the lock; wakes shard 0 first if it blocks in the layer with it. */
    private void acquire() {
        if (lock.tryLock()) {
            return;
        }
        try {
            // Asked again every 50 us: shard 0 may go to block in the socket just after a look.
            while (true) {
                if (awaiting) {
                    inner.wakeup();
                }
                if (lock.tryLock(50, java.util.concurrent.TimeUnit.MICROSECONDS)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            lock.lock();
        }
    }

    /** A packet or ICMP report received by one shard for another. */
    private record Parcel(byte[] data, InetAddress from, InetAddress to, int ecn, IcmpReport icmp) {}

    /** Shard k's lower layer. */
    private final class View implements LowerLayer, LowerLayer.PacketSink {
        final int k;
        final ConcurrentLinkedQueue<Parcel> inbox = new ConcurrentLinkedQueue<>();
        volatile Thread waiter;
        volatile boolean wakeupPending;
        volatile boolean closed;

        View(int k) {
            this.k = k;
        }

        @Override
        public void send(ByteBuffer sctp, InetAddress source, InetAddress destination) throws IOException {
            send(sctp, source, destination, 0);
        }

        // A burst of this shard's packets, copied aside until flush() hands it to the layer under
        // the lock once (one lock per burst rather than per packet: with a lock per packet two
        // busy shards queued on each other's sends).
        private final byte[] out = new byte[SLAB];
        private final ByteBuffer outView = ByteBuffer.wrap(out);
        private int outUsed;
        private int outCount;
        private int[] outEnd = new int[16];
        private int[] outEcn = new int[16];
        private InetAddress[] outSource = new InetAddress[16];
        private InetAddress[] outDestination = new InetAddress[16];

        @Override
        public void send(ByteBuffer sctp, InetAddress source, InetAddress destination, int ecn) throws IOException {
            int len = sctp.remaining();
            if (outUsed + len > SLAB) {
                flush();
                if (len > SLAB) {
                    withLock(() -> inner.send(sctp, source, destination, ecn));
                    return;
                }
            }
            if (outCount == outEnd.length) {
                int m = outCount * 2;
                outEnd = java.util.Arrays.copyOf(outEnd, m);
                outEcn = java.util.Arrays.copyOf(outEcn, m);
                outSource = java.util.Arrays.copyOf(outSource, m);
                outDestination = java.util.Arrays.copyOf(outDestination, m);
            }
            sctp.get(sctp.position(), out, outUsed, len);
            outUsed += len;
            outEnd[outCount] = outUsed;
            outEcn[outCount] = ecn;
            outSource[outCount] = source;
            outDestination[outCount] = destination;
            outCount++;
        }

        @Override
        public void flush() throws IOException {
            if (outCount == 0) {
                return;
            }
            acquire();
            try {
                int start = 0;
                for (int i = 0; i < outCount; i++) {
                    outView.limit(outEnd[i]).position(start);
                    start = outEnd[i];
                    try {
                        inner.send(outView, outSource[i], outDestination[i], outEcn[i]);
                    } catch (IOException e) {
                        if (i == outCount - 1) {
                            throw e;
                        }
                    }
                    outSource[i] = null;
                    outDestination[i] = null;
                }
                inner.flush();
            } finally {
                outCount = 0;
                outUsed = 0;
                lock.unlock();
            }
        }

        @Override
        public int receive(PacketSink sink, int max) throws IOException {
            int n = 0;
            Parcel p;
            while (n < max && (p = inbox.poll()) != null) {
                deliver(sink, p);
                n++;
            }
            if (n < max && lock.tryLock()) {
                // Read under the lock, copying this shard's packets aside too, so that the lock is
                // free again while this shard works on them (the others may send meanwhile). What
                // other shards handed over is taken first, under the same lock: they read it before
                // this read (a hand-over happens under the lock), so the shard sees its packets in
                // the order the socket gave them.
                try {
                    ownCount = 0;
                    slabUsed = 0;
                    while ((p = inbox.poll()) != null) {
                        own[nextOwn()] = p;
                    }
                    inner.receive(this, max - n);
                } finally {
                    lock.unlock();
                }
                for (int i = 0; i < ownCount; i++) {
                    Parcel q = own[i];
                    own[i] = null;
                    if (q != null) {
                        deliver(sink, q);
                    } else {
                        slabView.limit(ownEnd[i]).position(ownStart[i]);
                        InetAddress from = ownFrom[i];
                        InetAddress to = ownTo[i];
                        ownFrom[i] = null;
                        ownTo[i] = null;
                        sink.packet(slabView, from, to, ownEcn[i]);
                    }
                    n++;
                }
                ownCount = 0;
            }
            return n;
        }

        private void deliver(PacketSink sink, Parcel p) {
            if (p.icmp != null) {
                sink.icmp(p.icmp);
            } else {
                sink.packet(ByteBuffer.wrap(p.data), p.from, p.to, p.ecn);
            }
        }

        // Where this shard's own packets of one read wait for the lock to be let go: copied into a
        // slab (no allocation), or, when the slab is full, into a parcel of their own.
        private final byte[] slab = new byte[SLAB];
        private final ByteBuffer slabView = ByteBuffer.wrap(slab);
        private int slabUsed;
        private int ownCount;
        private Parcel[] own = new Parcel[16];
        private int[] ownStart = new int[16];
        private int[] ownEnd = new int[16];
        private int[] ownEcn = new int[16];
        private InetAddress[] ownFrom = new InetAddress[16];
        private InetAddress[] ownTo = new InetAddress[16];

        private int nextOwn() {
            if (ownCount == own.length) {
                int m = ownCount * 2;
                own = java.util.Arrays.copyOf(own, m);
                ownStart = java.util.Arrays.copyOf(ownStart, m);
                ownEnd = java.util.Arrays.copyOf(ownEnd, m);
                ownEcn = java.util.Arrays.copyOf(ownEcn, m);
                ownFrom = java.util.Arrays.copyOf(ownFrom, m);
                ownTo = java.util.Arrays.copyOf(ownTo, m);
            }
            return ownCount++;
        }

        // The sink the shared layer reads into: each packet to the shard it belongs to.

        @Override
        public void packet(ByteBuffer sctp, InetAddress from, InetAddress to) {
            packet(sctp, from, to, 0);
        }

        @Override
        public void packet(ByteBuffer sctp, InetAddress from, InetAddress to, int ecn) {
            int owner = Shards.of(sctp, from, views.length);
            int len = sctp.remaining();
            if (owner == k && slabUsed + len <= SLAB) {
                int i = nextOwn();
                sctp.get(sctp.position(), slab, slabUsed, len);
                ownStart[i] = slabUsed;
                ownEnd[i] = slabUsed + len;
                ownEcn[i] = ecn;
                ownFrom[i] = from;
                ownTo[i] = to;
                slabUsed += len;
                return;
            }
            byte[] copy = new byte[len];
            sctp.get(sctp.position(), copy);
            Parcel p = new Parcel(copy, from, to, ecn, null);
            if (owner == k) {
                own[nextOwn()] = p;
            } else {
                views[owner].handOver(p);
            }
        }

        @Override
        public void icmp(IcmpReport report) {
            int owner = Shards.ofPeer(report.destination(), report.destinationPort(), views.length);
            Parcel p = new Parcel(null, null, null, 0, report);
            if (owner == k) {
                own[nextOwn()] = p;
            } else {
                views[owner].handOver(p);
            }
        }

        void handOver(Parcel p) {
            if (closed) {
                return;
            }
            inbox.offer(p);
            wakeup();
        }

        @Override
        public void await(long timeoutNanos) throws IOException {
            flush(); // what this shard holds goes before it sleeps (the LowerLayer contract)
            if (!inbox.isEmpty() || wakeupPending) {
                wakeupPending = false;
                return;
            }
            if (k == 0 && sleeping.get() == views.length - 1) {
                // Every other shard sleeps: shard 0 blocks in the socket, for all of them.
                lock.lock();
                try {
                    if (!inbox.isEmpty() || wakeupPending || lock.hasQueuedThreads()) {
                        return;
                    }
                    awaiting = true;
                    try {
                        // Checked again after awaiting is set: a waker sets wakeupPending first,
                        // then looks at awaiting, so one of the two sees the other.
                        if (!lock.hasQueuedThreads() && !wakeupPending && inbox.isEmpty()) {
                            inner.await(timeoutNanos);
                        }
                    } finally {
                        awaiting = false;
                    }
                } finally {
                    wakeupPending = false;
                    lock.unlock();
                }
                return;
            }
            // Another shard is awake and reads the socket for all (shard 0 among them): wait for
            // a hand-over, briefly when this is shard 0 (the others may go to sleep meanwhile).
            waiter = Thread.currentThread();
            if (k != 0) {
                sleeping.incrementAndGet();
            }
            try {
                if (inbox.isEmpty() && !wakeupPending) {
                    LockSupport.parkNanos(this, k == 0 ? Math.min(timeoutNanos, AWAKE_PARK_NANOS) : timeoutNanos);
                }
            } finally {
                if (k != 0) {
                    sleeping.decrementAndGet();
                }
                waiter = null;
                wakeupPending = false;
            }
        }

        @Override
        public void wakeup() {
            wakeupPending = true;
            if (k == 0 && awaiting) {
                inner.wakeup(); // only when blocked in the socket: a system call per hand-over otherwise
            }
            Thread t = waiter;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }

        @Override
        public int encapsulationOverhead() {
            return inner.encapsulationOverhead();
        }

        @Override
        public long receiveDropped() {
            return k == 0 ? inner.receiveDropped() : 0;
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            try {
                flush();
            } catch (IOException e) {
                // closing anyway
            }
            closed = true;
            inbox.clear();
            if (open.decrementAndGet() == 0) {
                withLock(inner::close);
            }
        }

        @Override
        public void addAddress(InetAddress address) throws IOException {
            withLock(() -> inner.addAddress(address));
        }

        @Override
        public void removeAddress(InetAddress address) throws IOException {
            withLock(() -> inner.removeAddress(address));
        }

        @Override
        public LowerLayer inner() {
            return inner;
        }

        @Override
        public String toString() {
            return "shard " + k + " of " + views.length + " over " + inner;
        }
    }

    /** The views, for tests. */
    List<LowerLayer> views() {
        return new ArrayList<>(List.of(views));
    }
}
