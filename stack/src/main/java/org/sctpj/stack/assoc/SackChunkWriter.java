package org.sctpj.stack.assoc;

import org.sctpj.stack.rx.SackWriter;
import org.sctpj.stack.tx.PacketBuilder;

/**
 * Writes the receiver's SACK fields straight into the packet being built (no records, no boxing:
 * a SACK goes out for every second packet received, RFC 9260 section 6.2).
 */
final class SackChunkWriter implements SackWriter {
    private final PacketBuilder pb;

    SackChunkWriter(PacketBuilder pb) {
        this.pb = pb;
    }

    @Override
    public void sack(int cumTsn, long aRwnd, int[] gapStarts, int[] gapEnds, int gapCount, int[] dups, int dupCount) {
        pb.tryAddSack(cumTsn, (int) Math.min(aRwnd, 0xffffffffL), gapStarts, gapEnds, gapCount, dups, dupCount);
    }

    @Override
    public void nrSack(int cumTsn, long aRwnd, int[] nrStarts, int[] nrEnds, int nrCount, int[] dups, int dupCount) {
        pb.tryAddNrSack(cumTsn, (int) Math.min(aRwnd, 0xffffffffL), nrStarts, nrEnds, nrCount, dups, dupCount);
    }
}
