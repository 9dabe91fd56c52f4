package org.sctpj.stack.assoc;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.random.RandomGenerator;
import org.sctpj.stack.wire.Bytes;

/**
 * Heartbeat state per destination (RFC 9260 section 8.3): when the next HEARTBEAT is due, the one
 * outstanding (nonce, send time) and its timeout. The Heartbeat Information we send is opaque to
 * the peer: path index, a random 64-bit nonce, the send time and the destination address, so an
 * acknowledgement can be matched, timed and checked against forgery.
 */
final class Heartbeats {
    static final long NONE = Long.MAX_VALUE;

    private long[] due = new long[0];
    private long[] timeout = new long[0];
    private long[] nonce = new long[0];
    private long[] sentAt = new long[0];

    /** Makes room for {@code n} paths; new ones are due at {@code firstDue}. */
    void ensure(int n, long firstDue) {
        int old = due.length;
        if (n <= old) {
            return;
        }
        due = Arrays.copyOf(due, n);
        timeout = Arrays.copyOf(timeout, n);
        nonce = Arrays.copyOf(nonce, n);
        sentAt = Arrays.copyOf(sentAt, n);
        for (int i = old; i < n; i++) {
            due[i] = firstDue;
            timeout[i] = NONE;
        }
    }

    long due(int i) {
        return due[i];
    }

    long timeout(int i) {
        return timeout[i];
    }

    boolean outstanding(int i) {
        return timeout[i] != NONE;
    }

    void schedule(int i, long at) {
        due[i] = at;
    }

    /** Records a HEARTBEAT sent on path i and returns its Heartbeat Information. */
    Bytes send(int i, InetAddress dest, long now, long rto, RandomGenerator random) {
        long n = random.nextLong();
        nonce[i] = n;
        sentAt[i] = now;
        timeout[i] = now + rto;
        due[i] = NONE;
        byte[] addr = dest.getAddress();
        ByteBuffer b = ByteBuffer.allocate(4 + 8 + 8 + 1 + addr.length);
        b.putInt(i).putLong(n).putLong(now).put((byte) addr.length).put(addr);
        return Bytes.of(b.array());
    }

    /** The timed-out heartbeat on path i is given up. */
    void expire(int i) {
        timeout[i] = NONE;
    }

    /**
     * Matches a HEARTBEAT ACK's information: returns the path index and fills {@code rtt[0]}, or
     * -1 if it is not the answer to our outstanding heartbeat (unknown, stale or forged).
     */
    int match(Bytes info, long now, long[] rtt) {
        if (info.length() < 21) {
            return -1;
        }
        ByteBuffer b = info.asReadOnlyBuffer();
        int i = b.getInt();
        long n = b.getLong();
        long sent = b.getLong();
        if (i < 0 || i >= due.length || timeout[i] == NONE || nonce[i] != n || sentAt[i] != sent) {
            return -1;
        }
        timeout[i] = NONE;
        rtt[0] = now - sent;
        return i;
    }

    /**
     * Earliest heartbeat deadline over all paths: the timeout of an outstanding heartbeat, else
     * when the next is due. While one is outstanding no other is sent on that path, so its due
     * time is no deadline: counted, it would stay due, unserved, until the timeout.
     */
    long next() {
        long m = NONE;
        for (int i = 0; i < due.length; i++) {
            m = Math.min(m, timeout[i] != NONE ? timeout[i] : due[i]);
        }
        return m;
    }
}
