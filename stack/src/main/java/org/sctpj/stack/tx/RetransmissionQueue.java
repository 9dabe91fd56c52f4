package org.sctpj.stack.tx;

import java.util.List;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.wire.Serial;
import org.sctpj.stack.wire.chunk.DataChunk;

/**
 * The DATA chunks sent and not yet covered by the cumulative ack, in TSN order (RFC 9260 sections
 * 6.2.1 and 6.3): the TSN space (next TSN, Cumulative TSN Ack Point), the byte counts of the send
 * buffer and the peer's window estimate, marking for retransmission (by T3-rtx or fast
 * retransmit), resending, and the acknowledgement passes of a SACK (cumulative ack, gap blocks,
 * reneging). What a SACK means for losses is for the {@link LossDetector}; it reads the facts this
 * queue gathers per SACK ({@link #beginSack} to the end of the SACK's processing).
 *
 * <p>The zero window probe of RFC 9260 section 6.1 rule A is tracked here too, since it is an
 * outstanding chunk sent beyond the peer's window.
 */
final class RetransmissionQueue {

    static final int MAX_PATHS = 64;

    private final SendPool pool;
    private final SentChunkRing ring = new SentChunkRing();
    private int nextTsn;
    private int cumAck;
    private long peerRwnd;
    /** Bytes of chunks not covered by the cumulative ack (gap-acked included). */
    private long outstandingBytes;
    /** Bytes of chunks acknowledged by neither the cumulative ack nor a gap block. */
    private long unackedBytes;
    /**
     * Bytes of chunks acknowledged by an NR Gap Ack Block and not yet by the cumulative ack: out of
     * {@link #outstandingBytes}, still held in memory until the cumulative ack passes them.
     */
    private long nrAckedBytes;
    /**
     * The part of {@link #nrAckedBytes} whose messages still hold their data (a message's array is
     * released once all of it is NR-acknowledged): what NR-SACK leaves in memory.
     */
    private long nrPinnedBytes;
    /** A chunk reported non-renegable was later reported missing (the peer broke its promise). */
    private int nrReneged;
    /** A zero window probe (RFC 9260 section 6.1 rule A) is outstanding. */
    private boolean probing;
    /** A SACK came while {@link #probing}, since the probe was sent or T3-rtx last expired. */
    private boolean probeAnswered;

    private int markedCount;
    private int fastPending;
    private long rttProbeMask;
    /** Chunks in the window acknowledged by a gap block but not yet by the cumulative TSN. */
    private int gapAckedCount;
    /**
     * Outstanding chunks, not abandoned, of messages with a lifetime or a retransmission limit
     * (PR-SCTP): while 0, the {@link Abandonment} checks after a SACK or a T3-rtx expiry are skipped.
     */
    private int prChunks;

    // Facts of the SACK being processed, per path index and overall.
    private final AckResult result;
    // Indexed by path index; as long as the highest path index seen (one entry for a single-homed
    // association), grown on demand up to MAX_PATHS, so that an association pays for its paths only.
    private long[] newlyAckedBytes = new long[1];
    private SentChunk[] earliestBefore = new SentChunk[1];
    private int[] pendingOnPath = new int[1];
    /** Per path, its earliest chunk in flight sent only once (CUCv2's pseudo-cumack), before this SACK. */
    private SentChunk[] earliestNewBefore = new SentChunk[1];
    /** Per path, its earliest retransmitted chunk in flight (CUCv2's rtx-pseudo-cumack), before this SACK. */
    private SentChunk[] earliestRtxBefore = new SentChunk[1];
    /** Per path index, the bytes of retransmitted chunks (sent more than once) in its flight. */
    private long[] rtxInFlight = new long[1];

    private long fullyUsedMask;
    private int[] htna1 = new int[1];
    private int[] htna2 = new int[1];
    private long htna1Mask;
    private long htna2Mask;
    private int htna;
    private boolean anyHtna;
    private int highestReported;

