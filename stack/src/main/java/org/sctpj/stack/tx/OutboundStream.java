package org.sctpj.stack.tx;

import java.util.ArrayDeque;

/** One outgoing stream: its FCFS message queue and the next SSN for ordered messages. */
final class OutboundStream {
    final int id;
    final ArrayDeque<OutboundMessage> queue = new ArrayDeque<>();
    int nextSsn;

    OutboundStream(int id) {
        this.id = id;
    }
}
