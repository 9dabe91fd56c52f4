package org.sctpj.stack.tx;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.path.CmtScheduler;
import org.sctpj.stack.path.CongestionController;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.wire.Serial;
import org.sctpj.stack.wire.chunk.DataChunk;

/**
 * The sending half of an association's data transfer (RFC 9260 sections 6.1 to 6.3 and 7.2): the
 * send buffer, stream scheduling, fragmentation, TSN and SSN assignment, outstanding chunks, SACK
 * processing, retransmission (T3-rtx and fast retransmit) and the per-path congestion windows
 * (through a {@link CongestionController}).
 *
 * <p>Calling contract, all on the association's thread, times passed in:
 *
 * <ol>
 *   <li>{@link #send} queues a message (or says {@link SendStatus#WOULD_BLOCK});
 *   <li>to transmit, the association picks a path p, calls {@link #beginBurst(Path)} once per event
 *       (a SACK, a timeout, a send), then for each packet {@link PacketBuilder#reset} (bundling
 *       control chunks first if it wants), {@link #fill} and, if the packet is not empty, sends it;
 *       it stops when {@link #fill} adds no DATA. {@link #fill} starts T3-rtx of p when it sends;
 *   <li>a received SACK goes to {@link #onSack}, which returns an {@link AckResult};
 *   <li>when {@link Path#t3Deadline()} passes, {@link #onT3Expired}; the association counts the
 *       error and picks a path for the retransmissions (RFC 9260 section 6.4.1);
 *   <li>on abort, {@link #drainUnsent()}.
 * </ol>
 *
 * <p>Paths are identified by {@link Path#index()} (0..63). Byte counts (flight size, rwnd,
 * buffer) are of user data.
 *
 * <p>With {@link SctpOptions#cmt()} (Concurrent Multipath Transfer, Iyengar, Amer and Stewart) the
 * association fills packets for every destination that takes data, and the sender applies CMT's
 * rules: split fast retransmit (a chunk's miss indications come only from later chunks sent to the
 * same destination), the cwnd update by pseudo-cumulative ack (a destination's cwnd grows in slow
 * start when the earliest chunk outstanding on it is acknowledged, not only when the cumulative ack
 * moves), fast recovery per destination, retransmissions to the destination chosen by {@link
 * SctpOptions#retransmissionPolicy()}, the sender half of CMT's delayed ack ({@link
 * SctpOptions#cmtDelayedAck()}) and buffer splitting ({@link SctpOptions#bufferSplitting()}).
 */
public final class DataSender {

    /** The outcome of {@link #send}. */
    public enum SendStatus {
        /** The message was copied into the send buffer. */
        ACCEPTED,
        /** The send buffer lacks room for the whole message; nothing was consumed. */
        WOULD_BLOCK
    }

    private static final int MAX_PATHS = 64;

    private final SctpOptions options;
    private final CongestionController cc;
    private final boolean cmt;
    private int outboundStreams;
    private int nextTsn;
    private int cumAck;
    private long peerRwnd;

    /** Outbound streams by id, created on first use (an array: no boxing on the hot path). */
    private OutboundStream[] streams = new OutboundStream[16];

    private final SendPool pool;
    private final ArrayDeque<OutboundStream> roundRobin = new ArrayDeque<>();
    private long queuedBytes;
    private int queuedMessages;
    private int immediateQueued;

    private final SentChunkRing ring = new SentChunkRing();
    /** Bytes of chunks not covered by the cumulative ack (gap-acked included). */
    private long outstandingBytes;
    /** Bytes of chunks acknowledged by neither the cumulative ack nor a gap block. */
    private long unackedBytes;
    /** A zero window probe (RFC 9260 section 6.1 rule A) is outstanding. */
    private boolean probing;
    /** A SACK came while {@link #probing}, since the probe was sent or T3-rtx last expired. */
    private boolean probeAnswered;

    private int markedCount;
    private int fastPending;

    private boolean inFastRecovery;
    private int recoveryPoint;
    private long rttProbeMask;
    private final int[] burst = new int[MAX_PATHS];

    private final AckResult result = new AckResult();
    private final long[] newlyAckedBytes = new long[MAX_PATHS];
    private final SentChunk[] earliestBefore = new SentChunk[MAX_PATHS];
    private final int[] pendingOnPath = new int[MAX_PATHS];

