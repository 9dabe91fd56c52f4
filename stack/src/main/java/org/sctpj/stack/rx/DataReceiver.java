package org.sctpj.stack.rx;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.wire.Serial;
import org.sctpj.stack.wire.chunk.DataChunk;

/**
 * The receiving half of an association's data transfer (RFC 9260 sections 6.2, 6.5, 6.6, 6.9):
 * tracks received TSNs, decides when to SACK and what it says, reassembles fragments and delivers
 * messages in order per stream (unordered ones at once).
 *
 * <p>Calling contract: for each received packet, {@link #onData} per DATA chunk, then {@link
 * #onPacketProcessed} once; whenever {@link #sackNeeded} (check after each packet and when {@link
 * #sackDeadline()} passes), {@link #writeSack}; {@link #pollMessage()} until it returns null.
 *
 * <p>With {@link #keepReferences(boolean) keepReferences(true)} a complete, unfragmented message
 * that can be delivered at once is not copied: the ready queue refers to the caller's packet
 * buffer, and the caller must take it with {@link #pollMessage(MessageSink)} before that buffer
 * changes (the association does so before it returns from the packet). A reassembled message of
 * up to {@link #MAX_REUSED_MESSAGE} bytes that can be delivered at once is likewise handed out
 * from a reassembly buffer the receiver reuses once the message has been taken.
 *
 * <p>Fragments are held by TSN in a primitive table, their bytes in recycled arrays from a
 * bounded pool; an idle receiver keeps at most the pool's budget (16 to 128 KiB), the reassembly
 * buffer (up to {@link #MAX_REUSED_MESSAGE}) and a small table.
 *
 * <p>Memory is bounded whatever the peer sends: a TSN is accepted only within {@link
 * #TSN_WINDOW} above the cumulative TSN, and only while the bytes held (fragments and undelivered
 * messages) stay within the receive buffer, or, for a TSN filling a hole below the highest one
 * received, within twice the receive buffer (so that the hole that blocks progress can always be
 * filled). Per-stream state is created on first use.
 *
 * <p>Partial delivery (RFC 9260 section 6.9; RFC 6458 section 8.1.21): a message that is next to
 * deliver on its stream (any unordered one) whose bytes held in sequence from its first fragment
 * reach {@link SctpOptions#partialDeliveryPoint()}, or whose next fragment would not fit in the
 * receive buffer even once the application has taken and released all it can, is handed out in
 * parts ({@link ReceivedMessage#part()}): what is in sequence
 * at once, then each run of fragments as it becomes in sequence, the last part marked. Its bytes
 * leave the buffer as the parts are taken, so the window reopens and no message size can stall
 * the association. At most one message per stream is delivered in parts at a time, and while it
 * is, no other message of that stream is delivered; other streams go on. A fragment continuing
 * such a message is accepted while the bytes held stay within twice the receive buffer, like a
 * hole-filling one. While the application holds what fills the buffer (messages not yet taken or,
 * with deferred release, not released), chunks wait for it as before: the window reopens as it
 * reads. When a chunk is dropped for lack of room while nothing can ever make room (no gap, and
 * no room even once the application has released everything: the buffer is full of a message
 * that cannot be delivered, as with partial delivery off), {@link DataResult#DROPPED_CANNOT_TAKE} tells the
 * association to end it. One chunk is always accepted into an empty buffer, however large.
 *
 * <p>I-DATA (RFC 8260): once {@link #useIData()} was called, chunks come through {@link #onIData}
 * with the same admission and SACK rules; their fragments are put together per (stream, U bit,
 * MID) in FSN order, ordered messages delivered per stream in MID order, partial delivery per
 * stream, and {@link #skipIData} applies an I-FORWARD-TSN entry. See {@code IDataReassembly}.
 */
public final class DataReceiver {

    /** How far above the cumulative TSN a TSN may be accepted. */
    public static final int TSN_WINDOW = TsnTracker.WINDOW;

    /** How many duplicate TSNs are kept for the next SACK. */
    public static final int MAX_DUPLICATES = 32;

    private static final int[] NO_INTS = new int[0];

    /**
     * The largest reassembled message handed out from the reused reassembly buffer (with {@link
     * #keepReferences(boolean) keepReferences(true)}); a larger one gets an array of its own.
     */
    public static final int MAX_REUSED_MESSAGE = 1 << 16;

    /** The free fragment arrays kept for reuse: the receive buffer, within these bounds. */
    private static final long MIN_POOL_BUDGET = 16 << 10;

    private static final long MAX_POOL_BUDGET = 128 << 10;

    /** A stream's table of waiting messages is let go when it empties after growing past this. */
    private static final int PENDING_IDLE_CAPACITY = 64;

    /** The outcome of {@link #onData}. */
    public enum DataResult {
        /** A new TSN, stored (or, for a contradicting fragment, counted in {@link #protocolViolations()}). */
        NEW,
        /** Already received; reported in the next SACK's duplicate list. */
        DUPLICATE,
        /** No room (receive buffer or TSN window); not recorded as received, the peer will resend. */
        DROPPED_NO_ROOM,
        /**
         * No room, and none can come: the receive buffer is full of fragments (or waiting
         * messages) that can never be delivered, so that even once the application has taken and
         * released everything there is no room for the chunk, and no gap is open, so no later
         * chunk could complete or free anything. Typically a message
         * larger than the receive buffer with partial delivery off. The association must end (RFC
         * 9260 section 3.3.10.4, Out of Resource), or it would stall forever.
         */
        DROPPED_CANNOT_TAKE,
        /**
         * The stream is not open: not stored, but the TSN is acknowledged; the association sends an
         * ERROR with an Invalid Stream Identifier cause (RFC 9260 section 6.5).
         */
        INVALID_STREAM
    }

    /**
     * Takes a ready message from {@link #pollMessage(MessageSink)}. Exactly one of {@code array}
     * and {@code buf} is non-null.
     */
    @FunctionalInterface
    public interface MessageSink {
        /**
         * One message, in delivery order.
         *
         * @param array a fresh array holding exactly the message, which the sink may keep; or null
         * @param buf the packet buffer (or the receiver's reassembly buffer) holding the message
         *     at absolute indexes {@code offset .. offset + length}, valid only during the call
         *     (its position and limit are meaningless); or null
         */
        void message(int streamId, int ppid, boolean unordered, byte[] array, ByteBuffer buf, int offset, int length);

        /**
         * One part of a message delivered in parts (partial delivery), in delivery order; the
         * parts of a message come in order, {@code last} on its final one. The default passes the
         * part to {@link #message} as if it were a message.
         *
         * @param array a fresh array holding exactly the part, which the sink may keep
         */
        default void part(int streamId, int ppid, boolean unordered, byte[] array, boolean last) {
            message(streamId, ppid, unordered, array, null, 0, array.length);
        }
    }

    /** A message being delivered in parts. */
    private static final class Partial {
        final int streamId;
        final int ssn;
        final boolean unordered;
        final int ppid;
        /** The TSN of the fragment the next part starts with. */
        int nextTsn;
        /** Bytes handed out so far. */
        long delivered;
        /** Complete unordered messages of the stream that wait for the last part; null until one. */
        ArrayDeque<ReceivedMessage> waiting;

        Partial(int streamId, int ssn, boolean unordered, int ppid) {
            this.streamId = streamId;
            this.ssn = ssn;
            this.unordered = unordered;
            this.ppid = ppid;
        }
    }

    /**
     * A message whose delivery in parts has begun and not ended.
     *
     * @param streamId its stream
     * @param ssn its Stream Sequence Number, with I-DATA its Message Identifier (meaningless for an
     *     unordered DATA message)
     * @param unordered whether it was sent unordered
     * @param deliveredBytes bytes handed out in parts so far
     */
    public record PartialDelivery(int streamId, int ssn, boolean unordered, long deliveredBytes) {}

    /**
     * One stream entry of a FORWARD TSN (RFC 3758 section 3.2) or I-FORWARD-TSN (RFC 8260 section
     * 2.3.1): the messages of the stream up to {@code sequence} were abandoned by the sender.
     *
     * @param streamId the stream
     * @param unordered the U bit of an I-FORWARD-TSN entry (the stream's unordered messages);
     *     always false for FORWARD TSN, which lists ordered messages only
     * @param sequence the highest skipped Stream Sequence Number (DATA, 16 bits) or Message
     *     Identifier (I-DATA, 32 bits)
     */
    public record Skip(int streamId, boolean unordered, long sequence) {}

    /** Bound on the work of one forward TSN's stream entries (delivering what they free aside). */
    static final int FORWARD_TSN_WORK = 1 << 20;

