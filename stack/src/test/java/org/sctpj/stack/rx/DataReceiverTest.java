package org.sctpj.stack.rx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.rx.DataReceiver.DataResult;

class DataReceiverTest {

    private static final long MS = 1_000_000L;
    private static final int T0 = 0xFFFFFFF0;
    private static final int B = 0x02;
    private static final int E = 0x01;
    private static final int U = 0x04;
    private static final int I = 0x08;

    private static SctpOptions options(int rbuf) {
        return SctpOptions.WAN.toBuilder()
                .receiveBufferBytes(rbuf)
                .delayedAckTime(Duration.ofMillis(200))
                .sackFrequency(2)
                .build();
    }

    private static DataReceiver receiver(int rbuf) {
        return new DataReceiver(options(rbuf), T0, 10);
    }

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed + i);
        }
        return b;
    }

    private static DataResult on(DataReceiver rx, int tsn, int sid, int ssn, int flags, byte[] data) {
        // user data placed at offset 5 of a larger buffer, as inside a packet
        ByteBuffer buf = ByteBuffer.allocate(data.length + 9);
        buf.position(5);
        buf.put(data);
        buf.position(0);
        return rx.onData(tsn, sid, ssn, 99, flags, buf, 5, data.length, 0);
    }

    /** A SACK captured from writeSack. */
    private record Sack(int cum, long rwnd, int[] starts, int[] ends, int[] dups) {}

    private static Sack sack(DataReceiver rx, int maxBytes) {
        Sack[] out = new Sack[1];
        rx.writeSack(
                (cum, rwnd, s, e, n, d, dn) ->
                        out[0] = new Sack(cum, rwnd, Arrays.copyOf(s, n), Arrays.copyOf(e, n), Arrays.copyOf(d, dn)),
                maxBytes);
        return out[0];
    }

    @Test
    void inOrderDataIsAckedEverySecondPacketOrWhenTheDelayedAckTimerExpires() {
        DataReceiver rx = receiver(10_000);
        assertEquals(DataResult.NEW, on(rx, T0, 1, 0, B | E, bytes(100, 1)));
        rx.onPacketProcessed(true, false, 0);
        assertFalse(rx.sackNeeded(0));
        assertEquals(200 * MS, rx.sackDeadline());
        assertFalse(rx.sackNeeded(199 * MS));
        assertTrue(rx.sackNeeded(200 * MS));
        on(rx, T0 + 1, 1, 1, B | E, bytes(100, 2));
        rx.onPacketProcessed(true, false, 10 * MS);
        assertTrue(rx.sackNeeded(10 * MS), "second packet with DATA");
        Sack s = sack(rx, 1400);
        assertEquals(T0 + 1, s.cum());
        assertEquals(10_000 - 200, s.rwnd());
        assertEquals(0, s.starts().length);
        assertFalse(rx.sackNeeded(10 * MS));
        assertEquals(Long.MAX_VALUE, rx.sackDeadline());
        assertArrayEquals(bytes(100, 1), rx.pollMessage().data());
        assertArrayEquals(bytes(100, 2), rx.pollMessage().data());
        assertNull(rx.pollMessage());
        assertEquals(0, rx.bufferedBytes());
    }

    @Test
    void theIBitOrARequestMakesTheSackImmediate() {
        DataReceiver rx = receiver(10_000);
        on(rx, T0, 1, 0, B | E | I, bytes(10, 1));
        rx.onPacketProcessed(true, false, 0);
        assertTrue(rx.sackNeeded(0));
        sack(rx, 1400);
        on(rx, T0 + 1, 1, 1, B | E, bytes(10, 1));
        rx.onPacketProcessed(true, true, 0);
        assertTrue(rx.sackNeeded(0));
    }

    @Test
    void gapsAcrossTheTsnWrapAndDuplicatesAreReportedAtOnce() {
        DataReceiver rx = receiver(100_000);
        on(rx, T0, 1, 0, B | E, bytes(10, 0));
        rx.onPacketProcessed(true, false, 0);
        assertFalse(rx.sackNeeded(0));
        on(rx, T0 + 15, 2, 0, B | E, bytes(10, 0));
        on(rx, T0 + 16, 3, 0, B | E, bytes(10, 0));
        on(rx, T0 + 18, 4, 0, B | E, bytes(10, 0));
        rx.onPacketProcessed(true, false, MS);
        assertTrue(rx.hasGaps());
        assertTrue(rx.sackNeeded(MS), "out of order: SACK at once");
        assertEquals(DataResult.DUPLICATE, on(rx, T0, 1, 0, B | E, bytes(10, 0)));
        assertEquals(DataResult.DUPLICATE, on(rx, T0 + 16, 3, 0, B | E, bytes(10, 0)));
        rx.onPacketProcessed(true, false, MS);
        Sack s = sack(rx, 1400);
        assertEquals(T0, s.cum());
        assertArrayEquals(new int[] {15, 18}, s.starts());
        assertArrayEquals(new int[] {16, 18}, s.ends());
        assertArrayEquals(new int[] {T0, 0}, s.dups());
        assertEquals(0, rx.pendingDuplicates());

        for (int i = 1; i < 15; i++) {
            on(rx, T0 + i, 5, i - 1, B | E, bytes(1, 0));
        }
        rx.onPacketProcessed(true, false, 2 * MS);
        assertTrue(rx.sackNeeded(2 * MS), "gap still there");
        sack(rx, 1400);
        on(rx, T0 + 17, 6, 0, B | E, bytes(1, 0));
        assertFalse(rx.hasGaps());
        assertEquals(2, rx.cumulativeTsn());
        rx.onPacketProcessed(true, false, 3 * MS);
        assertTrue(rx.sackNeeded(3 * MS), "a gap just closed: SACK at once");
    }

    @Test
    void sackContentIsBoundedByTheRoomGiven() {
        DataReceiver rx = receiver(100_000);
        for (int i = 0; i < 10; i++) {
            on(rx, T0 + 2 * i + 1, 1, 0, U | B | E, bytes(1, 0));
        }
        on(rx, T0 + 1, 1, 0, U | B | E, bytes(1, 0));
        on(rx, T0 + 3, 1, 0, U | B | E, bytes(1, 0));
        Sack s = sack(rx, 16 + 4 * 3);
        assertEquals(T0 - 1, s.cum());
        assertEquals(3, s.starts().length);
        assertEquals(0, s.dups().length);
        assertEquals(0, rx.pendingDuplicates(), "duplicates are reported once at most");
        on(rx, T0 + 3, 1, 0, U | B | E, bytes(1, 0));
        s = sack(rx, 16 + 4 * 11);
        assertEquals(10, s.starts().length);
        assertArrayEquals(new int[] {T0 + 3}, s.dups());
    }

    @Test
    void anInvalidStreamIsAcknowledgedButNotDelivered() {
        DataReceiver rx = receiver(10_000);
        assertEquals(DataResult.INVALID_STREAM, on(rx, T0, 10, 0, B | E, bytes(5, 0)));
        assertEquals(T0, rx.cumulativeTsn());
        assertNull(rx.pollMessage());
        assertEquals(0, rx.bufferedBytes());
    }

    @Test
    void fragmentsAreReassembledInAndOutOfOrder() {
        DataReceiver rx = receiver(100_000);
        on(rx, T0, 1, 0, B, bytes(100, 0));
        on(rx, T0 + 1, 1, 0, 0, bytes(100, 100));
        assertNull(rx.pollMessage());
        on(rx, T0 + 2, 1, 0, E, bytes(50, 200));
        ReceivedMessage m = rx.pollMessage();
        assertEquals(250, m.data().length);
        assertArrayEquals(bytes(250, 0), m.data());
        assertEquals(99, m.ppid());
        assertEquals(1, m.streamId());

        // E first, then B, then the middle: across the TSN wrap (T0 + 16 == 0).
        on(rx, T0 + 17, 1, 1, E, bytes(10, 20));
        on(rx, T0 + 15, 1, 1, B, bytes(10, 0));
        assertEquals(2, rx.pendingFragments());
        assertNull(rx.pollMessage());
        on(rx, T0 + 16, 1, 1, 0, bytes(10, 10));
        assertArrayEquals(bytes(30, 0), rx.pollMessage().data());
        assertEquals(0, rx.pendingFragments());
        assertEquals(0, rx.bufferedBytes());
    }

    @Test
    void orderedMessagesWaitForTheirSsnAndUnorderedOnesDoNot() {
        DataReceiver rx = receiver(100_000);
        on(rx, T0 + 1, 1, 1, B | E, bytes(3, 1));
        on(rx, T0 + 2, 1, 0, U | B | E, bytes(3, 2));
        on(rx, T0 + 3, 2, 0, B | E, bytes(3, 3));
        ReceivedMessage m = rx.pollMessage();
        assertTrue(m.unordered());
        assertArrayEquals(bytes(3, 2), m.data());
        assertArrayEquals(bytes(3, 3), rx.pollMessage().data(), "stream 2 is not blocked by stream 1");
        assertNull(rx.pollMessage(), "stream 1 waits for SSN 0");
        on(rx, T0, 1, 0, B | E, bytes(3, 0));
        assertArrayEquals(bytes(3, 0), rx.pollMessage().data());
        assertArrayEquals(bytes(3, 1), rx.pollMessage().data());
        assertNull(rx.pollMessage());
    }

    @Test
    void interleavedStreamsWithFragmentsArriveWholeAndInOrder() {
        DataReceiver rx = receiver(100_000);
        // stream 1 message in 3 fragments (T0..T0+2), stream 2 single (T0+3), stream 1 ssn 1 in 2 (T0+4,5)
        on(rx, T0 + 5, 1, 1, E, bytes(4, 4));
        on(rx, T0 + 3, 2, 0, B | E, bytes(7, 0));
        on(rx, T0 + 1, 1, 0, 0, bytes(4, 4));
        on(rx, T0 + 4, 1, 1, B, bytes(4, 0));
        assertEquals(2, rx.pollMessage().streamId());
        assertNull(rx.pollMessage());
        on(rx, T0, 1, 0, B, bytes(4, 0));
        on(rx, T0 + 2, 1, 0, E, bytes(4, 8));
        assertArrayEquals(bytes(12, 0), rx.pollMessage().data());
        assertArrayEquals(bytes(8, 0), rx.pollMessage().data());
        assertEquals(0, rx.protocolViolations());
    }

    @Test
    void contradictingFragmentsAreDroppedAndCounted() {
        DataReceiver rx = receiver(100_000);
        on(rx, T0, 1, 0, B | E, bytes(4, 0));
        assertEquals(DataResult.NEW, on(rx, T0 + 1, 1, 1, E, bytes(4, 0)), "an end without its beginning");
        assertEquals(1, rx.protocolViolations());
        on(rx, T0 + 2, 1, 1, B, bytes(4, 0));
        assertEquals(DataResult.NEW, on(rx, T0 + 3, 2, 1, E, bytes(4, 0)), "another stream in the run");
        assertEquals(2, rx.protocolViolations());
        assertEquals(T0 + 3, rx.cumulativeTsn(), "the TSNs are acknowledged all the same");
        rx.pollMessage();
        assertNull(rx.pollMessage());
    }

    @Test
    void aFullBufferDropsInOrderDataButAcceptsHoleFillsUpToTwiceTheBuffer() {
        DataReceiver rx = receiver(3000);
        assertEquals(DataResult.NEW, on(rx, T0, 1, 0, B | E, bytes(1000, 0)));
        assertEquals(DataResult.NEW, on(rx, T0 + 2, 1, 2, B | E, bytes(1000, 0)));
        assertEquals(DataResult.NEW, on(rx, T0 + 3, 1, 3, B | E, bytes(1000, 0)));
        assertEquals(0, rx.aRwnd());
        assertEquals(DataResult.DROPPED_NO_ROOM, on(rx, T0 + 4, 1, 4, B | E, bytes(1000, 0)));
        assertFalse(rx.cumulativeTsn() == T0 + 4);
        rx.onPacketProcessed(true, false, 0);
        assertTrue(rx.sackNeeded(0));
        assertEquals(DataResult.NEW, on(rx, T0 + 1, 1, 1, B | E, bytes(1000, 0)), "the hole that unblocks");
        assertEquals(T0 + 3, rx.cumulativeTsn());
        assertEquals(4000, rx.bufferedBytes());
        assertEquals(0, rx.aRwnd());
        Sack s = sack(rx, 1400);
        assertEquals(0, s.rwnd());
        rx.pollMessage();
        assertFalse(rx.sackNeeded(0), "still zero window: no update yet");
        rx.pollMessage();
        assertTrue(rx.sackNeeded(0), "the window opened from zero");
    }

    @Test
    void withDeferredReleaseDeliveredBytesCloseTheWindowUntilTheApplicationReleasesThem() {
        SctpOptions o = options(3000).toBuilder().deferredReceiveRelease(true).build();
        DataReceiver rx = new DataReceiver(o, T0, 10);
        for (int i = 0; i < 3; i++) {
            assertEquals(DataResult.NEW, on(rx, T0 + i, 1, i, B | E, bytes(1000, i)));
        }
        rx.onPacketProcessed(true, false, 0);
        sack(rx, 1400);
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(bytes(1000, i), rx.pollMessage().data());
        }
        assertEquals(0, rx.aRwnd(), "delivered but not released: still counted");
        assertEquals(3000, rx.heldBytes());
        assertFalse(rx.sackNeeded(0), "nothing was released: no window update");
        assertEquals(DataResult.DROPPED_NO_ROOM, on(rx, T0 + 3, 1, 3, B | E, bytes(1000, 3)), "the peer must wait");
        rx.onPacketProcessed(true, false, 0);
        sack(rx, 1400);
        rx.release(500);
        assertEquals(500, rx.aRwnd());
        assertTrue(rx.sackNeeded(0), "the window opened from zero");
        sack(rx, 1400);
        rx.release(100);
        assertFalse(rx.sackNeeded(0), "100 bytes more is less than a quarter of the buffer");
        rx.release(1_000_000);
        assertEquals(0, rx.heldBytes(), "at most what is held is released");
        assertEquals(3000, rx.aRwnd());
        assertTrue(rx.sackNeeded(0), "the window grew by more than a quarter");
        assertEquals(DataResult.NEW, on(rx, T0 + 3, 1, 3, B | E, bytes(1000, 3)), "room again");
    }

    @Test
    void withoutDeferredReleaseAReleaseChangesNothing() {
        DataReceiver rx = receiver(3000);
        on(rx, T0, 1, 0, B | E, bytes(1000, 0));
        rx.pollMessage();
        assertEquals(3000, rx.aRwnd());
        rx.release(1000);
        assertEquals(3000, rx.aRwnd());
        assertEquals(0, rx.heldBytes());
    }

    @Test
    void aHostileSenderCannotGrowMemoryBeyondTheBounds() {
        int rbuf = 20_000;
        DataReceiver rx = receiver(rbuf);
        SplittableRandom r = new SplittableRandom(3);
        int cum = T0 - 1;
        int accepted = 0;
        for (int i = 0; i < 200_000; i++) {
            int tsn = cum + 1 + (r.nextInt(4) == 0 ? r.nextInt() : r.nextInt(70_000));
            int flags = r.nextInt(16);
            int len = 1 + r.nextInt(r.nextInt(20) == 0 ? 5000 : 50);
            DataResult res = on(rx, tsn, r.nextInt(12), r.nextInt(65536), flags, new byte[len]);
            if (res == DataResult.NEW) {
                accepted++;
            }
            assertTrue(rx.bufferedBytes() <= 2L * rbuf, "bytes held " + rx.bufferedBytes());
            assertTrue(rx.pendingFragments() <= DataReceiver.TSN_WINDOW);
        }
        assertTrue(accepted > 0);
        assertTrue(rx.droppedChunks() > 0);
        int drained = 0;
        while (rx.pollMessage() != null) {
            drained++;
        }
        assertTrue(rx.bufferedBytes() <= 2L * rbuf);
        assertTrue(drained >= 0);
    }
}
