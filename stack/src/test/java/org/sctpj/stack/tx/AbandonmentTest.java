package org.sctpj.stack.tx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.stack.tx.SenderFixture.MS;
import static org.sctpj.stack.tx.SenderFixture.tsn;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.PrPolicy;
import org.sctpj.stack.SctpEvent.SendFailedReason;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.rx.DataReceiver.Skip;
import org.sctpj.stack.wire.chunk.DataChunk;

/**
 * The sender's side of PR-SCTP (RFC 3758 section 3.5, RFC 7496 section 3): each policy abandons
 * what it must and nothing else, all fragments of a message go together, abandoned chunks stop
 * counting, the Advanced.Peer.Ack.Point and the FORWARD TSN's stream list.
 */
class AbandonmentTest {

    /** One abandoned message as the listener heard of it. */
    record Gone(int streamId, int length, boolean sent, SendFailedReason reason, byte[] data) {}

    static List<Gone> listen(SenderFixture f) {
        List<Gone> gone = new ArrayList<>();
        f.tx.setAbandonListener(
                (sid, ppid, unordered, data, sent, reason) -> gone.add(new Gone(sid, data.length, sent, reason, data)));
        return gone;
    }

    /** A sender whose send buffer holds {@code bytes} (and messages up to that size). */
    static SenderFixture withBuffer(int bytes) {
        SctpOptions o = SenderFixture.options(true).toBuilder()
                .sendBufferBytes(bytes)
                .maxMessageSize(bytes)
                .build();
        return new SenderFixture(o, 1 << 20);
    }

