package org.sctpj.stack.auth;

import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The HMAC algorithms of RFC 4895 section 3.3 (Table 2) that this stack supports: HMAC-SHA-1,
 * which every endpoint supporting AUTH must support, and HMAC-SHA-256 (RFC 2104 over the hash
 * functions of FIPS 180-2). Pure computation through {@code javax.crypto}.
 */
public enum HmacAlgorithm {
    /** HMAC Identifier 1: HMAC-SHA-1, 20-byte MAC (mandatory, RFC 4895 section 3.3). */
    SHA_1(1, 20, "HmacSHA1"),
    /** HMAC Identifier 3: HMAC-SHA-256, 32-byte MAC. */
    SHA_256(3, 32, "HmacSHA256");

    private final int id;
    private final int length;
    private final String jcaName;

    HmacAlgorithm(int id, int length, String jcaName) {
        this.id = id;
        this.length = length;
        this.jcaName = jcaName;
    }

    /** The HMAC Identifier carried in AUTH and HMAC-ALGO (RFC 4895 section 3.3). */
    public int id() {
        return id;
    }

    /** Length of the MAC in bytes (the HMAC field of the AUTH chunk). */
    public int length() {
        return length;
    }

    /** The algorithm with HMAC Identifier {@code id}, or null when we do not support it. */
    public static HmacAlgorithm of(int id) {
        for (HmacAlgorithm a : values()) {
            if (a.id == id) {
                return a;
            }
        }
        return null;
    }

    /** A new {@link Mac} of this algorithm keyed with {@code key} (an empty key is allowed). */
    Mac newMac(byte[] key) {
        try {
            Mac m = Mac.getInstance(jcaName);
            // RFC 2104 pads a short key with zeros, so an empty key equals a one-byte zero key;
            // SecretKeySpec refuses an empty array, hence the substitution.
            m.init(new SecretKeySpec(key.length == 0 ? new byte[1] : key, jcaName));
            return m;
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException(jcaName + " is part of every Java SE platform but is missing here", e);
        }
    }

    /** The MAC of {@code data} under {@code key} (for tests and one-off uses). */
    public byte[] mac(byte[] key, byte[] data) {
        return newMac(key).doFinal(data);
    }
}
