package org.sctpj.tests.interop;

import java.util.ArrayList;
import java.util.List;

/**
 * The results table of the interop matrix: one row per cell, {@code peer llp direction case ->
 * result}, ending with {@code "N passed, N failed"}. Rows are added as cells finish (any thread).
 */
public final class InteropTable {

    /** One row. */
    public record Row(String peer, Llp llp, Direction direction, InteropCase c, Outcome outcome) {}

    private final List<Row> rows = new ArrayList<>();

    /** Adds a row. */
    public synchronized void add(Row r) {
        rows.add(r);
    }

    /** The rows so far. */
    public synchronized List<Row> rows() {
        return List.copyOf(rows);
    }

    /** Rows with {@code status}. */
    public synchronized long count(Outcome.Status status) {
        return rows.stream().filter(r -> r.outcome().status() == status).count();
    }

    /** The table as text, ending with the {@code "N passed, N failed"} line. */
    public synchronized String render() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                "%-8s %-5s %-10s %-22s %-8s %7s  %s%n",
                "peer", "llp", "direction", "case", "result", "seconds", "detail"));
        long totalMillis = 0;
        for (Row r : rows) {
            Outcome o = r.outcome();
            totalMillis += o.millis();
            String detail = o.detail().replace('\n', ' ');
            if (detail.length() > 160) {
                detail = detail.substring(0, 157) + "...";
            }
            sb.append(String.format(
                    "%-8s %-5s %-10s %-22s %-8s %7.1f  %s%n",
                    r.peer(),
                    r.llp().label(),
                    r.direction().label(),
                    r.c().label(),
                    o.status().label(),
                    o.millis() / 1000.0,
                    detail));
        }
        sb.append(String.format(
                "%d n/a, %d skipped, %d known defects (not run), %.1f s in cases%n",
                count(Outcome.Status.NOT_APPLICABLE),
                count(Outcome.Status.SKIPPED),
                count(Outcome.Status.KNOWN_DEFECT),
                totalMillis / 1000.0));
        sb.append(count(Outcome.Status.PASS))
                .append(" passed, ")
                .append(count(Outcome.Status.FAIL))
                .append(" failed");
        return sb.toString();
    }
}
