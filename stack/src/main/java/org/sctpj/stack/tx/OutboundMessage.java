package org.sctpj.stack.tx;

/**
 * A user message queued for sending; fragments are cut from it as packets are filled. Recycled by
 * the sender's {@link SendPool} once every fragment is cumulatively acknowledged, so its fields
 * are set by {@link #init} rather than a constructor.
 */
final class OutboundMessage {
    int streamId;
    int ppid;
    boolean unordered;
    boolean immediate;
    /** The message is {@code data[0..length)}; a pooled array may be longer. */
    byte[] data;

    int length;
    /** Bytes already put into DATA chunks. */
    int sentOffset;
    /** The SSN, assigned when the first fragment is sent (0 for unordered messages). */
    int ssn;
    /** Its place in the order the user queued messages, across streams (set by the {@link SendQueue}). */
    long seq;

    OutboundMessage init(int streamId, int ppid, boolean unordered, boolean immediate, byte[] data, int length) {
        this.streamId = streamId;
        this.ppid = ppid;
        this.unordered = unordered;
        this.immediate = immediate;
        this.data = data;
        this.length = length;
        this.sentOffset = 0;
        this.ssn = 0;
        return this;
    }

    int unsentBytes() {
        return length - sentOffset;
    }

    /** The message's bytes as an array of exactly its length (the pooled array itself when it fits). */
    byte[] exactData() {
        return data.length == length ? data : java.util.Arrays.copyOf(data, length);
    }
}
