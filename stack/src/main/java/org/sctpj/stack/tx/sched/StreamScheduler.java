package org.sctpj.stack.tx.sched;

import org.sctpj.stack.StreamSchedulerKind;

/**
 * The turn order of the outgoing streams (RFC 8260 section 3): which stream's head message gives
 * the next chunk of new data. The send queue keeps the messages, one FIFO per stream, and tells
 * its scheduler what was queued and what was sent; the scheduler only keeps the order, by stream
 * id. One implementation per scheduler of RFC 8260 section 3, made by {@link
 * #create(StreamSchedulerKind)}.
 *
 * <p>Calling contract, all on the association's thread:
 *
 * <ul>
 *   <li>{@link #enqueued} for every message the user queues, in the order the user queued them;
 *   <li>{@link #packetStarted} before new data goes into a fresh packet;
 *   <li>{@link #next} for the stream whose turn it is; it may be asked again without anything
 *       sent (the packet had no room) and must then give the same answer;
 *   <li>{@link #sent} when the turn may pass: with interleaving after each chunk cut from a
 *       stream's head message; without it (DATA, RFC 9260 section 6.9), after the last chunk of
 *       each message, for all its bytes sent since the previous call: the queue itself holds the
 *       turn while a message is partly sent, and does not ask {@link #next} meanwhile;
 *   <li>a head message that leaves unsent (abandoned) counts as sent with 0 bytes, one behind the
 *       head is {@link #removedBehindHead}.
 * </ul>
 *
 * <p>Implementations allocate nothing per message or chunk once their per-stream arrays cover the
 * stream ids in use (they grow with the highest id seen, up to 65535).
 */
public interface StreamScheduler {

    /** The scheduler of {@code kind}, empty, every stream at its default value. */
    static StreamScheduler create(StreamSchedulerKind kind) {
        return switch (kind) {
            case FIRST_COME_FIRST_SERVED -> new FirstComeFirstServedScheduler();
            case ROUND_ROBIN -> new RoundRobinScheduler();
            case ROUND_ROBIN_PER_PACKET -> new RoundRobinPerPacketScheduler();
            case PRIORITY -> new PriorityScheduler();
            case FAIR_CAPACITY -> new FairCapacityScheduler();
            case WEIGHTED_FAIR_QUEUEING -> new WeightedFairQueueingScheduler();
        };
    }

    /** Which scheduler this is. */
    StreamSchedulerKind kind();

    /**
     * A message was queued on {@code streamId}.
     *
     * @param length its bytes not yet sent (all of them, except for a partly sent message handed to
     *     a new scheduler at a switch)
     * @param first the stream had nothing queued before: this message is its head
     */
    void enqueued(int streamId, int length, boolean first);

    /** The stream whose turn it is, or -1 when no stream has queued data. */
    int next();

    /**
     * {@code bytes} of the head message of {@code streamId} went into chunks since the previous
     * call for this stream (one chunk with interleaving, the rest of the message without).
     *
     * @param messageDone they were the message's last bytes: it left the stream's queue
     * @param headUnsent the unsent bytes of the stream's head message now (the same message, or
     *     the next one when {@code messageDone}); 0 when the stream has nothing queued any more
     */
    void sent(int streamId, int bytes, boolean messageDone, int headUnsent);

    /** A new packet is about to be filled with new data. */
    void packetStarted();

    /**
     * A message behind the head of {@code streamId}'s queue left it unsent (abandoned by PR-SCTP,
     * RFC 3758 section 3.5): it was the stream's message at {@code position} (1 = the one right
     * behind the head). Schedulers that order streams by their head message have nothing to do
     * (the default); one that keeps a place per queued message drops that one.
     */
    default void removedBehindHead(int streamId, int position) {}

    /**
     * Sets the per-stream value (RFC 8260 section 4.3.3 SCTP_SS_VALUE: the priority of {@link
     * StreamSchedulerKind#PRIORITY}, the weight of {@link
     * StreamSchedulerKind#WEIGHTED_FAIR_QUEUEING}); takes effect for the next turn.
     *
     * @throws IllegalStateException if this scheduler has no per-stream value
     * @throws IllegalArgumentException outside {@link StreamSchedulerKind#minStreamValue()} to
     *     {@link StreamSchedulerKind#maxStreamValue()}
     */
    default void setValue(int streamId, int value) {
        throw new IllegalStateException("the " + kind() + " stream scheduler has no per-stream value: switch the"
                + " association to PRIORITY or WEIGHTED_FAIR_QUEUEING first (setStreamScheduler)");
    }

    /** The per-stream value of {@code streamId} ({@link StreamSchedulerKind#defaultStreamValue()} if never set). */
    default int value(int streamId) {
        return kind().defaultStreamValue();
    }

    /** Checks {@code value} against the range of {@code kind}. */
    static void checkValue(StreamSchedulerKind kind, int value) {
        if (value < kind.minStreamValue() || value > kind.maxStreamValue()) {
            throw new IllegalArgumentException("a " + kind + " stream value must be " + kind.minStreamValue() + ".."
                    + kind.maxStreamValue() + ", was " + value
                    + (kind == StreamSchedulerKind.PRIORITY
                            ? ": 0 is the highest priority, larger values wait"
                            : ": the weight is the stream's share relative to the others (1 is the default)"));
        }
    }
}
