package org.sctpj.tests.e2e;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.SplittableRandom;

/**
 * The end-to-end traffic: message {@code i} of a sender with seed {@code seed} goes on stream {@code
 * i % 16}, unordered on streams 8 to 15, is 1 to 16,000 bytes long (so many are fragmented), and
 * carries its index and pseudo-random bytes. {@link Digests} checks it on both sides: a running
 * SHA-256 per ordered stream (so order counts) and, per unordered stream, the sum of the
 * messages' SHA-256 values (order-free, but a lost, duplicated or altered message changes it).
 */
final class Traffic {
    static final int STREAMS = 16;
    static final int MAX_SIZE = 16_000;
    private static final int BLOCK = 1 << 20;

    private final byte[] block = new byte[BLOCK + MAX_SIZE];
    private final int seed;

    Traffic(int seed) {
        this.seed = seed;
        new SplittableRandom(seed).nextBytes(block);
    }

    static int stream(long i) {
        return (int) (i % STREAMS);
    }

    static boolean unordered(int stream) {
        return stream >= STREAMS / 2;
    }

    int size(long i) {
        return 1 + (int) ((i * 7907 + seed * 31L) % MAX_SIZE);
    }

    /** Message {@code i} (a fresh array). */
    byte[] message(long i) {
        int n = size(i);
        int off = (int) ((i * 4099 + seed) % BLOCK);
        byte[] m = new byte[n];
        System.arraycopy(block, off, m, 0, n);
        for (int k = 0; k < Math.min(8, n); k++) {
            m[k] = (byte) (i >>> (8 * k));
        }
        return m;
    }

    /** The per-stream digests of what was sent or received. */
    static final class Digests {
        private final MessageDigest[] ordered = new MessageDigest[STREAMS];
        private final BigInteger[] sums = new BigInteger[STREAMS];
        private final MessageDigest one;
        long bytes;
        long messages;

        Digests() {
            try {
                for (int s = 0; s < STREAMS; s++) {
                    ordered[s] = MessageDigest.getInstance("SHA-256");
                    sums[s] = BigInteger.ZERO;
                }
                one = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new AssertionError(e);
            }
        }

        void add(int stream, boolean unordered, ByteBuffer data) {
            int n = data.remaining();
            bytes += n;
            messages++;
            if (stream >= STREAMS || unordered != Traffic.unordered(stream)) {
                sums[0] = sums[0].add(BigInteger.ONE); // wrong stream or flag: spoils the digest
            }
            if (unordered) {
                one.update(data);
                sums[stream % STREAMS] = sums[stream % STREAMS]
                        .add(new BigInteger(1, one.digest()))
                        .mod(BigInteger.ONE.shiftLeft(256));
            } else {
                ordered[stream % STREAMS].update(data);
            }
        }

        void add(int stream, boolean unordered, byte[] data) {
            add(stream, unordered, ByteBuffer.wrap(data));
        }

        /** bytes, messages and one digest over all per-stream digests. */
        String summary() {
            try {
                MessageDigest all = MessageDigest.getInstance("SHA-256");
                for (int s = 0; s < STREAMS; s++) {
                    all.update(((MessageDigest) ordered[s].clone()).digest());
                    all.update(sums[s].toByteArray());
                }
                return "bytes=" + bytes + " messages=" + messages + " sha256="
                        + HexFormat.of().formatHex(all.digest());
            } catch (CloneNotSupportedException | NoSuchAlgorithmException e) {
                throw new AssertionError(e);
            }
        }
    }
}