    RetransmissionQueue(SendPool pool, int initialTsn, long peerRwnd, AckResult result) {
        this.pool = pool;
        this.nextTsn = initialTsn;
        this.cumAck = initialTsn - 1;
        this.peerRwnd = Math.max(0, peerRwnd);
        this.result = result;
    }

    // ------------------------------------------------------------------ state

    /**
     * Stream reconfiguration's SSN/TSN reset (RFC 6525 sections 5.1.4 and 5.2.4): with nothing
     * outstanding, the next new DATA chunk carries {@code tsn} and the Cumulative TSN Ack Point is
     * the TSN before it.
     */
    void restartTsn(int tsn) {
        if (ring.size() != 0) {
            throw new IllegalStateException("chunks are outstanding: the TSN cannot restart");
        }
        nextTsn = tsn;
        cumAck = tsn - 1;
        highestReported = cumAck;
        htna = cumAck;
    }

    /** The TSN the next new DATA chunk will carry. */
    int nextTsn() {
        return nextTsn;
    }

    /** The Cumulative TSN Ack Point. */
    int cumAck() {
        return cumAck;
    }

    /** The peer's receiver window as this sender estimates it (RFC 9260 section 6.2.1). */
    long peerRwnd() {
        return peerRwnd;
    }

    /** User bytes of the chunks not covered by the cumulative ack, less those NR-acknowledged. */
    long outstandingBytes() {
        return outstandingBytes;
    }

    /**
     * User bytes of the chunks acknowledged by an NR Gap Ack Block and not yet cumulatively (not
     * in {@link #outstandingBytes()}).
     */
    long nrAckedBytes() {
        return nrAckedBytes;
    }

    /** The NR-acknowledged bytes whose messages still hold their data in memory. */
    long nrPinnedBytes() {
        return nrPinnedBytes;
    }

    /** How often a peer reported missing a chunk it had acknowledged as non-renegable. */
    int nrReneged() {
        return nrReneged;
    }

    /** User bytes of the chunks acknowledged neither cumulatively nor by a gap block. */
    long unackedBytes() {
        return unackedBytes;
    }

    /** Chunks not covered by the cumulative ack. */
    int size() {
        return ring.size();
    }

    /** The chunk at {@code i} (0 is the oldest). */
    SentChunk get(int i) {
        return ring.get(i);
    }

    /** Chunks marked for retransmission and not yet resent. */
    int markedCount() {
        return markedCount;
    }

    /** Chunks marked by fast retransmit and not yet resent. */
    int fastPending() {
        return fastPending;
    }

    /**
     * Whether a zero window probe is outstanding and the peer answered with SACKs since it was
     * sent or since T3-rtx last expired (RFC 9260 section 6.1 rule A).
     */
    boolean answeredProbeTimesOut() {
        return probing && probeAnswered;
    }

    /** T3-rtx expired: a new answer period of the zero window probe starts. */
    void probeTimedOut() {
        probeAnswered = false;
    }

    // ------------------------------------------------------------------ sending

    /**
     * A new chunk with TSN {@link #nextTsn()} went into a packet to {@code p}: it becomes
     * outstanding and in flight, the peer's window shrinks by its length, and it measures the RTT
     * of p if no chunk does yet (Karn's rule, RFC 9260 section 6.3.1 C5).
     *
     * @param probe it is a zero window probe (RFC 9260 section 6.1 rule A)
     */
    void sentNew(SentChunk c, Path p, long now, boolean probe) {
        int len = c.length;
        if (c.offset == 0) {
            c.msg.firstTsn = c.tsn;
        }
        if (c.msg.prKind == Abandonment.TTL || c.msg.prKind == Abandonment.RTX) {
            prChunks++;
        }
        nextTsn++;
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
    }

    /** A chunk marked for retransmission went into a packet to {@code p}. */
    void resent(SentChunk c, Path p, long now) {
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
        fitPath(p.index());
        rtxInFlight[p.index()] += c.length;
    }