    /** The largest part handed out at once. */
    static final int MAX_PART = 1 << 20;

    static final byte WHOLE = 0;
    static final byte PART = 1;
    static final byte LAST_PART = 2;

    private static final class InboundStream {
        int nextSsn;
        /** Complete messages waiting for an earlier SSN; null until the first one. */
        PendingMessages pending;
        /** The message of this stream being delivered in parts, or null. */
        Partial partial;
    }

    private final SctpOptions options;
    /** The I-DATA reassembly (RFC 8260), or null while DATA is in use. */
    private IDataReassembly idata;
    /** Set by {@link #admit}: the chunk was taken only to continue a message delivered in parts. */
    private boolean admittedUnderPressure;

    private final long receiveBuffer;
    /** {@link SctpOptions#partialDeliveryPoint()}; 0: partial delivery off. */
    final long pdPoint;
    /** Streams with a message being delivered in parts. */
    private int partialCount;

    private final long delayedAckNanos;
    private int inboundStreams;
    final TsnTracker tracker;
    private final FragmentTable fragments = new FragmentTable();
    final FragmentPool pool;
    /** Inbound streams by id, created on first use (an array: no boxing on the hot path). */
    private InboundStream[] streams;

    boolean keepReferences;
    private final boolean deferredRelease;
    /** Bytes of delivered messages the application has not released (deferred release only). */
    private long held;

    // The ready queue, a ring of parallel arrays: a message is either an array of its own or a
    // reference into the packet buffer being processed. Empty until the first message (16 slots
    // then, doubled as needed); trimIdle() lets an empty ring's arrays go.
    private int[] readyStream = new int[0];
    private int[] readyPpid = new int[0];
    private boolean[] readyUnordered = new boolean[0];
    private byte[][] readyArray = new byte[0][];
    private ByteBuffer[] readyBuf = new ByteBuffer[0];
    private int[] readyOffset = new int[0];
    private int[] readyLength = new int[0];
    /** Whether the entry refers to the reassembly buffer (rather than to a packet). */
    private boolean[] readyReassembled = new boolean[0];
    /** {@link #WHOLE}, {@link #PART} or {@link #LAST_PART}. */
    private byte[] readyKind = new byte[0];

    private int readyHead;
    private int readyCount;
    /** Bytes in the ready queue (counted in {@link #buffered} until taken). */
    private long readyBytes;

    // The reassembly buffer: reassembled messages deliverable at once are written one after the
    // other into it and handed out as references, like unfragmented ones are into the packet. It
    // is reused from its start once no ready entry refers to it any more.
    byte[] reassembly;
    ByteBuffer reassemblyBuf;
    private int reassemblyUsed;
    int reassemblyRefs;
    long buffered;

    /** Duplicate TSNs for the next SACK; made on the first duplicate (most associations see none). */
    private int[] dups = NO_INTS;

    private int dupCount;
    private int[] gapStarts = NO_INTS;
    private int[] gapEnds = NO_INTS;

    private boolean inPacket;
    private boolean gapsAtPacketStart;
    private boolean eventInPacket;
    /** A FORWARD TSN was taken in this packet: it counts as DATA for the SACK rules (RFC 3758 section 3.6). */
    private boolean forwardInPacket;

    private boolean immediate;
    /** Where the delayed-SACK deadline lives: a slot of the association's timer table once bound. */
    private long[] sackSlots = {Long.MAX_VALUE};

    private int sackSlot;
    private int packetsSinceSack;
    private long lastAdvertisedRwnd;

    long protocolViolations;
    private long droppedChunks;

    /**
     * A deferred reset of the peer's outgoing streams (RFC 6525 section 5.2.2 E2): its Sender's
     * Last Assigned TSN and its streams (every stream when empty); null when none.
     */
    private int[] resetStreamsDeferred;

    private int resetLastTsn;
    /** Ordered chunks after {@link #resetLastTsn} on those streams, held until the reset is done. */
    private List<HeldChunk> heldForReset;

    /** A chunk held for a deferred reset: received and acknowledged, not yet reassembled. */
    private record HeldChunk(int tsn, int streamId, int seq, int ppidOrFsn, int flags, byte[] data, boolean iData) {}

    /**
     * A receiver expecting {@code peerInitialTsn} first.
     *
     * @param inboundStreams the negotiated number of inbound streams (1..65535)
     */
    public DataReceiver(SctpOptions o, int peerInitialTsn, int inboundStreams) {
        this.options = Objects.requireNonNull(o, "options");
        if (inboundStreams < 1 || inboundStreams > 65535) {
            throw new IllegalArgumentException("inbound streams must be 1..65535, was " + inboundStreams);
        }
        this.inboundStreams = inboundStreams;
        this.receiveBuffer = o.receiveBufferBytes();
        this.pdPoint = o.partialDeliveryPoint();
        this.delayedAckNanos = o.delayedAckTime().toNanos();
        this.tracker = new TsnTracker(peerInitialTsn);
        this.lastAdvertisedRwnd = receiveBuffer;
        this.deferredRelease = o.deferredReceiveRelease();
        this.streams = new InboundStream[Math.min(inboundStreams, 16)];
        this.pool = new FragmentPool(Math.min(Math.max(receiveBuffer, MIN_POOL_BUDGET), MAX_POOL_BUDGET));
    }

    /**
     * With true, complete unfragmented messages deliverable at once are queued as references to
     * the buffer given to {@link #onData} instead of copies, and reassembled ones as references to
     * a reassembly buffer: poll them with {@link #pollMessage(MessageSink)} before the packet
     * buffer changes. False (the default) copies every message.
     */
    public void keepReferences(boolean on) {
        keepReferences = on;
    }

    /**
     * Takes one DATA chunk. Copies {@code userDataLength} bytes at absolute index {@code
     * userDataOffset} of {@code buf} if the chunk is kept; the buffer's position is not changed.
     *
     * @param flags the DATA chunk flags byte (I, U, B, E)
     */
    public DataResult onData(
            int tsn,
            int streamId,
            int ssn,
            int ppid,
            int flags,
            ByteBuffer buf,
            int userDataOffset,
            int userDataLength,
            long now) {
        int len = Math.max(0, userDataLength);
        DataResult refused = admit(tsn, streamId, ssn, ssn, flags, len, false);
        if (refused != null) {
            return refused;
        }
        if (holdForReset(tsn, streamId, ssn, ppid, flags, buf, userDataOffset, len, false)) {
            return DataResult.NEW;
        }
        return accept(tsn, streamId, ssn, ppid, flags, buf, userDataOffset, len);
    }

    /** An admitted DATA chunk: reassembly, ordering, partial delivery. */
    private DataResult accept(
            int tsn, int streamId, int ssn, int ppid, int flags, ByteBuffer buf, int userDataOffset, int len) {
        boolean pressure = admittedUnderPressure;
        boolean unordered = (flags & DataChunk.FLAG_U) != 0;
        int b = flags & (DataChunk.FLAG_B | DataChunk.FLAG_E);
        if (b == (DataChunk.FLAG_B | DataChunk.FLAG_E)) {
            buffered += len;
            if (keepReferences && noPartial(streamId)) {
                if (unordered) {
                    readyAdd(streamId, ppid, true, null, buf, userDataOffset, len, false, WHOLE);
                    return DataResult.NEW;
                }
                InboundStream s = stream(streamId);
                if ((ssn & 0xffff) == s.nextSsn) {
                    readyAdd(streamId, ppid, false, null, buf, userDataOffset, len, false, WHOLE);
                    s.nextSsn = (s.nextSsn + 1) & 0xffff;
                    releasePending(s);
                    return DataResult.NEW;
                }
            }
            byte[] data = new byte[len];
            buf.get(userDataOffset, data, 0, len);
            complete(new ReceivedMessage(streamId, ppid, unordered, data), ssn);
            return DataResult.NEW;
        }
        if (!fitsNeighbours(tsn, streamId, ssn & 0xffff, flags)) {
            protocolViolations++;
            return DataResult.NEW;
        }
        byte[] data = pool.take(len);
        buf.get(userDataOffset, data, 0, len);
        int inSequence = inSequenceBytes(tsn, flags, len);
        fragments.put(tsn, streamId, ssn & 0xffff, ppid, flags, data, len, inSequence);
        buffered += len;
        if (continuesPartial(tsn, streamId, ssn & 0xffff, flags)) {
            continuePartial(streams[streamId], streams[streamId].partial);
            return DataResult.NEW;
        }
        int last = inSequence >= 0 ? extendInSequence(tsn, flags, inSequence) : tsn;
        if (reassemble(tsn, streamId, ssn & 0xffff, flags) || pdPoint == 0 || inSequence < 0) {
            return DataResult.NEW;
        }
        if ((fragments.prefix(fragments.find(last)) >= pdPoint || pressure)
                && eligible(streamId, ssn & 0xffff, unordered)) {
            startPartial(stream(streamId), streamId, ssn & 0xffff, unordered, last);
        }
        return DataResult.NEW;
    }

