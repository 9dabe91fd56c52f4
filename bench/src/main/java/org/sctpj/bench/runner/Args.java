package org.sctpj.bench.runner;

import java.util.HashMap;
import java.util.Map;

/** {@code key=value} command-line arguments of the benchmark processes. */
final class Args {
    private final Map<String, String> values = new HashMap<>();

    Args(String[] args, int from) {
        for (int i = from; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("arguments are key=value, got " + args[i]);
            }
            values.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
    }

    String str(String key, String dflt) {
        return values.getOrDefault(key, dflt);
    }

    int integer(String key, int dflt) {
        String v = values.get(key);
        return v == null ? dflt : Integer.parseInt(v);
    }

    double dbl(String key, double dflt) {
        String v = values.get(key);
        return v == null ? dflt : Double.parseDouble(v);
    }
}
