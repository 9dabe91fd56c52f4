package org.sctpj.stack.handshake;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.sctpj.stack.auth.KeyVector;
import org.sctpj.stack.wire.Bytes;

/**
 * The contents of our State Cookie (RFC 9260 section 5.1.3): everything needed to build the
 * association when the COOKIE ECHO comes back, so that no state is kept for an INIT. The format is
 * ours alone (the peer only echoes it): a version byte, the secret's epoch, the fields below, and
 * an HMAC-SHA-256 over all of it ({@link CookieSecrets}).
 *
 * <p>What the MAC binds, and why (the endpoint checks each on every COOKIE ECHO):
 *
 * <ul>
 *   <li>both Verification Tags: the COOKIE ECHO's packet must carry ours, and they say which
 *       association the cookie belongs to (RFC 9260 section 5.2.4): a cookie whose tags are an
 *       existing association's is a retransmission for it (case D), so one cookie can make one
 *       association only, however often it is replayed; the tie-tags name the association a
 *       restart replaces (case A);
 *   <li>both ports: the packet must come from the peer port and to the local port of the INIT;
 *   <li>the local address the INIT arrived on: the association answers from it;
 *   <li>the peer addresses, the INIT's source first, then those it listed (at most {@link
 *       #MAX_ADDRESSES}): a COOKIE ECHO from any other address is discarded, so a copied cookie
 *       cannot make an association towards, or be replayed from, an address the peer never
 *       claimed; the INIT's source, where the cookie was sent, is the only address the handshake
 *       confirms and becomes the primary (section 5.4);
 *   <li>its creation time and lifetime: once expired it draws a Stale Cookie error (section
 *       5.1.5), unless its tags are those of the existing association (section 5.2.4 step 3).
 * </ul>
 *
 * @param createdAt the endpoint time the cookie was made, in nanoseconds
 * @param lifetimeNanos how long it is valid (Valid.Cookie.Life, plus any Cookie Preservative)
 * @param localTag our Verification Tag (the Initiate Tag of our INIT ACK)
 * @param localInitialTsn our initial TSN
 * @param localOutbound the outbound streams we offered
 * @param localMaxInbound the inbound streams we allow
 * @param peerTag the peer's Initiate Tag
 * @param peerInitialTsn the peer's initial TSN
 * @param peerRwnd the peer's advertised receiver window
 * @param peerOutbound the peer's outbound streams
 * @param peerMaxInbound the peer's maximum inbound streams
 * @param localTieTag our tag of an existing association when the INIT came (0 if none, section 5.2.2)
 * @param peerTieTag the peer's tag of that association (0 if none)
 * @param localPort our port
 * @param peerPort the peer's port
 * @param localAddress the address the INIT arrived on
 * @param peerAddresses the peer's addresses: the INIT's source first, then those it listed
 * @param peerExtensions the extensions the peer's INIT announced, as a {@link Negotiation#bit}
 *     mask (the association uses those we offer too)
 * @param peerAdaptation the peer's Adaptation Code Point (RFC 5061 section 4.2.6), or -1 for none
 * @param localAuth our AUTH key vector of the INIT ACK (RFC 4895 section 6.1: our Random, Chunk
 *     List and HMAC-ALGO), or null when we did not offer AUTH; never a shared key (section 6.3)
 * @param peerAuth the peer's AUTH key vector of its INIT, or null when it sent none
 */
