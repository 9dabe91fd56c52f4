package org.sctpj.journal;

/**
 * One entry of a journal as read back: its index (0 for the first entry of the journal), kind,
 * the endpoint time it was recorded at (nanoseconds of the endpoint's clock) and its body.
 *
 * @param index the entry's position in the journal, from 0
 * @param kind what it records
 * @param now the endpoint's time of the call that made it
 * @param batch the excerpt it was read from (shared: do not modify)
 * @param bodyOffset where its body starts in {@code batch}
 * @param bodyEnd where its body ends in {@code batch}
 */
public record JournalEntry(long index, Kind kind, long now, byte[] batch, int bodyOffset, int bodyEnd) {

    /** A reader over the body. */
    Codec.In body() {
        return new Codec.In(batch, bodyOffset, bodyEnd);
    }

    /** A one-line description of the entry (addresses, chunk summary, arguments, event). */
    public String describe() {
        return Describe.entry(this);
    }
}
