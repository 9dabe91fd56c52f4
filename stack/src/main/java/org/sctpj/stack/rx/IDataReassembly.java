package org.sctpj.stack.rx;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import org.sctpj.stack.wire.Serial;
import org.sctpj.stack.wire.chunk.IDataChunk;

/**
 * Reassembly and ordered delivery for an association that negotiated I-DATA (RFC 8260 section
 * 2.1), beside the TSN-adjacency reassembly of DATA in {@link DataReceiver}: fragments are put
 * together per message, named by (stream, U bit, Message Identifier), in the order of their
 * Fragment Sequence Numbers, whatever TSNs they came with, so that the fragments of messages of
 * different streams may interleave. Ordered messages are delivered per stream in MID order (32-bit
 * serial arithmetic, RFC 1982), unordered ones as soon as complete; a message is delivered in
 * parts (partial delivery, RFC 9260 section 6.9) per stream, so a large message on one stream does
 * not hold back the others.
 *
 * <p>Fragment numbering: the first fragment (B bit) carries the PPID and has FSN 0; RFC 8260 gives
 * the following fragments FSN 1, 2, ... Linux 6.1 numbers them 0, 1, 2, ... (its second fragment
 * repeats FSN 0, which no fragment without the B bit may carry under the RFC). Both are accepted:
 * a message whose fragments include a non-first fragment with FSN 0 is read with the Linux
 * numbering, and the association then expects it from the peer. Until one or the other is known,
 * a fragment with FSN 1 counts as the one right after the first only once every TSN between the
 * two was received (so it is certain no FSN 0 fragment lies between them); then the peer is known
 * to number as the RFC says. Messages waiting for that proof are checked again after each packet.
 *
 * <p>Hostile or broken input never throws and never holds more than the receive buffer allows
 * (the caller admits each fragment's bytes): a fragment whose FSN is already held for its
 * message, a second first fragment, a fragment after the last one (E bit) or a second, different
 * last one, and an ordered message whose MID was already delivered are dropped and counted as
 * protocol violations ({@link DataReceiver#protocolViolations()}). Fragments that never complete a
 * message stay counted against the receive window until an I-FORWARD-TSN skips them (RFC 8260
 * section 2.3) or the association ends.
 */
final class IDataReassembly {

    /** The key of a message's first fragment (B bit); the others are keyed by their FSN, unsigned. */
    private static final long FIRST = -1;
    /** In {@link Msg#nextKey}: after the first fragment, while the peer's numbering is unknown. */
    private static final long AFTER_FIRST = -2;
    /** In {@link Msg#lastKey} until the last fragment (E bit) is held. */
    private static final long NONE = Long.MIN_VALUE;

    /** How the peer numbers fragments after the first one. */
    private static final int UNKNOWN = 0;

    private static final int RFC = 1;
    private static final int LINUX = 2;

    /** The message of a stream being reassembled: its fragments held, sorted by key. */
    private static final class Msg {
        final int streamId;
        final boolean unordered;
        final int mid;
        int ppid;
        /** The TSN of the first fragment (B bit), once held. */
        int firstTsn;

        long[] keys = new long[4];
        int[] tsns = new int[4];
        byte[][] data = new byte[4][];
        int[] lens = new int[4];
        /** Fragments held. */
        int n;
        /** Fragments at the head of the arrays that are in sequence (from the first, or after parts). */
        int seq;
        /** Bytes of those. */
        long seqBytes;
        /** The key of the fragment that continues the in-sequence run. */
        long nextKey = FIRST;
        /** The key of the last fragment (E bit), once held. */
        long lastKey = NONE;
        /** Bytes held. */
        long bytes;
        /** Being delivered in parts. */
        boolean inParts;
        /** Bytes handed out in parts. */
        long delivered;
        /** Waits for proof of the peer's numbering (see the class comment). */
        boolean suspect;
        /** Its index in its stream's {@link Stream#active}. */
        int index;

        Msg(int streamId, boolean unordered, int mid) {
            this.streamId = streamId;
            this.unordered = unordered;
            this.mid = mid;
        }

        int find(long key) {
            int lo = 0;
            int hi = n - 1;
            while (lo <= hi) {
                int m = (lo + hi) >>> 1;
                if (keys[m] < key) {
                    lo = m + 1;
                } else if (keys[m] > key) {
                    hi = m - 1;
                } else {
                    return m;
                }
            }
            return -(lo + 1);
        }

