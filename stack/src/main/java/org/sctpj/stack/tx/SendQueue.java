package org.sctpj.stack.tx;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.tx.DataSender.SendStatus;
import org.sctpj.stack.wire.chunk.DataChunk;

/**
 * The messages accepted and not yet fully sent, per outbound stream, and the send-buffer
 * accounting (RFC 9260 section 6.1; the buffer is {@link SctpOptions#sendBufferBytes()} of user
 * data, queued here plus outstanding in the {@link RetransmissionQueue}). Streams take turns in
 * round robin, one whole message each: a stream joins the end of the turn order when it gets its
 * first queued message and goes back to the end after each message it finished sending.
 *
 * <p>With interleaving ({@link #setInterleaving}, for I-DATA, RFC 8260 section 1.1) a stream goes
 * back to the end of the turn order after each chunk, so the fragments of a large message on one
 * stream alternate with the messages of the others; without it (DATA), the fragments of one
 * message take consecutive TSNs (RFC 9260 section 6.9).
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
    /** Streams switch between two chunks of one message (I-DATA). */
    private boolean interleaving;
    /** The chunk header of each queued message in {@link #chunkBytesEstimate()}: DATA or I-DATA. */
    private int chunkHeader = DataChunk.FIXED_LENGTH;

    SendQueue(SctpOptions options, SendPool pool, RetransmissionQueue outstanding, int outboundStreams) {
        this.options = options;
        this.pool = pool;
        this.outstanding = outstanding;
        setOutboundStreams(outboundStreams);
    }

    /**
     * With true, the turn passes to the next stream after every chunk, not only after a whole
     * message: only for I-DATA, whose fragments name their message (RFC 8260 section 2.1).
     */
    void setInterleaving(boolean on) {
        interleaving = on;
    }

    /** The bytes of one chunk's header (16 for DATA, 20 for I-DATA), for {@link #chunkBytesEstimate()}. */
    void setChunkHeader(int bytes) {
        chunkHeader = bytes;
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

    private void enqueue(int streamId, int ppid, boolean unordered, boolean immediate, byte[] data, int len) {
        OutboundStream s = stream(streamId);
        if (s.queue.isEmpty()) {
            roundRobin.addLast(s);
        }
        s.queue.addLast(pool.message().init(streamId, ppid, unordered, immediate, data, len));
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

    /** What the queued messages take as DATA (or I-DATA) chunks: their bytes plus one chunk header each. */
    long chunkBytesEstimate() {
        return queuedBytes + (long) chunkHeader * queuedMessages;
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
            if (interleaving && roundRobin.size() > 1) {
                roundRobin.addLast(roundRobin.removeFirst()); // the next chunk is another stream's
            }
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
     * Empties the queue for abort or failure: adds every message to {@code out} per stream in turn
     * order, except those in {@code skip} (already added, partly sent, by the retransmission queue).
     */
    void drainInto(List<UnsentMessage> out, java.util.Set<OutboundMessage> skip) {
        for (OutboundStream s : roundRobin) {
            for (OutboundMessage m : s.queue) {
                if (!skip.contains(m)) {
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
