package org.sctpj.stack.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.stack.tx.SenderFixture.FULL;
import static org.sctpj.stack.tx.SenderFixture.MS;
import static org.sctpj.stack.tx.SenderFixture.tsn;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.chunk.DataChunk;

/**
 * The interop stall of issue 10 (usrsctp over UDP, our stack sending 1 MiB messages on a loaded
 * machine: "3 echoes of 4 within 30 s", our path PF and back), reduced to the sender: a loss burst
 * puts the sender in Fast Recovery, then T3-rtx expires before the recovery point is acknowledged.
 * The timeout sets cwnd to one MTU and marks every outstanding chunk (RFC 9260 section 6.3.3 E1,
 * E3), after which the sender must slow-start (section 7.2.3). Staying in Fast Recovery forbids
 * any cwnd growth (section 7.2.1: only when "not in Fast Recovery") until the cumulative ack
 * reaches the recovery point, which is the last of the chunks being retransmitted at one MTU per
 * round trip: hundreds of round trips of the peer's delayed SACK (the capture showed one
 * retransmitted chunk per ~250 ms for 616 chunks). A T3-rtx expiry ends Fast Recovery (as Linux
 * does), so the retransmissions speed up in slow start. (Single-path sender; CMT's
 * per-destination Fast Recovery is not changed.)
 */
class T3DuringFastRecoveryTest {

    private static final int CHUNKS = 100;

    @Test
    void aT3ExpiryInFastRecoveryEndsItAndTheRetransmissionsSlowStart() {
        SenderFixture f = SenderFixture.noDelay();
        f.p.setCwnd(CHUNKS * 1500L);
        for (int i = 0; i < CHUNKS; i++) {
            f.send(1, FULL);
        }
        assertEquals(CHUNKS, f.drain(0).size());

        // TSN 1 is lost: three SACKs reporting later TSNs make it a fast retransmit.
        f.sack(tsn(0), 1 << 20, 10 * MS, 2, 2);
        f.sack(tsn(0), 1 << 20, 11 * MS, 2, 3);
        f.sack(tsn(0), 1 << 20, 12 * MS, 2, 4);
        assertTrue(f.tx.inFastRecovery(f.p));
        assertEquals(
                List.of(tsn(1)), f.packet(12 * MS).stream().map(DataChunk::tsn).toList());

        // Then nothing more comes back (a burst of loss, or a loaded peer) until T3-rtx expires.
        long now = f.p.t3Deadline();
        f.tx.onT3Expired(f.p, f.paths, now);
        assertEquals(1500, f.p.cwnd());
        assertEquals(CHUNKS - 4, f.tx.markedForRetransmission(), "everything but the 4 acknowledged");
        assertFalse(f.tx.inFastRecovery(f.p), "T3-rtx ends Fast Recovery: the sender slow-starts");
        assertFalse(f.tx.inFastRecovery());

        // The peer now receives everything and acknowledges every second packet (delayed SACK).
        int rounds = 0;
        while (f.tx.outstandingCount() > 0 && rounds < 1000) {
            rounds++;
            now += 50 * MS;
            List<DataChunk> sent = f.drain(now);
            assertFalse(sent.isEmpty(), "round " + rounds + " sent nothing; " + f.tx);
            for (int k = 1; k < sent.size(); k += 2) {
                f.sack(cumAfter(sent.get(k).tsn()), 1 << 20, now + MS);
            }
            f.sack(cumAfter(sent.get(sent.size() - 1).tsn()), 1 << 20, now + 2 * MS);
        }
        assertEquals(0, f.tx.outstandingCount());
        // Slow start from one MTU (one MTU more per SACK, a SACK per two packets) resends the 96
        // chunks in 13 rounds here; stuck in Fast Recovery at one MTU it took 48 rounds (two
        // chunks per round), and the gap grows with the number of chunks outstanding.
        assertTrue(rounds <= 16, "the " + (CHUNKS - 4) + " retransmissions took " + rounds + " round trips");
    }

    /**
     * The peer's cumulative ack once it has every chunk resent up to {@code tsn} (they go in TSN
     * order): TSN 2 to 4 arrived before the timeout, so TSN 1 completes up to 4.
     */
    private static int cumAfter(int tsn) {
        return tsn == tsn(1) ? tsn(4) : tsn;
    }
}