    // CMT: per-destination highest (and second highest) TSN newly acked by the SACK being
    // processed, per-destination fast recovery, and the retransmission target of the fill.
    private final int[] htna1 = new int[MAX_PATHS];
    private final int[] htna2 = new int[MAX_PATHS];
    private long htna1Mask;
    private long htna2Mask;
    private long recoveryMask;
    private final int[] recoveryPoints = new int[MAX_PATHS];
    private Path rtxTarget;

    /**
     * A sender whose first DATA chunk will carry {@code initialTsn}.
     *
     * @param outboundStreams streams usable now (see {@link #setOutboundStreams})
     * @param peerRwnd the a_rwnd of the peer's INIT or INIT ACK
     * @param cc the congestion controller; the association has already called {@link
     *     CongestionController#init} for each path
     */
    public DataSender(SctpOptions o, int initialTsn, int outboundStreams, long peerRwnd, CongestionController cc) {
        this.options = Objects.requireNonNull(o, "options");
        this.cc = Objects.requireNonNull(cc, "congestion controller");
        this.cmt = o.cmt();
        setOutboundStreams(outboundStreams);
        this.nextTsn = initialTsn;
        this.cumAck = initialTsn - 1;
        this.peerRwnd = Math.max(0, peerRwnd);
        this.pool = new SendPool(o.sendBufferBytes());
        Arrays.fill(burst, o.maxBurst());
    }

    /**
     * Sets the number of usable outbound streams, after negotiation: the lesser of ours and the
     * peer's inbound streams. Messages already queued on higher streams are still sent.
     *
     * @throws IllegalArgumentException outside 1..65535
     */
    public void setOutboundStreams(int n) {
        if (n < 1 || n > 65535) {
            throw new IllegalArgumentException("outbound streams must be 1..65535, was " + n);
        }
        outboundStreams = n;
    }

    /** The number of usable outbound streams. */
    public int outboundStreams() {
        return outboundStreams;
    }

    /**
     * Queues one message: copies the remaining bytes of {@code data}, advancing its position, if
     * the whole message fits the free send buffer; otherwise returns {@link SendStatus#WOULD_BLOCK}
     * and leaves {@code data} untouched.
     *
     * @param immediate set the I bit (RFC 7053) on the message's last fragment
     * @throws IllegalArgumentException for a stream at or above {@link #outboundStreams()}, an
     *     empty message or one over {@link SctpOptions#maxMessageSize()}
     */
    public SendStatus send(int streamId, int ppid, boolean unordered, boolean immediate, ByteBuffer data) {
        int len = data.remaining();
        check(streamId, len);
        if (len > freeBytes()) {
            return SendStatus.WOULD_BLOCK;
        }
        byte[] copy = pool.array(len);
        data.get(copy, 0, len);
        enqueue(streamId, ppid, unordered, immediate, copy, len);
        return SendStatus.ACCEPTED;
    }

    /**
     * Queues one message held in {@code array[0..length)} and keeps the array itself, without a
     * copy, if the message fits the free send buffer; the caller must not touch the array once
     * this returned {@link SendStatus#ACCEPTED}. For a caller that made the copy already (an API
     * handing messages over from another thread).
     *
     * @throws IllegalArgumentException as {@link #send}, or if {@code length} exceeds the array
     */
    public SendStatus sendOwned(
            int streamId, int ppid, boolean unordered, boolean immediate, byte[] array, int length) {
        if (length > array.length) {
            throw new IllegalArgumentException("length " + length + " exceeds the array's " + array.length + " bytes");
        }
        check(streamId, length);
        if (length > freeBytes()) {
            return SendStatus.WOULD_BLOCK;
        }
        enqueue(streamId, ppid, unordered, immediate, array, length);
        return SendStatus.ACCEPTED;
    }

    private void check(int streamId, int len) {
        if (streamId < 0 || streamId >= outboundStreams) {
            throw new IllegalArgumentException("stream " + streamId + " is not open: use a stream below "
                    + outboundStreams + " (the negotiated outbound streams)");
        }
        if (len == 0) {
            throw new IllegalArgumentException("a message must carry at least one byte (RFC 9260 has no empty DATA)");
        }
        if (len > options.maxMessageSize()) {
            throw new IllegalArgumentException("message of " + len + " bytes exceeds maxMessageSize "
                    + options.maxMessageSize() + ": split it or raise the option");
        }
    }

    private void enqueue(int streamId, int ppid, boolean unordered, boolean immediate, byte[] data, int len) {
        OutboundStream s = stream(streamId);
        if (s.queue.isEmpty()) {
            roundRobin.addLast(s);
        }
        s.queue.addLast(pool.message().init(streamId, ppid, unordered, immediate, data, len));
        queuedBytes += len;
        queuedMessages++;
        if (immediate) {
            immediateQueued++;
        }
    }