        void insert(int at, long key, int tsn, byte[] d, int len) {
            if (n == keys.length) {
                int c = n * 2;
                keys = Arrays.copyOf(keys, c);
                tsns = Arrays.copyOf(tsns, c);
                data = Arrays.copyOf(data, c);
                lens = Arrays.copyOf(lens, c);
            }
            System.arraycopy(keys, at, keys, at + 1, n - at);
            System.arraycopy(tsns, at, tsns, at + 1, n - at);
            System.arraycopy(data, at, data, at + 1, n - at);
            System.arraycopy(lens, at, lens, at + 1, n - at);
            keys[at] = key;
            tsns[at] = tsn;
            data[at] = d;
            lens[at] = len;
            n++;
            bytes += len;
        }

        /** Removes the first {@code k} fragments (their arrays were given back by the caller). */
        void dropHead(int k) {
            System.arraycopy(keys, k, keys, 0, n - k);
            System.arraycopy(tsns, k, tsns, 0, n - k);
            System.arraycopy(data, k, data, 0, n - k);
            System.arraycopy(lens, k, lens, 0, n - k);
            Arrays.fill(data, n - k, n, null);
            n -= k;
            seq -= k;
        }

        boolean complete() {
            return lastKey != NONE && seq == n && n > 0 && keys[n - 1] == lastKey;
        }
    }

    /** One inbound stream's ordering state. */
    private static final class Stream {
        /** The MID of the next ordered message to deliver. */
        int nextMid;
        /** The stream's messages being reassembled (in any order). */
        final ArrayList<Msg> active = new ArrayList<>(0);
        /** Complete ordered messages waiting for an earlier MID; null until one. */
        PendingMessages pending;
        /** The message of this stream being delivered in parts, or null. */
        Msg partial;
        /**
         * Complete unordered messages of the stream (and, after a skip, ordered ones it released)
         * waiting for the end of {@link #partial}; null until one.
         */
        ArrayDeque<ReceivedMessage> waiting;
    }

    private final DataReceiver r;
    private int inboundStreams;
    private final HashMap<Long, Msg> messages = new HashMap<>();
    private Stream[] streams;
    private int numbering = UNKNOWN;
    private final ArrayList<Msg> suspects = new ArrayList<>();
    private final List<DataReceiver.PartialDelivery> aborted = new ArrayList<>();

    IDataReassembly(DataReceiver r, int inboundStreams) {
        this.r = r;
        this.inboundStreams = inboundStreams;
        this.streams = new Stream[Math.min(inboundStreams, 16)];
    }

    private static long key(int streamId, boolean unordered, int mid) {
        return ((long) streamId << 33) | (unordered ? 1L << 32 : 0) | Integer.toUnsignedLong(mid);
    }

    private static long fragmentKey(int flags, int ppidOrFsn) {
        return (flags & IDataChunk.FLAG_B) != 0 ? FIRST : Integer.toUnsignedLong(ppidOrFsn);
    }

    private Stream stream(int id) {
        if (id >= streams.length) {
            streams = Arrays.copyOf(streams, Math.min(inboundStreams, Math.max(id + 1, streams.length * 2)));
        }
        Stream s = streams[id];
        if (s == null) {
            s = new Stream();
            streams[id] = s;
        }
        return s;
    }

    /** Streams added by the peer (RFC 6525 section 5.2.5): their MIDs start at 0. */
    void setInboundStreams(int n) {
        inboundStreams = n;
    }

    /**
     * The peer reset its outgoing streams {@code ids} (every stream when empty; RFC 6525 section
     * 5.2.2, with the MIDs of RFC 8260 section 2.3.1 in place of SSNs): the next ordered MID
     * expected on each is 0. Called once every TSN up to the request's last assigned TSN arrived,
     * so the streams hold nothing of the old numbering but what a peer breaking section 5.1.2 left
     * waiting, which is dropped.
     */
    void resetStreams(int[] ids) {
        DataReceiver.eachStream(ids, streams.length, this::resetStream);
    }

    private void resetStream(int id) {
        Stream s = streams[id];
        if (s == null) {
            return;
        }
        s.nextMid = 0;
        if (s.pending != null && s.partial == null) {
            r.buffered -= s.pending.clear();
            s.pending = null;
        }
    }

