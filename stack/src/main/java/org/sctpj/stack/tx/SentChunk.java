package org.sctpj.stack.tx;

import org.sctpj.stack.path.Path;

/**
 * A DATA chunk sent and not yet covered by the cumulative ack. One object per outstanding chunk: a
 * primitive-array ring would avoid the allocation and is a later optimisation.
 */
final class SentChunk {
    final int tsn;
    final OutboundMessage msg;
    final int offset;
    final int length;
    final int flags;
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

    int missCount;
    int sendCount;
    long sentNanos;

    SentChunk(int tsn, OutboundMessage msg, int offset, int length, int flags) {
        this.tsn = tsn;
        this.msg = msg;
        this.offset = offset;
        this.length = length;
        this.flags = flags;
    }
}
