package org.sctpj.stack.wire;

/** The kinds of malformation the codec recognises; each has its own test. */
public enum ParseErrorKind {
    /** Fewer than the 12 bytes of the common header (RFC 9260 section 3.1). */
    PACKET_TOO_SHORT,
    /** The CRC32c in the common header does not match the packet (RFC 9260 section 6.8). */
    BAD_CHECKSUM,
    /** A packet with a common header but no chunk (RFC 9260 section 3: one or more chunks). */
    NO_CHUNKS,
    /** Fewer than 4 bytes remain where a chunk header should start. */
    CHUNK_HEADER_TRUNCATED,
    /** A Chunk Length below 4, the size of the chunk header itself (RFC 9260 section 3.2). */
    CHUNK_LENGTH_TOO_SMALL,
    /** A Chunk Length that runs past the end of the packet. */
    CHUNK_LENGTH_PAST_PACKET,
    /**
     * The padding of a chunk runs past the end of the packet, so the packet length is not a
     * multiple of 4 (RFC 9260 section 3.2: every chunk is padded to a multiple of 4 bytes).
     */
    BAD_PADDING,
    /** A chunk shorter than its fixed fields, or a fixed-size chunk of the wrong length. */
    TRUNCATED_FIXED_FIELDS,
    /** A DATA or I-DATA chunk that carries no user data (RFC 9260 section 6.2). */
    NO_USER_DATA,
    /** Fewer than 4 bytes remain where a parameter or error cause header should start. */
    PARAMETER_HEADER_TRUNCATED,
    /** A Parameter (or Cause) Length below 4, the size of its own header. */
    PARAMETER_LENGTH_TOO_SMALL,
    /** A Parameter (or Cause) Length that runs past the end of the enclosing chunk or element. */
    PARAMETER_LENGTH_PAST_CHUNK,
    /** A parameter or error cause shorter than its fixed fields, or of a length its type forbids. */
    BAD_PARAMETER_LENGTH,
    /** A variable-length list (gap blocks, TSNs, stream entries, types) that does not fill the space given. */
    LIST_LENGTH_MISMATCH,
    /** A SACK or NR-SACK gap ack block whose start offset is greater than its end offset. */
    GAP_BLOCK_START_AFTER_END,
    /** A field whose value the RFC forbids outright (for example a zero-length host name). */
    INVALID_FIELD_VALUE
}
