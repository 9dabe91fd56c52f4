package org.sctpj.journal;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.chunk.ChunkType;

/**
 * Cuts the user data out of a packet for {@link JournalRecorder.Builder#headersOnly}: the common
 * header and every chunk are kept, but a DATA chunk (RFC 9260 section 3.3.1) keeps only its 16-byte
 * header and an I-DATA chunk (RFC 8260 section 2.1) its 20-byte header; their length fields still
 * give the original lengths.
 */
final class Headers {

    private Headers() {}

    /**
     * Writes the cut form of {@code p} (position to limit, not moved) into {@code out} as {@code
     * [i32 length][bytes]}, without allocating.
     */
    static void cutInto(ByteBuffer p, Codec.Out out) {
        int start = p.position();
        int end = p.limit();
        int lengthAt = out.pos;
        out.i32(0);
        int from = out.pos;
        if (end - start < 12) {
            out.raw(p);
        } else {
            copy(p, start, 12, out);
            int off = start + 12;
            while (off + 4 <= end) {
                int type = p.get(off) & 0xff;
                int len = p.getShort(off + 2) & 0xffff;
                if (len < 4) {
                    break;
                }
                int padded = (len + 3) & ~3;
                int keep = type == ChunkType.DATA ? 16 : type == ChunkType.I_DATA ? 20 : padded;
                keep = Math.min(Math.min(keep, padded), end - off);
                copy(p, off, keep, out);
                off += padded;
            }
        }
        int n = out.pos - from;
        out.buf[lengthAt] = (byte) n;
        out.buf[lengthAt + 1] = (byte) (n >>> 8);
        out.buf[lengthAt + 2] = (byte) (n >>> 16);
        out.buf[lengthAt + 3] = (byte) (n >>> 24);
    }

    private static void copy(ByteBuffer p, int at, int n, Codec.Out out) {
        out.ensure(n);
        p.get(at, out.buf, out.pos, n);
        out.pos += n;
    }

    /**
     * The inverse of {@link #cutInto} for export: each cut DATA / I-DATA chunk gets zero bytes up to the
     * length its header gives, and the checksum is computed afresh, so that a packet analyser sees a
     * well-formed packet of the original size (with zeros for the user data).
     */
    static byte[] restore(byte[] p, int originalLength) {
        if (p.length >= originalLength || p.length < 12) {
            return p;
        }
        ByteBuffer in = ByteBuffer.wrap(p);
        ByteBuffer out = ByteBuffer.allocate(originalLength);
        out.put(p, 0, 12);
        int off = 12;
        while (off + 4 <= p.length && out.hasRemaining()) {
            int type = p[off] & 0xff;
            int len = in.getShort(off + 2) & 0xffff;
            if (len < 4) {
                break;
            }
            int padded = (len + 3) & ~3;
            int header = type == ChunkType.DATA ? 16 : type == ChunkType.I_DATA ? 20 : padded;
            int have = Math.min(Math.min(header, padded), p.length - off);
            out.put(p, off, have);
            int zeros = Math.min(padded - have, out.remaining());
            out.position(out.position() + zeros);
            off += have;
        }
        byte[] r = java.util.Arrays.copyOf(out.array(), out.position());
        org.sctpj.stack.wire.Crc32c.fill(ByteBuffer.wrap(r), 0, r.length);
        return r;
    }
}