    private OutboundStream stream(int id) {
        if (id >= streams.length) {
            streams = Arrays.copyOf(streams, Math.max(id + 1, Math.min(streams.length * 2, 65536)));
        }
        OutboundStream s = streams[id];
        if (s == null) {
            s = new OutboundStream(id);
            streams[id] = s;
        }
        return s;
    }

    /** User bytes held: queued and not yet sent, plus sent and not cumulatively acknowledged. */
    public long bufferedBytes() {
        return queuedBytes + outstandingBytes;
    }

    /** Room left in the send buffer ({@link SctpOptions#sendBufferBytes()} minus buffered). */
    public long freeBytes() {
        return Math.max(0, options.sendBufferBytes() - bufferedBytes());
    }

    /** Nothing queued and nothing outstanding: the sender is dry. */
    public boolean isEmpty() {
        return queuedMessages == 0 && ring.size() == 0;
    }

    /** DATA chunks sent and not covered by the cumulative ack. */
    public int outstandingCount() {
        return ring.size();
    }

    /** User bytes of the chunks of {@link #outstandingCount()}. */
    public long outstandingBytes() {
        return outstandingBytes;
    }

    /** Messages in the send buffer not yet fully sent. */
    public int queuedMessages() {
        return queuedMessages;
    }

    /** Unsent bytes of {@link #queuedMessages()}. */
    public long queuedBytes() {
        return queuedBytes;
    }

    /** The peer's receiver window as this sender estimates it (RFC 9260 section 6.2.1). */
    public long peerRwnd() {
        return peerRwnd;
    }

    /** The TSN the next new DATA chunk will carry. */
    public int nextTsn() {
        return nextTsn;
    }

    /** The Cumulative TSN Ack Point: the last TSN acknowledged cumulatively. */
    public int cumulativeAckTsn() {
        return cumAck;
    }

    /**
     * Whether the sender is in Fast Recovery (RFC 9260 section 7.2.4); with CMT, whether any
     * destination is.
     */
    public boolean inFastRecovery() {
        return inFastRecovery;
    }

    /** With CMT, whether destination {@code p} is in its own Fast Recovery. */
    public boolean inFastRecovery(Path p) {
        return cmt ? (recoveryMask & (1L << p.index())) != 0 : inFastRecovery;
    }

    /** Chunks marked for retransmission and not yet resent. */
    public int markedForRetransmission() {
        return markedCount;
    }

    /**
     * Whether anything waits to be sent: chunks marked for retransmission or queued messages. The
     * windows may still forbid sending now; {@link #fill} decides.
     */
    public boolean hasDataToSend(long now) {
        return markedCount > 0 || queuedMessages > 0;
    }

    /** Starts a new burst on {@code p}: up to Max.Burst packets may be filled (RFC 9260 section 6.1). */
    public void beginBurst(Path p) {
        burst[p.index()] = options.maxBurst();
    }

    /** How many more packets {@link #fill} will fill on {@code p} in the current burst. */
    public int packetsAllowed(Path p) {
        return burst[p.index()];
    }

