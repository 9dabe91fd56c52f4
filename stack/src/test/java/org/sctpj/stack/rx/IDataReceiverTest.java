package org.sctpj.stack.rx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.rx.DataReceiver.DataResult;

/**
 * The I-DATA receive side (RFC 8260 section 2.1): reassembly by (stream, U, MID) and FSN, ordered
 * delivery by MID per stream, unordered at once, partial delivery per stream, both fragment
 * numberings seen in the field, hostile input, and the I-FORWARD-TSN skip (section 2.3.2).
 */
class IDataReceiverTest {

    private static final int T0 = 0xFFFFFFF0; // wraps during the tests
    private static final int B = 0x02;
    private static final int E = 0x01;
    private static final int U = 0x04;

    private static SctpOptions options(int rbuf, int pdPoint) {
        return SctpOptions.WAN.toBuilder()
                .receiveBufferBytes(rbuf)
                .partialDeliveryPoint(pdPoint)
                .delayedAckTime(Duration.ofMillis(200))
                .build();
    }

    private static DataReceiver receiver(int rbuf, int pdPoint) {
        DataReceiver rx = new DataReceiver(options(rbuf, pdPoint), T0, 10);
        rx.useIData();
        return rx;
    }

    private static byte[] bytes(int n, int seed) {
        return ReassemblyTest.bytes(n, seed);
    }

    private static void assertPpids(List<ReceivedMessage> got, int... ppids) {
        assertEquals(ppids.length, got.size(), "messages: " + got);
        for (int i = 0; i < ppids.length; i++) {
            assertEquals(ppids[i], got.get(i).ppid());
        }
    }

    /** One I-DATA chunk; {@code ppidOrFsn} is the PPID with B, else the FSN. */
    private static DataResult on(DataReceiver rx, int tsn, int sid, int mid, int ppidOrFsn, int flags, byte[] data) {
        ByteBuffer buf = ByteBuffer.allocate(data.length + 9);
        buf.position(3);
        buf.put(data);
        buf.position(0);
        DataResult r = rx.onIData(tsn, sid, mid, ppidOrFsn, flags, buf, 3, data.length, 0);
        rx.onPacketProcessed(true, false, 0);
        return r;
    }

    private static List<ReceivedMessage> poll(DataReceiver rx) {
        List<ReceivedMessage> out = new ArrayList<>();
        for (ReceivedMessage m; (m = rx.pollMessage()) != null; ) {
            out.add(m);
        }
        return out;
    }

