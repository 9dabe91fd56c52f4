package org.sctpj.stack.rx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The fragment table and the per-stream table of waiting messages against maps; the pool's bounds. */
class FragmentTableTest {

    @Test
    void behavesLikeAMapUnderRandomPutsAndRemovesAcrossTheWrap() {
        for (int seed = 1; seed <= 10; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            FragmentTable t = new FragmentTable();
            Map<Integer, byte[]> model = new HashMap<>();
            List<Integer> keys = new ArrayList<>();
            int base = -r.nextInt(5000);
            for (int op = 0; op < 50_000; op++) {
                if (keys.isEmpty() || r.nextInt(3) != 0) {
                    // mostly near the base (like a window), sometimes far away, sometimes a
                    // multiple of a large power of two apart (same low bits)
                    int k =
                            switch (r.nextInt(3)) {
                                case 0 -> base + r.nextInt(3000);
                                case 1 -> r.nextInt();
                                default -> base + (r.nextInt(64) << 16);
                            };
                    if (model.containsKey(k)) {
                        continue;
                    }
                    byte[] d = new byte[1 + r.nextInt(10)];
                    t.put(k, k & 0xffff, k >>> 16, ~k, k & 0x0f, d, d.length);
                    model.put(k, d);
                    keys.add(k);
                } else {
                    int k = keys.remove(r.nextInt(keys.size()));
                    int slot = t.find(k);
                    assertTrue(slot >= 0);
                    assertSame(model.remove(k), t.data(slot));
                    t.remove(slot);
                    assertEquals(-1, t.find(k));
                }
                assertEquals(model.size(), t.size());
                if (op % 997 == 0) {
                    for (Map.Entry<Integer, byte[]> e : model.entrySet()) {
                        int k = e.getKey();
                        int slot = t.find(k);
                        assertSame(e.getValue(), t.data(slot));
                        assertEquals(k & 0xffff, t.streamId(slot));
                        assertEquals(k >>> 16, t.ssn(slot));
                        assertEquals(~k, t.ppid(slot));
                        assertEquals(k & 0x0f, t.flags(slot));
                        assertEquals(e.getValue().length, t.length(slot));
                    }
                    assertTrue(t.capacity() >= 2 * t.size());
                }
                base += r.nextInt(3);
            }
            for (int k : keys) {
                t.remove(t.find(k));
            }
            assertEquals(0, t.size());
            assertTrue(t.capacity() <= FragmentTable.IDLE_CAPACITY, "capacity " + t.capacity());
        }
    }

    @Test
    void pendingMessagesBehaveLikeAMap() {
        SplittableRandom r = new SplittableRandom(5);
        PendingMessages p = new PendingMessages();
        Map<Integer, ReceivedMessage> model = new HashMap<>();
        for (int op = 0; op < 100_000; op++) {
            int k = r.nextInt(r.nextBoolean() ? 300 : 65536);
            if (r.nextInt(3) == 0) {
                assertSame(model.remove(k), p.remove(k));
            } else {
                ReceivedMessage m = new ReceivedMessage(0, k, false, new byte[0]);
                assertEquals(model.putIfAbsent(k, m) == null, p.putIfAbsent(k, m));
            }
            assertEquals(model.size(), p.size());
            assertTrue(p.capacity() >= 2 * p.size());
        }
        for (int k : new ArrayList<>(model.keySet())) {
            assertSame(model.remove(k), p.remove(k));
        }
        assertTrue(p.isEmpty());
    }

    @Test
    void thePoolKeepsNoMoreThanItsBudget() {
        FragmentPool p = new FragmentPool(10_000);
        List<byte[]> taken = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            taken.add(p.take(1452));
        }
        assertEquals(2048, taken.get(0).length);
        assertEquals(64, p.take(0).length);
        assertEquals(100_000, p.take(100_000).length, "beyond the largest class: exact, not pooled");
        taken.forEach(p::give);
        assertEquals(8192, p.pooledBytes());
        byte[] again = p.take(1500);
        assertTrue(taken.contains(again), "reused");
        assertEquals(6144, p.pooledBytes());
        p.give(new byte[1000]); // not one of its sizes: ignored
        assertEquals(6144, p.pooledBytes());
    }
}
