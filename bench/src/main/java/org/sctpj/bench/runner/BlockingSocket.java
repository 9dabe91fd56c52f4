package org.sctpj.bench.runner;

import java.nio.ByteBuffer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.sctpj.api.callback.CallbackSocket;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;

/**
 * The benchmark's stand-in for a blocking socket API (until the {@code api-socket} module lands):
 * a user thread calls {@link #send}, which blocks while the send buffer is full, and {@link
 * #receive}, which blocks until a message arrives; underneath, a {@link CallbackSocket} whose
 * callbacks (on the stack thread) queue received messages and signal send space. This is the
 * structure of the thesis's socket API: a hand-over and a wake-up per call, and a lock.
 */
final class BlockingSocket {
    private final CallbackSocket socket;
    private final BlockingQueue<SctpEvent.MessageReceived> inbox = new LinkedBlockingQueue<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition space = lock.newCondition();
    private long spaceGeneration;

    BlockingSocket(CallbackSocket socket) {
        this.socket = socket;
    }

    /** Called by the receive callback (stack thread). */
    void delivered(SctpEvent.MessageReceived m) {
        inbox.add(m);
    }

    /** Called by the send callback (stack thread). */
    void spaceFreed() {
        lock.lock();
        try {
            spaceGeneration++;
            space.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Sends one message, blocking while the send buffer cannot take it. */
    void send(AssociationId id, SendInfo info, ByteBuffer data) throws InterruptedException {
        socket.setSendThreshold(Math.min(data.remaining(), socket.options().sendBufferBytes()));
        for (; ; ) {
            long gen;
            lock.lock();
            try {
                gen = spaceGeneration;
            } finally {
                lock.unlock();
            }
            if (socket.send(id, info, data) == SendStatus.ACCEPTED) {
                return;
            }
            lock.lock();
            try {
                while (spaceGeneration == gen) {
                    if (!space.await(10, TimeUnit.MILLISECONDS)) {
                        break; // look again: the association may have ended
                    }
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /** The next message, waiting up to {@code timeoutNanos}; null on timeout. */
    SctpEvent.MessageReceived receive(long timeoutNanos) throws InterruptedException {
        return inbox.poll(timeoutNanos, TimeUnit.NANOSECONDS);
    }
}