    /**
     * The packet's worth of fast retransmissions went: chunks still marked for fast retransmit wait
     * for the window like other marked chunks (RFC 9260 section 7.2.4 step 5).
     */
    void endFastRetransmit() {
        for (int i = 0; i < ring.size(); i++) {
            ring.get(i).fast = false;
        }
        fastPending = 0;
    }

    /** Marks a chunk for retransmission (T3-rtx, RFC 9260 section 6.3.3 E3): out of the flight size. */
    void mark(SentChunk c) {
        c.marked = true;
        markedCount++;
        leaveFlight(c);
        clearProbe(c);
    }

    /** Takes an in-flight chunk out of its path's flight size. */
    private void leaveFlight(SentChunk c) {
        if (c.inFlight) {
            c.inFlight = false;
            c.path.addFlight(-c.length);
            if (c.sendCount > 1) {
                rtxInFlight[c.path.index()] -= c.length;
            }
        }
    }

    /**
     * Marks a chunk for fast retransmit (RFC 9260 section 7.2.4 step 1): marked, first in line for
     * the next packet regardless of cwnd, and never fast-retransmitted again.
     */
    void markFast(SentChunk c) {
        mark(c);
        c.fast = true;
        c.fastDone = true;
        fastPending++;
    }

    private void clearProbe(SentChunk c) {
        if (c.rttProbe) {
            c.rttProbe = false;
            rttProbeMask &= ~(1L << c.path.index());
        }
    }

    // ------------------------------------------------------------------ abandonment

    /**
     * Abandons an outstanding chunk (PR-SCTP, RFC 3758 section 3.5 A2): it is treated as finally
     * acknowledged and no longer outstanding, so it leaves the flight size, the retransmission
     * marks (without crediting the congestion window) and the send buffer; it stays in the queue
     * until the peer's cumulative ack passes it. Not acknowledged yet, it may still arrive and
     * sit in the peer's receive buffer until a FORWARD TSN frees it: it stays in the
     * unacknowledged bytes, so in the peer's window (RFC 9260 section 6.1 rule A), until a SACK
     * reports it or a FORWARD TSN goes past it ({@link #forwardTsnSent}).
     */
    void abandon(SentChunk c) {
        if (c.abandoned) {
            return;
        }
        c.abandoned = true;
        if (c.acked) {
            c.acked = false;
            gapAckedCount--;
        } else {
            c.inWindow = true;
        }
        leaveFlightAndMarks(c);
        clearProbe(c);
        if (c.nrAcked) {
            c.nrAcked = false; // out of the send buffer already
            nrLeaves(c);
        } else {
            outstandingBytes -= c.length;
        }
        countPrGone(c);
    }

    /**
     * Takes the TSN {@link #nextTsn()} for the end of a partly sent message being abandoned: a
     * chunk that is abandoned from the start and never sent (no path, no bytes), so that the
     * Advanced.Peer.Ack.Point, and the FORWARD TSN, go past the whole message.
     */
    /**
     * A FORWARD TSN with New Cumulative TSN {@code newCum} goes to the peer: the abandoned chunks
     * up to it no longer take room in the peer's window (it drops them on receipt, RFC 3758
     * section 3.6).
     */
    void forwardTsnSent(int newCum) {
        for (int i = 0; i < ring.size() && Serial.le(ring.get(i).tsn, newCum); i++) {
            leaveWindow(ring.get(i));
        }
    }

    /** An abandoned chunk still counted in the unacknowledged bytes stops counting. */
    private void leaveWindow(SentChunk c) {
        if (c.inWindow) {
            c.inWindow = false;
            unackedBytes -= c.length;
        }
    }

    void addAbandonedEnd(SentChunk c) {
        c.abandoned = true;
        nextTsn++;
        ring.addLast(c);
    }

    /** A chunk acknowledged or abandoned is neither in flight nor marked for retransmission any more. */
    private void leaveFlightAndMarks(SentChunk c) {
        leaveFlight(c);
        if (c.marked) {
            c.marked = false;
            markedCount--;
            if (c.fast) {
                c.fast = false;
                fastPending--;
            }
        }
    }

