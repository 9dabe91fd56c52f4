package org.sctpj.stack.rx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class TsnTrackerTest {

    private static final int T0 = 0xFFFFFFF0;

    @Test
    void gapsAcrossTheWrapAreReportedAsOffsetsFromTheCumulativeTsn() {
        TsnTracker t = new TsnTracker(T0);
        assertEquals(T0 - 1, t.cumulativeTsn());
        t.add(T0);
        t.add(T0 + 15); // 0xFFFFFFFF
        t.add(T0 + 16); // 0
        t.add(T0 + 18); // 2
        assertEquals(T0, t.cumulativeTsn());
        assertEquals(2, t.highestReceived());
        assertTrue(t.hasGaps());
        int[] s = new int[8];
        int[] e = new int[8];
        int n = t.gapBlocks(s, e, 8);
        assertEquals(2, n);
        assertArrayEquals(new int[] {15, 18}, Arrays.copyOf(s, n));
        assertArrayEquals(new int[] {16, 18}, Arrays.copyOf(e, n));
        assertEquals(1, t.gapBlocks(s, e, 1), "bounded by the caller's room");
        assertTrue(t.isReceived(0));
        assertFalse(t.isReceived(1));
        assertTrue(t.isReceived(T0 - 100));
        for (int i = 1; i < 15; i++) {
            t.add(T0 + i);
        }
        assertEquals(0, t.cumulativeTsn(), "filling the hole advances over the received run");
        t.add(1);
        assertEquals(2, t.cumulativeTsn());
        assertFalse(t.hasGaps());
        assertEquals(0, t.gapBlocks(s, e, 8));
    }

    @Test
    void theWindowSpans65535TsnsAboveTheCumulativeTsn() {
        TsnTracker t = new TsnTracker(T0);
        int cum = T0 - 1;
        assertTrue(t.inWindow(cum + 1));
        assertTrue(t.inWindow(cum + 65535));
        assertFalse(t.inWindow(cum + 65536));
        assertFalse(t.inWindow(cum));
        assertFalse(t.inWindow(cum - 5));
        t.add(cum + 65535);
        int[] s = new int[1];
        int[] e = new int[1];
        assertEquals(1, t.gapBlocks(s, e, 1));
        assertEquals(65535, s[0]);
        assertEquals(65535, e[0]);
    }

    @Test
    void matchesASimpleModelUnderRandomArrivals() {
        SplittableRandom r = new SplittableRandom(7);
        TsnTracker t = new TsnTracker(T0);
        TreeSet<Long> model = new TreeSet<>();
        long base = Integer.toUnsignedLong(T0);
        long cum = base - 1;
        for (int i = 0; i < 20_000; i++) {
            long tsn = cum + 1 + r.nextInt(r.nextInt(10) == 0 ? 2000 : 20);
            int wire = (int) tsn;
            if (model.contains(tsn)) {
                assertTrue(t.isReceived(wire));
                continue;
            }
            assertFalse(t.isReceived(wire));
            t.add(wire);
            model.add(tsn);
            while (model.contains(cum + 1)) {
                model.remove(cum + 1);
                cum++;
            }
            assertEquals((int) cum, t.cumulativeTsn());
        }
        int[] s = new int[4096];
        int[] e = new int[4096];
        int n = t.gapBlocks(s, e, 4096);
        int blocks = 0;
        long prev = -2;
        for (long x : model) {
            if (x != prev + 1) {
                blocks++;
            }
            prev = x;
        }
        assertEquals(blocks, n);
        assertEquals(model.first() - cum, s[0]);
        assertEquals(model.last() - cum, e[n - 1]);
    }
}
