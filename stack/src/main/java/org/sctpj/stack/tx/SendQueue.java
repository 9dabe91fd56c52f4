package org.sctpj.stack.tx;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
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

    private boolean interleaving;
    /** The order in which the user queued the messages, across streams ({@link OutboundMessage#seq}). */
    private long nextSeq;

    private long queuedBytes;
    private int queuedMessages;
    private int immediateQueued;

    SendQueue(SctpOptions options, SendPool pool, RetransmissionQueue outstanding, int outboundStreams) {
        this.options = options;
        this.pool = pool;
        this.outstanding = outstanding;
        this.scheduler = StreamScheduler.create(options.streamScheduler());
        setOutboundStreams(outboundStreams);
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
        StreamScheduler next = StreamScheduler.create(kind);
        for (OutboundMessage m : queuedInSendOrder()) {
            OutboundStream s = streams[m.streamId];
            next.enqueued(m.streamId, m.unsentBytes(), s.queue.peekFirst() == m);
        }
        scheduler = next;
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
            locked = null;
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

    /** See {@link DataSender#sendOwned}. */
    SendStatus sendOwned(int streamId, int ppid, boolean unordered, boolean immediate, byte[] array, int length) {
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

    private void enqueue(int streamId, int ppid, boolean unordered, boolean immediate, byte[] data, int len) {
        OutboundStream s = stream(streamId);
        boolean first = s.queue.isEmpty();
        OutboundMessage m = pool.message().init(streamId, ppid, unordered, immediate, data, len);
        m.seq = nextSeq++;
        s.queue.addLast(m);
        scheduler.enqueued(streamId, len, first);
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
    long bufferedBytes() {
        return queuedBytes + outstanding.outstandingBytes();
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

    /** What the queued messages take as DATA chunks: their bytes plus one chunk header each. */
    long chunkBytesEstimate() {
        return queuedBytes + (long) DataChunk.FIXED_LENGTH * queuedMessages;
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
     * stream's turn.
     */
    void sent(OutboundStream s, int len, boolean last) {
        queuedBytes -= len;
        int headUnsent;
        if (last) {
            OutboundMessage m = s.queue.removeFirst();
            queuedMessages--;
            if (m.immediate) {
                immediateQueued--;
            }
            OutboundMessage h = s.queue.peekFirst();
            headUnsent = h == null ? 0 : h.unsentBytes();
            locked = null;
        } else {
            headUnsent = s.queue.peekFirst().unsentBytes();
            locked = interleaving ? null : s;
        }
        scheduler.sent(s.id, len, last, headUnsent);
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
     * Empties the queue for abort or failure: adds every message to {@code out} in the order the
     * user queued them, except {@code skip} (already added, partly sent, by the retransmission
     * queue).
     */
    void drainInto(List<UnsentMessage> out, OutboundMessage skip) {
        for (OutboundMessage m : queuedInSendOrder()) {
            if (m != skip) {
                out.add(new UnsentMessage(m.streamId, m.ppid, m.unordered, m.exactData(), m.sentOffset > 0));
            }
        }
        for (OutboundStream s : streams) {
            if (s != null) {
                s.queue.clear();
            }
        }
        scheduler = StreamScheduler.create(scheduler.kind());
        locked = null;
        queuedBytes = 0;
        queuedMessages = 0;
        immediateQueued = 0;
    }
}
