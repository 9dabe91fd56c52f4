package org.sctpj.stack.tx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.sctpj.stack.PrPolicy;
import org.sctpj.stack.PrStatus;
import org.sctpj.stack.SctpEvent.SendFailedReason;
import org.sctpj.stack.rx.DataReceiver;
import org.sctpj.stack.wire.Serial;
import org.sctpj.stack.wire.chunk.DataChunk;

/**
 * Partial reliability on the sending side (PR-SCTP, RFC 3758 sections 3.4 and 3.5, with the
 * policies of RFC 7496 section 3): when a message is given up ("abandoned"), how all its fragments
 * go together (A3), where its chunks stop counting (A2, in {@link RetransmissionQueue#abandon}),
 * the Advanced.Peer.Ack.Point (A1, C1, C2) and the FORWARD TSN's stream list (C4); the counters
 * of RFC 7496 section 4.5; the user hears of each abandoned message through the {@link
 * DataSender.AbandonListener}.
 *
 * <p>The policies are evaluated where the sender acts anyway (RFC 3758 section 4.1 rule TR5):
 *
 * <ul>
 *   <li>before a TSN is given to a queued message, and before more of a partly sent one is sent:
 *       an expired lifetime abandons it ({@link #expiredAtHead}, rules TR3 and TR4);
 *   <li>after a SACK and after a T3-rtx expiry, once chunks were marked for retransmission (so
 *       that the congestion control reacted as RFC 3758's rule F5 asks): a chunk marked beyond its
 *       message's retransmission limit, and any outstanding chunk past its message's lifetime,
 *       abandon their message ({@link #afterMarking});
 *   <li>when a new message does not fit the send buffer: expired lifetimes first, then the
 *       priority policy ({@link #makeRoom}).
 * </ul>
 *
 * <p>Messages of which something was sent are only abandoned when PR-SCTP was negotiated ({@link
 * #enabled}); unsent ones always may be (no TSN was given, nothing to tell the peer).
 */
final class Abandonment {

    static final byte NONE = 0;
    static final byte TTL = 1;
    static final byte RTX = 2;
    static final byte PRIO = 3;

    private final SendQueue queue;
    private final RetransmissionQueue outstanding;
    private final SendPool pool;
    /** PR-SCTP negotiated: sent messages may be abandoned (a FORWARD TSN tells the peer). */
    boolean enabled;

    DataSender.AbandonListener listener = (streamId, ppid, unordered, data, sent, reason) -> {};

    /** Abandoned messages per [policy kind * 2 + sent], kind 1..3. */
    private final long[] counts = new long[8];
    /** The same per outbound stream, created on first use. */
    private long[][] streamCounts = new long[0][];

    Abandonment(SendQueue queue, RetransmissionQueue outstanding, SendPool pool) {
        this.queue = queue;
        this.outstanding = outstanding;
        this.pool = pool;
    }

    static byte kind(PrPolicy p) {
        return switch (p.kind()) {
            case NONE -> NONE;
            case TIME_TO_LIVE -> TTL;
            case LIMITED_RETRANSMISSIONS -> RTX;
            case PRIORITY -> PRIO;
        };
    }

    /** Gives a queued message its policy; {@code now} starts its lifetime. */
    static void apply(OutboundMessage m, PrPolicy p, long now) {
        m.prKind = kind(p);
        m.prValue = p.value();
        if (m.prKind == TTL) {
            m.expiresAt = now + p.value() * 1_000_000L;
        }
    }

    private static boolean expired(OutboundMessage m, long now) {
        return m.prKind == TTL && now - m.expiresAt > 0;
    }

    /** Whether {@code m} may be abandoned now: unsent, or PR-SCTP is on. */
    private boolean mayAbandon(OutboundMessage m) {
        return !m.abandoned && (m.sentOffset == 0 || enabled);
    }

    // ------------------------------------------------------------------ the checks

    /**
     * The head message of a stream is about to get (more) TSNs: abandons it if its lifetime
     * expired (RFC 3758 section 4.1 TR3 and TR4); returns whether it did.
     */
    boolean expiredAtHead(OutboundMessage m, long now) {
        if (expired(m, now) && mayAbandon(m)) {
            abandon(m, SendFailedReason.LIFETIME_EXPIRED);
            return true;
        }
        return false;
    }

