package org.sctpj.stack.pathmgmt;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.random.RandomGenerator;
import org.sctpj.stack.assoc.TimerKind;
import org.sctpj.stack.assoc.TimerTable;
import org.sctpj.stack.wire.Bytes;

/**
 * Heartbeat state per destination (RFC 9260 section 8.3): the one HEARTBEAT outstanding (nonce,
 * send time) and the path's {@link TimerKind#HEARTBEAT} deadline in the association's {@link
 * TimerTable}: while a HEARTBEAT is outstanding, when it times out; otherwise when the next one is
 * due. The Heartbeat Information we send is opaque to the peer: path index, a random 64-bit nonce,
 * the send time and the destination address, so an acknowledgement can be matched, timed and
 * checked against forgery.
 */
final class Heartbeats {
    static final long NONE = TimerTable.NONE;

    private final TimerTable timers;
    private boolean[] outstanding = new boolean[0];
    private long[] nonce = new long[0];
    private long[] sentAt = new long[0];

    /** Heartbeats whose deadlines live in {@code timers}. */
    Heartbeats(TimerTable timers) {
        this.timers = timers;
    }

    /** Makes room for {@code n} paths; new ones are due at {@code firstDue}. */
    void ensure(int n, long firstDue) {
        int old = outstanding.length;
        if (n <= old) {
            return;
        }
        outstanding = Arrays.copyOf(outstanding, n);
        nonce = Arrays.copyOf(nonce, n);
        sentAt = Arrays.copyOf(sentAt, n);
        for (int i = old; i < n; i++) {
            timers.start(TimerKind.HEARTBEAT, i, firstDue);
        }
    }

    /** When the next HEARTBEAT on path i is due; {@link #NONE} while one is outstanding. */
    long due(int i) {
        return outstanding[i] ? NONE : timers.deadline(TimerKind.HEARTBEAT, i);
    }

    /** When the outstanding HEARTBEAT on path i times out; {@link #NONE} when none is. */
    long timeout(int i) {
        return outstanding[i] ? timers.deadline(TimerKind.HEARTBEAT, i) : NONE;
    }

    boolean outstanding(int i) {
        return outstanding[i];
    }

    /**
     * The next HEARTBEAT on path i is due at {@code at}. While one is outstanding this does nothing:
     * the path's deadline is then the timeout, and the answer or the timeout schedules the next.
     */
    void schedule(int i, long at) {
        if (!outstanding[i]) {
            timers.start(TimerKind.HEARTBEAT, i, at);
        }
    }

    /** Records a HEARTBEAT sent on path i and returns its Heartbeat Information. */
    Bytes send(int i, InetAddress dest, long now, long rto, RandomGenerator random) {
        long n = random.nextLong();
        nonce[i] = n;
        sentAt[i] = now;
        outstanding[i] = true;
        timers.start(TimerKind.HEARTBEAT, i, now + rto);
        byte[] addr = dest.getAddress();
        ByteBuffer b = ByteBuffer.allocate(4 + 8 + 8 + 1 + addr.length);
        b.putInt(i).putLong(n).putLong(now).put((byte) addr.length).put(addr);
        return Bytes.of(b.array());
    }

    /** The timed-out heartbeat on path i is given up; nothing is due until {@link #schedule}. */
    void expire(int i) {
        outstanding[i] = false;
        timers.start(TimerKind.HEARTBEAT, i, NONE);
    }

    /**
     * Matches a HEARTBEAT ACK's information: returns the path index and fills {@code rtt[0]}, or
     * -1 if it is not the answer to our outstanding heartbeat (unknown, stale or forged). A match
     * leaves nothing due until {@link #schedule}.
     */
    int match(Bytes info, long now, long[] rtt) {
        if (info.length() < 21) {
            return -1;
        }
        ByteBuffer b = info.asReadOnlyBuffer();
        int i = b.getInt();
        long n = b.getLong();
        long sent = b.getLong();
        if (i < 0 || i >= outstanding.length || !outstanding[i] || nonce[i] != n || sentAt[i] != sent) {
            return -1;
        }
        outstanding[i] = false;
        timers.start(TimerKind.HEARTBEAT, i, NONE);
        rtt[0] = now - sent;
        return i;
    }
}