    /**
     * Takes one I-DATA chunk (RFC 8260 section 2.1) of an association that negotiated I-DATA
     * ({@link #useIData()}), with the same admission, acknowledgement and delivery rules as {@link
     * #onData}; the fragments are put together by (stream, U, MID) and FSN ({@link
     * IDataReassembly}). Copies {@code userDataLength} bytes at absolute index {@code
     * userDataOffset} of {@code buf} if the chunk is kept; the buffer's position is not changed.
     *
     * @param ppidOrFsn the fifth word of the chunk: the PPID with the B bit, else the FSN
     * @param flags the I-DATA chunk flags byte (I, U, B, E)
     * @throws IllegalStateException if I-DATA was not turned on: the association must abort with
     *     a Protocol Violation instead (RFC 8260 section 2.1)
     */
    public DataResult onIData(
            int tsn,
            int streamId,
            int mid,
            int ppidOrFsn,
            int flags,
            ByteBuffer buf,
            int userDataOffset,
            int userDataLength,
            long now) {
        if (idata == null) {
            throw new IllegalStateException(
                    "I-DATA was not negotiated on this association: abort it with a Protocol Violation cause");
        }
        int len = Math.max(0, userDataLength);
        DataResult refused = admit(tsn, streamId, mid, ppidOrFsn, flags, len, true);
        if (refused != null) {
            return refused;
        }
        if (holdForReset(tsn, streamId, mid, ppidOrFsn, flags, buf, userDataOffset, len, true)) {
            return DataResult.NEW;
        }
        idata.onFragment(tsn, streamId, mid, ppidOrFsn, flags, buf, userDataOffset, len, admittedUnderPressure);
        return DataResult.NEW;
    }

    /**
     * The admission of a DATA or I-DATA chunk of {@code len} user bytes: duplicates, the TSN
     * window and the receive buffer (see the class comment). Returns null when the chunk is taken
     * (its TSN recorded as received, its stream open; {@link #admittedUnderPressure} says whether
     * only to continue a message that must be delivered in parts), else the outcome to return.
     */
    private DataResult admit(int tsn, int streamId, int seq, int ppidOrFsn, int flags, int len, boolean iData) {
        beginPacket();
        if ((flags & DataChunk.FLAG_I) != 0) {
            eventInPacket = true;
        }
        if (tracker.isReceived(tsn)) {
            if (dupCount < MAX_DUPLICATES) {
                if (dups.length == 0) {
                    dups = new int[MAX_DUPLICATES];
                }
                dups[dupCount++] = tsn;
            }
            eventInPacket = true;
            return DataResult.DUPLICATE;
        }
        // One chunk always enters an empty buffer, whatever its size (no chunk can stall alone).
        boolean fits = buffered + len <= receiveBuffer || buffered == 0;
        boolean fillsHole = Serial.lt(tsn, tracker.highestReceived()) && buffered + len <= 2 * receiveBuffer;
        boolean inWindow = tracker.inWindow(tsn);
        // Bytes the application cannot free: fragments and messages not yet deliverable. When
        // they leave no room for this chunk even once the application has taken and released
        // everything it can, waiting for the application cannot help.
        long stuck = buffered - held - readyBytes;
        boolean noRoomEver = !fits && stuck + len > receiveBuffer;
        // RFC 9260 section 6.9: then partial delivery of the message this fragment continues is
        // what frees the buffer.
        boolean pressure = inWindow
                && noRoomEver
                && !fillsHole
                && buffered + len <= 2 * receiveBuffer
                && (iData
                        ? idata.continuesDeliverable(streamId, seq, ppidOrFsn, flags)
                        : continuesDeliverable(tsn, streamId, seq & 0xffff, flags));
        if (!inWindow || !(fits || fillsHole || pressure)) {
            droppedChunks++;
            eventInPacket = true;
            if (inWindow && noRoomEver && !tracker.hasGaps() && Serial.gt(tsn, tracker.highestReceived())) {
                return DataResult.DROPPED_CANNOT_TAKE;
            }
            return DataResult.DROPPED_NO_ROOM;
        }
        tracker.add(tsn);
        if (streamId < 0 || streamId >= inboundStreams) {
            return DataResult.INVALID_STREAM;
        }
        admittedUnderPressure = pressure;
        return null;
    }

    /**
     * Turns on I-DATA (RFC 8260), once negotiated and before the first chunk: from now on the
     * peer's user messages arrive through {@link #onIData}, and a DATA chunk is a protocol
     * violation the association answers with an ABORT (section 2.1).
     */
    public void useIData() {
        if (idata == null) {
            idata = new IDataReassembly(this, inboundStreams);
        }
    }

    /**
     * Whether the peer's I-DATA fragments showed the Linux 6.1 numbering (a fragment without the B
     * bit with FSN 0); see {@link org.sctpj.stack.IDataFragmentNumbering}.
     */
    public boolean peerNumbersFragmentsLikeLinux() {
        return idata != null && idata.linuxNumbering();
    }

    /** Whether I-DATA is in use ({@link #useIData()}). */
    public boolean usesIData() {
        return idata != null;
    }

    /**
     * The reassembly side of one I-FORWARD-TSN entry (RFC 8260 section 2.3.2): the messages of
     * {@code streamId} in its ordered or unordered sequence up to MID {@code mid} (serial
     * arithmetic) were abandoned by the sender; their fragments are dropped, and for the ordered
     * sequence the messages held behind them flow again. The caller moves the cumulative TSN (RFC
     * 3758 section 3.6) and then calls this per entry. Does nothing without I-DATA.
     *
     * @param mid the Message Identifier (only the low 32 bits count)
     * @return the work done (messages looked at, at least 1), to bound the work of one chunk
     */
    public int skipIData(int streamId, boolean unordered, long mid) {
        return idata == null ? 0 : idata.skip(streamId, unordered, (int) mid);
    }

    /**
     * The messages whose delivery in parts an I-FORWARD-TSN ended since the last call: each gets a
     * partial delivery aborted indication (RFC 6458 section 6.1.7); the ssn field holds the MID.
     */
    public List<PartialDelivery> takeSkippedPartialDeliveries() {
        return idata == null ? List.of() : idata.takeAborted();
    }

    /** The in-sequence bytes from its message's first fragment through a new fragment, or -1. */
    private int inSequenceBytes(int tsn, int flags, int len) {
        if ((flags & DataChunk.FLAG_B) != 0) {
            return len;
        }
        int prev = fragments.find(tsn - 1);
        if (prev < 0 || fragments.prefix(prev) < 0) {
            return -1;
        }
        return (int) Math.min(Integer.MAX_VALUE, (long) fragments.prefix(prev) + len);
    }

    /**
     * Extends the in-sequence run of a message through the fragments held after the new one at
     * {@code tsn} (which filled the hole before them); returns the run's last TSN. Each fragment
     * learns its count once, so this is amortized constant per fragment.
     */
    private int extendInSequence(int tsn, int flags, int inSequence) {
        int t = tsn;
        long run = inSequence;
        for (int f = flags; (f & DataChunk.FLAG_E) == 0; ) {
            int slot = fragments.find(t + 1);
            if (slot < 0) {
                break;
            }
            f = fragments.flags(slot);
            if ((f & DataChunk.FLAG_B) != 0) {
                break;
            }
            run = Math.min(Integer.MAX_VALUE, run + fragments.length(slot));
            fragments.setPrefix(slot, (int) run);
            t++;
        }
        return t;
    }

    /** Whether no message of the stream is being delivered in parts. */
    private boolean noPartial(int streamId) {
        if (partialCount == 0 || streamId >= streams.length) {
            return true;
        }
        InboundStream s = streams[streamId];
        return s == null || s.partial == null;
    }

    /** Whether a message may begin to be delivered in parts: next on its stream, none in parts there. */
    private boolean eligible(int streamId, int ssn, boolean unordered) {
        InboundStream s = stream(streamId);
        return s.partial == null && (unordered || ssn == s.nextSsn);
    }

