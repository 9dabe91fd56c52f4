package org.sctpj.stack.tx;

/**
 * Recycles what the sender allocates per message and per chunk: message byte arrays (by power-of-
 * two size class, 64 bytes to 64 KiB), {@link OutboundMessage}s and {@link SentChunk}s. In steady
 * state every message and chunk reuses one freed by an earlier SACK, so sending allocates nothing.
 * Each free list is bounded so that the pool never holds more than about the send buffer. It
 * starts empty (nothing is pooled before the first message) and {@link #trim()} empties it when
 * the association goes idle, so an idle association keeps nothing of an earlier burst.
 */
final class SendPool {

    private static final int MIN_SHIFT = 6;
    private static final int MAX_SHIFT = 16;
    private static final int MAX_CHUNKS = 4096;

    private final byte[][][] arrays = new byte[MAX_SHIFT - MIN_SHIFT + 1][][];
    private final int[] arrayCounts = new int[MAX_SHIFT - MIN_SHIFT + 1];
    private final long budget;
    private long pooledBytes;
    private OutboundMessage[] messages = new OutboundMessage[0];
    private int messageCount;
    private SentChunk[] chunks = new SentChunk[0];
    private int chunkCount;

    /** A pool holding at most about {@code budgetBytes} of free arrays. */
    SendPool(long budgetBytes) {
        this.budget = Math.max(budgetBytes, 1L << MAX_SHIFT);
    }

    private static int sizeClass(int length) {
        int shift = Math.max(MIN_SHIFT, 32 - Integer.numberOfLeadingZeros(Math.max(length, 1) - 1));
        return shift - MIN_SHIFT;
    }

    /** An array of at least {@code length} bytes (contents undefined). */
    byte[] array(int length) {
        if (length > (1 << MAX_SHIFT)) {
            return new byte[length];
        }
        int c = sizeClass(length);
        int n = arrayCounts[c];
        if (n > 0) {
            byte[] a = arrays[c][--n];
            arrays[c][n] = null;
            arrayCounts[c] = n;
            pooledBytes -= a.length;
            return a;
        }
        return new byte[1 << (c + MIN_SHIFT)];
    }

    /** Gives an array from {@link #array} back. */
    void release(byte[] a) {
        int len = a.length;
        if (len > (1 << MAX_SHIFT) || Integer.bitCount(len) != 1 || len < (1 << MIN_SHIFT)) {
            return;
        }
        if (pooledBytes + len > budget) {
            return;
        }
        int c = sizeClass(len);
        byte[][] stack = arrays[c];
        int n = arrayCounts[c];
        if (stack == null || n == stack.length) {
            byte[][] bigger = new byte[stack == null ? 8 : n * 2][];
            if (stack != null) {
                System.arraycopy(stack, 0, bigger, 0, n);
            }
            arrays[c] = stack = bigger;
        }
        stack[n] = a;
        arrayCounts[c] = n + 1;
        pooledBytes += len;
    }

    OutboundMessage message() {
        if (messageCount > 0) {
            OutboundMessage m = messages[--messageCount];
            messages[messageCount] = null;
            return m;
        }
        return new OutboundMessage();
    }

    /** A message fully acknowledged: its array and itself go back to the pool. */
    void release(OutboundMessage m) {
        byte[] d = m.data;
        m.data = null;
        if (d != null) {
            release(d);
        }
        if (messageCount == MAX_CHUNKS) {
            return;
        }
        if (messageCount == messages.length) {
            messages = java.util.Arrays.copyOf(messages, Math.max(16, messageCount * 2));
        }
        messages[messageCount++] = m;
    }

    SentChunk chunk() {
        if (chunkCount > 0) {
            SentChunk c = chunks[--chunkCount];
            chunks[chunkCount] = null;
            return c;
        }
        return new SentChunk();
    }

    /** A chunk covered by the cumulative ack. Its fields stay readable until it is reused. */
    void release(SentChunk c) {
        c.msg = null;
        if (chunkCount == MAX_CHUNKS) {
            return;
        }
        if (chunkCount == chunks.length) {
            chunks = java.util.Arrays.copyOf(chunks, Math.max(16, chunkCount * 2));
        }
        chunks[chunkCount++] = c;
    }

    /** Bytes of free arrays held for reuse. */
    long pooledBytes() {
        return pooledBytes;
    }

    /** Messages and chunks held for reuse. */
    int pooledObjects() {
        return messageCount + chunkCount;
    }

    /** Lets everything pooled go (the association is idle): the next burst allocates afresh. */
    void trim() {
        java.util.Arrays.fill(arrays, null);
        java.util.Arrays.fill(arrayCounts, 0);
        pooledBytes = 0;
        messages = new OutboundMessage[0];
        messageCount = 0;
        chunks = new SentChunk[0];
        chunkCount = 0;
    }
}
