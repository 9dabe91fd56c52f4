package org.sctpj.stack.handshake;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.assoc.Association.State;
import org.sctpj.stack.assoc.InboundPacket;
import org.sctpj.stack.assoc.Tcb;
import org.sctpj.stack.assoc.TimerKind;
import org.sctpj.stack.auth.Authentication;
import org.sctpj.stack.auth.KeyVector;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.cause.CookieReceivedWhileShuttingDownCause;
import org.sctpj.stack.wire.cause.RestartWithNewAddressesCause;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.Chunks;
import org.sctpj.stack.wire.chunk.ErrorChunk;
import org.sctpj.stack.wire.chunk.InitChunk;
import org.sctpj.stack.wire.chunk.ShutdownAckChunk;
import org.sctpj.stack.wire.param.AddressParameter;
import org.sctpj.stack.wire.param.Parameter;

/**
 * Setup chunks that meet an association which already exists: RFC 9260 sections 5.2.1 to 5.2.6,
 * INIT collisions, duplicate and late setup chunks, and the peer's restart. Each case is decided
 * by one pure function ({@link #forInit}, {@link #forInitAck}, {@link #forCookieEcho}, {@link
 * #forCookieAck}) that returns an {@link Action}; the handlers then carry it out. The table:
 *
 * <table>
 *   <caption>INIT (sections 5.2.1, 5.2.2 and 9.2)</caption>
 *   <tr><th>state</th><th>INIT brings addresses the association lacks</th><th>action</th></tr>
 *   <tr><td>COOKIE-WAIT</td><td>(not asked)</td><td>{@link Action#INIT_ACK_ORIGINAL_TAGS}: INIT
 *       ACK with our INIT's tag and TSN, no tie-tags (5.2.1)</td></tr>
 *   <tr><td>COOKIE-ECHOED</td><td>no</td><td>{@link Action#INIT_ACK_ORIGINAL_TAGS_TIE_TAGS}: INIT
 *       ACK with our INIT's tag and TSN, the current tags as tie-tags (5.2.1)</td></tr>
 *   <tr><td>ESTABLISHED, SHUTDOWN-PENDING, -SENT, -RECEIVED</td><td>no</td><td>{@link
 *       Action#INIT_ACK_NEW_TAGS_TIE_TAGS}: INIT ACK with a new random tag and TSN, the current
 *       tags as tie-tags (5.2.2)</td></tr>
 *   <tr><td>SHUTDOWN-ACK-SENT</td><td>no</td><td>{@link Action#SHUTDOWN_ACK} (9.2)</td></tr>
 *   <tr><td>any but COOKIE-WAIT</td><td>yes</td><td>{@link Action#ABORT_NEW_ADDRESSES}: ABORT
 *       with a Restart of an Association with New Addresses cause, tagged with the INIT's tag;
 *       the association is unchanged (5.2.1, 5.2.2)</td></tr>
 * </table>
 *
 * <table>
 *   <caption>INIT ACK (section 5.2.3)</caption>
 *   <tr><th>state</th><th>action</th></tr>
 *   <tr><td>COOKIE-WAIT</td><td>{@link Action#ACCEPT}: the setup goes on ({@link Connect})</td></tr>
 *   <tr><td>any other</td><td>{@link Action#DISCARD}</td></tr>
 * </table>
 *
 * <table>
 *   <caption>COOKIE ECHO of a valid cookie (section 5.2.4, Table 5): the cookie's tags against
 *   ours</caption>
 *   <tr><th>case</th><th>local tag</th><th>peer tag</th><th>tie-tags</th><th>action</th></tr>
 *   <tr><td>A</td><td>differs</td><td>differs</td><td>both ours (non-zero)</td><td>the peer
 *       restarted: {@link Action#RESTART} (new tags and TSNs, unsent data reported, COOKIE ACK,
 *       RESTART event); in SHUTDOWN-ACK-SENT {@link Action#SHUTDOWN_ACK_AND_ERROR} (SHUTDOWN ACK
 *       and a Cookie Received While Shutting Down error); when the cookie's INIT brings addresses
 *       the association lacks, {@link Action#ABORT_NEW_ADDRESSES} (section 5.2.4 A)</td></tr>
 *   <tr><td>B</td><td>matches</td><td>differs</td><td>(any)</td><td>INIT collision: {@link
 *       Action#COLLISION}: the peer's new tag and TSN taken, ESTABLISHED if not yet, COOKIE
 *       ACK</td></tr>
 *   <tr><td>C</td><td>differs</td><td>matches</td><td>(not ours)</td><td>a late COOKIE ECHO of
 *       an earlier attempt: {@link Action#DISCARD}</td></tr>
 *   <tr><td>D</td><td>matches</td><td>matches</td><td>(any)</td><td>{@link Action#DUPLICATE}:
 *       ESTABLISHED if not yet, COOKIE ACK, nothing else changes</td></tr>
 *   <tr><td>-</td><td>differs</td><td>differs</td><td>not ours</td><td>{@link
 *       Action#DISCARD}</td></tr>
 * </table>
 *
 * <p>COOKIE ACK (section 5.2.5): {@link Action#ACCEPT} in COOKIE-ECHOED, else {@link
 * Action#DISCARD}. A Stale Cookie error (section 5.2.6) is handled by {@link
 * Connect#onStaleCookie} in COOKIE-ECHOED and reported to the user in any other state.
 *
 * <p>The endpoint has already checked a COOKIE ECHO's MAC, ports, lifetime and source before it
 * reaches {@link #onCookieEcho}.
 */