    /**
     * Adds DATA chunks for destination {@code p} to the packet: first chunks marked for fast
     * retransmit (one packet's worth, regardless of cwnd), then other chunks marked for
     * retransmission, then new data, within p's cwnd (a packet may start while the flight size is
     * below cwnd), the peer's rwnd (with zero window probing), Nagle and the burst budget. Starts
     * T3-rtx on p when it adds DATA and the timer is not running. Adds nothing if nothing may go.
     *
     * <p>With CMT, chunks marked for retransmission go only to the destination the {@link
     * SctpOptions#retransmissionPolicy()} picks, and with buffer splitting p's flight size must also
     * stay below its share of the peer's window.
     *
     * @param paths all paths of the association (for CMT's retransmission policy and buffer
     *     splitting)
     */
    public void fill(PacketBuilder pb, Path p, List<Path> paths, long now) {
        int idx = p.index();
        if (burst[idx] <= 0) {
            return;
        }
        int before = pb.dataChunkCount();
        int beforeBytes = pb.dataBytes();
        boolean cwndOpen = p.flightSize() < p.cwnd() && withinShare(p, paths);
        int rtxChunks = 0;
        long rtxBytes = 0;
        if (cmt) {
            rtxTarget = CmtScheduler.retransmissionTarget(paths, options.retransmissionPolicy());
        }

        if (fastPending > 0) {
            int sent = 0;
            for (int i = 0; i < ring.size(); i++) {
                SentChunk c = ring.get(i);
                if (!c.fast || !retransmitHere(c, p)) {
                    continue;
                }
                if (!addChunk(pb, c)) {
                    break;
                }
                retransmitted(c, p, now);
                sent++;
                rtxChunks++;
                rtxBytes += c.length;
            }
            if (sent > 0 && fastPending > 0) {
                // One packet's worth ignores cwnd; the rest wait for the window (7.2.4 step 5).
                for (int i = 0; i < ring.size(); i++) {
                    ring.get(i).fast = false;
                }
                fastPending = 0;
            }
        }
        if (markedCount > 0 && cwndOpen) {
            for (int i = 0; i < ring.size() && markedCount > 0; i++) {
                SentChunk c = ring.get(i);
                if (!c.marked || c.fast || !retransmitHere(c, p)) {
                    continue;
                }
                if (!addChunk(pb, c)) {
                    break;
                }
                retransmitted(c, p, now);
                rtxChunks++;
                rtxBytes += c.length;
            }
        }
        if (queuedMessages > 0 && cwndOpen && !nagleHolds(pb)) {
            fillNew(pb, p, before, now);
        }
        int added = pb.dataChunkCount() - before;
        if (added > 0) {
            burst[idx]--;
            p.startT3(now);
            p.recordSent(now, pb.dataBytes() - beforeBytes, rtxChunks, rtxBytes);
        }
    }

    /** CMT: whether a chunk marked for retransmission may go to {@code p}. */
    private boolean retransmitHere(SentChunk c, Path p) {
        if (!cmt) {
            return true;
        }
        Path t = CmtScheduler.retransmissionPathFor(c.path, rtxTarget, options.retransmissionPolicy());
        return t == null || t == p;
    }

    /**
     * Buffer splitting (CMT): with n active destinations, p may have at most 1/n of the peer's
     * window (its last a_rwnd, that is the free estimate plus what is unacknowledged) in flight.
     */
    private boolean withinShare(Path p, List<Path> paths) {
        if (!cmt || !options.bufferSplitting()) {
            return true;
        }
        int n = CmtScheduler.activeCount(paths);
        if (n <= 1 || !CmtScheduler.takesNewData(p)) {
            return true;
        }
        long window = peerRwnd + unackedBytes;
        return p.flightSize() < window / n;
    }

    private boolean nagleHolds(PacketBuilder pb) {
        if (options.noDelay() || unackedBytes == 0 || immediateQueued > 0 || !pb.isEmpty()) {
            return false;
        }
        long estimate = queuedBytes + (long) DataChunk.FIXED_LENGTH * queuedMessages;
        return estimate < pb.remaining();
    }

    private void fillNew(PacketBuilder pb, Path p, int before, long now) {
        int emptyRoom = pb.maxDataPayloadEmpty();
        while (queuedMessages > 0) {
            OutboundStream s = roundRobin.peekFirst();
            OutboundMessage m = s.queue.peekFirst();
            int rest = m.unsentBytes();
            int room = pb.maxDataPayload();
            if (room < 1) {
                return;
            }
            if (m.sentOffset == 0 && rest > room && rest <= emptyRoom && pb.dataChunkCount() > 0) {
                return; // fits whole in the next packet: do not split it
            }
            int len = Math.min(rest, room);
            boolean probe = false;
            if (len > peerRwnd) {
                // RFC 9260 6.1 A: with nothing outstanding, one chunk probes the window.
                if (unackedBytes == 0 && pb.dataChunkCount() == before) {
                    probe = true;
                } else {
                    return;
                }
            }
            boolean first = m.sentOffset == 0;
            if (first && !m.unordered) {
                m.ssn = s.nextSsn;
                s.nextSsn = (s.nextSsn + 1) & 0xffff;
            }
            boolean last = len == rest;
            int flags = (first ? DataChunk.FLAG_B : 0)
                    | (last ? DataChunk.FLAG_E : 0)
                    | (m.unordered ? DataChunk.FLAG_U : 0)
                    | (last && m.immediate ? DataChunk.FLAG_I : 0);
            SentChunk c = pool.chunk().init(nextTsn, m, m.sentOffset, len, flags);
            if (!addChunk(pb, c)) {
                return; // cannot happen: room was computed from the packet
            }
            nextTsn++;
            m.sentOffset += len;
            queuedBytes -= len;
            outstandingBytes += len;
            unackedBytes += len;
            peerRwnd = Math.max(0, peerRwnd - len);
            c.path = p;
            c.sendCount = 1;
            c.sentNanos = now;
            c.inFlight = true;
            p.addFlight(len);
            long bit = 1L << p.index();
            if ((rttProbeMask & bit) == 0) {
                rttProbeMask |= bit;
                c.rttProbe = true;
            }
            ring.addLast(c);
            if (probe) {
                probing = true;
                probeAnswered = false;
            }
            if (last) {
                s.queue.removeFirst();
                queuedMessages--;
                if (m.immediate) {
                    immediateQueued--;
                }
                roundRobin.removeFirst();
                if (!s.queue.isEmpty()) {
                    roundRobin.addLast(s);
                }
            } else {
                return; // the packet is full
            }
            if (probe) {
                return;
            }
        }
    }

