package org.sctpj.stack.assoc;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.sctpj.stack.Extension;
import org.sctpj.stack.PrPolicy;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.Transmit;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.path.PathStatus;
import org.sctpj.stack.rx.DataReceiver;
import org.sctpj.stack.tx.AckResult;
import org.sctpj.stack.tx.DataSender;
import org.sctpj.stack.tx.PacketBuilder;
import org.sctpj.stack.tx.PathScheduling;
import org.sctpj.stack.tx.UnsentMessage;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Wire;
import org.sctpj.stack.wire.cause.InvalidStreamIdentifierCause;
import org.sctpj.stack.wire.cause.NoUserDataCause;
import org.sctpj.stack.wire.cause.OutOfResourceCause;
import org.sctpj.stack.wire.cause.ProtocolViolationCause;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.ChunkType;
import org.sctpj.stack.wire.chunk.DataChunkView;
import org.sctpj.stack.wire.chunk.ErrorChunk;
import org.sctpj.stack.wire.chunk.IDataChunk;
import org.sctpj.stack.wire.chunk.NrSackChunkView;
import org.sctpj.stack.wire.chunk.SackChunkView;

/**
 * Data transfer at the association level (RFC 9260 section 6): the user's messages into the
 * {@link DataSender}, DATA chunks into the {@link DataReceiver} and its messages out to the user,
 * SACKs into the sender with what an acknowledgement means for the paths and the send events,
 * T3-rtx expiry (section 6.3.3), and the assembly of each outgoing packet: queued control chunks
 * first, then the SACK and DATA bundled where allowed (section 6.10), to the path new data takes
 * or, with CMT, to the active destinations in turn. Where the SACK goes (section 6.4) and where
 * answers go stay out of unconfirmed addresses (section 5.4).
 *
 * <p>The sending and receiving halves themselves (queues, fragmentation, retransmission,
 * reassembly) are in {@code tx} and {@code rx}; this class drives them from the association.
 */
public final class DataTransfer {

    private final Tcb t;
    private final PacketBuilder pb;
    private final SackChunkWriter sackWriter;
    /** The source address of the last packet built. */
    private InetAddress lastSource;
    /** The ECN codepoint of the last packet built. */
    private int lastEcn;
    /** Whether the last packet built outgrew its path's MTU ({@link PacketBuilder#allowOversize}). */
    private boolean lastFragmentable;
    /** Whether the packet being built has the pending ECNE already. */
    private boolean ecneInPacket;
    // Reused on the data path so that a packet of DATA or SACK allocates nothing.
    private final DataChunkView dataView = new DataChunkView();
    private final SackChunkView sackView = new SackChunkView();
    private final NrSackChunkView nrSackView = new NrSackChunkView();
    private int[] gapStarts = new int[16];
    private int[] gapEnds = new int[16];
    private int[] nrStarts = new int[16];
    private int[] nrEnds = new int[16];
    private final DataReceiver.MessageSink messageSink = new DataReceiver.MessageSink() {
        @Override
        public void message(
                int streamId, int ppid, boolean unordered, byte[] array, ByteBuffer buf, int offset, int length) {
            deliver(streamId, ppid, unordered, array, buf, offset, length);
        }

        @Override
        public void part(int streamId, int ppid, boolean unordered, byte[] array, boolean last) {
            t.host.emit(new SctpEvent.MessagePart(t.id, streamId, ppid, unordered, array, last));
        }
    };

    DataTransfer(Tcb t) {
        this.t = t;
        this.pb = new PacketBuilder(65535);
        this.sackWriter = new SackChunkWriter(pb);
    }

