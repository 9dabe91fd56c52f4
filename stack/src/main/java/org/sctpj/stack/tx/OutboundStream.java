package org.sctpj.stack.tx;

import java.util.ArrayDeque;

/** One outgoing stream: its FCFS message queue and the next SSN for ordered messages. */
final class OutboundStream {
    final int id;
    final ArrayDeque<OutboundMessage> queue = new ArrayDeque<>();
    int nextSsn;
    /**
     * Messages accepted while the stream waits for a reset (RFC 6525 section 5.1.2), outside the
     * turn order; null when the stream is not held.
     */
    ArrayDeque<OutboundMessage> held;

    OutboundStream(int id) {
        this.id = id;
    }
}
