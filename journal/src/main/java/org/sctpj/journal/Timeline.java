package org.sctpj.journal;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.Endpoint;

/**
 * Prints what a journal shows: the associations it saw, and a timeline of its entries (packets in
 * and out with their chunks, user calls, timers, events) with the association state, congestion
 * window and RTO of each path as they change. The states, windows and RTOs are not in the journal:
 * they are read from the endpoint while the journal is replayed into it, so they are derivable
 * only from a journal that replays (a headers-only journal of format 3 does; one of format 2 does
 * not, and the timeline then shows the entries alone, and says so).
 */
public final class Timeline {

    /** What one association did, for {@link #associations}. */
    private static final class Seen {
        final long first;
        long last;
        String state = "";
        String primary = "";
        long packetsIn;
        long packetsOut;

        Seen(long first) {
            this.first = first;
        }
    }

    private final PrintStream out;
    private final long limit;
    private final boolean quietPolls;
    private long printed;
    private final Map<Integer, String> lastState = new HashMap<>();
    private final Map<String, String> lastPath = new HashMap<>();
    private final Map<Integer, Seen> seen = new LinkedHashMap<>();
    private long now;

    private Timeline(PrintStream out, long limit, boolean quietPolls) {
        this.out = out;
        this.limit = limit;
        this.quietPolls = quietPolls;
    }

    /**
     * Prints the timeline of the journal in {@code dir} to {@code out}: at most {@code limit} entry
     * lines (state lines not counted), without the empty polls ("nothing to send") unless {@code
     * withEmptyPolls}. Returns the replay's result (its difference, if any, ends the derived state).
     */
    public static ReplayResult print(Path dir, PrintStream out, long limit, boolean withEmptyPolls) throws IOException {
        Timeline t = new Timeline(out, limit, !withEmptyPolls);
        ReplayResult r = Replay.run(dir, ep -> {}, t::entry);
        if (!r.identical()) {
            out.println("(state below this point is not derived: the replay stopped)");
            out.print(r.report());
        }
        return r;
    }

    /**
     * Prints the associations the journal shows: id, primary peer address, last state, time of
     * first and last packet, packets in and out. Returns the replay's result.
     */
    public static ReplayResult associations(Path dir, PrintStream out) throws IOException {
        Timeline t = new Timeline(new PrintStream(PrintStream.nullOutputStream()), 0, true);
        ReplayResult r = Replay.run(dir, ep -> {}, t::entry);
        out.printf(
                "%-6s %-40s %-20s %12s %12s %10s %10s%n",
                "assoc", "primary peer", "last state", "first ms", "last ms", "pkts in", "pkts out");
        for (Map.Entry<Integer, Seen> e : t.seen.entrySet()) {
            Seen s = e.getValue();
            out.printf(
                    "%-6d %-40s %-20s %12s %12s %10d %10d%n",
                    e.getKey(),
                    s.primary,
                    s.state,
                    Replay.millis(s.first),
                    Replay.millis(s.last),
                    s.packetsIn,
                    s.packetsOut);
        }
        if (t.seen.isEmpty()) {
            out.println("(no association)");
        }
        if (!r.identical()) {
            out.println("(the replay stopped early: the list covers the journal up to there)");
            out.print(r.report());
        }
        return r;
    }

    private void entry(JournalEntry e, Endpoint ep) {
        if (ep != null) {
            state(ep);
        }
        if (e == null) {
            return;
        }
        now = e.now();
        if (e.kind() == Kind.PACKET_IN || e.kind() == Kind.TRANSMIT) {
            for (Seen s : seen.values()) {
                s.last = now;
                if (e.kind() == Kind.PACKET_IN) {
                    s.packetsIn++;
                } else {
                    s.packetsOut++;
                }
            }
        }
        if (quietPolls && e.kind() == Kind.NO_TRANSMIT) {
            return;
        }
        if (printed++ < limit) {
            out.println(String.format("%6d %12s  ", e.index(), Replay.millis(e.now())) + e.describe());
        } else if (printed == limit + 1) {
            out.println("... (more entries: raise --limit)");
        }
    }

    /** Prints the state and each path's cwnd and RTO of every association where they changed. */
    private void state(Endpoint ep) {
        java.util.List<AssociationId> live = ep.associations();
        for (Map.Entry<Integer, Seen> e : seen.entrySet()) {
            if (!live.contains(new AssociationId(e.getKey())) && !"CLOSED".equals(e.getValue().state)) {
                e.getValue().state = "CLOSED";
                lastState.put(e.getKey(), "CLOSED");
                line("assoc " + e.getKey() + " state CLOSED");
            }
        }
        for (AssociationId id : live) {
            Optional<AssociationInfo> oi = ep.info(id);
            if (oi.isEmpty()) {
                continue;
            }
            AssociationInfo i = oi.get();
            Seen s = seen.computeIfAbsent(id.value(), k -> new Seen(now));
            s.state = i.state();
            s.primary = i.primary() == null ? "" : i.primary().getHostAddress();
            if (!i.state().equals(lastState.put(id.value(), i.state()))) {
                line("assoc " + id.value() + " state " + i.state());
            }
            for (AssociationInfo.PathInfo p : i.paths()) {
                String key = id.value() + "/" + p.address().getHostAddress();
                String v = "cwnd " + p.cwnd() + " ssthresh " + p.ssthresh() + " rto " + Replay.millis(p.rtoNanos())
                        + " ms " + p.status();
                if (!v.equals(lastPath.put(key, v))) {
                    line("assoc " + id.value() + " path " + p.address().getHostAddress() + ": " + v);
                }
            }
        }
    }

    private void line(String s) {
        if (printed < limit) {
            out.println(String.format("%6s %12s  ", "", Replay.millis(now)) + "  -- " + s);
        }
    }
}
