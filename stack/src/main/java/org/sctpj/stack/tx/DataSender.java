package org.sctpj.stack.tx;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.sctpj.stack.IDataFragmentNumbering;
import org.sctpj.stack.PrPolicy;
import org.sctpj.stack.PrStatus;
import org.sctpj.stack.SctpEvent.SendFailedReason;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.StreamSchedulerKind;
import org.sctpj.stack.cc.CongestionController;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.rx.DataReceiver;
import org.sctpj.stack.wire.Serial;

/**
 * The sending half of an association's data transfer (RFC 9260 sections 6.1 to 6.3 and 7.2): the
 * send buffer, stream scheduling, fragmentation, TSN and SSN assignment, outstanding chunks, SACK
 * processing, retransmission (T3-rtx and fast retransmit) and the per-path congestion windows
 * (through a {@link CongestionController}).
 *
 * <p>Calling contract, all on the association's thread, times passed in:
 *
 * <ol>
 *   <li>{@link #send} queues a message (or says {@link SendStatus#WOULD_BLOCK});
 *   <li>to transmit, the association picks a path p, calls {@link #beginBurst(Path)} once per event
 *       (a SACK, a timeout, a send), then for each packet {@link PacketBuilder#reset} (bundling
 *       control chunks first if it wants), {@link #fill} and, if the packet is not empty, sends it;
 *       it stops when {@link #fill} adds no DATA. {@link #fill} starts T3-rtx of p when it sends;
 *   <li>a received SACK goes to {@link #onSack}, which returns an {@link AckResult};
 *   <li>when {@link Path#t3Deadline()} passes, {@link #onT3Expired}; the association counts the
 *       error and picks a path for the retransmissions (RFC 9260 section 6.4.1);
 *   <li>on abort, {@link #drainUnsent()}.
 * </ol>
 *
 * <p>Paths are identified by {@link Path#index()} (0..63). Byte counts (flight size, rwnd,
 * buffer) are of user data.
 *
 * <p>The facade over the procedures, each in its own class:
 *
 * <ul>
 *   <li>{@link SendQueue}: messages not yet sent, per stream, in the turn order of a stream
 *       scheduler of RFC 8260 section 3 ({@code tx.sched}); send-buffer accounting;
 *   <li>{@link PacketFiller}: filling a packet with DATA within MTU, cwnd, the peer's rwnd,
 *       Max.Burst and Nagle;
 *   <li>{@link RetransmissionQueue}: outstanding chunks, the acknowledgement passes of a SACK,
 *       marking and resending;
 *   <li>{@link LossDetector}: miss indications, fast retransmit, Fast Recovery ({@link
 *       Rfc9260LossDetector}, or {@link CmtLossDetector} with CMT);
 *   <li>{@link T3Rtx}: the retransmission timer rules of RFC 9260 section 6.3;
 *   <li>{@link PathScheduling}: which destinations take data ({@link SinglePathScheduling}, or
 *       {@link CmtScheduler} with CMT), see {@link #scheduling()}.
 * </ul>
 *
 * <p>With {@link SctpOptions#cmt()} (Concurrent Multipath Transfer, Iyengar, Amer and Stewart) the
 * association fills packets for every destination that takes data ({@link CmtScheduler}) and the
 * sender applies CMT's loss rules ({@link CmtLossDetector}); the choice is made once, here.
 */
public final class DataSender {

    /** The outcome of {@link #send}. */
    public enum SendStatus {
        /** The message was copied into the send buffer. */
        ACCEPTED,
        /** The send buffer lacks room for the whole message; nothing was consumed. */
        WOULD_BLOCK
    }

    private final CongestionController cc;
    private final RetransmissionQueue outstanding;
    private final SendQueue queue;
    private final PathScheduling scheduling;
    private final LossDetector loss;
    private final T3Rtx t3;
    private final PacketFiller filler;
    private final Abandonment abandonment;
    private final AckResult result = new AckResult();
    private final SendPool pool;
    private boolean iData;
    private IDataFragmentNumbering numbering = IDataFragmentNumbering.RFC8260;
    private boolean autoSwitched;

