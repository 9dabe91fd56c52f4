package org.sctpj.llp.udp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The {@link ReceiveMode#RECEIVE_THREAD} reader of one socket: a daemon thread blocks in {@code
 * receive()} and publishes each datagram into a single-producer single-consumer ring of
 * preallocated slots, each with its own direct buffer (the pool: a slot's buffer goes back to the
 * reader when the stack thread has handed it to the sink). When the ring is full the reader waits,
 * and the socket's receive buffer absorbs the backlog, as it would for a busy stack thread.
 */
final class ReceiveThread implements Runnable {

    /** One queued datagram. */
    static final class Slot {
        final ByteBuffer buffer;
        InetSocketAddress from;

        Slot(int capacity) {
            buffer = ByteBuffer.allocateDirect(capacity);
        }
    }

    private final DatagramChannel channel;
    private final UdpEncapsulation owner;
    private final Slot[] slots;
    private final int mask;
    /** Next slot the reader fills; written by the reader only. */
    private final AtomicLong tail = new AtomicLong();
    /** Next slot the stack thread takes; written by the stack thread only. */
    private final AtomicLong head = new AtomicLong();

    private final Thread thread;
    private volatile boolean readerWaiting;
    volatile long droppedZeroPort;
    volatile long queueFullWaits;
    private volatile IOException failure;

    ReceiveThread(DatagramChannel channel, UdpEncapsulation owner, int depth, int capacity, String name) {
        this.channel = channel;
        this.owner = owner;
        this.slots = new Slot[depth];
        for (int i = 0; i < depth; i++) {
            slots[i] = new Slot(capacity);
        }
        this.mask = depth - 1;
        this.thread = new Thread(this, name);
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    @Override
    public void run() {
        long t = 0;
        try {
            while (channel.isOpen()) {
                while (t - head.get() == slots.length) {
                    queueFullWaits++;
                    readerWaiting = true;
                    if (t - head.get() == slots.length) {
                        LockSupport.park(this);
                    }
                    readerWaiting = false;
                    if (!channel.isOpen()) {
                        return;
                    }
                }
                Slot s = slots[(int) t & mask];
                ByteBuffer b = s.buffer;
                b.clear();
                InetSocketAddress from = (InetSocketAddress) channel.receive(b);
                if (from == null) {
                    continue;
                }
                if (from.getPort() == 0) {
                    droppedZeroPort++;
                    continue;
                }
                b.flip();
                s.from = from;
                tail.set(++t); // volatile write publishes the slot's contents
                owner.signalStackThread();
            }
        } catch (ClosedChannelException e) {
            // closed by close(): the normal end
        } catch (IOException e) {
            failure = e;
            owner.signalStackThread();
        }
    }

    /** True when a datagram is waiting (stack thread). */
    boolean hasPacket() {
        return tail.get() != head.get();
    }

    /**
     * Hands at most {@code max} queued datagrams to {@code handler} (stack thread).
     *
     * @return the number handed over
     */
    int drain(UdpEncapsulation.Delivery handler, InetAddress local, int max) throws IOException {
        IOException f = failure;
        if (f != null) {
            throw new IOException("the receive thread of " + local + " failed: " + f.getMessage(), f);
        }
        long h = head.get();
        long end = tail.get();
        int n = 0;
        while (h != end && n < max) {
            Slot s = slots[(int) h & mask];
            handler.deliver(s.buffer, s.from, local);
            s.from = null;
            head.set(++h);
            n++;
        }
        if (n > 0 && readerWaiting) {
            LockSupport.unpark(thread);
        }
        return n;
    }

    /** Wakes the reader if it waits for room, so that it notices the closed channel. */
    void stop() throws InterruptedException {
        LockSupport.unpark(thread);
        thread.join(1000);
    }
}
