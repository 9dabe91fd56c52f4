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
    /**
     * With I-DATA, the Message Identifier (RFC 8260 section 2.1), assigned when the first fragment
     * is sent, from the stream's ordered or unordered counter; a forward-TSN skip names it.
     */
    int mid;
    /** With I-DATA, the Fragment Sequence Number of the next fragment (0 for the first). */
    int nextFsn;
    /** With I-DATA, its fragments after the first are numbered from 0 (Linux 6.1) instead of 1. */
    boolean linuxFsn;
    /** The TSN of its first fragment, valid once {@link #sentOffset} is above 0. */
    int firstTsn;

    // Partial reliability (RFC 3758, RFC 7496), see Abandonment.
    /** {@link Abandonment#NONE}, {@link Abandonment#TTL}, {@link Abandonment#RTX} or {@link Abandonment#PRIO}. */
    byte prKind;
    /** The policy's value: retransmissions (RTX) or priority (PRIO). */
    long prValue;
    /** When the lifetime ends (TTL): it is expired once the time is past this. */
    long expiresAt;
    /** Abandoned: never sent again, its data handed back to the user. */
    boolean abandoned;
    /** Its place in the order the user queued messages, across streams (set by the {@link SendQueue}). */
    long seq;
    /**
     * Bytes of its fragments acknowledged by an NR-SACK (non-renegable): once they are the whole
     * message it is delivered for good, and its data array goes back to the pool at once.
     */
    int nrAckedBytes;
    /** Bytes of its NR-acknowledged fragments still in the retransmission queue. */
    int nrQueuedBytes;

    OutboundMessage init(int streamId, int ppid, boolean unordered, boolean immediate, byte[] data, int length) {
        this.streamId = streamId;
        this.ppid = ppid;
        this.unordered = unordered;
        this.immediate = immediate;
        this.data = data;
        this.length = length;
        this.sentOffset = 0;
        this.ssn = 0;
        this.mid = 0;
        this.nextFsn = 0;
        this.linuxFsn = false;
        this.firstTsn = 0;
        this.prKind = Abandonment.NONE;
        this.prValue = 0;
        this.expiresAt = Long.MAX_VALUE;
        this.abandoned = false;
        this.nrAckedBytes = 0;
        this.nrQueuedBytes = 0;
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