public final class InitCollision {

    /** What a setup chunk for an existing association leads to; see the tables of the class. */
    public enum Action {
        /** INIT ACK with our INIT's Initiate Tag and TSN, no tie-tags (5.2.1, COOKIE-WAIT). */
        INIT_ACK_ORIGINAL_TAGS,
        /** INIT ACK with our INIT's Initiate Tag and TSN, the current tags as tie-tags (5.2.1). */
        INIT_ACK_ORIGINAL_TAGS_TIE_TAGS,
        /** INIT ACK with a new Initiate Tag and TSN, the current tags as tie-tags (5.2.2). */
        INIT_ACK_NEW_TAGS_TIE_TAGS,
        /** SHUTDOWN ACK (9.2: an INIT in SHUTDOWN-ACK-SENT). */
        SHUTDOWN_ACK,
        /** ABORT listing the new addresses; the association is unchanged (5.2.1, 5.2.2, 5.2.4 A). */
        ABORT_NEW_ADDRESSES,
        /** Case A: the peer restarted (5.2.4). */
        RESTART,
        /** Case A in SHUTDOWN-ACK-SENT: SHUTDOWN ACK and a Cookie Received While Shutting Down error. */
        SHUTDOWN_ACK_AND_ERROR,
        /** Case B: INIT collision, the peer's new tag and TSN taken (5.2.4). */
        COLLISION,
        /** Case D: a duplicate COOKIE ECHO (5.2.4). */
        DUPLICATE,
        /** The chunk is processed as usual (INIT ACK in COOKIE-WAIT, COOKIE ACK in COOKIE-ECHOED). */
        ACCEPT,
        /** Silently discarded (5.2.3, 5.2.4 case C, 5.2.5). */
        DISCARD
    }

    private final Tcb t;

    /** The collision handling of the association {@code t} describes. */
    public InitCollision(Tcb t) {
        this.t = t;
    }

    // ------------------------------------------------------------------ the decisions

    /**
     * An INIT in {@code state}; {@code bringsNewAddresses}: its source or listed addresses include
     * one the association neither has as a path nor was announced (not asked in COOKIE-WAIT).
     */
    public static Action forInit(State state, boolean bringsNewAddresses) {
        if (state == State.COOKIE_WAIT) {
            return Action.INIT_ACK_ORIGINAL_TAGS;
        }
        if (bringsNewAddresses) {
            return Action.ABORT_NEW_ADDRESSES;
        }
        return switch (state) {
            case COOKIE_ECHOED -> Action.INIT_ACK_ORIGINAL_TAGS_TIE_TAGS;
            case SHUTDOWN_ACK_SENT -> Action.SHUTDOWN_ACK;
            default -> Action.INIT_ACK_NEW_TAGS_TIE_TAGS;
        };
    }

    /** An INIT ACK in {@code state} (5.2.3). */
    public static Action forInitAck(State state) {
        return state == State.COOKIE_WAIT ? Action.ACCEPT : Action.DISCARD;
    }

    /** A COOKIE ACK in {@code state} (5.2.5). */
    public static Action forCookieAck(State state) {
        return state == State.COOKIE_ECHOED ? Action.ACCEPT : Action.DISCARD;
    }

