package org.sctpj.stack.forwardtsn;

import java.net.Inet6Address;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.sctpj.stack.Extension;
import org.sctpj.stack.PrPolicy;
import org.sctpj.stack.PrStatus;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.assoc.InboundPacket;
import org.sctpj.stack.assoc.Tcb;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.path.PathStatus;
import org.sctpj.stack.rx.DataReceiver;
import org.sctpj.stack.tx.AckResult;
import org.sctpj.stack.tx.DataSender;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.Serial;
import org.sctpj.stack.wire.chunk.ForwardTsnChunk;
import org.sctpj.stack.wire.chunk.IForwardTsnChunk;

/**
 * Partial reliability of one association (PR-SCTP, RFC 3758 section 3, with the policies of RFC
 * 7496): the policy of each message (its own or the association's default, RFC 7496 section 4.4
 * {@code SCTP_DEFAULT_PRINFO}), the abandoned messages handed back as {@link
 * SctpEvent.SendFailed}, the FORWARD TSN sent (section 3.5) and received (section 3.6).
 *
 * <p>Sender (section 3.5): the {@link DataSender} abandons messages by their policy and keeps the
 * Advanced.Peer.Ack.Point (A1, A2, A3, C1, C2); here, after each acknowledgement (a SACK, or the
 * Cumulative TSN Ack of a SHUTDOWN), when the point is ahead of the peer's cumulative ack, a
 * FORWARD TSN is queued (C3) with the stream list (C4) to a confirmed destination, ahead of any
 * DATA of its packet (RFC 9260 section 6.10), and a T3-rtx timer is made sure to run (C5). When a
 * T3-rtx timer expires the same is done (A5): that is how a lost FORWARD TSN is sent again, as is
 * the next SACK that still lags behind. A FORWARD TSN that repeats the last one is not sent again
 * within a round trip of it (F2's implementation note), so that the SACKs already on their way
 * do not each draw a copy.
 *
 * <p>Receiver (section 3.6): a FORWARD TSN goes to {@link DataReceiver#forwardTsn}, which moves
 * the cumulative TSN and the listed streams; a message being delivered in parts that was skipped
 * gets its {@link SctpEvent.PartialDeliveryAborted}, after the parts already delivered.
 *
 * <p>Everything on the association's thread; events go out when the endpoint call returns.
 */
public final class ForwardTsn {

    private final Tcb t;
    private PrPolicy defaultPolicy = PrPolicy.RELIABLE;
    /** The New Cumulative TSN of the last FORWARD TSN queued, and when. */
    private int lastNewCum;

    private long lastSentAt = Long.MIN_VALUE;
    private long sent;
    private long received;
    /** A message of which something was sent was abandoned since the last FORWARD TSN check. */
    private boolean abandonedUnchecked;
    /** Something was abandoned (send-buffer room freed) since the send events were last given. */
    private boolean spaceFreed;

    /** The procedure of the association whose state is {@code t}. */
    public ForwardTsn(Tcb t) {
        this.t = t;
    }

    // ------------------------------------------------------------------ sender

    /**
     * The data path was built (or rebuilt by a restart): the sender may abandon sent data only if
     * PR-SCTP was negotiated, and hands abandoned messages to the user through this procedure.
     */
    public void onDataPathStarted() {
        t.tx.setPartialReliability(t.has(Extension.PR_SCTP));
        t.tx.setAbandonListener((streamId, ppid, unordered, data, wasSent, reason) -> {
            abandonedUnchecked |= wasSent;
            spaceFreed = true;
            t.host.emit(new SctpEvent.SendFailed(t.id, streamId, ppid, unordered, data, wasSent, reason));
        });
        lastSentAt = Long.MIN_VALUE;
    }

    /** The policy a message sent with {@code info} gets: its own, else the association's default. */
    public PrPolicy policyFor(SendInfo info) {
        return info.prPolicy().orElse(defaultPolicy);
    }

    /** Sets the policy of messages sent without one (RFC 7496 section 4.4, SCTP_DEFAULT_PRINFO). */
    public void setDefaultPolicy(PrPolicy p) {
        defaultPolicy = Objects.requireNonNull(p, "policy: use PrPolicy.RELIABLE for reliable delivery");
    }

    /** The policy of messages sent without one. */
    public PrPolicy defaultPolicy() {
        return defaultPolicy;
    }