    static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 13 + seed);
        }
        return b;
    }

    static DataSender.SendStatus send(SenderFixture f, int sid, byte[] b, PrPolicy p, long now) {
        return f.tx.send(sid, 42, false, false, ByteBuffer.wrap(b), p, now);
    }

    static DataSender.SendStatus send(SenderFixture f, int sid, int n, PrPolicy p, long now) {
        return send(f, sid, bytes(n, sid), p, now);
    }

    @Test
    void aLifetimeThatEndsInTheQueueAbandonsTheMessageUnsentAndItNeverGetsATsn() {
        SenderFixture f = SenderFixture.noDelay(); // PR-SCTP not negotiated: unsent ones still go
        List<Gone> gone = listen(f);
        byte[] b = bytes(500, 1);
        send(f, 1, b, PrPolicy.timeToLive(10), 0);
        send(f, 2, 300, PrPolicy.RELIABLE, 0);
        assertEquals(800, f.tx.bufferedBytes());
        List<DataChunk> c = f.drain(11 * MS);
        assertEquals(1, c.size(), "only the reliable message goes");
        assertEquals(2, c.get(0).streamId());
        assertEquals(tsn(0), c.get(0).tsn(), "the expired message took no TSN");
        assertEquals(1, gone.size());
        assertEquals(
                new Gone(
                        1,
                        500,
                        false,
                        SendFailedReason.LIFETIME_EXPIRED,
                        gone.get(0).data()),
                gone.get(0));
        assertArrayEquals(b, gone.get(0).data());
        assertEquals(300, f.tx.bufferedBytes());
        assertEquals(1, f.tx.prStatus().timeToLive().unsent());
        assertEquals(1, f.tx.prStatus(1).timeToLive().unsent());
        assertEquals(0, f.tx.prStatus(2).total().total());
        assertEquals(tsn(-1), f.tx.advancedPeerAckPoint(), "nothing sent was abandoned: no FORWARD TSN");
    }

    @Test
    void aLifetimeStillRunningSendsTheMessageAsUsual() {
        SenderFixture f = SenderFixture.noDelay();
        List<Gone> gone = listen(f);
        send(f, 1, 500, PrPolicy.timeToLive(10), 0);
        assertEquals(1, f.drain(10 * MS).size(), "at exactly the lifetime it is not yet expired");
        assertTrue(gone.isEmpty());
    }

    @Test
    void expiredSentMessagesAreAbandonedOnT3AndNotRetransmitted() {
        SenderFixture f = SenderFixture.noDelay();
        f.tx.setPartialReliability(true);
        List<Gone> gone = listen(f);
        for (int i = 0; i < 3; i++) {
            send(f, 1, 1000, PrPolicy.timeToLive(50), 0);
        }
        assertEquals(3, f.drain(0).size());
        assertEquals(3000, f.p.flightSize());
        f.tx.onT3Expired(f.p, f.paths, 100 * MS);
        assertEquals(3, gone.size());
        assertTrue(gone.stream().allMatch(g -> g.sent() && g.reason() == SendFailedReason.LIFETIME_EXPIRED));
        assertEquals(0, f.tx.markedForRetransmission());
        assertEquals(0, f.p.flightSize());
        assertEquals(0, f.tx.bufferedBytes(), "abandoned chunks leave the send buffer (A2)");
        assertTrue(f.drain(100 * MS).isEmpty(), "nothing is retransmitted");
        assertEquals(tsn(2), f.tx.advancedPeerAckPoint());
        DataSender.ForwardTsnPlan plan = f.tx.forwardTsnPlan(100, false);
        assertEquals(tsn(2), plan.newCumulativeTsn());
        assertEquals(List.of(new Skip(1, false, 2)), plan.skips(), "the highest abandoned SSN of stream 1");
        assertEquals(3, f.tx.prStatus().timeToLive().sent());
        assertFalse(f.tx.isEmpty(), "kept until the peer's cumulative ack passes them");
        f.sack(tsn(2), 1 << 20, 150 * MS);
        assertTrue(f.tx.isEmpty());
        assertEquals(tsn(2), f.tx.advancedPeerAckPoint());
    }

    @Test
    void withoutPrSctpASentMessageStaysReliable() {
        SenderFixture f = SenderFixture.noDelay();
        List<Gone> gone = listen(f);
        send(f, 1, 1000, PrPolicy.timeToLive(50), 0);
        f.drain(0);
        f.tx.onT3Expired(f.p, f.paths, 100 * MS);
        assertTrue(gone.isEmpty());
        assertEquals(1, f.drain(100 * MS).size(), "retransmitted as RFC 9260 says");
    }

    @Test
    void limitedRetransmissionsAllowExactlyThatManyRetransmissions() {
        SenderFixture f = SenderFixture.noDelay();
        f.tx.setPartialReliability(true);
        List<Gone> gone = listen(f);
        send(f, 1, 1000, PrPolicy.maxRetransmissions(1), 0);
        send(f, 2, 1000, PrPolicy.maxRetransmissions(0), 0);
        assertEquals(2, f.drain(0).size());
        f.tx.onT3Expired(f.p, f.paths, 100 * MS);
        assertEquals(1, gone.size(), "RTX 0: never retransmitted");
        assertEquals(2, gone.get(0).streamId());
        assertEquals(SendFailedReason.RETRANSMISSIONS_EXHAUSTED, gone.get(0).reason());
        List<DataChunk> again = f.drain(100 * MS);
        assertEquals(1, again.size(), "RTX 1: one retransmission");
        assertEquals(1, again.get(0).streamId());
        f.tx.onT3Expired(f.p, f.paths, 400 * MS);
        assertEquals(2, gone.size());
        assertTrue(f.drain(400 * MS).isEmpty());
        assertEquals(tsn(1), f.tx.advancedPeerAckPoint());
        assertEquals(2, f.tx.prStatus().limitedRetransmissions().sent());
    }

    @Test
    void fastRetransmitOfALimitedMessageAbandonsItAfterTheCongestionReaction() {
        SenderFixture f = SenderFixture.noDelay();
        f.tx.setPartialReliability(true);
        List<Gone> gone = listen(f);
        send(f, 1, 1000, PrPolicy.maxRetransmissions(0), 0);
        for (int i = 0; i < 4; i++) {
            f.send(2, 1000);
        }
        f.p.setCwnd(100_000);
        assertEquals(5, f.drain(0).size());
        long cwnd = f.p.cwnd();
        f.sack(tsn(-1), 1 << 20, MS, 2, 2);
        f.sack(tsn(-1), 1 << 20, 2 * MS, 2, 3);
        AckResult r = f.sack(tsn(-1), 1 << 20, 3 * MS, 2, 4);
        assertTrue(r.enteredFastRecovery(), "RFC 3758 F5: the loss is still reacted to");
        assertTrue(f.p.cwnd() < cwnd);
        assertEquals(1, gone.size());
        assertEquals(0, f.tx.markedForRetransmission());
        assertTrue(f.drain(3 * MS).isEmpty());
        assertEquals(tsn(0), f.tx.advancedPeerAckPoint());
    }

    @Test
    void allFragmentsOfAMessageAreAbandonedTogetherEvenOneAlreadyGapAcked() {
        SenderFixture f = SenderFixture.noDelay();
        f.tx.setPartialReliability(true);
        List<Gone> gone = listen(f);
        byte[] b = bytes(4000, 3);
        send(f, 1, b, PrPolicy.maxRetransmissions(0), 0);
        f.send(2, 100);
        assertEquals(4, f.drain(0).size());
        f.sack(tsn(-1), 1 << 20, MS, 2, 2); // the middle fragment arrived
        f.tx.onT3Expired(f.p, f.paths, 100 * MS);
        assertEquals(1, gone.size());
        assertArrayEquals(b, gone.get(0).data(), "the whole message comes back");
        List<DataChunk> again = f.drain(100 * MS);
        assertEquals(1, again.size(), "only the reliable message is retransmitted");
        assertEquals(2, again.get(0).streamId());
        assertEquals(tsn(2), f.tx.advancedPeerAckPoint(), "stops at the reliable chunk (C2)");
        AckResult r = f.sack(tsn(3), 1 << 20, 150 * MS);
        assertEquals(100, r.bytesNewlyAcked(), "abandoned chunks are not credited to cwnd (A2)");
        assertTrue(f.tx.isEmpty());
    }

    @Test
    void aPartlySentMessageThatIsAbandonedSendsNoMoreOfIt() {
        SenderFixture f = SenderFixture.noDelay();
        f.tx.setPartialReliability(true);
        List<Gone> gone = listen(f);
        f.p.setCwnd(1000);
        send(f, 1, 5000, PrPolicy.timeToLive(50), 0);
        assertEquals(1, f.drain(0).size(), "one fragment within cwnd");
        assertEquals(1, f.tx.queuedMessages());
        f.p.setCwnd(100_000);
        List<DataChunk> none = f.drain(60 * MS);
        assertTrue(none.isEmpty(), "the lifetime ended: the rest gets no TSN (TR4)");
        assertEquals(1, gone.size());
        assertTrue(gone.get(0).sent());
        assertEquals(5000, gone.get(0).length());
        assertEquals(0, f.tx.queuedMessages());
        assertEquals(0, f.tx.bufferedBytes());
        assertEquals(tsn(1), f.tx.advancedPeerAckPoint(), "its unsent end took a TSN of its own");
        assertEquals(
                List.of(new Skip(1, false, 0)), f.tx.forwardTsnPlan(100, false).skips());
        f.send(1, 100);
        List<DataChunk> next = f.drain(60 * MS);
        assertEquals(1, next.get(0).ssn(), "the next message of the stream takes the next SSN");
        assertEquals(tsn(2), next.get(0).tsn());
        f.sack(tsn(2), 1 << 20, 70 * MS);
        assertTrue(f.tx.isEmpty());
    }

    @Test
    void aPartlySentMessageWhoseSentFragmentsWereAckedStillGetsAForwardTsn() {
        // The peer holds the first fragment, acknowledged cumulatively: only a FORWARD TSN past
        // the message's end frees it and the stream (found by the simulated PR-SCTP test, where
        // stream 3 of the receiver stalled for good).
        SenderFixture f = SenderFixture.noDelay();
        f.tx.setPartialReliability(true);
        List<Gone> gone = listen(f);
        f.p.setCwnd(1000);
        send(f, 1, 5000, PrPolicy.timeToLive(50), 0);
        assertEquals(1, f.drain(0).size());
        f.sack(tsn(0), 1 << 20, MS);
        assertEquals(0, f.tx.outstandingCount());
        f.drain(60 * MS);
        assertEquals(1, gone.size());
        assertEquals(tsn(1), f.tx.advancedPeerAckPoint(), "past the peer's cumulative ack: a FORWARD TSN is due");
        assertEquals(
                List.of(new Skip(1, false, 0)), f.tx.forwardTsnPlan(100, false).skips());
    }

    @Test
    void theForwardTsnListsOrderedStreamsOnceAndUnorderedNoneAndFitsItsRoom() {
        SenderFixture f = SenderFixture.noDelay();
        f.tx.setPartialReliability(true);
        listen(f);
        send(f, 3, 100, PrPolicy.maxRetransmissions(0), 0);
        f.tx.send(4, 42, true, false, ByteBuffer.wrap(bytes(100, 4)), PrPolicy.maxRetransmissions(0), 0);
        send(f, 3, 100, PrPolicy.maxRetransmissions(0), 0);
        send(f, 5, 100, PrPolicy.maxRetransmissions(0), 0);
        assertEquals(4, f.drain(0).size());
        f.tx.onT3Expired(f.p, f.paths, 100 * MS);
        assertEquals(tsn(3), f.tx.advancedPeerAckPoint());
        DataSender.ForwardTsnPlan all = f.tx.forwardTsnPlan(100, false);
        assertEquals(tsn(3), all.newCumulativeTsn());
        assertEquals(List.of(new Skip(3, false, 1), new Skip(5, false, 0)), all.skips());
        DataSender.ForwardTsnPlan one = f.tx.forwardTsnPlan(1, false);
        assertEquals(List.of(new Skip(3, false, 0)), one.skips());
        // Streams take turns: TSNs 0..3 carry streams 3, 4 (unordered), 5, 3.
        assertEquals(tsn(1), one.newCumulativeTsn(), "lowered before the stream that does not fit (C4)");
    }

    @Test
    void priorityMakesRoomByAbandoningLessImportantMessagesOnlyWhenThatSuffices() {
        SenderFixture f = withBuffer(4000);
        List<Gone> gone = listen(f);
        send(f, 1, 1500, PrPolicy.priority(5), 0);
        send(f, 2, 1000, PrPolicy.RELIABLE, 0);
        send(f, 1, 1400, PrPolicy.priority(7), 0);
        assertEquals(100, f.tx.freeBytes());
        assertEquals(DataSender.SendStatus.WOULD_BLOCK, send(f, 3, 1000, PrPolicy.priority(7), 0));
        assertEquals(DataSender.SendStatus.WOULD_BLOCK, send(f, 3, 3100, PrPolicy.priority(1), 0));
        assertTrue(gone.isEmpty(), "nothing abandoned when even all candidates would not make room");
        assertEquals(DataSender.SendStatus.ACCEPTED, send(f, 3, 1000, PrPolicy.priority(1), 0));
        assertEquals(1, gone.size(), "the least important goes first");
        assertEquals(1400, gone.get(0).length());
        assertEquals(SendFailedReason.LOWER_PRIORITY, gone.get(0).reason());
        assertEquals(DataSender.SendStatus.ACCEPTED, send(f, 3, 1500, PrPolicy.priority(0), 0));
        assertEquals(2, gone.size());
        assertEquals(1500, gone.get(1).length());
        assertEquals(2, f.tx.prStatus().priority().unsent());
        List<DataChunk> c = f.drain(0);
        assertEquals(
                List.of(2, 3, 3),
                c.stream()
                        .filter(DataChunk::beginning)
                        .map(DataChunk::streamId)
                        .sorted()
                        .toList(),
                "the reliable message and the two important ones");
    }

    @Test
    void priorityLeavesAMessageThePeerHasReportedReceived() {
        SenderFixture f = withBuffer(3000);
        f.tx.setPartialReliability(true);
        List<Gone> gone = listen(f);
        send(f, 3, 500, PrPolicy.RELIABLE, 0); // TSN 0: lost
        send(f, 1, 1000, PrPolicy.priority(5), 0); // TSN 1: arrives (gap-acknowledged)
        send(f, 2, 1100, PrPolicy.priority(5), 0); // TSN 2: not reported yet
        f.drain(0);
        f.sack(tsn(-1), 1 << 20, MS, 2, 2);
        assertEquals(DataSender.SendStatus.ACCEPTED, send(f, 0, 1500, PrPolicy.priority(1), 2 * MS));
        assertEquals(1, gone.size(), "only the message the peer has not reported: " + gone);
        assertEquals(1100, gone.get(0).length());
    }

    @Test
    void priorityAbandonsSentMessagesOnlyWithPrSctp() {
        SenderFixture f = withBuffer(3000);
        List<Gone> gone = listen(f);
        send(f, 1, 2000, PrPolicy.priority(5), 0);
        f.drain(0);
        assertEquals(DataSender.SendStatus.WOULD_BLOCK, send(f, 2, 2000, PrPolicy.priority(1), 0));
        assertTrue(gone.isEmpty());
        f.tx.setPartialReliability(true);
        assertEquals(DataSender.SendStatus.ACCEPTED, send(f, 2, 2000, PrPolicy.priority(1), 0));
        assertEquals(1, gone.size());
        assertTrue(gone.get(0).sent());
        assertEquals(tsn(1), f.tx.advancedPeerAckPoint());
        assertEquals(1, f.tx.prStatus().priority().sent());
        assertEquals(1, f.tx.prStatus(1).priority().sent());
    }

    @Test
    void aFullBufferFirstDropsExpiredMessages() {
        SenderFixture f = withBuffer(3000);
        List<Gone> gone = listen(f);
        send(f, 1, 2500, PrPolicy.timeToLive(5), 0);
        assertEquals(DataSender.SendStatus.WOULD_BLOCK, send(f, 2, 1000, PrPolicy.RELIABLE, 5 * MS));
        assertTrue(gone.isEmpty());
        assertEquals(DataSender.SendStatus.ACCEPTED, send(f, 2, 1000, PrPolicy.RELIABLE, 6 * MS));
        assertEquals(1, gone.size());
        assertFalse(gone.get(0).sent());
    }

    @Test
    void abortAfterAbandonmentDoesNotHandTheAbandonedMessageBackTwice() {
        SenderFixture f = SenderFixture.noDelay();
        f.tx.setPartialReliability(true);
        List<Gone> gone = listen(f);
        send(f, 1, 1000, PrPolicy.maxRetransmissions(0), 0);
        f.send(2, 1000);
        f.drain(0);
        f.tx.onT3Expired(f.p, f.paths, 100 * MS);
        assertEquals(1, gone.size());
        List<UnsentMessage> u = f.tx.drainUnsent();
        assertEquals(1, u.size());
        assertEquals(2, u.get(0).streamId());
    }
}
