package org.sctpj.stack.wire;

/** How {@link SctpPacket#decode} treats the checksum field. */
public enum ChecksumPolicy {
    /** The CRC32c must match (RFC 9260 section 6.8). */
    VERIFY,
    /**
     * A zero checksum is accepted, any other value must match: for a receiver that announced the
     * Zero Checksum Acceptable parameter (RFC 9653 section 5.3).
     */
    VERIFY_OR_ZERO,
    /** The checksum is not looked at (for example when a lower layer has verified it already). */
    IGNORE
}
