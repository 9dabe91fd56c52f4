package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sctpj.sim.LossModel;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;

/**
 * Partial delivery end to end on the simulator (RFC 9260 section 6.9): two endpoints, Z with a
 * 256 KiB receive buffer, A sending messages from 1 byte to 5,000,000 bytes (about twenty times
 * the buffer), ordered and unordered, over four streams at once, with loss. Every message arrives
 * once, intact and in order per stream (the large ones in parts, put together per stream), the
 * association stays up and nothing stalls. Before partial delivery the first message larger than
 * the buffer stopped the association for good.
 */
class PartialDeliverySimulatedTest {

    static final int RECEIVE_BUFFER = 256 << 10;

    @ParameterizedTest
    @CsvSource({"1, 0.0", "2, 0.01", "3, 0.05"})
    void messagesUpToTwentyTimesTheReceiveBufferArriveOnceInOrder(long seed, double loss) {
        SctpOptions sender = SctpOptions.DEFAULTS.toBuilder()
                .sendBufferBytes(16 << 20)
                .maxMessageSize(5_000_000)
                .build();
        SctpOptions receiver = SctpOptions.DEFAULTS.toBuilder()
                .receiveBufferBytes(RECEIVE_BUFFER)
                .build();
        CorePair p = new CorePair(
                seed, 1, sender, receiver, l -> l.delay(Duration.ofMillis(5)).loss(LossModel.bernoulli(loss)));
        Transfer t = new Transfer(seed, 0, 0, 1, false);
        int[] large = {1, 5_000_000, 300_000, 1_000_000, RECEIVE_BUFFER + 1, 5_000_000, 2, 700_000};
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < large.length + 30; i++) {
            int size = i < large.length ? large[i] : 1 + r.nextInt(r.nextBoolean() ? 100 : 30_000);
            t.plan.add(new Transfer.Msg(i, r.nextInt(4), r.nextInt(3) == 0, size));
        }
        t.attach(p);
        p.connectAt(0);
        assertTrue(
                p.sim.runUntil(t::complete, 600_000_000_000L),
                "delivered " + t.deliveredCount + " of " + t.plan.size() + " (sent " + t.sent() + ")");
        assertEquals(0, t.lost());
        assertEquals(0, t.duplicated, "duplicated");
        assertEquals(0, t.misordered, "misordered");
        assertEquals(0, t.corrupted, "corrupted");
        assertTrue(t.partedMessages >= 4, "the large messages came in parts: " + t.partedMessages);
        assertEquals(0, CorePair.count(p.a, SctpEvent.AssociationChangeType.COMMUNICATION_LOST));
        assertEquals(1, p.z.endpoint().associations().size(), "the association is still up");
    }
}
