package org.sctpj.tools;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Minimal {@code --name value} / {@code --flag} parsing for the command-line tools. */
final class Args {
    final List<String> positional = new ArrayList<>();
    private final Map<String, String> named = new HashMap<>();

    Args(String[] args, Set<String> flags) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("--")) {
                String k = a.substring(2);
                int eq = k.indexOf('=');
                if (eq >= 0) {
                    named.put(k.substring(0, eq), k.substring(eq + 1));
                } else if (flags.contains(k)) {
                    named.put(k, "true");
                } else if (i + 1 < args.length) {
                    named.put(k, args[++i]);
                } else {
                    throw new IllegalArgumentException("--" + k + " needs a value");
                }
            } else {
                positional.add(a);
            }
        }
    }

    String get(String k, String def) {
        return named.getOrDefault(k, def);
    }

    int getInt(String k, int def) {
        String v = named.get(k);
        return v == null ? def : Integer.parseInt(v);
    }

    boolean flag(String k) {
        return Boolean.parseBoolean(named.getOrDefault(k, "false"));
    }

    /** 3s, 500ms, 2m, or plain seconds. */
    Duration duration(String k, Duration def) {
        String v = named.get(k);
        if (v == null) {
            return def;
        }
        if (v.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
        }
        if (v.endsWith("s")) {
            return Duration.ofMillis((long) (Double.parseDouble(v.substring(0, v.length() - 1)) * 1000));
        }
        if (v.endsWith("m")) {
            return Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)) * 60);
        }
        return Duration.ofMillis((long) (Double.parseDouble(v) * 1000));
    }

    /** 100, 64k, 10M, 1G. */
    static long bytes(String v) {
        v = v.trim();
        long mul = 1;
        char c = Character.toUpperCase(v.charAt(v.length() - 1));
        if (c == 'K' || c == 'M' || c == 'G') {
            mul = c == 'K' ? 1024 : c == 'M' ? 1024 * 1024 : 1024L * 1024 * 1024;
            v = v.substring(0, v.length() - 1);
        }
        return Long.parseLong(v) * mul;
    }

    long getBytes(String k, long def) {
        String v = named.get(k);
        return v == null ? def : bytes(v);
    }

    Set<String> keys() {
        return named.keySet();
    }
}
