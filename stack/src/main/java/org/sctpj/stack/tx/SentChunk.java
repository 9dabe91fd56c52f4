package org.sctpj.stack.tx;

import org.sctpj.stack.path.Path;

/**
 * A DATA chunk sent and not yet covered by the cumulative ack. Recycled by the sender's {@link
 * SendPool} once cumulatively acknowledged (steady-state sending allocates none), so every field
 * is set by {@link #init}.
 */
final class SentChunk {
    int tsn;
    OutboundMessage msg;
    int offset;
    int length;
    int flags;
    /** With I-DATA, the chunk's Fragment Sequence Number (0 for the first fragment, which carries the PPID). */
    int fsn;
    /** Where it was last sent. */
    Path path;
    /** Acknowledged by a gap block (may be reneged) or by the cumulative ack. */
    boolean acked;
    /** Counted in its path's flight size. */
    boolean inFlight;
    /** Marked for retransmission. */
    boolean marked;
    /** Marked by fast retransmit and not yet resent. */
    boolean fast;
    /** Was fast-retransmitted once already (never twice, RFC 9260 section 7.2.4). */
    boolean fastDone;
    /** Used for an RTT measurement (sent once, the path's probe). */
    boolean rttProbe;
    /**
     * Abandoned (PR-SCTP, RFC 3758 section 3.5 A2): finally acknowledged as far as sending is
     * concerned, neither in flight, nor marked, nor counted in the buffer; it stays in the queue
     * only until the peer's cumulative ack passes it (after a FORWARD TSN).
     */
    boolean abandoned;
    /**
     * Abandoned before it was acknowledged, and still counted in the unacknowledged bytes that
     * close the peer's window (RFC 9260 section 6.1 rule A): the peer may hold it until a gap
     * block or the cumulative ack reports it, or a FORWARD TSN goes past it.
     */
    boolean inWindow;
    /**
     * Acknowledged by an NR Gap Ack Block (NR-SACK, draft-natarajan-tsvwg-sctp-nrsack-08 section
     * 5): the peer will never renege on it, so it is never retransmitted and no longer counts in
     * the send buffer; it stays in the queue (its TSN is not cumulatively acknowledged yet).
     */
    boolean nrAcked;

    int missCount;
    int sendCount;
    long sentNanos;

    SentChunk init(int tsn, OutboundMessage msg, int offset, int length, int flags) {
        this.tsn = tsn;
        this.msg = msg;
        this.offset = offset;
        this.length = length;
        this.flags = flags;
        path = null;
        acked = false;
        inFlight = false;
        marked = false;
        fast = false;
        fastDone = false;
        rttProbe = false;
        abandoned = false;
        inWindow = false;
        nrAcked = false;
        missCount = 0;
        sendCount = 0;
        sentNanos = 0;
        return this;
    }
}
