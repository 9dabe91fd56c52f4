package org.sctpj.stack.rx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.rx.DataReceiver.DataResult;

/**
 * Reassembly of fragmented messages: the primitive fragment table (wrap-around, growth, removal),
 * the fragment pool and its bounds, and the reused reassembly buffer handed to a {@link
 * DataReceiver.MessageSink}.
 */
class ReassemblyTest {

    private static final int B = 0x02;
    private static final int E = 0x01;
    private static final int U = 0x04;

    private static DataReceiver receiver(int rbuf, int firstTsn, boolean keepReferences) {
        DataReceiver rx = new DataReceiver(
                SctpOptions.WAN.toBuilder().receiveBufferBytes(rbuf).build(), firstTsn, 16);
        rx.keepReferences(keepReferences);
        return rx;
    }

    static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed * 31 + i);
        }
        return b;
    }

    /** One DATA chunk, as the sender would have cut it. */
    private record Chunk(int tsn, int sid, int ssn, int ppid, int flags, byte[] data) {}

    /** A message as delivered. */
    private record Msg(int sid, int ppid, boolean unordered, byte[] data) {}

    /**
     * Cuts messages into chunks from {@code firstTsn}: message k has ppid k, {@code sizes[k]} bytes
     * (bytes(size, k)), stream {@code sids[k]}, unordered when {@code unordered[k]}.
     */
    private static List<Chunk> cut(int firstTsn, int[] sizes, int[] sids, boolean[] unordered, int fragment) {
        List<Chunk> out = new ArrayList<>();
        int[] nextSsn = new int[16];
        int tsn = firstTsn;
        for (int k = 0; k < sizes.length; k++) {
            byte[] m = bytes(sizes[k], k);
            int ssn = unordered[k] ? 0 : nextSsn[sids[k]]++;
            int n = Math.max(1, (m.length + fragment - 1) / fragment);
            for (int f = 0; f < n; f++) {
                int from = f * fragment;
                byte[] part = Arrays.copyOfRange(m, from, Math.min(m.length, from + fragment));
                int flags = (f == 0 ? B : 0) | (f == n - 1 ? E : 0) | (unordered[k] ? U : 0);
                out.add(new Chunk(tsn++, sids[k], ssn & 0xffff, k, flags, part));
            }
        }
        return out;
    }

    private static DataResult feed(DataReceiver rx, Chunk c) {
        ByteBuffer buf = ByteBuffer.allocate(c.data.length + 20);
        buf.position(12);
        buf.put(c.data);
        buf.clear();
        return rx.onData(c.tsn, c.sid, c.ssn, c.ppid, c.flags, buf, 12, c.data.length, 0);
    }

    /** Takes every ready message through a sink, copying what it is shown. */
    private static List<Msg> drain(DataReceiver rx) {
        List<Msg> out = new ArrayList<>();
        while (rx.pollMessage((sid, ppid, un, array, buf, off, len) -> {
            byte[] d = array != null ? array : new byte[len];
            if (array == null) {
                buf.get(off, d);
            }
            out.add(new Msg(sid, ppid, un, d));
        })) {
            // collected
        }
        return out;
    }

    @Test
    void aMessageOfManyFragmentsArrivingInReverseOrderAcrossTheTsnWrap() {
        int first = -700; // TSNs -700 .. 299: the wrap in the middle
        DataReceiver rx = receiver(1 << 20, first, true);
        List<Chunk> chunks = cut(first, new int[] {100_000}, new int[] {3}, new boolean[] {false}, 100);
        assertEquals(1000, chunks.size());
        for (int i = chunks.size() - 1; i > 0; i--) {
            assertEquals(DataResult.NEW, feed(rx, chunks.get(i)));
        }
        assertEquals(999, rx.pendingFragments());
        assertEquals(99_900, rx.bufferedBytes());
        assertFalse(rx.hasMessage());
        feed(rx, chunks.get(0));
        assertEquals(0, rx.pendingFragments());
        List<Msg> got = drain(rx);
        assertEquals(1, got.size());
        assertArrayEquals(bytes(100_000, 0), got.get(0).data);
        assertEquals(3, got.get(0).sid);
        assertEquals(0, rx.bufferedBytes());
        assertEquals(0, rx.protocolViolations());
        assertEquals(first + 999, rx.cumulativeTsn());
    }

    @Test
    void duplicateFragmentsAreReportedAndNotHeldTwice() {
        DataReceiver rx = receiver(100_000, -2, true);
        List<Chunk> c = cut(-2, new int[] {300}, new int[] {1}, new boolean[] {false}, 100);
        feed(rx, c.get(0));
        feed(rx, c.get(2));
        assertEquals(DataResult.DUPLICATE, feed(rx, c.get(0)));
        assertEquals(DataResult.DUPLICATE, feed(rx, c.get(2)));
        assertEquals(2, rx.pendingFragments());
        assertEquals(200, rx.bufferedBytes());
        feed(rx, c.get(1));
        assertEquals(DataResult.DUPLICATE, feed(rx, c.get(1)), "delivered, still a duplicate");
        assertEquals(3, rx.pendingDuplicates());
        List<Msg> got = drain(rx);
        assertEquals(1, got.size());
        assertArrayEquals(bytes(300, 0), got.get(0).data);
        assertEquals(0, rx.bufferedBytes());
    }

    @Test
    void aFragmentContradictingItsNeighboursIsDroppedAndCounted() {
        DataReceiver rx = receiver(100_000, 10, true);
        List<Chunk> c = cut(10, new int[] {400}, new int[] {1}, new boolean[] {false}, 100);
        feed(rx, c.get(0));
        feed(rx, c.get(2));
        // TSN 11 claims another SSN, another stream, or to be unordered: each contradicts both
        // held neighbours.
        Chunk mid = c.get(1);
        DataReceiver[] variants = new DataReceiver[3];
        Chunk[] bad = {
            new Chunk(11, 1, 5, 0, 0, mid.data),
            new Chunk(11, 2, 0, 0, 0, mid.data),
            new Chunk(11, 1, 0, 0, U, mid.data),
        };
        for (int v = 0; v < bad.length; v++) {
            variants[v] = receiver(100_000, 10, true);
            feed(variants[v], c.get(0));
            feed(variants[v], c.get(2));
            assertEquals(DataResult.NEW, feed(variants[v], bad[v]), "variant " + v);
            assertEquals(1, variants[v].protocolViolations(), "variant " + v);
            assertEquals(200, variants[v].bufferedBytes(), "not held: variant " + v);
            assertEquals(2, variants[v].pendingFragments());
            assertEquals(12, variants[v].cumulativeTsn(), "acknowledged all the same");
        }
        // An end whose predecessor was already delivered cannot belong to a message.
        feed(rx, mid);
        feed(rx, c.get(3));
        assertEquals(1, drain(rx).size());
        assertEquals(DataResult.NEW, feed(rx, new Chunk(14, 1, 1, 0, E, bytes(5, 0))));
        assertEquals(1, rx.protocolViolations());
        assertEquals(0, rx.bufferedBytes());
        assertEquals(0, rx.pendingFragments());
    }

    @Test
    void interleavedStreamsAndUnorderedFragmentsInAnyOrder() {
        int[] sizes = {250, 300, 120, 260, 90, 330};
        int[] sids = {1, 1, 2, 1, 2, 1};
        boolean[] un = {false, true, false, false, true, false};
        List<Chunk> c = cut(-5, sizes, sids, un, 100);
        // the unordered message 1 (TSNs -2..1) arrives first, in reverse, then everything else
        // from the end
        DataReceiver rx = receiver(100_000, -5, true);
        List<Chunk> order = new ArrayList<>();
        for (int i = c.size() - 1; i >= 0; i--) {
            if (c.get(i).ppid == 1) {
                order.add(c.get(i));
            }
        }
        for (int i = c.size() - 1; i >= 0; i--) {
            if (c.get(i).ppid != 1) {
                order.add(c.get(i));
            }
        }
        List<Msg> got = new ArrayList<>();
        for (Chunk x : order) {
            assertEquals(DataResult.NEW, feed(rx, x));
            got.addAll(drain(rx));
        }
        assertEquals(6, got.size());
        assertEquals(1, got.get(0).ppid, "the unordered message at once");
        assertTrue(got.get(0).unordered);
        // message 4 (unordered, stream 2) comes as soon as it is whole, before the ordered ones
        // that wait for message 0
        assertEquals(4, got.get(1).ppid);
        int[] stream1 = got.stream()
                .filter(m -> m.sid == 1 && !m.unordered)
                .mapToInt(m -> m.ppid)
                .toArray();
        assertArrayEquals(new int[] {0, 3, 5}, stream1);
        for (Msg m : got) {
            assertArrayEquals(bytes(sizes[m.ppid], m.ppid), m.data);
        }
        assertEquals(0, rx.protocolViolations());
        assertEquals(0, rx.bufferedBytes());
    }

    @Test
    void severalReassembledMessagesStayValidUntilTaken() {
        // Four unordered messages whose first fragments are missing, then one "packet" with the
        // four: the ready queue refers to the reassembly buffer four times before the drain.
        int[] sizes = {3000, 5000, 40_000, 700};
        List<Chunk> c = cut(1, sizes, new int[] {1, 1, 1, 1}, new boolean[] {true, true, true, true}, 1000);
        DataReceiver rx = receiver(1 << 20, 1, true);
        List<Chunk> firsts = new ArrayList<>();
        for (Chunk x : c) {
            if ((x.flags & B) != 0) {
                firsts.add(x);
            } else {
                feed(rx, x);
            }
        }
        for (Chunk x : firsts) {
            feed(rx, x);
        }
        List<ByteBuffer> seen = new ArrayList<>();
        List<Msg> got = new ArrayList<>();
        while (rx.pollMessage((sid, ppid, u, array, buf, off, len) -> {
            assertNull(array, "handed out by reference");
            seen.add(buf);
            byte[] d = new byte[len];
            buf.get(off, d);
            got.add(new Msg(sid, ppid, u, d));
        })) {
            // collected
        }
        assertEquals(4, got.size());
        for (Msg m : got) {
            assertArrayEquals(bytes(sizes[m.ppid], m.ppid), m.data);
        }
        assertEquals(0, rx.bufferedBytes());
        // the next message reuses the buffer from its start
        List<Chunk> more = cut(c.size() + 1, new int[] {2500}, new int[] {2}, new boolean[] {false}, 1000);
        more.forEach(x -> feed(rx, x));
        int[] where = new int[1];
        ByteBuffer[] which = new ByteBuffer[1];
        assertTrue(rx.pollMessage((sid, ppid, u, array, buf, off, len) -> {
            which[0] = buf;
            where[0] = off;
        }));
        assertTrue(seen.contains(which[0]));
        assertEquals(0, where[0]);
    }

    @Test
    void detachedOrCopiedReassembledMessagesReleaseTheBuffer() {
        List<Chunk> c =
                cut(1, new int[] {2000, 2000, 2000}, new int[] {1, 1, 1}, new boolean[] {false, false, false}, 1000);
        DataReceiver rx = receiver(100_000, 1, true);
        c.subList(0, 4).forEach(x -> feed(rx, x));
        rx.detachReferences();
        // a third message written into the buffer now cannot disturb the detached ones
        c.subList(4, 6).forEach(x -> feed(rx, x));
        ReceivedMessage m0 = rx.pollMessage();
        ReceivedMessage m1 = rx.pollMessage();
        assertArrayEquals(bytes(2000, 0), m0.data());
        assertArrayEquals(bytes(2000, 1), m1.data());
        ReceivedMessage m2 = rx.pollMessage();
        assertNotNull(m2);
        assertArrayEquals(bytes(2000, 2), m2.data());
        assertNull(rx.pollMessage());
        assertEquals(0, rx.bufferedBytes());
    }

    @Test
    void aSinkThatThrowsStillReleasesTheBuffer() {
        DataReceiver rx = receiver(100_000, 1, true);
        List<Chunk> c = cut(1, new int[] {2000, 2000}, new int[] {1, 1}, new boolean[] {true, true}, 1000);
        c.subList(0, 2).forEach(x -> feed(rx, x));
        assertThrows(
                IllegalStateException.class,
                () -> rx.pollMessage((s, p, u, a, b, o, l) -> {
                    throw new IllegalStateException("handler failed");
                }));
        c.subList(2, 4).forEach(x -> feed(rx, x));
        int[] off = {-1};
        assertTrue(rx.pollMessage((s, p, u, a, b, o, l) -> off[0] = o));
        assertEquals(0, off[0], "the buffer was free again");
    }

    /**
     * {@code n} ordered messages of 5 fragments of 700 bytes on stream 1 from TSN 100, fed without
     * their first fragments (so all others are held); returns every chunk.
     */
    private static List<Chunk> burstWithoutFirstFragments(DataReceiver rx, int n) {
        int[] sizes = new int[n];
        int[] sids = new int[n];
        Arrays.fill(sizes, 5 * 700);
        Arrays.fill(sids, 1);
        List<Chunk> c = cut(100, sizes, sids, new boolean[n], 700);
        for (Chunk x : c) {
            if ((x.flags & B) == 0) {
                feed(rx, x);
            }
        }
        return c;
    }

    @Test
    void trimIdleLetsThePoolsGoOnlyWhenNothingIsHeld() {
        DataReceiver rx = receiver(4 << 20, 100, true);
        assertEquals(0, rx.readyCapacity(), "no ready queue before the first message");
        int n = 200;
        List<Chunk> c = burstWithoutFirstFragments(rx, n);
        assertFalse(rx.trimIdle(), "fragments are waiting: nothing is trimmed");
        List<Msg> got = new ArrayList<>();
        for (Chunk x : c) {
            if ((x.flags & B) != 0) {
                feed(rx, x);
            }
        }
        assertFalse(rx.trimIdle(), "messages are ready: nothing is trimmed");
        got.addAll(drain(rx));
        assertEquals(n, got.size());
        assertTrue(rx.readyCapacity() >= n, "the ready queue grew");
        assertTrue(rx.retainedBytes() > 25L * FragmentTable.IDLE_CAPACITY, "the burst left arrays to reuse");
        assertTrue(rx.trimIdle());
        assertEquals(0, rx.readyCapacity(), "the ready queue's arrays went");
        assertTrue(
                rx.retainedBytes() <= 25L * FragmentTable.IDLE_CAPACITY,
                "only the fragment table's idle slots are kept: " + rx.retainedBytes());
        // And the receiver works on afterwards.
        List<Chunk> more = cut(100 + c.size(), new int[] {3500}, new int[] {1}, new boolean[1], 700);
        for (Chunk x : more) {
            feed(rx, new Chunk(x.tsn, x.sid, x.ssn + n, x.ppid, x.flags, x.data));
        }
        assertEquals(1, drain(rx).size());
    }

    @Test
    void memoryReturnsToItsIdleSizeAfterABurst() {
        int rbuf = 4 << 20;
        DataReceiver rx = receiver(rbuf, 100, true);
        assertEquals(0, rx.retainedBytes(), "nothing before the first fragment");
        // A burst of 1000 ordered messages of 5 fragments whose first fragments are missing: the
        // 4000 others are held until they come.
        int n = 1000;
        List<Chunk> c = burstWithoutFirstFragments(rx, n);
        assertEquals(4 * n, rx.pendingFragments());
        assertTrue(rx.retainedBytes() > 4 * FragmentTable.IDLE_CAPACITY * 25L, "the table grew");
        List<Msg> got = new ArrayList<>();
        for (Chunk x : c) {
            if ((x.flags & B) != 0) {
                feed(rx, x);
                got.addAll(drain(rx));
            }
        }
        assertEquals(0, rx.pendingFragments());
        assertEquals(n, got.size());
        for (int k = 0; k < n; k++) {
            assertEquals(k, got.get(k).ppid);
        }
        assertEquals(0, rx.bufferedBytes());
        long idle = rx.poolBudget() + DataReceiver.MAX_REUSED_MESSAGE;
        assertTrue(rx.retainedBytes() <= idle, "retained " + rx.retainedBytes() + " > " + idle);
        assertTrue(rx.poolBudget() <= 128 << 10);

        // Steady state afterwards: in-order fragmented messages reuse what is kept.
        long before = rx.retainedBytes();
        List<Chunk> more = cut(100 + c.size(), new int[] {3500, 3500, 3500}, new int[] {1, 1, 1}, new boolean[3], 700);
        for (Chunk x : more) {
            feed(rx, new Chunk(x.tsn, x.sid, x.ssn + n, x.ppid, x.flags, x.data));
            drain(rx);
        }
        assertEquals(0, rx.bufferedBytes(), rx.toString());
        assertTrue(rx.retainedBytes() <= before + 25L * FragmentTable.MIN_CAPACITY, "kept " + rx.retainedBytes());
    }

    /**
     * Random messages on several streams, fragmented, delivered out of order within a window with
     * duplicates, across the TSN wrap: every message arrives whole, once, and in SSN order per
     * stream; nothing is left held.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void randomArrivalOrdersReassembleEveryMessage(boolean keepReferences) {
        for (int seed = 1; seed <= 20; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            int n = 300;
            int[] sizes = new int[n];
            int[] sids = new int[n];
            boolean[] un = new boolean[n];
            for (int k = 0; k < n; k++) {
                sizes[k] = 1 + r.nextInt(r.nextInt(10) == 0 ? 70_000 : 3000);
                sids[k] = r.nextInt(4);
                un[k] = r.nextInt(4) == 0;
            }
            int first = -r.nextInt(20_000);
            List<Chunk> c = cut(first, sizes, sids, un, 100 + r.nextInt(1400));
            // shuffle within a sliding window, and repeat some chunks
            List<Chunk> order = new ArrayList<>(c);
            int w = 1 + r.nextInt(200);
            for (int i = 0; i < order.size(); i++) {
                int j = i + r.nextInt(Math.min(w, order.size() - i));
                Chunk t = order.get(i);
                order.set(i, order.get(j));
                order.set(j, t);
            }
            for (int d = 0; d < c.size() / 20; d++) {
                int at = r.nextInt(order.size());
                order.add(at, order.get(r.nextInt(at + 1)));
            }
            DataReceiver rx = receiver(64 << 20, first, keepReferences);
            List<Msg> got = new ArrayList<>();
            int i = 0;
            while (i < order.size()) {
                int packet = 1 + r.nextInt(4);
                for (int k = 0; k < packet && i < order.size(); k++, i++) {
                    DataResult res = feed(rx, order.get(i));
                    assertTrue(res == DataResult.NEW || res == DataResult.DUPLICATE, res + " seed " + seed);
                }
                if (keepReferences) {
                    got.addAll(drain(rx));
                } else {
                    for (ReceivedMessage m; (m = rx.pollMessage()) != null; ) {
                        got.add(new Msg(m.streamId(), m.ppid(), m.unordered(), m.data()));
                    }
                }
            }
            assertEquals(n, got.size(), "seed " + seed);
            Map<Integer, Integer> lastOrdered = new HashMap<>();
            boolean[] seen = new boolean[n];
            for (Msg m : got) {
                assertFalse(seen[m.ppid], "delivered twice, seed " + seed);
                seen[m.ppid] = true;
                assertArrayEquals(bytes(sizes[m.ppid], m.ppid), m.data, "seed " + seed);
                assertEquals(sids[m.ppid], m.sid);
                assertEquals(un[m.ppid], m.unordered);
                if (!m.unordered) {
                    Integer prev = lastOrdered.put(m.sid, m.ppid);
                    assertTrue(prev == null || prev < m.ppid, "out of order on stream " + m.sid + ", seed " + seed);
                }
            }
            assertEquals(0, rx.pendingFragments());
            assertEquals(0, rx.bufferedBytes());
            assertEquals(0, rx.protocolViolations());
            assertEquals(first + c.size() - 1, rx.cumulativeTsn());
        }
    }
}
