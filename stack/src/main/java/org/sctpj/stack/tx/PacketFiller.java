package org.sctpj.stack.tx;

import java.util.Arrays;
import java.util.List;
import org.sctpj.stack.IDataFragmentNumbering;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.wire.chunk.DataChunk;
import org.sctpj.stack.wire.chunk.IDataChunk;

/**
 * Fills a packet with DATA for one destination (RFC 9260 section 6.1): first chunks marked for
 * fast retransmit (one packet's worth regardless of cwnd, section 7.2.4 step 3), then other chunks
 * marked for retransmission, then new data fragmented from the {@link SendQueue} (section 6.9,
 * TSN and SSN assignment), within the path's MTU (the packet's room), its cwnd (rule B: a packet
 * may start while the flight size is below cwnd), the peer's rwnd (rule A, with the zero window
 * probe), Max.Burst packets per burst (section 6.1, per path) and Nagle (section 6.1 rule C, off
 * with {@link SctpOptions#noDelay()} or the I bit).
 *
 * <p>With I-DATA ({@link #useIData()}, RFC 8260 section 2.1) the same chunks go out as I-DATA: a
 * message takes its Message Identifier from its stream's ordered or unordered counter when its
 * first fragment is sent; the first fragment carries the PPID (FSN 0), the following ones FSN 1,
 * 2, ... (or 0, 1, ... for a Linux 6.1 peer, see {@link IDataFragmentNumbering}; a retransmission
 * repeats them). Room is reckoned with the 20-byte I-DATA header.
 */
final class PacketFiller {

    private final SctpOptions options;
    private final SendQueue queue;
    private final RetransmissionQueue outstanding;
    private final PathScheduling scheduling;
    private final T3Rtx t3;
    private final SendPool pool;
    /** Partial reliability: a message past its lifetime gets no (further) TSN. */
    private Abandonment abandonment;

    /**
     * Packets filled per path index in the current burst; grown on demand to the highest path
     * index seen (a missing entry is a burst not begun: 0 used).
     */
    private int[] burstUsed = new int[1];
    /** I-DATA instead of DATA (RFC 8260). */
    private boolean iData;
    /** New I-DATA messages number their fragments after the first from 0 (Linux 6.1), not 1. */
    private boolean linuxFsn;

    PacketFiller(
            SctpOptions options,
            SendQueue queue,
            RetransmissionQueue outstanding,
            PathScheduling scheduling,
            T3Rtx t3,
            SendPool pool) {
        this.options = options;
        this.queue = queue;
        this.outstanding = outstanding;
        this.scheduling = scheduling;
        this.t3 = t3;
        this.pool = pool;
    }

    /** From now on, user data goes out as I-DATA chunks (RFC 8260 section 2.1). */
    void useIData() {
        iData = true;
    }

    /**
     * Messages begun from now on number their fragments after the first 0, 1, 2, ... as Linux 6.1
     * does ({@code true}) or 1, 2, 3, ... as RFC 8260 section 2.1 says.
     */
    void linuxFragmentNumbering(boolean on) {
        linuxFsn = on;
    }

    /** Sets the partial reliability checks made before a TSN is given (RFC 3758 section 4.1 TR3, TR4). */
    void abandonment(Abandonment a) {
        abandonment = a;
    }

    /** Starts a new burst on {@code p}: up to Max.Burst packets may be filled. */
    void beginBurst(Path p) {
        if (p.index() < burstUsed.length) {
            burstUsed[p.index()] = 0;
        }
    }

    /** Starts a new burst on every path (after a SACK or a T3-rtx expiry). */
    void beginBursts(List<Path> paths) {
        for (int qi = 0; qi < paths.size(); qi++) {
            beginBurst(paths.get(qi));
        }
    }

    /** How many more packets {@link #fill} will fill on {@code p} in the current burst. */
    int packetsAllowed(Path p) {
        return options.maxBurst() - (p.index() < burstUsed.length ? burstUsed[p.index()] : 0);
    }

    /** See {@link DataSender#fill}. */
    void fill(PacketBuilder pb, Path p, List<Path> paths, long now) {
        int idx = p.index();
        if (packetsAllowed(p) <= 0) {
            return;
        }
        RetransmissionQueue q = outstanding;
        int before = pb.dataChunkCount();
        int beforeBytes = pb.dataBytes();
        boolean cwndOpen =
                p.flightSize() < p.cwnd() && scheduling.withinShare(p, paths, q.peerRwnd() + q.unackedBytes());
        int rtxChunks = 0;
        long rtxBytes = 0;
        scheduling.beginFill(paths);

        if (q.fastPending() > 0) {
            int sent = 0;
            for (int i = 0; i < q.size(); i++) {
                SentChunk c = q.get(i);
                if (!c.fast || !scheduling.retransmitsTo(c.path, p)) {
                    continue;
                }
                if (!addChunk(pb, c) && !addOversize(pb, c)) {
                    break;
                }
                q.resent(c, p, now);
                sent++;
                rtxChunks++;
                rtxBytes += c.length;
            }
            if (sent > 0 && q.fastPending() > 0) {
                q.endFastRetransmit(); // one packet's worth ignores cwnd; the rest wait for the window
            }
        }
        if (q.markedCount() > 0 && cwndOpen) {
            for (int i = 0; i < q.size() && q.markedCount() > 0; i++) {
                SentChunk c = q.get(i);
                if (!c.marked || c.fast || !scheduling.retransmitsTo(c.path, p)) {
                    continue;
                }
                if (!addChunk(pb, c) && !addOversize(pb, c)) {
                    break;
                }
                q.resent(c, p, now);
                rtxChunks++;
                rtxBytes += c.length;
            }
        }
        if (queue.queuedMessages() > 0 && cwndOpen && !nagleHolds(pb)) {
            fillNew(pb, p, before, now);
        }
        int added = pb.dataChunkCount() - before;
        if (rtxChunks > 0) {
            pb.markRetransmission(); // RFC 3168 section 6.1.5: retransmissions go Not-ECT
        }
        if (added > 0) {
            if (idx >= burstUsed.length) {
                burstUsed = Arrays.copyOf(burstUsed, Math.max(idx + 1, burstUsed.length * 2));
            }
            burstUsed[idx]++;
            t3.onDataSent(p, now);
            p.recordSent(now, pb.dataBytes() - beforeBytes, rtxChunks, rtxBytes);
        }
    }

