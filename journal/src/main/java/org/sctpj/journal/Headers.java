package org.sctpj.journal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
        int lengthAt = out.pos;
        out.i32(0);
        int from = out.pos;
        cut(p, out);
        int n = out.pos - from;
        out.buf[lengthAt] = (byte) n;
        out.buf[lengthAt + 1] = (byte) (n >>> 8);
        out.buf[lengthAt + 2] = (byte) (n >>> 16);
        out.buf[lengthAt + 3] = (byte) (n >>> 24);
    }

    /**
     * Writes the cut form of {@code p} (position to limit, not moved) into {@code out}, without a
     * length; returns true when the cut form and the bytes cut out ({@link #restInto}) together are
     * the whole packet (every chunk has a length of at least 4 and the chunks reach the packet's
     * end), so that {@link #join} rebuilds it.
     */
    static boolean cut(ByteBuffer p, Codec.Out out) {
        int start = p.position();
        int end = p.limit();
        if (end - start < 12) {
            out.raw(p);
            return false;
        }
        copy(p, start, 12, out);
        int off = start + 12;
        while (off + 4 <= end) {
            int type = p.get(off) & 0xff;
            int len = p.getShort(off + 2) & 0xffff;
            if (len < 4) {
                return false;
            }
            int padded = (len + 3) & ~3;
            int keep = type == ChunkType.DATA ? 16 : type == ChunkType.I_DATA ? 20 : padded;
            keep = Math.min(Math.min(keep, padded), end - off);
            copy(p, off, keep, out);
            off += padded;
        }
        return off >= end;
    }

    /**
     * Writes the bytes {@link #cut} leaves out of {@code p} (the user data of each DATA / I-DATA
     * chunk with its padding), in packet order; for a packet {@link #cut} found whole.
     */
    static void restInto(ByteBuffer p, Codec.Out out) {
        int start = p.position();
        int end = p.limit();
        int off = start + 12;
        while (off + 4 <= end) {
            int type = p.get(off) & 0xff;
            int len = p.getShort(off + 2) & 0xffff;
            int padded = (len + 3) & ~3;
            int header = type == ChunkType.DATA ? 16 : type == ChunkType.I_DATA ? 20 : padded;
            int keep = Math.min(Math.min(header, padded), end - off);
            int skipped = Math.min(padded, end - off) - keep;
            if (skipped > 0) {
                copy(p, off + keep, skipped, out);
            }
            off += padded;
        }
    }

    /**
     * The inverse of {@link #cut} and {@link #restInto} for a whole packet: the packet of {@code
     * length} bytes from its cut form ({@code cut}, offsets {@code c} to {@code cutEnd}) and the
     * bytes cut out ({@code rest} from {@code r}), written to {@code out}.
     *
     * @throws IllegalArgumentException when the two do not make a packet of that length
     */
    static void join(byte[] cut, int c, int cutEnd, byte[] rest, int r, int restEnd, int length, Codec.Out out) {
        if (length < 12 || cutEnd - c < 12) {
            throw new IllegalArgumentException("a packet of " + length + " bytes cannot have been cut");
        }
        int o = 12;
        out.raw(cut, c, 12);
        c += 12;
        while (o < length) {
            if (o + 4 > length || c + 4 > cutEnd) {
                throw new IllegalArgumentException("the cut packet ends inside a chunk header at byte " + o);
            }
            int type = cut[c] & 0xff;
            int len = (cut[c + 2] & 0xff) << 8 | cut[c + 3] & 0xff;
            if (len < 4) {
                throw new IllegalArgumentException("a chunk of length " + len + " at byte " + o);
            }
            int padded = (len + 3) & ~3;
            int header = type == ChunkType.DATA ? 16 : type == ChunkType.I_DATA ? 20 : padded;
            int keep = Math.min(Math.min(header, padded), length - o);
            int skipped = Math.min(padded, length - o) - keep;
            if (c + keep > cutEnd || r + skipped > restEnd) {
                throw new IllegalArgumentException("the cut packet is shorter than its chunks at byte " + o);
            }
            out.raw(cut, c, keep);
            out.raw(rest, r, skipped);
            c += keep;
            r += skipped;
            o += keep + skipped;
        }
        if (c != cutEnd || r != restEnd) {
            throw new IllegalArgumentException("the cut packet has bytes beyond its chunks");
        }
    }

    /** True when packet {@code p} has an AUTH chunk (RFC 4895 section 4.2) and a DATA or I-DATA chunk. */
    static boolean authenticatesData(byte[] p) {
        boolean auth = false;
        boolean data = false;
        int off = 12;
        while (off + 4 <= p.length) {
            int type = p[off] & 0xff;
            int len = (p[off + 2] & 0xff) << 8 | p[off + 3] & 0xff;
            auth |= type == ChunkType.AUTH;
            data |= type == ChunkType.DATA || type == ChunkType.I_DATA;
            if (len < 4) {
                break;
            }
            off += (len + 3) & ~3;
        }
        return auth && data;
    }

    private static void copy(ByteBuffer p, int at, int n, Codec.Out out) {
        out.ensure(n);
        byte[] b = out.buf;
        int o = out.pos;
        out.pos += n;
        if (n > 64) {
            p.get(at, b, o, n);
            return;
        }
        // Headers are a few words: word reads of the buffer (intrinsics) skip the bulk get's fixed
        // cost on a direct buffer (a DATA packet's 12 + 16 bytes: 7.5-10.4 ns against 10.9-14.0 in a
        // loop here). The handles stay constants, as they must to be compiled inline.
        boolean big = p.order() == ByteOrder.BIG_ENDIAN;
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            long v = p.getLong(at + i);
            LONG.set(b, o + i, big ? v : Long.reverseBytes(v));
        }
        if (i + 4 <= n) {
            int v = p.getInt(at + i);
            INT.set(b, o + i, big ? v : Integer.reverseBytes(v));
            i += 4;
        }
        for (; i < n; i++) {
            b[o + i] = p.get(at + i);
        }
    }

    /** Big-endian views of a byte array, as a packet's bytes are laid out. */
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    /**
     * The inverse of {@link #cutInto} for export: each cut DATA / I-DATA chunk gets zero bytes up to the
     * length its header gives, and the checksum is computed afresh, so that a packet analyser sees a
     * well-formed packet of the original size (with zeros for the user data).
     */
    static byte[] restore(byte[] p, int originalLength) {
        return restore(p, originalLength, false);
    }

    /**
     * As {@link #restore(byte[], int)}; with {@code checksum}, a packet that was not cut gets its
     * checksum computed afresh too (a headers-only journal of format 3 records every checksum as 0).
     */
    static byte[] restore(byte[] p, int originalLength, boolean checksum) {
        if (p.length < 12) {
            return p;
        }
        if (p.length >= originalLength) {
            if (!checksum) {
                return p;
            }
            byte[] r = p.clone();
            org.sctpj.stack.wire.Crc32c.fill(ByteBuffer.wrap(r), 0, r.length);
            return r;
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