    /**
     * After chunks were marked for retransmission (a SACK, a T3-rtx expiry): abandons the message
     * of each chunk marked beyond its retransmission limit (RFC 7496 section 3.1) and of each
     * outstanding chunk not acknowledged past its lifetime (RFC 3758 section 4.1 TR4, TR5).
     */
    void afterMarking(long now) {
        if (!enabled || outstanding.prChunks() == 0) {
            return;
        }
        RetransmissionQueue q = outstanding;
        for (int i = 0; i < q.size(); i++) {
            SentChunk c = q.get(i);
            if (c.abandoned || c.acked) {
                continue;
            }
            OutboundMessage m = c.msg;
            if (m.prKind == RTX && c.marked && c.sendCount - 1 >= m.prValue) {
                abandon(m, SendFailedReason.RETRANSMISSIONS_EXHAUSTED);
            } else if (expired(m, now)) {
                abandon(m, SendFailedReason.LIFETIME_EXPIRED);
            }
        }
    }

    /**
     * A message of {@code need} bytes with policy {@code p} did not fit the send buffer: abandons
     * what may be abandoned to make room (RFC 3758 section 4.1 TR5: expired lifetimes; RFC 7496
     * section 3.2: less important messages when {@code p} is the priority policy). Abandons by
     * priority only if that makes enough room. Returns whether anything was abandoned.
     */
    boolean makeRoom(long need, PrPolicy p, long now) {
        boolean any = dropExpired(now);
        if (p.kind() != PrPolicy.Kind.PRIORITY || queue.freeBytes() >= need) {
            return any;
        }
        List<OutboundMessage> candidates = new ArrayList<>();
        long room = queue.freeBytes();
        for (int i = 0; i < outstanding.size(); i++) {
            SentChunk c = outstanding.get(i);
            OutboundMessage m = c.msg;
            // A chunk the peer reported (gap-acknowledged) is not a candidate: a message all of
            // whose chunks it holds was delivered or will be, and must not come back as failed.
            if (!c.abandoned && !c.acked && m.prKind == PRIO && m.prValue > p.value() && mayAbandon(m)) {
                room += c.length;
                if (candidates.isEmpty() || candidates.get(candidates.size() - 1) != m) {
                    candidates.add(m);
                }
            }
        }
        for (OutboundMessage m : queue.messages()) {
            if (m.prKind == PRIO && m.prValue > p.value() && mayAbandon(m)) {
                room += m.unsentBytes();
                if (!candidates.contains(m)) {
                    candidates.add(m);
                }
            }
        }
        if (room < need) {
            return any; // abandoning them all would not make room: keep them
        }
        // Least important first; among equals, the order above (outstanding, then queued: oldest first).
        List<OutboundMessage> order = new ArrayList<>(candidates);
        order.sort((a, b) -> Long.compare(b.prValue, a.prValue));
        for (OutboundMessage m : order) {
            if (queue.freeBytes() >= need) {
                break;
            }
            abandon(m, SendFailedReason.LOWER_PRIORITY);
            any = true;
        }
        return any;
    }

    /** Abandons every queued or outstanding message whose lifetime expired; returns whether any. */
    private boolean dropExpired(long now) {
        boolean any = false;
        for (int i = 0; i < outstanding.size(); i++) {
            SentChunk c = outstanding.get(i);
            if (!c.abandoned && !c.acked && expired(c.msg, now) && mayAbandon(c.msg)) {
                abandon(c.msg, SendFailedReason.LIFETIME_EXPIRED);
                any = true;
            }
        }
        for (OutboundMessage m : queue.messages()) {
            if (expired(m, now) && mayAbandon(m)) {
                abandon(m, SendFailedReason.LIFETIME_EXPIRED);
                any = true;
            }
        }
        return any;
    }

    // ------------------------------------------------------------------ abandoning

    /**
     * Abandons {@code m} as a whole (RFC 3758 section 3.5 A3): its outstanding chunks stop counting
     * ({@link RetransmissionQueue#abandon}), what was not sent leaves the queue and never gets a
     * TSN, the counters count it and the listener gets its data back.
     */
    void abandon(OutboundMessage m, SendFailedReason reason) {
        if (m.abandoned || (m.nrAckedBytes == m.length && m.data == null)) {
            return; // wholly NR-acknowledged (NR-SACK): delivered for good, nothing to give up
        }
        m.abandoned = true;
        boolean sent = m.sentOffset > 0;
        if (m.sentOffset < m.length) {
            queue.remove(m);
        }
        // A DATA message's fragments have consecutive TSNs; with I-DATA they interleave with
        // other messages' (RFC 8260 section 2.1), so every later chunk is looked at.
        boolean interleaved = queue.interleaving();
        int at = outstanding.indexOf(m, interleaved);
        boolean inQueue = at >= 0;
        for (int i = Math.max(at, 0); inQueue && i < outstanding.size(); i++) {
            SentChunk c = outstanding.get(i);
            if (c.msg != m) {
                if (interleaved) {
                    continue;
                }
                break;
            }
            outstanding.abandon(c);
        }
        if (sent && m.sentOffset < m.length) {
            // Partly sent: the peer may hold its first fragments, even acknowledged cumulatively,
            // and only a FORWARD TSN past the message's end frees them (and, when ordered, its
            // stream). The end that was never sent gets a TSN of its own, abandoned at once and
            // never put on the wire, which the FORWARD TSN covers (as usrsctp and dcSCTP do).
            int flags = DataChunk.FLAG_E | (m.unordered ? DataChunk.FLAG_U : 0);
            outstanding.addAbandonedEnd(pool.chunk().init(outstanding.nextTsn(), m, m.length, 0, flags));
            m.sentOffset = m.length;
            inQueue = true;
        }
        count(m.streamId, m.prKind, sent);
        byte[] data = m.exactData();
        if (data == m.data) {
            m.data = null; // the user gets the array: it must not go back to the pool
        }
        if (!inQueue) {
            pool.release(m); // no chunk refers to it any more
        }
        listener.abandoned(m.streamId, m.ppid, m.unordered, data, sent, reason);
    }