    /**
     * Builds the data path from the handshake's parameters (RFC 9260 section 5.1): stream counts,
     * sender, receiver (its delayed SACK bound to the timer table) and each path's window. On a
     * restart the old receiver's messages in parts end here.
     */
    public void startDataPath(int myInitialTsn, int peerInitialTsn, int peerRwnd, int peerOs, int peerMis) {
        if (t.rx != null) {
            reportPartialDeliveriesAborted(); // a restart: the old receiver's messages in parts end here
        }
        t.outboundStreams = Math.min(t.localOutbound, peerMis);
        t.inboundStreams = Math.min(peerOs, t.localMaxInbound);
        t.tx = new DataSender(t.o, myInitialTsn, t.outboundStreams, Integer.toUnsignedLong(peerRwnd), t.cc);
        t.tx.bindLifetimeTimer(t.timers.slots(), TimerTable.slot(TimerKind.PR_LIFETIME, 0));
        t.forwardTsn.onDataPathStarted();
        if (t.streamScheduler != null) {
            t.tx.setStreamScheduler(t.streamScheduler);
        }
        t.rx = new DataReceiver(t.o, peerInitialTsn, t.inboundStreams);
        t.rx.bindSackTimer(t.timers.slots(), TimerTable.slot(TimerKind.DELAYED_SACK, 0));
        if (t.has(Extension.I_DATA)) {
            // RFC 8260 section 2.1: user messages go both ways as I-DATA, never as DATA.
            t.tx.useIData(t.o.iDataFragmentNumbering());
            t.rx.useIData();
        }
        // Messages are taken (deliverMessages) before each packet's processing returns and handed
        // out before the endpoint call returns, so the receiver may refer to the packet.
        t.rx.keepReferences(true);
        for (Path p : t.paths) {
            t.cc.init(p, Integer.toUnsignedLong(peerRwnd));
        }
        t.reconfig.start(myInitialTsn, peerInitialTsn);
        t.asconf.start(myInitialTsn, peerInitialTsn);
        t.ecn.reset();
    }

    // ------------------------------------------------------------------ user commands

    /** See {@link Association#send}. */
    SendStatus send(SendInfo info, ByteBuffer data, long now) {
        checkSendable(info);
        PrPolicy pr = t.forwardTsn.policyFor(info);
        int length = data.remaining();
        if (pr.isReliable()) {
            return accepted(t.tx.send(info.streamId(), info.ppid(), info.unordered(), info.immediate(), data), length);
        }
        return afterPrSend(
                t.tx.send(info.streamId(), info.ppid(), info.unordered(), info.immediate(), data, pr, now),
                length,
                now);
    }

    /** See {@link Association#sendOwned}. */
    SendStatus sendOwned(SendInfo info, byte[] array, int length, long now) {
        checkSendable(info);
        PrPolicy pr = t.forwardTsn.policyFor(info);
        if (pr.isReliable()) {
            return accepted(
                    t.tx.sendOwned(info.streamId(), info.ppid(), info.unordered(), info.immediate(), array, length),
                    length);
        }
        return afterPrSend(
                t.tx.sendOwned(
                        info.streamId(), info.ppid(), info.unordered(), info.immediate(), array, length, pr, now),
                length,
                now);
    }

    /** A send with a PR-SCTP policy may have abandoned messages to make room: the peer hears of it. */
    private SendStatus afterPrSend(DataSender.SendStatus s, int length, long now) {
        t.forwardTsn.afterAbandon(now);
        t.forwardTsn.flushAbandoned(now);
        return accepted(s, length);
    }

    private void checkSendable(SendInfo info) {
        switch (t.state) {
            case ESTABLISHED -> {}
            case COOKIE_WAIT, COOKIE_ECHOED -> throw new IllegalStateException(
                    t.id + " is not established yet: wait for the COMMUNICATION_UP event before sending");
            case CLOSED -> throw new IllegalStateException(t.id + " is closed: open a new association");
            default -> throw new IllegalStateException(t.id + " is shutting down (" + t.state + "): no new data");
        }
        if (info.streamId() >= t.outboundStreams) {
            throw new IllegalArgumentException("stream " + info.streamId() + " does not exist on " + t.id
                    + ": the peer granted " + t.outboundStreams + " outbound streams (0.." + (t.outboundStreams - 1)
                    + ")");
        }
    }

    private SendStatus accepted(DataSender.SendStatus s, int length) {
        if (s == DataSender.SendStatus.WOULD_BLOCK) {
            return SendStatus.WOULD_BLOCK;
        }
        t.counters.messagesSent++;
        t.counters.bytesSent += length;
        t.wasDry = false;
        return SendStatus.ACCEPTED;
    }