    /** Abandoned messages of the association (RFC 7496 section 4.5); none before establishment. */
    public PrStatus status() {
        return t.tx == null ? PrStatus.NONE : t.tx.prStatus();
    }

    /** Abandoned messages of outbound stream {@code streamId}. */
    public PrStatus status(int streamId) {
        return t.tx == null ? PrStatus.NONE : t.tx.prStatus(streamId);
    }

    /** FORWARD TSN chunks queued so far. */
    public long forwardTsnsSent() {
        return sent;
    }

    /** FORWARD TSN chunks taken so far. */
    public long forwardTsnsReceived() {
        return received;
    }

    /**
     * After an acknowledgement was processed (RFC 3758 section 3.5 A4, then C1 to C5): a FORWARD
     * TSN when the Advanced.Peer.Ack.Point is ahead of the peer's cumulative ack.
     */
    public void afterAck(AckResult r, long now) {
        spaceFreed = false; // the acknowledgement's own send events cover what it freed
        if (t.tx == null || r.ignored() || !t.tx.partialReliability()) {
            return;
        }
        maybeSend(false, now);
    }

    /** A T3-rtx timer expired (RFC 3758 section 3.5 A5): the FORWARD TSN goes (again) if due. */
    public void onT3(long now) {
        if (t.tx != null && t.tx.partialReliability()) {
            maybeSend(true, now);
        }
    }

    /**
     * Something was abandoned outside an acknowledgement (a full send buffer made room): the
     * peer hears of it at once if the point moved past its cumulative ack (C3 allows delaying
     * it, F3 not by more than 500 ms; no delay is simplest).
     */
    public void afterAbandon(long now) {
        if (t.tx != null && t.tx.partialReliability() && t.canBundleData()) {
            maybeSend(false, now);
        }
    }

    /**
     * After a packet was filled or a T3-rtx expiry: if something was abandoned, the send events
     * say the room it freed (as after a SACK), and if a message of which something was sent was
     * abandoned (its lifetime ended before the rest got TSNs) the FORWARD TSN goes now, since no
     * SACK or timer may be coming (its sent fragments can all be acknowledged already). Returns
     * whether a control chunk waits to be sent.
     */
    public boolean flushAbandoned(long now) {
        if (spaceFreed && t.tx != null) {
            // Abandoning freed send-buffer room outside an acknowledgement (a lifetime that ended
            // in the queue, a T3-rtx expiry): a sender waiting for room hears of it as after a SACK.
            spaceFreed = false;
            long free = t.tx.freeBytes();
            t.host.sendSpaceFreed(t.id);
            if (free >= t.sendThreshold) {
                t.host.emit(new SctpEvent.SendSpaceAvailable(t.id, free));
            }
        }
        if (!abandonedUnchecked) {
            return false;
        }
        abandonedUnchecked = false;
        afterAbandon(now);
        return !t.controls.isEmpty();
    }

    private void maybeSend(boolean timeout, long now) {
        abandonedUnchecked = false;
        int cum = t.tx.cumulativeAckTsn();
        int adv = t.tx.advancedPeerAckPoint();
        if (!Serial.gt(adv, cum) || !t.canBundleData()) {
            return;
        }
        Path p = destination();
        if (p == null) {
            return;
        }
        boolean iData = t.has(Extension.I_DATA);
        int ip = p.address() instanceof Inet6Address ? 40 : 20;
        int room = p.mtu() - ip - t.o.encapsulationOverhead() - SctpPacket.HEADER_LENGTH;
        int entry = iData ? IForwardTsnChunk.ENTRY_LENGTH : ForwardTsnChunk.ENTRY_LENGTH;
        int maxEntries = Math.max(1, (room - ForwardTsnChunk.FIXED_LENGTH) / entry);
        DataSender.ForwardTsnPlan plan = t.tx.forwardTsnPlan(maxEntries, iData);
        // C5: at least one T3-rtx timer runs while a FORWARD TSN is unanswered, sent now or before
        // (a SACK that acknowledged everything else has just stopped them all, R2).
        boolean running = false;
        for (Path q : t.paths) {
            running |= q.t3Running();
        }
        if (!running) {
            p.startT3(now);
        }
        if (!timeout
                && plan.newCumulativeTsn() == lastNewCum
                && lastSentAt != Long.MIN_VALUE
                && now - lastSentAt < Math.max(p.srttNanos(), 1)) {
            return; // the same one went less than a round trip ago: its SACK is still to come
        }
        // One FORWARD TSN says all there is to say: a newer one replaces one still queued.
        t.controls.removeIf(c -> c.chunk().type() == org.sctpj.stack.wire.chunk.ChunkType.FORWARD_TSN
                || c.chunk().type() == org.sctpj.stack.wire.chunk.ChunkType.I_FORWARD_TSN);
        t.queue(chunk(plan, iData), p.address(), t.peerTag);
        t.tx.forwardTsnSent(plan.newCumulativeTsn());
        lastNewCum = plan.newCumulativeTsn();
        lastSentAt = now;
        sent++;
    }

