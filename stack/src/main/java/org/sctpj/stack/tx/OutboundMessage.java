package org.sctpj.stack.tx;

/** A user message queued for sending; fragments are cut from it as packets are filled. */
final class OutboundMessage {
    final int streamId;
    final int ppid;
    final boolean unordered;
    final boolean immediate;
    final byte[] data;
    /** Bytes already put into DATA chunks. */
    int sentOffset;
    /** The SSN, assigned when the first fragment is sent (0 for unordered messages). */
    int ssn;

    OutboundMessage(int streamId, int ppid, boolean unordered, boolean immediate, byte[] data) {
        this.streamId = streamId;
        this.ppid = ppid;
        this.unordered = unordered;
        this.immediate = immediate;
        this.data = data;
    }

    int unsentBytes() {
        return data.length - sentOffset;
    }
}