    // ------------------------------------------------------------------ input

    /** DATA: returns 1 if new data was taken, 0 otherwise, -1 if the association was aborted. */
    int onData(InboundPacket pkt, int i, long now) {
        if (t.rx == null
                || !(t.state == Association.State.ESTABLISHED
                        || t.state == Association.State.SHUTDOWN_PENDING
                        || t.state == Association.State.SHUTDOWN_SENT)) {
            return 0; // RFC 9260 section 9.2: no new data after SHUTDOWN was received
        }
        if (t.rx.usesIData()) {
            return wrongDataKind("DATA chunk received on an association that negotiated I-DATA", now);
        }
        DataChunkView d = dataView;
        if (!d.wrap(pkt.buffer(), pkt.offset(i), pkt.length(i))) {
            // RFC 9260 section 6.2: a DATA chunk with no user data is answered with ABORT.
            int tsn = pkt.length(i) >= 8 ? pkt.buffer().getInt(pkt.offset(i) + 4) : 0;
            t.abort.protocolAbort(new NoUserDataCause(tsn), "DATA chunk with no user data", now);
            return -1;
        }
        noteDataSource(pkt.from());
        DataReceiver.DataResult r = t.rx.onData(
                d.tsn(),
                d.streamId(),
                d.ssn(),
                d.ppid(),
                d.flags(),
                d.buffer(),
                d.userDataOffset(),
                d.userDataLength(),
                now);
        count(r, d.tsn(), d.userDataLength(), pkt);
        return afterDataResult(r, d.streamId(), pkt, now);
    }

    /** Counts a DATA or I-DATA chunk's outcome, for the association and the path it came from. */
    private void count(DataReceiver.DataResult r, int tsn, int userBytes, InboundPacket pkt) {
        Counters c = t.counters;
        if (r == DataReceiver.DataResult.NEW) {
            c.chunksReceived++;
            c.bytesReceived += userBytes;
            if (Integer.compareUnsigned(tsn - t.rx.cumulativeTsn(), 0x80000000) < 0 && tsn != t.rx.cumulativeTsn()) {
                c.outOfOrderReceived++; // still above the Cumulative TSN: a lower TSN is missing
            }
            Path p = t.pathOf(pkt.from());
            if (p != null) {
                p.countReceived(userBytes);
            }
        } else if (r == DataReceiver.DataResult.DUPLICATE) {
            c.duplicatesReceived++;
        }
    }

    /** The association's part of a DATA or I-DATA chunk's outcome: 1, or -1 if it aborted. */
    private int afterDataResult(DataReceiver.DataResult r, int streamId, InboundPacket pkt, long now) {
        if (r == DataReceiver.DataResult.DROPPED_CANNOT_TAKE) {
            // The receive buffer is full of a message that can never be delivered: say so (RFC
            // 9260 section 3.3.10.4) rather than let both sides wait forever.
            t.abort.protocolAbort(
                    OutOfResourceCause.INSTANCE,
                    "cannot take a message: the receive buffer (" + t.o.receiveBufferBytes()
                            + " bytes) is full of a message that cannot be delivered"
                            + (t.o.partialDeliveryPoint() == 0
                                    ? " (partial delivery is off: partialDeliveryPoint 0)"
                                    : ""),
                    now);
            return -1;
        }
        if (r == DataReceiver.DataResult.INVALID_STREAM) {
            // RFC 9260 section 6.5: acknowledge the TSN and report the stream.
            t.queue(
                    new ErrorChunk(List.of(new InvalidStreamIdentifierCause(streamId))),
                    t.pathSet.replyTo(pkt.from()),
                    t.peerTag);
        }
        return 1;
    }