    /**
     * Hears of each message a PR-SCTP policy abandoned (RFC 3758 section 3.5, RFC 7496), on the
     * association's thread, while the sender works (a send, a SACK, a timeout, a packet fill).
     */
    @FunctionalInterface
    public interface AbandonListener {
        /**
         * One abandoned message.
         *
         * @param data the whole message, which the listener may keep
         * @param sent whether some of it was put on the wire
         * @param reason the policy that gave it up
         */
        void abandoned(int streamId, int ppid, boolean unordered, byte[] data, boolean sent, SendFailedReason reason);
    }

    /**
     * What a FORWARD TSN (RFC 3758 section 3.2) or I-FORWARD-TSN (RFC 8260 section 2.3.1) carries
     * now, see {@link #forwardTsnPlan}.
     *
     * @param newCumulativeTsn the New Cumulative TSN
     * @param skips per stream (and, with I-DATA, per ordered or unordered sequence) the highest
     *     skipped sequence number
     */
    public record ForwardTsnPlan(int newCumulativeTsn, List<DataReceiver.Skip> skips) {}

    /**
     * A sender whose first DATA chunk will carry {@code initialTsn}.
     *
     * @param outboundStreams streams usable now (see {@link #setOutboundStreams})
     * @param peerRwnd the a_rwnd of the peer's INIT or INIT ACK
     * @param cc the congestion controller; the association has already called {@link
     *     CongestionController#init} for each path
     */
    public DataSender(SctpOptions o, int initialTsn, int outboundStreams, long peerRwnd, CongestionController cc) {
        Objects.requireNonNull(o, "options");
        this.cc = Objects.requireNonNull(cc, "congestion controller");
        SendPool pool = new SendPool(o.sendBufferBytes());
        this.pool = pool;
        this.outstanding = new RetransmissionQueue(pool, initialTsn, peerRwnd, result);
        this.queue = new SendQueue(o, pool, outstanding, outboundStreams);
        // The one place where CMT is chosen: its scheduling and its loss rules go together.
        if (o.cmt()) {
            this.scheduling = new CmtScheduler(o);
            this.loss = new CmtLossDetector(outstanding, cc, o);
        } else {
            this.scheduling = new SinglePathScheduling();
            this.loss = new Rfc9260LossDetector(outstanding, cc);
        }
        this.t3 = new T3Rtx(outstanding, loss, cc);
        this.filler = new PacketFiller(o, queue, outstanding, scheduling, t3, pool);
        this.abandonment = new Abandonment(queue, outstanding, pool);
        filler.abandonment(abandonment);
    }

    // ------------------------------------------------------------------ partial reliability

    /**
     * Whether messages of which something was sent may be abandoned: PR-SCTP was negotiated (RFC
     * 3758 section 3.3). Off (the default), only unsent messages are abandoned by their policy.
     */
    public void setPartialReliability(boolean on) {
        abandonment.enabled = on;
    }

    /**
     * Binds the lifetime timer (the time-to-live policy's next expiry, see {@code
     * SendQueue.bindLifetimeTimer}) to {@code slots[slot]} of the association's timer table.
     */
    public void bindLifetimeTimer(long[] slots, int slot) {
        queue.bindLifetimeTimer(slots, slot);
    }

    /**
     * The lifetime timer expired: it moves on to the next lifetime to end. The messages whose
     * lifetime is over are abandoned when the filler reaches them (RFC 3758 section 4.1 TR3), at
     * the association's next transmission, which the timer's expiry brings about.
     */
    public void onLifetimeTimer(long now) {
        queue.onLifetimeTimer(now);
    }

    /** Whether PR-SCTP is on (see {@link #setPartialReliability}). */
    public boolean partialReliability() {
        return abandonment.enabled;
    }

    /** Sets who hears of abandoned messages (the association, to return them to the user). */
    public void setAbandonListener(AbandonListener l) {
        abandonment.listener = Objects.requireNonNull(l, "listener");
    }

