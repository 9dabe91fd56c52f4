package org.sctpj.stack.tx;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import org.sctpj.stack.PrPolicy;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.StreamSchedulerKind;
import org.sctpj.stack.tx.DataSender.SendStatus;
import org.sctpj.stack.tx.sched.StreamScheduler;
import org.sctpj.stack.wire.chunk.DataChunk;

/**
 * The messages accepted and not yet fully sent, per outbound stream, and the send-buffer
 * accounting (RFC 9260 section 6.1; the buffer is {@link SctpOptions#sendBufferBytes()} of user
 * data, queued here plus outstanding in the {@link RetransmissionQueue}). The turn order of the
 * streams is its {@link StreamScheduler}'s (RFC 8260 section 3; round robin unless {@link
 * SctpOptions#streamScheduler()} or {@link #setScheduler} says otherwise).
 *
 * <p>Without interleaving (DATA) a stream whose head message is partly sent keeps the turn until
 * that message is complete, whatever the scheduler: the fragments of one message take
 * consecutive TSNs (RFC 9260 section 6.9). With {@link #setInterleaving interleaving} (I-DATA, RFC
 * 8260) the scheduler may give the turn to another stream between any two chunks; each stream
 * keeps its own partly sent head message.
 */
final class SendQueue {

    private final SctpOptions options;
    private final SendPool pool;
    private final RetransmissionQueue outstanding;
    private int outboundStreams;

    /** Outbound streams by id, created on first use (an array: no boxing on the hot path). */
    private OutboundStream[] streams = new OutboundStream[16];

    private StreamScheduler scheduler;
    /** The stream holding the turn with a partly sent message (no interleaving), or null. */
    private OutboundStream locked;
    /** Bytes {@link #locked} sent of its message that its scheduler has not heard of yet. */
    private int lockedBytes;

    private boolean interleaving;
    /** The order in which the user queued the messages, across streams ({@link OutboundMessage#seq}). */
    private long nextSeq;

    private long queuedBytes;
    private int queuedMessages;
    private boolean holdAll;
    private int heldMessages;
    private long heldBytes;
    private int immediateQueued;
    /** Where the lifetime timer's deadline lives (see {@link #bindLifetimeTimer}); own until bound. */
    private long[] lifetimeSlots = {Long.MAX_VALUE};

    private int lifetimeSlot;
    /** The chunk header of each queued message in {@link #chunkBytesEstimate()}: DATA or I-DATA. */
    private int chunkHeader = DataChunk.FIXED_LENGTH;

    SendQueue(SctpOptions options, SendPool pool, RetransmissionQueue outstanding, int outboundStreams) {
        this.options = options;
        this.pool = pool;
        this.outstanding = outstanding;
        this.scheduler = StreamScheduler.create(options.streamScheduler());
        setOutboundStreams(outboundStreams);
    }

    /** The bytes of one chunk's header (16 for DATA, 20 for I-DATA), for {@link #chunkBytesEstimate()}. */
    void setChunkHeader(int bytes) {
        chunkHeader = bytes;
    }

    /** The scheduler deciding the turn order now. */
    StreamSchedulerKind schedulerKind() {
        return scheduler.kind();
    }

    /**
     * Switches to the scheduler of {@code kind} (RFC 8260 section 4.3.2), keeping every queued
     * message: the new scheduler learns them in the order the user queued them; a stream holding
     * the turn with a partly sent message keeps it. The per-stream values start at their defaults.
     * Nothing happens if {@code kind} is the scheduler in use.
     */
    void setScheduler(StreamSchedulerKind kind) {
        if (kind == scheduler.kind()) {
            return;
        }
        refeed(StreamScheduler.create(kind));
    }

    /** Makes {@code next} the scheduler, telling it of every queued message in the user's order. */
    private void refeed(StreamScheduler next) {
        for (OutboundMessage m : queuedInSendOrder()) {
            OutboundStream s = streams[m.streamId];
            next.enqueued(m.streamId, m.unsentBytes(), s.queue.peekFirst() == m);
        }
        scheduler = next;
    }