    /**
     * Nagle (RFC 9260 section 6.1 rule C): with data outstanding, an empty packet waits while what
     * is queued would not fill it, unless {@link SctpOptions#noDelay()} or a message has the I bit.
     */
    private boolean nagleHolds(PacketBuilder pb) {
        if (options.noDelay() || outstanding.unackedBytes() == 0 || queue.hasImmediate() || !pb.isEmpty()) {
            return false;
        }
        return queue.chunkBytesEstimate() < pb.remaining();
    }

    private void fillNew(PacketBuilder pb, Path p, int before, long now) {
        RetransmissionQueue q = outstanding;
        int emptyRoom = iData ? pb.maxIDataPayloadEmpty() : pb.maxDataPayloadEmpty();
        queue.packetStarted();
        while (queue.queuedMessages() > 0) {
            OutboundStream s = queue.next();
            OutboundMessage m = s.queue.peekFirst();
            if (m.prKind == Abandonment.TTL && abandonment.expiredAtHead(m, now)) {
                continue; // its lifetime is over: it leaves the queue without a TSN (more of it)
            }
            int rest = m.unsentBytes();
            int room = iData ? pb.maxIDataPayload() : pb.maxDataPayload();
            if (room < 1) {
                return;
            }
            if (m.sentOffset == 0 && rest > room && rest <= emptyRoom && pb.dataChunkCount() > 0) {
                return; // fits whole in the next packet: do not split it
            }
            int len = Math.min(rest, room);
            boolean probe = false;
            if (len > q.peerRwnd()) {
                // RFC 9260 6.1 A: with nothing outstanding, one chunk probes the window.
                if (q.unackedBytes() == 0 && pb.dataChunkCount() == before) {
                    probe = true;
                } else {
                    return;
                }
            }
            boolean first = m.sentOffset == 0;
            if (iData) {
                if (first) {
                    // RFC 8260 section 2.1: one MID counter per stream for ordered messages, one for
                    // unordered ones.
                    m.mid = m.unordered ? s.nextUnorderedMid++ : s.nextMid++;
                    m.linuxFsn = linuxFsn;
                }
            } else if (first && !m.unordered) {
                m.ssn = s.nextSsn;
                s.nextSsn = (s.nextSsn + 1) & 0xffff;
            }
            boolean last = len == rest;
            int flags = (first ? DataChunk.FLAG_B : 0)
                    | (last ? DataChunk.FLAG_E : 0)
                    | (m.unordered ? DataChunk.FLAG_U : 0)
                    | (last && m.immediate ? DataChunk.FLAG_I : 0);
            SentChunk c = pool.chunk().init(q.nextTsn(), m, m.sentOffset, len, flags);
            if (iData) {
                int f = m.nextFsn++;
                c.fsn = m.linuxFsn && f > 0 ? f - 1 : f;
            }
            if (!addChunk(pb, c)) {
                return; // cannot happen: room was computed from the packet
            }
            m.sentOffset += len;
            queue.sent(s, len, last);
            q.sentNew(c, p, now, probe);
            if (!last) {
                return; // the packet is full
            }
            if (probe) {
                return;
            }
        }
    }

    /**
     * A retransmission that fits no packet of the path any more (it was cut for a larger MTU, which
     * fell since) goes alone as DATA in a packet the lower layer may fragment ({@link
     * PacketBuilder#allowOversize}), rather than never.
     */
    private boolean addOversize(PacketBuilder pb, SentChunk c) {
        int bytes = (iData ? IDataChunk.FIXED_LENGTH : DataChunk.FIXED_LENGTH) + c.length;
        return pb.dataChunkCount() == 0 && pb.allowOversize(bytes) && addChunk(pb, c);
    }

    private boolean addChunk(PacketBuilder pb, SentChunk c) {
        OutboundMessage m = c.msg;
        if (iData) {
            int ppidOrFsn = (c.flags & DataChunk.FLAG_B) != 0 ? m.ppid : c.fsn;
            return pb.tryAddIData(c.flags, c.tsn, m.streamId, m.mid, ppidOrFsn, m.data, c.offset, c.length);
        }
        return pb.tryAddData(c.flags, c.tsn, m.streamId, m.ssn, m.ppid, m.data, c.offset, c.length);
    }
}