    /**
     * The Advanced.Peer.Ack.Point (RFC 3758 section 3.5 A1, C1, C2): the Cumulative TSN Ack Point
     * moved locally over the abandoned chunks after it. Above {@link #cumulativeAckTsn()} when the
     * peer must be sent a FORWARD TSN (C3).
     */
    public int advancedPeerAckPoint() {
        return abandonment.advancedPeerAckPoint();
    }

    /**
     * The FORWARD TSN to send now (RFC 3758 section 3.5 C4): the Advanced.Peer.Ack.Point, lowered
     * so that at most {@code maxEntries} streams are listed (so that the chunk fits one packet),
     * and the highest abandoned SSN of each stream with an abandoned ordered message up to it;
     * with {@code iData}, the I-FORWARD-TSN's list (unordered messages included).
     */
    public ForwardTsnPlan forwardTsnPlan(int maxEntries, boolean iData) {
        return abandonment.plan(maxEntries, iData);
    }

    /**
     * A FORWARD TSN (or I-FORWARD-TSN) with New Cumulative TSN {@code newCum} was queued for the
     * peer: the abandoned chunks it covers stop closing the peer's window (RFC 9260 section 6.1
     * rule A; the peer drops them, RFC 3758 section 3.6).
     */
    public void forwardTsnSent(int newCum) {
        outstanding.forwardTsnSent(newCum);
    }

    /** Abandoned messages of the association so far (RFC 7496 section 4.5, SCTP_PR_ASSOC_STATUS). */
    public PrStatus prStatus() {
        return abandonment.status();
    }

    /** Abandoned messages of outbound stream {@code streamId} so far (SCTP_PR_STREAM_STATUS). */
    public PrStatus prStatus(int streamId) {
        return abandonment.status(streamId);
    }

    /**
     * The data scheduling of this association (one destination at a time, or CMT), chosen from
     * {@link SctpOptions#cmt()} when the sender was made: the association asks it which paths
     * carry DATA and, with CMT, lets it pick the destination of each DATA packet.
     */
    public PathScheduling scheduling() {
        return scheduling;
    }

    /**
     * Sends user data as I-DATA chunks from now on (RFC 8260 section 2.1), once I-DATA was
     * negotiated and before the first message is sent: per stream a 32-bit MID counter for
     * ordered and one for unordered messages, FSN 0 on the first fragment (which carries the
     * PPID), then 1, 2, ...; the streams take turns after every chunk, so the fragments of
     * messages of different streams interleave. Never DATA afterwards on this association.
     */
    public void useIData() {
        useIData(IDataFragmentNumbering.RFC8260);
    }

    /**
     * As {@link #useIData()}, numbering the fragments after a message's first one as {@code
     * numbering} says ({@link IDataFragmentNumbering#AUTO}: as the RFC says until {@link
     * #peerNumbersFragmentsLikeLinux()}).
     */
    public void useIData(IDataFragmentNumbering numbering) {
        filler.useIData();
        queue.setChunkHeader(org.sctpj.stack.wire.chunk.IDataChunk.FIXED_LENGTH);
        queue.setInterleaving(true);
        iData = true;
        this.numbering = Objects.requireNonNull(numbering, "numbering");
        filler.linuxFragmentNumbering(numbering == IDataFragmentNumbering.LINUX_6_1);
    }

    /**
     * The peer's fragments showed the Linux 6.1 numbering (a fragment without the B bit with FSN
     * 0): with {@link IDataFragmentNumbering#AUTO}, the messages begun from now on are numbered the
     * same way, so that such a peer delivers them. Otherwise nothing changes.
     */
    public void peerNumbersFragmentsLikeLinux() {
        if (numbering == IDataFragmentNumbering.AUTO && !autoSwitched) {
            autoSwitched = true;
            filler.linuxFragmentNumbering(true);
        }
    }

    /**
     * How new I-DATA messages number their fragments now: {@link IDataFragmentNumbering#RFC8260}
     * or {@link IDataFragmentNumbering#LINUX_6_1} (for AUTO, which one it settled on so far).
     */
    public IDataFragmentNumbering fragmentNumbering() {
        return numbering == IDataFragmentNumbering.LINUX_6_1 || autoSwitched
                ? IDataFragmentNumbering.LINUX_6_1
                : IDataFragmentNumbering.RFC8260;
    }