    /**
     * SSN/TSN reset (RFC 6525 section 5.2.4): every message still being reassembled belongs to
     * the old numbering and is dropped (one being delivered in parts ends: {@link #takeAborted()}),
     * complete messages that waited for the end of a partial delivery are handed out, held ordered
     * messages are dropped, and every stream's MID starts at 0.
     */
    void resetAll() {
        for (Stream s : streams) {
            if (s == null) {
                continue;
            }
            for (int k = s.active.size() - 1; k >= 0; k--) {
                Msg m = s.active.get(k);
                forget(s, m);
                if (m.inParts) {
                    aborted.add(new DataReceiver.PartialDelivery(m.streamId, m.mid, m.unordered, m.delivered));
                }
                release(m);
            }
            s.partial = null;
            if (s.waiting != null) {
                for (ReceivedMessage q : s.waiting) {
                    r.readyAdd(q);
                }
                s.waiting = null;
            }
            s.nextMid = 0;
            if (s.pending != null) {
                r.buffered -= s.pending.clear();
                s.pending = null;
            }
        }
        suspects.clear();
    }

    /** Fragments held for messages not yet complete. */
    int pendingFragments() {
        int n = 0;
        for (Msg m : messages.values()) {
            n += m.n;
        }
        return n;
    }

    /** Messages being reassembled. */
    int messagesInProgress() {
        return messages.size();
    }

    /** Whether the peer's fragments showed the Linux 6.1 numbering. */
    boolean linuxNumbering() {
        return numbering == LINUX;
    }

    /** The numbering of the peer's fragments learned so far: "unknown", "rfc" or "linux". */
    String numbering() {
        return numbering == RFC ? "rfc" : numbering == LINUX ? "linux" : "unknown";
    }

    /**
     * Whether a fragment not yet admitted would continue a message that is, or may now be,
     * delivered in parts (the receive buffer is full of what cannot be delivered otherwise).
     */
    boolean continuesDeliverable(int streamId, int mid, int ppidOrFsn, int flags) {
        if (r.pdPoint == 0 || (flags & IDataChunk.FLAG_B) != 0 || streamId < 0 || streamId >= inboundStreams) {
            return false;
        }
        boolean unordered = (flags & IDataChunk.FLAG_U) != 0;
        Msg m = messages.get(key(streamId, unordered, mid));
        if (m == null) {
            return false;
        }
        long k = fragmentKey(flags, ppidOrFsn);
        boolean next = k == m.nextKey || (m.nextKey == AFTER_FIRST && (k == 0 || k == 1));
        return next && (m.inParts || (m.seq > 0 && m.keys[0] == FIRST && eligible(stream(streamId), m)));
    }

    /** Whether {@code m} may begin to be delivered in parts: next on its stream, none in parts there. */
    private static boolean eligible(Stream s, Msg m) {
        return s.partial == null && (m.unordered || m.mid == s.nextMid);
    }

    /**
     * Takes one admitted I-DATA fragment of an open stream (its TSN is recorded as received):
     * {@code userDataLength} bytes at absolute index {@code userDataOffset} of {@code buf}.
     *
     * @param pressure the fragment was admitted only to continue a message that must now be
     *     delivered in parts
     */
    void onFragment(
            int tsn,
            int streamId,
            int mid,
            int ppidOrFsn,
            int flags,
            ByteBuffer buf,
            int userDataOffset,
            int len,
            boolean pressure) {
        boolean unordered = (flags & IDataChunk.FLAG_U) != 0;
        Stream s = stream(streamId);
        if (!unordered && Serial.lt(mid, s.nextMid)) {
            r.protocolViolations++; // a MID already delivered (or skipped): the peer reused it
            return;
        }
        long mk = key(streamId, unordered, mid);
        if ((flags & (IDataChunk.FLAG_B | IDataChunk.FLAG_E)) == (IDataChunk.FLAG_B | IDataChunk.FLAG_E)) {
            if (messages.containsKey(mk)) {
                r.protocolViolations++; // a whole message where fragments of that MID are held
                return;
            }
            r.buffered += len;
            whole(s, streamId, ppidOrFsn, unordered, mid, buf, userDataOffset, len);
            return;
        }
        Msg m = messages.get(mk);
        long k = fragmentKey(flags, ppidOrFsn);
        if (m != null && !fits(m, k, flags)) {
            r.protocolViolations++;
            return;
        }
        if (m == null) {
            m = new Msg(streamId, unordered, mid);
            messages.put(mk, m);
            m.index = s.active.size();
            s.active.add(m);
        }
        byte[] d = r.pool.take(len);
        buf.get(userDataOffset, d, 0, len);
        m.insert(-(m.find(k) + 1), k, tsn, d, len);
        r.buffered += len;
        if (k == FIRST) {
            m.ppid = ppidOrFsn;
            m.firstTsn = tsn;
        } else if (k == 0) {
            numbering = LINUX; // RFC 8260 has no FSN 0 without the B bit: the Linux 6.1 numbering
        }
        if ((flags & IDataChunk.FLAG_E) != 0) {
            m.lastKey = k;
        }
        progress(s, m, pressure);
    }

