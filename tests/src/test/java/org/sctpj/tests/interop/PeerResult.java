package org.sctpj.tests.interop;

import java.util.Map;

/**
 * The result of one peer run as {@code key=value} pairs. Every peer reports at least: {@code
 * status} (ok, fail, timeout), {@code assocs_up}, {@code assocs_ended}, {@code comm_lost}, {@code
 * restarts}, {@code peer_shutdown} (SHUTDOWN received), {@code ostreams}, {@code istreams}, {@code
 * rx_msgs}, {@code errors} and {@code first_error}; servers also {@code echoed}.
 *
 * @param values the pairs
 */
public record PeerResult(Map<String, String> values) {

    /** Copies the map. */
    public PeerResult {
        values = Map.copyOf(values);
    }

    /** {@code status=ok}. */
    public boolean ok() {
        return "ok".equals(values.get("status"));
    }

    /** The value as a number; -1 when absent. */
    public long getLong(String key) {
        String v = values.get(key);
        return v == null ? -1 : Long.parseLong(v);
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