    /**
     * A COOKIE ECHO whose cookie has tags {@code cookieLocalTag}/{@code cookiePeerTag} and
     * tie-tags {@code localTie}/{@code peerTie}, for an association in {@code state} with tags
     * {@code localTag}/{@code peerTag}; {@code bringsNewAddresses}: the cookie's INIT lists an
     * address the association lacks (5.2.4, Table 5).
     */
    public static Action forCookieEcho(
            State state,
            int localTag,
            int peerTag,
            int cookieLocalTag,
            int cookiePeerTag,
            int localTie,
            int peerTie,
            boolean bringsNewAddresses) {
        boolean localMatch = cookieLocalTag == localTag;
        boolean peerMatch = cookiePeerTag == peerTag;
        boolean tiesMatch = localTie == localTag && peerTie == peerTag && localTie != 0;
        if (!localMatch && !peerMatch && tiesMatch) {
            if (state == State.SHUTDOWN_ACK_SENT) {
                return Action.SHUTDOWN_ACK_AND_ERROR;
            }
            return bringsNewAddresses ? Action.ABORT_NEW_ADDRESSES : Action.RESTART;
        }
        if (localMatch) {
            return peerMatch ? Action.DUPLICATE : Action.COLLISION;
        }
        // Case C (!localMatch, peerMatch, no tie-tags: a late COOKIE ECHO of an earlier attempt)
        // and any other combination.
        return Action.DISCARD;
    }

    // ------------------------------------------------------------------ the handlers

    /** INIT for this association (sections 5.2.1, 5.2.2, 9.2). */
    public void onInit(InboundPacket pkt, int i, long now) {
        Parsed<? extends Chunk> p = Chunks.decode(pkt.buffer(), pkt.offset(i), pkt.length(i));
        if (!p.isOk() || !(p.value() instanceof InitChunk init)) {
            return;
        }
        List<InetAddress> added = List.of();
        if (t.state != State.COOKIE_WAIT && init.initiateTag() != 0) {
            // An INIT that adds addresses to the association must not restart it (someone else
            // could take it over). Only as many as a cookie keeps: the rest would never become
            // part of the association.
            List<InetAddress> offered = new ArrayList<>();
            offered.add(pkt.from());
            offered.addAll(InitHandling.read(init.parameters()).addresses);
            added = newAddresses(offered.subList(0, Math.min(offered.size(), StateCookie.MAX_ADDRESSES)));
        }
        int tag;
        int tsn;
        int tieLocal = 0;
        int tiePeer = 0;
        KeyVector auth = t.auth.local(); // with our INIT's tag, our INIT's Random (RFC 4895 section 6.1)
        switch (forInit(t.state, !added.isEmpty())) {
            case ABORT_NEW_ADDRESSES -> {
                refuseNewAddresses(added, pkt.from(), init.initiateTag());
                return;
            }
            case SHUTDOWN_ACK -> {
                t.queue(new ShutdownAckChunk(), t.pathSet.replyTo(pkt.from()), t.peerTag);
                return;
            }
            case INIT_ACK_ORIGINAL_TAGS -> {
                tag = t.localTag;
                tsn = t.localInitialTsn;
            }
            case INIT_ACK_ORIGINAL_TAGS_TIE_TAGS -> {
                tag = t.localTag;
                tsn = t.localInitialTsn;
                tieLocal = t.localTag;
                tiePeer = t.peerTag;
            }
            default -> {
                // A new random tag, and tie-tags so the COOKIE ECHO can be recognised as a restart
                // (case A) or a collision (case B).
                tag = t.host.newTag();
                tsn = t.host.random().nextInt();
                tieLocal = t.localTag;
                tiePeer = t.peerTag;
                auth = Authentication.offer(t.o, t.host.random());
            }
        }
        Handshake.answerInit(
                        t.host, t.o, init, t.peerPort, pkt.from(), pkt.to(), tag, tsn, tieLocal, tiePeer, auth, now)
                .ifPresent(a -> t.queue(a.chunk(), pkt.from(), a.verificationTag()));
    }

    /** INIT ACK: processed in COOKIE-WAIT only (section 5.2.3). */
    public void onInitAck(InboundPacket pkt, int i, long now) {
        if (forInitAck(t.state) == Action.ACCEPT) {
            t.connect.onInitAck(pkt, i, now);
        }
    }

    /** COOKIE ACK: processed in COOKIE-ECHOED only (section 5.2.5). */
    public void onCookieAck(long now) {
        if (forCookieAck(t.state) == Action.ACCEPT) {
            t.connect.onCookieAck(now);
        }
    }

