package org.sctpj.stack.forwardtsn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.Extension;
import org.sctpj.stack.PrPolicy;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.assoc.AssocFixture;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.cause.UnrecognizedChunkTypeCause;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.DataChunk;
import org.sctpj.stack.wire.chunk.ErrorChunk;
import org.sctpj.stack.wire.chunk.ForwardTsnChunk;
import org.sctpj.stack.wire.chunk.SackChunk;

/**
 * The FORWARD TSN procedure of one association (RFC 3758 sections 3.3, 3.5, 3.6), driven by
 * hand: the chunk is unrecognized unless negotiated; received, it moves the cumulative TSN and
 * draws a SACK at once; sent, it follows an abandonment on T3-rtx expiry (A5), goes ahead of DATA
 * in its packet, repeats on the next lagging SACK only after a round trip, and stops once the
 * peer's cumulative ack caught up.
 */
class ForwardTsnProcedureTest {

    static AssocFixture negotiated() {
        AssocFixture f = AssocFixture.established(SctpOptions.LAN);
        f.tcb().extensions.add(Extension.PR_SCTP); // as if the peer's INIT ACK had announced it
        f.tcb().tx.setPartialReliability(true);
        return f;
    }

    static List<Chunk> chunks(List<AssocFixture.Out> out) {
        List<Chunk> all = new ArrayList<>();
        for (AssocFixture.Out o : out) {
            all.addAll(o.chunks());
        }
        return all;
    }

    @Test
    void withoutPrSctpAForwardTsnIsAnUnrecognizedChunk() {
        AssocFixture f = AssocFixture.established(SctpOptions.LAN);
        f.deliver(f.tcb().localTag, ForwardTsnChunk.of(AssocFixture.PEER_TSN + 5));
        assertEquals(AssocFixture.PEER_TSN - 1, f.tcb().rx.cumulativeTsn(), "nothing moved");
        ErrorChunk e = assertInstanceOf(ErrorChunk.class, f.one().chunks().get(0));
        assertInstanceOf(UnrecognizedChunkTypeCause.class, e.causes().get(0));
    }

    @Test
    void aReceivedForwardTsnMovesTheCumulativeTsnAndIsAcknowledgedLikeData() {
        AssocFixture f = negotiated();
        int t0 = AssocFixture.PEER_TSN;
        f.deliver(f.tcb().localTag, new DataChunk(false, false, true, true, t0 + 1, 1, 1, 0, Bytes.of(new byte[] {1})));
        f.sent(); // the SACK reporting the gap at t0
        f.deliver(f.tcb().localTag, ForwardTsnChunk.of(t0, new ForwardTsnChunk.Entry(1, 0)));
        assertEquals(t0 + 1, f.tcb().rx.cumulativeTsn(), "moved to t0, then on over t0 + 1");
        SackChunk s = assertInstanceOf(SackChunk.class, f.one().chunks().get(0), "the gap closed: SACK at once");
        assertEquals(t0 + 1, s.cumTsnAck());
        assertEquals(1, f.tcb().forwardTsn.forwardTsnsReceived());

        f.deliver(f.tcb().localTag, ForwardTsnChunk.of(t0 + 3));
        assertEquals(t0 + 3, f.tcb().rx.cumulativeTsn());
        assertTrue(f.sent().isEmpty(), "no gap: the delayed SACK rules of DATA apply (RFC 3758 3.6)");
        f.deliver(f.tcb().localTag, ForwardTsnChunk.of(t0 + 2));
        assertEquals(
                t0 + 3,
                assertInstanceOf(SackChunk.class, f.one().chunks().get(0)).cumTsnAck(),
                "an out-of-date one is answered at once");
    }