    private boolean addChunk(PacketBuilder pb, SentChunk c) {
        OutboundMessage m = c.msg;
        return pb.tryAddData(c.flags, c.tsn, m.streamId, m.ssn, m.ppid, m.data, c.offset, c.length);
    }

    private void retransmitted(SentChunk c, Path p, long now) {
        if (c.fast) {
            c.fast = false;
            fastPending--;
        }
        c.marked = false;
        markedCount--;
        clearProbe(c);
        c.path = p;
        c.sendCount++;
        c.sentNanos = now;
        c.missCount = 0;
        c.inFlight = true;
        p.addFlight(c.length);
    }

    private void clearProbe(SentChunk c) {
        if (c.rttProbe) {
            c.rttProbe = false;
            rttProbeMask &= ~(1L << c.path.index());
        }
    }

    /** Chunks in the window acknowledged by a gap block but not yet by the cumulative TSN. */
    private int gapAckedCount;

    /**
     * Processes a SACK (RFC 9260 sections 6.2.1, 6.3.2, 7.2): drops stale ones; frees cumulatively
     * acknowledged chunks; marks gap-acknowledged ones (reneging is honoured: a chunk no longer
     * covered is outstanding again and T3-rtx of its path is started); measures RTT (Karn's rule);
     * updates the peer's rwnd; counts miss indications by the HTNA rule and marks chunks for fast
     * retransmit at the third, entering Fast Recovery; feeds the congestion controller; stops or
     * restarts T3-rtx per path (R2, R3).
     *
     * @param gapStarts start offsets of the gap blocks (relative to {@code cumTsnAck}), ascending
     * @param gapEnds end offsets, inclusive
     * @param gapCount gap blocks used from the arrays
     * @param dupCount duplicate TSNs reported (statistics only)
     * @param paths the association's paths, each with a distinct {@link Path#index()}
     * @return the result, reused by the next call
     */
    public AckResult onSack(
            int cumTsnAck,
            long aRwnd,
            int[] gapStarts,
            int[] gapEnds,
            int gapCount,
            int dupCount,
            List<Path> paths,
            long now) {
        AckResult r = result;
        r.clear();
        if (Serial.lt(cumTsnAck, cumAck)) {
            r.ignored = true;
            return r;
        }
        if (Serial.ge(cumTsnAck, nextTsn)) {
            r.ignored = true;
            r.protocolViolation = true;
            return r;
        }
        long fullyUsedMask = 0;
        htna1Mask = 0;
        htna2Mask = 0;
        for (int pi0 = 0; pi0 < paths.size(); pi0++) {
            Path p = paths.get(pi0);
            int i = p.index();
            newlyAckedBytes[i] = 0;
            earliestBefore[i] = null;
            pendingOnPath[i] = 0;
            if (p.flightSize() >= p.cwnd()) {
                fullyUsedMask |= 1L << i;
            }
        }
        // The earliest chunk in flight on each path: scan from the oldest only until every path
        // with data in flight has one (usually the first few chunks), not the whole window.
        long need = 0;
        for (int pi0 = 0; pi0 < paths.size(); pi0++) {
            Path p = paths.get(pi0);
            if (p.flightSize() > 0) {
                need |= 1L << p.index();
            }
        }
        for (int i = 0; i < ring.size() && need != 0; i++) {
            SentChunk c = ring.get(i);
            if (c.inFlight) {
                long bit = 1L << c.path.index();
                if ((need & bit) != 0) {
                    earliestBefore[c.path.index()] = c;
                    need &= ~bit;
                }
            }
        }
        // Without gap blocks and without gap-acknowledged chunks outstanding, no chunk can be
        // covered, reneged or missed: the passes over the whole window below are skipped, which
        // keeps a plain cumulative SACK O(chunks acknowledged) instead of O(window).
        boolean plain = gapCount == 0 && gapAckedCount == 0 && !cmt;
        boolean cumAdvanced = Serial.gt(cumTsnAck, cumAck);
        int htna = cumAck;
        boolean anyHtna = false;
        while (ring.size() > 0 && Serial.le(ring.first().tsn, cumTsnAck)) {
            SentChunk c = ring.removeFirst();
            if (!c.acked) {
                newlyAcked(c, now);
                htna = c.tsn;
                anyHtna = true;
            } else {
                gapAckedCount--;
            }
            clearProbe(c);
            outstandingBytes -= c.length;
            if ((c.flags & DataChunk.FLAG_E) != 0) {
                pool.release(c.msg); // its last fragment: every fragment is acknowledged now
            }
            pool.release(c); // read no more this SACK except for acked and path (earliestBefore)
        }
        cumAck = cumTsnAck;
        if (!cmt && inFastRecovery && Serial.ge(cumAck, recoveryPoint)) {
            inFastRecovery = false;
        }

        // Gap blocks and reneging, in one pass over the outstanding chunks.
        int k = 0;
        int highestReported = cumAck;
        for (int i = 0; i < ring.size() && !plain; i++) {
            SentChunk c = ring.get(i);
            int off = c.tsn - cumAck;
            while (k < gapCount && gapEnds[k] < off) {
                k++;
            }
            boolean covered = k < gapCount && gapStarts[k] <= off && off <= gapEnds[k];
            if (covered) {
                highestReported = c.tsn;
                if (!c.acked) {
                    newlyAcked(c, now);
                    gapAckedCount++;
                    if (!anyHtna || Serial.gt(c.tsn, htna)) {
                        htna = c.tsn;
                        anyHtna = true;
                    }
                }
            } else if (c.acked) {
                c.acked = false; // reneged (RFC 9260 6.2.1 D iv)
                gapAckedCount--;
                unackedBytes += c.length;
                c.missCount++;
                c.path.startT3(now);
            }
        }
        // Congestion window growth comes before any fast retransmit reduction (7.2.4 note).
        for (int pi0 = 0; pi0 < paths.size(); pi0++) {
            Path p = paths.get(pi0);
            int i = p.index();
            if (newlyAckedBytes[i] > 0) {
                if (cmt) {
                    // CUC: slow start needs the destination's pseudo-cumulative ack to advance.
                    boolean pseudoAdvanced = earliestBefore[i] != null && earliestBefore[i].acked;
                    cc.onAck(
                            p,
                            newlyAckedBytes[i],
                            pseudoAdvanced,
                            (fullyUsedMask & (1L << i)) != 0,
                            (recoveryMask & (1L << i)) != 0);
                } else {
                    cc.onAck(p, newlyAckedBytes[i], cumAdvanced, (fullyUsedMask & (1L << i)) != 0, inFastRecovery);
                }
            }
        }
        if (cmt) {
            cmtMissIndications(paths, r);
        } else if (plain) {
            // No chunk lies below the highest newly acknowledged TSN: no miss indications. Every
            // outstanding chunk is in flight or marked, so a path has pending data iff it has flight.
            for (int pi0 = 0; pi0 < paths.size(); pi0++) {
                Path p = paths.get(pi0);
                pendingOnPath[p.index()] = p.flightSize() > 0 ? 1 : 0;
            }
        } else {
            missIndications(paths, r, cumAdvanced, highestReported, htna, anyHtna);
        }

        peerRwnd = Math.max(0, aRwnd - unackedBytes);
        if (probing) {
            probeAnswered = true; // the peer is alive, its window closed (RFC 9260 6.1 A)
            if (unackedBytes == 0) {
                probing = false; // the probe was acknowledged
            }
        }
        for (int pi0 = 0; pi0 < paths.size(); pi0++) {
            Path p = paths.get(pi0);
            int i = p.index();
            if (pendingOnPath[i] == 0) {
                p.stopT3();
            } else if (earliestBefore[i] != null && earliestBefore[i].acked) {
                p.restartT3(now);
            }
            burst[i] = options.maxBurst();
        }
        r.cumAckAdvanced = cumAdvanced;
        return r;
    }