    /** Whether user data goes out as I-DATA ({@link #useIData()}). */
    public boolean usesIData() {
        return iData;
    }

    /**
     * Sets the number of usable outbound streams, after negotiation: the lesser of ours and the
     * peer's inbound streams. Messages already queued on higher streams are still sent.
     *
     * @throws IllegalArgumentException outside 1..65535
     */
    public void setOutboundStreams(int n) {
        queue.setOutboundStreams(n);
    }

    /** The number of usable outbound streams. */
    public int outboundStreams() {
        return queue.outboundStreams();
    }

    /**
     * Switches the stream scheduler (RFC 8260 section 3, set at run time as SCTP_PLUGGABLE_SS of
     * section 4.3.2), keeping every queued message in its stream's order; the per-stream values go
     * back to their defaults. Nothing happens if {@code kind} is the scheduler in use.
     */
    public void setStreamScheduler(StreamSchedulerKind kind) {
        queue.setScheduler(Objects.requireNonNull(kind, "stream scheduler kind"));
    }

    /** The stream scheduler in use. */
    public StreamSchedulerKind streamScheduler() {
        return queue.schedulerKind();
    }

    /**
     * Sets the scheduler's value of a stream (RFC 8260 section 4.3.3 SCTP_SS_VALUE): the priority
     * of {@link StreamSchedulerKind#PRIORITY}, the weight of {@link
     * StreamSchedulerKind#WEIGHTED_FAIR_QUEUEING}.
     *
     * @throws IllegalArgumentException for a stream at or above {@link #outboundStreams()} or a
     *     value outside the scheduler's range
     * @throws IllegalStateException if the scheduler in use has no per-stream value
     */
    public void setStreamValue(int streamId, int value) {
        queue.setStreamValue(streamId, value);
    }

    /** The scheduler's value of a stream (its default if never set). */
    public int streamValue(int streamId) {
        return queue.streamValue(streamId);
    }

    /**
     * Whether messages of different streams may interleave (I-DATA, RFC 8260 section 2, once
     * negotiated): the stream scheduler may then switch streams between two chunks of one message.
     * Off (the default, DATA), a stream keeps its turn until its head message is fully sent (RFC
     * 9260 section 6.9). Set it before data is sent.
     */
    public void setInterleaving(boolean on) {
        queue.setInterleaving(on);
    }

    /**
     * Queues one message: copies the remaining bytes of {@code data}, advancing its position, if
     * the whole message fits the free send buffer; otherwise returns {@link SendStatus#WOULD_BLOCK}
     * and leaves {@code data} untouched.
     *
     * @param immediate set the I bit (RFC 7053) on the message's last fragment
     * @throws IllegalArgumentException for a stream at or above {@link #outboundStreams()}, an
     *     empty message or one over {@link SctpOptions#maxMessageSize()}
     */
    public SendStatus send(int streamId, int ppid, boolean unordered, boolean immediate, ByteBuffer data) {
        return queue.send(streamId, ppid, unordered, immediate, data);
    }

    /**
     * As {@link #send(int, int, boolean, boolean, ByteBuffer)}, for a message with the PR-SCTP
     * policy {@code policy} (its lifetime starts at {@code now}). When it does not fit, messages
     * whose lifetime expired are abandoned, and with the priority policy less important messages
     * too (RFC 7496 section 3.2, see {@link PrPolicy}), before it gives up with {@link
     * SendStatus#WOULD_BLOCK}.
     */
    public SendStatus send(
            int streamId, int ppid, boolean unordered, boolean immediate, ByteBuffer data, PrPolicy policy, long now) {
        SendStatus s = queue.send(streamId, ppid, unordered, immediate, data, policy, now);
        if (s == SendStatus.WOULD_BLOCK && abandonment.makeRoom(data.remaining(), policy, now)) {
            s = queue.send(streamId, ppid, unordered, immediate, data, policy, now);
        }
        return s;
    }

