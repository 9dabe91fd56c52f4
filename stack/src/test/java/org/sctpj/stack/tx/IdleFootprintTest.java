package org.sctpj.stack.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The sender's memory grows with a burst and shrinks back once it is dry (issue 15, cheap
 * associations): the outstanding-chunk ring holds no array before the first chunk and lets its
 * array go when trimmed empty; the per-path arrays of the retransmission queue and of the packet
 * filler hold one entry per path index seen, not one per possible path; the pool lets everything
 * go on {@link DataSender#trimIdle()}, which does nothing while data is queued or outstanding.
 */
class IdleFootprintTest {

    @Test
    void ringGrowsOnDemandAndTrimsWhenEmpty() {
        SentChunkRing r = new SentChunkRing();
        assertEquals(0, r.capacity(), "no array before the first chunk");
        for (int i = 0; i < 100; i++) {
            r.addLast(new SentChunk());
        }
        assertEquals(128, r.capacity());
        r.trim();
        assertEquals(128, r.capacity(), "a ring with chunks keeps its array");
        while (r.size() > 0) {
            r.removeFirst();
        }
        assertEquals(null, r.first());
        r.trim();
        assertEquals(0, r.capacity(), "an empty ring lets its array go");
        r.addLast(new SentChunk());
        assertEquals(16, r.capacity(), "and grows again from 16");
    }

    @Test
    void poolEmptiesOnTrim() {
        SendPool pool = new SendPool(1 << 20);
        for (int i = 0; i < 10; i++) {
            pool.release(pool.array(1000));
            pool.release(new OutboundMessage());
            pool.release(new SentChunk());
        }
        // Ten arrays taken and given back one at a time (one 1 KiB array pooled), 20 objects.
        assertEquals(1024, pool.pooledBytes());
        assertEquals(20, pool.pooledObjects());
        pool.trim();
        assertEquals(0, pool.pooledBytes());
        assertEquals(0, pool.pooledObjects());
    }

    @Test
    void perPathArraysFollowThePathsInUse() {
        TxHarness one = new TxHarness(TxHarness.single(), 1);
        assertEquals(1, one.q.pathSlots(), "a single-homed association: one slot");
        one.sendAlternating(10);
        one.sack(TxHarness.TSN0 + 9);
        assertEquals(1, one.q.pathSlots(), "still one after a SACK");

        TxHarness five = new TxHarness(TxHarness.cmt(false), 5);
        five.sendAlternating(10);
        five.sack(TxHarness.TSN0 + 1, 2, 3);
        assertTrue(five.q.pathSlots() >= 5, "grown to the five paths: " + five.q.pathSlots());
        assertTrue(five.q.pathSlots() < RetransmissionQueue.MAX_PATHS);
        assertTrue(five.q.pendingOn(2), "path 2 still has chunks outstanding");
        assertFalse(five.q.pendingOn(40), "a path index never seen has none");
        assertEquals(0, five.q.newlyAckedBytes(40));
    }

    @Test
    void senderShrinksBackWhenDryAndOnlyThen() {
        SenderFixture f = SenderFixture.noDelay();
        assertEquals(0, f.tx.retainedBytes(), "nothing kept before the first message");
        for (int i = 0; i < 200; i++) {
            f.send(1, 1000);
        }
        assertFalse(f.tx.trimIdle(), "200 messages queued: nothing is trimmed");
        int sent = 0;
        for (long now = 0; sent < 200; now += SenderFixture.MS) {
            int n = f.drain(now).size();
            assertTrue(n > 0, "the window opens after every SACK");
            sent += n;
            assertFalse(f.tx.trimIdle(), "chunks outstanding: nothing is trimmed");
            f.sack(SenderFixture.tsn(sent - 1), 1 << 20, now + SenderFixture.MS / 2);
        }
        assertTrue(f.tx.isEmpty());
        long kept = f.tx.retainedBytes();
        assertTrue(kept > 200 * 1000, "the burst's arrays are pooled: " + kept);
        assertTrue(f.tx.trimIdle());
        assertEquals(0, f.tx.retainedBytes(), "an idle sender keeps nothing of the burst");
        // And it still sends afterwards.
        f.send(1, 500);
        assertEquals(1, f.drain(2 * SenderFixture.MS).size());
    }
}
