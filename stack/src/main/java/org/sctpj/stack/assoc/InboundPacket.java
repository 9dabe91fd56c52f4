package org.sctpj.stack.assoc;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.sctpj.stack.wire.ParseError;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.Wire;

/**
 * A received packet whose framing has been checked: the common header and the offset and length
 * of each chunk, over the caller's buffer (no copy). Reused from packet to packet by the endpoint.
 */
public final class InboundPacket {
    ByteBuffer buf;
    int sourcePort;
    int destinationPort;
    int verificationTag;
    InetAddress from;
    InetAddress to;
    int ecn;
    int count;
    int[] offsets = new int[8];
    int[] lengths = new int[8];

    private final Parsed<InboundPacket> ok = Parsed.ok(this);

    /**
     * Frames {@code packet} (position to limit; checksum already verified): common header and
     * every chunk's header, length and padding. Returns the first framing error, if any (its
     * offset is an absolute index of {@code packet}). Allocates nothing for a well-formed packet:
     * the packet is read in place at absolute indexes (see {@link #buffer()}).
     */
    public Parsed<InboundPacket> frame(ByteBuffer packet, InetAddress from, InetAddress to) {
        ByteBuffer b = packet;
        int start = packet.position();
        int end = packet.limit();
        int n = end - start;
        this.buf = b;
        this.from = from;
        this.to = to;
        this.ecn = 0;
        this.count = 0;
        if (n < SctpPacket.HEADER_LENGTH) {
            return Parsed.fail(
                    org.sctpj.stack.wire.ParseErrorKind.PACKET_TOO_SHORT, ParseError.NO_CHUNK, start, n + " bytes");
        }
        sourcePort = Wire.u16(b, start);
        destinationPort = Wire.u16(b, start + 2);
        verificationTag = b.getInt(start + 4);
        int off = start + SctpPacket.HEADER_LENGTH;
        while (off < end) {
            int length = chunkLength(b, off, end);
            if (length < 0) {
                return SctpPacket.frameChunk(b, off, end).castFailure(); // says why
            }
            if (count == offsets.length) {
                offsets = Arrays.copyOf(offsets, count * 2);
                lengths = Arrays.copyOf(lengths, count * 2);
            }
            offsets[count] = off;
            lengths[count] = length;
            count++;
            off += Wire.pad4(length);
        }
        if (count == 0) {
            return Parsed.fail(
                    org.sctpj.stack.wire.ParseErrorKind.NO_CHUNKS,
                    ParseError.NO_CHUNK,
                    start + SctpPacket.HEADER_LENGTH,
                    "packet has no chunk");
        }
        return ok;
    }

    /**
     * The Chunk Length of the chunk at {@code off} if {@link SctpPacket#frameChunk} would accept
     * it (header within the packet, length at least 4, chunk and padding within the packet);
     * otherwise -1. Allocates nothing.
     */
    private static int chunkLength(ByteBuffer b, int off, int end) {
        if (end - off < 4) {
            return -1;
        }
        int length = Wire.u16(b, off + 2);
        if (length < 4 || Wire.pad4(length) > end - off) {
            return -1;
        }
        return length;
    }

    /**
     * The buffer holding the packet, as given to {@link #frame}: chunk offsets are absolute
     * indexes of it (the common header starts at its position as it was then).
     */
    public ByteBuffer buffer() {
        return buf;
    }

    /** Number of chunks. */
    public int chunkCount() {
        return count;
    }

    /** Type of chunk {@code i}. */
    public int type(int i) {
        return Wire.u8(buf, offsets[i]);
    }

    /** Flags of chunk {@code i}. */
    public int flags(int i) {
        return Wire.u8(buf, offsets[i] + 1);
    }

    /** Offset of chunk {@code i}'s header. */
    public int offset(int i) {
        return offsets[i];
    }

    /** Chunk Length of chunk {@code i}. */
    public int length(int i) {
        return lengths[i];
    }

    /** The source port. */
    public int sourcePort() {
        return sourcePort;
    }

    /** The destination port. */
    public int destinationPort() {
        return destinationPort;
    }

    /** The Verification Tag. */
    public int verificationTag() {
        return verificationTag;
    }

    /** The source address. */
    public InetAddress from() {
        return from;
    }

    /** The destination (local) address. */
    public InetAddress to() {
        return to;
    }

    /**
     * The ECN codepoint of the packet's IP header ({@link org.sctpj.stack.llp.Ecn}), as the lower
     * layer read it; {@link org.sctpj.stack.llp.Ecn#NOT_ECT} when it could not.
     */
    public int ecn() {
        return ecn;
    }

    /** Sets {@link #ecn()} for the packet just framed. */
    public void setEcn(int ecn) {
        this.ecn = ecn & 3;
    }

    /** True if the packet contains a chunk of this type. */
    public boolean contains(int type) {
        for (int i = 0; i < count; i++) {
            if (type(i) == type) {
                return true;
            }
        }
        return false;
    }
}
