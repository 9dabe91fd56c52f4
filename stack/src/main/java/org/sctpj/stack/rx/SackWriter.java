package org.sctpj.stack.rx;

/**
 * Receives the content of a SACK (RFC 9260 section 3.3.4) from {@link DataReceiver#writeSack};
 * the association turns it into a SACK chunk. The arrays belong to the receiver and are reused:
 * read them before returning.
 */
@FunctionalInterface
public interface SackWriter {

    /**
     * One SACK.
     *
     * @param cumTsn the Cumulative TSN Ack
     * @param aRwnd the Advertised Receiver Window Credit
     * @param gapStarts gap block start offsets from cumTsn (1..65535)
     * @param gapEnds gap block end offsets, inclusive
     * @param gapCount the number of gap blocks
     * @param dups duplicate TSNs
     * @param dupCount the number of duplicate TSNs
     */
    void sack(int cumTsn, long aRwnd, int[] gapStarts, int[] gapEnds, int gapCount, int[] dups, int dupCount);
}
