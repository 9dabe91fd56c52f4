package org.sctpj.trace;

import java.util.List;
import java.util.Set;

/**
 * What tshark made of a capture file: an independent check of the bytes our codec writes (see
 * {@link TsharkJudge}).
 *
 * @param frames frames in the file
 * @param packets frames in which tshark decoded SCTP
 * @param malformed frames that tshark marked as malformed (a dissector exception, typically a
 *     length running past the data)
 * @param badChecksums frames whose SCTP CRC32c tshark found wrong
 * @param expertErrors every expert info of severity error or warning, as {@code "frame N: Error:
 *     message"}, in file order (bad checksums and malformed packets appear here too)
 * @param chunkTypes the chunk types tshark decoded, in all frames
 * @param parameterTypes the parameter types tshark decoded, nested ones included
 * @param causeCodes the error cause codes tshark decoded
 * @param problems one line per problem found, {@code "frame N: what"}, in file order
 */
public record Verdict(
        int frames,
        int packets,
        int malformed,
        int badChecksums,
        List<String> expertErrors,
        Set<Integer> chunkTypes,
        Set<Integer> parameterTypes,
        Set<Integer> causeCodes,
        List<String> problems) {

    /** Copies the collections. */
    public Verdict {
        expertErrors = List.copyOf(expertErrors);
        chunkTypes = Set.copyOf(chunkTypes);
        parameterTypes = Set.copyOf(parameterTypes);
        causeCodes = Set.copyOf(causeCodes);
        problems = List.copyOf(problems);
    }

    /**
     * True when tshark decoded SCTP in every frame and found nothing wrong: no malformed packet, no
     * bad checksum, no expert error or warning.
     */
    public boolean clean() {
        return packets == frames && malformed == 0 && badChecksums == 0 && expertErrors.isEmpty();
    }

    /** Exactly {@code "N packets decoded, M malformed, K bad checksums"}. */
    public String summary() {
        return packets + " packets decoded, " + malformed + " malformed, " + badChecksums + " bad checksums";
    }

    /** The summary followed by the problem lines, one per line. */
    public String report() {
        StringBuilder sb = new StringBuilder(summary());
        for (String p : problems) {
            sb.append('\n').append("  ").append(p);
        }
        return sb.toString();
    }
}