    /** Miss indications by the HTNA rule and fast retransmit, RFC 9260 section 7.2.4. */
    private void missIndications(
            List<Path> paths, AckResult r, boolean cumAdvanced, int highestReported, int htna, boolean anyHtna) {
        // Miss indications (HTNA) and fast retransmit.
        boolean allReported = inFastRecovery && cumAdvanced;
        int missLimit = allReported ? highestReported : htna;
        boolean countMisses = allReported || anyHtna;
        long fastPaths = 0;
        for (int i = 0; i < ring.size(); i++) {
            SentChunk c = ring.get(i);
            if (c.acked || c.marked) {
                continue;
            }
            if (countMisses && Serial.lt(c.tsn, missLimit)) {
                c.missCount++;
                if (c.missCount >= 3 && !c.fastDone) {
                    mark(c);
                    c.fast = true;
                    c.fastDone = true;
                    fastPending++;
                    fastPaths |= 1L << c.path.index();
                    r.fastRetransmitsMarked++;
                    continue;
                }
            }
            pendingOnPath[c.path.index()]++;
        }
        if (fastPaths != 0 && !inFastRecovery) {
            inFastRecovery = true;
            recoveryPoint = nextTsn - 1;
            r.enteredFastRecovery = true;
            for (int pi0 = 0; pi0 < paths.size(); pi0++) {
                Path p = paths.get(pi0);
                if ((fastPaths & (1L << p.index())) != 0) {
                    cc.onFastRetransmit(p);
                }
            }
        }
    }