    /** Outstanding chunks of messages with a lifetime or a retransmission limit, not abandoned. */
    int prChunks() {
        return prChunks;
    }

    private void countPrGone(SentChunk c) {
        if (c.msg.prKind == Abandonment.TTL || c.msg.prKind == Abandonment.RTX) {
            prChunks--;
        }
    }

    /**
     * The index of the first outstanding chunk of {@code m}, or -1 when none is outstanding. A
     * DATA message's fragments have consecutive TSNs, so its first outstanding one is at its first
     * TSN or at the queue's head; with {@code interleaved} (I-DATA, RFC 8260 section 2.1) other
     * messages' chunks may lie between, and the queue is searched from there.
     */
    int indexOf(OutboundMessage m, boolean interleaved) {
        if (ring.size() == 0 || m.sentOffset == 0) {
            return -1;
        }
        int i = Math.max(0, m.firstTsn - ring.first().tsn);
        if (!interleaved) {
            return i < ring.size() && ring.get(i).msg == m ? i : -1;
        }
        for (; i < ring.size(); i++) {
            if (ring.get(i).msg == m) {
                return i;
            }
        }
        return -1;
    }

    /**
     * A chunk leaves the queue: if it is the last one of its message that will ever be (the end
     * fragment, or the last fragment sent of an abandoned message), the message goes back to the
     * pool.
     */
    private void releaseIfLast(SentChunk c) {
        OutboundMessage m = c.msg;
        if ((c.flags & DataChunk.FLAG_E) != 0 || (m.abandoned && c.offset + c.length == m.sentOffset)) {
            pool.release(m); // every fragment is acknowledged, or abandoned, now
        }
    }

    // ------------------------------------------------------------------ a SACK

    /**
     * Starts the processing of a SACK: clears the per-path facts and finds, per path with data in
     * flight, its earliest chunk in flight (scanning from the oldest only until every such path
     * has one, usually the first few chunks).
     */
    void beginSack(List<Path> paths) {
        for (int pi0 = 0; pi0 < paths.size(); pi0++) {
            fitPath(paths.get(pi0).index());
        }
        fullyUsedMask = 0;
        htna1Mask = 0;
        htna2Mask = 0;
        long need = 0;
        long needNew = 0;
        long needRtx = 0;
        for (int pi0 = 0; pi0 < paths.size(); pi0++) {
            Path p = paths.get(pi0);
            int i = p.index();
            newlyAckedBytes[i] = 0;
            earliestBefore[i] = null;
            earliestNewBefore[i] = null;
            earliestRtxBefore[i] = null;
            pendingOnPath[i] = 0;
            if (p.flightSize() >= p.cwnd()) {
                fullyUsedMask |= 1L << i;
            }
            if (p.flightSize() > 0) {
                need |= 1L << i;
                if (rtxInFlight[i] > 0) {
                    needRtx |= 1L << i;
                }
                if (p.flightSize() > rtxInFlight[i]) {
                    needNew |= 1L << i;
                }
            }
        }
        // The scan stops once each path has its earliest chunk in flight, its earliest sent once and
        // its earliest retransmitted: usually after the first few chunks.
        for (int i = 0; i < ring.size() && (need | needNew | needRtx) != 0; i++) {
            SentChunk c = ring.get(i);
            if (c.inFlight) {
                int pi = c.path.index();
                long bit = 1L << pi;
                if ((need & bit) != 0) {
                    earliestBefore[pi] = c;
                    need &= ~bit;
                }
                if (c.sendCount > 1) {
                    if ((needRtx & bit) != 0) {
                        earliestRtxBefore[pi] = c;
                        needRtx &= ~bit;
                    }
                } else if ((needNew & bit) != 0) {
                    earliestNewBefore[pi] = c;
                    needNew &= ~bit;
                }
            }
        }
    }

    /** Whether chunks acknowledged by a gap block are outstanding (they may be reneged). */
    boolean hasGapAcked() {
        return gapAckedCount > 0;
    }