    /** Whether the fragment at {@code tsn} is the next one of the stream's message in parts. */
    private boolean continuesPartial(int tsn, int streamId, int ssn, int flags) {
        if (partialCount == 0 || streamId < 0 || streamId >= streams.length || streams[streamId] == null) {
            return false;
        }
        Partial p = streams[streamId].partial;
        boolean unordered = (flags & DataChunk.FLAG_U) != 0;
        return p != null
                && p.nextTsn == tsn
                && (flags & DataChunk.FLAG_B) == 0
                && p.unordered == unordered
                && (unordered || p.ssn == ssn);
    }

    /**
     * Whether a new fragment continues a message that is, or may now be, delivered in parts: the
     * next fragment of one in parts, or one right after the in-sequence run of an eligible one.
     */
    private boolean continuesDeliverable(int tsn, int streamId, int ssn, int flags) {
        if (continuesPartial(tsn, streamId, ssn, flags)) {
            return true;
        }
        if (pdPoint == 0 || (flags & DataChunk.FLAG_B) != 0 || streamId < 0 || streamId >= inboundStreams) {
            return false;
        }
        int prev = fragments.find(tsn - 1);
        return prev >= 0
                && fragments.prefix(prev) >= 0
                && (fragments.flags(prev) & DataChunk.FLAG_E) == 0
                && sameMessage(prev, streamId, ssn, flags)
                && eligible(streamId, ssn, (flags & DataChunk.FLAG_U) != 0);
    }

    /** Begins to deliver in parts the message whose in-sequence run ends at {@code last}. */
    private void startPartial(InboundStream s, int streamId, int ssn, boolean unordered, int last) {
        int first = last;
        int slot = fragments.find(first);
        while ((fragments.flags(slot) & DataChunk.FLAG_B) == 0) {
            first--;
            slot = fragments.find(first);
        }
        Partial p = new Partial(streamId, ssn, unordered, fragments.ppid(slot));
        s.partial = p;
        partialCount++;
        deliverRun(p, first, last, false);
        p.nextTsn = last + 1;
    }

    /** Hands out the fragments now in sequence from the next one of the message in parts. */
    private void continuePartial(InboundStream s, Partial p) {
        int t = p.nextTsn;
        boolean ends = (fragments.flags(fragments.find(t)) & DataChunk.FLAG_E) != 0;
        while (!ends) {
            int next = fragments.find(t + 1);
            if (next < 0) {
                break;
            }
            t++;
            ends = (fragments.flags(next) & DataChunk.FLAG_E) != 0;
        }
        deliverRun(p, p.nextTsn, t, ends);
        p.nextTsn = t + 1;
        if (ends) {
            endPartial(s, p);
        }
    }

    /**
     * Moves the fragments {@code first..last} out of the table into parts of about {@link
     * #MAX_PART} bytes at most, queued as ready; the final one is the message's last if {@code
     * ends}.
     */
    private void deliverRun(Partial p, int first, int last, boolean ends) {
        int t = first;
        while (true) {
            long n = 0;
            int end = t;
            while (true) {
                n += fragments.length(fragments.find(end));
                if (end == last || n >= MAX_PART) {
                    break;
                }
                end++;
            }
            byte[] part = new byte[(int) n];
            moveFragments(t, end, part, 0);
            p.delivered += n;
            boolean fin = end == last && ends;
            readyAdd(p.streamId, p.ppid, p.unordered, part, null, 0, (int) n, false, fin ? LAST_PART : PART);
            if (end == last) {
                return;
            }
            t = end + 1;
        }
    }

    /** The last part was queued: the stream's other messages may go on. */
    private void endPartial(InboundStream s, Partial p) {
        s.partial = null;
        partialCount--;
        if (!p.unordered) {
            s.nextSsn = (s.nextSsn + 1) & 0xffff;
        }
        if (p.waiting != null) {
            for (ReceivedMessage m : p.waiting) {
                readyAdd(m);
            }
        }
        releasePending(s);
    }

    // ------------------------------------------------------------------ FORWARD TSN

    /**
     * Takes a FORWARD TSN (RFC 3758 section 3.6) or, with {@code iData}, an I-FORWARD-TSN (RFC
     * 8260 section 2.3): the sender abandoned every TSN up to {@code newCumulativeTsn}.
     *
     * <ul>
     *   <li>a New Cumulative TSN at or behind the cumulative TSN is out of date: nothing changes,
     *       and a SACK is sent at once (the previous one may have been lost);
     *   <li>otherwise the cumulative TSN moves there (and on over TSNs received after it), the
     *       gaps below it are no longer reported, the fragments at or below it are dropped with
     *       the fragments after it that continue their messages, a message being delivered in
     *       parts whose next fragment was skipped ends (returned, for the partial delivery
     *       aborted event, RFC 6458 section 6.1.7), and each listed stream's next expected SSN
     *       moves past the listed one, delivering the complete messages it held up to it and what
     *       follows in sequence;
     *   <li>for the SACK, the chunk counts as DATA received (RFC 9260 section 6.2 rules): with a
     *       gap closed by it, the SACK goes at once.
     * </ul>
     *
     * <p>Hostile values cannot hurt: a New Cumulative TSN more than {@link #TSN_WINDOW} ahead moves
     * the cumulative TSN by that window only (the sender repeats its FORWARD TSN after our SACK,
     * so a real one still gets through, in steps), entries for streams that are not open are
     * ignored, and the work of the entries is bounded (entries beyond {@link #FORWARD_TSN_WORK}
     * steps are ignored, counted in {@link #protocolViolations()}). Nothing is allocated beyond
     * the list returned.
     *
     * <p>With I-DATA ({@code iData}, an I-FORWARD-TSN) the stream entries name messages by MID,
     * ordered and unordered alike, and the I-DATA reassembly drops them (see {@link #skipIData}).
     *
     * @param skips the chunk's stream entries
     * @return the messages whose delivery in parts ended unfinished, usually none
     */
    public List<PartialDelivery> forwardTsn(int newCumulativeTsn, List<Skip> skips, boolean iData, long now) {
        beginPacket();
        forwardInPacket = true;
        int cum = tracker.cumulativeTsn();
        if (!Serial.gt(newCumulativeTsn, cum)) {
            eventInPacket = true; // out of date: nothing changes, a SACK goes at once (RFC 3758 section 3.6)
            return List.of();
        }
        int target = newCumulativeTsn;
        if (newCumulativeTsn - cum > TSN_WINDOW) {
            target = cum + TSN_WINDOW;
            protocolViolations++;
        }
        tracker.forwardTo(target);
        List<PartialDelivery> aborted = new ArrayList<>(0);
        abortSkippedPartials(target, aborted);
        int open = fragments.find(target);
        long openMessage = open >= 0 && (fragments.flags(open) & DataChunk.FLAG_E) == 0 ? messageOf(open) : -1;
        dropFragmentsThrough(target);
        if (!iData) {
            long work = 0;
            for (int k = 0; k < skips.size() && work < FORWARD_TSN_WORK; k++) {
                Skip e = skips.get(k);
                work++;
                if (!e.unordered() && e.streamId() >= 0 && e.streamId() < inboundStreams) {
                    work += skipTo(e.streamId(), (int) e.sequence() & 0xffff, aborted);
                }
                if (work >= FORWARD_TSN_WORK && k + 1 < skips.size()) {
                    protocolViolations++;
                }
            }
        } else {
            // I-FORWARD-TSN (RFC 8260 section 2.3.2): each entry names a stream, its ordered or
            // unordered sequence and the last MID abandoned; the I-DATA reassembly drops those
            // messages and moves the stream's expected MID on.
            long work = 0;
            for (int k = 0; k < skips.size() && work < FORWARD_TSN_WORK; k++) {
                Skip e = skips.get(k);
                work += 1 + skipIData(e.streamId(), e.unordered(), e.sequence());
                if (work >= FORWARD_TSN_WORK && k + 1 < skips.size()) {
                    protocolViolations++;
                }
            }
            aborted.addAll(takeSkippedPartialDeliveries());
        }
        dropContinuations(target, openMessage);
        return aborted;
    }

    /** The stream, U bit and SSN of the fragment in {@code slot}, as one number. */
    private long messageOf(int slot) {
        boolean u = (fragments.flags(slot) & DataChunk.FLAG_U) != 0;
        return ((long) fragments.streamId(slot) << 17) | (u ? 1L << 16 : 0) | (u ? 0 : fragments.ssn(slot));
    }

