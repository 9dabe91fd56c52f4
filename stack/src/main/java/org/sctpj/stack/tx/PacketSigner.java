package org.sctpj.stack.tx;

import java.nio.ByteBuffer;

/**
 * What {@link PacketBuilder} needs to authenticate the packets it builds (RFC 4895 section 6.2):
 * which chunk types the peer requires to be authenticated, how long the AUTH chunk is, how to
 * write it with a zero HMAC, and how to fill the HMAC once the packet is complete. Implemented by
 * the association's authentication procedure.
 */
public interface PacketSigner {

    /** The AUTH chunk's length with its padding (a multiple of 4). */
    int authLength();

    /** Whether the peer requires chunks of {@code chunkType} to come after an AUTH chunk. */
    boolean requires(int chunkType);

    /** Writes the AUTH chunk, HMAC field zero, at {@code out}'s position (moving it past the chunk). */
    void writeAuth(ByteBuffer out);

    /**
     * Computes the HMAC over {@code buf[authOffset, end)} (the AUTH chunk, whose HMAC field is
     * still zero, and every chunk after it with padding) and writes it into the AUTH chunk.
     */
    void sign(ByteBuffer buf, int authOffset, int end);
}