    /**
     * Whether a new fragment with key {@code k} can belong to the message {@code m}: not held yet,
     * not a second first fragment, not beyond (or instead of) the last one, not already delivered.
     */
    private static boolean fits(Msg m, long k, int flags) {
        if (m.find(k) >= 0) {
            return false; // that FSN (or the first fragment) is held already
        }
        if (k == FIRST && (m.inParts || m.nextKey != FIRST)) {
            return false; // a second first fragment
        }
        if ((m.inParts && m.nextKey >= 0 && k < m.nextKey) || (m.seq > 0 && k < m.keys[m.seq - 1])) {
            return false; // already handed out, or inside the in-sequence run (an FSN 0 after FSN 1)
        }
        if (m.lastKey != NONE && ((flags & IDataChunk.FLAG_E) != 0 || k > m.lastKey)) {
            return false; // a second last fragment, or one after the last
        }
        return (flags & IDataChunk.FLAG_E) == 0 || m.n == 0 || k >= m.keys[m.n - 1];
    }

    /** Extends the message's in-sequence run, then completes it or hands out parts. */
    private void progress(Stream s, Msg m, boolean pressure) {
        extend(m);
        if (m.complete() && !m.inParts) {
            finish(s, m);
            return;
        }
        if (m.inParts) {
            if (m.seq > 0) {
                boolean ends = m.complete();
                deliverRun(m, ends);
                if (ends) {
                    endPartial(s, m);
                }
            }
            return;
        }
        if (r.pdPoint > 0
                && m.seq > 0
                && m.keys[0] == FIRST
                && (m.seqBytes >= r.pdPoint || pressure)
                && eligible(s, m)) {
            s.partial = m;
            m.inParts = true;
            deliverRun(m, false);
        }
    }

    /** Counts the fragments now in sequence at the head of the message. */
    private void extend(Msg m) {
        while (m.seq < m.n) {
            long k = m.keys[m.seq];
            if (m.nextKey == AFTER_FIRST) {
                if (k == 0 || (k == 1 && numbering == RFC)) {
                    m.nextKey = k;
                } else if (k == 1 && numbering == UNKNOWN && nothingBetween(m.firstTsn, m.tsns[m.seq])) {
                    numbering = RFC; // every TSN between them arrived, none was an FSN 0 of this message
                    m.nextKey = 1;
                } else {
                    if (k == 1 && numbering == UNKNOWN && !m.suspect) {
                        m.suspect = true;
                        suspects.add(m);
                    }
                    return;
                }
            }
            if (k != m.nextKey) {
                return;
            }
            m.seqBytes += m.lens[m.seq];
            m.seq++;
            m.nextKey = k == FIRST ? (numbering == RFC ? 1 : numbering == LINUX ? 0 : AFTER_FIRST) : k + 1;
        }
    }

    private boolean nothingBetween(int first, int then) {
        if (Serial.le(then, first) || then - first > DataReceiver.TSN_WINDOW) {
            return false;
        }
        if (Serial.le(then, r.tracker.cumulativeTsn())) {
            return true;
        }
        for (int t = first + 1; t != then; t++) {
            if (!r.tracker.isReceived(t)) {
                return false;
            }
        }
        return true;
    }

    /** After a packet: messages that waited for proof of the peer's numbering are looked at again. */
    void afterPacket() {
        if (suspects.isEmpty()) {
            return;
        }
        List<Msg> again = new ArrayList<>(suspects);
        suspects.clear();
        for (Msg m : again) {
            m.suspect = false;
            if (messages.get(key(m.streamId, m.unordered, m.mid)) == m) {
                progress(stream(m.streamId), m, false);
            }
        }
    }

