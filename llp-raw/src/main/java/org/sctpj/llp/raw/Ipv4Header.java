package org.sctpj.llp.raw;

import java.nio.ByteBuffer;
import org.sctpj.nativeio.Linux;

/**
 * Reads the IPv4 header (RFC 791 section 3.1) that a raw IPv4 socket delivers in front of each
 * received packet, to find the SCTP packet behind it.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |Version|  IHL  |Type of Service|          Total Length         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |         Identification        |Flags|      Fragment Offset    |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |  Time to Live |    Protocol   |         Header Checksum       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       Source Address                          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                    Destination Address                        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                    Options                    |    Padding    |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>Linux hands the header over as it was on the wire (network byte order, Total Length
 * including the header) and after reassembly, so a fragment never reaches us. Never throws: a
 * header that does not hold together gives a negative result. Reads bytes one by one, so the
 * buffer's byte order does not matter.
 */
final class Ipv4Header {
    private Ipv4Header() {}

    /** Smallest IPv4 header (IHL 5). */
    static final int MIN_LENGTH = 20;

    /** The bytes are shorter than a minimal header. */
    static final int TOO_SHORT = -1;
    /** The version nibble is not 4. */
    static final int NOT_IPV4 = -2;
    /** IHL is below 5 or runs past the bytes received. */
    static final int BAD_IHL = -3;
    /** Total Length is smaller than the header or larger than the bytes received. */
    static final int BAD_TOTAL_LENGTH = -4;
    /** The packet is a fragment (More Fragments set or a non-zero offset). */
    static final int FRAGMENT = -5;
    /** The protocol is not SCTP (132). */
    static final int NOT_SCTP = -6;

    /**
     * The header length in bytes (IHL times 4) of the IPv4 packet in {@code b[offset, offset +
     * length)}, or a negative constant of this class saying what is wrong.
     */
    static int headerLength(ByteBuffer b, int offset, int length) {
        if (length < MIN_LENGTH) {
            return TOO_SHORT;
        }
        int first = b.get(offset) & 0xff;
        if ((first >>> 4) != 4) {
            return NOT_IPV4;
        }
        int ihl = (first & 0x0f) * 4;
        if (ihl < MIN_LENGTH || ihl > length) {
            return BAD_IHL;
        }
        int total = u16(b, offset + 2);
        if (total < ihl || total > length) {
            return BAD_TOTAL_LENGTH;
        }
        int fragment = u16(b, offset + 6);
        if ((fragment & 0x3fff) != 0) {
            return FRAGMENT;
        }
        if ((b.get(offset + 9) & 0xff) != Linux.IPPROTO_SCTP) {
            return NOT_SCTP;
        }
        return ihl;
    }

    /** Total Length of a header already accepted by {@link #headerLength}. */
    static int totalLength(ByteBuffer b, int offset) {
        return u16(b, offset + 2);
    }

    private static int u16(ByteBuffer b, int at) {
        return ((b.get(at) & 0xff) << 8) | (b.get(at + 1) & 0xff);
    }

    /** Source Address as a big-endian int. */
    static int source(ByteBuffer b, int offset) {
        return getIntBigEndian(b, offset + 12);
    }

    /** Destination Address as a big-endian int. */
    static int destination(ByteBuffer b, int offset) {
        return getIntBigEndian(b, offset + 16);
    }

    private static int getIntBigEndian(ByteBuffer b, int at) {
        return ((b.get(at) & 0xff) << 24)
                | ((b.get(at + 1) & 0xff) << 16)
                | ((b.get(at + 2) & 0xff) << 8)
                | (b.get(at + 3) & 0xff);
    }

    /** A short name for a negative result of {@link #headerLength}, for messages and tests. */
    static String describe(int result) {
        return switch (result) {
            case TOO_SHORT -> "shorter than an IPv4 header";
            case NOT_IPV4 -> "version is not 4";
            case BAD_IHL -> "bad IHL";
            case BAD_TOTAL_LENGTH -> "bad Total Length";
            case FRAGMENT -> "fragment";
            case NOT_SCTP -> "protocol is not SCTP";
            default -> result >= 0 ? "header of " + result + " bytes" : "unknown (" + result + ")";
        };
    }
}
