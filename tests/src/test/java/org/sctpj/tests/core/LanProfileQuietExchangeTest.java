package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;

/**
 * The LAN profile on a quiet exchange: one small message at a time, each answered by nothing but
 * the peer's delayed SACK (RFC 9260 section 6.2). The SACK must arrive before the sender's
 * retransmission timer (section 6.3.1, at least RTO.Min) expires, so no message is sent twice.
 */
class LanProfileQuietExchangeTest {

    static final int MESSAGES = 20;
    static final long GAP_NANOS = 300_000_000L;

    @Test
    void loneMessagesAreAcknowledgedBeforeTheirRetransmissionTimerExpires() {
        CorePair p = new CorePair(7, 1, SctpOptions.LAN, SctpOptions.LAN, l -> l.delay(Duration.ofMillis(1)));
        p.connectAt(0);
        assertTrue(p.sim.runUntil(() -> CorePair.saw(p.a, AssociationChangeType.COMMUNICATION_UP), 1_000_000_000L));
        long start = p.sim.now() + GAP_NANOS;
        for (int i = 0; i < MESSAGES; i++) {
            byte[] m = {(byte) i, 1, 2, 3};
            p.sim.at(start + i * GAP_NANOS, () -> p.a.endpoint()
                    .send(p.assocA, SendInfo.of(0, 0), ByteBuffer.wrap(m), p.sim.now()));
        }
        p.sim.run(start + (MESSAGES + 1) * GAP_NANOS);

        long received = p.z.events().stream()
                .filter(e -> e instanceof SctpEvent.MessageReceived)
                .count();
        assertEquals(MESSAGES, received, "every message delivered");
        AssociationInfo info = p.a.endpoint().info(p.assocA).orElseThrow();
        long retransmitted = info.paths().stream()
                .mapToLong(AssociationInfo.PathInfo::chunksRetransmitted)
                .sum();
        assertEquals(
                0,
                retransmitted,
                "DATA chunks retransmitted on a quiet exchange with the LAN profile (delayed SACK "
                        + SctpOptions.LAN.delayedAckTime() + ", RTO " + SctpOptions.LAN.rtoMin() + ".."
                        + SctpOptions.LAN.rtoMax() + "): " + info);
    }
}
