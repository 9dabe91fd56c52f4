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

    /**
     * One NR-SACK (chunk type 0x10, draft-natarajan-tsvwg-sctp-nrsack-08 section 4.1) in which
     * every out-of-order TSN is reported non-renegable: no (renegable) Gap Ack Block, the blocks as
     * NR Gap Ack Blocks. Written instead of {@link #sack} once NR-SACK was negotiated ({@link
     * DataReceiver#writeSack(SackWriter, int, boolean)}). A writer that never asks for NR-SACKs need
     * not implement it.
     *
     * @param nrStarts NR gap block start offsets from cumTsn (1..65535)
     * @param nrEnds NR gap block end offsets, inclusive
     * @param nrCount the number of NR gap blocks
     * @throws UnsupportedOperationException unless implemented
     */
    default void nrSack(int cumTsn, long aRwnd, int[] nrStarts, int[] nrEnds, int nrCount, int[] dups, int dupCount) {
        throw new UnsupportedOperationException("this SackWriter writes no NR-SACK: implement nrSack");
    }
}
