package org.sctpj.stack.wire.samples;

import java.util.List;
import org.sctpj.stack.wire.param.Parameter;

/**
 * Example values of every parameter, several per element where flags or optional parts differ. Used by the
 * round-trip tests, the fuzzers (as seeds) and the tshark judge (which checks that every type is
 * covered).
 */
public final class ParameterSamples {
    private ParameterSamples() {}

    /** At least one example of each element of this group. */
    public static List<Parameter> all() {
        return List.of();
    }
}
