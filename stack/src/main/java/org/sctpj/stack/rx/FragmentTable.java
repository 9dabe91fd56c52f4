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
        if (data == null) {
            allocate(MIN_CAPACITY);
        } else if ((count + 1) * 2 > data.length) {
            resize(data.length * 2);
        }
        insert(t, sid, seq, payloadId, (byte) chunkFlags, bytes, len);
        count++;
    }

    private void insert(int t, int sid, int seq, int payloadId, byte chunkFlags, byte[] bytes, int len) {
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
    }

    private void allocate(int capacity) {
        tsn = new int[capacity];
        streamId = new int[capacity];
        ssn = new int[capacity];
        ppid = new int[capacity];
        flags = new byte[capacity];
        length = new int[capacity];
        data = new byte[capacity][];
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
        allocate(capacity);
        for (int i = 0; i < oData.length; i++) {
            if (oData[i] != null) {
                insert(oTsn[i], oSid[i], oSsn[i], oPpid[i], oFlags[i], oData[i], oLen[i]);
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
            tsn = streamId = ssn = ppid = length = null;
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
                data[i] = null;
                hole = i;
            }
            i = (i + 1) & mask;
        }
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
}
