package org.sctpj.stack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.chunk.DataChunk;
import org.sctpj.stack.wire.chunk.SackChunk;
import org.sctpj.stack.wire.chunk.ShutdownChunk;

/**
 * The calling contract of {@code nextTimeout()} / {@code handleTimeout()}: a deadline that is due
 * fires and is then no longer due at the same instant, whatever the state, so a driver that runs
 * due timers in a loop always gets past them.
 */
class TimerDeadlinesTest {

    @Test
    void aSackOwedWhenTheAssociationReachesShutdownAckSentDoesNotStayDue() {
        ProtocolErrorsTest.Established e = new ProtocolErrorsTest.Established();
        // One message of ours, acknowledged at once: its TSN is what the SHUTDOWN acknowledges.
        e.p.ep.send(e.id, SendInfo.of(0, 0), ByteBuffer.wrap(new byte[] {1}), e.p.now);
        DataChunk ours = ProtocolErrorsTest.find(e.sentChunks(), DataChunk.class);
        e.p.deliver(e.localTag, SackChunk.of(ours.tsn(), 65536));
        e.p.sent();
        // A lone DATA arms the delayed-SACK timer (RFC 9260 section 6.2); the SHUTDOWN that follows
        // acknowledges all of ours, so the association answers with SHUTDOWN ACK and enters
        // SHUTDOWN-ACK-SENT (section 9.2), where no SACK is sent.
        e.p.deliver(
                e.localTag,
                new DataChunk(false, false, true, true, ProtocolErrorsTest.PEER_TSN, 0, 0, 1, Bytes.fromHex("010203")));
        assertTrue(e.p.sent().isEmpty(), "the SACK of a lone DATA waits");
        e.p.deliver(e.localTag, new ShutdownChunk(ours.tsn()));
        e.p.sent();
        assertEquals("SHUTDOWN_ACK_SENT", e.p.ep.info(e.id).orElseThrow().state(), "the test reaches its state");
        for (int fired = 0; fired < 20; fired++) {
            long due = e.p.ep.nextTimeout();
            if (due == Long.MAX_VALUE) {
                return;
            }
            e.p.now = Math.max(e.p.now, due);
            e.p.ep.handleTimeout(e.p.now);
            e.p.sent();
            assertTrue(
                    e.p.ep.nextTimeout() > e.p.now,
                    "deadline " + e.p.ep.nextTimeout() + " still due after handleTimeout(" + e.p.now + ") in "
                            + e.p.ep.info(e.id));
        }
    }
}