    /**
     * I-DATA (RFC 8260 section 2.1): as {@link #onData}, for an association that negotiated
     * I-DATA; on one that did not, the association is aborted with a Protocol Violation cause.
     * The fields are read in place (nothing allocated per chunk).
     */
    int onIData(InboundPacket pkt, int i, long now) {
        if (t.rx == null
                || !(t.state == Association.State.ESTABLISHED
                        || t.state == Association.State.SHUTDOWN_PENDING
                        || t.state == Association.State.SHUTDOWN_SENT)) {
            return 0; // RFC 9260 section 9.2: no new data after SHUTDOWN was received
        }
        if (!t.rx.usesIData()) {
            return wrongDataKind("I-DATA chunk received on an association that did not negotiate I-DATA", now);
        }
        ByteBuffer b = pkt.buffer();
        int off = pkt.offset(i);
        int len = pkt.length(i);
        if (len <= IDataChunk.FIXED_LENGTH) {
            // RFC 9260 section 6.2 (RFC 8260 section 2.1 keeps it): no user data is answered with ABORT.
            int tsn = len >= 8 ? b.getInt(off + 4) : 0;
            t.abort.protocolAbort(new NoUserDataCause(tsn), "I-DATA chunk with no user data", now);
            return -1;
        }
        noteDataSource(pkt.from());
        int streamId = Wire.u16(b, off + 8);
        int tsn = b.getInt(off + 4);
        DataReceiver.DataResult r = t.rx.onIData(
                tsn,
                streamId,
                b.getInt(off + 12),
                b.getInt(off + 16),
                Wire.u8(b, off + 1),
                b,
                off + IDataChunk.FIXED_LENGTH,
                len - IDataChunk.FIXED_LENGTH,
                now);
        count(r, tsn, len - IDataChunk.FIXED_LENGTH, pkt);
        if (t.rx.peerNumbersFragmentsLikeLinux()) {
            t.tx.peerNumbersFragmentsLikeLinux(); // IDataFragmentNumbering.AUTO follows the peer
        }
        return afterDataResult(r, streamId, pkt, now);
    }

    /** RFC 8260 section 2.1: DATA where I-DATA was negotiated, or the reverse, ends the association. */
    private int wrongDataKind(String why, long now) {
        t.abort.protocolAbort(new ProtocolViolationCause(Bytes.of(why.getBytes(StandardCharsets.US_ASCII))), why, now);
        return -1;
    }

    /**
     * After the chunks of a packet: the receiver decides when to SACK (RFC 9260 section 6.2), the
     * messages completed go to the user, and in SHUTDOWN-SENT a packet with DATA is answered with
     * a SHUTDOWN (section 9.2).
     */
    void afterPacket(boolean hadData, boolean immediate, long now) {
        if (t.rx != null && t.state != Association.State.CLOSED) {
            t.rx.onPacketProcessed(hadData, immediate, now);
            deliverMessages();
            if (hadData && t.state == Association.State.SHUTDOWN_SENT) {
                // RFC 9260 section 9.2: answer each packet with DATA with a SHUTDOWN, restart T2.
                t.shutdown.queueShutdown(now);
            }
        }
    }

    /** SACK (RFC 9260 section 6.2.1). */
    void onSack(InboundPacket pkt, int i, long now) {
        if (t.tx == null || t.settingUp()) {
            return;
        }
        SackChunkView s = sackView;
        if (!s.wrap(pkt.buffer(), pkt.offset(i), pkt.length(i))) {
            return;
        }
        int n = s.gapBlockCount();
        if (n > gapStarts.length) {
            gapStarts = new int[Math.max(n, gapStarts.length * 2)];
            gapEnds = new int[gapStarts.length];
        }
        int[] starts = gapStarts;
        int[] ends = gapEnds;
        for (int g = 0; g < n; g++) {
            starts[g] = s.gapStart(g);
            ends[g] = s.gapEnd(g);
        }
        long freeBefore = t.tx.freeBytes();
        AckResult r = t.tx.onSack(
                s.cumTsnAck(), Integer.toUnsignedLong(s.aRwnd()), starts, ends, n, s.dupCount(), t.paths, now);
        afterSack(r, n > 0, s.dupCount(), freeBefore, now);
    }

    /** The counters of a SACK or NR-SACK just processed, then {@link #afterAck}. */
    private void afterSack(AckResult r, boolean gaps, int dupCount, long freeBefore, long now) {
        Counters c = t.counters;
        c.sacksReceived++;
        c.gapSacksReceived += gaps ? 1 : 0;
        c.duplicatesReportedByPeer += dupCount;
        c.fastRetransmits += r.fastRetransmitsMarked();
        c.fastRecoveries += r.enteredFastRecovery() ? 1 : 0;
        afterAck(r, freeBefore, now);
    }

