package org.sctpj.journal;

import java.util.Optional;

/**
 * What a {@link Replay} found.
 *
 * @param entries journal entries read
 * @param inputs inputs fed to the replayed endpoint (packets, timers, commands, polls)
 * @param outputsChecked outputs compared byte for byte (packets, events, messages, send space)
 * @param difference the first difference, or empty when the replay matched the journal entirely
 * @param cut empty for a whole journal; otherwise why it ends early (written without its CLOSED
 *     entry: a crash of the recording process), in a sentence. A cut journal that replayed without
 *     a difference is still {@link #identical()}: everything recorded matched.
 */
public record ReplayResult(
        long entries, long inputs, long outputsChecked, Optional<Difference> difference, String cut) {

    /** True when the journal is whole (it ends with the recorder's CLOSED entry). */
    public boolean complete() {
        return cut.isEmpty();
    }

    /** True when every output matched. */
    public boolean identical() {
        return difference.isEmpty();
    }

    /** One line for a match, the difference report otherwise. */
    public String report() {
        return difference
                .map(Difference::report)
                .orElse("replay identical: " + entries + " entries, " + inputs + " inputs fed, " + outputsChecked
                        + " outputs identical byte for byte\n" + (cut.isEmpty() ? "" : "note: " + cut + "\n"));
    }
}
