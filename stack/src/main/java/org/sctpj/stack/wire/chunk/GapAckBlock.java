package org.sctpj.stack.wire.chunk;

import org.sctpj.stack.wire.Wire;

/**
 * A Gap Ack Block of a SACK (RFC 9260 section 3.3.4) or NR-SACK chunk: the TSNs from {@code
 * cumulativeTsnAck + start} to {@code cumulativeTsnAck + end}, both included, were received.
 *
 * <pre>
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |    Gap Ack Block #1 Start     |     Gap Ack Block #1 End      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * @param start offset of the first TSN of the block from the Cumulative TSN Ack, 0..65535
 * @param end offset of the last TSN of the block, {@code start..65535}
 */
public record GapAckBlock(int start, int end) {

    /** Bytes one block takes on the wire. */
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