    /** As {@link #sendOwned(int, int, boolean, boolean, byte[], int)} with a PR-SCTP policy (see {@link #send}). */
    public SendStatus sendOwned(
            int streamId,
            int ppid,
            boolean unordered,
            boolean immediate,
            byte[] array,
            int length,
            PrPolicy policy,
            long now) {
        SendStatus s = queue.sendOwned(streamId, ppid, unordered, immediate, array, length, policy, now);
        if (s == SendStatus.WOULD_BLOCK && abandonment.makeRoom(length, policy, now)) {
            s = queue.sendOwned(streamId, ppid, unordered, immediate, array, length, policy, now);
        }
        return s;
    }

    /**
     * Queues one message held in {@code array[0..length)} and keeps the array itself, without a
     * copy, if the message fits the free send buffer; the caller must not touch the array once
     * this returned {@link SendStatus#ACCEPTED}. For a caller that made the copy already (an API
     * handing messages over from another thread).
     *
     * @throws IllegalArgumentException as {@link #send}, or if {@code length} exceeds the array
     */
    public SendStatus sendOwned(
            int streamId, int ppid, boolean unordered, boolean immediate, byte[] array, int length) {
        return queue.sendOwned(streamId, ppid, unordered, immediate, array, length);
    }

    /** User bytes held: queued and not yet sent, plus sent and not cumulatively acknowledged. */
    public long bufferedBytes() {
        return queue.bufferedBytes();
    }

    /** Room left in the send buffer ({@link SctpOptions#sendBufferBytes()} minus buffered). */
    public long freeBytes() {
        return queue.freeBytes();
    }

    /**
     * Lets go of what the sender keeps for reuse when it is dry ({@link #isEmpty()}): the pooled
     * message arrays, messages and chunks, and the array of the outstanding-chunk ring. The
     * association calls it when it goes idle (see {@code DataTransfer.trimIfIdle}); the next burst
     * allocates again. Does nothing while anything is queued or outstanding.
     *
     * @return whether it trimmed
     */
    public boolean trimIdle() {
        if (!isEmpty()) {
            return false;
        }
        pool.trim();
        outstanding.trimRing();
        return true;
    }

    /**
     * Bytes the sender keeps for reuse while dry: pooled arrays, about 64 bytes per pooled message
     * or chunk, and 4 per slot of the outstanding-chunk ring (an estimate, for tests and stats).
     */
    public long retainedBytes() {
        return pool.pooledBytes() + 64L * pool.pooledObjects() + 4L * outstanding.ringCapacity();
    }

    /** Nothing queued, held or outstanding: the sender is dry. */
    public boolean isEmpty() {
        return queue.queuedMessages() == 0 && queue.heldMessages() == 0 && outstanding.size() == 0;
    }

    /**
     * User bytes acknowledged as non-renegable by an NR-SACK and not yet cumulatively: out of the
     * send buffer, in memory until the cumulative ack passes them.
     */
    public long nrAckedBytes() {
        return outstanding.nrAckedBytes();
    }

    /** The NR-acknowledged bytes whose messages still hold their data (not wholly NR-acknowledged yet). */
    long nrPinnedBytes() {
        return outstanding.nrPinnedBytes();
    }

    /** How often the peer left out of a SACK a chunk it had acknowledged as non-renegable (ignored). */
    public int nrReneged() {
        return outstanding.nrReneged();
    }

    /** DATA chunks sent and not covered by the cumulative ack. */
    public int outstandingCount() {
        return outstanding.size();
    }

    /** User bytes of the chunks of {@link #outstandingCount()}, less those NR-acknowledged ({@link #nrAckedBytes()}). */
    public long outstandingBytes() {
        return outstanding.outstandingBytes();
    }

    /** Messages in the send buffer not yet fully sent (those held for a stream reset included). */
    public int queuedMessages() {
        return queue.queuedMessages() + queue.heldMessages();
    }

    /** Unsent bytes of {@link #queuedMessages()}. */
    public long queuedBytes() {
        return queue.queuedBytes() + queue.heldBytes();
    }

