package org.sctpj.stack.wire;

/**
 * Why a byte sequence is not a well-formed SCTP element: returned (never thrown) by every
 * decoder of this package.
 *
 * @param kind what is wrong
 * @param chunkType the type of the chunk in which the problem was found, or {@link #NO_CHUNK}
 *     when it lies in the common header or before any chunk
 * @param offset the byte offset, from the start of the packet (or of the element when an element
 *     is decoded on its own), of the field or element that is wrong
 * @param detail a short human-readable explanation with the values involved
 */
public record ParseError(ParseErrorKind kind, int chunkType, int offset, String detail) {

    /** The {@link #chunkType} of errors that are not inside a chunk. */
    public static final int NO_CHUNK = -1;

    @Override
    public String toString() {
        return kind + " at offset " + offset + (chunkType == NO_CHUNK ? "" : " in chunk type " + chunkType) + ": "
                + detail;
    }
}