    /**
     * NR-SACK (draft-natarajan-tsvwg-sctp-nrsack-08 section 5), once negotiated: a SACK whose NR
     * Gap Ack Blocks also free the chunks they cover from the send buffer.
     */
    void onNrSack(InboundPacket pkt, int i, long now) {
        if (t.tx == null || t.settingUp()) {
            return;
        }
        NrSackChunkView s = nrSackView;
        if (!s.wrap(pkt.buffer(), pkt.offset(i), pkt.length(i))) {
            return;
        }
        int n = s.gapBlockCount();
        int nr = s.nrGapBlockCount();
        if (n > gapStarts.length) {
            gapStarts = new int[Math.max(n, gapStarts.length * 2)];
            gapEnds = new int[gapStarts.length];
        }
        if (nr > nrStarts.length) {
            nrStarts = new int[Math.max(nr, nrStarts.length * 2)];
            nrEnds = new int[nrStarts.length];
        }
        for (int g = 0; g < n; g++) {
            gapStarts[g] = s.gapStart(g);
            gapEnds[g] = s.gapEnd(g);
        }
        for (int g = 0; g < nr; g++) {
            nrStarts[g] = s.nrGapStart(g);
            nrEnds[g] = s.nrGapEnd(g);
        }
        long freeBefore = t.tx.freeBytes();
        AckResult r = t.tx.onSack(
                s.cumTsnAck(),
                Integer.toUnsignedLong(s.aRwnd()),
                gapStarts,
                gapEnds,
                n,
                nrStarts,
                nrEnds,
                nr,
                s.dupCount(),
                t.paths,
                now);
        afterSack(r, n + nr > 0, s.dupCount(), freeBefore, now);
    }

    /**
     * Error counters, path recovery and the send events after acknowledged data (of a SACK, or of
     * a SHUTDOWN's Cumulative TSN Ack); then the shutdown may proceed.
     */
    public void afterAck(AckResult r, long freeBefore, long now) {
        t.forwardTsn.afterAck(r, now);
        if (r.cumAckAdvanced() && !r.anyNewlyAcked()) {
            // Only abandoned chunks were acknowledged (after a FORWARD TSN, RFC 3758): the peer
            // answered all the same (RFC 9260 section 8.1).
            t.associationErrors = 0;
        }
        if (r.anyNewlyAcked()) {
            t.associationErrors = 0;
            for (int k = 0; k < t.paths.size(); k++) {
                Path p = t.paths.get(k);
                if (r.newlyAckedOn(p.index())) {
                    p.resetErrorCount();
                    p.recordAck(now);
                    if (p.status() == PathStatus.INACTIVE || p.status() == PathStatus.POTENTIALLY_FAILED) {
                        t.failover.setPathStatus(p, PathStatus.ACTIVE);
                    }
                }
            }
        }
        long free = t.tx.freeBytes();
        if (free > freeBefore) {
            t.host.sendSpaceFreed(t.id);
        }
        if (free > freeBefore && free >= t.sendThreshold) {
            t.host.emit(new SctpEvent.SendSpaceAvailable(t.id, free));
        }
        if (t.tx.isEmpty() && !t.wasDry) {
            t.wasDry = true;
            t.host.emit(new SctpEvent.SenderDry(t.id));
        }
        t.shutdown.progressShutdown(now);
    }

    /**
     * T3-rtx of {@code p} expired (RFC 9260 section 6.3.3): the sender marks its data for
     * retransmission; the path and the association count an error (section 8), unless the timer
     * timed out a zero window probe the peer keeps answering (section 6.1 A).
     */
    void onT3(Path p, long now) {
        t.counters.t3Expirations++;
        p.countT3Expiration();
        boolean answeredProbe = t.tx.answeredProbeTimesOut();
        t.tx.onT3Expired(p, t.paths, now);
        t.forwardTsn.onT3(now);
        t.forwardTsn.flushAbandoned(now); // messages past their policy were abandoned: their room is free
        if (answeredProbe) {
            return; // RFC 9260 6.1 A: the peer keeps answering, its window is just closed
        }
        t.failover.pathError(p, now);
        if (t.state != Association.State.CLOSED) {
            t.failover.countAssociationError(now);
        }
        if (t.state != Association.State.CLOSED) {
            t.pmtu.onT3(p, now); // repeated loss of full-size packets: a black hole (RFC 8899 4.3)
        }
    }