    /** The peer's receiver window as this sender estimates it (RFC 9260 section 6.2.1). */
    public long peerRwnd() {
        return outstanding.peerRwnd();
    }

    /** The TSN the next new DATA chunk will carry. */
    public int nextTsn() {
        return outstanding.nextTsn();
    }

    /** The Cumulative TSN Ack Point: the last TSN acknowledged cumulatively. */
    public int cumulativeAckTsn() {
        return outstanding.cumAck();
    }

    /**
     * Whether the sender is in Fast Recovery (RFC 9260 section 7.2.4); with CMT, whether any
     * destination is.
     */
    public boolean inFastRecovery() {
        return loss.inFastRecovery();
    }

    /** With CMT, whether destination {@code p} is in its own Fast Recovery (without, as {@link #inFastRecovery()}). */
    public boolean inFastRecovery(Path p) {
        return loss.inFastRecovery(p);
    }

    /** Chunks marked for retransmission and not yet resent. */
    public int markedForRetransmission() {
        return outstanding.markedCount();
    }

    /**
     * Whether anything waits to be sent: chunks marked for retransmission or queued messages. The
     * windows may still forbid sending now; {@link #fill} decides.
     */
    public boolean hasDataToSend(long now) {
        return outstanding.markedCount() > 0 || queue.queuedMessages() > 0;
    }

    /**
     * The path outstanding chunk {@code tsn} was last sent on, or null when it is not outstanding
     * (acknowledged cumulatively, or never sent). A walk over the outstanding chunks.
     */
    public Path pathOfTsn(int tsn) {
        RetransmissionQueue q = outstanding;
        for (int i = 0; i < q.size(); i++) {
            SentChunk c = q.get(i);
            if (c.tsn == tsn) {
                return c.path;
            }
        }
        return null;
    }

    /** Starts a new burst on {@code p}: up to Max.Burst packets may be filled (RFC 9260 section 6.1). */
    public void beginBurst(Path p) {
        filler.beginBurst(p);
    }

    /** How many more packets {@link #fill} will fill on {@code p} in the current burst. */
    public int packetsAllowed(Path p) {
        return filler.packetsAllowed(p);
    }

    /**
     * Adds DATA chunks for destination {@code p} to the packet ({@link PacketFiller}): first chunks
     * marked for fast retransmit (one packet's worth, regardless of cwnd), then other chunks marked
     * for retransmission, then new data, within p's cwnd (a packet may start while the flight size
     * is below cwnd), the peer's rwnd (with zero window probing), Nagle and the burst budget.
     * Starts T3-rtx on p when it adds DATA and the timer is not running. Adds nothing if nothing
     * may go.
     *
     * <p>With CMT, chunks marked for retransmission go only to the destination the {@link
     * SctpOptions#retransmissionPolicy()} picks, and with buffer splitting p's flight size must also
     * stay below its share of the peer's window.
     *
     * @param paths all paths of the association (for CMT's retransmission policy and buffer
     *     splitting)
     */
    public void fill(PacketBuilder pb, Path p, List<Path> paths, long now) {
        filler.fill(pb, p, paths, now);
    }

    /**
     * Processes a SACK (RFC 9260 sections 6.2.1, 6.3.2, 7.2): drops stale ones; frees cumulatively
     * acknowledged chunks; marks gap-acknowledged ones (reneging is honoured: a chunk no longer
     * covered is outstanding again and T3-rtx of its path is started); measures RTT (Karn's rule);
     * updates the peer's rwnd; lets the {@link LossDetector} count miss indications and mark
     * chunks for fast retransmit at the third, entering Fast Recovery; feeds the congestion
     * controller; stops or restarts T3-rtx per path (R2, R3).
     *
     * @param gapStarts start offsets of the gap blocks (relative to {@code cumTsnAck}), ascending
     * @param gapEnds end offsets, inclusive
     * @param gapCount gap blocks used from the arrays
     * @param dupCount duplicate TSNs reported (statistics only)
     * @param paths the association's paths, each with a distinct {@link Path#index()}
     * @return the result, reused by the next call
     */
    public AckResult onSack(
            int cumTsnAck,
            long aRwnd,
            int[] gapStarts,
            int[] gapEnds,
            int gapCount,
            int dupCount,
            List<Path> paths,
            long now) {
        return onSack(cumTsnAck, aRwnd, gapStarts, gapEnds, gapCount, gapStarts, gapEnds, 0, dupCount, paths, now);
    }

