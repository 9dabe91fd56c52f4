package org.sctpj.stack.tx;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import org.sctpj.stack.PrPolicy;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.tx.DataSender.SendStatus;
import org.sctpj.stack.wire.chunk.DataChunk;

/**
 * The messages accepted and not yet fully sent, per outbound stream, and the send-buffer
 * accounting (RFC 9260 section 6.1; the buffer is {@link SctpOptions#sendBufferBytes()} of user
 * data, queued here plus outstanding in the {@link RetransmissionQueue}). Streams take turns in
 * round robin, one whole message each: a stream joins the end of the turn order when it gets its
 * first queued message and goes back to the end after each message it finished sending.
 */
final class SendQueue {

    private final SctpOptions options;
    private final SendPool pool;
    private final RetransmissionQueue outstanding;
    private int outboundStreams;

    /** Outbound streams by id, created on first use (an array: no boxing on the hot path). */
    private OutboundStream[] streams = new OutboundStream[16];

    private final ArrayDeque<OutboundStream> roundRobin = new ArrayDeque<>();
    private long queuedBytes;
    private int queuedMessages;
    private int immediateQueued;

    SendQueue(SctpOptions options, SendPool pool, RetransmissionQueue outstanding, int outboundStreams) {
        this.options = options;
        this.pool = pool;
        this.outstanding = outstanding;
        setOutboundStreams(outboundStreams);
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

    private void check(int streamId, int len) {
        if (streamId < 0 || streamId >= outboundStreams) {
            throw new IllegalArgumentException("stream " + streamId + " is not open: use a stream below "
                    + outboundStreams + " (the negotiated outbound streams)");
        }
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
        if (s.queue.isEmpty()) {
            roundRobin.addLast(s);
        }
        OutboundMessage m = pool.message().init(streamId, ppid, unordered, immediate, data, len);
        if (!policy.isReliable()) {
            Abandonment.apply(m, policy, now);
        }
        s.queue.addLast(m);
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

    /** The stream whose turn it is; only while {@link #queuedMessages()} is above 0. */
    OutboundStream next() {
        return roundRobin.peekFirst();
    }

    /**
     * {@code len} bytes of the head message of {@link #next()} went into a chunk; {@code last}:
     * they were its last bytes, so the message leaves the queue and the stream's turn ends.
     */
    void sent(OutboundStream s, int len, boolean last) {
        queuedBytes -= len;
        if (!last) {
            return;
        }
        OutboundMessage m = s.queue.removeFirst();
        queuedMessages--;
        if (m.immediate) {
            immediateQueued--;
        }
        roundRobin.removeFirst();
        if (!s.queue.isEmpty()) {
            roundRobin.addLast(s);
        }
    }

    /**
     * Takes an abandoned message out of the queue (PR-SCTP, {@link Abandonment}): its unsent bytes
     * leave the buffer, and if it was its stream's head the stream's turn ends (as when a message
     * is sent). GLUE(sched): the stream scheduler hears of the removal here.
     */
    void remove(OutboundMessage m) {
        OutboundStream s = m.streamId < streams.length ? streams[m.streamId] : null;
        if (s == null) {
            return;
        }
        boolean head = s.queue.peekFirst() == m;
        if (!(head ? s.queue.pollFirst() != null : s.queue.removeFirstOccurrence(m))) {
            return;
        }
        queuedBytes -= m.unsentBytes();
        queuedMessages--;
        if (m.immediate) {
            immediateQueued--;
        }
        if (head) {
            roundRobin.remove(s);
            if (!s.queue.isEmpty()) {
                roundRobin.addLast(s);
            }
        }
    }

    /** The queued messages, per stream in turn order (a copy: the caller may {@link #remove}). */
    List<OutboundMessage> messages() {
        List<OutboundMessage> out = new java.util.ArrayList<>(queuedMessages);
        for (OutboundStream s : roundRobin) {
            out.addAll(s.queue);
        }
        return out;
    }

    /**
     * Empties the queue for abort or failure: adds every message to {@code out} per stream in turn
     * order, except {@code skip} (already added, partly sent, by the retransmission queue).
     */
    void drainInto(List<UnsentMessage> out, OutboundMessage skip) {
        for (OutboundStream s : roundRobin) {
            for (OutboundMessage m : s.queue) {
                if (m != skip) {
                    out.add(new UnsentMessage(m.streamId, m.ppid, m.unordered, m.exactData(), m.sentOffset > 0));
                }
            }
            s.queue.clear();
        }
        roundRobin.clear();
        queuedBytes = 0;
        queuedMessages = 0;
        immediateQueued = 0;
    }
}
