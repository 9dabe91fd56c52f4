package org.sctpj.bench.runner;

import java.util.Arrays;
import java.util.Locale;

/** Round-trip times of a ping-pong run, and their median and 99th percentile. */
final class Rtt {
    private final long[] samples;
    private int n;

    Rtt(int capacity) {
        samples = new long[capacity];
    }

    void add(long nanos) {
        if (n < samples.length) {
            samples[n++] = nanos;
        }
    }

    int count() {
        return n;
    }

    String result() {
        long[] s = Arrays.copyOf(samples, n);
        Arrays.sort(s);
        if (n == 0) {
            return "round_trips=0";
        }
        return String.format(
                Locale.ROOT,
                "round_trips=%d rtt_median_us=%.1f rtt_p99_us=%.1f rtt_min_us=%.1f rtt_max_us=%.1f",
                n,
                s[(n - 1) / 2] / 1e3,
                s[(int) Math.min(n - 1, Math.ceil(n * 0.99) - 1)] / 1e3,
                s[0] / 1e3,
                s[n - 1] / 1e3);
    }
}
