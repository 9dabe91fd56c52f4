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
    private boolean holdAll;
    private int heldMessages;
    private long heldBytes;
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
        OutboundMessage m = pool.message().init(streamId, ppid, unordered, immediate, data, len);
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

    /** Puts {@code m} at the end of its stream's queue; the stream joins the turn order if it was idle. */
    private void admit(OutboundStream s, OutboundMessage m) {
        if (s.queue.isEmpty()) {
            roundRobin.addLast(s);
        }
        s.queue.addLast(m);
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
            s.nextSsn = 0; // I-DATA glue: the stream's next MID restarts at 0 too (RFC 8260 section 2.3.1)
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

    /** User bytes held: queued and not yet sent, plus sent and not cumulatively acknowledged. */
    long bufferedBytes() {
        return queuedBytes + heldBytes + outstanding.outstandingBytes();
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
        for (OutboundStream s : streams) {
            if (s != null && s.held != null) {
                for (OutboundMessage m : s.held) {
                    out.add(new UnsentMessage(m.streamId, m.ppid, m.unordered, m.exactData(), false));
                }
                s.held = null;
            }
        }
        heldMessages = 0;
        heldBytes = 0;
        holdAll = false;
        queuedBytes = 0;
        queuedMessages = 0;
        immediateQueued = 0;
    }
}
