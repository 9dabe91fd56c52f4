package org.sctpj.stack;

/**
 * The protocol extensions an association can use, each only when both endpoints announced it in
 * INIT and INIT ACK (RFC 5061 section 4.2.7, Supported Extensions parameter). We announce those in
 * {@link SctpOptions#extensions()}; {@link AssociationInfo#extensions()} says which the association
 * ended up with.
 */
public enum Extension {
    /**
     * Partial reliability (RFC 3758): the Forward-TSN-Supported parameter (section 3.1) and the
     * FORWARD-TSN chunk (type 192) in Supported Extensions. With it, a message whose policy gives
     * up on it is abandoned and the peer is told to move on.
     */
    PR_SCTP(0xC0),
    /**
     * Message interleaving (RFC 8260): the I-DATA chunk (type 64) in Supported Extensions; with
     * {@link #PR_SCTP} also I-FORWARD-TSN (type 194). With it, fragments of messages of different
     * streams may interleave, so a large message no longer holds up the others.
     */
    I_DATA(0x40),
    /** Stream reconfiguration (RFC 6525): the RE-CONFIG chunk (type 130) in Supported Extensions. */
    RECONFIG(0x82),
    /**
     * Authenticated chunks (RFC 4895): the AUTH chunk (type 15) in Supported Extensions, with the
     * RANDOM, CHUNKS and HMAC-ALGO parameters (section 3) that the peer must send too for the
     * association to use it. The chunk types we require authenticated and the HMACs we accept are
     * {@link SctpOptions#authChunks()} and {@link SctpOptions#authHmacs()}; keys are managed with
     * {@link Endpoint#setAuthKey} and its siblings. Not offered by default.
     */
    AUTH(0x0F);

    private final int chunkType;

    Extension(int chunkType) {
        this.chunkType = chunkType;
    }

    /** The chunk type whose presence in the Supported Extensions parameter announces the extension. */
    public int chunkType() {
        return chunkType;
    }
}
