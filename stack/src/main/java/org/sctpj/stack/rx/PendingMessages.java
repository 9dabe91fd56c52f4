package org.sctpj.stack.rx;

/**
 * One stream's complete ordered messages that wait for an earlier SSN, by SSN: an open-addressing
 * table with linear probing (no boxed key, no node per message), at most half full, created
 * small and grown on demand. A slot is free when its message is null.
 */
final class PendingMessages {

    private static final int MIN_CAPACITY = 8;

    private int[] ssn = new int[MIN_CAPACITY];
    private ReceivedMessage[] messages = new ReceivedMessage[MIN_CAPACITY];
    private int shift = 32 - 3;
    private int count;

    boolean isEmpty() {
        return count == 0;
    }

    int size() {
        return count;
    }

    int capacity() {
        return messages.length;
    }

    private int home(int key) {
        return (key * 0x9E3779B9) >>> shift;
    }

    /** Stores {@code m} at {@code key} unless a message is there already; returns whether stored. */
    boolean putIfAbsent(int key, ReceivedMessage m) {
        int mask = messages.length - 1;
        int i = home(key);
        while (messages[i] != null) {
            if (ssn[i] == key) {
                return false;
            }
            i = (i + 1) & mask;
        }
        if ((count + 1) * 2 > messages.length) {
            grow();
            return putIfAbsent(key, m);
        }
        ssn[i] = key;
        messages[i] = m;
        count++;
        return true;
    }

    private void grow() {
        int[] oKeys = ssn;
        ReceivedMessage[] oMessages = messages;
        int n = oMessages.length * 2;
        ssn = new int[n];
        messages = new ReceivedMessage[n];
        shift = Integer.numberOfLeadingZeros(n) + 1;
        count = 0;
        for (int i = 0; i < oMessages.length; i++) {
            if (oMessages[i] != null) {
                putIfAbsent(oKeys[i], oMessages[i]);
            }
        }
    }

    /** Removes every message; returns their bytes (a stream reset, RFC 6525 section 5.2.4). */
    long clear() {
        long bytes = 0;
        for (int i = 0; i < messages.length; i++) {
            if (messages[i] != null) {
                bytes += messages[i].data().length;
                messages[i] = null;
            }
        }
        count = 0;
        return bytes;
    }

    /**
     * Removes the messages whose keys lie in {@code from..to} (32-bit serial arithmetic, RFC 1982)
     * and returns them by key, lowest first: a forward-TSN skip delivers what waited before the
     * skipped ones (RFC 3758 section 3.6; RFC 8260 section 2.3.2).
     */
    java.util.List<ReceivedMessage> removeUpTo(int from, int to) {
        java.util.List<int[]> found = new java.util.ArrayList<>();
        for (int i = 0; i < messages.length; i++) {
            if (messages[i] != null && Integer.compareUnsigned(ssn[i] - from, to - from) <= 0) {
                found.add(new int[] {ssn[i]});
            }
        }
        found.sort((x, y) -> Integer.compareUnsigned(x[0] - from, y[0] - from));
        java.util.List<ReceivedMessage> out = new java.util.ArrayList<>(found.size());
        for (int[] k : found) {
            out.add(remove(k[0]));
        }
        return out;
    }

    /** Writes the keys held into {@code out} (at least {@link #size()} long); returns how many. */
    int keys(int[] out) {
        int n = 0;
        for (int i = 0; i < messages.length; i++) {
            if (messages[i] != null) {
                out[n++] = ssn[i];
            }
        }
        return n;
    }

    /** Removes and returns the message at {@code key}, or null. */
    ReceivedMessage remove(int key) {
        if (count == 0) {
            return null;
        }
        int mask = messages.length - 1;
        int i = home(key);
        while (messages[i] != null && ssn[i] != key) {
            i = (i + 1) & mask;
        }
        ReceivedMessage m = messages[i];
        if (m == null) {
            return null;
        }
        messages[i] = null;
        count--;
        int hole = i;
        for (int j = (i + 1) & mask; messages[j] != null; j = (j + 1) & mask) {
            if (((j - home(ssn[j])) & mask) >= ((j - hole) & mask)) {
                ssn[hole] = ssn[j];
                messages[hole] = messages[j];
                messages[j] = null;
                hole = j;
            }
        }
        return m;
    }
}
