package org.sctpj.nativeio;

import static org.sctpj.nativeio.Layout.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import jnr.ffi.Pointer;

/**
 * The wait of a lower layer's {@code await}/{@code wakeup}: {@code ppoll} on its sockets and on an
 * eventfd of its own that {@link #wakeup} writes to. Everything is allocated when it opens; a wait
 * and a wakeup allocate nothing.
 *
 * <p>Threads: the owner thread calls {@link #await} and {@link #close}; {@link #wakeup} may be
 * called from any thread.
 */
public final class Poller {
    private final LibC libc;
    private final String what;
    private final int eventFd;
    private int pollCount;
    private ByteBuffer pollFds;
    private Pointer pollFdsPtr;
    private final ByteBuffer timespec;
    private final Pointer timespecPtr;
    private final ByteBuffer drain;
    private final Pointer drainPtr;
    private final ByteBuffer one;
    private final Pointer onePtr;
    private volatile boolean closed;

    /**
     * Opens the eventfd and prepares to wait for {@code fds} to be readable.
     *
     * @param what the file descriptors' name in messages, e.g. "the raw sockets"
     * @throws IOException if the C library cannot be bound or eventfd fails
     */
    public Poller(int[] fds, String what) throws IOException {
        this.libc = Native.libc();
        this.what = what;
        int efd = libc.eventfd(0, Linux.EFD_NONBLOCK | Linux.EFD_CLOEXEC);
        if (efd < 0) {
            throw new IOException("eventfd failed: " + Native.describe(Native.errno()));
        }
        this.eventFd = efd;
        setFds(fds);
        timespec = Native.allocate(TIMESPEC_SIZE);
        timespecPtr = Native.pointer(timespec);
        drain = Native.allocate(8);
        drainPtr = Native.pointer(drain);
        one = Native.allocate(8);
        one.putLong(0, 1);
        onePtr = Native.pointer(one);
    }

    /**
     * Waits for {@code fds} from now on (the lower layer's sockets changed: an address added or
     * removed after it opened). Owner thread, between two waits; allocates the new poll set.
     */
    public void setFds(int[] fds) {
        int count = fds.length + 1;
        ByteBuffer b = Native.allocate(count * POLLFD_SIZE);
        for (int i = 0; i < count; i++) {
            b.putInt(i * POLLFD_SIZE + POLL_FD, i < fds.length ? fds[i] : eventFd);
            b.putShort(i * POLLFD_SIZE + POLL_EVENTS, Linux.POLLIN);
        }
        pollFdsPtr = Native.pointer(b);
        pollFds = b;
        pollCount = count;
    }

    /**
     * Blocks until one of the file descriptors is readable, {@link #wakeup} was called (since the
     * last return), a signal interrupts, or {@code timeoutNanos} pass ({@link Long#MAX_VALUE}: no
     * limit; 0 or less: do not block). A wakeup is consumed.
     *
     * @throws IOException if ppoll fails for another reason than EINTR
     */
    public void await(long timeoutNanos) throws IOException {
        for (int i = 0; i < pollCount; i++) {
            pollFds.putShort(i * POLLFD_SIZE + POLL_REVENTS, (short) 0);
        }
        Pointer timeout = null;
        if (timeoutNanos < Long.MAX_VALUE) {
            long t = Math.max(0, timeoutNanos);
            timespec.putLong(TV_SEC, t / 1_000_000_000L);
            timespec.putLong(TV_NSEC, t % 1_000_000_000L);
            timeout = timespecPtr;
        }
        int r = libc.ppoll(pollFdsPtr, pollCount, timeout, null);
        if (r < 0) {
            int errno = Native.errno();
            if (errno == Linux.EINTR) {
                return;
            }
            throw new IOException("ppoll on " + what + " failed: " + Native.describe(errno));
        }
        if (pollFds.getShort((pollCount - 1) * POLLFD_SIZE + POLL_REVENTS) != 0) {
            libc.read(eventFd, drainPtr, 8); // resets the counter; EAGAIN if another read won
        }
    }

    /**
     * Whether the last {@link #await} found an error pending on the {@code i}-th file descriptor
     * (POLLERR: for a socket with IP_RECVERR, an entry on its error queue); the flag is cleared, so
     * that the caller reads the queue once per wait.
     */
    public boolean takeError(int i) {
        return take(i, Linux.POLLERR);
    }

    /**
     * Whether the last {@link #await} found the {@code i}-th file descriptor readable (POLLIN); the
     * flag is cleared, so that the caller reads it once per wait.
     */
    public boolean takeReadable(int i) {
        return take(i, Linux.POLLIN);
    }

    /** Whether the last wait set {@code bit} for the {@code i}-th descriptor; clears it. */
    private boolean take(int i, short bit) {
        if (i < 0 || i >= pollCount - 1) {
            return false;
        }
        int at = i * POLLFD_SIZE + POLL_REVENTS;
        short revents = pollFds.getShort(at);
        if ((revents & bit) == 0) {
            return false;
        }
        pollFds.putShort(at, (short) (revents & ~bit));
        return true;
    }

    /** Makes a concurrent or the next {@link #await} return. Any thread; nothing after {@link #close}. */
    public void wakeup() {
        if (!closed) {
            libc.write(eventFd, onePtr, 8);
        }
    }

    /** Closes the eventfd (the sockets are the caller's). Closing twice is harmless. */
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        libc.close(eventFd);
    }
}