    /**
     * Frees the chunks up to {@code cumTsnAck} (at or after the current point, below {@link
     * #nextTsn()}) and moves the Cumulative TSN Ack Point there (RFC 9260 section 6.2.1 D i).
     */
    void ackCumulative(int cumTsnAck, long now) {
        htna = cumAck;
        anyHtna = false;
        while (ring.size() > 0 && Serial.le(ring.first().tsn, cumTsnAck)) {
            SentChunk c = ring.removeFirst();
            if (c.abandoned) {
                // A2 of RFC 3758 section 3.5: taken out of every count when it was abandoned but
                // the unacknowledged bytes, which it leaves now.
                leaveWindow(c);
                releaseIfLast(c);
                pool.release(c);
                continue;
            }
            if (!c.acked) {
                newlyAcked(c, now);
                htna = c.tsn;
                anyHtna = true;
            } else {
                gapAckedCount--;
            }
            clearProbe(c);
            if (c.nrAcked) {
                nrLeaves(c); // out of outstandingBytes since its NR-SACK
            } else {
                outstandingBytes -= c.length;
            }
            countPrGone(c);
            releaseIfLast(c);
            pool.release(c); // read no more this SACK except for acked and path (earliestBefore)
        }
        cumAck = cumTsnAck;
        highestReported = cumAck;
    }

    /**
     * Gap blocks and reneging, in one pass over the outstanding chunks: a chunk covered by a block
     * is acknowledged; one acknowledged before and no longer covered is outstanding again and
     * T3-rtx of its path is started (RFC 9260 section 6.2.1 D iv).
     *
     * @param gapStarts start offsets of the gap blocks (relative to the cumulative ack), ascending
     * @param gapEnds end offsets, inclusive
     */
    void ackGaps(int[] gapStarts, int[] gapEnds, int gapCount, long now) {
        ackGaps(gapStarts, gapEnds, gapCount, gapStarts, gapEnds, 0, now);
    }

