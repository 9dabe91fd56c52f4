package org.sctpj.stack.rx;

/**
 * The fragments held until their message is complete, by TSN: an open-addressing table with
 * linear probing over parallel primitive arrays (no boxed key, no node per fragment). A slot is
 * free when its data array is null. The table starts empty, grows by doubling to stay at most half
 * full, and drops its arrays when it empties after having grown past {@link #IDLE_CAPACITY}, so an
 * idle receiver holds none of it.
 *
 * <p>Slot numbers returned by {@link #find} are valid until the next {@link #put} or {@link
 * #remove}, which may move entries.
 */
final class FragmentTable {

    /** The capacity the table starts with. */
    static final int MIN_CAPACITY = 16;

    /** Above this capacity the table lets its arrays go when it becomes empty. */
    static final int IDLE_CAPACITY = 256;

    private int[] tsn;
    private int[] streamId;
    private int[] ssn;
    private int[] ppid;
    private byte[] flags;
    private int[] length;
    private byte[][] data;
    /** Bytes from the message's first fragment through this one when all are held in sequence, else -1. */
    private int[] prefix;

    private int shift; // 32 - log2(capacity)
    private int mask = -1;
    private int count;

    /** How many fragments are held. */
    int size() {
        return count;
    }

    /** The current number of slots (0 before the first fragment). */
    int capacity() {
        return data == null ? 0 : data.length;
    }

    private int home(int t) {
        // Fibonacci hashing: consecutive TSNs spread over the table, and the TSNs that share a
        // slot are no simple arithmetic progression a peer could line up.
        return (t * 0x9E3779B9) >>> shift;
    }

    /** The slot holding {@code t}, or -1. */
    int find(int t) {
        if (count == 0) {
            return -1;
        }
        int i = home(t);
        while (data[i] != null) {
            if (tsn[i] == t) {
                return i;
            }
            i = (i + 1) & mask;
        }
        return -1;
    }

    /**
     * Adds a fragment at {@code t}, which the caller has checked is not held; {@code bytes} holds
     * its {@code len} bytes from index 0 and is owned by the table until {@link #remove}.
     */
    void put(int t, int sid, int seq, int payloadId, int chunkFlags, byte[] bytes, int len) {
        put(t, sid, seq, payloadId, chunkFlags, bytes, len, -1);
    }

    /** As {@link #put(int, int, int, int, int, byte[], int)}, with its {@link #prefix}. */
    void put(int t, int sid, int seq, int payloadId, int chunkFlags, byte[] bytes, int len, int inSequence) {
        if (data == null) {
            allocate(MIN_CAPACITY);
        } else if ((count + 1) * 2 > data.length) {
            resize(data.length * 2);
        }
        insert(t, sid, seq, payloadId, (byte) chunkFlags, bytes, len, inSequence);
        count++;
    }

    private void insert(
            int t, int sid, int seq, int payloadId, byte chunkFlags, byte[] bytes, int len, int inSequence) {
        int i = home(t);
        while (data[i] != null) {
            i = (i + 1) & mask;
        }
        tsn[i] = t;
        streamId[i] = sid;
        ssn[i] = seq;
        ppid[i] = payloadId;
        flags[i] = chunkFlags;
        length[i] = len;
        data[i] = bytes;
        prefix[i] = inSequence;
    }

    private void allocate(int capacity) {
        tsn = new int[capacity];
        streamId = new int[capacity];
        ssn = new int[capacity];
        ppid = new int[capacity];
        flags = new byte[capacity];
        length = new int[capacity];
        data = new byte[capacity][];
        prefix = new int[capacity];
        mask = capacity - 1;
        shift = Integer.numberOfLeadingZeros(capacity) + 1;
    }

    private void resize(int capacity) {
        int[] oTsn = tsn;
        int[] oSid = streamId;
        int[] oSsn = ssn;
        int[] oPpid = ppid;
        byte[] oFlags = flags;
        int[] oLen = length;
        byte[][] oData = data;
        int[] oPrefix = prefix;
        allocate(capacity);
        for (int i = 0; i < oData.length; i++) {
            if (oData[i] != null) {
                insert(oTsn[i], oSid[i], oSsn[i], oPpid[i], oFlags[i], oData[i], oLen[i], oPrefix[i]);
            }
        }
    }

    /**
     * Removes the fragment in {@code slot} (its data array is the caller's again); later entries
     * of its probe run move back so that no lookup stops early.
     */
    void remove(int slot) {
        data[slot] = null;
        count--;
        if (count == 0 && data.length > IDLE_CAPACITY) {
            tsn = streamId = ssn = ppid = length = prefix = null;
            flags = null;
            data = null;
            mask = -1;
            return;
        }
        int hole = slot;
        int i = (slot + 1) & mask;
        while (data[i] != null) {
            int h = home(tsn[i]);
            // The entry at i may fill the hole if its home is not within (hole, i] cyclically.
            if (((i - h) & mask) >= ((i - hole) & mask)) {
                tsn[hole] = tsn[i];
                streamId[hole] = streamId[i];
                ssn[hole] = ssn[i];
                ppid[hole] = ppid[i];
                flags[hole] = flags[i];
                length[hole] = length[i];
                data[hole] = data[i];
                prefix[hole] = prefix[i];
                data[i] = null;
                hole = i;
            }
            i = (i + 1) & mask;
        }
    }

    /** The TSN in {@code slot}, which {@link #occupied} says holds a fragment. */
    int tsn(int slot) {
        return tsn[slot];
    }

    /** Whether {@code slot} (0 .. {@link #capacity()} - 1) holds a fragment. */
    boolean occupied(int slot) {
        return data != null && data[slot] != null;
    }

    int streamId(int slot) {
        return streamId[slot];
    }

    int ssn(int slot) {
        return ssn[slot];
    }

    int ppid(int slot) {
        return ppid[slot];
    }

    int flags(int slot) {
        return flags[slot] & 0xff;
    }

    int length(int slot) {
        return length[slot];
    }

    byte[] data(int slot) {
        return data[slot];
    }

    /**
     * The bytes of the slot's message from its first (B) fragment through this one, when all of
     * them are held in sequence; -1 when not known to be (partial delivery, RFC 9260 section 6.9).
     */
    int prefix(int slot) {
        return prefix[slot];
    }

    void setPrefix(int slot, int inSequence) {
        prefix[slot] = inSequence;
    }
}
