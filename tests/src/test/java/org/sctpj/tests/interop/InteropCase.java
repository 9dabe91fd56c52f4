package org.sctpj.tests.interop;

/**
 * The cases of the interop matrix (issue 5, part c), each run in both {@link Direction}s over
 * every {@link Llp} the peer supports. {@link CaseRunner} holds what each does; the descriptions
 * here are what the table means by the name.
 */
public enum InteropCase {
    /** Four-way handshake, 16 streams each way, then graceful shutdown. */
    HANDSHAKE("handshake"),
    /** 1,000 messages echoed on 16 streams, ordered: stream, PPID, bytes and per-stream order checked. */
    ECHO_ORDERED("echo-1000-ordered"),
    /** The same with the U bit: stream, PPID, U flag and bytes checked. */
    ECHO_UNORDERED("echo-1000-unordered"),
    /** 100 one-byte messages echoed. */
    SIZE_1B("size-1B"),
    /** 200 messages of 1,452 bytes echoed (one full packet each over raw IPv4). */
    SIZE_1452B("size-1452B"),
    /** 40 messages of 64 KiB echoed: fragmentation and reassembly both ways. */
    SIZE_64KIB("size-64KiB"),
    /** 4 messages of 1 MiB echoed: fragmentation, reassembly and partial delivery both ways. */
    SIZE_1MIB("size-1MiB"),
    /**
     * One message of 5,000,000 bytes sent by the peer to our stack while our receive buffer is 1
     * MiB (RFC 9260 section 6.9 partial delivery; issue 10 defect 4, seen with the Linux kernel as
     * the sender): we-client sends it to the peer's echo server and gets it back, we-server gets it
     * from the peer's client and echoes it (our send buffer 8 MiB, our maximum message 5,000,000
     * bytes; the peer's buffers 8 MiB). Both sides check every byte; our side accepts the message
     * in parts (partial delivery), concatenated per stream until the end of the message.
     */
    BIG_MESSAGE("size-5MB-rwnd-1MiB"),
    /** Messages echoed, then our stack starts the graceful shutdown. */
    SHUTDOWN_OURS("shutdown-by-us"),
    /** Messages echoed, then the peer starts the graceful shutdown. */
    SHUTDOWN_PEER("shutdown-by-peer"),
    /** Messages echoed, then our stack sends ABORT. */
    ABORT_OURS("abort-by-us"),
    /** Messages echoed, then the peer sends ABORT. */
    ABORT_PEER("abort-by-peer"),
    /** An idle association with short heartbeat intervals: HEARTBEAT and HEARTBEAT ACK seen both ways. */
    HEARTBEAT_IDLE("heartbeat-idle"),
    /**
     * The client side restarts (vanishes without a word, comes back on the same addresses and port
     * and sends a new INIT): we-client restarts our stack, we-server restarts the peer. The other
     * side must report RESTART and go on with the new incarnation.
     */
    RESTART("restart"),
    /** The peer offers only 4 streams each way while we ask for 16: both settle on 4. */
    STREAMS_FEWER("streams-peer-fewer"),
    /** 300 messages of 4,000 bytes echoed while nftables drops 5% of the packets each way. */
    BULK_LOSS("bulk-5pct-loss"),
    /**
     * Two addresses on each side; after the association is up the primary path is cut by
     * nftables, and the traffic must move to the other path with nothing lost.
     */
    MULTIHOME("multihome-failover"),

    // ---------------------------------------------------------------- issue 12: the extensions
    // (run by ExtensionCell; over UDP and raw IPv4; select them alone with sctpj.interop.group=extensions)

    /**
     * PR-SCTP (RFC 3758) with the time-to-live policy (RFC 7496 section 3.1, 5 ms) under 10% loss
     * each way: the sender (we-client: us; we-server: the peer's client) sends 300 messages of 1,000
     * bytes on 4 streams with the policy, the other side echoes reliably. Every message is echoed or
     * reported abandoned to its sender (nothing else lost), at least one was abandoned, echoes keep
     * per-stream order, everything the sender sent ends up acknowledged (the receiver's cumulative
     * TSN moved past the abandoned ones: FORWARD-TSN) and the association shuts down cleanly.
     */
    PR_TTL("prsctp-ttl-loss", true),
    /** The same with limited retransmissions (RFC 7496 section 3.2): 0 retransmissions. */
    PR_RTX("prsctp-rtx-loss", true),
    /**
     * The same with the priority policy (RFC 7496 section 3.3) and a 16 KiB send buffer: even
     * messages priority 0, odd ones 1; only odd messages may be abandoned, every even one arrives.
     */
    PR_PRIO("prsctp-prio-buffer", true),
    /**
     * I-DATA (RFC 8260) negotiated; 24 messages on 2 streams: those on stream 0 are 200,000 bytes
     * (fragmented, their fragments numbered by FSN), those on stream 1 are 300 bytes, echoed both
     * ways. Fragmented I-DATA in both directions: the case the corpus shows usrsctp and Linux 6.1
     * failing each other on (FSN numbering); tests/README.md says what each does.
     */
    IDATA_INTERLEAVE("idata-interleave", true),
    /**
     * I-DATA with PR-SCTP: the limited-retransmissions case (0 retransmissions, 10% loss) on
     * I-DATA, so abandoned messages are skipped with I-FORWARD-TSN (RFC 8260 section 2.3): ours
     * (we-client) or the peer's (we-server).
     */
    IDATA_PR_RTX("idata-iforward-rtx-loss", true),
    /**
     * RE-CONFIG (RFC 6525): 400 messages echoed on 4 streams; after 200, our stack resets its
     * outgoing streams (Outgoing SSN Reset Request, section 5.1.2) while the rest flows. Nothing
     * lost or misordered; the peer reports the incoming stream reset; we see our StreamReset event.
     */
    RESET_BY_US("reconfig-reset-by-us", true),
    /**
     * The same, the peer asking: its outgoing streams and ours (Outgoing and Incoming SSN Reset
     * Requests in one RE-CONFIG chunk, sections 5.1.2 and 5.1.3) after 200 messages.
     */
    RESET_BY_PEER("reconfig-reset-by-peer", true),
    /**
     * RE-CONFIG Add Outgoing/Incoming Streams (sections 5.1.5, 5.1.6): 400 messages on 4 streams;
     * after 200 the client side (we-client: us; we-server: the peer) adds 4 streams each way and
     * sends the rest on all 8; the echoes come back on the new streams too.
     */
    ADD_STREAMS("reconfig-add-streams", true),