    /** The message is complete and not in parts: put it together and deliver (or hold) it. */
    private void finish(Stream s, Msg m) {
        forget(s, m);
        long total = m.bytes;
        if (total > Integer.MAX_VALUE - 8) {
            // cannot be one array: the receiver's bounds make this impossible; drop, do not throw
            release(m);
            r.protocolViolations++;
            return;
        }
        int length = (int) total;
        boolean now = s.partial == null && (m.unordered || m.mid == s.nextMid);
        if (r.keepReferences && now && length <= DataReceiver.MAX_REUSED_MESSAGE) {
            int at = r.reserveReassembly(length);
            copyOut(m, m.n, r.reassembly, at);
            r.readyAdd(m.streamId, m.ppid, m.unordered, null, r.reassemblyBuf, at, length, true, DataReceiver.WHOLE);
            r.reassemblyRefs++;
            if (!m.unordered) {
                s.nextMid++;
                releasePending(s);
            }
            return;
        }
        byte[] data = new byte[length];
        copyOut(m, m.n, data, 0);
        complete(s, new ReceivedMessage(m.streamId, m.ppid, m.unordered, data), m.mid);
    }

    /** Copies the first {@code k} fragments into {@code dst} from {@code at}; their arrays go back. */
    private void copyOut(Msg m, int k, byte[] dst, int at) {
        for (int i = 0; i < k; i++) {
            System.arraycopy(m.data[i], 0, dst, at, m.lens[i]);
            at += m.lens[i];
            r.pool.give(m.data[i]);
            m.bytes -= m.lens[i];
        }
        m.dropHead(k);
    }

    /** A whole message in one chunk (B and E bits). */
    private void whole(
            Stream s, int streamId, int ppid, boolean unordered, int mid, ByteBuffer buf, int offset, int len) {
        if (r.keepReferences && s.partial == null && (unordered || mid == s.nextMid)) {
            r.readyAdd(streamId, ppid, unordered, null, buf, offset, len, false, DataReceiver.WHOLE);
            if (!unordered) {
                s.nextMid++;
                releasePending(s);
            }
            return;
        }
        byte[] data = new byte[len];
        buf.get(offset, data, 0, len);
        complete(s, new ReceivedMessage(streamId, ppid, unordered, data), mid);
    }

    private void complete(Stream s, ReceivedMessage m, int mid) {
        if (m.unordered()) {
            if (s.partial == null) {
                r.readyAdd(m);
            } else {
                waitFor(s, m);
            }
            return;
        }
        if (mid == s.nextMid && s.partial == null) {
            r.readyAdd(m);
            s.nextMid++;
            releasePending(s);
            return;
        }
        // a later MID, or the stream's unordered message in parts ends first
        if (s.pending == null) {
            s.pending = new PendingMessages();
        }
        if (!s.pending.putIfAbsent(mid, m)) {
            drop(m);
        }
    }

    private static void waitFor(Stream s, ReceivedMessage m) {
        if (s.waiting == null) {
            s.waiting = new ArrayDeque<>();
        }
        s.waiting.add(m);
    }

    private void drop(ReceivedMessage m) {
        r.protocolViolations++;
        r.buffered -= m.data().length;
    }

    private void releasePending(Stream s) {
        PendingMessages p = s.pending;
        if (p == null || s.partial != null) {
            return;
        }
        while (!p.isEmpty()) {
            ReceivedMessage next = p.remove(s.nextMid);
            if (next == null) {
                break;
            }
            r.readyAdd(next);
            s.nextMid++;
        }
        if (p.isEmpty()) {
            s.pending = null;
        }
    }

    /**
     * Hands out the in-sequence fragments at the head of a message in parts, in parts of at most
     * about {@link DataReceiver#MAX_PART} bytes; the final one is the message's last if {@code ends}.
     */
    private void deliverRun(Msg m, boolean ends) {
        while (m.seq > 0) {
            int k = 0;
            long n = 0;
            while (k < m.seq && (k == 0 || n + m.lens[k] <= DataReceiver.MAX_PART)) {
                n += m.lens[k];
                k++;
            }
            byte[] part = new byte[(int) n];
            m.seqBytes -= n;
            copyOut(m, k, part, 0);
            m.delivered += n;
            boolean fin = ends && m.seq == 0;
            r.readyAdd(
                    m.streamId,
                    m.ppid,
                    m.unordered,
                    part,
                    null,
                    0,
                    (int) n,
                    false,
                    fin ? DataReceiver.LAST_PART : DataReceiver.PART);
        }
    }

