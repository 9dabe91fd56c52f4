package org.sctpj.stack.auth;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import javax.crypto.Mac;
import org.sctpj.stack.Extension;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.assoc.InboundPacket;
import org.sctpj.stack.assoc.Tcb;
import org.sctpj.stack.tx.PacketSigner;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Wire;
import org.sctpj.stack.wire.cause.UnsupportedHmacIdentifierCause;
import org.sctpj.stack.wire.chunk.AuthChunk;
import org.sctpj.stack.wire.chunk.ChunkType;
import org.sctpj.stack.wire.chunk.ErrorChunk;

/**
 * Authenticated chunks (RFC 4895) for one association: the key vectors both sides sent in INIT and
 * INIT ACK (section 6.1), the association shared keys derived from them and the endpoint pair
 * shared keys ({@link SharedKeys}), the check of received AUTH chunks and of the chunks we require
 * to be authenticated (section 6.3), and the AUTH chunk of the packets we send ({@link
 * PacketSigner}, section 6.2). Also the key management of RFC 6458 (sections 8.1.22, 8.1.23, 8.3.4,
 * 8.3.5) and its authentication events (section 6.1.8).
 *
 * <p>Authentication is in force once both sides announced it ({@link Extension#AUTH}: the peer sent
 * RANDOM and HMAC-ALGO, and we offer it); before, and without it, nothing is required or added.
 * Memory is bounded: the peer's vector is bounded by {@link KeyVector#MAX_CHUNKS} and {@link
 * KeyVector#MAX_HMACS}, the derived keys by {@link SharedKeys#MAX_KEYS}.
 */
public final class Authentication implements PacketSigner {

    /** What the check of one AUTH chunk found (RFC 4895 section 6.3). */
    public enum Verdict {
        /** The HMAC verifies: the chunks after it are authenticated. */
        OK,
        /** An HMAC Identifier we did not request: discard the rest, answer with an ERROR. */
        UNSUPPORTED_HMAC,
        /** No endpoint pair shared key of that identifier: discard the rest silently. */
        UNKNOWN_KEY,
        /** The HMAC does not verify (or has the wrong length): discard the rest silently. */
        BAD_HMAC
    }

    /** Chunk types no CHUNKS parameter may list (RFC 4895 section 3.2). */
    public static final List<Integer> NEVER_AUTHENTICATED =
            List.of(ChunkType.INIT, ChunkType.INIT_ACK, ChunkType.SHUTDOWN_COMPLETE, ChunkType.AUTH);

    private final Tcb t;
    private final SharedKeys keys;
    /** Our key vector (Random, Chunk List, HMAC-ALGO), null while we have none. */
    private KeyVector local;
    /** The peer's key vector, null when it sent none. */
    private KeyVector peer;
    /** Chunk types we require to be authenticated. */
    private final java.util.BitSet weRequire = new java.util.BitSet(0);
    /** Chunk types the peer requires to be authenticated. */
    private final java.util.BitSet peerRequires = new java.util.BitSet(0);
    /** Our HMAC Identifiers (what the peer may use). */
    private final boolean[] ourHmacs = new boolean[HmacAlgorithm.values().length];
    /** The algorithm we send with: the first of the peer's list we support. */
    private HmacAlgorithm sendAlgorithm;
    /** Association shared keys by Shared Key Identifier, derived when first needed. */
    private final Map<Integer, byte[]> derived = new HashMap<>();
    /** MACs by algorithm ordinal and key identifier, made when first needed. */
    private final Map<Long, Mac> macs = new HashMap<>();
    /** The key identifier the peer last authenticated with (for the NEW_KEY event). */
    private int lastPeerKey;

    private final byte[] computed = new byte[64];
    /** The MAC of the last key we sent with, and that key (no map lookup per packet). */
    private Mac sendMac;

    private int sendKey;
    /** The MAC, key and algorithm of the last AUTH received. */
    private Mac recvMac;

    private int recvKey;
    private HmacAlgorithm recvAlgorithm;
    private final byte[] zeros = new byte[64];

