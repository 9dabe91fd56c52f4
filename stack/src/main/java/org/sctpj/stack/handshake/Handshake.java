package org.sctpj.stack.handshake;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.assoc.AssociationHost;
import org.sctpj.stack.auth.Authentication;
import org.sctpj.stack.auth.KeyVector;
import org.sctpj.stack.wire.cause.ProtocolViolationCause;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.InitAckChunk;
import org.sctpj.stack.wire.chunk.InitChunk;
import org.sctpj.stack.wire.param.CookiePreservativeParameter;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.StateCookieParameter;

/**
 * The stateless half of association setup (RFC 9260 section 5.1): answering an INIT with an INIT
 * ACK that carries a signed State Cookie, without keeping any state. Also used by an existing
 * association for the INIT collision cases of sections 5.2.1 and 5.2.2.
 */
public final class Handshake {
    private Handshake() {}

    /** The answer to an INIT: the chunk to send back (INIT ACK or ABORT) and the Verification Tag of its packet. */
    public record InitAnswer(Chunk chunk, int verificationTag) {}

    /** Smallest a_rwnd an INIT may advertise (RFC 9260 section 3.3.2: at least 1500). */
    static final int MIN_RWND = 1500;

    /**
     * Validates an INIT (RFC 9260 sections 3.3.2 and 5.1) and builds the INIT ACK, or the ABORT
     * that refuses it, or nothing (discard). The INIT ACK goes to the INIT's source address with
     * the INIT's Initiate Tag as Verification Tag.
     *
     * @param localTag our Initiate Tag for the INIT ACK (random, or the tag of our own INIT in
     *     section 5.2.1)
     * @param localInitialTsn our initial TSN
     * @param localTieTag tie-tag (section 5.2.2), 0 when there is no association
     * @param peerTieTag tie-tag of the peer, 0 when there is no association
     * @param localAuth our AUTH key vector for the INIT ACK (RFC 4895 section 6.1: a new Random
     *     with a new tag, our INIT's with our INIT's tag), null when we do not offer AUTH
     */
    public static Optional<InitAnswer> answerInit(
            AssociationHost host,
            SctpOptions o,
            InitChunk init,
            int peerPort,
            InetAddress from,
            InetAddress to,
            int localTag,
            int localInitialTsn,
            int localTieTag,
            int peerTieTag,
            KeyVector localAuth,
            long now) {
        if (init.initiateTag() == 0
                || init.outboundStreams() == 0
                || init.inboundStreams() == 0
                || Integer.compareUnsigned(init.aRwnd(), MIN_RWND) < 0) {
            // RFC 9260 section 3.3.2: a zero Initiate Tag or stream count is an Invalid Mandatory
            // Parameter: ABORT, tagged with the INIT's Initiate Tag.
            return Optional.of(new InitAnswer(
                    AbortChunk.of(false, new org.sctpj.stack.wire.cause.InvalidMandatoryParameterCause()),
                    init.initiateTag()));
        }
        InitHandling.PeerParams pp = InitHandling.read(init.parameters());
        if (pp.abortCause != null) {
            return Optional.of(new InitAnswer(AbortChunk.of(false, pp.abortCause), init.initiateTag()));
        }
        if (pp.stop) {
            if (pp.stopReport) {
                return Optional.of(new InitAnswer(
                        AbortChunk.of(false, InitHandling.unrecognizedCause(pp.toReport)), init.initiateTag()));
            }
            return Optional.empty();
        }
        String authRefusal = localAuth == null ? null : Authentication.refusal(pp.auth);
        if (authRefusal != null) {
            // RFC 4895 section 6.1: an unusable RANDOM (or HMAC-ALGO) aborts the association.
            return Optional.of(
                    new InitAnswer(AbortChunk.of(false, ProtocolViolationCause.of(authRefusal)), init.initiateTag()));
        }
        long lifetime = o.validCookieLife().toNanos();
        if (pp.cookiePreservativeMillis > 0) {
            // RFC 9260 section 5.2.6: the peer asks for a longer life after a Stale Cookie
            // error; grant it, up to one extra Valid.Cookie.Life.
            lifetime += Math.min(
                    pp.cookiePreservativeMillis * 1_000_000L,
                    o.validCookieLife().toNanos());
        }
        Set<InetAddress> peers = new LinkedHashSet<>();
        peers.add(from);
        peers.addAll(pp.addresses);
        StateCookie cookie = new StateCookie(
                now,
                lifetime,
                localTag,
                localInitialTsn,
                o.outboundStreams(),
                o.maxInboundStreams(),
                init.initiateTag(),
                init.initialTsn(),
                init.aRwnd(),
                init.outboundStreams(),
                init.inboundStreams(),
                localTieTag,
                peerTieTag,
                host.localPort(),
                peerPort,
                to,
                new ArrayList<>(peers),
                pp.extensions,
                pp.adaptation,
                localAuth,
                localAuth == null ? null : pp.auth);
        List<Parameter> params = new ArrayList<>(InitHandling.localAddressParams(host.announceTo(from)));
        params.add(new StateCookieParameter(cookie.seal(host.cookieSecrets(), now)));
        params.addAll(Negotiation.offer(o));
        if (localAuth != null) {
            params.addAll(localAuth.parameters());
        }
        params.addAll(InitHandling.unrecognizedForInitAck(pp.toReport));
        InitAckChunk ack = new InitAckChunk(
                localTag, o.receiveBufferBytes(), o.outboundStreams(), o.maxInboundStreams(), localInitialTsn, params);
        return Optional.of(new InitAnswer(ack, init.initiateTag()));
    }

    /**
     * Our INIT to {@code peer} (RFC 9260 section 5.1 A), with a Cookie Preservative when asked
     * (5.2.6), and our AUTH key vector when we offer AUTH. It lists the addresses {@link AssociationHost#announceTo} gives and supports their
     * address types (those of {@link AssociationHost#localAddresses()} when it gives none).
     */
    public static InitChunk buildInit(
            AssociationHost host,
            SctpOptions o,
            InetAddress peer,
            int localTag,
            int initialTsn,
            long preservativeMillis,
            KeyVector localAuth) {
        List<InetAddress> announced = host.announceTo(peer);
        List<Parameter> params = new ArrayList<>(InitHandling.localAddressParams(announced));
        params.add(InitHandling.supportedAddressTypes(announced.isEmpty() ? host.localAddresses() : announced));
        params.addAll(Negotiation.offer(o));
        if (localAuth != null) {
            params.addAll(localAuth.parameters()); // RFC 4895 section 6.1
        }
        if (preservativeMillis > 0) {
            params.add(new CookiePreservativeParameter((int) Math.min(preservativeMillis, 0xffffffffL)));
        }
        return new InitChunk(
                localTag, o.receiveBufferBytes(), o.outboundStreams(), o.maxInboundStreams(), initialTsn, params);
    }

    /** A random non-zero 32-bit tag. */
    public static int randomTag(java.util.random.RandomGenerator r) {
        int t;
        do {
            t = r.nextInt();
        } while (t == 0);
        return t;
    }
}