    /** Remembers where DATA came from, and the confirmed source before it when the source changes. */
    private void noteDataSource(InetAddress from) {
        if (t.lastDataSource != null && !t.lastDataSource.equals(from)) {
            Path prev = t.pathOf(t.lastDataSource);
            if (prev != null && prev.status() != PathStatus.UNCONFIRMED) {
                t.lastConfirmedDataSource = t.lastDataSource;
            }
        }
        t.lastDataSource = from;
    }

    /**
     * Where a SACK goes: to the source of the DATA it answers (RFC 9260 section 6.4), but never to
     * an unconfirmed address (section 5.4 allows only HEARTBEATs there). Then to an earlier source
     * of the DATA it acknowledges that is confirmed (6.4 allows any of them), else to the path new
     * data takes (the primary while it is active).
     */
    private Path sackPath() {
        Path p = t.lastDataSource != null ? t.pathOf(t.lastDataSource) : null;
        if (p != null && p.status() != PathStatus.UNCONFIRMED) {
            return p;
        }
        Path q = t.lastConfirmedDataSource != null ? t.pathOf(t.lastConfirmedDataSource) : null;
        if (q != null && q.status() != PathStatus.UNCONFIRMED) {
            return q;
        }
        return t.failover.dataPath();
    }

    // ------------------------------------------------------------------ delivery to the user

    /** Hands every message the receiver completed to the user. */
    public void deliverMessages() {
        DataReceiver r = t.rx;
        try {
            while (r.pollMessage(messageSink)) {
                // each message went to deliver()
            }
        } finally {
            // What could not be delivered yet must not keep pointing into the packet.
            r.detachReferences();
        }
    }

    private void deliver(
            int streamId, int ppid, boolean unordered, byte[] array, ByteBuffer buf, int offset, int length) {
        t.counters.messagesDelivered++;
        t.host.deliver(t.id, streamId, ppid, unordered, array, buf, offset, length);
    }

    /**
     * The partial delivery event's aborted indication (RFC 6458 section 6.1.7) for each message
     * being delivered in parts whose last part will not come.
     */
    public void reportPartialDeliveriesAborted() {
        for (DataReceiver.PartialDelivery p : t.rx.partialDeliveries()) {
            t.host.emit(new SctpEvent.PartialDeliveryAborted(
                    t.id, p.streamId(), p.ssn(), p.unordered(), p.deliveredBytes()));
        }
    }

    /** A SEND_FAILED event for each message the sender still holds, which it drops. */
    public void reportUnsent() {
        if (t.tx == null) {
            return;
        }
        for (UnsentMessage u : t.tx.drainUnsent()) {
            t.host.emit(
                    new SctpEvent.SendFailed(t.id, u.streamId(), u.ppid(), u.unordered(), u.data(), u.partiallySent()));
        }
    }

    // ------------------------------------------------------------------ output

    private int maxPacket(Path p) {
        return maxPacket(p.address(), p.mtu());
    }

    private int maxPacket(InetAddress dest, int mtu) {
        int ip = dest instanceof Inet6Address ? 40 : 20;
        return mtu - ip - t.o.encapsulationOverhead();
    }

    /**
     * Whether DATA may be bundled into a packet to {@code p}: with CMT, when p takes new data (or,
     * with no active path, it is {@link org.sctpj.stack.pathmgmt.Failover#dataPath()}); without,
     * when p is {@link org.sctpj.stack.pathmgmt.Failover#dataPath()}.
     */
    private boolean carriesData(Path p) {
        if (t.tx.scheduling().sendsNewDataTo(p)) {
            return true;
        }
        return p == t.failover.dataPath();
    }