    /** The authentication of the association {@code t}; its keys are a copy of {@code endpointKeys}. */
    public Authentication(Tcb t, SharedKeys endpointKeys) {
        this.t = t;
        this.keys = endpointKeys == null ? new SharedKeys() : new SharedKeys(endpointKeys);
        this.lastPeerKey = keys.active();
    }

    // ------------------------------------------------------------------ setup

    /**
     * Our key vector for an INIT or INIT ACK (RFC 4895 section 6.1): a fresh 32-byte Random from
     * {@code random}, the chunk types of {@link SctpOptions#authChunks()} (no CHUNKS parameter when
     * empty) with ASCONF and ASCONF-ACK added when we offer {@link Extension#ASCONF}, the HMAC Identifiers of {@link SctpOptions#authHmacs()}; null when we do not offer
     * AUTH.
     */
    public static KeyVector offer(SctpOptions o, RandomGenerator random) {
        if (!o.offers(Extension.AUTH)) {
            return null;
        }
        byte[] r = new byte[KeyVector.RANDOM_LENGTH];
        random.nextBytes(r);
        List<Integer> chunks = o.authChunks().isEmpty() ? null : new ArrayList<>(o.authChunks());
        if (o.offers(Extension.ASCONF)) {
            // RFC 5061 section 4.1.1: ASCONF and ASCONF-ACK are always sent authenticated.
            chunks = chunks == null ? new ArrayList<>(2) : chunks;
            for (int c : new int[] {ChunkType.ASCONF, ChunkType.ASCONF_ACK}) {
                if (!chunks.contains(c)) {
                    chunks.add(c);
                }
            }
        }
        return new KeyVector(Bytes.of(r), chunks, o.authHmacs());
    }

    /**
     * Why the peer's vector cannot be used, or null when it can (RFC 4895 section 6.1): its Random
     * must be 32 bytes; its HMAC-ALGO must name an algorithm we support. The association is then
     * aborted with a Protocol Violation.
     */
    public static String refusal(KeyVector peer) {
        if (peer == null) {
            return null;
        }
        if (peer.random().length() != KeyVector.RANDOM_LENGTH) {
            return "RANDOM of " + peer.random().length() + " bytes, RFC 4895 asks for 32";
        }
        if (firstSupported(peer.hmacs()) == null) {
            return "HMAC-ALGO " + peer.hmacs() + " names no HMAC we support (1: SHA-1, 3: SHA-256)";
        }
        if (peer.chunks() != null && peer.chunks().size() > KeyVector.MAX_CHUNKS) {
            return "CHUNKS of " + peer.chunks().size() + " types (at most 256)";
        }
        if (peer.hmacs().size() > KeyVector.MAX_HMACS) {
            // Not truncated: the key vector must be the parameter as sent, or no HMAC would verify.
            return "HMAC-ALGO of " + peer.hmacs().size() + " identifiers (we keep at most " + KeyVector.MAX_HMACS + ")";
        }
        return null;
    }

    private static HmacAlgorithm firstSupported(List<Integer> ids) {
        for (int id : ids) {
            HmacAlgorithm a = HmacAlgorithm.of(id);
            if (a != null) {
                return a;
            }
        }
        return null;
    }

    /** Our key vector, made for the INIT we send (kept on INIT retransmissions, like our tag). */
    public void setLocal(KeyVector v) {
        local = v;
    }

    /** Our key vector, or null. */
    public KeyVector local() {
        return local;
    }

    /** The peer's key vector, or null. */
    public KeyVector peer() {
        return peer;
    }