    /** The FORWARD TSN of {@code plan}, or the I-FORWARD-TSN when I-DATA is in use (RFC 8260 section 2.3). */
    private static org.sctpj.stack.wire.chunk.Chunk chunk(DataSender.ForwardTsnPlan plan, boolean iData) {
        if (iData) {
            List<IForwardTsnChunk.Entry> e = new ArrayList<>(plan.skips().size());
            for (DataReceiver.Skip s : plan.skips()) {
                e.add(new IForwardTsnChunk.Entry(s.streamId(), s.unordered(), (int) s.sequence()));
            }
            return new IForwardTsnChunk(plan.newCumulativeTsn(), e);
        }
        List<ForwardTsnChunk.Entry> e = new ArrayList<>(plan.skips().size());
        for (DataReceiver.Skip s : plan.skips()) {
            e.add(new ForwardTsnChunk.Entry(s.streamId(), (int) s.sequence() & 0xffff));
        }
        return new ForwardTsnChunk(plan.newCumulativeTsn(), e);
    }

    /** Where a FORWARD TSN goes: the path new data takes, if confirmed, else any confirmed one (C3). */
    private Path destination() {
        Path p = t.failover.dataPath();
        if (p.status() != PathStatus.UNCONFIRMED) {
            return p;
        }
        for (Path q : t.paths) {
            if (q.status() != PathStatus.UNCONFIRMED) {
                return q;
            }
        }
        return null;
    }

    // ------------------------------------------------------------------ receiver

    /** A FORWARD TSN chunk (RFC 3758 section 3.6); PR-SCTP was negotiated (the dispatcher checked). */
    public void onForwardTsn(InboundPacket pkt, int i, long now) {
        if (t.rx == null || !t.canBundleData()) {
            return;
        }
        Parsed<ForwardTsnChunk> p = ForwardTsnChunk.decode(pkt.buffer(), pkt.offset(i), pkt.length(i));
        if (!p.isOk()) {
            return;
        }
        List<ForwardTsnChunk.Entry> in = p.value().entries();
        List<DataReceiver.Skip> skips = new ArrayList<>(in.size());
        for (ForwardTsnChunk.Entry e : in) {
            skips.add(new DataReceiver.Skip(e.streamId(), false, e.ssn()));
        }
        take(p.value().newCumulativeTsn(), skips, false, now);
    }

    /**
     * An I-FORWARD-TSN chunk (RFC 8260 section 2.3.1), for an association using I-DATA with
     * PR-SCTP.
     */
    public void onIForwardTsn(InboundPacket pkt, int i, long now) {
        if (t.rx == null || !t.canBundleData()) {
            return;
        }
        Parsed<IForwardTsnChunk> p = IForwardTsnChunk.decode(pkt.buffer(), pkt.offset(i), pkt.length(i));
        if (!p.isOk()) {
            return;
        }
        List<DataReceiver.Skip> skips = new ArrayList<>(p.value().entries().size());
        for (IForwardTsnChunk.Entry e : p.value().entries()) {
            skips.add(new DataReceiver.Skip(e.streamId(), e.unordered(), Integer.toUnsignedLong(e.mid())));
        }
        take(p.value().newCumulativeTsn(), skips, true, now);
    }

    private void take(int newCum, List<DataReceiver.Skip> skips, boolean iData, long now) {
        received++;
        List<DataReceiver.PartialDelivery> aborted = t.rx.forwardTsn(newCum, skips, iData, now);
        if (!aborted.isEmpty()) {
            t.data.deliverMessages(); // the parts already queued go before the end is announced
            for (DataReceiver.PartialDelivery d : aborted) {
                t.host.emit(new SctpEvent.PartialDeliveryAborted(
                        t.id, d.streamId(), d.ssn(), d.unordered(), d.deliveredBytes()));
            }
        }
    }
}