    private void count(int streamId, byte kind, boolean sent) {
        int k = kind * 2 + (sent ? 1 : 0);
        counts[k]++;
        if (streamId >= streamCounts.length) {
            streamCounts =
                    Arrays.copyOf(streamCounts, Math.max(streamId + 1, Math.min(streamCounts.length * 2, 65536)));
        }
        if (streamCounts[streamId] == null) {
            streamCounts[streamId] = new long[8];
        }
        streamCounts[streamId][k]++;
    }

    /** The association's abandoned messages (RFC 7496 section 4.5). */
    PrStatus status() {
        return status(counts);
    }

    /** The abandoned messages of stream {@code streamId}. */
    PrStatus status(int streamId) {
        return streamId < streamCounts.length && streamCounts[streamId] != null
                ? status(streamCounts[streamId])
                : PrStatus.NONE;
    }

    private static PrStatus status(long[] c) {
        return new PrStatus(
                new PrStatus.Counts(c[TTL * 2], c[TTL * 2 + 1]),
                new PrStatus.Counts(c[RTX * 2], c[RTX * 2 + 1]),
                new PrStatus.Counts(c[PRIO * 2], c[PRIO * 2 + 1]));
    }

    // ------------------------------------------------------------------ FORWARD TSN

    /**
     * The Advanced.Peer.Ack.Point (RFC 3758 section 3.5 A1, C1, C2): the Cumulative TSN Ack Point
     * moved up over the abandoned chunks that follow it.
     */
    int advancedPeerAckPoint() {
        int adv = outstanding.cumAck();
        for (int i = 0; i < outstanding.size() && outstanding.get(i).abandoned; i++) {
            adv = outstanding.get(i).tsn;
        }
        return adv;
    }

    /**
     * What a FORWARD TSN says now (RFC 3758 section 3.5 C4): the new cumulative TSN (the
     * Advanced.Peer.Ack.Point, lowered so that at most {@code maxEntries} streams are listed) and,
     * per stream with an abandoned ordered message up to it, the highest such SSN; with {@code
     * iData} (I-FORWARD-TSN, RFC 8260 section 2.3) unordered messages are listed too, by stream.
     */
    DataSender.ForwardTsnPlan plan(int maxEntries, boolean iData) {
        int adv = outstanding.cumAck();
        List<DataReceiver.Skip> skips = new ArrayList<>();
        for (int i = 0; i < outstanding.size(); i++) {
            SentChunk c = outstanding.get(i);
            if (!c.abandoned) {
                break;
            }
            OutboundMessage m = c.msg;
            if (!m.unordered || iData) {
                int found = -1;
                for (int k = 0; k < skips.size(); k++) {
                    DataReceiver.Skip s = skips.get(k);
                    if (s.streamId() == m.streamId && s.unordered() == m.unordered) {
                        found = k;
                        break;
                    }
                }
                long seq = sequenceOf(m, iData);
                if (found < 0) {
                    if (skips.size() == maxEntries) {
                        break; // C4: the chunk must fit one packet; the rest goes next time
                    }
                    skips.add(new DataReceiver.Skip(m.streamId, m.unordered, seq));
                } else if (later(seq, skips.get(found).sequence(), iData)) {
                    skips.set(found, new DataReceiver.Skip(m.streamId, m.unordered, seq));
                }
            }
            adv = c.tsn;
        }
        return new DataSender.ForwardTsnPlan(adv, skips);
    }

    /**
     * The stream sequence a skip names: the SSN for DATA; with I-DATA, the message's MID (32
     * bits, RFC 8260 section 2.3.1).
     */
    private static long sequenceOf(OutboundMessage m, boolean iData) {
        return iData ? Integer.toUnsignedLong(m.mid) : m.ssn & 0xffff;
    }

    private static boolean later(long a, long b, boolean iData) {
        return iData ? Serial.gt((int) a, (int) b) : Serial.lt16((int) b, (int) a);
    }
}