    /**
     * Drops the fragments right after {@code target} that can never complete: those continuing
     * (no B bit) the message of the fragment that was held at {@code target} ({@code openMessage},
     * -1 when none), and ordered ones of an SSN their stream has gone past (skipped). Any other
     * fragment without B after {@code target} may continue a message whose first fragment is
     * still to come (lost and being retransmitted): it is kept.
     */
    private void dropContinuations(int target, long openMessage) {
        for (int t = target + 1; fragments.size() > 0; t++) {
            int slot = fragments.find(t);
            if (slot < 0 || (fragments.flags(slot) & DataChunk.FLAG_B) != 0) {
                return;
            }
            long msg = messageOf(slot);
            int sid = fragments.streamId(slot);
            boolean ordered = (fragments.flags(slot) & DataChunk.FLAG_U) == 0;
            InboundStream st = sid < streams.length ? streams[sid] : null;
            boolean stale = ordered
                    && st != null
                    && Serial.lt16(fragments.ssn(slot), st.nextSsn)
                    && (st.partial == null || st.partial.unordered || st.partial.ssn != fragments.ssn(slot));
            if (msg != openMessage && !stale) {
                return;
            }
            dropFragment(slot);
        }
    }

    /** Ends the deliveries in parts whose next fragment is at or below {@code target}. */
    private void abortSkippedPartials(int target, List<PartialDelivery> aborted) {
        if (partialCount == 0) {
            return;
        }
        for (InboundStream s : streams) {
            if (s != null && s.partial != null && Serial.le(s.partial.nextTsn, target)) {
                abortPartial(s, aborted);
            }
        }
    }

    private void abortPartial(InboundStream s, List<PartialDelivery> aborted) {
        Partial p = s.partial;
        aborted.add(new PartialDelivery(p.streamId, p.ssn, p.unordered, p.delivered));
        s.partial = null;
        partialCount--;
        if (!p.unordered && p.ssn == s.nextSsn) {
            s.nextSsn = (s.nextSsn + 1) & 0xffff;
        }
        if (p.waiting != null) {
            for (ReceivedMessage m : p.waiting) {
                readyAdd(m);
            }
        }
        releasePending(s);
    }

    /**
     * Drops the fragments at or below {@code target}: none of them can complete a message now
     * (RFC 3758 section 3.6, "remove any partially reassembled message").
     */
    private void dropFragmentsThrough(int target) {
        if (fragments.size() == 0) {
            return;
        }
        int[] drop = new int[fragments.size()];
        int n = 0;
        for (int slot = 0; slot < fragments.capacity(); slot++) {
            if (fragments.occupied(slot) && Serial.le(fragments.tsn(slot), target)) {
                drop[n++] = fragments.tsn(slot);
            }
        }
        for (int k = 0; k < n; k++) {
            dropFragment(fragments.find(drop[k]));
        }
    }

    private void dropFragment(int slot) {
        byte[] d = fragments.data(slot);
        buffered -= fragments.length(slot);
        fragments.remove(slot);
        pool.give(d);
    }

    /**
     * The stream's ordered messages up to {@code ssn} were abandoned: delivers the complete ones
     * it holds up to there, in order, and expects {@code ssn + 1} next (RFC 3758 section 3.6).
     * Returns the work done.
     */
    private int skipTo(int streamId, int ssn, List<PartialDelivery> aborted) {
        InboundStream s = stream(streamId);
        if (s.partial != null && !s.partial.unordered && Serial.le16(s.partial.ssn, ssn)) {
            abortPartial(s, aborted); // its message was skipped, though its TSN was not
        }
        if (Serial.lt16(ssn, s.nextSsn)) {
            return 1; // already past it
        }
        if (s.partial != null) {
            return 1; // an unordered message is being delivered in parts: the stream waits for it
        }
        int work = 1;
        PendingMessages p = s.pending;
        if (p != null && !p.isEmpty()) {
            int range = ((ssn - s.nextSsn) & 0xffff) + 1;
            if (range <= 2 * p.capacity()) {
                for (int k = 0; k < range; k++) {
                    ReceivedMessage m = p.remove((s.nextSsn + k) & 0xffff);
                    if (m != null) {
                        readyAdd(m);
                    }
                }
                work += range;
            } else {
                int[] keys = new int[p.size()];
                int n = p.keys(keys);
                int base = s.nextSsn;
                int[] offsets = new int[n];
                int m = 0;
                for (int k = 0; k < n; k++) {
                    int off = (keys[k] - base) & 0xffff;
                    if (off < range) {
                        offsets[m++] = off;
                    }
                }
                Arrays.sort(offsets, 0, m);
                for (int k = 0; k < m; k++) {
                    readyAdd(p.remove((base + offsets[k]) & 0xffff));
                }
                work += p.capacity() + m;
            }
        }
        s.nextSsn = (ssn + 1) & 0xffff;
        releasePending(s);
        return work;
    }

    /**
     * The messages being delivered in parts, whose last part has not been queued: after the
     * association ended or restarted, each gets a partial delivery aborted indication (RFC 6458
     * section 6.1.7).
     */
    public List<PartialDelivery> partialDeliveries() {
        if (idata != null) {
            List<PartialDelivery> out = new ArrayList<>();
            idata.partialDeliveries(out);
            return out;
        }
        if (partialCount == 0) {
            return List.of();
        }
        List<PartialDelivery> out = new ArrayList<>();
        for (InboundStream s : streams) {
            if (s != null && s.partial != null) {
                Partial p = s.partial;
                out.add(new PartialDelivery(p.streamId, p.ssn, p.unordered, p.delivered));
            }
        }
        return out;
    }

