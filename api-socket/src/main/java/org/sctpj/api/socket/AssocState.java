package org.sctpj.api.socket;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.sctpj.stack.AssociationId;

/** One association as the socket API tracks it; written on the stack thread, read anywhere. */
final class AssocState {

    static final int CONNECTING = 0;
    static final int UP = 1;
    /** The peer shut down: nothing more will arrive; our sends are refused. */
    static final int PEER_SHUTDOWN = 2;
    /** This side shut down: our sends are refused; messages may still arrive. */
    static final int LOCAL_SHUTDOWN = 3;

    static final int ENDED = 4;

    final Core core;
    final AssociationId id;
    /** The peer's SCTP port: given to connect, or read from the core for an association a peer started. */
    volatile int peerPort;

    volatile int phase = CONNECTING;
    /** Run on every state change (set by the server channel that queued it for accept). */
    volatile Runnable onStateChange;

    volatile SctpjAssociation view;
    volatile InetSocketAddress primary;
    volatile List<InetSocketAddress> remotes = List.of();
    volatile Inbox inbox;
    volatile String endReason = "";
    /** shutdown() was called on this association: later sends throw ClosedChannelException. */
    volatile boolean localShutdown;
    /** Messages application threads sent, on their way to the stack thread. */
    final SendRing sends = new SendRing(this);
    /** Stack thread only: bytes of received messages ever queued for the application. */
    long queuedIn;
    /** Stack thread only: {@link #read} as it last looked at it. */
    long seenRead;
    /** Bytes of received messages the application has read (written by readers only). */
    final AtomicLong read = new AtomicLong();
    /** Bytes the application read and {@link #consumed} has not released to the core yet. */
    private final AtomicLong unreleased = new AtomicLong();

    // Send-space waiting: the stack thread bumps the epoch after every SACK that frees space.
    private final Object spaceLock = new Object();
    private volatile long spaceEpoch;
    private volatile int spaceWaiters;
    private volatile long minWanted = Long.MAX_VALUE;
    /**
     * Bytes of the message a non-blocking send could not place (0: none): the channel is not
     * writable (OP_WRITE) until the stack frees that much.
     */
    private volatile long blockedBytes;
    /**
     * Free send-buffer bytes below which a blocked sender is not woken yet (see {@link
     * #spaceFreed}): a quarter of the send buffer, at most 256 KiB.
     */
    private final long wakeLowWater;

    AssocState(Core core, AssociationId id, int peerPort, Inbox inbox) {
        this.core = core;
        // core null: a stand-in of the unit tests, whose reads are only counted
        this.wakeLowWater = core == null ? 0 : Math.min(256 * 1024, core.sctpOptions.sendBufferBytes() / 4);
        this.id = id;
        this.peerPort = peerPort;
        this.inbox = inbox;
    }

    boolean ended() {
        return phase == ENDED;
    }

    /**
     * Application thread: a message of {@code bytes} was read; its bytes go back to the receive
     * window, in batches: once {@link Core#releaseBatchBytes} were read since the last release,
     * or at once when the reader has {@code caughtUp} (nothing else is queued for it, so it may
     * wait next and must not hold back a window the peer needs to send more). A release is a
     * command to the stack thread, which wakes it when it sleeps: one per message measured up
     * to one stack-thread wake-up per message read.
     */
    void consumed(int bytes, boolean caughtUp) {
        read.addAndGet(bytes);
        if (core == null) {
            return;
        }
        long u = unreleased.addAndGet(bytes);
        if (caughtUp || u >= core.releaseBatchBytes) {
            long r = unreleased.getAndSet(0);
            if (r > 0) {
                core.released(this, r);
            }
        }
    }

    long spaceEpoch() {
        return spaceEpoch;
    }

