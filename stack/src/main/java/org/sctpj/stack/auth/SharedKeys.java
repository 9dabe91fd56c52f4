package org.sctpj.stack.auth;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeMap;

/**
 * Endpoint pair shared keys (RFC 4895 section 6.1), each under a Shared Key Identifier, with the
 * active key (the one used to send, RFC 6458 section 8.1.23 SCTP_AUTH_ACTIVE_KEY) and the
 * deactivated ones (section 8.3.5 SCTP_AUTH_DEACTIVATE_KEY: no longer sent with, still accepted).
 * Starts with key 0, empty, active: what RFC 4895 section 6.2 says to use when no key was
 * configured. An endpoint keeps one set, copied into each association it makes; an association
 * may then change its own.
 *
 * <p>Every call checks its arguments and throws {@link IllegalArgumentException} or {@link
 * IllegalStateException} saying what to do instead. Not thread-safe.
 */
public final class SharedKeys {

    /** Most keys a set holds (each association copies them: a bound on memory). */
    public static final int MAX_KEYS = 64;
    /** Longest key accepted, in bytes. */
    public static final int MAX_KEY_LENGTH = 1024;

    private final TreeMap<Integer, byte[]> keys = new TreeMap<>();
    private final Set<Integer> deactivated = new HashSet<>();
    private int active;

    /** Key 0, empty, active. */
    public SharedKeys() {
        keys.put(0, new byte[0]);
    }

    /** A copy of {@code other} (the association's copy of the endpoint's keys). */
    public SharedKeys(SharedKeys other) {
        other.keys.forEach((k, v) -> keys.put(k, v.clone()));
        deactivated.addAll(other.deactivated);
        active = other.active;
    }

    private static void checkId(int keyId) {
        if (keyId < 0 || keyId > 0xffff) {
            throw new IllegalArgumentException("shared key identifier must be 0..65535, was " + keyId);
        }
    }

    /**
     * Sets key {@code keyId} to {@code key} (RFC 6458 section 8.1.22 SCTP_AUTH_KEY), adding it or
     * replacing it; a replaced key is active again for receiving if it was deactivated.
     */
    public void set(int keyId, byte[] key) {
        checkId(keyId);
        if (key == null || key.length > MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("a shared key is 0.." + MAX_KEY_LENGTH + " bytes, was "
                    + (key == null ? "null" : key.length + " bytes"));
        }
        if (!keys.containsKey(keyId) && keys.size() >= MAX_KEYS) {
            throw new IllegalStateException("already " + MAX_KEYS
                    + " shared keys: delete one (deactivate it first) before adding key " + keyId);
        }
        keys.put(keyId, key.clone());
        deactivated.remove(keyId);
    }

    /** Makes {@code keyId} the key to send with (SCTP_AUTH_ACTIVE_KEY). */
    public void activate(int keyId) {
        require(keyId);
        active = keyId;
        deactivated.remove(keyId);
    }

    /**
     * Deactivates {@code keyId} (SCTP_AUTH_DEACTIVATE_KEY): it is no longer sent with but still
     * verifies what the peer sends with it.
     *
     * @throws IllegalStateException for the active key: activate another one first
     */
    public void deactivate(int keyId) {
        require(keyId);
        if (keyId == active) {
            throw new IllegalStateException(
                    "key " + keyId + " is the active key: make another key active before deactivating it");
        }
        deactivated.add(keyId);
    }

    /**
     * Deletes {@code keyId} (SCTP_AUTH_DELETE_KEY): packets authenticated with it are discarded
     * from now on.
     *
     * @throws IllegalStateException for the active key: activate another one first
     */
    public void delete(int keyId) {
        require(keyId);
        if (keyId == active) {
            throw new IllegalStateException(
                    "key " + keyId + " is the active key: make another key active before deleting it");
        }
        keys.remove(keyId);
        deactivated.remove(keyId);
    }

    private void require(int keyId) {
        checkId(keyId);
        if (!keys.containsKey(keyId)) {
            throw new IllegalArgumentException(
                    "no shared key " + keyId + " (set it first; the keys are " + ids() + ")");
        }
    }

    /** The active key's identifier. */
    public int active() {
        return active;
    }

    /** The key with identifier {@code keyId}, or null when there is none (a copy is not made: do not modify). */
    byte[] get(int keyId) {
        return keys.get(keyId);
    }

    /** Whether {@code keyId} is deactivated. */
    public boolean isDeactivated(int keyId) {
        return deactivated.contains(keyId);
    }

    /** The identifiers of the keys, in ascending order. */
    public Set<Integer> ids() {
        return java.util.Collections.unmodifiableSet(new java.util.TreeSet<>(keys.keySet()));
    }

    /** Whether the key {@code keyId} is {@code key} (for tests). */
    boolean holds(int keyId, byte[] key) {
        return Arrays.equals(keys.get(keyId), key);
    }
}
