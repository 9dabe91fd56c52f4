package org.sctpj.stack.wire;

/**
 * What a receiver does with a chunk or parameter type it does not recognise, from the two highest
 * bits of the type (RFC 9260 section 3.2 for chunks, section 3.2.1 for parameters).
 */
public enum UnrecognizedAction {
    /** 00: stop processing; discard (the packet for a chunk, the chunk for a parameter). */
    STOP_DISCARD(false, false),
    /** 01: as {@link #STOP_DISCARD}, and report it (ERROR or Unrecognized Parameter). */
    STOP_DISCARD_REPORT(false, true),
    /** 10: skip it and continue processing. */
    SKIP(true, false),
    /** 11: skip it, continue processing, and report it. */
    SKIP_REPORT(true, true);

    private final boolean continueProcessing;
    private final boolean report;

    UnrecognizedAction(boolean continueProcessing, boolean report) {
        this.continueProcessing = continueProcessing;
        this.report = report;
    }

    /** True if the rest of the packet (or chunk) is still processed. */
    public boolean continueProcessing() {
        return continueProcessing;
    }

    /** True if the sender is told. */
    public boolean report() {
        return report;
    }

    /** The action of an 8-bit chunk type. */
    public static UnrecognizedAction ofChunkType(int type) {
        return values()[(type >>> 6) & 3];
    }

    /** The action of a 16-bit parameter type. */
    public static UnrecognizedAction ofParameterType(int type) {
        return values()[(type >>> 14) & 3];
    }
}
