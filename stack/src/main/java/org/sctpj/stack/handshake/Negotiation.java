package org.sctpj.stack.handshake;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.sctpj.stack.Extension;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.wire.chunk.ChunkType;
import org.sctpj.stack.wire.param.AdaptationLayerIndicationParameter;
import org.sctpj.stack.wire.param.EcnCapableParameter;
import org.sctpj.stack.wire.param.ForwardTsnSupportedParameter;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.SupportedExtensionsParameter;

/**
 * Which extensions an association uses: what we announce in INIT and INIT ACK, what the peer
 * announced, and their intersection. An extension is used only when both sides announced it (RFC
 * 5061 section 4.2.7; RFC 3758 section 3.1; RFC 8260 section 2.1; RFC 6525 section 3.1; for ECN
 * the ECN Capable parameter of RFC 9260 appendix A).
 *
 * <p>What a peer announces is kept as a bit mask, one bit per {@link Extension} ordinal, so that
 * the stateless server can carry it in its State Cookie.
 */
public final class Negotiation {
    private Negotiation() {}

    /** The bit of {@code e} in an announcement mask. */
    public static int bit(Extension e) {
        return 1 << e.ordinal();
    }

    /**
     * Our extension parameters for an INIT or INIT ACK: Forward-TSN-Supported when we offer
     * PR-SCTP (RFC 3758 section 3.1), Supported Extensions listing the chunk types of what we offer
     * (RFC 5061 section 4.2.7; I-FORWARD-TSN with I-DATA and PR-SCTP, RFC 8260 section 2.3), and the
     * Adaptation Layer Indication when set (RFC 5061 section 4.2.6).
     */
    public static List<Parameter> offer(SctpOptions o) {
        List<Parameter> out = new ArrayList<>(3);
        Set<Extension> ours = o.extensions();
        if (!ours.isEmpty() && !ours.equals(EnumSet.of(Extension.ECN))) {
            List<Integer> types = new ArrayList<>(4);
            for (Extension e : ours) {
                if (e != Extension.ECN) {
                    types.add(e.chunkType());
                }
            }
            if (ours.contains(Extension.I_DATA) && ours.contains(Extension.PR_SCTP)) {
                types.add(ChunkType.I_FORWARD_TSN);
            }
            if (ours.contains(Extension.ASCONF)) {
                types.add(ChunkType.ASCONF_ACK); // RFC 5061 section 4.2.7: both chunk types
            }
            out.add(new SupportedExtensionsParameter(types));
        }
        if (ours.contains(Extension.PR_SCTP)) {
            out.add(ForwardTsnSupportedParameter.INSTANCE);
        }
        if (ours.contains(Extension.ECN)) {
            out.add(EcnCapableParameter.INSTANCE); // RFC 9260 appendix A
        }
        if (o.adaptationIndication().isPresent()) {
            out.add(new AdaptationLayerIndicationParameter(
                    (int) o.adaptationIndication().getAsLong()));
        }
        return out;
    }

    /**
     * Adds what {@code p} announces to {@code mask}: the Forward-TSN-Supported parameter announces
     * PR-SCTP; a Supported Extensions parameter announces each extension whose chunk type it lists.
     * Returns the new mask.
     */
    static int announced(int mask, Parameter p) {
        if (p instanceof ForwardTsnSupportedParameter) {
            return mask | bit(Extension.PR_SCTP);
        }
        if (p instanceof EcnCapableParameter) {
            return mask | bit(Extension.ECN); // RFC 9260 appendix A
        }
        if (p instanceof SupportedExtensionsParameter se) {
            for (int type : se.chunkTypes()) {
                for (Extension e : Extension.values()) {
                    if (e != Extension.ECN && e.chunkType() == type) {
                        mask |= bit(e);
                    }
                }
            }
        }
        return mask;
    }

    /** The extensions both we offer and the peer announced in {@code peerMask}. */
    public static EnumSet<Extension> agreed(SctpOptions o, int peerMask) {
        EnumSet<Extension> out = EnumSet.noneOf(Extension.class);
        for (Extension e : o.extensions()) {
            if ((peerMask & bit(e)) != 0) {
                out.add(e);
            }
        }
        return out;
    }
}
