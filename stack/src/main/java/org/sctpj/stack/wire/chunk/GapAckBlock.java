package org.sctpj.stack.wire.chunk;

import org.sctpj.stack.wire.Wire;

/**
 * Gap Ack Block of a SACK (RFC 9260 section 3.3.4) or NR-SACK chunk: a run of TSNs received
 * beyond the Cumulative TSN Ack, as two 16-bit offsets from it.
 *
 * <pre>
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |    Gap Ack Block Start        |      Gap Ack Block End        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The block covers the TSNs from {@code cumTsnAck + start} to {@code cumTsnAck + end}
 * inclusive (serial arithmetic).
 *
 * @param start offset of the first TSN of the block, 0..65535
 * @param end offset of the last TSN of the block, {@code start..65535}
 */
public record GapAckBlock(int start, int end) {

    /** Bytes a block takes on the wire. */
    public static final int LENGTH = 4;

    /** Validates the fields. */
    public GapAckBlock {
        Wire.checkU16("start", start);
        Wire.checkU16("end", end);
        if (start > end) {
            throw new IllegalArgumentException(
                    "gap ack block start " + start + " is after its end " + end + ": give start <= end");
        }
    }
}
