package org.sctpj.stack.ecn;

import org.sctpj.stack.EcnStats;
import org.sctpj.stack.Extension;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.assoc.InboundPacket;
import org.sctpj.stack.assoc.Tcb;
import org.sctpj.stack.llp.Ecn;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.tx.PacketBuilder;
import org.sctpj.stack.wire.Serial;
import org.sctpj.stack.wire.chunk.ChunkType;
import org.sctpj.stack.wire.chunk.CwrChunk;
import org.sctpj.stack.wire.chunk.EcneChunk;

/**
 * Explicit congestion notification for one association (RFC 9260 appendix A, with the chunk
 * formats of RFC 9260's ECNE and CWR and the packet count of draft-stewart-tsvwg-sctpecn), once
 * both sides announced it ({@link Extension#ECN}, the ECN Capable parameter in INIT and INIT ACK):
 *
 * <ul>
 *   <li><b>Marking</b>: packets carrying new DATA go ECT(0); retransmissions and packets without
 *       DATA go Not-ECT (as RFC 3168 section 6.1.5 asks of TCP), so a mark never lands on a packet
 *       whose loss would not have been a congestion signal ({@link #codepointFor}).
 *   <li><b>Receiver</b>: a packet with DATA that arrived Congestion Experienced ({@link #onPacket})
 *       makes us put an ECNE in every packet we send to the peer ({@link #bundle}) until a CWR
 *       covers it. The ECNE carries the lowest TSN of the marked packet; while an echo is pending a
 *       later mark moves it forward, so the CWR that covers the latest covers all of them (what
 *       Linux and usrsctp do too). We send the 12-byte form with the number of marked packets,
 *       which usrsctp requires and Linux accepts (it checks a minimum length).
 *   <li><b>Sender</b>: an ECNE ({@link #onEcne}) reduces the congestion window of the path its TSN
 *       was sent on, through {@link org.sctpj.stack.cc.CongestionController#onEcnEcho}, once per
 *       window: only when its TSN lies beyond the highest TSN sent at that path's previous
 *       reduction. Every ECNE, reducing or not, is answered with a CWR carrying its TSN, so a lost
 *       CWR is made good by the next ECNE. Nothing is retransmitted: nothing was lost. Each
 *       reduction is reported ({@link SctpEvent.EcnCongestion}).
 * </ul>
 *
 * <p>Memory is fixed: a few fields and two arrays of {@link org.sctpj.stack.assoc.TimerTable#MAX_PATHS}.
 * A malformed ECNE or CWR (wrong length) or an ECNE for a TSN never sent is ignored.
 */
public final class EcnHandling {

    private final Tcb t;

    // Receiver side.
    private boolean echoing;
    private int echoTsn;
    private int echoPackets;

    // Sender side, per path index.
    private final boolean[] reduced = new boolean[org.sctpj.stack.assoc.TimerTable.MAX_PATHS];
    private final int[] windowEnd = new int[org.sctpj.stack.assoc.TimerTable.MAX_PATHS];

    private long ceMarked;
    private long ecneSent;
    private long ecneReceived;
    private long cwrSent;
    private long cwrReceived;
    private long reductions;

    /** The ECN procedure of the association {@code t} describes. */
    public EcnHandling(Tcb t) {
        this.t = t;
    }

    /** Forgets echoes and reductions (a new data path: the association started or restarted). */
    public void reset() {
        echoing = false;
        echoPackets = 0;
        java.util.Arrays.fill(reduced, false);
    }

    /**
     * The ECN codepoint of a packet just built in {@code pb}: ECT(0) when ECN was negotiated and
     * the packet carries DATA, none of it retransmitted; otherwise Not-ECT.
     */
    public int codepointFor(PacketBuilder pb) {
        if (pb.dataChunkCount() > 0 && !pb.hasRetransmission() && t.has(Extension.ECN)) {
            return Ecn.ECT_0;
        }
        return Ecn.NOT_ECT;
    }

    // ------------------------------------------------------------------ receiver

