package org.sctpj.stack.wire.samples;

import java.util.List;
import org.sctpj.stack.wire.cause.ErrorCause;

/**
 * Example values of every error cause, several per element where flags or optional parts differ. Used by the
 * round-trip tests, the fuzzers (as seeds) and the tshark judge (which checks that every type is
 * covered).
 */
public final class CauseSamples {
    private CauseSamples() {}

    /** At least one example of each element of this group. */
    public static List<ErrorCause> all() {
        return List.of();
    }
}
