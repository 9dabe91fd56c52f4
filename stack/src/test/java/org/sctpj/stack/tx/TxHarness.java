package org.sctpj.stack.tx;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.cc.CongestionController;
import org.sctpj.stack.cc.PathCongestionState;
import org.sctpj.stack.cc.Rfc9260CongestionController;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.path.PathStatus;
import org.sctpj.stack.wire.Serial;
import org.sctpj.stack.wire.chunk.DataChunk;

/**
 * The pieces of the sender wired by hand, without {@link DataSender}: a {@link
 * RetransmissionQueue} whose chunks are put "in flight" directly, and a {@link LossDetector}, so
 * that tests drive one class with exact SACK sequences (the acknowledgement passes and the
 * detector in {@link DataSender#onSack}'s order; the cwnd update is left out).
 */
final class TxHarness {
    static final int TSN0 = 1000;
    static final int LEN = 1000;

    /** A controller that counts the calls it gets and otherwise acts as RFC 9260's. */
    static final class CountingController implements CongestionController {
        final Rfc9260CongestionController base = new Rfc9260CongestionController();
        final List<String> calls = new ArrayList<>();

        @Override
        public void init(PathCongestionState p, long peerRwnd) {
            base.init(p, peerRwnd);
        }

        @Override
        public void onAck(
                PathCongestionState p,
                long bytesNewlyAcked,
                boolean cumAckAdvanced,
                boolean cwndFullyUsed,
                boolean inFastRecovery) {
            calls.add("ack" + p.index() + (cumAckAdvanced ? "+" : "-") + (inFastRecovery ? "fr" : ""));
            base.onAck(p, bytesNewlyAcked, cumAckAdvanced, cwndFullyUsed, inFastRecovery);
        }

        @Override
        public void onFastRetransmit(PathCongestionState p) {
            calls.add("fast" + p.index());
            base.onFastRetransmit(p);
        }

        @Override
        public void onT3Timeout(PathCongestionState p) {
            calls.add("t3-" + p.index());
            base.onT3Timeout(p);
        }

        @Override
        public void onIdle(PathCongestionState p) {
            calls.add("idle" + p.index());
            base.onIdle(p);
        }

        long count(String call) {
            return calls.stream().filter(call::equals).count();
        }
    }

    final SctpOptions o;
    final List<Path> paths = new ArrayList<>();
    final SendPool pool = new SendPool(1 << 20);
    final AckResult result = new AckResult();
    final RetransmissionQueue q = new RetransmissionQueue(pool, TSN0, 1 << 20, result);
    final CountingController cc = new CountingController();
    final LossDetector loss;

    TxHarness(SctpOptions o, int pathCount) {
        this.o = o;
        for (int i = 0; i < pathCount; i++) {
            try {
                Path p = new Path(i, InetAddress.getByAddress(new byte[] {10, 0, (byte) i, 1}), 1500, o);
                p.setStatus(PathStatus.ACTIVE);
                cc.init(p, 1 << 20);
                paths.add(p);
            } catch (UnknownHostException e) {
                throw new AssertionError(e);
            }
        }
        loss = o.cmt() ? new CmtLossDetector(q, cc, o) : new Rfc9260LossDetector(q, cc);
    }

    static SctpOptions single() {
        return SenderFixture.options(true);
    }

    static SctpOptions cmt(boolean delayedAck) {
        return SenderFixture.options(true).toBuilder()
                .cmt(true)
                .cmtDelayedAck(delayedAck)
                .build();
    }

    /** Puts one chunk of {@link #LEN} bytes in flight on path {@code pathIndex}; returns it. */
    SentChunk send(int pathIndex, long now) {
        OutboundMessage m = pool.message().init(0, 0, true, false, new byte[LEN], LEN);
        SentChunk c = pool.chunk().init(q.nextTsn(), m, 0, LEN, DataChunk.FLAG_B | DataChunk.FLAG_E);
        m.sentOffset = LEN;
        q.sentNew(c, paths.get(pathIndex), now, false);
        return c;
    }

    /** Sends {@code n} chunks, the i-th on path {@code i % paths}. */
    void sendAlternating(int n) {
        for (int i = 0; i < n; i++) {
            send(i % paths.size(), 0);
        }
    }

    /**
     * One SACK through the queue and the detector, in {@link DataSender#onSack}'s order; gaps are
     * offsets from {@code cum} as on the wire.
     */
    AckResult sack(int cum, int... gaps) {
        int[] s = new int[gaps.length / 2];
        int[] e = new int[gaps.length / 2];
        for (int i = 0; i < s.length; i++) {
            s[i] = gaps[2 * i];
            e[i] = gaps[2 * i + 1];
        }
        result.clear();
        q.beginSack(paths);
        boolean plain = s.length == 0 && !q.hasGapAcked() && loss.skipsPlainSack();
        boolean cumAdvanced = Serial.gt(cum, q.cumAck());
        q.ackCumulative(cum, 1_000_000L);
        loss.onCumulativeAck(q.cumAck());
        if (plain) {
            q.countPendingByFlight(paths);
        } else {
            q.ackGaps(s, e, s.length, 1_000_000L);
            loss.detect(paths, result, cumAdvanced);
        }
        result.cumAckAdvanced = cumAdvanced;
        return result;
    }

    /** The outstanding chunk with TSN {@code tsn}. */
    SentChunk chunk(int tsn) {
        for (int i = 0; i < q.size(); i++) {
            if (q.get(i).tsn == tsn) {
                return q.get(i);
            }
        }
        throw new AssertionError("TSN " + tsn + " is not outstanding");
    }
}
