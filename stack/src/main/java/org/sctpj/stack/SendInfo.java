package org.sctpj.stack;

import org.sctpj.stack.wire.Wire;

/**
 * How one message is sent (RFC 6458 {@code sctp_sndinfo}): stream, payload protocol identifier,
 * unordered delivery and the SACK-IMMEDIATELY (I) bit.
 *
 * @param streamId the outbound stream, below the association's negotiated outbound stream count
 * @param ppid the Payload Protocol Identifier (opaque to SCTP)
 * @param unordered deliver without regard to the stream's order (U bit)
 * @param immediate ask the peer to SACK at once (I bit, RFC 9260 section 3.3.1); useful for the
 *     last message of a request
 */
public record SendInfo(int streamId, int ppid, boolean unordered, boolean immediate) {

    /** Stream 0, PPID 0, ordered, no I bit. */
    public static final SendInfo DEFAULT = new SendInfo(0, 0, false, false);

    /** Validates the stream id range. */
    public SendInfo {
        Wire.checkU16("streamId", streamId);
    }

    /** Ordered, no I bit, on the given stream with the given PPID. */
    public static SendInfo of(int streamId, int ppid) {
        return new SendInfo(streamId, ppid, false, false);
    }
}
