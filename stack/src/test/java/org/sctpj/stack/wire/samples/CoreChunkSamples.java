package org.sctpj.stack.wire.samples;

import java.util.List;
import org.sctpj.stack.wire.chunk.Chunk;

/**
 * Example values of the RFC 9260 chunks, several per element where flags or optional parts differ. Used by the
 * round-trip tests, the fuzzers (as seeds) and the tshark judge (which checks that every type is
 * covered).
 */
public final class CoreChunkSamples {
    private CoreChunkSamples() {}

    /** At least one example of each element of this group. */
    public static List<Chunk> all() {
        return List.of();
    }
}