    // ---------------------------------------------------------------- issue 13: AUTH, ECN, PMTU
    // (run by FeatureCell; select a group with sctpj.interop.group=auth, ecn or pmtu)

    /**
     * AUTH (RFC 4895): both sides require DATA and SACK authenticated, so every data packet either
     * way carries an AUTH chunk the other implementation verifies; 200 messages of 1,000 bytes
     * echoed, and at message 100 each side switches its sending key from 0 to 5, an endpoint pair
     * shared key both were given (ours with {@code Endpoint.setActiveAuthKey}, the peer's with
     * SCTP_AUTH_ACTIVE_KEY: {@code --auth-switch-at}). Nothing lost; we report NEW_KEY 5 (the
     * peer's switch verified here); the peer's counts show ours verified there.
     */
    AUTH_KEY_SWITCH("auth-key-switch", "auth"),
    /**
     * ECN (RFC 9260 appendix A) negotiated; nftables marks 5% of the ECT(0) packets each way
     * Congestion Experienced; 600 messages of 2,000 bytes echoed. Nothing lost; our window fell
     * (ECNE from the peer, reported as EcnCongestion events), and the peer's data was marked,
     * echoed by us and answered with CWR.
     */
    ECN_CE("ecn-ce-marks", "ecn"),
    /**
     * Path MTU discovery (RFC 8899, {@code SctpOptions.pmtuDiscovery}) on a 1,500-byte path: once
     * it found 1500, after 100 of 300 messages of 4,000 bytes, every packet from us longer than
     * 1,280 bytes is dropped (nftables, no Packet Too Big: a black hole). Nothing lost; black hole
     * reported and 1280 found.
     */
    PMTU_DROP("pmtu-drop-1280", "pmtu"),
    /**
     * The same with the search allowed to 9,000: the path starts at 1,500 and after 100 messages
     * its link is raised to 9,000 (both veth ends; over loopback an nftables limit of 1,500 is
     * lifted). PMTU_RAISE_TIMER is 5 s here ({@code SctpOptions.pmtuRaiseInterval}): the next
     * search finds 9000. Nothing lost.
     */
    PMTU_RAISE("pmtu-raise-9000", "pmtu"),
    /**
     * ASCONF (RFC 5061), our stack changing its addresses while data flows: two addresses a side
     * (raw IP: two veth pairs or the VM's two taps; UDP: two namespaces), each side bound to its
     * first. 400 messages of 1,000 bytes echoed, the client pacing them 2 ms apart; at message 100
     * we add our second address (Add IP Address) and ask the peer to make it its primary (Set
     * Primary Address), at message 200 we delete the first (Delete IP Address). Nothing lost; the
     * peer confirms each request (our LocalAddressChange ADDED, MADE_PRIMARY, REMOVED), its data
     * then arrives on the new address, and once the deletion is acknowledged nothing leaves from or
     * arrives on the old one.
     */
    ASCONF_BY_US("asconf-by-us", "asconf"),
    /**
     * The same with the peer changing its addresses (usrsctp_bindx / sctp_bindx add and remove,
     * SCTP_SET_PEER_PRIMARY_ADDR): we report its address ADDED, MADE_PRIMARY and REMOVED, send to
     * the new one and, once it is deleted, nothing more to the old one.
     */
    ASCONF_BY_PEER("asconf-by-peer", "asconf"),
    /**
     * NR-SACK (draft-natarajan-tsvwg-sctp-nrsack) negotiated with CMT on both sides (usrsctp sends
     * NR-SACKs only with CMT), 300 messages of 2,000 bytes echoed under 5% random loss each way, so
     * that NR Gap Ack Blocks cross both ways. Nothing lost; NR-SACKs with NR gap blocks sent and
     * received, no plain SACK from the peer.
     */
    NRSACK_LOSS("nrsack-loss", "nrsack");

    private final String label;
    private final boolean extension;
    private final String feature;

    InteropCase(String label) {
        this(label, false);
    }

    InteropCase(String label, boolean extension) {
        this.label = label;
        this.extension = extension;
        this.feature = null;
    }

    InteropCase(String label, String feature) {
        this.label = label;
        this.extension = false;
        this.feature = feature;
    }

    /**
     * The group of an issue 13 case ({@code auth}, {@code ecn}, {@code pmtu}, {@code asconf},
     * {@code nrsack}), run by {@link
     * FeatureCell}; null for the others.
     */
    public String feature() {
        return feature;
    }

    /** True for the cases of issue 12 (PR-SCTP, I-DATA, RE-CONFIG), run by {@link ExtensionCell}. */
    public boolean extension() {
        return extension;
    }

    /** The name in the table and in the pcap file names. */
    public String label() {
        return label;
    }
}
