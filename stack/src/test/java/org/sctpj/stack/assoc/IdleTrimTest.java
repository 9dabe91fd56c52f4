package org.sctpj.stack.assoc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.DataChunk;

/**
 * An association idle after a burst shrinks back (issue 15): once a heartbeat comes due, the
 * sender lets go of the arrays it pooled during the burst ({@code DataTransfer.trimIfIdle}); while
 * data is outstanding it keeps them.
 */
class IdleTrimTest {

    @Test
    void theFirstHeartbeatAfterABurstEmptiesTheSendPool() {
        AssocFixture f = AssocFixture.established(SctpOptions.LAN);
        for (int i = 0; i < 20; i++) {
            f.a.send(SendInfo.of(0, 0), ByteBuffer.wrap(new byte[1000]), f.now);
        }
        // The window lets a few packets go at a time: acknowledge each flight until all are.
        int last = 0;
        for (int flight = 0; flight < 50 && !f.tcb().tx.isEmpty(); flight++) {
            for (AssocFixture.Out o : f.sent()) {
                for (Chunk c : o.chunks()) {
                    if (c instanceof DataChunk d) {
                        last = d.tsn();
                    }
                }
            }
            assertTrue(last != 0, "DATA went out");
            assertTrue(f.tcb().tx.outstandingCount() > 0);
            f.sack(last);
        }
        f.sent();
        assertTrue(f.tcb().tx.isEmpty(), "all acknowledged");
        long kept = f.tcb().tx.retainedBytes();
        assertTrue(kept >= 20 * 1024, "the burst's 20 arrays are pooled: " + kept);
        f.advance(500_000_000L); // heartbeats come due on the idle path
        List<AssocFixture.Out> hb = f.sent();
        assertTrue(!hb.isEmpty(), "a heartbeat went out");
        assertEquals(0, f.tcb().tx.retainedBytes(), "the idle association kept its burst's arrays");
    }
}