    /**
     * Takes both key vectors once the handshake gives them (INIT ACK received, or the State Cookie
     * of the association): after {@link Tcb#negotiate}, which says whether {@link Extension#AUTH}
     * is in force. Derived keys are forgotten (a restart brings new vectors).
     */
    public void adopt(KeyVector ours, KeyVector theirs) {
        local = ours;
        // Without our offer the peer's vector is of no use: not kept (a hostile list stays unheld).
        peer = ours == null ? null : theirs;
        derived.clear();
        macs.clear();
        sendMac = null;
        recvMac = null;
        weRequire.clear();
        peerRequires.clear();
        java.util.Arrays.fill(ourHmacs, false);
        sendAlgorithm = null;
        if (!inForce()) {
            return;
        }
        if (local.chunks() != null) {
            for (int c : local.chunks()) {
                weRequire.set(c);
            }
        }
        for (int c : peer.chunks() == null ? List.<Integer>of() : peer.chunks()) {
            peerRequires.set(c);
        }
        for (int never : NEVER_AUTHENTICATED) {
            // RFC 4895 section 3.2: never listed, ignored when they are.
            weRequire.clear(never);
            peerRequires.clear(never);
        }
        for (int id : local.hmacs()) {
            HmacAlgorithm a = HmacAlgorithm.of(id);
            if (a != null) {
                ourHmacs[a.ordinal()] = true;
            }
        }
        sendAlgorithm = firstSupported(peer.hmacs());
    }

    /** Whether authentication is in force on this association. */
    public boolean inForce() {
        return t.has(Extension.AUTH) && local != null && peer != null;
    }

    /**
     * After COMMUNICATION_UP: the NO_AUTH event when we offered AUTH and the peer does not support
     * it (RFC 6458 section 6.1.8).
     */
    public void afterUp() {
        if (t.o.offers(Extension.AUTH) && !inForce()) {
            t.host.emit(new SctpEvent.Authentication(t.id, SctpEvent.AuthIndication.NO_AUTH, 0));
        }
    }

    // ------------------------------------------------------------------ receiving

    /** Whether we require chunks of {@code type} to be authenticated (section 6.3), now. */
    public boolean weRequire(int type) {
        return weRequire.get(type & 0xff) && inForce();
    }

    /**
     * The AUTH chunk {@code i} of {@code pkt} (RFC 4895 section 6.3), when authentication is in
     * force: checks it, answers an unsupported HMAC Identifier with an ERROR, and gives the
     * NEW_KEY event when the peer switched keys. The caller discards the rest of the packet
     * unless {@link Verdict#OK}. Allocates nothing once the key's MAC is made.
     */
    public Verdict onAuth(InboundPacket pkt, int i) {
        ByteBuffer b = pkt.buffer();
        int off = pkt.offset(i);
        Verdict v = header(pkt, i, ourHmacs);
        if (v == Verdict.UNSUPPORTED_HMAC) {
            t.queue(
                    new ErrorChunk(List.of(new UnsupportedHmacIdentifierCause(Wire.u16(b, off + 6)))),
                    t.pathSet.replyTo(pkt.from()),
                    t.peerTag);
            return v;
        }
        if (v != Verdict.OK) {
            return v;
        }
        int keyId = Wire.u16(b, off + 4);
        HmacAlgorithm a = HmacAlgorithm.of(Wire.u16(b, off + 6));
        if (recvMac == null || recvKey != keyId || recvAlgorithm != a) {
            Mac m = mac(a, keyId, local, peer, keys, derived, macs);
            if (m == null) {
                return Verdict.UNKNOWN_KEY;
            }
            recvMac = m;
            recvKey = keyId;
            recvAlgorithm = a;
        }
        v = check(pkt, i, a, recvMac, computed, zeros);
        if (v == Verdict.OK && keyId != lastPeerKey) {
            lastPeerKey = keyId;
            t.host.emit(new SctpEvent.Authentication(t.id, SctpEvent.AuthIndication.NEW_KEY, keyId));
        }
        return v;
    }

