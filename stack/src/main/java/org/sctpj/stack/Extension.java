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
    AUTH(0x0F),

    /**
     * Explicit Congestion Notification (RFC 9260 appendix A): announced by the ECN Capable parameter
     * (0x8000) in INIT and INIT ACK, not in Supported Extensions ({@link #chunkType()} is the ECNE
     * chunk, type 12, for reference only). With it, our DATA packets ask the lower layer for ECT(0),
     * a Congestion Experienced mark on a packet with DATA is echoed in ECNE chunks until the peer's
     * CWR covers it, and an ECNE from the peer reduces the window of the path once per window of
     * data (as a fast retransmit does) and is answered with a CWR. Off by default; the lower layer
     * must set and read the IP ECN bits for it to matter ({@link
     * org.sctpj.stack.llp.LowerLayer#send(java.nio.ByteBuffer, java.net.InetAddress,
     * java.net.InetAddress, int)}).
     */
    ECN(0x0C),

    /**
     * Non-renegable selective acknowledgements (NR-SACK, chunk type 0x10, as in
     * draft-natarajan-tsvwg-sctp-nrsack-08 and usrsctp, which offers it with its sysctl {@code
     * nr_sack_on_off}): the NR-SACK chunk in Supported Extensions. With it, our receiver, which
     * never reneges, acknowledges with NR-SACK and reports every out-of-order TSN as
     * non-renegable; as a sender we take NR-acknowledged chunks out of the send buffer at once
     * (they no longer count against {@link SctpOptions#sendBufferBytes()}) and never retransmit
     * them. Meant for Concurrent Multipath Transfer ({@link SctpOptions#cmt()}), where chunks sent
     * on a fast path are otherwise held until a slow path's earlier ones arrive. Not offered by
     * default.
     */
    NR_SACK(0x10),

    /**
     * Dynamic address reconfiguration (RFC 5061, ADD-IP): the ASCONF chunk (type 0xC1) and the
     * ASCONF-ACK chunk (type 0x80) in Supported Extensions (section 4.2.7). With it the
     * association's local addresses can be added and deleted while it runs, and the peer asked to
     * take one of ours as its primary ({@link Endpoint#addLocalAddress}, {@link
     * Endpoint#removeLocalAddress}, {@link Endpoint#setPeerPrimary}); the peer may do the same.
     *
     * <p>RFC 5061 section 4.1.1 requires ASCONF and ASCONF-ACK to be authenticated: offering it
     * requires {@link #AUTH} too (the options refuse it alone), and ASCONF and ASCONF-ACK are then
     * added to the chunk types we require authenticated. An association uses it only when AUTH is
     * in force on it and the peer requires ASCONF and ASCONF-ACK authenticated as well; otherwise
     * it is dropped from the association's extensions and a received ASCONF is refused as an
     * unrecognized chunk (and one without a valid AUTH chunk is discarded, RFC 4895 section 6.3).
     * Not offered by default.
     */
    ASCONF(0xC1);

    private final int chunkType;

    Extension(int chunkType) {
        this.chunkType = chunkType;
    }

    /**
     * The chunk type whose presence in the Supported Extensions parameter announces the extension
     * ({@link #ECN} excepted: its own parameter announces it).
     */
    public int chunkType() {
        return chunkType;
    }
}