    /**
     * A heartbeat came due, so a path has been idle for HB.interval: the sender and the receiver
     * let go of the arrays they keep for reuse if they hold nothing ({@link DataSender#trimIdle()},
     * {@link DataReceiver#trimIdle()}), so that an association idle after a burst shrinks back to
     * its idle size. With heartbeats off nothing is trimmed (the pools stay within their bounds).
     */
    void trimIfIdle() {
        t.tx.trimIdle();
        t.rx.trimIdle();
    }

    /** See {@link Association#pollTransmit(long)}. */
    Optional<Transmit> pollTransmit(long now) {
        InetAddress dest = buildAndForward(now);
        return dest == null
                ? Optional.empty()
                : Optional.of(new Transmit(pb.finish(), lastSource, dest, lastEcn, lastFragmentable));
    }

    /** See {@link Association#pollTransmit(ByteBuffer, long)}. */
    InetAddress pollTransmit(ByteBuffer out, long now) {
        int start = out.position();
        pb.target(out);
        try {
            InetAddress dest = buildAndForward(now);
            if (dest == null) {
                out.position(start);
                return null;
            }
            int n = pb.finishInPlace();
            out.limit(start + n);
            out.position(start);
            return dest;
        } finally {
            pb.targetOwn();
        }
    }

    /**
     * Builds the next packet; if filling it abandoned a message (a lifetime that ended before more
     * of it was sent, RFC 3758 section 4.1), the FORWARD TSN it calls for is queued for the next
     * packet, or for this one when nothing else was to go.
     */
    private InetAddress buildAndForward(long now) {
        InetAddress dest = build(now);
        if (t.forwardTsn.flushAbandoned(now) && dest == null) {
            dest = build(now);
        }
        return dest;
    }

    /** The local address the last packet of {@link #pollTransmit} goes out from. */
    InetAddress transmitSource() {
        return lastSource;
    }

    /** The ECN codepoint of the last packet of {@link #pollTransmit}. */
    int transmitEcn() {
        return lastEcn;
    }

    /** Whether the last packet of {@link #pollTransmit} may be fragmented by IP. */
    boolean transmitFragmentable() {
        return lastFragmentable;
    }

    /** Builds the next packet in {@link #pb}; returns its destination, or null when none is due. */
    private InetAddress build(long now) {
        ecneInPacket = false;
        t.reconfig.beforeTransmit(now);
        t.asconf.beforeTransmit(now);
        InetAddress probe = t.pmtu.buildProbe(pb, t.host.localPort(), t.o.encapsulationOverhead());
        if (probe != null) {
            return finish(probe); // a path MTU probe travels alone (RFC 8899 section 6.2.1.1)
        }
        Tcb.Control c = t.controls.peek();
        if (c != null) {
            InetAddress dest = c.destination();
            int vtag = c.verificationTag();
            Path p = t.pathOf(dest);
            pb.reset(t.host.localPort(), t.peerPort, vtag, maxPacket(dest, p != null ? p.mtu() : t.o.pathMtu()));
            if (vtag == t.peerTag && vtag != 0) {
                pb.authenticate(t.auth.signer()); // RFC 4895 section 6.2
            }
            boolean alone = false;
            while (!alone
                    && (c = t.controls.peek()) != null
                    && c.destination().equals(dest)
                    && c.verificationTag() == vtag) {
                alone = isAlone(c.chunk());
                if (alone && !pb.isEmpty()) {
                    break; // INIT, INIT ACK and SHUTDOWN COMPLETE travel alone (RFC 9260 section 6.10)
                }
                if (!pb.tryAdd(c.chunk())) {
                    if (pb.isEmpty()) {
                        t.controls.poll(); // larger than the path can carry: drop rather than stall
                        continue;
                    }
                    break;
                }
                t.controls.poll();
            }
            if (!pb.isEmpty()) {
                // Nothing but the control chunks to an unconfirmed address: a HEARTBEAT ACK or a
                // probe goes there, a SACK or DATA must not (RFC 9260 section 5.4).
                if (!alone
                        && p != null
                        && p.status() != PathStatus.UNCONFIRMED
                        && vtag == t.peerTag
                        && t.canBundleData()) {
                    bundleEcne();
                    bundleSack(now);
                    if (carriesData(p)) {
                        t.tx.fill(pb, p, t.paths, now);
                    }
                }
                return finish(dest);
            }
        }
        if (!t.canBundleData()) {
            return null;
        }
        if (t.rx.sackNeeded(now)) {
            Path p = sackPath();
            startPacket(p);
            bundleSack(now);
            if (carriesData(p)) {
                t.tx.fill(pb, p, t.paths, now);
            }
            return finish(p.address());
        }
        if (t.tx.hasDataToSend(now) && t.tx.scheduling().stripes(t.paths)) {
            return t.tx.scheduling().transmit(t.paths, dataPacketAttempt, now);
        }
        if (t.tx.hasDataToSend(now)) {
            return dataPacketTo(t.failover.dataPath(), now);
        }
        return null;
    }