    private static byte[] cat(byte[]... parts) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            o.writeBytes(p);
        }
        return o.toByteArray();
    }

    @Test
    void fragmentsInOrderMakeOneMessageWithTheFirstFragmentsPpid() {
        DataReceiver rx = receiver(100_000, 0);
        byte[] a = bytes(100, 1), b = bytes(100, 2), c = bytes(50, 3);
        assertEquals(DataResult.NEW, on(rx, T0, 3, 0, 4242, B, a));
        assertEquals(DataResult.NEW, on(rx, T0 + 1, 3, 0, 1, 0, b));
        assertTrue(poll(rx).isEmpty());
        assertEquals(2, rx.pendingFragments());
        assertEquals(DataResult.NEW, on(rx, T0 + 2, 3, 0, 2, E, c));
        List<ReceivedMessage> got = poll(rx);
        assertEquals(1, got.size());
        assertEquals(4242, got.get(0).ppid());
        assertEquals(3, got.get(0).streamId());
        assertArrayEquals(cat(a, b, c), got.get(0).data());
        assertEquals(0, rx.pendingFragments());
        assertEquals(0, rx.bufferedBytes());
        assertEquals(0, rx.protocolViolations());
    }

    @Test
    void fragmentsOutOfOrderAreSortedByFsnNotByTsn() {
        DataReceiver rx = receiver(100_000, 0);
        byte[] a = bytes(10, 1), b = bytes(20, 2), c = bytes(30, 3), d = bytes(40, 4);
        on(rx, T0 + 3, 0, 0, 3, E, d);
        on(rx, T0 + 1, 0, 0, 1, 0, b);
        on(rx, T0 + 2, 0, 0, 2, 0, c);
        assertTrue(poll(rx).isEmpty(), "no first fragment yet");
        on(rx, T0, 0, 0, 7, B, a);
        List<ReceivedMessage> got = poll(rx);
        assertEquals(1, got.size());
        assertArrayEquals(cat(a, b, c, d), got.get(0).data());
    }

    @Test
    void interleavedStreamsReassembleSeparatelyAndTheShortMessageIsNotHeldBack() {
        DataReceiver rx = receiver(100_000, 0);
        byte[] big0 = bytes(1000, 1), big1 = bytes(1000, 2), big2 = bytes(1000, 3);
        byte[] small = bytes(100, 9);
        on(rx, T0, 0, 0, 1, B, big0);
        on(rx, T0 + 1, 1, 0, 2, B | E, small); // another stream's whole message between fragments
        List<ReceivedMessage> first = poll(rx);
        assertEquals(1, first.size());
        assertEquals(1, first.get(0).streamId());
        assertArrayEquals(small, first.get(0).data());
        on(rx, T0 + 2, 0, 0, 1, 0, big1);
        on(rx, T0 + 3, 0, 0, 2, E, big2);
        List<ReceivedMessage> then = poll(rx);
        assertEquals(1, then.size());
        assertArrayEquals(cat(big0, big1, big2), then.get(0).data());
    }

    @Test
    void orderedMessagesAreDeliveredByMidPerStreamAndOtherStreamsGoOn() {
        DataReceiver rx = receiver(100_000, 0);
        on(rx, T0 + 1, 0, 1, 11, B | E, bytes(10, 1)); // MID 1 before MID 0
        on(rx, T0 + 2, 1, 0, 12, B | E, bytes(10, 2)); // stream 1 is not held back by stream 0
        List<ReceivedMessage> got = poll(rx);
        assertEquals(1, got.size());
        assertEquals(1, got.get(0).streamId());
        on(rx, T0, 0, 0, 10, B | E, bytes(10, 0));
        assertPpids(poll(rx), 10, 11);
    }

    @Test
    void unorderedMessagesAreDeliveredWhenCompleteWhateverTheOrderedMids() {
        DataReceiver rx = receiver(100_000, 0);
        on(rx, T0 + 1, 0, 1, 11, B | E, bytes(10, 1)); // ordered MID 1, waits for MID 0
        on(rx, T0 + 2, 0, 5, 20, B | U, bytes(10, 2)); // unordered MID 5, own counter
        on(rx, T0 + 3, 0, 5, 1, E | U, bytes(10, 3));
        List<ReceivedMessage> got = poll(rx);
        assertEquals(1, got.size());
        assertTrue(got.get(0).unordered());
        assertArrayEquals(cat(bytes(10, 2), bytes(10, 3)), got.get(0).data());
        // the unordered MID 0 and the ordered MID 0 are different messages
        on(rx, T0 + 4, 0, 0, 30, B | E | U, bytes(10, 4));
        assertEquals(1, poll(rx).size());
        on(rx, T0 + 5, 0, 0, 10, B | E, bytes(10, 5));
        assertPpids(poll(rx), 10, 11);
    }

    @Test
    void midsWrapAt32Bits() {
        DataReceiver rx = receiver(100_000, 0);
        // the first ordered MID expected is 0: walk it to 0xFFFFFFFF with two skips (each less
        // than half the number space ahead, else it would be behind in serial arithmetic)
        rx.skipIData(0, false, 0x7FFFFFFEL);
        rx.skipIData(0, false, 0xFFFFFFFEL);
        on(rx, T0 + 1, 0, 0, 2, B | E, bytes(5, 2)); // MID 0 after the wrap: waits for 0xFFFFFFFF
        assertTrue(poll(rx).isEmpty());
        on(rx, T0, 0, 0xFFFFFFFF, 1, B | E, bytes(5, 1));
        assertPpids(poll(rx), 1, 2);
    }

    @Test
    void aLargeMessageIsDeliveredInPartsWhileOtherStreamsFlow() {
        DataReceiver rx = receiver(64_000, 4_000);
        List<byte[]> frags = new ArrayList<>();
        int tsn = T0;
        for (int f = 0; f < 20; f++) {
            byte[] d = bytes(1000, f);
            frags.add(d);
            int flags = (f == 0 ? B : 0) | (f == 19 ? E : 0);
            on(rx, tsn++, 0, 0, f == 0 ? 77 : f, flags, d);
            if (f == 5) {
                // a message of stream 1 arrives while stream 0's is delivered in parts
                on(rx, tsn++, 1, 0, 78, B | E, bytes(10, 50));
            }
        }
        ByteArrayOutputStream whole = new ByteArrayOutputStream();
        boolean sawOther = false;
        boolean sawLast = false;
        int parts = 0;
        for (ReceivedMessage m : poll(rx)) {
            if (m.streamId() == 1) {
                sawOther = true;
                assertFalse(sawLast, "stream 1 is not held until stream 0's message ends");
                continue;
            }
            assertTrue(m.part());
            parts++;
            whole.writeBytes(m.data());
            sawLast |= m.last();
        }
        assertTrue(sawOther);
        assertTrue(sawLast);
        assertTrue(parts >= 2, "parts: " + parts);
        assertArrayEquals(cat(frags.toArray(new byte[0][])), whole.toByteArray());
        assertEquals(0, rx.bufferedBytes());
        assertTrue(rx.partialDeliveries().isEmpty());
    }

    @Test
    void partialDeliveryStartsOnlyForTheNextMidOfItsStream() {
        DataReceiver rx = receiver(64_000, 1_000);
        on(rx, T0, 0, 1, 1, B, bytes(2000, 1)); // MID 1 over the partial delivery point, MID 0 missing
        on(rx, T0 + 1, 0, 1, 1, 0, bytes(2000, 2));
        assertTrue(poll(rx).isEmpty());
        assertTrue(rx.partialDeliveries().isEmpty());
        on(rx, T0 + 2, 0, 0, 9, B | E, bytes(5, 3));
        on(rx, T0 + 3, 0, 1, 2, 0, bytes(2000, 4)); // the next fragment starts the parts
        List<ReceivedMessage> got = poll(rx);
        assertEquals(9, got.get(0).ppid());
        assertFalse(got.get(0).part());
        assertTrue(got.get(1).part());
        assertEquals(1, rx.partialDeliveries().size());
        assertEquals(1, rx.partialDeliveries().get(0).ssn(), "the MID");
    }

    @Test
    void aFirstFragmentAlreadyHandedOutStillProvesTheNumberingOfTheNext() {
        // The first fragment alone reaches the partial delivery point and is handed out before
        // the next one arrives: the proof of the numbering then needs its TSN all the same.
        DataReceiver rx = receiver(64_000, 1_000);
        on(rx, T0, 0, 0, 1, B, bytes(2000, 1));
        assertTrue(poll(rx).get(0).part());
        on(rx, T0 + 1, 0, 0, 1, 0, bytes(2000, 2));
        on(rx, T0 + 2, 0, 0, 2, E, bytes(2000, 3));
        List<ReceivedMessage> got = poll(rx);
        assertEquals(2, got.size());
        assertArrayEquals(bytes(2000, 2), got.get(0).data());
        assertTrue(got.get(1).last());
    }

    @Test
    void theLinux61NumberingOfFragmentsIsUnderstood() {
        // Linux 6.1 numbers the fragment after the first FSN 0, then 1, 2 (RFC 8260: 1, 2, 3), as
        // the kernel's 4000-byte message in the corpus shows: B (PPID 1000), FSN 0, FSN 1 + E.
        DataReceiver rx = receiver(100_000, 0);
        byte[] a = bytes(1440, 1), b = bytes(1440, 2), c = bytes(1120, 3);
        on(rx, T0, 0, 0, 1000, B, a);
        on(rx, T0 + 1, 0, 0, 0, 0, b);
        on(rx, T0 + 2, 0, 0, 1, E, c);
        List<ReceivedMessage> got = poll(rx);
        assertEquals(1, got.size());
        assertArrayEquals(cat(a, b, c), got.get(0).data());
        assertEquals(0, rx.protocolViolations());
    }

    @Test
    void aLostLinuxSecondFragmentIsWaitedForNotSkipped() {
        // With the Linux numbering, B and FSN 1 + E without FSN 0 are not a message: the fragment
        // in between (FSN 0) was lost. It must not be delivered as the RFC's B, FSN 1.
        DataReceiver rx = receiver(100_000, 0);
        byte[] a = bytes(100, 1), b = bytes(100, 2), c = bytes(100, 3);
        on(rx, T0, 0, 0, 1000, B, a);
        on(rx, T0 + 2, 0, 0, 1, E, c);
        assertTrue(poll(rx).isEmpty(), "TSN " + (T0 + 1) + " may be its FSN 0");
        on(rx, T0 + 1, 0, 0, 0, 0, b); // the retransmission
        List<ReceivedMessage> got = poll(rx);
        assertEquals(1, got.size());
        assertArrayEquals(cat(a, b, c), got.get(0).data());
    }

    @Test
    void rfcNumberingIsProvedOnceTheTsnsBetweenArrived() {
        // B at T0, FSN 1 + E at T0+2; T0+1 (another stream's chunk) is late. Until it arrives the
        // FSN 1 fragment might be Linux's third fragment; once it is in, the message is complete.
        DataReceiver rx = receiver(100_000, 0);
        byte[] a = bytes(100, 1), c = bytes(100, 3);
        on(rx, T0, 0, 0, 1000, B, a);
        on(rx, T0 + 2, 0, 0, 1, E, c);
        assertTrue(poll(rx).isEmpty());
        on(rx, T0 + 1, 4, 0, 5, B | E, bytes(3, 9)); // the late TSN, a message of stream 4
        List<ReceivedMessage> got = poll(rx);
        assertEquals(2, got.size());
        assertEquals(4, got.get(0).streamId());
        assertArrayEquals(cat(a, c), got.get(1).data());
        // from now on the peer is known to number as the RFC says: no wait for the TSNs between
        on(rx, T0 + 3, 0, 1, 1001, B, a);
        on(rx, T0 + 5, 0, 1, 1, E, c);
        assertEquals(1, poll(rx).size());
    }

    @Test
    void anFsnZeroInsideAnRfcNumberedRunIsAViolationNotPartOfTheMessage() {
        DataReceiver rx = receiver(100_000, 0);
        on(rx, T0, 0, 0, 1000, B, bytes(10, 1));
        on(rx, T0 + 1, 0, 0, 1, 0, bytes(10, 2)); // proves the RFC numbering: B, FSN 1 adjacent
        on(rx, T0 + 2, 0, 0, 0, 0, bytes(10, 3)); // an FSN 0 now cannot belong in the run
        assertEquals(1, rx.protocolViolations());
        on(rx, T0 + 3, 0, 0, 2, E, bytes(10, 4));
        List<ReceivedMessage> got = poll(rx);
        assertEquals(1, got.size());
        assertArrayEquals(
                cat(bytes(10, 1), bytes(10, 2), bytes(10, 4)), got.get(0).data());
    }

    @Test
    void contradictingFragmentsAreDroppedAndCountedNeverThrown() {
        DataReceiver rx = receiver(100_000, 0);
        on(rx, T0, 0, 0, 1, B, bytes(10, 1));
        on(rx, T0 + 1, 0, 0, 1, 0, bytes(10, 2));
        long held = rx.bufferedBytes();
        assertEquals(DataResult.NEW, on(rx, T0 + 2, 0, 0, 1, 0, bytes(10, 3)), "the same FSN again");
        assertEquals(DataResult.NEW, on(rx, T0 + 3, 0, 0, 1, B, bytes(10, 4)), "a second first fragment");
        assertEquals(DataResult.NEW, on(rx, T0 + 4, 0, 0, 0, B | E, bytes(10, 5)), "a whole message, same MID");
        on(rx, T0 + 5, 0, 0, 5, E, bytes(10, 6)); // the last fragment is FSN 5
        assertEquals(DataResult.NEW, on(rx, T0 + 6, 0, 0, 9, 0, bytes(10, 7)), "after the last");
        assertEquals(DataResult.NEW, on(rx, T0 + 7, 0, 0, 6, E, bytes(10, 8)), "a second last");
        assertEquals(5, rx.protocolViolations());
        assertEquals(held + 10, rx.bufferedBytes(), "only the first last fragment was kept");
        assertTrue(poll(rx).isEmpty());
        // a delivered ordered MID again
        on(rx, T0 + 8, 1, 0, 1, B | E, bytes(10, 9));
        assertEquals(1, poll(rx).size());
        on(rx, T0 + 9, 1, 0, 1, B | E, bytes(10, 9));
        assertTrue(poll(rx).isEmpty());
        assertEquals(6, rx.protocolViolations());
    }

    @Test
    void hostileFragmentsNeverThrowNorHoldMoreThanTwiceTheBuffer() {
        int rbuf = 20_000;
        DataReceiver rx = receiver(rbuf, 0);
        SplittableRandom r = new SplittableRandom(7);
        int tsn = T0;
        for (int k = 0; k < 20_000; k++) {
            int flags = r.nextInt(16);
            int mid = r.nextBoolean() ? r.nextInt(4) : r.nextInt();
            int fsn = r.nextBoolean() ? r.nextInt(8) : r.nextInt();
            int len = 1 + r.nextInt(r.nextInt(10) == 0 ? 3000 : 40);
            int t = r.nextInt(5) == 0 ? tsn - r.nextInt(50) : tsn++;
            on(rx, t, r.nextInt(12), mid, fsn, flags, bytes(len, k));
            poll(rx);
            assertTrue(rx.bufferedBytes() <= 2L * rbuf + 3000, "held " + rx.bufferedBytes());
            assertTrue(rx.pendingFragments() <= 2 * rbuf);
        }
    }

    @Test
    void hostileFragmentsWithPartialDeliveryNeverThrowNorHoldMoreThanTwiceTheBuffer() {
        int rbuf = 20_000;
        DataReceiver rx = receiver(rbuf, 2_000);
        SplittableRandom r = new SplittableRandom(11);
        int tsn = T0;
        for (int k = 0; k < 20_000; k++) {
            int flags = r.nextInt(16);
            int mid = r.nextInt(3);
            int fsn = r.nextInt(6);
            int len = 1 + r.nextInt(r.nextInt(10) == 0 ? 3000 : 400);
            int t = r.nextInt(5) == 0 ? tsn - r.nextInt(50) : tsn++;
            on(rx, t, r.nextInt(3), mid, fsn, flags, bytes(len, k));
            if (r.nextInt(50) == 0) {
                rx.skipIData(r.nextInt(3), r.nextBoolean(), r.nextInt(4));
            }
            poll(rx);
            assertTrue(rx.bufferedBytes() <= 2L * rbuf + 3000, "held " + rx.bufferedBytes());
        }
    }

    @Test
    void aMessageLargerThanTheBufferWithoutPartialDeliveryEndsTheAssociation() {
        DataReceiver rx = receiver(10_000, 0);
        int tsn = T0;
        DataResult r = DataResult.NEW;
        for (int f = 0; f < 30 && r == DataResult.NEW; f++) {
            r = on(rx, tsn++, 0, 0, f == 0 ? 1 : f, f == 0 ? B : 0, bytes(1000, f));
        }
        assertEquals(DataResult.DROPPED_CANNOT_TAKE, r);
        assertTrue(rx.bufferedBytes() <= 10_000);
    }

    @Test
    void aMessageFourTimesTheBufferIsTakenInParts() {
        DataReceiver rx = receiver(10_000, 9_999);
        int tsn = T0;
        long got = 0;
        for (int f = 0; f < 40; f++) {
            assertEquals(
                    DataResult.NEW,
                    on(rx, tsn++, 0, 0, f == 0 ? 1 : f, (f == 0 ? B : 0) | (f == 39 ? E : 0), bytes(1000, f)));
            for (ReceivedMessage m : poll(rx)) {
                got += m.data().length;
            }
        }
        assertEquals(40_000, got);
    }

    @Test
    void anIForwardTsnSkipDropsTheAbandonedFragmentsAndReleasesLaterMessages() {
        DataReceiver rx = receiver(100_000, 0);
        on(rx, T0, 0, 0, 1, B, bytes(100, 1)); // MID 0, its rest abandoned by the sender
        on(rx, T0 + 3, 0, 1, 2, B | E, bytes(10, 2)); // MID 1, held for MID 0
        on(rx, T0 + 4, 0, 2, 3, B | U, bytes(50, 3)); // an unordered message, its rest abandoned
        assertTrue(poll(rx).isEmpty());
        assertEquals(160, rx.bufferedBytes());
        rx.skipIData(0, false, 0);
        List<ReceivedMessage> got = poll(rx);
        assertEquals(1, got.size());
        assertEquals(2, got.get(0).ppid());
        assertEquals(50, rx.bufferedBytes());
        rx.skipIData(0, true, 2);
        assertEquals(0, rx.bufferedBytes());
        assertEquals(0, rx.pendingFragments());
        // a skip behind what was delivered, or of another stream, changes nothing
        rx.skipIData(0, false, 0);
        rx.skipIData(9, false, 100);
        rx.skipIData(50_000, true, 1);
        on(rx, T0 + 5, 0, 2, 4, B | E, bytes(10, 4));
        assertEquals(4, poll(rx).get(0).ppid());
    }

    @Test
    void theLinuxIForwardTsnOfTheCaptureLetsTheLaterMessagesThrough() {
        // As captured from Linux 6.1 sending with PR-SCTP (RTX 0) under loss: ordered messages on
        // stream 0 and unordered ones on stream 1 alternate; the TSNs carrying ordered MIDs 3..7
        // and unordered MIDs 2..6 are lost; its I-FORWARD-TSN lists (1, U, 6) and (0, ordered, 7).
        DataReceiver rx = receiver(100_000, 0);
        int tsn = T0;
        for (int mid = 0; mid <= 2; mid++) {
            on(rx, tsn++, 0, mid, 1000 + mid, B | E, bytes(20, mid));
            if (mid < 2) {
                on(rx, tsn++, 1, mid, 2000 + mid, B | E | U, bytes(20, mid));
            }
        }
        assertEquals(5, poll(rx).size());
        tsn += 10; // lost
        on(rx, tsn++, 1, 7, 2007, B | E | U, bytes(20, 7));
        on(rx, tsn++, 0, 8, 1008, B | E, bytes(20, 8));
        assertPpids(poll(rx), 2007); // unordered at once; ordered MID 8 waits for 3..7
        rx.skipIData(1, true, 6);
        rx.skipIData(0, false, 7);
        assertPpids(poll(rx), 1008);
        on(rx, tsn, 0, 9, 1009, B | E, bytes(20, 9));
        assertPpids(poll(rx), 1009);
        assertEquals(0, rx.protocolViolations());
    }

    @Test
    void aSkipOfTheMessageInPartsEndsItsPartialDelivery() {
        DataReceiver rx = receiver(64_000, 1_000);
        on(rx, T0, 0, 0, 1, B, bytes(2000, 1));
        assertTrue(poll(rx).get(0).part());
        on(rx, T0 + 1, 0, 1, 2, B | E, bytes(10, 2)); // waits for the message in parts
        assertTrue(poll(rx).isEmpty());
        rx.skipIData(0, false, 0);
        assertEquals(1, rx.takeSkippedPartialDeliveries().size());
        assertTrue(rx.takeSkippedPartialDeliveries().isEmpty());
        List<ReceivedMessage> got = poll(rx);
        assertEquals(1, got.size());
        assertEquals(2, got.get(0).ppid());
        assertTrue(rx.partialDeliveries().isEmpty());
    }

    @Test
    void dataChunksNeedDataModeAndIDataChunksNeedIDataMode() {
        DataReceiver plain = new DataReceiver(options(2000, 0), T0, 10);
        assertFalse(plain.usesIData());
        assertThrows(
                IllegalStateException.class, () -> plain.onIData(T0, 0, 0, 0, B | E, ByteBuffer.allocate(4), 0, 4, 0));
        assertTrue(receiver(2000, 0).usesIData());
        assertNull(plain.pollMessage());
    }
}