    /**
     * RFC 9260 section 5.2.4, Table 5: a COOKIE ECHO with the authentic cookie {@code c} from
     * {@code from} for this association. Returns whether the cookie was accepted (the rest of its
     * packet is then processed).
     */
    public boolean onCookieEcho(StateCookie c, InetAddress from, long now) {
        List<InetAddress> added = List.of();
        boolean caseA = c.localTag() != t.localTag
                && c.peerTag() != t.peerTag
                && c.localTieTag() == t.localTag
                && c.peerTieTag() == t.peerTag
                && c.localTieTag() != 0;
        if (caseA && t.state != State.SHUTDOWN_ACK_SENT) {
            added = newAddresses(c.peerAddresses());
        }
        switch (forCookieEcho(
                t.state,
                t.localTag,
                t.peerTag,
                c.localTag(),
                c.peerTag(),
                c.localTieTag(),
                c.peerTieTag(),
                !added.isEmpty())) {
            case SHUTDOWN_ACK_AND_ERROR -> {
                t.queue(new ShutdownAckChunk(), from, t.peerTag);
                t.queue(new ErrorChunk(List.of(new CookieReceivedWhileShuttingDownCause())), from, t.peerTag);
                return false;
            }
            case ABORT_NEW_ADDRESSES -> {
                // Section 5.2.2: a restart must not bring addresses the association does not have.
                refuseNewAddresses(added, from, c.peerTag());
                return false;
            }
            case RESTART -> {
                restart(c, from, now);
                return true;
            }
            case COLLISION -> {
                // Case B: INIT collision; take the peer's new tag and TSN.
                boolean wasUp = !t.settingUp();
                t.peerTag = c.peerTag();
                if (!wasUp) {
                    // In COOKIE-WAIT the peer's INIT (in the cookie) is all we know of its addresses.
                    t.pathSet.addListedPaths(t.primaryAddress(), c.peerAddresses(), now);
                }
                t.announce(c.peerAddresses());
                t.connect.startFromCookie(c);
                t.connect.stopT1();
                if (!wasUp) {
                    t.connect.enterEstablished(now);
                }
                t.connect.queueCookieAck(from, now);
                return true;
            }
            case DUPLICATE -> {
                // Case D: a retransmitted (or replayed) COOKIE ECHO; enter ESTABLISHED if still
                // setting up. Nothing else changes: not the primary, not the paths.
                if (t.settingUp()) {
                    t.connect.enterEstablished(now);
                }
                t.connect.queueCookieAck(from, now);
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    /** Peer restart (section 5.2.4 A): new tags and TSNs, unacknowledged data reported failed. */
    private void restart(StateCookie c, InetAddress from, long now) {
        t.data.reportUnsent();
        t.connect.stopT1();
        t.timers.stop(TimerKind.T2_SHUTDOWN);
        t.timers.stop(TimerKind.T5_SHUTDOWN_GUARD);
        t.controls.clear();
        int previousTag = t.localTag;
        t.localTag = c.localTag();
        t.peerTag = c.peerTag();
        t.localInitialTsn = c.localInitialTsn();
        t.host.localTagChanged(t.association, previousTag);
        for (Path p : t.paths) {
            p.stopT3();
            p.resetErrorCount();
        }
        t.connect.startFromCookie(c);
        t.associationErrors = 0;
        t.wasDry = true;
        t.state = State.ESTABLISHED;
        t.connect.queueCookieAck(from, now);
        t.connect.emitUp(AssociationChangeType.RESTART, now);
    }

    /**
     * The addresses of {@code offered} that are not part of this association (neither announced
     * by the peer nor a path), at most {@link StateCookie#MAX_ADDRESSES} of them.
     */
    private List<InetAddress> newAddresses(List<InetAddress> offered) {
        List<InetAddress> out = new ArrayList<>();
        for (InetAddress x : offered) {
            if (!t.announced.contains(x) && t.pathOf(x) == null && !out.contains(x)) {
                out.add(x);
                if (out.size() == StateCookie.MAX_ADDRESSES) {
                    break;
                }
            }
        }
        return out;
    }

    /**
     * Refuses an INIT or a restart that brings {@code added} (RFC 9260 sections 5.2.1, 5.2.2 and
     * 5.2.4 A): an ABORT with a Restart of an Association with New Addresses cause listing them,
     * tagged with the restarting peer's new tag, to {@code dest}. The association is unchanged.
     */
    private void refuseNewAddresses(List<InetAddress> added, InetAddress dest, int newPeerTag) {
        List<Parameter> params = new ArrayList<>(added.size());
        for (InetAddress x : added) {
            params.add(AddressParameter.of(x));
        }
        t.queue(AbortChunk.of(false, RestartWithNewAddressesCause.of(params)), dest, newPeerTag);
    }
}