    /**
     * Takes every queued message that {@code which} selects out of the queue, for abandoning
     * unsent data (PR-SCTP, RFC 3758 section 3.5), and returns them in the order the user queued
     * them. The rest stay in their streams' order; the scheduler starts over with them as at a
     * switch, but keeps the per-stream values. A partly sent message may be selected: its sent
     * fragments are then the caller's to abandon, and its stream no longer holds the turn.
     * Allocates: for rare events, not the per-message path.
     */
    List<OutboundMessage> removeIf(Predicate<OutboundMessage> which) {
        List<OutboundMessage> removed = new ArrayList<>();
        for (OutboundMessage m : queuedInSendOrder()) {
            if (!which.test(m)) {
                continue;
            }
            OutboundStream s = streams[m.streamId];
            if (s == locked && s.queue.peekFirst() == m) {
                locked = null;
                lockedBytes = 0;
            }
            s.queue.remove(m);
            queuedBytes -= m.unsentBytes();
            queuedMessages--;
            if (m.immediate) {
                immediateQueued--;
            }
            removed.add(m);
        }
        if (!removed.isEmpty()) {
            StreamScheduler next = StreamScheduler.create(scheduler.kind());
            if (next.kind().hasStreamValue()) {
                // Values may be set on streams that never had a message: every open stream.
                for (int id = 0, n = Math.max(streams.length, outboundStreams); id < n; id++) {
                    int v = scheduler.value(id);
                    if (v != next.kind().defaultStreamValue()) {
                        next.setValue(id, v);
                    }
                }
            }
            refeed(next);
        }
        return removed;
    }

    /**
     * Sets the scheduler's value of {@code streamId} (RFC 8260 section 4.3.3 SCTP_SS_VALUE).
     *
     * @throws IllegalArgumentException for a stream not open, or a value out of the scheduler's
     *     range
     * @throws IllegalStateException if the scheduler has no per-stream value
     */
    void setStreamValue(int streamId, int value) {
        checkStream(streamId);
        scheduler.setValue(streamId, value);
    }

    /** The scheduler's value of {@code streamId}. */
    int streamValue(int streamId) {
        checkStream(streamId);
        return scheduler.value(streamId);
    }

    /**
     * Whether messages may interleave (I-DATA, RFC 8260): the scheduler may then switch streams
     * between two chunks of a message. Off (DATA), a stream keeps its turn until its head message
     * is fully sent.
     *
     * @throws IllegalStateException when turning it off while a stream other than the one holding
     *     the turn has a partly sent message (DATA could not continue them in TSN order)
     */
    void setInterleaving(boolean on) {
        if (on == interleaving) {
            return;
        }
        if (on) {
            if (lockedBytes > 0) {
                scheduler.sent(
                        locked.id, lockedBytes, false, locked.queue.peekFirst().unsentBytes());
            }
            locked = null;
            lockedBytes = 0;
        } else {
            OutboundStream partly = null;
            for (OutboundStream s : streams) {
                OutboundMessage m = s == null ? null : s.queue.peekFirst();
                if (m != null && m.sentOffset > 0) {
                    if (partly != null) {
                        throw new IllegalStateException("streams " + partly.id + " and " + s.id
                                + " both have a partly sent message: interleaving can only be turned off"
                                + " before data is sent or when at most one message is partly sent");
                    }
                    partly = s;
                }
            }
            locked = partly;
        }
        interleaving = on;
    }

    /** See {@link #setInterleaving}. */
    boolean interleaving() {
        return interleaving;
    }

    /** See {@link DataSender#setOutboundStreams}. */
    void setOutboundStreams(int n) {
        if (n < 1 || n > 65535) {
            throw new IllegalArgumentException("outbound streams must be 1..65535, was " + n);
        }
        outboundStreams = n;
    }

    int outboundStreams() {
        return outboundStreams;
    }

    /** See {@link DataSender#send}. */
    SendStatus send(int streamId, int ppid, boolean unordered, boolean immediate, ByteBuffer data) {
        return send(streamId, ppid, unordered, immediate, data, PrPolicy.RELIABLE, 0);
    }

    /** See {@link DataSender#send(int, int, boolean, boolean, ByteBuffer, PrPolicy, long)}. */
    SendStatus send(
            int streamId, int ppid, boolean unordered, boolean immediate, ByteBuffer data, PrPolicy policy, long now) {
        int len = data.remaining();
        check(streamId, len);
        if (len > freeBytes()) {
            return SendStatus.WOULD_BLOCK;
        }
        byte[] copy = pool.array(len);
        data.get(copy, 0, len);
        enqueue(streamId, ppid, unordered, immediate, copy, len, policy, now);
        return SendStatus.ACCEPTED;
    }

    /** See {@link DataSender#sendOwned}. */
    SendStatus sendOwned(int streamId, int ppid, boolean unordered, boolean immediate, byte[] array, int length) {
        return sendOwned(streamId, ppid, unordered, immediate, array, length, PrPolicy.RELIABLE, 0);
    }

