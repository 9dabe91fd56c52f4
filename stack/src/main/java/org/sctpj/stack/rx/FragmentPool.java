package org.sctpj.stack.rx;

/**
 * Recycles the byte arrays that hold received fragments until their message is complete: power-of-
 * two arrays of 64 bytes to 64 KiB, one free list per size. In steady state each fragment reuses
 * the array of one reassembled before it, so holding fragments allocates nothing. The free lists
 * hold at most {@link #budget()} bytes in all: after a burst that held many fragments, what is
 * returned beyond that is left to the garbage collector, so a receiver keeps little; {@link
 * #trim()} lets the rest go once the association is idle.
 */
final class FragmentPool {

    private static final int MIN_SHIFT = 6;
    private static final int MAX_SHIFT = 16;
    private static final int CLASSES = MAX_SHIFT - MIN_SHIFT + 1;

    private final byte[][][] free = new byte[CLASSES][][];
    private final int[] freeCount = new int[CLASSES];
    private final long budget;
    private long pooledBytes;

    /** A pool keeping at most {@code budgetBytes} of free arrays. */
    FragmentPool(long budgetBytes) {
        this.budget = Math.max(0, budgetBytes);
    }

    private static int sizeClass(int length) {
        int bits = 32 - Integer.numberOfLeadingZeros(Math.max(length, 1) - 1);
        return Math.max(MIN_SHIFT, bits) - MIN_SHIFT;
    }

    /** An array of at least {@code length} bytes (contents undefined), for {@link #give} later. */
    byte[] take(int length) {
        if (length > (1 << MAX_SHIFT)) {
            return new byte[length];
        }
        int c = sizeClass(length);
        int n = freeCount[c];
        if (n == 0) {
            return new byte[1 << (c + MIN_SHIFT)];
        }
        byte[][] list = free[c];
        byte[] a = list[--n];
        list[n] = null;
        freeCount[c] = n;
        pooledBytes -= a.length;
        return a;
    }

    /** Gives back an array from {@link #take}; kept if the budget allows. */
    void give(byte[] a) {
        int len = a.length;
        if (len > (1 << MAX_SHIFT) || len < (1 << MIN_SHIFT) || Integer.bitCount(len) != 1) {
            return;
        }
        if (pooledBytes + len > budget) {
            return;
        }
        int c = sizeClass(len);
        byte[][] list = free[c];
        int n = freeCount[c];
        if (list == null || n == list.length) {
            byte[][] bigger = new byte[list == null ? 4 : n * 2][];
            if (list != null) {
                System.arraycopy(list, 0, bigger, 0, n);
            }
            free[c] = list = bigger;
        }
        list[n] = a;
        freeCount[c] = n + 1;
        pooledBytes += len;
    }

    /** Bytes in the free arrays. */
    long pooledBytes() {
        return pooledBytes;
    }

    /** Lets every free array go (the association is idle). */
    void trim() {
        java.util.Arrays.fill(free, null);
        java.util.Arrays.fill(freeCount, 0);
        pooledBytes = 0;
    }

    /** The most {@link #pooledBytes()} can be. */
    long budget() {
        return budget;
    }
}
