package org.sctpj.api.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class RecvPoolTest {

    @Test
    void arraysComeInPowerOfTwoClassesAndAreReusedOnceGivenBack() {
        RecvPool p = new RecvPool(1 << 20);
        byte[] a = p.take(1400);
        assertEquals(2048, a.length);
        assertEquals(256, p.take(1).length, "the smallest class");
        assertEquals(65536, p.take(65536).length, "an exact power of two keeps its size");
        p.give(a);
        assertEquals(2048, p.pooledBytes());
        assertSame(a, p.take(1025), "same class: the array comes back");
        assertEquals(0, p.pooledBytes());
        assertNotSame(a, p.take(1400), "an empty class makes a new array");
    }

    @Test
    void theBudgetBoundsWhatWaitsAndOddArraysAreLeftToTheCollector() {
        RecvPool p = new RecvPool(4096);
        p.give(p.take(2048));
        p.give(p.take(2048));
        p.give(new byte[2048]);
        assertEquals(4096, p.pooledBytes(), "the third array is over the budget");
        p.give(new byte[1400]);
        assertEquals(4096, p.pooledBytes(), "not a pool size");
        byte[] huge = p.take((1 << 20) + 1);
        assertEquals((1 << 20) + 1, huge.length, "over the largest class: exactly the size");
        p.give(huge);
        assertEquals(4096, p.pooledBytes());
    }
}