    /**
     * As {@link #ackGaps(int[], int[], int, long)} for an NR-SACK (draft-natarajan-tsvwg-sctp-nrsack-08
     * section 5): a chunk covered by a Gap Ack Block or an NR Gap Ack Block is acknowledged; one
     * covered by an NR Gap Ack Block is also non-renegable: it leaves the send buffer at once
     * ({@link #outstandingBytes()}) and is never reneged nor retransmitted, whatever later SACKs
     * say (a later report of it missing is counted in {@link #nrReneged()} and ignored).
     *
     * @param nrStarts start offsets of the NR gap blocks (relative to the cumulative ack), ascending
     * @param nrEnds end offsets, inclusive
     */
    void ackGaps(int[] gapStarts, int[] gapEnds, int gapCount, int[] nrStarts, int[] nrEnds, int nrCount, long now) {
        int k = 0;
        int m = 0;
        for (int i = 0; i < ring.size(); i++) {
            SentChunk c = ring.get(i);
            int off = c.tsn - cumAck;
            while (k < gapCount && gapEnds[k] < off) {
                k++;
            }
            while (m < nrCount && nrEnds[m] < off) {
                m++;
            }
            boolean nr = m < nrCount && nrStarts[m] <= off && off <= nrEnds[m];
            boolean covered = nr || (k < gapCount && gapStarts[k] <= off && off <= gapEnds[k]);
            if (c.abandoned) {
                if (covered) {
                    leaveWindow(c); // the peer has it: its a_rwnd counts it from now on
                }
                continue; // whatever the peer says of it, it is not sent again
            }
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
                if (nr && !c.nrAcked) {
                    nrAck(c);
                }
            } else if (c.nrAcked) {
                nrReneged++; // promised never to renege: it is not sent again
            } else if (c.acked) {
                c.acked = false; // reneged (RFC 9260 6.2.1 D iv)
                gapAckedCount--;
                unackedBytes += c.length;
                c.missCount++;
                c.path.startT3(now);
            }
        }
    }

    /**
     * A chunk is NR-acknowledged: out of the send buffer now; once its whole message is, the
     * message's data goes back to the pool (it will never be sent again), as usrsctp frees an
     * NR-acknowledged chunk's data at once.
     */
    private void nrAck(SentChunk c) {
        c.nrAcked = true;
        outstandingBytes -= c.length;
        nrAckedBytes += c.length;
        nrPinnedBytes += c.length;
        OutboundMessage m = c.msg;
        m.nrAckedBytes += c.length;
        m.nrQueuedBytes += c.length;
        if (m.nrAckedBytes == m.length && m.sentOffset == m.length && m.data != null && !m.abandoned) {
            nrPinnedBytes -= m.nrQueuedBytes;
            pool.release(m.data);
            m.data = null;
        }
    }

    /** An NR-acknowledged chunk leaves the queue (cumulative ack) or is abandoned. */
    private void nrLeaves(SentChunk c) {
        nrAckedBytes -= c.length;
        OutboundMessage m = c.msg;
        m.nrQueuedBytes -= c.length;
        if (m.data != null) {
            nrPinnedBytes -= c.length;
        }
    }

    /** Lets the ring's array go when nothing is outstanding ({@link SentChunkRing#trim()}). */
    void trimRing() {
        ring.trim();
    }

    /** Slots of the ring's array. */
    int ringCapacity() {
        return ring.capacity();
    }

    /** Grows the per-path arrays to hold path index {@code i}. */
    private void fitPath(int i) {
        if (i < htna1.length) {
            return;
        }
        int n = Math.min(MAX_PATHS, Math.max(i + 1, htna1.length * 2));
        newlyAckedBytes = java.util.Arrays.copyOf(newlyAckedBytes, n);
        earliestBefore = java.util.Arrays.copyOf(earliestBefore, n);
        pendingOnPath = java.util.Arrays.copyOf(pendingOnPath, n);
        earliestNewBefore = java.util.Arrays.copyOf(earliestNewBefore, n);
        earliestRtxBefore = java.util.Arrays.copyOf(earliestRtxBefore, n);
        rtxInFlight = java.util.Arrays.copyOf(rtxInFlight, n);
        htna1 = java.util.Arrays.copyOf(htna1, n);
        htna2 = java.util.Arrays.copyOf(htna2, n);
    }

    /** Slots in the per-path arrays (for tests: grows with the highest path index only). */
    int pathSlots() {
        return htna1.length;
    }

    private void newlyAcked(SentChunk c, long now) {
        c.acked = true;
        int i = c.path.index();
        fitPath(i);
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
        leaveFlightAndMarks(c);
        if (c.rttProbe) {
            if (c.sendCount == 1) {
                c.path.rto().sample(now - c.sentNanos);
            }
            clearProbe(c);
        }
    }

    /** The peer's window after the SACK: its a_rwnd less what is still unacknowledged (6.2.1). */
    void updatePeerRwnd(long aRwnd) {
        peerRwnd = Math.max(0, aRwnd - unackedBytes);
        if (probing) {
            probeAnswered = true; // the peer is alive, its window closed (RFC 9260 6.1 A)
            if (unackedBytes == 0) {
                probing = false; // the probe was acknowledged
            }
        }
    }

    /** Bytes last sent on path {@code i} newly acknowledged by this SACK. */
    long newlyAckedBytes(int i) {
        return i < newlyAckedBytes.length ? newlyAckedBytes[i] : 0;
    }

    /** Whether path {@code i}'s flight size was at least its cwnd before this SACK. */
    boolean cwndFullyUsed(int i) {
        return (fullyUsedMask & (1L << i)) != 0;
    }

    /**
     * Whether the chunk that was earliest in flight on path {@code i} before this SACK is now
     * acknowledged: path i's pseudo-cumulative ack advanced (CMT), and T3-rtx restarts (R3).
     */
    boolean earliestAcked(int i) {
        return i < earliestBefore.length && earliestBefore[i] != null && earliestBefore[i].acked;
    }

    /**
     * CUCv2 (Iyengar et al., the cwnd update for CMT with retransmissions): whether path {@code i}'s
     * pseudo-cumulative ack (its earliest chunk in flight sent once) or its rtx-pseudo-cumulative
     * ack (its earliest retransmission in flight) was acknowledged by this SACK. Unlike {@link
     * #earliestAcked}, a retransmission in flight does not hide the progress of new data there.
     */
    boolean pseudoCumackAdvanced(int i) {
        return (earliestNewBefore[i] != null && earliestNewBefore[i].acked)
                || (earliestRtxBefore[i] != null && earliestRtxBefore[i].acked);
    }

    /** The highest TSN newly acknowledged by this SACK (valid when {@link #anyHtna()}). */
    int htna() {
        return htna;
    }

    /** Whether this SACK newly acknowledged any chunk. */
    boolean anyHtna() {
        return anyHtna;
    }

    /** The highest TSN this SACK reports received (the cumulative ack or the last gap-acked chunk). */
    int highestReported() {
        return highestReported;
    }

    /** Whether this SACK newly acknowledged a chunk last sent on path {@code i}. */
    boolean hasPathHtna(int i) {
        return (htna1Mask & (1L << i)) != 0;
    }

    /** The highest TSN newly acknowledged among the chunks last sent on path {@code i}. */
    int pathHtna(int i) {
        return htna1[i];
    }

    /** Whether at least two chunks last sent on path {@code i} were newly acknowledged. */
    boolean hasSecondPathHtna(int i) {
        return (htna2Mask & (1L << i)) != 0;
    }

    /** The second highest TSN newly acknowledged among the chunks last sent on path {@code i}. */
    int secondPathHtna(int i) {
        return htna2[i];
    }

    /** Counts one chunk still outstanding (neither acknowledged nor marked) on path {@code i}. */
    void countPending(int i) {
        fitPath(i);
        pendingOnPath[i]++;
    }

    /**
     * For a SACK without gap blocks and without gap-acknowledged chunks: every outstanding chunk is
     * in flight or marked, so a path has pending data iff it has data in flight.
     */
    void countPendingByFlight(List<Path> paths) {
        for (int pi0 = 0; pi0 < paths.size(); pi0++) {
            Path p = paths.get(pi0);
            fitPath(p.index());
            pendingOnPath[p.index()] = p.flightSize() > 0 ? 1 : 0;
        }
    }

    /** Whether chunks sent on path {@code i} are still outstanding after this SACK. */
    boolean pendingOn(int i) {
        return i < pendingOnPath.length && pendingOnPath[i] != 0;
    }

    // ------------------------------------------------------------------ abort

    /**
     * Empties the queue for abort or failure: adds each message with an outstanding chunk to {@code
     * out}, once each in sending order, takes the chunks out of their paths' flight, and returns
     * the messages added.
     */
    java.util.Set<OutboundMessage> drainInto(List<UnsentMessage> out) {
        // With I-DATA the chunks of several messages interleave: each message is reported once.
        java.util.Set<OutboundMessage> added = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (int i = 0; i < ring.size(); i++) {
            SentChunk c = ring.get(i);
            if (c.inFlight) {
                c.path.addFlight(-c.length);
            }
            OutboundMessage m = c.msg;
            if (m.data == null && !m.abandoned) {
                continue; // wholly NR-acknowledged: delivered for good
            }
            if (!m.abandoned && added.add(m)) { // an abandoned one was handed back already
                out.add(new UnsentMessage(m.streamId, m.ppid, m.unordered, m.exactData(), true));
            }
        }
        ring.clear();
        java.util.Arrays.fill(rtxInFlight, 0L);
        outstandingBytes = 0;
        unackedBytes = 0;
        nrAckedBytes = 0;
        nrPinnedBytes = 0;
        markedCount = 0;
        fastPending = 0;
        rttProbeMask = 0;
        gapAckedCount = 0;
        prChunks = 0;
        return added;
    }
}
