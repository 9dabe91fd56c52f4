package org.sctpj.bench.runner;

import java.util.Locale;

/**
 * Receiver-side goodput: user bytes from the first message after a warm-up period to the last
 * message. The warm-up (counted from the first message) keeps JIT compilation out of the figure of
 * the Java contenders; usrsctp's C sink measures from its first message.
 */
final class RateMeter {
    private final long warmupNanos;
    private long first = -1;
    private long measuredFrom = -1;
    private long last;
    private long bytes;
    private long messages;
    private long measuredBytes;

    RateMeter(double warmupSeconds) {
        this.warmupNanos = (long) (warmupSeconds * 1e9);
    }

    /** Counts one message of {@code n} bytes received now. */
    void add(long n) {
        long t = System.nanoTime();
        if (first < 0) {
            first = t;
        }
        bytes += n;
        messages++;
        if (measuredFrom < 0) {
            if (t - first >= warmupNanos) {
                measuredFrom = t;
            }
        } else {
            measuredBytes += n;
        }
        last = t;
    }

    /** The result keys: messages, bytes, MB/s (10^6 bytes) after the warm-up and over the whole run. */
    String result() {
        double all = last > first ? bytes / ((last - first) / 1e9) / 1e6 : 0;
        double measured =
                measuredFrom > 0 && last > measuredFrom ? measuredBytes / ((last - measuredFrom) / 1e9) / 1e6 : all;
        return String.format(
                Locale.ROOT,
                "rx_msgs=%d rx_bytes=%d mb_per_s=%.3f mb_per_s_all=%.3f measured_s=%.3f",
                messages,
                bytes,
                measured,
                all,
                measuredFrom > 0 ? (last - measuredFrom) / 1e9 : (last - first) / 1e9);
    }
}