    /**
     * Processes an NR-SACK (draft-natarajan-tsvwg-sctp-nrsack-08 section 5) as {@link #onSack(int,
     * long, int[], int[], int, int, List, long)} processes a SACK, with its NR Gap Ack Blocks: a
     * chunk they cover is acknowledged as a gap block would, and is non-renegable besides: it
     * leaves the send buffer at once ({@link #freeBytes()} grows by its length) and is never
     * retransmitted, even if a later SACK leaves it out.
     *
     * @param nrStarts start offsets of the NR gap blocks (relative to {@code cumTsnAck}), ascending
     * @param nrEnds end offsets, inclusive
     * @param nrCount NR gap blocks used from the arrays
     */
    public AckResult onSack(
            int cumTsnAck,
            long aRwnd,
            int[] gapStarts,
            int[] gapEnds,
            int gapCount,
            int[] nrStarts,
            int[] nrEnds,
            int nrCount,
            int dupCount,
            List<Path> paths,
            long now) {
        AckResult r = result;
        r.clear();
        RetransmissionQueue q = outstanding;
        if (Serial.lt(cumTsnAck, q.cumAck())) {
            r.ignored = true;
            return r;
        }
        if (Serial.ge(cumTsnAck, q.nextTsn())) {
            r.ignored = true;
            r.protocolViolation = true;
            return r;
        }
        q.beginSack(paths);
        // Without gap blocks and without gap-acknowledged chunks outstanding, no chunk can be
        // covered, reneged or missed: the passes over the whole window below are skipped, which
        // keeps a plain cumulative SACK O(chunks acknowledged) instead of O(window).
        boolean plain = gapCount == 0 && nrCount == 0 && !q.hasGapAcked() && loss.skipsPlainSack();
        boolean cumAdvanced = Serial.gt(cumTsnAck, q.cumAck());
        q.ackCumulative(cumTsnAck, now);
        loss.onCumulativeAck(q.cumAck());
        if (!plain) {
            q.ackGaps(gapStarts, gapEnds, gapCount, nrStarts, nrEnds, nrCount, now);
        }
        // Congestion window growth comes before any fast retransmit reduction (7.2.4 note).
        for (int pi0 = 0; pi0 < paths.size(); pi0++) {
            Path p = paths.get(pi0);
            int i = p.index();
            long acked = q.newlyAckedBytes(i);
            if (acked > 0) {
                cc.onAck(p, acked, loss.ackAdvances(p, cumAdvanced), q.cwndFullyUsed(i), loss.inFastRecovery(p));
            }
        }
        if (plain) {
            q.countPendingByFlight(paths);
        } else {
            loss.detect(paths, r, cumAdvanced);
        }
        // RFC 3758 F5 and RFC 7496: after the marking (and its congestion reaction), before any
        // retransmission, the policies give up what they must.
        abandonment.afterMarking(now);
        q.updatePeerRwnd(aRwnd);
        t3.afterSack(paths, now);
        filler.beginBursts(paths);
        r.cumAckAdvanced = cumAdvanced;
        return r;
    }

    /**
     * Whether the T3-rtx expiry about to be handled times out a zero window probe that the peer
     * has been answering with SACKs since it was sent (or since the previous expiry). RFC 9260
     * section 6.1 rule A: such expiries should not count as errors of the destination or of the
     * association, since a receiver may keep its window closed for as long as its application
     * does not read; the probe is still retransmitted with the backed-off RTO. Call before
     * {@link #onT3Expired}, which starts a new answer period.
     */
    public boolean answeredProbeTimesOut() {
        return t3.answeredProbeTimesOut();
    }

