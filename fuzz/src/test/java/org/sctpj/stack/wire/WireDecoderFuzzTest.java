package org.sctpj.stack.wire;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.SplittableRandom;

/**
 * Coverage-guided fuzzing (Jazzer) of every decoder entry point: {@link SctpPacket#decode} under
 * each {@link ChecksumPolicy} (RFC 9260 section 6.8), the chunk dispatch {@code Chunks.decode}
 * (section 3.2) and the parameter and error-cause lists (sections 3.2.1 and 3.3.10), with the
 * invariants of {@link DecodeChecks}: nothing is thrown, a failure points inside the input, a success
 * re-encodes and decodes again to an equal value, and the result does not depend on where the
 * bytes sit in their buffer.
 *
 * <p>The CRC32c is filled in before decoding, so that a mutation of the chunks is not stopped by
 * the checksum and reaches the chunk, parameter and cause decoders; an input whose checksum field
 * is zero keeps it, to reach the zero-checksum path (RFC 9653). Without {@code JAZZER_FUZZ} the
 * test runs once over each stored input in {@code WireDecoderFuzzTestInputs/}.
 */
class WireDecoderFuzzTest {

    @FuzzTest(maxDuration = "20s")
    void decodersKeepTheirInvariants(byte[] input) {
        byte[] in = input.clone();
        if (in.length >= SctpPacket.HEADER_LENGTH && !zeroChecksum(in)) {
            FuzzInputs.fillChecksum(in);
        }
        DecodeChecks.exercise(in, new SplittableRandom(in.length), new DecodeChecks.Stats());
    }

    private static boolean zeroChecksum(byte[] in) {
        return (in[8] | in[9] | in[10] | in[11]) == 0;
    }
}
