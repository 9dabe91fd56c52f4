package org.sctpj.stack.tx;

import java.util.ArrayDeque;

/**
 * One outgoing stream: its FCFS message queue, the next SSN for ordered messages (DATA) and the
 * next MIDs for ordered and for unordered messages (I-DATA, RFC 8260 section 2.1: two independent
 * 32-bit counters per stream, both starting at 0).
 */
final class OutboundStream {
    final int id;
    final ArrayDeque<OutboundMessage> queue = new ArrayDeque<>();
    int nextSsn;
    /**
     * Messages accepted while the stream waits for a reset (RFC 6525 section 5.1.2), outside the
     * turn order; null when the stream is not held.
     */
    ArrayDeque<OutboundMessage> held;

    int nextMid;
    int nextUnorderedMid;

    OutboundStream(int id) {
        this.id = id;
    }
}