    /**
     * CMT's split fast retransmit: a chunk gets a miss indication only when a later chunk sent to
     * the same destination is newly acknowledged (two with {@link SctpOptions#cmtDelayedAck()} when
     * two such chunks are, since the receiver then acknowledges two packets per SACK); at the third
     * it is marked for fast retransmit and its destination, unless already in Fast Recovery,
     * enters it (cwnd reduced once) until every chunk sent there up to the highest TSN sent at entry
     * is acknowledged.
     */
    private void cmtMissIndications(List<Path> paths, AckResult r) {
        boolean dac = options.cmtDelayedAck();
        long fastPaths = 0;
        for (int i = 0; i < ring.size(); i++) {
            SentChunk c = ring.get(i);
            if (c.acked || c.marked) {
                continue;
            }
            int pi = c.path.index();
            long bit = 1L << pi;
            if ((htna1Mask & bit) != 0 && Serial.lt(c.tsn, htna1[pi])) {
                boolean two = dac && (htna2Mask & bit) != 0 && Serial.lt(c.tsn, htna2[pi]);
                c.missCount += two ? 2 : 1;
                if (c.missCount >= 3 && !c.fastDone) {
                    mark(c);
                    c.fast = true;
                    c.fastDone = true;
                    fastPending++;
                    fastPaths |= bit;
                    r.fastRetransmitsMarked++;
                    continue;
                }
            }
            pendingOnPath[pi]++;
        }
        // Leave per-destination Fast Recovery once nothing sent there up to its point is unacked.
        long stillRecovering = 0;
        for (int i = 0; i < ring.size() && recoveryMask != 0; i++) {
            SentChunk c = ring.get(i);
            int pi = c.path.index();
            long bit = 1L << pi;
            if (!c.acked && (recoveryMask & bit) != 0 && Serial.le(c.tsn, recoveryPoints[pi])) {
                stillRecovering |= bit;
            }
        }
        recoveryMask &= stillRecovering;
        for (int pi0 = 0; pi0 < paths.size(); pi0++) {
            Path p = paths.get(pi0);
            long bit = 1L << p.index();
            if ((fastPaths & bit) != 0 && (recoveryMask & bit) == 0) {
                recoveryMask |= bit;
                recoveryPoints[p.index()] = nextTsn - 1;
                r.enteredFastRecovery = true;
                cc.onFastRetransmit(p);
            }
        }
        inFastRecovery = recoveryMask != 0;
    }

    private void newlyAcked(SentChunk c, long now) {
        c.acked = true;
        int i = c.path.index();
        long bit = 1L << i;
        // Chunks are acknowledged in ascending TSN order: the last one seen per path is its highest.
        if ((htna1Mask & bit) != 0) {
            htna2[i] = htna1[i];
            htna2Mask |= bit;
        }
        htna1[i] = c.tsn;
        htna1Mask |= bit;
        newlyAckedBytes[i] += c.length;
        result.bytesNewlyAcked += c.length;
        result.newlyAckedPathMask |= 1L << i;
        unackedBytes -= c.length;
        if (c.inFlight) {
            c.inFlight = false;
            c.path.addFlight(-c.length);
        }
        if (c.marked) {
            c.marked = false;
            markedCount--;
            if (c.fast) {
                c.fast = false;
                fastPending--;
            }
        }
        if (c.rttProbe) {
            if (c.sendCount == 1) {
                c.path.rto().sample(now - c.sentNanos);
            }
            clearProbe(c);
        }
    }

