package org.sctpj.stack.auth;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.param.ChunkListParameter;
import org.sctpj.stack.wire.param.RandomParameter;
import org.sctpj.stack.wire.param.RequestedHmacAlgorithmParameter;

/**
 * What one endpoint sent to set up authentication (RFC 4895 section 6.1): its RANDOM, its CHUNKS
 * (absent when it requires nothing) and its HMAC-ALGO, and the key vector they make: the three
 * parameters with their type and length but without padding, concatenated in that order.
 *
 * @param random the Random Number (32 bytes when valid)
 * @param chunks the chunk types it requires to be authenticated, as listed (null: no CHUNKS
 *     parameter was sent)
 * @param hmacs the HMAC Identifiers it requests, most preferred first
 */
public record KeyVector(Bytes random, List<Integer> chunks, List<Integer> hmacs) {

    /** The only valid length of the Random Number (RFC 4895 section 6.1). */
    public static final int RANDOM_LENGTH = 32;
    /** Most chunk types a CHUNKS parameter lists (its maximum length is 260 bytes, section 3.2). */
    public static final int MAX_CHUNKS = 256;
    /** Most HMAC Identifiers we keep from a peer (a bound on hostile input; two are defined). */
    public static final int MAX_HMACS = 64;

    /** Copies the lists. */
    public KeyVector {
        chunks = chunks == null ? null : List.copyOf(chunks);
        hmacs = List.copyOf(hmacs);
    }

    /** The parameters for an INIT or INIT ACK: RANDOM, CHUNKS when present, HMAC-ALGO. */
    public List<org.sctpj.stack.wire.param.Parameter> parameters() {
        if (chunks == null) {
            return List.of(new RandomParameter(random), new RequestedHmacAlgorithmParameter(hmacs));
        }
        return List.of(
                new RandomParameter(random),
                new ChunkListParameter(chunks),
                new RequestedHmacAlgorithmParameter(hmacs));
    }

    /** The key vector: the parameters concatenated without padding (RFC 4895 section 6.1). */
    public byte[] bytes() {
        List<org.sctpj.stack.wire.param.Parameter> ps = parameters();
        int n = 0;
        for (var p : ps) {
            n += p.length();
        }
        ByteBuffer b = ByteBuffer.allocate(n);
        for (var p : ps) {
            p.encode(b, false);
        }
        return b.array();
    }

    /**
     * The association shared key for the endpoint pair shared key {@code endpointKey} (RFC 4895
     * section 6.1): the endpoint pair key, then the numerically smaller key vector, then the larger
     * one; numerically equal vectors of different lengths go shorter first. The comparison reads
     * each vector as an unsigned big-endian number.
     */
    public static byte[] associationKey(byte[] endpointKey, byte[] v1, byte[] v2) {
        byte[] first = v1;
        byte[] second = v2;
        if (compareAsNumbers(v1, v2) > 0) {
            first = v2;
            second = v1;
        }
        byte[] out = Arrays.copyOf(endpointKey, endpointKey.length + first.length + second.length);
        System.arraycopy(first, 0, out, endpointKey.length, first.length);
        System.arraycopy(second, 0, out, endpointKey.length + first.length, second.length);
        return out;
    }

    /**
     * Compares two byte vectors as unsigned big-endian numbers; numerically equal ones compare by
     * length (shorter first), so that the order is total.
     */
    static int compareAsNumbers(byte[] a, byte[] b) {
        int za = leadingZeros(a);
        int zb = leadingZeros(b);
        int sa = a.length - za;
        int sb = b.length - zb;
        if (sa != sb) {
            return Integer.compare(sa, sb);
        }
        int c = Arrays.compareUnsigned(a, za, a.length, b, zb, b.length);
        if (c != 0) {
            return c;
        }
        return Integer.compare(a.length, b.length);
    }

    private static int leadingZeros(byte[] a) {
        int i = 0;
        while (i < a.length && a[i] == 0) {
            i++;
        }
        return i;
    }

    // ------------------------------------------------------------------ state cookie form

    /** Bytes {@link #writeTo} needs. */
    public int encodedLength() {
        return 1 + random.length() + 2 + (chunks == null ? 0 : chunks.size()) + 1 + 2 * hmacs.size();
    }

    /** Writes this vector into a State Cookie (the format is ours alone). */
    public void writeTo(ByteBuffer b) {
        b.put((byte) random.length());
        random.writeTo(b);
        if (chunks == null) {
            b.putShort((short) 0xffff);
        } else {
            b.putShort((short) chunks.size());
            for (int c : chunks) {
                b.put((byte) c);
            }
        }
        b.put((byte) hmacs.size());
        for (int h : hmacs) {
            b.putShort((short) h);
        }
    }

    /** Reads what {@link #writeTo} wrote; null when the bytes do not hold one (never throws). */
    public static KeyVector readFrom(ByteBuffer b) {
        if (b.remaining() < 1) {
            return null;
        }
        int rl = b.get() & 0xff;
        if (b.remaining() < rl + 2) {
            return null;
        }
        byte[] r = new byte[rl];
        b.get(r);
        int cn = b.getShort() & 0xffff;
        List<Integer> chunks = null;
        if (cn != 0xffff) {
            if (cn > MAX_CHUNKS || b.remaining() < cn) {
                return null;
            }
            Integer[] cs = new Integer[cn];
            for (int i = 0; i < cn; i++) {
                cs[i] = b.get() & 0xff;
            }
            chunks = List.of(cs);
        }
        if (b.remaining() < 1) {
            return null;
        }
        int hn = b.get() & 0xff;
        if (b.remaining() < 2 * hn) {
            return null;
        }
        Integer[] hs = new Integer[hn];
        for (int i = 0; i < hn; i++) {
            hs[i] = b.getShort() & 0xffff;
        }
        return new KeyVector(Bytes.of(r), chunks, List.of(hs));
    }
}
