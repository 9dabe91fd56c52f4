package org.sctpj.journal;

import java.util.List;

/**
 * The first place where a replay did not do what the journal recorded.
 *
 * @param index the journal entry where it showed (from 0)
 * @param now the endpoint time of that entry, in nanoseconds
 * @param what what went wrong, in a sentence
 * @param expected the recorded output (a chunk summary for packets), or "" when none
 * @param actual what the replayed endpoint produced instead, or "" when nothing
 * @param context descriptions of the entries just before it, oldest first, each "index @time: ..."
 */
public record Difference(long index, long now, String what, String expected, String actual, List<String> context) {

    /** A multi-line report: the difference, then its context. */
    public String report() {
        StringBuilder b = new StringBuilder();
        b.append("first difference at journal entry ")
                .append(index)
                .append(" (t=")
                .append(Replay.millis(now))
                .append(" ms): ")
                .append(what)
                .append('\n');
        if (!expected.isEmpty()) {
            b.append("  expected: ").append(expected).append('\n');
        }
        if (!actual.isEmpty()) {
            b.append("  actual:   ").append(actual).append('\n');
        }
        b.append("  context (the entries before it):\n");
        for (String c : context) {
            b.append("    ").append(c).append('\n');
        }
        return b.toString();
    }
}