    /**
     * After the chunks of a received packet from {@code start} on were processed: if it arrived
     * Congestion Experienced and carried DATA or I-DATA, the lowest of its TSNs is to be echoed.
     */
    public void onPacket(InboundPacket pkt, int start) {
        if (pkt.ecn() != Ecn.CE || !t.has(Extension.ECN) || !t.canBundleData()) {
            return;
        }
        boolean any = false;
        int lowest = 0;
        for (int i = start; i < pkt.chunkCount(); i++) {
            int type = pkt.type(i);
            if ((type == ChunkType.DATA || type == ChunkType.I_DATA) && pkt.length(i) >= 8) {
                int tsn = pkt.buffer().getInt(pkt.offset(i) + 4);
                if (!any || Serial.lt(tsn, lowest)) {
                    lowest = tsn;
                }
                any = true;
            }
        }
        if (!any) {
            return;
        }
        ceMarked++;
        if (!echoing || Serial.gt(lowest, echoTsn)) {
            echoTsn = lowest;
        }
        echoing = true;
        echoPackets++;
    }

    /** Whether an ECNE goes in every packet now (a mark not yet covered by a CWR). */
    public boolean echoing() {
        return echoing;
    }

    /** The TSN the pending ECNE carries (meaningful while {@link #echoing()}). */
    public int echoTsn() {
        return echoTsn;
    }

    /**
     * Puts the pending ECNE, if any, into the packet being built for the peer (RFC 9260 appendix
     * A: in every packet until the CWR comes). Does nothing when it does not fit. Returns whether
     * it added one.
     */
    public boolean bundle(PacketBuilder pb) {
        if (echoing && pb.tryAdd(EcneChunk.withPacketCount(echoTsn, echoPackets))) {
            ecneSent++;
            return true;
        }
        return false;
    }

    /** A CWR chunk (chunk {@code i} of {@code pkt}): one that covers the pending echo ends it. */
    public void onCwr(InboundPacket pkt, int i) {
        if (pkt.length(i) != CwrChunk.LENGTH) {
            return;
        }
        cwrReceived++;
        int tsn = pkt.buffer().getInt(pkt.offset(i) + 4);
        if (echoing && Serial.ge(tsn, echoTsn)) {
            echoing = false;
            echoPackets = 0;
        }
    }

    // ------------------------------------------------------------------ sender

    /**
     * An ECNE chunk (chunk {@code i} of {@code pkt}): reduces the window of the path its TSN went
     * on, unless a reduction already covers that TSN, and queues the CWR answering it.
     */
    public void onEcne(InboundPacket pkt, int i) {
        int len = pkt.length(i);
        if ((len != EcneChunk.LENGTH && len != EcneChunk.LENGTH_WITH_PACKET_COUNT) || t.tx == null) {
            return;
        }
        int tsn = pkt.buffer().getInt(pkt.offset(i) + 4);
        int highest = t.tx.nextTsn() - 1;
        if (Serial.gt(tsn, highest)) {
            return; // a TSN we never sent: nothing of ours was marked
        }
        ecneReceived++;
        Path p = t.tx.pathOfTsn(tsn);
        if (p == null) {
            // Acknowledged already (the SACK in the same packet came first): the peer's packets
            // come from the address our data went to.
            p = t.pathOf(pkt.from());
        }
        if (p != null) {
            int k = p.index();
            if (!reduced[k] || Serial.gt(tsn, windowEnd[k])) {
                long before = p.cwnd();
                t.cc.onEcnEcho(p);
                t.host.emit(new SctpEvent.EcnCongestion(t.id, p.address(), before, p.cwnd()));
                reduced[k] = true;
                windowEnd[k] = highest;
                reductions++;
            }
        }
        queueCwr(tsn, pkt);
    }

    /** Queues CWR(tsn), replacing one still waiting (one answer says all: the higher TSN covers more). */
    private void queueCwr(int tsn, InboundPacket pkt) {
        for (var it = t.controls.iterator(); it.hasNext(); ) {
            Tcb.Control c = it.next();
            if (c.chunk() instanceof CwrChunk waiting) {
                if (Serial.ge(waiting.lowestTsn(), tsn)) {
                    return;
                }
                it.remove();
                cwrSent--;
                break;
            }
        }
        t.queue(new CwrChunk(tsn), t.pathSet.replyTo(pkt.from()), t.peerTag);
        cwrSent++;
    }

    /** The counters. */
    public EcnStats stats() {
        return new EcnStats(ceMarked, ecneSent, ecneReceived, cwrSent, cwrReceived, reductions);
    }
}