    /**
     * T3-rtx of {@code p} expired (RFC 9260 section 6.3.3, {@link T3Rtx}): the controller reduces
     * cwnd (E1), the RTO backs off (E2), and every chunk outstanding on p is marked for
     * retransmission (E3), to go wherever the association sends next; the timer is stopped and
     * restarts when data is sent, and a new burst starts on every path. Counting the error is the
     * association's job. Without CMT the expiry also ends Fast Recovery ({@link
     * Rfc9260LossDetector}); CMT's per-destination Fast Recovery is left as it was ({@link
     * CmtLossDetector}).
     *
     * @param paths the association's paths
     */
    public void onT3Expired(Path p, List<Path> paths, long now) {
        t3.onExpired(p, now);
        abandonment.afterMarking(now);
        filler.beginBursts(paths);
    }

    /**
     * The peer deleted the address of {@code p} (RFC 5061 section 5.2): its T3-rtx stops and every
     * chunk outstanding on it is marked for retransmission, to go to another path; unlike a T3-rtx
     * expiry this is no sign of congestion, so no window or RTO changes.
     */
    public void pathRemoved(Path p, List<Path> paths) {
        t3.moveOutstanding(p);
        filler.beginBursts(paths);
    }

    // ------------------------------------------------------------------ stream reconfiguration

    /**
     * Holds the outbound streams {@code ids} for an SSN reset (RFC 6525 section 5.1.2): messages
     * accepted from now on wait until {@link #releaseStreams}; those accepted before are sent
     * first, under the old numbering.
     */
    public void holdStreams(int[] ids) {
        for (int id : ids) {
            queue.hold(id);
        }
    }

    /** {@link #holdStreams} for every stream (a reset of all streams, an SSN/TSN reset). */
    public void holdAllStreams() {
        queue.holdAll();
    }

    /**
     * Whether messages accepted before {@link #holdStreams} still wait to be sent on one of {@code
     * ids} (every stream when {@code ids} is empty): the Sender's Last Assigned TSN of the reset
     * request (RFC 6525 section 4.1) must come after all their fragments.
     */
    public boolean unsentBeforeHold(int[] ids) {
        if (ids.length == 0) {
            return queue.anyUnsentBeforeHold();
        }
        for (int id : ids) {
            if (queue.unsentBeforeHold(id)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Ends the hold of {@code ids} (every stream when empty); with {@code resetSsn} their next SSN
     * is 0 (RFC 6525 section 5.1.2: the peer performed the reset), else the numbering goes on.
     */
    public void releaseStreams(int[] ids, boolean resetSsn) {
        if (ids.length == 0) {
            queue.releaseAll(resetSsn);
            return;
        }
        for (int id : ids) {
            queue.release(id, resetSsn);
        }
    }

    /** The Sender's Last Assigned TSN (RFC 6525 section 4.1): the TSN before {@link #nextTsn()}. */
    public int lastAssignedTsn() {
        return outstanding.nextTsn() - 1;
    }

    /**
     * SSN/TSN reset (RFC 6525 sections 5.1.4 and 5.2.4): with nothing outstanding, the next DATA
     * carries {@code nextTsn}; every stream's next SSN is 0 and the held streams are released.
     *
     * @throws IllegalStateException when chunks are still outstanding
     */
    public void resetTsn(int nextTsn) {
        outstanding.restartTsn(nextTsn);
        loss.reset();
        queue.releaseAll(true);
    }

    /**
     * Empties the sender for abort or failure: every message not fully acknowledged, in sending
     * order (outstanding first, then queued per stream).
     */
    public List<UnsentMessage> drainUnsent() {
        List<UnsentMessage> out = new ArrayList<>();
        queue.drainInto(out, outstanding.drainInto(out));
        loss.reset();
        return out;
    }

    @Override
    public String toString() {
        return "DataSender[next=" + Integer.toUnsignedString(nextTsn()) + " cum="
                + Integer.toUnsignedString(cumulativeAckTsn()) + " queued=" + queuedMessages() + "/" + queuedBytes()
                + " outstanding=" + outstandingCount() + "/" + outstandingBytes() + " rwnd=" + peerRwnd() + " fr="
                + inFastRecovery() + "]";
    }
}
