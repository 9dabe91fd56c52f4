package org.sctpj.stack.wire;

/**
 * Serial number arithmetic (RFC 1982) for TSNs (32 bits) and SSNs/MIDs (16 and 32 bits), as RFC
 * 9260 section 1.6 requires: comparisons wrap around.
 */
public final class Serial {
    private Serial() {}

    /** {@code a < b} for 32-bit serial numbers. */
    public static boolean lt(int a, int b) {
        return a - b < 0;
    }

    /** {@code a <= b} for 32-bit serial numbers. */
    public static boolean le(int a, int b) {
        return a - b <= 0;
    }

    /** {@code a > b} for 32-bit serial numbers. */
    public static boolean gt(int a, int b) {
        return a - b > 0;
    }

    /** {@code a >= b} for 32-bit serial numbers. */
    public static boolean ge(int a, int b) {
        return a - b >= 0;
    }

    /** The larger of two 32-bit serial numbers. */
    public static int max(int a, int b) {
        return gt(a, b) ? a : b;
    }

    /** {@code a < b} for 16-bit serial numbers (SSNs), given as 0..65535. */
    public static boolean lt16(int a, int b) {
        return (short) (a - b) < 0;
    }

    /** {@code a <= b} for 16-bit serial numbers. */
    public static boolean le16(int a, int b) {
        return (short) (a - b) <= 0;
    }
}
