package org.sctpj.stack.rx;

import org.sctpj.stack.wire.Serial;

/**
 * The set of TSNs received from the peer: the cumulative TSN (every TSN up to it received) and a
 * bitmap of the TSNs received above it, within a window of {@link #WINDOW} TSNs (so that gap block
 * offsets fit their 16 bits). The bitmap (8 KiB) is allocated at the first out-of-order TSN.
 * Comparisons wrap around (RFC 1982).
 */
final class TsnTracker {

    /** The highest offset above the cumulative TSN that can be tracked. */
    static final int WINDOW = 65535;

    private static final int MASK = 0xffff;
    private long[] bits;
    private int cum;
    private int highest;

    /** A tracker expecting {@code firstTsn} next (the peer's Initial TSN). */
    TsnTracker(int firstTsn) {
        cum = firstTsn - 1;
        highest = cum;
    }

    /** Starts over expecting {@code firstTsn} next, nothing received beyond (RFC 6525 section 5.2.4). */
    void restart(int firstTsn) {
        cum = firstTsn - 1;
        highest = cum;
        if (bits != null) {
            java.util.Arrays.fill(bits, 0L);
        }
    }

    int cumulativeTsn() {
        return cum;
    }

    int highestReceived() {
        return highest;
    }

    boolean hasGaps() {
        return highest != cum;
    }

    /** Whether {@code tsn} lies in cum + 1 .. cum + WINDOW. */
    boolean inWindow(int tsn) {
        int d = tsn - cum;
        return d >= 1 && d <= WINDOW;
    }

    boolean isReceived(int tsn) {
        if (Serial.le(tsn, cum)) {
            return true;
        }
        if (Serial.gt(tsn, highest) || bits == null) {
            return false;
        }
        int i = tsn & MASK;
        return (bits[i >>> 6] & (1L << i)) != 0;
    }

    /** Records {@code tsn}; the caller has checked it is in the window and not yet received. */
    void add(int tsn) {
        if (tsn == cum + 1) {
            cum = tsn;
            if (Serial.gt(cum, highest)) {
                highest = cum;
            }
            advanceOverReceived();
            return;
        }
        if (bits == null) {
            bits = new long[(MASK + 1) / 64];
        }
        int i = tsn & MASK;
        bits[i >>> 6] |= 1L << i;
        if (Serial.gt(tsn, highest)) {
            highest = tsn;
        }
    }

    /**
     * Moves the cumulative TSN up to {@code target} (a FORWARD TSN, RFC 3758 section 3.6): every
     * TSN up to it counts as received, those received above it no longer count as gaps below
     * it, and the cumulative TSN then goes on over the TSNs received after it. The caller has
     * checked that {@code target} lies in cum + 1 .. cum + {@link #WINDOW}.
     */
    void forwardTo(int target) {
        if (bits != null && highest != cum) {
            if (Serial.ge(target, highest)) {
                java.util.Arrays.fill(bits, 0L);
            } else {
                for (int t = cum + 1; t != target + 1; t++) {
                    int i = t & MASK;
                    bits[i >>> 6] &= ~(1L << i);
                }
            }
        }
        cum = target;
        if (Serial.gt(cum, highest)) {
            highest = cum;
        }
        advanceOverReceived();
    }

    /** Moves the cumulative TSN on over the TSNs received right after it. */
    private void advanceOverReceived() {
        while (highest != cum) {
            int i = (cum + 1) & MASK;
            long bit = 1L << i;
            if ((bits[i >>> 6] & bit) == 0) {
                break;
            }
            bits[i >>> 6] &= ~bit;
            cum++;
        }
    }

    private boolean bitAtOffset(int d) {
        int i = (cum + d) & MASK;
        return (bits[i >>> 6] & (1L << i)) != 0;
    }

    /**
     * Writes the gap ack blocks (offsets from the cumulative TSN, inclusive ends), lowest first,
     * at most {@code max} of them; returns how many.
     */
    int gapBlocks(int[] starts, int[] ends, int max) {
        int n = 0;
        int top = highest - cum;
        int d = 1;
        while (d <= top && n < max) {
            while (d <= top && !bitAtOffset(d)) {
                d++;
            }
            if (d > top) {
                break;
            }
            int start = d;
            while (d <= top && bitAtOffset(d)) {
                d++;
            }
            starts[n] = start;
            ends[n] = d - 1;
            n++;
        }
        return n;
    }
}