    /**
     * Checks the AUTH chunk {@code i} of {@code pkt} against the key vectors and keys of an
     * association that has none yet: the State Cookie's (RFC 4895 section 6.3, a COOKIE ECHO that
     * may create an association). Never throws.
     */
    public static Verdict verifyWith(
            InboundPacket pkt, int i, KeyVector ours, KeyVector theirs, SharedKeys endpointKeys) {
        if (ours == null || theirs == null) {
            return Verdict.BAD_HMAC;
        }
        boolean[] hmacs = new boolean[HmacAlgorithm.values().length];
        for (int id : ours.hmacs()) {
            HmacAlgorithm a = HmacAlgorithm.of(id);
            if (a != null) {
                hmacs[a.ordinal()] = true;
            }
        }
        Verdict v = header(pkt, i, hmacs);
        if (v != Verdict.OK) {
            return v;
        }
        ByteBuffer b = pkt.buffer();
        HmacAlgorithm a = HmacAlgorithm.of(Wire.u16(b, pkt.offset(i) + 6));
        Mac m = mac(
                a,
                Wire.u16(b, pkt.offset(i) + 4),
                ours,
                theirs,
                endpointKeys == null ? new SharedKeys() : endpointKeys,
                new HashMap<>(),
                new HashMap<>());
        return m == null ? Verdict.UNKNOWN_KEY : check(pkt, i, a, m, new byte[64], new byte[64]);
    }

    /** The header checks of an AUTH chunk: a supported HMAC Identifier we listed, the HMAC's length. */
    private static Verdict header(InboundPacket pkt, int i, boolean[] ourHmacs) {
        int length = pkt.length(i);
        if (length < AuthChunk.FIXED_LENGTH) {
            return Verdict.BAD_HMAC;
        }
        HmacAlgorithm a = HmacAlgorithm.of(Wire.u16(pkt.buffer(), pkt.offset(i) + 6));
        if (a == null || !ourHmacs[a.ordinal()]) {
            return Verdict.UNSUPPORTED_HMAC;
        }
        return length == AuthChunk.FIXED_LENGTH + a.length() ? Verdict.OK : Verdict.BAD_HMAC;
    }

    /**
     * Computes the HMAC over the AUTH chunk {@code i} (HMAC field taken as zero) and the rest of
     * the packet with {@code mac}, and compares it with the one carried, in constant time.
     */
    private static Verdict check(InboundPacket pkt, int i, HmacAlgorithm a, Mac mac, byte[] computed, byte[] zeros) {
        ByteBuffer b = pkt.buffer();
        int off = pkt.offset(i);
        int last = pkt.chunkCount() - 1;
        int end = pkt.offset(last) + Wire.pad4(pkt.length(last));
        ByteBuffer d = b.duplicate();
        d.limit(off + AuthChunk.FIXED_LENGTH).position(off);
        mac.update(d);
        mac.update(zeros, 0, a.length());
        d.limit(end).position(off + AuthChunk.FIXED_LENGTH + a.length());
        mac.update(d);
        try {
            mac.doFinal(computed, 0);
        } catch (javax.crypto.ShortBufferException e) {
            throw new IllegalStateException(e); // 64 bytes hold any MAC we support
        }
        int diff = 0;
        for (int k = 0; k < a.length(); k++) {
            diff |= computed[k] ^ b.get(off + AuthChunk.FIXED_LENGTH + k);
        }
        return diff == 0 ? Verdict.OK : Verdict.BAD_HMAC;
    }

    /** The MAC for key {@code keyId} under algorithm {@code a}, or null when there is no such key. */
    private static Mac mac(
            HmacAlgorithm a,
            int keyId,
            KeyVector ours,
            KeyVector theirs,
            SharedKeys keys,
            Map<Integer, byte[]> derived,
            Map<Long, Mac> macs) {
        byte[] endpointKey = keys.get(keyId);
        if (endpointKey == null) {
            return null;
        }
        long slot = ((long) a.ordinal() << 16) | keyId;
        Mac m = macs.get(slot);
        if (m == null) {
            byte[] k = derived.computeIfAbsent(
                    keyId, id -> KeyVector.associationKey(endpointKey, ours.bytes(), theirs.bytes()));
            m = a.newMac(k);
            macs.put(slot, m);
        }
        return m;
    }

    // ------------------------------------------------------------------ sending (PacketSigner)