    /** The last part was queued: the stream's other messages may go on. */
    private void endPartial(Stream s, Msg m) {
        forget(s, m);
        s.partial = null;
        if (!m.unordered) {
            s.nextMid++;
        }
        flushWaiting(s);
    }

    private void flushWaiting(Stream s) {
        ArrayDeque<ReceivedMessage> w = s.waiting;
        s.waiting = null;
        if (w != null) {
            for (ReceivedMessage q : w) {
                r.readyAdd(q);
            }
        }
        releasePending(s);
    }

    /** The message is no longer being reassembled. */
    private void forget(Stream s, Msg m) {
        messages.remove(key(m.streamId, m.unordered, m.mid));
        Msg last = s.active.remove(s.active.size() - 1);
        if (last != m) {
            s.active.set(m.index, last);
            last.index = m.index;
        }
    }

    /** Gives the message's fragment arrays back and stops counting its bytes. */
    private void release(Msg m) {
        for (int i = 0; i < m.n; i++) {
            r.pool.give(m.data[i]);
            r.buffered -= m.lens[i];
            m.data[i] = null;
        }
        m.n = 0;
        m.seq = 0;
        m.bytes = 0;
    }

    /**
     * I-FORWARD-TSN (RFC 8260 section 2.3.2), one entry: the messages of {@code streamId} in its
     * ordered ({@code unordered} false) or unordered sequence with MIDs up to {@code mid} (serial
     * arithmetic) were abandoned by the sender. Their fragments are dropped (a message being
     * delivered in parts ends without its last part: see {@link #takeAborted()}); for the ordered
     * sequence, complete messages held up to {@code mid} are delivered in MID order and the next
     * expected MID moves past it, so later messages flow again. An entry for an unopened stream or
     * one behind what was delivered changes nothing. Returns the work done (about the messages
     * looked at), for a caller that bounds the work of one chunk.
     *
     * <p>Dropping every message up to the MID, unordered ones included (the entry names the
     * largest MID skipped, as Linux sends it; usrsctp drops only the MID named), loses nothing the
     * sender still sends: a stream's messages go out one after the other, so a message before the
     * skipped one has all its TSNs below the New Cumulative TSN, and is complete (delivered) or
     * can never complete.
     */
    int skip(int streamId, boolean unordered, int mid) {
        if (streamId < 0 || streamId >= inboundStreams) {
            return 0;
        }
        Stream s = stream(streamId);
        int work = s.active.size();
        for (int k = s.active.size() - 1; k >= 0; k--) {
            Msg m = s.active.get(k);
            if (m.unordered != unordered || Serial.gt(m.mid, mid)) {
                continue;
            }
            forget(s, m);
            if (m.inParts) {
                aborted.add(new DataReceiver.PartialDelivery(m.streamId, m.mid, m.unordered, m.delivered));
                s.partial = null;
            }
            release(m);
        }
        if (!unordered && Serial.ge(mid, s.nextMid)) {
            if (s.pending != null) {
                work += s.pending.capacity();
                for (ReceivedMessage q : s.pending.removeUpTo(s.nextMid, mid)) {
                    if (s.partial == null) {
                        r.readyAdd(q);
                    } else {
                        waitFor(s, q);
                    }
                }
            }
            s.nextMid = mid + 1;
        }
        if (s.partial == null) {
            flushWaiting(s);
        }
        return work + 1;
    }

    /** Messages whose delivery in parts an I-FORWARD-TSN ended, since the last call. */
    List<DataReceiver.PartialDelivery> takeAborted() {
        if (aborted.isEmpty()) {
            return List.of();
        }
        List<DataReceiver.PartialDelivery> out = List.copyOf(aborted);
        aborted.clear();
        return out;
    }

    /** The messages being delivered in parts (the ssn field holds the MID). */
    void partialDeliveries(List<DataReceiver.PartialDelivery> out) {
        for (Stream s : streams) {
            if (s != null && s.partial != null) {
                Msg m = s.partial;
                out.add(new DataReceiver.PartialDelivery(m.streamId, m.mid, m.unordered, m.delivered));
            }
        }
    }
}
