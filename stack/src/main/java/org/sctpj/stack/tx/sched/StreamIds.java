package org.sctpj.stack.tx.sched;

import java.util.Arrays;

/** Growth of the per-stream arrays of the schedulers: to cover a stream id, doubling, at most 65536. */
final class StreamIds {
    private StreamIds() {}

    /** The length an array indexed by stream id needs to hold {@code id}, given its {@code current} length. */
    static int grownLength(int current, int id) {
        return Math.max(id + 1, Math.min(Math.max(current, 8) * 2, 65536));
    }

    static int[] cover(int[] a, int id, int fill) {
        if (id < a.length) {
            return a;
        }
        int old = a.length;
        int[] b = Arrays.copyOf(a, grownLength(old, id));
        if (fill != 0) {
            Arrays.fill(b, old, b.length, fill);
        }
        return b;
    }

    static long[] cover(long[] a, int id) {
        return id < a.length ? a : Arrays.copyOf(a, grownLength(a.length, id));
    }
}
