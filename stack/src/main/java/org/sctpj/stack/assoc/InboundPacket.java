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
    int count;
    int[] offsets = new int[8];
    int[] lengths = new int[8];

    /**
     * Frames {@code packet} (position to limit; checksum already verified): common header and
     * every chunk's header, length and padding. Returns the first framing error, if any.
     */
    public Parsed<InboundPacket> frame(ByteBuffer packet, InetAddress from, InetAddress to) {
        ByteBuffer b = packet.slice();
        int n = b.remaining();
        this.buf = b;
        this.from = from;
        this.to = to;
        this.count = 0;
        if (n < SctpPacket.HEADER_LENGTH) {
            return Parsed.fail(
                    org.sctpj.stack.wire.ParseErrorKind.PACKET_TOO_SHORT, ParseError.NO_CHUNK, 0, n + " bytes");
        }
        sourcePort = Wire.u16(b, 0);
        destinationPort = Wire.u16(b, 2);
        verificationTag = b.getInt(4);
        int off = SctpPacket.HEADER_LENGTH;
        while (off < n) {
            Parsed<Integer> framed = SctpPacket.frameChunk(b, off, n);
            if (!framed.isOk()) {
                return framed.castFailure();
            }
            if (count == offsets.length) {
                offsets = Arrays.copyOf(offsets, count * 2);
                lengths = Arrays.copyOf(lengths, count * 2);
            }
            offsets[count] = off;
            lengths[count] = framed.value();
            count++;
            off += Wire.pad4(framed.value());
        }
        if (count == 0) {
            return Parsed.fail(
                    org.sctpj.stack.wire.ParseErrorKind.NO_CHUNKS,
                    ParseError.NO_CHUNK,
                    SctpPacket.HEADER_LENGTH,
                    "packet has no chunk");
        }
        return Parsed.ok(this);
    }

    /** The buffer holding the packet (index 0 = first byte of the common header). */
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