    @Test
    void anAbandonedMessageIsForwardedOnT3AheadOfNewDataAndOnlyUntilAcknowledged() {
        AssocFixture f = negotiated();
        f.a.send(
                SendInfo.of(2, 0).withPrPolicy(PrPolicy.maxRetransmissions(0)),
                ByteBuffer.wrap(new byte[] {7, 7}),
                f.now);
        DataChunk d = assertInstanceOf(DataChunk.class, f.one().chunks().get(0));
        f.advance(f.a.nextTimeout() - f.now); // T3-rtx expires: the message may not be resent
        List<SctpEvent> failed =
                f.events.stream().filter(e -> e instanceof SctpEvent.SendFailed).toList();
        assertEquals(1, failed.size());
        assertTrue(((SctpEvent.SendFailed) failed.get(0)).abandoned());
        f.a.send(SendInfo.of(2, 0), ByteBuffer.wrap(new byte[] {8}), f.now);
        // (The T3 expiry also made the path Potentially Failed: a HEARTBEAT probes it.)
        List<Chunk> c = chunks(f.sent()).stream()
                .filter(x -> x instanceof ForwardTsnChunk || x instanceof DataChunk)
                .toList();
        ForwardTsnChunk fwd =
                assertInstanceOf(ForwardTsnChunk.class, c.get(0), "FORWARD TSN before DATA (RFC 9260 6.10)");
        assertEquals(d.tsn(), fwd.newCumulativeTsn());
        assertEquals(List.of(new ForwardTsnChunk.Entry(2, d.ssn())), fwd.entries());
        DataChunk next = assertInstanceOf(DataChunk.class, c.get(1));
        assertEquals(d.tsn() + 1, next.tsn());
        assertEquals(2, c.size(), "the lost chunk is not retransmitted");

        f.deliver(f.tcb().localTag, SackChunk.of(d.tsn() - 1, 65536)); // sent before the FORWARD TSN arrived
        assertTrue(
                chunks(f.sent()).stream().noneMatch(x -> x instanceof ForwardTsnChunk),
                "not again within a round trip");
        f.deliver(f.tcb().localTag, SackChunk.of(d.tsn() + 1, 65536));
        assertTrue(f.sent().isEmpty());
        assertTrue(f.tcb().tx.isEmpty());
        assertEquals(1, f.tcb().forwardTsn.status().limitedRetransmissions().sent());
    }

    @Test
    void aSackThatOnlyAcknowledgesAbandonedDataStillShowsThePeerIsAlive() {
        // RFC 9260 section 8.1: the association's error count restarts when data is acknowledged;
        // when all that is acknowledged was abandoned, the peer answered all the same. Without it
        // lost FORWARD TSNs of an association sending only abandonable data would add up to a
        // COMMUNICATION_LOST while the peer keeps answering.
        AssocFixture f = negotiated();
        f.a.send(
                SendInfo.of(2, 0).withPrPolicy(PrPolicy.maxRetransmissions(0)), ByteBuffer.wrap(new byte[] {7}), f.now);
        DataChunk d = assertInstanceOf(DataChunk.class, f.one().chunks().get(0));
        f.advance(f.a.nextTimeout() - f.now);
        assertEquals(1, f.tcb().associationErrors);
        f.sent();
        f.deliver(f.tcb().localTag, SackChunk.of(d.tsn(), 65536));
        assertEquals(d.tsn(), f.tcb().tx.cumulativeAckTsn(), "the SACK was taken");
        assertEquals(0, f.tcb().associationErrors, f.events.toString());
    }

    @Test
    void roomFreedByALifetimeEndingInTheQueueIsAnnouncedLikeAfterASack() {
        // Found by the scenario matrix with policies on: a sender waiting for room (WOULD_BLOCK)
        // was never told that an abandoned message freed it, and the transfer stalled.
        AssocFixture f = negotiated();
        f.a.send(SendInfo.of(1, 0).withPrPolicy(PrPolicy.timeToLive(1)), ByteBuffer.wrap(new byte[] {1, 2, 3}), f.now);
        f.now += 2_000_000; // its lifetime ends before a packet is filled
        f.events.clear();
        assertTrue(chunks(f.sent()).stream().noneMatch(c -> c instanceof DataChunk), "it never goes out");
        assertTrue(f.events.stream().anyMatch(e -> e instanceof SctpEvent.SendFailed));
        assertTrue(
                f.events.stream().anyMatch(e -> e instanceof SctpEvent.SendSpaceAvailable),
                "the room it freed is announced: " + f.events);
    }
}