public record StateCookie(
        long createdAt,
        long lifetimeNanos,
        int localTag,
        int localInitialTsn,
        int localOutbound,
        int localMaxInbound,
        int peerTag,
        int peerInitialTsn,
        int peerRwnd,
        int peerOutbound,
        int peerMaxInbound,
        int localTieTag,
        int peerTieTag,
        int localPort,
        int peerPort,
        InetAddress localAddress,
        List<InetAddress> peerAddresses,
        int peerExtensions,
        long peerAdaptation,
        KeyVector localAuth,
        KeyVector peerAuth) {

    /**
     * Version of the format: 3 adds the AUTH key vectors at the end; a version 2 cookie (made
     * before, still within its life) opens as one without them.
     */
    static final int VERSION = 3;

    private static final int VERSION_WITHOUT_AUTH = 2;
    /** At most this many peer addresses are kept (bounded memory per cookie). */
    public static final int MAX_ADDRESSES = 16;

    private static final int FIXED = 1 + 1 + 8 + 8 + 11 * 4 + 2 + 2 + 4 + 8;

    /** Bounds the address list. */
    public StateCookie {
        peerAddresses = List.copyOf(
                peerAddresses.size() > MAX_ADDRESSES ? peerAddresses.subList(0, MAX_ADDRESSES) : peerAddresses);
    }

    /** Serialises and signs the cookie. */
    public Bytes seal(CookieSecrets secrets, long now) {
        int authLength = 1
                + (localAuth == null ? 0 : localAuth.encodedLength())
                + (peerAuth == null ? 0 : peerAuth.encodedLength());
        ByteBuffer b =
                ByteBuffer.allocate(FIXED + 17 + 1 + 17 * peerAddresses.size() + authLength + CookieSecrets.MAC_LENGTH);
        b.put((byte) VERSION);
        b.put((byte) secrets.epoch(now));
        b.putLong(createdAt).putLong(lifetimeNanos);
        b.putInt(localTag).putInt(localInitialTsn).putInt(localOutbound).putInt(localMaxInbound);
        b.putInt(peerTag)
                .putInt(peerInitialTsn)
                .putInt(peerRwnd)
                .putInt(peerOutbound)
                .putInt(peerMaxInbound);
        b.putInt(localTieTag).putInt(peerTieTag);
        b.putShort((short) localPort).putShort((short) peerPort);
        b.putInt(peerExtensions).putLong(peerAdaptation);
        putAddress(b, localAddress);
        b.put((byte) peerAddresses.size());
        for (InetAddress a : peerAddresses) {
            putAddress(b, a);
        }
        b.put((byte) ((localAuth != null ? 1 : 0) | (peerAuth != null ? 2 : 0)));
        if (localAuth != null) {
            localAuth.writeTo(b);
        }
        if (peerAuth != null) {
            peerAuth.writeTo(b);
        }
        int n = b.position();
        byte[] mac = secrets.sign(b.array(), n, now);
        b.put(mac);
        return Bytes.of(java.util.Arrays.copyOf(b.array(), b.position()));
    }

    private static void putAddress(ByteBuffer b, InetAddress a) {
        byte[] raw = a.getAddress();
        b.put((byte) raw.length);
        b.put(raw);
    }

    /** The outcome of opening a cookie. */
    public sealed interface Opened {}

    /** Authentic and fresh. */
    public record Valid(StateCookie cookie) implements Opened {}

    /** Authentic but expired: the Stale Cookie error reports by how much. */
    public record Stale(StateCookie cookie, long stalenessMicros) implements Opened {}

    /** Not ours, altered, signed by a forgotten secret, or malformed: silently discarded. */
    public record Invalid(String why) implements Opened {}

    /** Checks the MAC, then the lifetime (RFC 9260 section 5.1.5 steps 1 to 3). Never throws. */
    public static Opened open(Bytes sealed, CookieSecrets secrets, long now) {
        byte[] raw = sealed.toArray();
        if (raw.length < FIXED + 2 + 1 + CookieSecrets.MAC_LENGTH) {
            return new Invalid("cookie of " + raw.length + " bytes is too short");
        }
        int version = raw[0] & 0xff;
        if (version != VERSION && version != VERSION_WITHOUT_AUTH) {
            return new Invalid("cookie version " + (raw[0] & 0xff));
        }
        int bodyLength = raw.length - CookieSecrets.MAC_LENGTH;
        byte[] mac = java.util.Arrays.copyOfRange(raw, bodyLength, raw.length);
        if (!secrets.verify(raw, bodyLength, mac, raw[1] & 0xff, now)) {
            return new Invalid("MAC does not verify");
        }
        ByteBuffer b = ByteBuffer.wrap(raw, 0, bodyLength);
        b.position(2);
        long createdAt = b.getLong();
        long lifetime = b.getLong();
        int[] f = new int[11];
        for (int i = 0; i < f.length; i++) {
            f[i] = b.getInt();
        }
        int localPort = b.getShort() & 0xffff;
        int peerPort = b.getShort() & 0xffff;
        int peerExtensions = b.getInt();
        long peerAdaptation = b.getLong();
        // The MAC proves we wrote these bytes, so the structure below is well formed; still read
        // defensively so that a future format change cannot throw out of the core.
        InetAddress local = getAddress(b);
        if (local == null || !b.hasRemaining()) {
            return new Invalid("cookie address malformed");
        }
        int n = b.get() & 0xff;
        List<InetAddress> peers = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            InetAddress a = getAddress(b);
            if (a == null) {
                return new Invalid("cookie address malformed");
            }
            peers.add(a);
        }
        KeyVector localAuth = null;
        KeyVector peerAuth = null;
        if (version == VERSION) {
            if (!b.hasRemaining()) {
                return new Invalid("cookie AUTH section missing");
            }
            int flags = b.get();
            if ((flags & 1) != 0 && (localAuth = KeyVector.readFrom(b)) == null
                    || (flags & 2) != 0 && (peerAuth = KeyVector.readFrom(b)) == null) {
                return new Invalid("cookie AUTH section malformed");
            }
        }
        StateCookie cookie = new StateCookie(
                createdAt,
                lifetime,
                f[0],
                f[1],
                f[2],
                f[3],
                f[4],
                f[5],
                f[6],
                f[7],
                f[8],
                f[9],
                f[10],
                localPort,
                peerPort,
                local,
                peers,
                peerExtensions,
                peerAdaptation,
                localAuth,
                peerAuth);
        long age = now - createdAt;
        if (age > lifetime) {
            return new Stale(cookie, Math.max(1, (age - lifetime) / 1000));
        }
        return new Valid(cookie);
    }

    private static InetAddress getAddress(ByteBuffer b) {
        if (!b.hasRemaining()) {
            return null;
        }
        int len = b.get() & 0xff;
        if ((len != 4 && len != 16) || b.remaining() < len) {
            return null;
        }
        byte[] a = new byte[len];
        b.get(a);
        try {
            return InetAddress.getByAddress(a);
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
