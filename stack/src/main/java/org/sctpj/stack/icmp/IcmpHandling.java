package org.sctpj.stack.icmp;

import java.net.InetAddress;
import java.util.List;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.assoc.Association.State;
import org.sctpj.stack.assoc.Tcb;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.wire.chunk.ChunkType;

/**
 * The ICMP rules of RFC 9260 appendix C for one association, with RFC 6951 section 5.5 for UDP
 * encapsulation. The endpoint has found the association by the quoted peer address and ports
 * (ICMP5); here:
 *
 * <ol>
 *   <li>ICMP6, the tag check: the quoted Verification Tag must be the peer's; when it is 0, the
 *       quoted packet must be an INIT whose Initiate Tag is ours (the INIT we sent carries our tag;
 *       its Verification Tag is 0). Otherwise the report is discarded: a blind attacker, who does
 *       not see our packets, cannot guess the tag, so a forged ICMP cannot end an association.
 *   <li>ICMP8: a Protocol Unreachable (ICMPv6: Unrecognized Next Header Type) is an ABORT with the
 *       T bit when the quoted packet is not an INIT; when it is an INIT, it ends the setup
 *       (CANT_START) in COOKIE-WAIT and is ignored otherwise. Over UDP encapsulation a Port
 *       Unreachable is handled as a Protocol Unreachable (RFC 6951 section 5.5): so a connect to
 *       a UDP port where nothing listens fails after one round trip instead of after every INIT
 *       retransmission. Over raw IP a Port Unreachable says nothing about SCTP and is ignored.
 *   <li>ICMP9: a network or host unreachable counts as an error of the path it names (the
 *       alternative the appendix gives to marking the path unreachable outright), once the
 *       association is up: the path goes Potentially Failed or inactive by the usual thresholds
 *       (RFC 9260 section 8.2, RFC 7829) and a HEARTBEAT ACK brings it back. During the setup it is
 *       ignored: the handshake sends to the primary only and counts its own retransmissions.
 *   <li>ICMP7: a Packet Too Big / Fragmentation Needed with an MTU is recorded ({@link
 *       #lastReportedMtu}); with path MTU discovery on ({@link
 *       org.sctpj.stack.SctpOptions#pmtuDiscovery()}) it lowers the path's MTU when below it and
 *       not below the base of 1200 bytes (RFC 8899 section 4.6.2).
 *   <li>Anything else is ignored (ICMP1 to ICMP4), and so is everything when {@link
 *       org.sctpj.stack.SctpOptions#icmpHandling()} is off.
 * </ol>
 *
 * <p>A report costs no memory that stays: the association keeps only the last MTU reported.
 * Internal to the stack: reached through {@link org.sctpj.stack.Endpoint#handleIcmp}.
 */
public final class IcmpHandling {

    /** What became of a report. */
    public enum Outcome {
        /** Refused by the tag or port check (ICMP6): the association is untouched. */
        NOT_VERIFIED,
        /** Verified, or not looked at because ICMP handling is off, and not acted on. */
        IGNORED,
        /** Verified and acted on: the setup or the association ended, or a path error counted. */
        ACTED,
        /** Verified Packet Too Big: its MTU recorded for path MTU discovery. */
        RECORDED
    }

    private final Tcb t;
    private InetAddress tooBigDestination;
    private int tooBigMtu;

    /** The ICMP handling of the association {@code t} describes. */
    public IcmpHandling(Tcb t) {
        this.t = t;
    }

    /** Applies the rules to {@code r}, whose quoted peer address and port are this association's. */
    public Outcome onIcmp(IcmpReport r, long now) {
        if (!t.o.icmpHandling() || t.state == State.CLOSED) {
            return Outcome.IGNORED;
        }
        if (!verified(r)) {
            return Outcome.NOT_VERIFIED;
        }
        IcmpReport.Kind kind = r.kind();
        if (kind == IcmpReport.Kind.PORT_UNREACHABLE) {
            if (!r.udpEncapsulated()) {
                return Outcome.IGNORED; // raw IP: SCTP's ports are not the IP layer's business (ICMP3)
            }
            kind = IcmpReport.Kind.PROTOCOL_UNREACHABLE; // RFC 6951 section 5.5
        }
        return switch (kind) {
            case PROTOCOL_UNREACHABLE -> unreachable(r, now);
            case HOST_UNREACHABLE -> hostUnreachable(r, now);
            case PACKET_TOO_BIG -> tooBig(r, now);
            default -> Outcome.IGNORED;
        };
    }

    /** ICMP6: the ports are the association's and the quoted tag is the peer's (or our INIT's). */
    private boolean verified(IcmpReport r) {
        if (r.sourcePort() != t.host.localPort() || r.destinationPort() != t.peerPort) {
            return false;
        }
        if (r.verificationTag() != 0) {
            return r.verificationTag() == t.peerTag;
        }
        return r.chunkType() == ChunkType.INIT && r.initiateTag() == (t.localTag & 0xffff_ffffL);
    }

    /** ICMP8: an ABORT with the T bit, or for a quoted INIT the end of COOKIE-WAIT. */
    private Outcome unreachable(IcmpReport r, long now) {
        String what = describe(r);
        if (r.chunkType() == ChunkType.INIT) {
            if (t.state != State.COOKIE_WAIT) {
                return Outcome.IGNORED;
            }
            t.abort.close(AssociationChangeType.CANT_START, List.of(), what + " in answer to our INIT", now);
            return Outcome.ACTED;
        }
        t.abort.aborted(true, List.of(), what + ", an ABORT by RFC 9260 appendix C (ICMP8),", now);
        return Outcome.ACTED;
    }

    /** ICMP9: one error of the path to the unreachable address, once the association is up. */
    private Outcome hostUnreachable(IcmpReport r, long now) {
        Path p = t.pathOf(r.destination());
        if (p == null || t.settingUp()) {
            return Outcome.IGNORED;
        }
        t.failover.pathError(p, now);
        return Outcome.ACTED;
    }

    /**
     * ICMP7: the MTU is kept, and with path MTU discovery on lowers the path's MTU when it is below
     * it and not below the base (RFC 8899 section 4.6.2, {@link
     * org.sctpj.stack.pmtu.PmtuDiscovery#onPacketTooBig}).
     */
    private Outcome tooBig(IcmpReport r, long now) {
        Path p = t.pathOf(r.destination());
        if (r.mtu() <= 0 || p == null) {
            return Outcome.IGNORED;
        }
        tooBigDestination = r.destination();
        tooBigMtu = r.mtu();
        return t.pmtu.onPacketTooBig(p, r.mtu(), now) ? Outcome.ACTED : Outcome.RECORDED;
    }

    /**
     * The MTU the last verified Packet Too Big / Fragmentation Needed reported for {@code
     * destination}, or 0 when the last one (if any) was about another address.
     */
    public int lastReportedMtu(InetAddress destination) {
        return destination.equals(tooBigDestination) ? tooBigMtu : 0;
    }

    private static String describe(IcmpReport r) {
        String name =
                switch (r.kind()) {
                    case PORT_UNREACHABLE -> "Port Unreachable (over UDP encapsulation a Protocol Unreachable,"
                            + " RFC 6951 section 5.5)";
                    case PROTOCOL_UNREACHABLE -> r.ipv6()
                            ? "Parameter Problem (Unrecognized Next Header Type)"
                            : "Protocol Unreachable";
                    default -> r.kind().toString();
                };
        return (r.ipv6() ? "ICMPv6 " : "ICMP ") + name + " about "
                + r.destination().getHostAddress() + " port " + r.destinationPort();
    }
}
