package org.sctpj.journal;

/**
 * The kinds of journal entries. As a {@link JournalReader} gives them (and as format 2 stored them),
 * each entry is framed {@code [i32 body length][u8 kind][i64 now][body]}, little-endian; several
 * entries are one Chronicle Queue excerpt (a batch). Format 3 stores them compactly ({@code
 * Compact}) and the reader decodes them to that form.
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
    CLOSED(false),
    /**
     * The packet of the PACKET_IN entry before it failed its CRC32c check and was dropped (format 3
     * on): a replay of a journal recorded with headers only, which rebuilds each packet's checksum,
     * gives that packet a wrong one again.
     */
    BAD_CHECKSUM(false);

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
