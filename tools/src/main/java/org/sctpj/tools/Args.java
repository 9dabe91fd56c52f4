package org.sctpj.tools;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The value syntaxes of the command-line options, as picocli converters: each refuses a bad value
 * with a {@link TypeConversionException} whose message says what is accepted (picocli turns it
 * into the one-line error and exit code 2 of {@link Main}).
 *
 * <p>Units, once for all the tools: byte counts take the SI suffixes {@code k} (10^3), {@code M}
 * (10^6) and {@code G} (10^9), or the binary ones {@code Ki} (2^10), {@code Mi} (2^20) and {@code
 * Gi} (2^30); rates are printed in MB/s with MB = 10^6 bytes, and Mbit/s = 10^6 bits per second.
 */
final class Args {
    private Args() {}

    /**
     * A byte count: digits with an optional suffix k, M, G (powers of 10) or Ki, Mi, Gi (powers of
     * 2), e.g. 100, 64Ki, 1G.
     *
     * @throws IllegalArgumentException saying the syntax, for anything else or a negative count
     */
    static long bytes(String v) {
        String s = v.trim();
        long mul = 1;
        if (s.endsWith("Ki") || s.endsWith("Mi") || s.endsWith("Gi")) {
            mul = switch (s.charAt(s.length() - 2)) {
                case 'K' -> 1L << 10;
                case 'M' -> 1L << 20;
                default -> 1L << 30;
            };
            s = s.substring(0, s.length() - 2);
        } else if (s.endsWith("k") || s.endsWith("K") || s.endsWith("M") || s.endsWith("G")) {
            mul = switch (Character.toUpperCase(s.charAt(s.length() - 1))) {
                case 'K' -> 1_000L;
                case 'M' -> 1_000_000L;
                default -> 1_000_000_000L;
            };
            s = s.substring(0, s.length() - 1);
        }
        long n;
        try {
            n = Math.multiplyExact(Long.parseLong(s), mul);
        } catch (NumberFormatException | ArithmeticException e) {
            n = -1;
        }
        if (n < 0 || s.startsWith("+")) {
            throw new IllegalArgumentException(
                    "'" + v + "' is not a byte count (digits with an optional k, M, G = 10^3, 10^6, 10^9, or Ki, Mi, Gi"
                            + " = 2^10, 2^20, 2^30)");
        }
        return n;
    }

    /** A positive byte count ({@link #bytes}); 0 is refused. */
    static final class PositiveBytes implements ITypeConverter<Long> {
        @Override
        public Long convert(String v) {
            long n = convertBytes(v);
            if (n == 0) {
                throw new TypeConversionException("'" + v + "' must be more than 0 bytes");
            }
            return n;
        }
    }

    /** A message size: 1 byte .. 2^31-1 bytes ({@link #bytes} syntax). */
    static final class MessageSize implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String v) {
            long n = convertBytes(v);
            if (n < 1 || n > Integer.MAX_VALUE) {
                throw new TypeConversionException("'" + v + "' is not a message size (1 byte .. 2Gi-1)");
            }
            return (int) n;
        }
    }

    private static long convertBytes(String v) {
        try {
            return bytes(v);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }

    /** A duration: a number with ms, s or m (3s, 500ms, 2m, 1.5s), or plain seconds; more than 0. */
    static final class PositiveDuration implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String v) {
            String s = v.trim().toLowerCase(Locale.ROOT);
            double scale = 1000; // to milliseconds
            if (s.endsWith("ms")) {
                scale = 1;
                s = s.substring(0, s.length() - 2);
            } else if (s.endsWith("s")) {
                s = s.substring(0, s.length() - 1);
            } else if (s.endsWith("m")) {
                scale = 60_000;
                s = s.substring(0, s.length() - 1);
            }
            double ms;
            try {
                ms = Double.parseDouble(s) * scale;
            } catch (NumberFormatException e) {
                ms = Double.NaN;
            }
            if (!(ms >= 1) || ms > 1e12 || s.contains("e") || s.contains("E")) {
                throw new TypeConversionException("'" + v
                        + "' is not a duration of 1 ms or more (e.g. 3s, 500ms, 2m; plain numbers are seconds)");
            }
            return Duration.ofMillis((long) ms);
        }
    }

    /** A port number 0..65535 (0: one the system chooses, where allowed). */
    static final class Port implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String v) {
            int p = parseInt(v, "a port number 0..65535");
            if (p < 0 || p > 65535) {
                throw new TypeConversionException("'" + v + "' is not a port number 0..65535");
            }
            return p;
        }
    }

    /** A count of 1 or more. */
    static final class Positive implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String v) {
            int n = parseInt(v, "a whole number of 1 or more");
            if (n < 1) {
                throw new TypeConversionException("'" + v + "' is not a whole number of 1 or more");
            }
            return n;
        }
    }

    /** A stream count: 1..65535 (RFC 9260 section 3.3.2: at most 65535 outbound streams). */
    static final class StreamCount implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String v) {
            int n = parseInt(v, "a stream count 1..65535");
            if (n < 1 || n > 65535) {
                throw new TypeConversionException("'" + v + "' is not a stream count 1..65535");
            }
            return n;
        }
    }

    /** The send threshold: on (= the message size), off (0), or a byte count. */
    static final class Threshold implements ITypeConverter<String> {
        @Override
        public String convert(String v) {
            if (!v.equals("on") && !v.equals("off")) {
                try {
                    bytes(v);
                } catch (IllegalArgumentException e) {
                    throw new TypeConversionException("'" + v + "' is not on, off or a byte count");
                }
            }
            return v;
        }
    }

    /**
     * Refuses, before anything starts, an output file whose directory does not exist or cannot be
     * written ({@code file} null: the option was not given).
     */
    static void checkWritable(CommandLine cl, String option, Path file) {
        if (file == null) {
            return;
        }
        Path dir = file.toAbsolutePath().getParent();
        if (Files.isDirectory(file) || dir == null || !Files.isDirectory(dir) || !Files.isWritable(dir)) {
            throw new CommandLine.ParameterException(
                    cl,
                    "Invalid value for option '" + option + "': '" + file + "' is not a file in a writable directory");
        }
    }

    /** The address {@code --host} names, or a refusal (exit code 2) when it does not resolve. */
    static InetAddress address(CommandLine cl, String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new CommandLine.ParameterException(
                    cl, "Invalid value for option '--host': unknown host '" + host + "'");
        }
    }

    private static int parseInt(String v, String what) {
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + v + "' is not " + what);
        }
    }
}
