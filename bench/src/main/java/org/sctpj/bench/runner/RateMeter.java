package org.sctpj.bench.runner;

import java.util.Locale;

/**
 * Receiver-side goodput: user bytes from the first message after a warm-up period to the last
 * message. The warm-up (counted from the first message) keeps JIT compilation out of the figure of
 * the Java contenders; usrsctp's C sink measures from its first message.
 *
 * <p>The clock is read for the first message and then once every {@value #CLOCK_EVERY} messages,
 * not for each: with 100-byte messages a clock read per message was about 4% of the sink's CPU
 * (measured with perf), a cost of the measurement rather than of the stack measured. The figures
 * stay exact: the measured bytes are those counted up to the last clock reading, over the time up
 * to that reading; the messages after it (fewer than {@value #CLOCK_EVERY}) are counted in {@code
 * rx_msgs} and {@code rx_bytes} only.
 */
final class RateMeter {
    /** How many messages share one clock reading. */
    static final int CLOCK_EVERY = 16;

    private final long warmupNanos;
    private long first = -1;
    private long measuredFrom = -1;
    /** The last clock reading, and the bytes (all, and after the warm-up) counted up to it. */
    private long last;

    private long bytesAtLast;
    private long measuredAtLast;
    private long bytes;
    private long messages;
    private long measuredBytes;
    private final CpuMeter cpu = new CpuMeter();

    RateMeter(double warmupSeconds) {
        this.warmupNanos = (long) (warmupSeconds * 1e9);
    }

    /** Counts one message of {@code n} bytes received now. */
    void add(long n) {
        bytes += n;
        if (measuredFrom >= 0) {
            measuredBytes += n;
        }
        if (messages++ % CLOCK_EVERY != 0) {
            return;
        }
        long t = System.nanoTime();
        if (first < 0) {
            first = t;
        } else if (measuredFrom < 0 && t - first >= warmupNanos) {
            measuredFrom = t; // measured: the bytes of the messages after this one
            measuredBytes = 0;
            cpu.start(0);
        }
        last = t;
        bytesAtLast = bytes;
        measuredAtLast = measuredBytes;
    }

    /**
     * The result keys: messages, bytes, MB/s (10^6 bytes) after the warm-up and over the whole run,
     * and the CPU seconds per GB after the warm-up ({@link CpuMeter}; the window ends now, shortly
     * after the last message).
     */
    String result() {
        cpu.stop(measuredAtLast);
        double all = last > first ? bytesAtLast / ((last - first) / 1e9) / 1e6 : 0;
        double measured =
                measuredFrom > 0 && last > measuredFrom ? measuredAtLast / ((last - measuredFrom) / 1e9) / 1e6 : all;
        return String.format(
                Locale.ROOT,
                "rx_msgs=%d rx_bytes=%d mb_per_s=%.3f mb_per_s_all=%.3f measured_s=%.3f%s",
                messages,
                bytes,
                measured,
                all,
                measuredFrom > 0 ? (last - measuredFrom) / 1e9 : (last - first) / 1e9,
                cpu.result());
    }
}