    private void mark(SentChunk c) {
        c.marked = true;
        markedCount++;
        if (c.inFlight) {
            c.inFlight = false;
            c.path.addFlight(-c.length);
        }
        clearProbe(c);
    }

    /**
     * T3-rtx of {@code p} expired (RFC 9260 section 6.3.3): the controller reduces cwnd (E1), the
     * RTO backs off (E2), and every chunk outstanding on p is marked for retransmission (E3), to go
     * wherever the association sends next; the timer is stopped and restarts when data is sent.
     * Counting the error is the association's job.
     *
     * <p>Without CMT the expiry also ends Fast Recovery: after it the sender slow-starts from one
     * MTU (section 7.2.3), and slow start may grow cwnd only outside Fast Recovery (section
     * 7.2.1). Staying in it until the old recovery point is acknowledged would hold cwnd at one
     * MTU while every chunk marked here is resent, one or two per round trip (the stall of a 1 MiB
     * transfer against usrsctp: 616 chunks at one per delayed SACK). Linux does the same. CMT's
     * per-destination Fast Recovery is left as it was: ending it here too changes how much of a
     * shared bottleneck CMT takes (the coupled controller couples congestion avoidance, not the
     * slow start that follows), which is a question of its own.
     *
     * @param paths the association's paths
     */
    /**
     * Whether the T3-rtx expiry about to be handled times out a zero window probe that the peer
     * has been answering with SACKs since it was sent (or since the previous expiry). RFC 9260
     * section 6.1 rule A: such expiries should not count as errors of the destination or of the
     * association, since a receiver may keep its window closed for as long as its application
     * does not read; the probe is still retransmitted with the backed-off RTO. Call before
     * {@link #onT3Expired}, which starts a new answer period.
     */
    public boolean answeredProbeTimesOut() {
        return probing && probeAnswered;
    }

    public void onT3Expired(Path p, List<Path> paths, long now) {
        probeAnswered = false;
        cc.onT3Timeout(p);
        p.rto().backoff();
        if (!cmt) {
            inFastRecovery = false;
        }
        for (int i = 0; i < ring.size(); i++) {
            SentChunk c = ring.get(i);
            if (c.path == p && !c.acked && !c.marked) {
                mark(c);
            }
        }
        p.stopT3();
        for (int qi = 0; qi < paths.size(); qi++) {
            Path q = paths.get(qi);
            burst[q.index()] = options.maxBurst();
        }
    }

    /**
     * Empties the sender for abort or failure: every message not fully acknowledged, in sending
     * order (outstanding first, then queued per stream).
     */
    public List<UnsentMessage> drainUnsent() {
        List<UnsentMessage> out = new ArrayList<>();
        OutboundMessage last = null;
        for (int i = 0; i < ring.size(); i++) {
            SentChunk c = ring.get(i);
            if (c.inFlight) {
                c.path.addFlight(-c.length);
            }
            OutboundMessage m = c.msg;
            if (m != last) {
                out.add(new UnsentMessage(m.streamId, m.ppid, m.unordered, m.exactData(), true));
                last = m;
            }
        }
        for (OutboundStream s : roundRobin) {
            for (OutboundMessage m : s.queue) {
                if (m != last) {
                    out.add(new UnsentMessage(m.streamId, m.ppid, m.unordered, m.exactData(), m.sentOffset > 0));
                }
            }
            s.queue.clear();
        }
        roundRobin.clear();
        ring.clear();
        queuedBytes = 0;
        queuedMessages = 0;
        immediateQueued = 0;
        outstandingBytes = 0;
        unackedBytes = 0;
        markedCount = 0;
        fastPending = 0;
        rttProbeMask = 0;
        recoveryMask = 0;
        return out;
    }

    @Override
    public String toString() {
        return "DataSender[next=" + Integer.toUnsignedString(nextTsn) + " cum=" + Integer.toUnsignedString(cumAck)
                + " queued=" + queuedMessages + "/" + queuedBytes + " outstanding=" + ring.size() + "/"
                + outstandingBytes + " rwnd=" + peerRwnd + " fr=" + inFastRecovery + "]";
    }
}
