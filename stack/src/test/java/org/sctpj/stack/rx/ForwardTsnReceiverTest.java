package org.sctpj.stack.rx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.rx.DataReceiver.DataResult;
import org.sctpj.stack.rx.DataReceiver.PartialDelivery;
import org.sctpj.stack.rx.DataReceiver.Skip;

/**
 * The receiver's side of a FORWARD TSN (RFC 3758 section 3.6): the cumulative TSN moves, the
 * listed streams go on past the skipped messages, fragments that cannot complete are dropped, a
 * skipped message delivered in parts ends, the SACK goes at once, and hostile values neither throw
 * nor grow memory.
 */
class ForwardTsnReceiverTest {

    private static final int T0 = 1000;
    private static final int B = 0x02;
    private static final int E = 0x01;
    private static final int U = 0x04;

    private static DataReceiver receiver(int rbuf, int pdPoint) {
        SctpOptions o = SctpOptions.WAN.toBuilder()
                .receiveBufferBytes(rbuf)
                .partialDeliveryPoint(pdPoint)
                .delayedAckTime(Duration.ofMillis(200))
                .sackFrequency(2)
                .build();
        return new DataReceiver(o, T0, 10);
    }

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed + i);
        }
        return b;
    }

    private static DataResult on(DataReceiver rx, int tsn, int sid, int ssn, int flags, byte[] data) {
        return rx.onData(tsn, sid, ssn, 99, flags, ByteBuffer.wrap(data), 0, data.length, 0);
    }

    private static List<ReceivedMessage> poll(DataReceiver rx) {
        List<ReceivedMessage> out = new ArrayList<>();
        for (ReceivedMessage m; (m = rx.pollMessage()) != null; ) {
            out.add(m);
        }
        return out;
    }

    private static List<Skip> skip(int sid, int ssn) {
        return List.of(new Skip(sid, false, ssn));
    }

    @Test
    void theCumulativeTsnMovesAndTheListedStreamDeliversWhatItHeld() {
        DataReceiver rx = receiver(100_000, 0);
        // TSN 1000 (stream 0, SSN 0) and 1002 (SSN 2) are lost; 1001 and 1003 arrive.
        on(rx, T0 + 1, 0, 1, B | E, bytes(10, 1));
        on(rx, T0 + 3, 0, 3, B | E, bytes(10, 3));
        rx.onPacketProcessed(true, false, 0);
        poll(rx);
        assertTrue(poll(rx).isEmpty());
        assertEquals(T0 - 1, rx.cumulativeTsn());

        assertTrue(rx.forwardTsn(T0, skip(0, 0), false, 0).isEmpty());
        rx.onPacketProcessed(false, false, 0);
        assertEquals(T0 + 1, rx.cumulativeTsn(), "moved to 1000, then on over 1001 (received)");
        List<ReceivedMessage> got = poll(rx);
        assertEquals(1, got.size());
        assertArrayEquals(bytes(10, 1), got.get(0).data());
        assertTrue(rx.sackNeeded(0), "a gap remains: SACK at once");

        rx.forwardTsn(T0 + 2, skip(0, 2), false, 0);
        rx.onPacketProcessed(false, false, 0);
        assertEquals(T0 + 3, rx.cumulativeTsn());
        assertArrayEquals(bytes(10, 3), poll(rx).get(0).data());
        assertFalse(rx.hasGaps());
        assertEquals(0, rx.bufferedBytes());
        assertEquals(
                DataResult.DUPLICATE, on(rx, T0 + 2, 0, 2, B | E, bytes(10, 2)), "a skipped TSN late is a duplicate");
    }

    @Test
    void anOutOfDateForwardTsnChangesNothingAndIsAnsweredAtOnce() {
        DataReceiver rx = receiver(100_000, 0);
        on(rx, T0, 0, 0, B | E, bytes(10, 1));
        rx.onPacketProcessed(true, false, 0);
        rx.writeSack((cum, rwnd, s, e, n, d, dn) -> {}, 1500);
        assertFalse(rx.sackNeeded(0));
        rx.forwardTsn(T0 - 5, skip(0, 7), false, 0);
        rx.onPacketProcessed(false, false, 0);
        assertEquals(T0, rx.cumulativeTsn());
        assertTrue(rx.sackNeeded(0), "RFC 3758 section 3.6: the SACK may have been lost");
        on(rx, T0 + 1, 0, 1, B | E, bytes(10, 2));
        assertEquals(2, poll(rx).size(), "SSN 1 is still expected: the stale entry did not move the stream");
    }

    @Test
    void fragmentsAtOrBelowTheNewCumulativeTsnAndTheirContinuationsAreDropped() {
        DataReceiver rx = receiver(100_000, 0);
        on(rx, T0, 1, 0, B, bytes(100, 1));
        on(rx, T0 + 1, 1, 0, 0, bytes(100, 2)); // 1002 (the end) is lost
        on(rx, T0 + 4, 1, 1, 0, bytes(100, 3)); // middle of a message whose start (1003) is lost
        on(rx, T0 + 5, 1, 1, E, bytes(100, 4));
        on(rx, T0 + 6, 1, 2, B | E, bytes(100, 5));
        assertEquals(500, rx.bufferedBytes());
        rx.forwardTsn(T0 + 3, skip(1, 1), false, 0);
        assertEquals(0, rx.pendingFragments(), "both skipped messages' fragments are gone");
        assertEquals(T0 + 6, rx.cumulativeTsn());
        List<ReceivedMessage> got = poll(rx);
        assertEquals(1, got.size());
        assertArrayEquals(bytes(100, 5), got.get(0).data());
        assertEquals(0, rx.bufferedBytes());
    }

    @Test
    void aFragmentAfterTheNewCumulativeTsnWhoseStartIsStillToComeIsKept() {
        // Found by the scenario matrix with policies on: the middle of the next message, its
        // first fragment lost, was taken for the rest of the skipped one and dropped, and the
        // message never arrived though every TSN was acknowledged.
        DataReceiver rx = receiver(100_000, 0);
        on(rx, T0, 0, 0, B, bytes(100, 1)); // the abandoned message (its end at T0 + 1 never sent)
        on(rx, T0 + 3, 1, 0, 0, bytes(100, 2)); // the next message: its start (T0 + 2) is lost
        on(rx, T0 + 4, 1, 0, E, bytes(100, 3));
        rx.forwardTsn(T0 + 1, skip(0, 0), false, 0);
        assertEquals(2, rx.pendingFragments(), "the next message's fragments stay");
        on(rx, T0 + 2, 1, 0, B, bytes(100, 4));
        List<ReceivedMessage> got = poll(rx);
        assertEquals(1, got.size());
        assertEquals(300, got.get(0).data().length);
    }

    @Test
    void anUnorderedMessageDoesNotNeedAnEntry() {
        DataReceiver rx = receiver(100_000, 0);
        on(rx, T0, 2, 0, B | U, bytes(50, 1));
        rx.forwardTsn(T0 + 1, List.of(), false, 0);
        assertEquals(0, rx.pendingFragments());
        assertEquals(0, rx.bufferedBytes());
        on(rx, T0 + 2, 2, 0, B | E, bytes(50, 2));
        assertEquals(1, poll(rx).size(), "ordered SSN 0 of the stream still comes");
    }

    @Test
    void aSkippedMessageDeliveredInPartsEndsAndTheStreamGoesOn() {
        DataReceiver rx = receiver(100_000, 1000);
        on(rx, T0, 3, 0, B, bytes(800, 1));
        on(rx, T0 + 1, 3, 0, 0, bytes(800, 2)); // 1600 bytes in sequence: delivered in parts
        List<ReceivedMessage> parts = poll(rx);
        assertFalse(parts.isEmpty());
        assertTrue(parts.get(0).part());
        on(rx, T0 + 4, 3, 1, B | E, bytes(30, 9)); // the next message waits for the first one
        assertTrue(poll(rx).isEmpty());
        List<PartialDelivery> aborted = rx.forwardTsn(T0 + 3, skip(3, 0), false, 0);
        assertEquals(List.of(new PartialDelivery(3, 0, false, 1600)), aborted);
        List<ReceivedMessage> got = poll(rx);
        assertEquals(1, got.size());
        assertArrayEquals(bytes(30, 9), got.get(0).data());
        assertTrue(rx.partialDeliveries().isEmpty());
    }

    @Test
    void aMessageInPartsThatWasNotSkippedGoesOn() {
        DataReceiver rx = receiver(100_000, 1000);
        on(rx, T0 + 1, 3, 0, B, bytes(800, 1));
        on(rx, T0 + 2, 3, 0, 0, bytes(800, 2));
        // TSN 1000 (another stream's message) is skipped; stream 3's message is in parts.
        assertFalse(poll(rx).isEmpty());
        assertTrue(rx.forwardTsn(T0, skip(5, 0), false, 0).isEmpty());
        on(rx, T0 + 3, 3, 0, E, bytes(100, 3));
        List<ReceivedMessage> got = poll(rx);
        assertEquals(1, got.size());
        assertTrue(got.get(0).last());
    }

    @Test
    void hostileValuesNeitherThrowNorGrowMemory() {
        DataReceiver rx = receiver(64_000, 0);
        on(rx, T0 + 2, 1, 5, B | E, bytes(100, 1));
        // A New Cumulative TSN far beyond anything sent: moved by the window only.
        rx.forwardTsn(T0 + (1 << 30), skip(1, 3), false, 0);
        assertEquals(T0 - 1 + DataReceiver.TSN_WINDOW, rx.cumulativeTsn());
        assertTrue(rx.protocolViolations() > 0);
        // A chunk's worth of entries: streams out of range, SSNs all over, repeats.
        SplittableRandom r = new SplittableRandom(7);
        List<Skip> many = new ArrayList<>();
        for (int i = 0; i < 16_382; i++) {
            many.add(new Skip(r.nextInt(65536), false, r.nextInt(65536)));
        }
        int cum = rx.cumulativeTsn();
        for (int k = 0; k < 200; k++) {
            on(rx, cum + 1 + 2 * k + 1, 1 + k % 9, r.nextInt(65536), B | E, bytes(50, k));
        }
        long before = rx.retainedBytes();
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            for (int round = 0; round < 20; round++) {
                rx.forwardTsn(rx.cumulativeTsn() + 1 + round, many, false, 0);
                poll(rx);
            }
        });
        assertTrue(rx.retainedBytes() <= Math.max(before, 200_000), "retained " + rx.retainedBytes());
        assertTrue(rx.bufferedBytes() <= 64_000);
        assertNull(rx.pollMessage());
    }
}