    /** See {@link DataSender#sendOwned(int, int, boolean, boolean, byte[], int, PrPolicy, long)}. */
    SendStatus sendOwned(
            int streamId,
            int ppid,
            boolean unordered,
            boolean immediate,
            byte[] array,
            int length,
            PrPolicy policy,
            long now) {
        if (length > array.length) {
            throw new IllegalArgumentException("length " + length + " exceeds the array's " + array.length + " bytes");
        }
        check(streamId, length);
        if (length > freeBytes()) {
            return SendStatus.WOULD_BLOCK;
        }
        enqueue(streamId, ppid, unordered, immediate, array, length, policy, now);
        return SendStatus.ACCEPTED;
    }

    private void checkStream(int streamId) {
        if (streamId < 0 || streamId >= outboundStreams) {
            throw new IllegalArgumentException("stream " + streamId + " is not open: use a stream below "
                    + outboundStreams + " (the negotiated outbound streams)");
        }
    }

    private void check(int streamId, int len) {
        checkStream(streamId);
        if (len == 0) {
            throw new IllegalArgumentException("a message must carry at least one byte (RFC 9260 has no empty DATA)");
        }
        if (len > options.maxMessageSize()) {
            throw new IllegalArgumentException("message of " + len + " bytes exceeds maxMessageSize "
                    + options.maxMessageSize() + ": split it or raise the option");
        }
    }

    private void enqueue(
            int streamId,
            int ppid,
            boolean unordered,
            boolean immediate,
            byte[] data,
            int len,
            PrPolicy policy,
            long now) {
        OutboundStream s = stream(streamId);
        OutboundMessage m = pool.message().init(streamId, ppid, unordered, immediate, data, len);
        if (!policy.isReliable()) {
            Abandonment.apply(m, policy, now); // a lifetime runs from the send call, held or not
            if (m.prKind == Abandonment.TTL) {
                long end = lifetimeEnd(m);
                if (end < lifetimeSlots[lifetimeSlot]) {
                    lifetimeSlots[lifetimeSlot] = end;
                }
            }
        }
        if (s.held == null && holdAll) {
            s.held = new ArrayDeque<>();
        }
        if (s.held != null) {
            s.held.addLast(m); // the stream waits for its reset (RFC 6525 section 5.1.2)
            heldMessages++;
            heldBytes += len;
            return;
        }
        admit(s, m);
    }

    /** Puts {@code m} at the end of its stream's queue and tells the scheduler. */
    private void admit(OutboundStream s, OutboundMessage m) {
        boolean first = s.queue.isEmpty();
        m.seq = nextSeq++;
        s.queue.addLast(m);
        scheduler.enqueued(s.id, m.length, first);
        queuedBytes += m.length;
        queuedMessages++;
        if (m.immediate) {
            immediateQueued++;
        }
    }

    // ------------------------------------------------------------------ stream reconfiguration

    /**
     * Holds stream {@code id} for a reset (RFC 6525 section 5.1.2): messages accepted from now on
     * wait outside the turn order until {@link #release}; those accepted before are still sent.
     */
    void hold(int id) {
        OutboundStream s = stream(id);
        if (s.held == null) {
            s.held = new ArrayDeque<>();
        }
    }

    /** Holds every stream, those not used yet included (an SSN reset of all streams, an SSN/TSN reset). */
    void holdAll() {
        holdAll = true;
        for (OutboundStream s : streams) {
            if (s != null && s.held == null) {
                s.held = new ArrayDeque<>();
            }
        }
    }

    /** Whether messages accepted before the stream was held are still waiting to be sent. */
    boolean unsentBeforeHold(int id) {
        return id < streams.length && streams[id] != null && !streams[id].queue.isEmpty();
    }

    /** Whether any stream still has messages accepted before it was held waiting to be sent. */
    boolean anyUnsentBeforeHold() {
        return queuedMessages > 0;
    }

    /**
     * Ends the hold of stream {@code id} (no-op when not held); with {@code resetSsn} its next
     * SSN is 0 first (RFC 6525 section 5.1.2: the reset was performed). Its held messages join the
     * queue in the order they were accepted.
     */
    void release(int id, boolean resetSsn) {
        if (id >= streams.length || streams[id] == null) {
            return;
        }
        OutboundStream s = streams[id];
        if (resetSsn) {
            // With I-DATA the reset restarts both Message Identifier sequences too (RFC 8260
            // section 2.3.1: the MIDs take the place of the SSNs).
            s.nextSsn = 0;
            s.nextMid = 0;
            s.nextUnorderedMid = 0;
        }
        ArrayDeque<OutboundMessage> h = s.held;
        if (h == null) {
            return;
        }
        s.held = null;
        for (OutboundMessage m : h) {
            heldMessages--;
            heldBytes -= m.length;
            admit(s, m);
        }
    }