    /** This signer when our packets must carry AUTH (in force and the peer requires something), else null. */
    public PacketSigner signer() {
        return inForce() && sendAlgorithm != null ? this : null;
    }

    @Override
    public int authLength() {
        return Wire.pad4(AuthChunk.FIXED_LENGTH + sendAlgorithm.length());
    }

    @Override
    public boolean requires(int chunkType) {
        return peerRequires.get(chunkType & 0xff);
    }

    /** Whether the peer requires chunks of {@code type} to be authenticated (section 6.2). */
    public boolean peerRequires(int type) {
        return inForce() && peerRequires.get(type & 0xff);
    }

    @Override
    public void writeAuth(ByteBuffer out) {
        int n = AuthChunk.FIXED_LENGTH + sendAlgorithm.length();
        out.put((byte) ChunkType.AUTH).put((byte) 0).putShort((short) n);
        out.putShort((short) keys.active()).putShort((short) sendAlgorithm.id());
        out.put(zeros, 0, Wire.pad4(n) - AuthChunk.FIXED_LENGTH);
    }

    @Override
    public void sign(ByteBuffer buf, int authOffset, int end) {
        if (sendMac == null || sendKey != keys.active()) {
            sendMac = mac(sendAlgorithm, keys.active(), local, peer, keys, derived, macs);
            sendKey = keys.active();
        }
        Mac m = sendMac;
        ByteBuffer d = buf.duplicate();
        d.limit(end).position(authOffset);
        m.update(d);
        try {
            m.doFinal(computed, 0);
        } catch (javax.crypto.ShortBufferException e) {
            throw new IllegalStateException(e);
        }
        buf.put(authOffset + AuthChunk.FIXED_LENGTH, computed, 0, sendAlgorithm.length());
    }

    // ------------------------------------------------------------------ key management (RFC 6458)

    /** Sets key {@code keyId} of this association (SCTP_AUTH_KEY); see {@link SharedKeys#set}. */
    public void setKey(int keyId, byte[] key) {
        keys.set(keyId, key);
        forget(keyId);
    }

    /** Makes {@code keyId} the key we send with (SCTP_AUTH_ACTIVE_KEY). */
    public void activateKey(int keyId) {
        keys.activate(keyId);
    }

    /**
     * Deactivates {@code keyId} (SCTP_AUTH_DEACTIVATE_KEY); since no packet of ours is pending
     * with it (each is signed as it is built), the FREE_KEY event follows at once.
     */
    public void deactivateKey(int keyId) {
        keys.deactivate(keyId);
        t.host.emit(new SctpEvent.Authentication(t.id, SctpEvent.AuthIndication.FREE_KEY, keyId));
    }

    /** Deletes {@code keyId} (SCTP_AUTH_DELETE_KEY): what the peer sends with it is discarded from now on. */
    public void deleteKey(int keyId) {
        keys.delete(keyId);
        forget(keyId);
    }

    /** The key we send with (SCTP_AUTH_ACTIVE_KEY). */
    public int activeKey() {
        return keys.active();
    }

    /** The chunk types the peer requires us to authenticate, when AUTH is in force (else empty). */
    public java.util.Set<Integer> peerRequiredChunks() {
        return types(peerRequires);
    }

    /** The chunk types we require the peer to authenticate, when AUTH is in force (else empty). */
    public java.util.Set<Integer> localRequiredChunks() {
        return types(weRequire);
    }

    private java.util.Set<Integer> types(java.util.BitSet set) {
        java.util.TreeSet<Integer> out = new java.util.TreeSet<>();
        if (inForce()) {
            set.stream().forEach(out::add);
        }
        return java.util.Collections.unmodifiableSet(out);
    }

    /** This association's keys (read-only use). */
    public SharedKeys keys() {
        return keys;
    }

    private void forget(int keyId) {
        sendMac = null;
        recvMac = null;
        derived.remove(keyId);
        macs.keySet().removeIf(slot -> (slot & 0xffff) == keyId);
    }
}
