package org.sctpj.journal;

/**
 * The kinds of journal entries. Each entry is framed as {@code [i32 body length][u8 kind][i64 now]
 * [body]}, little-endian; several entries are written as one Chronicle Queue excerpt (a batch).
 */
public enum Kind {
    /** The endpoint was created: port, local addresses, options, lower layer, flags. */
    CREATED(true),
    /** A random draw of the endpoint: the method and its result. */
    DRAW(false),
    /** A random draw of bytes ({@code nextBytes}). */
    DRAW_BYTES(false),
    /** A packet into {@code handleInput}: addresses, ECN codepoint (-1 in journals written before the core took ECN), bytes. */
    PACKET_IN(true),
    /** An ICMP report into {@code handleIcmp}. */
    ICMP(true),
    /** {@code handleTimeout}. */
    TIMEOUT(true),
    /** {@code send} or {@code sendOwned}: association, SendInfo, message. */
    SEND(true),
    /** Any other state-changing call, by name, with its arguments. */
    COMMAND(true),
    /** A {@code pollTransmit} that produced a packet: buffer room, addresses, bytes. */
    TRANSMIT(true),
    /** A {@code pollTransmit} that found nothing. */
    NO_TRANSMIT(true),
    /** An event handed to the handler or polled. */
    EVENT(false),
    /** A message handed to the handler in place. */
    MESSAGE(false),
    /** Free send space handed to the handler. */
    FREED(false),
    /**
     * Batches were dropped here because the writer thread was behind ({@code WhenBehind.DROP}): the
     * number of entries and of batches lost. A replay stops at it.
     */
    GAP(false),
    /**
     * The recorder was closed: the number of entries it recorded before this one and how many of
     * them were dropped. Written last; a journal of format 2 without it was cut (the recording
     * process stopped without closing the recorder, e.g. a crash, losing what was still in memory).
     */
    CLOSED(false);

    private final boolean input;

    Kind(boolean input) {
        this.input = input;
    }

    /** True for what a replay feeds into the endpoint, false for what it compares or draws. */
    public boolean isInput() {
        return input;
    }

    private static final Kind[] VALUES = values();

    /** The kind with this code (its ordinal). */
    static Kind of(int code) {
        if (code < 0 || code >= VALUES.length) {
            throw new IllegalArgumentException("unknown journal entry kind " + code);
        }
        return VALUES[code];
    }
}
