package org.sctpj.tests.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Bytes per fixed time bin (for example 100 ms), from time 0: a throughput-over-time series. */
final class Series {
    final long binNanos;
    final long[] bytes;

    Series(long binNanos, long durationNanos) {
        this.binNanos = binNanos;
        this.bytes = new long[(int) ((durationNanos + binNanos - 1) / binNanos)];
    }

    void add(long nanos, long n) {
        int i = (int) (nanos / binNanos);
        if (i >= 0 && i < bytes.length) {
            bytes[i] += n;
        }
    }

    /** Megabits per second in bin i. */
    double mbps(int i) {
        return bytes[i] * 8.0 / (binNanos / 1e9) / 1e6;
    }

    /** Mean megabits per second over [fromNanos, toNanos). */
    double meanMbps(long fromNanos, long toNanos) {
        long sum = 0;
        int a = (int) (fromNanos / binNanos);
        int b = (int) Math.min(bytes.length, toNanos / binNanos);
        for (int i = a; i < b; i++) {
            sum += bytes[i];
        }
        return sum * 8.0 / ((b - a) * binNanos / 1e9) / 1e6;
    }

    /** Bins in [fromNanos, toNanos) with no byte at all. */
    int zeroBins(long fromNanos, long toNanos) {
        int n = 0;
        for (int i = (int) (fromNanos / binNanos); i < Math.min(bytes.length, toNanos / binNanos); i++) {
            if (bytes[i] == 0) {
                n++;
            }
        }
        return n;
    }

    /** Writes "time_s,mbps" lines. */
    void writeCsv(Path file) {
        StringBuilder sb = new StringBuilder("time_s,mbps\n");
        for (int i = 0; i < bytes.length; i++) {
            sb.append(String.format("%.1f,%.3f%n", (i + 1) * binNanos / 1e9, mbps(i)));
        }
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, sb.toString(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