    /**
     * Stack thread: a SACK freed space, or the stack thread took messages from the send ring
     * (which a sender may have counted twice for a moment); the core has {@code coreFree} bytes
     * free. A sender blocked for
     * want of space (a blocking send waiting, or a non-blocking one waiting for OP_WRITE) is told
     * only once {@code free} reaches the larger of what it wants and {@link #wakeLowWater}: waking
     * it as soon as one message fits measured one thread wake-up per SACK (the sender placed a
     * message or two and blocked again); with the low-water mark it places a batch per wake-up,
     * as TCP's writers are woken at a third of the send buffer. Every SACK that frees space comes
     * here, the last of a transfer with the whole buffer free, so the mark is always reached.
     */
    void spaceFreed(long coreFree) {
        spaceEpoch++; // single writer: the stack thread
        // What a sender can take is the core's free space less what waits in the send ring: with
        // the core's figure alone, a sender whose ring held as much as the core had free was
        // woken by every SACK and found no room (a wait every 28 messages at 1000 B, the ring
        // holding 320 KB of the core's 320 KB free, measured).
        long free = coreFree - sends.waiting();
        long b = blockedBytes;
        if (b > 0 && free >= Math.max(b, wakeLowWater)) {
            clearSendBlocked();
        }
        if (spaceWaiters > 0 && free >= Math.max(minWanted, wakeLowWater)) {
            synchronized (spaceLock) {
                spaceLock.notifyAll();
            }
        }
    }

    /** Whether a non-blocking send found no space and the stack has not freed enough since. */
    boolean sendBlocked() {
        return blockedBytes > 0;
    }

    /**
     * Application thread: a non-blocking send of {@code bytes} found no space; {@code freeNow} is
     * read after this is recorded, so that space the stack freed in between is not missed.
     */
    synchronized void markSendBlocked(long bytes, java.util.function.LongSupplier freeNow) {
        if (blockedBytes == 0) {
            Inbox in = inbox;
            if (in != null) {
                in.blockedSenders.incrementAndGet();
            }
        }
        blockedBytes = Math.max(1, bytes);
        if (freeNow.getAsLong() >= bytes) {
            clearSendBlocked();
        }
    }

    /** Stack thread: the association's messages go to {@code to} from now on (peel-off). */
    synchronized void moveTo(Inbox to) {
        Inbox from = inbox;
        if (blockedBytes > 0) {
            if (from != null) {
                from.blockedSenders.decrementAndGet();
                from.signal();
            }
            to.blockedSenders.incrementAndGet();
        }
        inbox = to;
    }

    /** Any thread: the association is writable again (space freed, or it ended); tells the selectors. */
    synchronized void clearSendBlocked() {
        if (blockedBytes == 0) {
            return;
        }
        blockedBytes = 0;
        Inbox in = inbox;
        if (in != null) {
            in.blockedSenders.decrementAndGet();
            in.signal();
        }
    }

    /** Wakes send and connect waiters, and an acceptor waiting for this association to come up. */
    void wakeAll() {
        if (phase == ENDED) {
            clearSendBlocked();
        }
        synchronized (spaceLock) {
            spaceEpoch++;
            spaceLock.notifyAll();
        }
        Runnable r = onStateChange;
        if (r != null) {
            r.run();
        }
        synchronized (this) {
            notifyAll();
        }
        Inbox in = inbox;
        if (in != null) {
            in.wake();
        }
    }

    /**
     * Waits until space may have been freed since {@code epoch} (for a message of {@code bytes}),
     * the association changed, or {@code deadline} (System.nanoTime; 0: none) passed.
     *
     * @return false if the deadline passed
     */
    boolean awaitSpace(long epoch, int bytes, long deadline) throws InterruptedException {
        synchronized (spaceLock) {
            spaceWaiters++;
            if (bytes < minWanted) {
                minWanted = bytes;
            }
            try {
                while (spaceEpoch == epoch && !ended() && !core.isClosed()) {
                    if (deadline == 0) {
                        spaceLock.wait();
                    } else {
                        long left = deadline - System.nanoTime();
                        if (left <= 0) {
                            return false;
                        }
                        spaceLock.wait(left / 1_000_000, (int) (left % 1_000_000));
                    }
                }
                return true;
            } finally {
                if (--spaceWaiters == 0) {
                    minWanted = Long.MAX_VALUE;
                }
            }
        }
    }

    /** Waits while the association is being set up; false if {@code deadline} (0: none) passed. */
    synchronized boolean awaitSetup(long deadline) throws InterruptedException {
        while (phase == CONNECTING && !core.isClosed()) {
            if (deadline == 0) {
                wait();
            } else {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                wait(left / 1_000_000, (int) (left % 1_000_000));
            }
        }
        return true;
    }

    /** Waits until the association ended; false if {@code deadline} passed. */
    synchronized boolean awaitEnd(long deadline) throws InterruptedException {
        while (phase != ENDED && !core.isClosed()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(left / 1_000_000, (int) (left % 1_000_000));
        }
        return true;
    }
}