    /** {@link #dataPacketTo(Path, long)} for the data scheduling, made once (no lambda per packet). */
    private final PathScheduling.PacketAttempt dataPacketAttempt = this::dataPacketTo;

    /**
     * A packet of DATA to {@code p} within its own cwnd: to the single data path, or to the
     * destination the data scheduling chose ({@link PathScheduling#transmit}, CMT); its
     * destination, or null when none may go.
     */
    private InetAddress dataPacketTo(Path p, long now) {
        if (p.flightSize() == 0
                && p.lastSendNanos() != Long.MIN_VALUE
                && now - p.lastSendNanos() > p.rto().rto()) {
            // RFC 9260 section 7.2.1: after an idle RTO the window decays before new data goes.
            t.cc.onIdle(p);
        }
        startPacket(p);
        boolean sack = bundleSack(now);
        if (!sack) {
            bundleEcne();
        }
        t.tx.fill(pb, p, t.paths, now);
        if (pb.dataChunkCount() == 0 && !sack) {
            return null; // an ECNE alone waits for a packet that goes anyway
        }
        return finish(p.address());
    }

    private static boolean isAlone(Chunk c) {
        int type = c.type();
        return type == ChunkType.INIT || type == ChunkType.INIT_ACK || type == ChunkType.SHUTDOWN_COMPLETE;
    }

    private void startPacket(Path p) {
        ecneInPacket = false;
        pb.reset(t.host.localPort(), t.peerPort, t.peerTag, maxPacket(p));
        pb.authenticate(t.auth.signer()); // RFC 4895 section 6.2: AUTH before what the peer requires
    }

    /**
     * Puts the SACK in the packet being built when one is due or delayed (RFC 9260 sections 6.2 and
     * 6.10): DATA going out, an answer to the peer's DATA for instance, carries the acknowledgement
     * instead of leaving it to the delayed-SACK timer. If the packet then takes no DATA, the SACK
     * leaves alone, earlier than the delay would have sent it.
     */
    private boolean bundleSack(long now) {
        if (t.rx.sackNeeded(now) || t.rx.sackDeadline() != Tcb.NONE) {
            t.counters.sacksSent++;
            t.counters.gapSacksSent += t.rx.highestTsn() != t.rx.cumulativeTsn() ? 1 : 0;
            bundleEcne();
            // NR-SACK negotiated: every out-of-order TSN is reported non-renegable (we never renege).
            t.rx.writeSack(sackWriter, pb.remaining(), t.has(Extension.NR_SACK));
            return true;
        }
        return false;
    }

    /**
     * Puts the pending ECNE into the packet being built, once (RFC 9260 appendix A: in every packet
     * to the peer until its CWR comes), ahead of any DATA (control chunks first, section 6.10).
     */
    private void bundleEcne() {
        if (!ecneInPacket) {
            ecneInPacket = t.ecn.bundle(pb);
        }
    }

    /** The packet in {@link #pb} goes to {@code dest}: notes its source, returns dest. */
    private InetAddress finish(InetAddress dest) {
        lastSource = t.pathSet.sourceFor(dest);
        lastEcn = t.ecn.codepointFor(pb);
        lastFragmentable = pb.fragmentable();
        return dest;
    }
}