    /** {@link #release} of every stream, and no more holding of streams not used yet. */
    void releaseAll(boolean resetSsn) {
        holdAll = false;
        for (int id = 0; id < streams.length; id++) {
            if (streams[id] != null) {
                release(id, resetSsn);
            }
        }
    }

    /** Messages accepted on held streams, waiting for their reset. */
    int heldMessages() {
        return heldMessages;
    }

    /** Bytes of {@link #heldMessages()}. */
    long heldBytes() {
        return heldBytes;
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

    /**
     * User bytes counted in the send buffer: queued and not yet sent, plus sent and not
     * cumulatively acknowledged, less those acknowledged as non-renegable (NR-SACK). A message's
     * data leaves memory once all of it is NR-acknowledged; the NR-acknowledged fragments of
     * messages not wholly acknowledged stay until then, so beyond one send buffer's worth of them
     * they count again: memory stays within twice the send buffer whatever the peer acknowledges.
     */
    long bufferedBytes() {
        long nrOver = Math.max(0, outstanding.nrPinnedBytes() - options.sendBufferBytes());
        return queuedBytes + heldBytes + outstanding.outstandingBytes() + nrOver;
    }

    /** Room left in the send buffer ({@link SctpOptions#sendBufferBytes()} minus buffered). */
    long freeBytes() {
        return Math.max(0, options.sendBufferBytes() - bufferedBytes());
    }

    /** Messages not yet fully sent. */
    int queuedMessages() {
        return queuedMessages;
    }

    /** Unsent bytes of {@link #queuedMessages()}. */
    long queuedBytes() {
        return queuedBytes;
    }

    /** Queued messages whose last fragment carries the I bit (RFC 7053): Nagle does not hold them. */
    boolean hasImmediate() {
        return immediateQueued > 0;
    }

    /** What the queued messages take as DATA (or I-DATA) chunks: their bytes plus one chunk header each. */
    long chunkBytesEstimate() {
        return queuedBytes + (long) chunkHeader * queuedMessages;
    }

    /**
     * The stream whose turn it is; only while {@link #queuedMessages()} is above 0. The same until
     * {@link #sent} or {@link #packetStarted} is called.
     */
    OutboundStream next() {
        OutboundStream s = locked;
        return s != null ? s : streams[scheduler.next()];
    }

    /** A new packet is about to take new data (the turn of round robin per packet moves on). */
    void packetStarted() {
        scheduler.packetStarted();
    }

    /**
     * {@code len} bytes of the head message of {@code s} (from {@link #next()}) went into a chunk,
     * its {@link OutboundMessage#sentOffset} already advanced; {@code last}: they were its last
     * bytes, so the message leaves the queue. Without interleaving a partly sent message keeps its
     * stream's turn, and the scheduler is told of the message once it is complete; with
     * interleaving it is told of every chunk and may move the turn after any.
     */
    void sent(OutboundStream s, int len, boolean last) {
        queuedBytes -= len;
        if (!last) {
            if (interleaving) {
                scheduler.sent(s.id, len, false, s.queue.peekFirst().unsentBytes());
            } else {
                // DATA: the turn stays with s until the message is complete; the scheduler hears
                // of the message's bytes when its turn can end.
                locked = s;
                lockedBytes += len;
            }
            return;
        }
        OutboundMessage m = s.queue.removeFirst();
        queuedMessages--;
        if (m.immediate) {
            immediateQueued--;
        }
        OutboundMessage h = s.queue.peekFirst();
        int bytes = len + lockedBytes;
        locked = null;
        lockedBytes = 0;
        scheduler.sent(s.id, bytes, true, h == null ? 0 : h.unsentBytes());
    }

    /** Every queued message, in the order the user queued them (allocates: for rare calls only). */
    private List<OutboundMessage> queuedInSendOrder() {
        List<OutboundMessage> all = new ArrayList<>(queuedMessages);
        for (OutboundStream s : streams) {
            if (s != null) {
                all.addAll(s.queue);
            }
        }
        all.sort(Comparator.comparingLong(m -> m.seq));
        return all;
    }

    /**
     * Takes an abandoned message out of the queue (PR-SCTP, {@link Abandonment}): its unsent bytes
     * leave the buffer; if it was its stream's head, the stream scheduler hears that the message
     * left (no bytes sent) and a turn locked on it ends, as when a message is sent. A message
     * behind the head is {@link StreamScheduler#removedBehindHead}: first come, first served keeps
     * a place per queued message, the other schedulers order streams by their head message and by
     * bytes sent only.
     */
    void remove(OutboundMessage m) {
        OutboundStream s = m.streamId < streams.length ? streams[m.streamId] : null;
        if (s == null) {
            return;
        }
        int position = 0;
        for (OutboundMessage q : s.queue) {
            if (q == m) {
                break;
            }
            position++;
        }
        if (position == s.queue.size()) {
            return;
        }
        boolean head = position == 0;
        if (head) {
            s.queue.pollFirst();
        } else {
            s.queue.removeFirstOccurrence(m);
            scheduler.removedBehindHead(s.id, position);
        }
        queuedBytes -= m.unsentBytes();
        queuedMessages--;
        if (m.immediate) {
            immediateQueued--;
        }
        if (head) {
            if (locked == s) {
                locked = null;
            }
            OutboundMessage h = s.queue.peekFirst();
            scheduler.sent(s.id, 0, true, h == null ? 0 : h.unsentBytes());
        }
    }

    /**
     * The deadline of the lifetime timer (PR-SCTP's time-to-live policy, RFC 7496 section 3.1) lives
     * in {@code slots[slot]} (the association's timer table) from now on: the first instant at
     * which a queued message's lifetime is over. Whether a packet can be filled then changes with
     * time alone (an expired message at a stream's head is abandoned, RFC 3758 section 4.1 TR3),
     * so the association must be asked again then: the timer makes that instant a deadline.
     */
    void bindLifetimeTimer(long[] slots, int slot) {
        slots[slot] = lifetimeSlots[lifetimeSlot];
        lifetimeSlots = slots;
        lifetimeSlot = slot;
    }

    /**
     * The lifetime timer expired at {@code now}: the next deadline is the end of the earliest
     * lifetime still to come among the queued and held messages (none: stopped). Those already
     * over are the filler's business when it reaches them.
     */
    void onLifetimeTimer(long now) {
        long next = Long.MAX_VALUE;
        for (OutboundStream s : streams) {
            if (s == null) {
                continue;
            }
            next = Math.min(next, lifetimeEndAfter(s.queue, now));
            if (s.held != null) {
                next = Math.min(next, lifetimeEndAfter(s.held, now));
            }
        }
        lifetimeSlots[lifetimeSlot] = next;
    }

    private static long lifetimeEndAfter(Iterable<OutboundMessage> messages, long now) {
        long next = Long.MAX_VALUE;
        for (OutboundMessage m : messages) {
            if (m.prKind == Abandonment.TTL && !m.abandoned) {
                long end = lifetimeEnd(m);
                if (end > now && end < next) {
                    next = end;
                }
            }
        }
        return next;
    }

    /** The first instant at which {@code m}'s lifetime is over (expired: {@code now - expiresAt > 0}). */
    private static long lifetimeEnd(OutboundMessage m) {
        return m.expiresAt + 1;
    }

    /** The queued messages in the order the user queued them (a copy: the caller may {@link #remove}). */
    List<OutboundMessage> messages() {
        return queuedInSendOrder();
    }

    /**
     * Empties the queue for abort or failure: adds every message to {@code out} in the order the
     * user queued them, except those in {@code skip} (already added, partly sent, by the retransmission
     * queue).
     */
    void drainInto(List<UnsentMessage> out, java.util.Set<OutboundMessage> skip) {
        for (OutboundMessage m : queuedInSendOrder()) {
            if (!skip.contains(m)) {
                out.add(new UnsentMessage(m.streamId, m.ppid, m.unordered, m.exactData(), m.sentOffset > 0));
            }
        }
        for (OutboundStream s : streams) {
            if (s != null) {
                s.queue.clear();
                if (s.held != null) {
                    for (OutboundMessage m : s.held) {
                        out.add(new UnsentMessage(m.streamId, m.ppid, m.unordered, m.exactData(), false));
                    }
                    s.held = null;
                }
            }
        }
        heldMessages = 0;
        heldBytes = 0;
        holdAll = false;
        scheduler = StreamScheduler.create(scheduler.kind());
        locked = null;
        lockedBytes = 0;
        queuedBytes = 0;
        queuedMessages = 0;
        immediateQueued = 0;
    }
}
