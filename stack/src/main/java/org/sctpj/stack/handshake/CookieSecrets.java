package org.sctpj.stack.handshake;

import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.random.RandomGenerator;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secrets that authenticate State Cookies (RFC 9260 section 5.1.3): HMAC-SHA-256 under a
 * random 256-bit secret that is replaced every rotation period; a cookie signed with the previous
 * secret is still accepted for one more period, so a cookie never dies of rotation before its own
 * lifetime ends. Each cookie names its secret by an 8-bit epoch. Time is passed in; nothing here
 * reads a clock.
 */
public final class CookieSecrets {

    /** Length of the MAC in a cookie. */
    public static final int MAC_LENGTH = 32;

    private final RandomGenerator random;
    private final long rotationNanos;
    private final Mac current = newMac();
    private final Mac previous = newMac();
    private int epoch;
    private boolean hasPrevious;
    private long rotatedAt;
    private byte[] currentKey;

    /** Secrets drawn from {@code random}, the first one valid from {@code now}. */
    public CookieSecrets(RandomGenerator random, long rotationNanos, long now) {
        this.random = random;
        this.rotationNanos = rotationNanos;
        this.currentKey = freshKey();
        init(current, currentKey);
        this.rotatedAt = now;
    }

    private static Mac newMac() {
        try {
            return Mac.getInstance("HmacSHA256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK must provide HmacSHA256", e);
        }
    }

    private byte[] freshKey() {
        byte[] key = new byte[32];
        random.nextBytes(key);
        return key;
    }

    private static void init(Mac mac, byte[] key) {
        try {
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
        } catch (InvalidKeyException e) {
            throw new IllegalStateException("a 32-byte HMAC-SHA-256 key is always valid", e);
        }
    }

    /** Rotates once a period has passed: current becomes previous, a fresh secret is drawn. */
    private void maybeRotate(long now) {
        if (now - rotatedAt < rotationNanos) {
            return;
        }
        boolean idleTwoPeriods = now - rotatedAt >= 2 * rotationNanos;
        hasPrevious = !idleTwoPeriods;
        if (hasPrevious) {
            init(previous, currentKey);
        }
        currentKey = freshKey();
        init(current, currentKey);
        epoch = (epoch + 1) & 0xff;
        rotatedAt = idleTwoPeriods ? now : rotatedAt + rotationNanos;
    }

    /** The epoch of the secret that signs cookies made at {@code now}. */
    public int epoch(long now) {
        maybeRotate(now);
        return epoch;
    }

    /** MAC of {@code data[0..length)} under the current secret (as of {@code now}). */
    public byte[] sign(byte[] data, int length, long now) {
        maybeRotate(now);
        current.update(data, 0, length);
        return current.doFinal();
    }

    /**
     * True if {@code mac} authenticates {@code data[0..length)} under the secret of {@code
     * cookieEpoch}: the current one, or the previous one for one more period.
     */
    public boolean verify(byte[] data, int length, byte[] mac, int cookieEpoch, long now) {
        maybeRotate(now);
        Mac m;
        if (cookieEpoch == epoch) {
            m = current;
        } else if (hasPrevious && cookieEpoch == ((epoch - 1) & 0xff)) {
            m = previous;
        } else {
            return false;
        }
        m.update(data, 0, length);
        return MessageDigest.isEqual(m.doFinal(), mac);
    }
}