    /**
     * Whether a fragment ({@code flags}) at {@code tsn} can still be part of a complete message
     * given its already received neighbours (a received neighbour no longer held was delivered or
     * dropped, so it cannot belong to this fragment's message).
     */
    private boolean fitsNeighbours(int tsn, int streamId, int ssn, int flags) {
        if ((flags & DataChunk.FLAG_B) == 0) {
            int prev = fragments.find(tsn - 1);
            if (prev < 0
                    ? tracker.isReceived(tsn - 1) && !continuesPartial(tsn, streamId, ssn, flags)
                    : (fragments.flags(prev) & DataChunk.FLAG_E) != 0 || !sameMessage(prev, streamId, ssn, flags)) {
                return false;
            }
        }
        if ((flags & DataChunk.FLAG_E) == 0) {
            int next = fragments.find(tsn + 1);
            if (next < 0
                    ? tracker.isReceived(tsn + 1)
                    : (fragments.flags(next) & DataChunk.FLAG_B) != 0 || !sameMessage(next, streamId, ssn, flags)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the held fragment in {@code slot} may belong to the same message as the new one. */
    private boolean sameMessage(int slot, int streamId, int ssn, int flags) {
        boolean unordered = (flags & DataChunk.FLAG_U) != 0;
        return fragments.streamId(slot) == streamId
                && ((fragments.flags(slot) & DataChunk.FLAG_U) != 0) == unordered
                && (unordered || fragments.ssn(slot) == ssn);
    }

    /**
     * If the fragment just stored at {@code tsn} completed its message, moves the message out of
     * the table: into the reassembly buffer when it can be delivered at once by reference, else
     * into an array of its own; the fragments' arrays go back to the pool. Returns whether it did.
     */
    private boolean reassemble(int tsn, int streamId, int ssn, int flags) {
        int last = tsn;
        for (int f = flags; (f & DataChunk.FLAG_E) == 0; ) {
            int next = fragments.find(last + 1);
            if (next < 0) {
                return false;
            }
            last++;
            f = fragments.flags(next);
        }
        int first = tsn;
        int firstSlot = -1;
        for (int f = flags; (f & DataChunk.FLAG_B) == 0; ) {
            int prev = fragments.find(first - 1);
            if (prev < 0) {
                return false;
            }
            first--;
            firstSlot = prev;
            f = fragments.flags(prev);
        }
        int ppid = fragments.ppid(firstSlot < 0 ? fragments.find(tsn) : firstSlot);
        long total = 0;
        for (int t = first; t != last + 1; t++) {
            total += fragments.length(fragments.find(t));
        }
        int length = (int) total;
        boolean unordered = (flags & DataChunk.FLAG_U) != 0;
        InboundStream s = unordered ? null : stream(streamId);
        if (keepReferences && length <= MAX_REUSED_MESSAGE && (unordered || ssn == s.nextSsn) && noPartial(streamId)) {
            int at = reserveReassembly(length);
            moveFragments(first, last, reassembly, at);
            readyAdd(streamId, ppid, unordered, null, reassemblyBuf, at, length, true, WHOLE);
            reassemblyRefs++;
            if (!unordered) {
                s.nextSsn = (s.nextSsn + 1) & 0xffff;
                releasePending(s);
            }
            return true;
        }
        byte[] data = new byte[length];
        moveFragments(first, last, data, 0);
        complete(new ReceivedMessage(streamId, ppid, unordered, data), ssn);
        return true;
    }

    /** Copies the fragments {@code first..last} into {@code dst} from {@code at} and lets them go. */
    private void moveFragments(int first, int last, byte[] dst, int at) {
        for (int t = first; t != last + 1; t++) {
            int slot = fragments.find(t);
            byte[] d = fragments.data(slot);
            int n = fragments.length(slot);
            System.arraycopy(d, 0, dst, at, n);
            at += n;
            fragments.remove(slot);
            pool.give(d);
        }
    }

    /**
     * Room for {@code length} bytes in the reassembly buffer; returns where. When the buffer is
     * too small, a bigger one replaces it (entries still referring to the old one keep it).
     */
    int reserveReassembly(int length) {
        if (reassemblyRefs == 0) {
            reassemblyUsed = 0;
        }
        if (reassembly == null || reassembly.length - reassemblyUsed < length) {
            int size = Math.max(4096, Integer.highestOneBit(Math.max(length, 1) - 1) << 1);
            if (reassembly != null) {
                size = Math.max(size, reassembly.length);
            }
            reassembly = new byte[Math.min(size, MAX_REUSED_MESSAGE)];
            reassemblyBuf = ByteBuffer.wrap(reassembly);
            reassemblyUsed = 0;
        }
        int at = reassemblyUsed;
        reassemblyUsed += length;
        return at;
    }

    /** A ready entry that referred to the reassembly buffer was taken. */
    private void reassemblyReleased() {
        if (--reassemblyRefs == 0) {
            reassemblyUsed = 0;
        }
    }

    private InboundStream stream(int id) {
        if (id >= streams.length) {
            streams = Arrays.copyOf(streams, Math.min(inboundStreams, Math.max(id + 1, streams.length * 2)));
        }
        InboundStream s = streams[id];
        if (s == null) {
            s = new InboundStream();
            streams[id] = s;
        }
        return s;
    }

    void readyAdd(
            int streamId,
            int ppid,
            boolean unordered,
            byte[] array,
            ByteBuffer buf,
            int offset,
            int length,
            boolean reassembled,
            byte kind) {
        if (readyCount == readyStream.length) {
            growReady();
        }
        int i = (readyHead + readyCount) & (readyStream.length - 1);
        readyStream[i] = streamId;
        readyPpid[i] = ppid;
        readyUnordered[i] = unordered;
        readyArray[i] = array;
        readyBuf[i] = buf;
        readyOffset[i] = offset;
        readyLength[i] = length;
        readyReassembled[i] = reassembled;
        readyKind[i] = kind;
        readyCount++;
        readyBytes += length;
    }

    void readyAdd(ReceivedMessage m) {
        readyAdd(m.streamId(), m.ppid(), m.unordered(), m.data(), null, 0, m.data().length, false, WHOLE);
    }

    private void growReady() {
        resizeReady(Math.max(16, readyStream.length * 2));
    }

    private void resizeReady(int size) {
        int n = readyStream.length;
        int[] sid = new int[size];
        int[] ppid = new int[size];
        boolean[] un = new boolean[size];
        byte[][] arr = new byte[size][];
        ByteBuffer[] bufs = new ByteBuffer[size];
        int[] off = new int[size];
        int[] len = new int[size];
        boolean[] re = new boolean[size];
        byte[] kind = new byte[size];
        for (int k = 0; k < readyCount; k++) {
            int i = (readyHead + k) & (n - 1);
            sid[k] = readyStream[i];
            ppid[k] = readyPpid[i];
            un[k] = readyUnordered[i];
            arr[k] = readyArray[i];
            bufs[k] = readyBuf[i];
            off[k] = readyOffset[i];
            len[k] = readyLength[i];
            re[k] = readyReassembled[i];
            kind[k] = readyKind[i];
        }
        readyStream = sid;
        readyPpid = ppid;
        readyUnordered = un;
        readyArray = arr;
        readyBuf = bufs;
        readyOffset = off;
        readyLength = len;
        readyReassembled = re;
        readyKind = kind;
        readyHead = 0;
    }

    /** Moves the messages now in sequence from the stream's out-of-order store to the ready queue. */
    private void releasePending(InboundStream s) {
        PendingMessages p = s.pending;
        if (p == null || s.partial != null) {
            return;
        }
        while (!p.isEmpty()) {
            ReceivedMessage next = p.remove(s.nextSsn);
            if (next == null) {
                break;
            }
            readyAdd(next);
            s.nextSsn = (s.nextSsn + 1) & 0xffff;
        }
        if (p.isEmpty() && p.capacity() > PENDING_IDLE_CAPACITY) {
            s.pending = null; // a burst of reordering is over: let its table go
        }
    }

    private void complete(ReceivedMessage m, int ssn) {
        if (m.unordered()) {
            if (noPartial(m.streamId())) {
                readyAdd(m);
            } else {
                // a message of the stream is being delivered in parts: this one waits for its end
                Partial p = streams[m.streamId()].partial;
                if (p.waiting == null) {
                    p.waiting = new ArrayDeque<>();
                }
                p.waiting.add(m);
            }
            return;
        }
        InboundStream s = stream(m.streamId());
        ssn &= 0xffff;
        if (s.partial != null && !s.partial.unordered && ssn == s.partial.ssn) {
            drop(m); // the SSN of the message being delivered in parts: the peer reused it
            return;
        }
        if (ssn == s.nextSsn && s.partial == null) {
            readyAdd(m);
            s.nextSsn = (s.nextSsn + 1) & 0xffff;
            releasePending(s);
            return;
        }
        if (Serial.lt16(ssn, s.nextSsn)) {
            drop(m); // an SSN already delivered: the peer reused it
            return;
        }
        if (s.pending == null) {
            s.pending = new PendingMessages();
        }
        if (!s.pending.putIfAbsent(ssn, m)) {
            drop(m);
        }
    }

    private void drop(ReceivedMessage m) {
        protocolViolations++;
        buffered -= m.data().length;
    }

    private void beginPacket() {
        if (!inPacket) {
            inPacket = true;
            gapsAtPacketStart = tracker.hasGaps();
        }
    }

    /**
     * Ends the processing of one received packet and decides when to SACK (RFC 9260 section 6.2):
     * at once when a gap exists or was just closed (with {@link SctpOptions#cmtDelayedAck()}: only
     * when one was just closed), a duplicate or a chunk that could not be kept
     * arrived, the I bit was set (or {@code immediateRequested}), or {@link
     * SctpOptions#sackFrequency()} packets with DATA arrived since the last SACK; otherwise the
     * delayed-ack timer starts if it is not running.
     */
    public void onPacketProcessed(boolean packetHadData, boolean immediateRequested, long now) {
        if (packetHadData || forwardInPacket) {
            forwardInPacket = false;
            packetsSinceSack++;
            boolean gaps = options.cmtDelayedAck()
                    // CMT's delayed ack: reordering across paths is normal, so only the closing
                    // of a gap is reported at once.
                    ? inPacket && gapsAtPacketStart && !tracker.hasGaps()
                    : tracker.hasGaps() || (inPacket && gapsAtPacketStart);
            if (gaps
                    || eventInPacket
                    || immediateRequested
                    || packetsSinceSack >= options.sackFrequency()
                    || delayedAckNanos == 0) {
                immediate = true;
            } else if (sackSlots[sackSlot] == Long.MAX_VALUE) {
                sackSlots[sackSlot] = now + delayedAckNanos;
            }
        } else if (immediateRequested || eventInPacket) {
            immediate = true;
        }
        inPacket = false;
        eventInPacket = false;
        if (idata != null) {
            idata.afterPacket();
        }
    }

    /**
     * Keeps the delayed-SACK deadline in {@code slots[slot]} from now on (the association's timer
     * table), carrying over the current one. A receiver not bound keeps it to itself.
     */
    public void bindSackTimer(long[] slots, int slot) {
        slots[slot] = sackSlots[sackSlot];
        sackSlots = slots;
        sackSlot = slot;
    }

    /** When the delayed SACK is due; {@link Long#MAX_VALUE} when no SACK is delayed. */
    public long sackDeadline() {
        return sackSlots[sackSlot];
    }

    /** Whether a SACK should be sent now: one is due at once, or the delayed-ack timer expired. */
    public boolean sackNeeded(long now) {
        return immediate || now >= sackSlots[sackSlot];
    }

    /**
     * Writes the SACK content: cumulative TSN, a_rwnd, as many gap blocks as fit in {@code
     * maxBytes} of SACK chunk, then as many duplicate TSNs as still fit. The duplicate list is
     * cleared and the SACK counts as sent (no SACK due, delayed-ack timer stopped).
     *
     * @param maxBytes room for the SACK chunk, its 16 fixed bytes included
     */
    public void writeSack(SackWriter w, int maxBytes) {
        writeSack(w, maxBytes, false);
    }

    /**
     * As {@link #writeSack(SackWriter, int)}; with {@code nonRenegable} (NR-SACK negotiated,
     * draft-natarajan-tsvwg-sctp-nrsack-08) the content goes to {@link SackWriter#nrSack} as NR gap
     * blocks, with {@code maxBytes} counting the NR-SACK's 20 fixed bytes: this receiver never
     * reneges (a TSN it reported stays received until delivered), so every out-of-order TSN it
     * holds is non-renegable, delivered or not.
     */
    public void writeSack(SackWriter w, int maxBytes, boolean nonRenegable) {
        int room = Math.max(0, (maxBytes - (nonRenegable ? 20 : 16)) / 4);
        int gapRoom = Math.min(room, 32768);
        if (gapStarts.length < gapRoom && tracker.hasGaps()) {
            int n = Math.min(gapRoom, Math.max(gapStarts.length * 2, 64));
            gapStarts = new int[n];
            gapEnds = new int[n];
        }
        int gaps = tracker.hasGaps() ? tracker.gapBlocks(gapStarts, gapEnds, Math.min(gapRoom, gapStarts.length)) : 0;
        int dupsOut = Math.min(dupCount, room - gaps);
        long rwnd = aRwnd();
        if (nonRenegable) {
            w.nrSack(tracker.cumulativeTsn(), rwnd, gapStarts, gapEnds, gaps, dups, dupsOut);
        } else {
            w.sack(tracker.cumulativeTsn(), rwnd, gapStarts, gapEnds, gaps, dups, dupsOut);
        }
        dupCount = 0;
        immediate = false;
        sackSlots[sackSlot] = Long.MAX_VALUE;
        packetsSinceSack = 0;
        lastAdvertisedRwnd = rwnd;
    }

    /**
     * The next message for the user, or null when none is ready. Releasing its bytes may reopen
     * the window: a window-update SACK is then requested when the window grows by a quarter of the
     * receive buffer since the last SACK, or opens from zero.
     */
    public ReceivedMessage pollMessage() {
        if (readyCount == 0) {
            return null;
        }
        int i = readyHead;
        byte[] data = readyArray[i];
        if (data == null) {
            data = new byte[readyLength[i]];
            readyBuf[i].get(readyOffset[i], data);
        }
        byte kind = readyKind[i];
        ReceivedMessage m =
                new ReceivedMessage(readyStream[i], readyPpid[i], readyUnordered[i], data, kind != WHOLE, kind != PART);
        boolean reassembled = readyReassembled[i];
        takeReady(i);
        if (reassembled) {
            reassemblyReleased();
        }
        return m;
    }

    /**
     * The allocation-free form of {@link #pollMessage()}: hands the next ready message to {@code
     * sink} (without a copy when it refers to the packet buffer) and returns true, or returns
     * false when none is ready. Window updates as in {@link #pollMessage()}.
     */
    public boolean pollMessage(MessageSink sink) {
        if (readyCount == 0) {
            return false;
        }
        int i = readyHead;
        byte[] array = readyArray[i];
        ByteBuffer buf = readyBuf[i];
        int sid = readyStream[i];
        int ppid = readyPpid[i];
        boolean unordered = readyUnordered[i];
        int off = readyOffset[i];
        int len = readyLength[i];
        boolean reassembled = readyReassembled[i];
        byte kind = readyKind[i];
        takeReady(i);
        if (kind != WHOLE) {
            sink.part(sid, ppid, unordered, array, kind == LAST_PART);
            return true;
        }
        if (!reassembled) {
            sink.message(sid, ppid, unordered, array, buf, off, len);
            return true;
        }
        try {
            sink.message(sid, ppid, unordered, array, buf, off, len);
        } finally {
            reassemblyReleased(); // only now may the buffer be written again
        }
        return true;
    }

    private void takeReady(int i) {
        int len = readyLength[i];
        readyArray[i] = null;
        readyBuf[i] = null;
        readyHead = (readyHead + 1) & (readyStream.length - 1);
        readyCount--;
        readyBytes -= len;
        if (deferredRelease) {
            held += len; // still counted in buffered until release()
            return;
        }
        buffered -= len;
        windowOpened();
    }

    /** Requests a window-update SACK when the window opens from zero or grows by a quarter. */
    private void windowOpened() {
        long rwnd = aRwnd();
        if ((lastAdvertisedRwnd == 0 && rwnd > 0) || rwnd - lastAdvertisedRwnd >= receiveBuffer / 4) {
            immediate = true;
        }
    }

    /**
     * With {@link SctpOptions#deferredReceiveRelease()}: the application is done with {@code
     * bytes} of delivered messages, which no longer count against the receive window; a
     * window-update SACK is requested as for a poll. At most what is held is released (a larger
     * value releases everything held); without deferred release this does nothing.
     */
    public void release(long bytes) {
        if (!deferredRelease || bytes <= 0) {
            return;
        }
        long n = Math.min(bytes, held);
        held -= n;
        buffered -= n;
        windowOpened();
    }

    /** Bytes of delivered messages not yet {@link #release released} (0 without deferred release). */
    public long heldBytes() {
        return held;
    }

    /**
     * Copies the ready messages that still refer to a packet buffer into arrays of their own, so
     * that the buffer may change; for a caller whose sink stopped early (it threw).
     */
    public void detachReferences() {
        for (int k = 0; k < readyCount; k++) {
            int i = (readyHead + k) & (readyStream.length - 1);
            if (readyBuf[i] != null) {
                byte[] copy = new byte[readyLength[i]];
                readyBuf[i].get(readyOffset[i], copy);
                readyArray[i] = copy;
                readyBuf[i] = null;
                readyOffset[i] = 0;
                if (readyReassembled[i]) {
                    readyReassembled[i] = false;
                    reassemblyReleased();
                }
            }
        }
    }

    // ------------------------------------------------------------------ stream reconfiguration

    /** The number of inbound streams now. */
    public int inboundStreams() {
        return inboundStreams;
    }

    /**
     * Adds inbound streams (RFC 6525 section 5.2.5, Add Outgoing Streams received): streams {@code
     * inboundStreams()..n-1} are accepted from now on, their SSNs starting at 0.
     *
     * @throws IllegalArgumentException unless {@code n} is at least the current count and at most
     *     65535
     */
    public void setInboundStreams(int n) {
        if (n < inboundStreams || n > 65535) {
            throw new IllegalArgumentException(
                    "inbound streams can only grow up to 65535: " + inboundStreams + " to " + n);
        }
        inboundStreams = n;
        if (idata != null) {
            idata.setInboundStreams(n);
        }
    }

    /**
     * Resets the expected SSN of the inbound streams {@code ids} (every stream when empty) to 0
     * (RFC 6525 section 5.2.2 E3). Call once every TSN up to the request's Sender's Last Assigned
     * TSN was received: the messages of those streams are then complete and delivered, so
     * nothing of the old numbering is left. Streams out of range are ignored.
     */
    public void resetStreams(int[] ids) {
        if (idata != null) {
            idata.resetStreams(ids); // the expected MIDs, RFC 8260 section 2.3.1
        }
        eachStream(ids, streams.length, this::resetStream);
        List<HeldChunk> h = heldForReset;
        int base = resetLastTsn;
        resetStreamsDeferred = null;
        heldForReset = null;
        if (h == null) {
            return;
        }
        // The chunks that waited for the reset, in TSN order (those after a gap may have come
        // before the ones filling it), as if they arrived now.
        h.sort((x, y) -> Integer.compareUnsigned(x.tsn() - base, y.tsn() - base));
        for (HeldChunk c : h) {
            buffered -= c.data().length;
            admittedUnderPressure = false;
            ByteBuffer b = ByteBuffer.wrap(c.data());
            if (c.iData()) {
                idata.onFragment(
                        c.tsn(), c.streamId(), c.seq(), c.ppidOrFsn(), c.flags(), b, 0, c.data().length, false);
            } else {
                accept(c.tsn(), c.streamId(), c.seq(), c.ppidOrFsn(), c.flags(), b, 0, c.data().length);
            }
        }
    }

    /**
     * The peer's reset of its outgoing streams {@code ids} (every stream when empty) waits for the
     * TSNs up to {@code lastTsn} (RFC 6525 section 5.2.2 E2, deferred reset processing): until
     * {@link #resetStreams} performs it, ordered chunks after {@code lastTsn} on those streams
     * (numbered from 0 again) are acknowledged and held aside, not ordered among the old
     * numbering. They count against the receive window like any buffered data.
     */
    public void deferReset(int lastTsn, int[] ids) {
        resetLastTsn = lastTsn;
        resetStreamsDeferred = ids.clone();
    }

    /** Holds an admitted chunk that belongs after a deferred reset; true if held. */
    private boolean holdForReset(
            int tsn,
            int streamId,
            int seq,
            int ppidOrFsn,
            int flags,
            ByteBuffer buf,
            int userDataOffset,
            int len,
            boolean iData) {
        int[] ids = resetStreamsDeferred;
        if (ids == null || (flags & DataChunk.FLAG_U) != 0 || !Serial.gt(tsn, resetLastTsn)) {
            return false;
        }
        boolean named = ids.length == 0;
        for (int k = 0; k < ids.length && !named; k++) {
            named = ids[k] == streamId;
        }
        if (!named) {
            return false;
        }
        byte[] data = new byte[len];
        buf.get(userDataOffset, data, 0, len);
        buffered += len;
        if (heldForReset == null) {
            heldForReset = new ArrayList<>();
        }
        heldForReset.add(new HeldChunk(tsn, streamId, seq, ppidOrFsn, flags, data, iData));
        return true;
    }

    /**
     * Calls {@code f} for each stream a reset request names that lies below {@code count}, or for
     * every stream below it when the list is empty (RFC 6525 section 4.1: no stream listed means
     * all).
     */
    static void eachStream(int[] ids, int count, java.util.function.IntConsumer f) {
        if (ids.length == 0) {
            for (int id = 0; id < count; id++) {
                f.accept(id);
            }
            return;
        }
        for (int id : ids) {
            if (id >= 0 && id < count) {
                f.accept(id);
            }
        }
    }

    private void resetStream(int id) {
        InboundStream s = streams[id];
        if (s == null) {
            return;
        }
        s.nextSsn = 0;
        if (s.pending != null && s.partial == null) {
            // Only a peer that broke the rule of section 5.1.2 leaves messages waiting here.
            buffered -= s.pending.clear();
            s.pending = null;
        }
    }

    /**
     * SSN/TSN reset (RFC 6525 section 5.2.4 G1, G4 and G5, and 5.1.4 on the response): the next
     * TSN expected is {@code firstTsn}; fragments and out-of-order messages of the old numbering
     * are dropped, as a FORWARD-TSN covering them would; every stream's expected SSN is 0.
     * Complete messages already queued for the user stay.
     *
     * @return the messages whose delivery in parts was under way and ends here, for their
     *     partial delivery aborted events (RFC 6458 section 6.1.7)
     */
    public List<PartialDelivery> resetTsn(int firstTsn) {
        List<PartialDelivery> aborted = partialDeliveries();
        int n = fragments.size();
        int[] tsns = new int[n];
        int k = 0;
        for (int slot = 0; slot < fragments.capacity() && k < n; slot++) {
            if (fragments.data(slot) != null) {
                tsns[k++] = fragments.tsn(slot);
            }
        }
        for (int i = 0; i < k; i++) {
            int slot = fragments.find(tsns[i]);
            if (slot >= 0) {
                byte[] d = fragments.data(slot);
                buffered -= fragments.length(slot);
                fragments.remove(slot);
                pool.give(d);
            }
        }
        for (InboundStream s : streams) {
            if (s == null) {
                continue;
            }
            if (s.partial != null) {
                if (s.partial.waiting != null) {
                    for (ReceivedMessage m : s.partial.waiting) {
                        readyAdd(m);
                    }
                }
                s.partial = null;
                partialCount--;
            }
            s.nextSsn = 0;
            if (s.pending != null) {
                buffered -= s.pending.clear();
                s.pending = null;
            }
        }
        if (idata != null) {
            // With I-DATA the MIDs restart as the SSNs do (RFC 8260 section 2.3.1).
            idata.resetAll();
            aborted.addAll(idata.takeAborted());
        }
        if (heldForReset != null) {
            // held for a deferred stream reset: of the old TSN numbering too
            for (HeldChunk c : heldForReset) {
                buffered -= c.data().length;
            }
        }
        heldForReset = null;
        resetStreamsDeferred = null;
        tracker.restart(firstTsn);
        dupCount = 0;
        return aborted;
    }

    /** Whether a message is ready for {@link #pollMessage()}. */
    public boolean hasMessage() {
        return readyCount > 0;
    }

    /** The Cumulative TSN: every TSN up to it was received. */
    public int cumulativeTsn() {
        return tracker.cumulativeTsn();
    }

    /** The highest TSN received. */
    public int highestTsn() {
        return tracker.highestReceived();
    }

    /**
     * Bytes held: fragments, complete messages the user has not polled and, with deferred release,
     * delivered messages not yet released.
     */
    public long bufferedBytes() {
        return buffered;
    }

    /** The receive window to advertise: the receive buffer minus the bytes held, at least 0. */
    public long aRwnd() {
        return Math.max(0, receiveBuffer - buffered);
    }

    /** Whether TSNs above the cumulative TSN were received (the next SACK has gap blocks). */
    public boolean hasGaps() {
        return tracker.hasGaps();
    }

    /**
     * Writes up to {@code max} gap ack blocks (offsets from {@link #cumulativeTsn()}, inclusive
     * ends, lowest first) into the arrays, as the next SACK would report them; returns how many.
     */
    public int gapBlocks(int[] starts, int[] ends, int max) {
        return tracker.hasGaps()
                ? tracker.gapBlocks(starts, ends, Math.min(max, Math.min(starts.length, ends.length)))
                : 0;
    }

    /** The a_rwnd of the last SACK written (the receive buffer before the first). */
    public long lastAdvertisedRwnd() {
        return lastAdvertisedRwnd;
    }

    /** Duplicate TSNs waiting for the next SACK. */
    public int pendingDuplicates() {
        return dupCount;
    }

    /**
     * Chunks that contradicted earlier ones (fragment sequences that cannot form a message, an SSN
     * reused) and were dropped; the association may ABORT with a Protocol Violation cause.
     */
    public long protocolViolations() {
        return protocolViolations;
    }

    /** Chunks dropped for lack of room ({@link DataResult#DROPPED_NO_ROOM}). */
    public long droppedChunks() {
        return droppedChunks;
    }

    /** Fragments waiting for the rest of their message. */
    public int pendingFragments() {
        return idata != null ? idata.pendingFragments() : fragments.size();
    }

    /**
     * Bytes the receiver keeps for reuse beyond what it holds for the peer: the free fragment
     * arrays, the reassembly buffer and the fragment table's slots (about 25 bytes each). After a
     * burst it returns to at most the pool's budget plus {@link #MAX_REUSED_MESSAGE} plus a table
     * of {@link FragmentTable#IDLE_CAPACITY} slots.
     */
    long retainedBytes() {
        return pool.pooledBytes() + (reassembly == null ? 0 : reassembly.length) + 25L * fragments.capacity();
    }

    /**
     * Lets go of what the receiver keeps for reuse once it holds nothing for the application or
     * the peer (no fragment waiting, no message ready, the reassembly buffer not referred to):
     * the free fragment arrays, the reassembly buffer and the ready queue's arrays, so that {@link
     * #retainedBytes()} falls to the fragment table's idle slots. The association calls it when it
     * goes idle (see {@code DataTransfer.trimIfIdle}); the next burst allocates again.
     *
     * @return whether it trimmed
     */
    public boolean trimIdle() {
        if (readyCount != 0 || reassemblyRefs != 0 || pendingFragments() != 0) {
            return false;
        }
        pool.trim();
        reassembly = null;
        reassemblyBuf = null;
        reassemblyUsed = 0;
        if (readyStream.length != 0) {
            resizeReady(0);
        }
        return true;
    }

    /** Slots of the ready queue's arrays (0 before the first message and after {@link #trimIdle()}). */
    int readyCapacity() {
        return readyStream.length;
    }

    /** The most the fragment pool keeps. */
    long poolBudget() {
        return pool.budget();
    }

    @Override
    public String toString() {
        return "DataReceiver[cum=" + Integer.toUnsignedString(tracker.cumulativeTsn()) + " highest="
                + Integer.toUnsignedString(tracker.highestReceived()) + " buffered=" + buffered + " fragments="
                + fragments.size() + " ready=" + readyCount + "]";
    }
}
