package org.sctpj.stack.tx.sched;

import org.sctpj.stack.StreamSchedulerKind;

/**
 * Fair capacity (RFC 8260 section 3.5; usrsctp calls it fair bandwidth): the stream that has sent
 * the fewest bytes goes next ({@link VirtualClockScheduler} with every weight 1, keyed by the
 * stream's bytes sent), so a stream of small messages sends many of them for each large message of
 * another stream, and both get the same bytes. A stream that gets data after having none starts
 * level with the one whose turn it was, with no credit for the time it was idle.
 */
final class FairCapacityScheduler extends VirtualClockScheduler {

    @Override
    public StreamSchedulerKind kind() {
        return StreamSchedulerKind.FAIR_CAPACITY;
    }

    @Override
    int weight(int streamId) {
        return 1;
    }

    @Override
    boolean byFinishTime() {
        return false;
    }
}
