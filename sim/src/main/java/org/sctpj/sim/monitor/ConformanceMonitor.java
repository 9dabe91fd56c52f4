package org.sctpj.sim.monitor;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sctpj.sim.Side;
import org.sctpj.stack.wire.Crc32c;

/**
 * The protocol conformance monitor: judges every packet a simulated endpoint emits against the
 * sender's association state at that moment and the rules of RFC 9260, and throws a {@link
 * ProtocolViolation} at the first packet that breaks one. The {@link org.sctpj.sim.Simulator}
 * installs one by default, so every simulated test runs under it.
 *
 * <p>It sees both directions: packets as they leave a node ({@link #onSend}) and as a node takes
 * them in ({@link #onDeliver}; the simulator leaves out packets a test's filter dropped before the
 * endpoint saw them), and from the latter keeps its own model of what each sender can know: the
 * Initiate Tags it has received (INIT and INIT ACK), the Verification Tags of the packets that
 * reached it, and per association (keyed by the tag its DATA carries) the peer's last advertised
 * receiver window, the cumulative and gap acknowledgements, and the TSNs and SSNs it has used. It
 * parses the wire format itself, independently of the stack's decoder. Rules checked:
 *
 * <ul>
 *   <li>which chunks a state may send (sections 4, 5.1, 5.2.1, 5.2.2, 9.2): COOKIE-WAIT sends only
 *       INIT (and INIT ACK for a collision, 5.2.1, and ABORT); COOKIE-ECHOED only COOKIE ECHO,
 *       DATA bundled behind it, INIT ACK (5.2.1) and ABORT; SHUTDOWN-ACK-SENT only SHUTDOWN ACK,
 *       ABORT and ERROR; no SHUTDOWN before SHUTDOWN-SENT; no HEARTBEAT in any state but
 *       ESTABLISHED (this project's rule: a HEARTBEAT during shutdown can be answered after the
 *       association closed and draw an out-of-the-blue ABORT, section 8.4); "no new DATA after a
 *       SHUTDOWN was received" is the core's API rule (send() refuses in the shutdown states), as
 *       the messages queued before it still go out with new TSNs (section 9.2);
 *   <li>bundling (section 6.10): INIT, INIT ACK and SHUTDOWN COMPLETE alone; control chunks before
 *       DATA; COOKIE ECHO first (5.1); ABORT last, with only control chunks before it; at most one
 *       chunk per packet of the types that mean one thing once (SACK, SHUTDOWN, SHUTDOWN ACK,
 *       COOKIE ECHO, COOKIE ACK, ABORT, HEARTBEAT, FORWARD TSN); no TSN twice in one packet; no
 *       DATA without user data (3.3.1);
 *   <li>Verification Tags (8.5, 8.5.1): 0 in an INIT; an ABORT or SHUTDOWN COMPLETE with the T bit
 *       carries a tag the sender received or owns; every other packet a tag the peer announced;
 *   <li>TSNs and SSNs (6.1, 6.5): a new TSN is the highest so far plus one, a repeated TSN carries
 *       the same chunk as before; per ordered stream the SSN of each new message grows, and the
 *       fragments of one message share it; no new TSN once the sender has sent SHUTDOWN or
 *       SHUTDOWN ACK (9.2);
 *   <li>receiver window (6.1 rule A, 6.2.1): new DATA only while the bytes outstanding are below
 *       the peer's last advertised window, or when nothing is outstanding (the zero-window probe);
 *       a packet started within the window may overshoot it;
 *   <li>path verification (5.4): inside an association, a packet to a peer address the sender has
 *       not confirmed carries only a HEARTBEAT with a nonce (a Heartbeat Information of 8 bytes or
 *       more), HEARTBEAT ACKs, and a COOKIE ECHO or COOKIE ACK only bundled with such a HEARTBEAT
 *       (and an INIT ACK, which answers an INIT at its source, 5.2.2). The peer's addresses are
 *       those its INIT and INIT ACK came from and list, and those the user gave to connect;
 *       confirmed are those the user gave and the addresses the sender's INIT went to (rule 1), the one its INIT ACK went to (rule 2), the source of the
 *       INIT ACK it received (the handshake ran over it), and the destination of any HEARTBEAT
 *       whose Heartbeat Information came back to it in a HEARTBEAT ACK. The model keeps these per
 *       node and peer port across the association's incarnations (a restart keeps the addresses).
 *   <li>extensions: from both directions' INIT and INIT ACK the model learns what each end
 *       announced (Forward-TSN-Supported, RFC 3758 3.1; Supported Extensions, RFC 5061 4.2.7;
 *       Adaptation Layer Indication, RFC 5061 4.2.5); an extension is negotiated when both did.
 *       A chunk of an extension not negotiated is never sent (RFC 3758 3.3.2, RFC 8260 2.2, RFC
 *       6525 5.1.1); with I-DATA negotiated no DATA and no FORWARD TSN (RFC 8260 2.2, 2.3), and
 *       I-FORWARD-TSN only with I-DATA and PR-SCTP (2.3). FORWARD TSN and I-FORWARD-TSN go where
 *       control chunks go (before DATA, not in COOKIE-WAIT or COOKIE-ECHOED); their New Cumulative
 *       TSN covers only TSNs sent (and one assigned to the unsent rest of each message begun on the
 *       wire and abandoned, A3), never moves back, and is beyond the last Cumulative TSN Ack the
 *       sender received; each stream appears once, naming a message that was sent (RFC 3758 3.5
 *       A2, C1-C4, F1); abandoned TSNs no longer count against the peer's window (A2). I-DATA
 *       fragments of one message share stream, U flag and MID, with FSN 1, 2, ... after the
 *       first fragment (which carries the PPID, FSN 0 implied) (RFC 8260 2.1). RE-CONFIG carries
 *       one of the parameter combinations of RFC 6525 3.1; request sequence numbers start at the
 *       sender's Initial TSN and grow by one per new request, an Outgoing SSN Reset Request names
 *       the peer's newest request received (or its Initial TSN minus 1) as the one it answers
 *       (4.1); one request in flight at a
 *       time, a retransmitted request byte-identical to the first (5.1.1); new requests only in
 *       ESTABLISHED, SHUTDOWN-PENDING and SHUTDOWN-RECEIVED (this project's rule). A performed
 *       SSN/TSN reset moves both senders' TSNs to the values of its response (4.4, 5.2.4).
 * </ul>
 *
 * <p>Packets from nodes that are not protocol endpoints (test nodes that forge packets) feed the
 * model but are not judged. Not thread-safe: the simulator calls it from its one thread.
 */
public final class ConformanceMonitor {

    /** The state a node reports for a packet the endpoint built outside any association. */
    public static final String NO_ASSOCIATION = "NO_ASSOCIATION";

    static final int DATA = 0;
    static final int INIT = 1;
    static final int INIT_ACK = 2;
    static final int SACK = 3;
    static final int HEARTBEAT = 4;
    static final int HEARTBEAT_ACK = 5;
    static final int ABORT = 6;
    static final int SHUTDOWN = 7;
    static final int SHUTDOWN_ACK = 8;
    static final int ERROR = 9;
    static final int COOKIE_ECHO = 10;
    static final int COOKIE_ACK = 11;
    static final int ECNE = 12;
    static final int CWR = 13;
    static final int SHUTDOWN_COMPLETE = 14;
    static final int AUTH = 15;
    static final int NR_SACK = 16;
    static final int I_DATA = 64;
    static final int RECONFIG = 130;
    static final int FORWARD_TSN = 192;
    /** The message key of a TSN a PR-SCTP sender assigned to an abandoned message's rest and never sent. */
    static final long NEVER_SENT = -1L;

    static final int I_FORWARD_TSN = 194;
    static final int ASCONF = 0xc1;
    static final int ASCONF_ACK = 0x80;
    static final int ADD_IP_ADDRESS = 0xc001;
    /** ADD-IP (RFC 5061): ASCONF in the Supported Extensions parameter of the INIT or INIT ACK. */
    static final int EXT_ASCONF = 128;

    private static final int MAX_GAPS = 256;
    /** HEARTBEATs remembered per node and peer port, to match their acknowledgements. */
    private static final int MAX_HEARTBEATS = 1024;
    /** Addresses remembered per node and peer port (announced, confirmed). */
    private static final int MAX_ADDRESSES = 256;
    /** RE-CONFIG requests remembered per sender, to compare retransmissions with. */
    private static final int MAX_REQUESTS = 64;

    /** Extension bits: announced by both ends means negotiated. */
    static final int EXT_PR_SCTP = 1;

    static final int EXT_I_DATA = 2;
    static final int EXT_RECONFIG = 4;
    static final int EXT_ADAPTATION = 8;
    /** AUTH (RFC 4895): announced by a RANDOM and an HMAC-ALGO parameter in the INIT or INIT ACK. */
    static final int EXT_AUTH = 16;

    static final int RANDOM = 0x8002;
    static final int CHUNK_LIST = 0x8003;
    static final int HMAC_ALGO = 0x8004;

    /** ECN (RFC 9260 appendix A): announced by the ECN Capable parameter in the INIT or INIT ACK. */
    static final int EXT_ECN = 32;

    static final int ECN_CAPABLE = 0x8000;

    /** NR-SACK (draft-natarajan-tsvwg-sctp-nrsack-08): chunk type 0x10 in Supported Extensions. */
    static final int EXT_NR_SACK = 64;

    static final int FORWARD_TSN_SUPPORTED = 0xc000;
    static final int SUPPORTED_EXTENSIONS = 0x8008;
    static final int ADAPTATION_LAYER_INDICATION = 0xc006;
    static final int OUTGOING_SSN_RESET_REQUEST = 13;
    static final int INCOMING_SSN_RESET_REQUEST = 14;
    static final int SSN_TSN_RESET_REQUEST = 15;
    static final int RE_CONFIG_RESPONSE = 16;
    static final int ADD_OUTGOING_STREAMS_REQUEST = 17;
    static final int ADD_INCOMING_STREAMS_REQUEST = 18;
    static final int RESULT_PERFORMED = 1;
    static final int RESULT_IN_PROGRESS = 6;

    private static final int IPV4_ADDRESS = 5;
    private static final int IPV6_ADDRESS = 6;

    private record ConnKey(Side side, int localPort, int peerPort) {}

    private record FlowKey(Side side, int localPort, int peerPort, int peerTag) {}

    /** What one node knows about its association(s) with one peer port. */
    private static final class Conn {
        final Set<Integer> ownTags = new HashSet<>();
        final Set<Integer> peerTags = new HashSet<>();
        final Set<Integer> receivedTags = new HashSet<>();
        /** Own tag -> the peer tags paired with it in an INIT ACK (either direction). */
        final Map<Integer, Set<Integer>> pairs = new HashMap<>();
        /** The peer's addresses: sources of its INIT and INIT ACK and the addresses they list. */
        final Set<InetAddress> announced = new HashSet<>();
        /** The peer addresses this node has confirmed (RFC 9260 section 5.4). */
        final Set<InetAddress> confirmed = new HashSet<>();
        /** Own Initiate Tag -> the extensions this node announced in the INIT or INIT ACK with it. */
        final Map<Integer, Integer> ownExtensions = new HashMap<>();
        /** Own Initiate Tag -> the Initial TSN this node announced with it. */
        final Map<Integer, Integer> ownInitialTsn = new HashMap<>();
        /** The peer's Initiate Tag -> the extensions the peer announced with it. */
        final Map<Integer, Integer> peerExtensions = new HashMap<>();
        /** The peer's Initiate Tag -> the Initial TSN the peer announced with it. */
        final Map<Integer, Integer> peerInitialTsn = new HashMap<>();
        /** The peer's Initiate Tag -> the chunk types its CHUNKS parameter asks to be authenticated. */
        final Map<Integer, boolean[]> peerAuthChunks = new HashMap<>();
        /** The peer's Initiate Tag -> the HMAC Identifiers of its HMAC-ALGO parameter. */
        final Map<Integer, Set<Integer>> peerHmacs = new HashMap<>();
        /** HEARTBEAT chunk value (its Heartbeat Information) -> the address it was sent to. */
        final Map<ByteBuffer, InetAddress> heartbeatsSent = new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<ByteBuffer, InetAddress> eldest) {
                return size() > MAX_HEARTBEATS;
            }
        };

        /** This node sent an ASCONF (RFC 5061), the tag it carried, its newest serial and its bytes. */
        boolean asconfAny;

        int asconfTag;
        int asconfSerial;
        ByteBuffer asconfSent;
        /** The newest ASCONF of this node has not been answered by an ASCONF-ACK that reached it. */
        boolean asconfOutstanding;

        /** An ECNE reached this node (RFC 9260 appendix A): a CWR may answer it. */
        boolean ecneReceived;
        /** The lowest TSN of the ECNEs that reached this node. */
        int ecneLowest;
        /** This node sent an ECNE (its TSN {@link #echoTsn}) that no CWR covered yet. */
        boolean echoPending;

        int echoTsn;
        /**
         * Per Verification Tag of this node's NR-SACKs: the cumulative ack of the last one, then its
         * NR gap blocks (start, end offsets): what this node promised never to renege on.
         */
        final Map<Integer, int[]> nrPromised = new HashMap<>();

        void pair(int own, int peer) {
            pairs.computeIfAbsent(own, k -> new HashSet<>()).add(peer);
        }
    }

    /** One sender's DATA towards one peer incarnation (keyed by the tag the DATA carries). */
    private static final class Flow {
        boolean any;
        int highest;
        /** Ring of the TSNs base..highest: payload length and a signature of the chunk. */
        int base;

        int count;
        int[] lens = new int[64];
        long[] sigs = new long[64];
        /** Per TSN, its message: U flag, stream and SSN or MID ({@link #messageKey}). */
        long[] keys = new long[64];

        long ringBytes;
        long gapBytes;
        int[] gapStart = new int[0];
        int[] gapEnd = new int[0];
        long peerRwnd = -1;
        boolean sackSeen;
        boolean shutdownSent;
        final Map<Integer, Integer> lastSsn = new HashMap<>();
        /** Per stream, the highest MID of an unordered I-DATA message sent. */
        final Map<Integer, Integer> lastUnorderedMid = new HashMap<>();
        /** I-DATA messages begun and not ended: (U, stream, MID) -> the last FSN sent (0 for the B fragment). */
        final Map<Long, Integer> openMessages = new HashMap<>();
        /**
         * I-DATA messages begun, not ended, and named by an I-FORWARD-TSN whose New Cumulative TSN
         * did not reach past the highest TSN sent: the TSN taken for their unsent end (A3) is still
         * to come, in a later I-FORWARD-TSN or skipped by new I-DATA. Their MIDs are free again.
         */
        final Set<Long> abandonedOpen = new HashSet<>();
        /** Open I-DATA messages whose second fragment had FSN 0 (Linux 6.1 numbering, where allowed). */
        final Set<Long> linuxNumbered = new HashSet<>();
        /** The peer's last Cumulative TSN Ack that reached the sender (SACK or SHUTDOWN). */
        boolean peerCumKnown;

        int peerCum;
        /** The New Cumulative TSN of the sender's last FORWARD TSN or I-FORWARD-TSN. */
        boolean forwardSent;

        int forwardCum;
        /** The sender's RE-CONFIG requests by sequence number (their parameters), the newest last. */
        final LinkedHashMap<Integer, ByteBuffer> requests = new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, ByteBuffer> eldest) {
                return size() > MAX_REQUESTS;
            }
        };
        /** Request sequence numbers sent and not answered yet. */
        final Set<Integer> pendingRequests = new HashSet<>();

        boolean anyRequest;
        int lastRequest;
        /** The newest RE-CONFIG request sequence number of the peer that reached the sender. */
        boolean peerRequestSeen;

        int peerLastRequest;

        /** Whether the last SACK reported {@code tsn} in a gap ack block. */
        boolean gapAcked(int tsn) {
            for (int k = 0; k < gapStart.length; k++) {
                if (serialLe(gapStart[k], tsn) && serialLe(tsn, gapEnd[k])) {
                    return true;
                }
            }
            return false;
        }

        /** A TSN at or below the last FORWARD TSN's is abandoned: no longer outstanding (RFC 3758 3.5 A2). */
        boolean abandoned(int tsn) {
            return forwardSent && serialLe(tsn, forwardCum);
        }

        /**
         * An SSN/TSN reset took effect (RFC 6525 5.2.4): the sender's TSNs go on from {@code next},
         * nothing is outstanding, and the streams' numbering starts over.
         */
        void resetTsn(int next) {
            any = true;
            highest = next - 1;
            base = next;
            count = 0;
            ringBytes = 0;
            gapBytes = 0;
            gapStart = new int[0];
            gapEnd = new int[0];
            forwardSent = false;
            peerCumKnown = false;
            lastSsn.clear();
            lastUnorderedMid.clear();
            openMessages.clear();
            abandonedOpen.clear();
        }

        /** Messages begun whose unsent end may still take a TSN: open, or abandoned while open. */
        int unfinished() {
            return openMessages.size() + abandonedOpen.size();
        }

        int slot(int tsn) {
            return (tsn - base) & 0x7fffffff;
        }

        void push(int tsn, int len, long sig, long key) {
            if (count == lens.length) {
                int[] nl = new int[count * 2];
                long[] ns = new long[count * 2];
                long[] nk = new long[count * 2];
                System.arraycopy(lens, 0, nl, 0, count);
                System.arraycopy(sigs, 0, ns, 0, count);
                System.arraycopy(keys, 0, nk, 0, count);
                lens = nl;
                sigs = ns;
                keys = nk;
            }
            lens[count] = len;
            sigs[count] = sig;
            keys[count] = key;
            count++;
            ringBytes += len;
        }

        boolean holds(int tsn) {
            return count > 0 && serialLe(base, tsn) && serialLe(tsn, base + count - 1);
        }

        void cumAck(int cum) {
            if (count == 0 || !serialLe(base, cum)) {
                if (!any || serialLe(highest, cum)) {
                    base = cum + 1;
                }
                return;
            }
            int drop = Math.min(count, (cum - base) + 1);
            for (int i = 0; i < drop; i++) {
                ringBytes -= lens[i];
            }
            System.arraycopy(lens, drop, lens, 0, count - drop);
            System.arraycopy(sigs, drop, sigs, 0, count - drop);
            System.arraycopy(keys, drop, keys, 0, count - drop);
            count -= drop;
            base = cum + 1;
        }

        /** Bytes no longer outstanding though above the cumulative ack: gap-acked or abandoned. */
        void recomputeGaps() {
            long g = 0;
            for (int k = 0; k < gapStart.length; k++) {
                for (int t = gapStart[k]; serialLe(t, gapEnd[k]); t++) {
                    if (holds(t) && !abandoned(t)) {
                        g += lens[t - base];
                    }
                }
            }
            if (forwardSent) {
                for (int t = base; count > 0 && serialLe(t, forwardCum) && holds(t); t++) {
                    g += lens[t - base];
                }
            }
            gapBytes = g;
        }

        long outstanding() {
            return ringBytes - gapBytes;
        }
    }

    private final Map<ConnKey, Conn> conns = new HashMap<>();
    private final Map<FlowKey, Flow> flows = new HashMap<>();
    private boolean streamResetSeen;
    /** Sides allowed Linux 6.1's I-DATA fragment numbering, with the test's reason. */
    private final Map<Side, String> linuxFragmentNumbering = new java.util.EnumMap<>(Side.class);

    private long packetsChecked;
    private long packetsSeen;

    /** A monitor with an empty model. */
    public ConformanceMonitor() {}

    /**
     * Lets node {@code side} number I-DATA fragments as Linux 6.1 does: the fragment after the
     * first has FSN 0, then 1, 2, ... (RFC 8260 section 2.1 says 1, 2, 3, ...), for a test of an
     * endpoint set to that numbering to reach Linux. Every other rule stays, and the numbering must
     * still count up by one.
     *
     * @param why the test's reason, kept for {@link #linuxFragmentNumberingReason}
     * @throws IllegalArgumentException when no reason is given
     */
    public ConformanceMonitor allowLinuxFragmentNumbering(Side side, String why) {
        if (why == null || why.isBlank()) {
            throw new IllegalArgumentException("say why the node numbers I-DATA fragments as Linux 6.1 does");
        }
        linuxFragmentNumbering.put(side, why);
        return this;
    }

    /** Why {@code side} may number I-DATA fragments as Linux 6.1 does, or null when it may not. */
    public String linuxFragmentNumberingReason(Side side) {
        return linuxFragmentNumbering.get(side);
    }

    /** Packets judged so far (emitted by protocol endpoints). */
    public long packetsChecked() {
        return packetsChecked;
    }

    /** Packets seen so far, judged or only fed into the model (sent and delivered). */
    public long packetsSeen() {
        return packetsSeen;
    }

    private Conn conn(Side side, int local, int peer) {
        return conns.computeIfAbsent(new ConnKey(side, local, peer), k -> new Conn());
    }

    private Flow flow(Side side, int local, int peer, int peerTag) {
        return flows.computeIfAbsent(new FlowKey(side, local, peer, peerTag), k -> new Flow());
    }

    static boolean serialLe(int a, int b) {
        return a == b || (b - a) > 0;
    }

    static boolean serialLt(int a, int b) {
        return (b - a) > 0;
    }

    // ------------------------------------------------------------------ delivery (the model)

    /**
     * A packet reached node {@code to} (after the network's loss, corruption and duplication): it
     * updates what that node can know. Packets with a bad checksum or framing are ignored, as the
     * node drops them. The addresses are unknown: what the packet teaches about the peer's addresses
     * is not learnt (see {@link #onDeliver(Side, ByteBuffer, InetAddress, InetAddress)}).
     */
    public void onDeliver(Side to, ByteBuffer packet) {
        onDeliver(to, packet, null, null);
    }

    /**
     * A packet sent from {@code source} to {@code destination} reached node {@code to}: as {@link
     * #onDeliver(Side, ByteBuffer)}, and it also teaches the peer's addresses (an INIT's or INIT
     * ACK's source and listed addresses) and which of them the node has confirmed (the INIT ACK's
     * source, and the destination of a HEARTBEAT this HEARTBEAT ACK answers; RFC 9260 section 5.4).
     * Either address may be null when unknown.
     */
    public void onDeliver(Side to, ByteBuffer packet, InetAddress source, InetAddress destination) {
        packetsSeen++;
        ByteBuffer b = packet.duplicate();
        int start = b.position();
        int len = b.remaining();
        if (!wellFormed(b, start, len) || !checksumOk(b, start, len)) {
            return;
        }
        int srcPort = b.getShort(start) & 0xffff;
        int dstPort = b.getShort(start + 2) & 0xffff;
        int vtag = b.getInt(start + 4);
        Conn c = conn(to, dstPort, srcPort);
        c.receivedTags.add(vtag);
        for (int off = start + 12; off + 4 <= start + len; ) {
            int type = b.get(off) & 0xff;
            int clen = b.getShort(off + 2) & 0xffff;
            switch (type) {
                case INIT, INIT_ACK -> {
                    if (clen >= 20) {
                        int initTag = b.getInt(off + 4);
                        long rwnd = b.getInt(off + 8) & 0xffffffffL;
                        c.peerTags.add(initTag);
                        c.peerExtensions.put(initTag, extensionsOf(b, off, clen));
                        c.peerInitialTsn.put(initTag, b.getInt(off + 16));
                        learnAuth(c, initTag, b, off, clen);
                        if (type == INIT_ACK) {
                            c.pair(vtag, initTag);
                        }
                        Flow f = flow(to, dstPort, srcPort, initTag);
                        if (!f.sackSeen) {
                            f.peerRwnd = rwnd;
                        }
                        learnAddresses(c, b, off, clen, source, type == INIT_ACK);
                    }
                }
                case HEARTBEAT_ACK -> {
                    InetAddress probed = c.heartbeatsSent.get(chunkValue(b, off, clen));
                    if (probed != null) {
                        addBounded(c.confirmed, probed);
                    }
                }
                case SACK, NR_SACK -> {
                    if (clen >= 16) {
                        onAck(c, to, dstPort, srcPort, vtag, b, off, clen, type == NR_SACK);
                    }
                }
                case SHUTDOWN -> {
                    if (clen >= 8) {
                        int cum = b.getInt(off + 4);
                        for (int peerTag : c.pairs.getOrDefault(vtag, Set.of())) {
                            Flow f = flows.get(new FlowKey(to, dstPort, srcPort, peerTag));
                            if (f != null && f.any && serialLe(f.base - 1, cum)) {
                                f.cumAck(cum);
                                f.recomputeGaps();
                                f.peerCumKnown = true;
                                f.peerCum = cum;
                            }
                        }
                    }
                }
                case ECNE -> {
                    if (clen >= 8) {
                        int tsn = b.getInt(off + 4);
                        if (!c.ecneReceived || serialLt(tsn, c.ecneLowest)) {
                            c.ecneLowest = tsn;
                        }
                        c.ecneReceived = true;
                    }
                }
                case CWR -> {
                    if (clen >= 8 && c.echoPending && serialLe(c.echoTsn, b.getInt(off + 4))) {
                        c.echoPending = false;
                    }
                }
                case ASCONF_ACK -> {
                    if (clen >= 8 && c.asconfAny && b.getInt(off + 4) == c.asconfSerial) {
                        c.asconfOutstanding = false;
                    }
                }
                case ASCONF -> learnAddedAddresses(c, b, off, clen);
                case RECONFIG -> {
                    streamResetSeen = true;
                    for (int peerTag : c.pairs.getOrDefault(vtag, Set.of())) {
                        Flow f = flows.get(new FlowKey(to, dstPort, srcPort, peerTag));
                        if (f != null) {
                            onReconfigAnswers(f, b, off, clen);
                        }
                    }
                }
                default -> {}
            }
            off += (clen + 3) & ~3;
        }
    }

    /**
     * An ASCONF reached the node: the addresses it adds (RFC 5061 4.2.1) are the peer's from now
     * on, so the rule that only HEARTBEATs go to an unconfirmed address applies to them.
     */
    private static void learnAddedAddresses(Conn c, ByteBuffer b, int off, int clen) {
        int p = off + 8;
        if (p + 4 > off + clen) {
            return;
        }
        p += ((b.getShort(p + 2) & 0xffff) + 3) & ~3; // the Address Parameter (lookup address)
        while (p + 8 <= off + clen) {
            int ptype = b.getShort(p) & 0xffff;
            int plen = b.getShort(p + 2) & 0xffff;
            if (plen < 8 || p + plen > off + clen) {
                return;
            }
            if (ptype == ADD_IP_ADDRESS && plen >= 16) {
                int atype = b.getShort(p + 8) & 0xffff;
                int alen = atype == IPV4_ADDRESS ? 4 : atype == IPV6_ADDRESS ? 16 : 0;
                if (alen > 0 && p + 12 + alen <= off + clen) {
                    byte[] a = new byte[alen];
                    b.get(p + 12, a);
                    try {
                        addBounded(c.announced, InetAddress.getByAddress(a));
                    } catch (java.net.UnknownHostException e) {
                        throw new AssertionError(e);
                    }
                }
            }
            p += (plen + 3) & ~3;
        }
    }

    /**
     * A RE-CONFIG reached the sender of {@code f}'s requests: a Re-configuration Response answers
     * the request it names unless its result is "In progress" (RFC 6525 4.4, 5.2.7); an Outgoing
     * SSN Reset Request answers the Incoming SSN Reset Request its Response Sequence Number names
     * (4.1, 5.2.3). A performed SSN/TSN reset moves the sender's TSNs to the Receiver's Next TSN
     * (4.4, 5.2.4). The newest request of the peer is kept for the Response Sequence Number of the
     * sender's next Outgoing SSN Reset Request (4.1).
     */
    private static void onReconfigAnswers(Flow f, ByteBuffer b, int off, int clen) {
        for (int p = off + 4; p + 8 <= off + clen; ) {
            int ptype = b.getShort(p) & 0xffff;
            int plen = b.getShort(p + 2) & 0xffff;
            if (plen < 4 || p + plen > off + clen) {
                return;
            }
            if (ptype == RE_CONFIG_RESPONSE && plen >= 12) {
                int seq = b.getInt(p + 4);
                int result = b.getInt(p + 8);
                ByteBuffer request = f.requests.get(seq);
                if (result != RESULT_IN_PROGRESS) {
                    f.pendingRequests.remove(seq);
                }
                if (result == RESULT_PERFORMED
                        && plen >= 20
                        && request != null
                        && (request.getShort(0) & 0xffff) == SSN_TSN_RESET_REQUEST) {
                    f.resetTsn(b.getInt(p + 16));
                }
            } else if (ptype != RE_CONFIG_RESPONSE) {
                int seq = b.getInt(p + 4);
                if (!f.peerRequestSeen || serialLt(f.peerLastRequest, seq)) {
                    f.peerRequestSeen = true;
                    f.peerLastRequest = seq;
                }
            }
            if (ptype == OUTGOING_SSN_RESET_REQUEST && plen >= 16) {
                int answers = b.getInt(p + 8);
                ByteBuffer request = f.requests.get(answers);
                if (request != null && (request.getShort(0) & 0xffff) == INCOMING_SSN_RESET_REQUEST) {
                    f.pendingRequests.remove(answers);
                }
            }
            p += (plen + 3) & ~3;
        }
    }

    /**
     * The extensions an INIT or INIT ACK announces (a bit set of {@link #EXT_PR_SCTP} and the
     * others): PR-SCTP by the Forward-TSN-Supported parameter (RFC 3758 3.1) or FORWARD TSN in the
     * Supported Extensions parameter (RFC 5061 4.2.7), I-DATA and RE-CONFIG by their chunk types in
     * Supported Extensions (RFC 8260 2.2, RFC 6525 5.1.1), and the Adaptation Layer Indication
     * parameter (RFC 5061 4.2.5).
     */
    static int extensionsOf(ByteBuffer b, int off, int clen) {
        int ext = 0;
        boolean random = false;
        boolean hmacs = false;
        for (int p = off + 20; p + 4 <= off + clen; ) {
            int ptype = b.getShort(p) & 0xffff;
            int plen = b.getShort(p + 2) & 0xffff;
            if (plen < 4 || p + plen > off + clen) {
                break;
            }
            switch (ptype) {
                case RANDOM -> random = true;
                case HMAC_ALGO -> hmacs = true;
                case FORWARD_TSN_SUPPORTED -> ext |= EXT_PR_SCTP;
                case ADAPTATION_LAYER_INDICATION -> ext |= EXT_ADAPTATION;
                case ECN_CAPABLE -> ext |= EXT_ECN;
                case SUPPORTED_EXTENSIONS -> {
                    for (int i = p + 4; i < p + plen; i++) {
                        switch (b.get(i) & 0xff) {
                            case FORWARD_TSN -> ext |= EXT_PR_SCTP;
                            case I_DATA -> ext |= EXT_I_DATA;
                            case RECONFIG -> ext |= EXT_RECONFIG;
                            case NR_SACK -> ext |= EXT_NR_SACK;
                            case ASCONF -> ext |= EXT_ASCONF;
                            default -> {}
                        }
                    }
                }
                default -> {}
            }
            p += (plen + 3) & ~3;
        }
        return random && hmacs ? ext | EXT_AUTH : ext;
    }

    /**
     * Keeps what the peer's INIT or INIT ACK with Initiate Tag {@code initTag} asks of AUTH (RFC
     * 4895 sections 3.2, 3.3): the chunk types to authenticate (INIT, INIT ACK, SHUTDOWN COMPLETE
     * and AUTH ignored) and the HMAC Identifiers it accepts. Only the first of each parameter counts.
     */
    private static void learnAuth(Conn c, int initTag, ByteBuffer b, int off, int clen) {
        boolean[] chunks = null;
        Set<Integer> hmacs = null;
        for (int p = off + 20; p + 4 <= off + clen; ) {
            int ptype = b.getShort(p) & 0xffff;
            int plen = b.getShort(p + 2) & 0xffff;
            if (plen < 4 || p + plen > off + clen) {
                break;
            }
            if (ptype == CHUNK_LIST && chunks == null) {
                chunks = new boolean[256];
                for (int i = p + 4; i < p + plen; i++) {
                    int t = b.get(i) & 0xff;
                    chunks[t] = t != INIT && t != INIT_ACK && t != SHUTDOWN_COMPLETE && t != AUTH;
                }
            } else if (ptype == HMAC_ALGO && hmacs == null) {
                hmacs = new HashSet<>();
                for (int i = p + 4; i + 2 <= p + plen && hmacs.size() < 64; i += 2) {
                    hmacs.add(b.getShort(i) & 0xffff);
                }
            }
            p += (plen + 3) & ~3;
        }
        c.peerAuthChunks.put(initTag, chunks == null ? new boolean[256] : chunks);
        c.peerHmacs.put(initTag, hmacs == null ? Set.of() : hmacs);
    }

    /**
     * The extensions both ends of the association whose packets carry {@code peerTag} announced:
     * the peer in its INIT or INIT ACK with that tag, the sender in the one it paired with it.
     */
    private static int negotiated(Conn c, int peerTag) {
        Integer peer = c.peerExtensions.get(peerTag);
        if (peer == null) {
            return 0;
        }
        int own = 0;
        for (Map.Entry<Integer, Set<Integer>> e : c.pairs.entrySet()) {
            if (e.getValue().contains(peerTag)) {
                own |= c.ownExtensions.getOrDefault(e.getKey(), 0);
            }
        }
        return own & peer;
    }

    /**
     * An INIT or INIT ACK reached the node: its source and listed addresses are the peer's; the
     * INIT ACK's source is confirmed, the handshake ran over it (as the core and Linux take it: the
     * INIT ACK carries the Initiate Tag only the INIT's receiver knew).
     */
    private static void learnAddresses(Conn c, ByteBuffer b, int off, int clen, InetAddress source, boolean initAck) {
        if (source != null) {
            addBounded(c.announced, source);
            if (initAck) {
                addBounded(c.confirmed, source);
            }
        }
        for (int p = off + 20; p + 4 <= off + clen; ) {
            int type = b.getShort(p) & 0xffff;
            int plen = b.getShort(p + 2) & 0xffff;
            if (plen < 4 || p + plen > off + clen) {
                return;
            }
            if ((type == IPV4_ADDRESS && plen == 8) || (type == IPV6_ADDRESS && plen == 20)) {
                byte[] raw = new byte[plen - 4];
                b.get(p + 4, raw);
                try {
                    addBounded(c.announced, InetAddress.getByAddress(raw));
                } catch (java.net.UnknownHostException e) {
                    throw new AssertionError("4 or 16 bytes are an IP address", e);
                }
            }
            p += (plen + 3) & ~3;
        }
    }

    private static void addBounded(Set<InetAddress> set, InetAddress a) {
        if (set.size() < MAX_ADDRESSES) {
            set.add(a);
        }
    }

    /** A copy of a chunk's value (after its 4-byte header): compares by content. */
    static ByteBuffer chunkValue(ByteBuffer b, int off, int clen) {
        byte[] v = new byte[Math.max(0, clen - 4)];
        b.get(off + 4, v);
        return ByteBuffer.wrap(v);
    }

    private void onAck(Conn c, Side to, int local, int peer, int vtag, ByteBuffer b, int off, int clen, boolean nr) {
        int cum = b.getInt(off + 4);
        long rwnd = b.getInt(off + 8) & 0xffffffffL;
        int nGaps = b.getShort(off + 12) & 0xffff;
        if (nr && clen >= 20) {
            // NR-SACK: the NR Gap Ack Blocks follow the Gap Ack Blocks; both acknowledge (4.1).
            nGaps += b.getShort(off + 14) & 0xffff;
        }
        int first = off + (nr ? 20 : 16);
        if (first + 4L * nGaps > off + clen) {
            nGaps = Math.max(0, (off + clen - first) / 4);
        }
        nGaps = Math.min(nGaps, MAX_GAPS);
        for (int peerTag : c.pairs.getOrDefault(vtag, Set.of())) {
            Flow f = flows.get(new FlowKey(to, local, peer, peerTag));
            if (f == null) {
                continue;
            }
            if (f.sackSeen && f.any && serialLt(cum, f.base - 1)) {
                continue; // an older SACK, reordered: the sender ignores it (6.2.1)
            }
            f.sackSeen = true;
            f.peerRwnd = rwnd;
            f.peerCumKnown = true;
            f.peerCum = cum;
            f.cumAck(cum);
            f.gapStart = new int[nGaps];
            f.gapEnd = new int[nGaps];
            for (int k = 0; k < nGaps; k++) {
                f.gapStart[k] = cum + (b.getShort(first + 4 * k) & 0xffff);
                f.gapEnd[k] = cum + (b.getShort(first + 4 * k + 2) & 0xffff);
            }
            f.recomputeGaps();
        }
    }

    // ------------------------------------------------------------------ emission (the judge)

    /**
     * Node {@code from} emitted a packet at {@code nowNanos}, from {@code source} to {@code
     * destination}, while the association that built it was in {@code state} (a name of RFC 9260
     * section 4's states as the core spells them, {@link #NO_ASSOCIATION} for a packet the endpoint
     * built itself, or null for a node that is not a protocol endpoint and is not judged).
     *
     * @throws ProtocolViolation at the first rule the packet breaks
     */
    public void onSend(
            Side from, long nowNanos, ByteBuffer packet, InetAddress source, InetAddress destination, String state) {
        onSend(from, nowNanos, packet, source, destination, state, List.of());
    }

    /**
     * As {@link #onSend(Side, long, ByteBuffer, InetAddress, InetAddress, String)}, with the peer
     * addresses the user gave when it asked the sender's association to connect: RFC 9260 section
     * 5.4 (rule 1) takes them as confirmed, and packets do not carry them.
     *
     * @throws ProtocolViolation at the first rule the packet breaks
     */
    public void onSend(
            Side from,
            long nowNanos,
            ByteBuffer packet,
            InetAddress source,
            InetAddress destination,
            String state,
            List<InetAddress> userPeers) {
        packetsSeen++;
        if (!userPeers.isEmpty() && wellFormed(packet, packet.position(), packet.remaining())) {
            ByteBuffer h = packet.duplicate();
            Conn c = conn(from, h.getShort(h.position()) & 0xffff, h.getShort(h.position() + 2) & 0xffff);
            for (InetAddress u : userPeers) {
                addBounded(c.announced, u);
                addBounded(c.confirmed, u);
            }
        }
        ByteBuffer b = packet.duplicate();
        int start = b.position();
        int len = b.remaining();
        if (state == null) {
            learnFromSender(from, b, start, len, destination);
            return;
        }
        packetsChecked++;
        Judge j = new Judge(from, nowNanos, b, start, len, source, destination, state);
        j.run();
        learnFromSender(from, b, start, len, destination);
    }

    private void learnFromSender(Side from, ByteBuffer b, int start, int len, InetAddress destination) {
        if (!wellFormed(b, start, len)) {
            return;
        }
        int srcPort = b.getShort(start) & 0xffff;
        int dstPort = b.getShort(start + 2) & 0xffff;
        int vtag = b.getInt(start + 4);
        Conn c = conn(from, srcPort, dstPort);
        for (int off = start + 12; off + 4 <= start + len; ) {
            int type = b.get(off) & 0xff;
            int clen = b.getShort(off + 2) & 0xffff;
            if ((type == INIT || type == INIT_ACK) && clen >= 20) {
                int initTag = b.getInt(off + 4);
                c.ownTags.add(initTag);
                c.ownExtensions.put(initTag, extensionsOf(b, off, clen));
                c.ownInitialTsn.put(initTag, b.getInt(off + 16));
                if (type == INIT_ACK) {
                    c.pair(initTag, vtag);
                }
                // RFC 9260 section 5.4: the addresses the INIT goes to (the user's, rule 1) and the
                // one the INIT ACK goes to (rule 2) are confirmed.
                if (destination != null) {
                    addBounded(c.announced, destination);
                    addBounded(c.confirmed, destination);
                }
            } else if (type == HEARTBEAT && destination != null) {
                c.heartbeatsSent.put(chunkValue(b, off, clen), destination);
            } else if (type == SHUTDOWN || type == SHUTDOWN_ACK) {
                flow(from, srcPort, dstPort, vtag).shutdownSent = true;
            } else if (type == RECONFIG) {
                streamResetSeen = true;
            } else if (type == ECNE && clen >= 8) {
                c.echoPending = true;
                c.echoTsn = b.getInt(off + 4);
            }
            off += (clen + 3) & ~3;
        }
    }

    /** Checks one emitted packet; keeps the DATA model of its flow. */
    private final class Judge {
        final Side side;
        final long now;
        final ByteBuffer b;
        final int start;
        final int len;
        final InetAddress source;
        final InetAddress destination;
        final String state;

        Judge(
                Side side,
                long now,
                ByteBuffer b,
                int start,
                int len,
                InetAddress source,
                InetAddress destination,
                String state) {
            this.side = side;
            this.now = now;
            this.b = b;
            this.start = start;
            this.len = len;
            this.source = source;
            this.destination = destination;
            this.state = state;
        }

        void fail(String rule) {
            throw new ProtocolViolation(
                    rule,
                    "node " + side + " (" + source.getHostAddress() + " -> " + destination.getHostAddress() + ")",
                    state,
                    describe(b, start, len),
                    now);
        }

        void run() {
            if (!wellFormed(b, start, len)) {
                fail("the packet is not a well-formed SCTP packet: common header and whole chunks (RFC 9260 3, 3.2)");
            }
            if (!checksumOk(b, start, len)) {
                fail("the CRC32c checksum is wrong (RFC 9260 6.8)");
            }
            int srcPort = b.getShort(start) & 0xffff;
            int dstPort = b.getShort(start + 2) & 0xffff;
            int vtag = b.getInt(start + 4);
            Conn c = conn(side, srcPort, dstPort);
            int negotiated = negotiated(c, vtag);
            // Pass 1: chunk list, bundling and per-state rules.
            int n = 0;
            int first = -1;
            boolean dataSeen = false;
            boolean abortSeen = false;
            int authAt = -1;
            boolean ecneSeen = false;
            int[] once = new int[256];
            for (int off = start + 12; off + 4 <= start + len; ) {
                int type = b.get(off) & 0xff;
                int flags = b.get(off + 1) & 0xff;
                int clen = b.getShort(off + 2) & 0xffff;
                if (n == 0) {
                    first = type;
                }
                n++;
                if (abortSeen) {
                    fail("a chunk follows the ABORT: the ABORT ends the packet, its receiver stops there"
                            + " (RFC 9260 6.10, 8.5.1 B)");
                }
                if (type == COOKIE_ECHO && n != 1 && !(n == 2 && first == AUTH)) {
                    fail("COOKIE ECHO is not the first chunk of its packet, nor second after AUTH (RFC 9260 5.1,"
                            + " 6.10; RFC 4895 6.3)");
                }
                if (type == AUTH) {
                    authAt = n;
                    checkAuth(c, vtag, negotiated, off, clen);
                } else if (authAt < 0 && (type == ASCONF || type == ASCONF_ACK)) {
                    fail(name(type) + " not preceded by an AUTH chunk: ASCONF and ASCONF-ACK are always sent"
                            + " authenticated (RFC 5061 4.1.1)");
                } else if (authAt < 0 && (negotiated & EXT_AUTH) != 0 && peerRequires(c, vtag, type)) {
                    fail(name(type) + " not preceded by an AUTH chunk though the peer's CHUNKS parameter asks for"
                            + " it to be authenticated (RFC 4895 6.2)");
                }
                boolean isData = type == DATA || type == I_DATA;
                if (isData) {
                    dataSeen = true;
                    int header = type == DATA ? 16 : 20;
                    if (clen <= header) {
                        fail("a DATA chunk without user data (RFC 9260 3.3.1)");
                    }
                } else if (dataSeen) {
                    fail("control chunk " + name(type) + " after DATA: control chunks go first (RFC 9260 6.10)");
                }
                if (type == ABORT) {
                    abortSeen = true;
                }
                ecneSeen |= type == ECNE;
                if (onceOnly(type) && ++once[type] > 1) {
                    fail("two " + name(type) + " chunks in one packet, where one is meant (RFC 9260 6.10)");
                }
                if ((type == SACK && once[NR_SACK] > 0) || (type == NR_SACK && once[SACK] > 0)) {
                    fail("a SACK and an NR-SACK in one packet (RFC 9260 6.10)");
                }
                String why = stateForbids(state, type);
                if (why != null) {
                    fail(name(type) + " may not be sent in " + state + ": " + why);
                }
                why = extensionForbids(type, negotiated);
                if (why != null) {
                    fail(why);
                }
                checkTag(c, type, flags, vtag);
                off += (clen + 3) & ~3;
            }
            if (n == 0) {
                fail("a packet without chunks (RFC 9260 3)");
            }
            checkDestinationConfirmed(c);
            if (n > 1 && (first == INIT || first == INIT_ACK || first == SHUTDOWN_COMPLETE)) {
                fail(name(first) + " bundled with other chunks: it travels alone (RFC 9260 6.10)");
            }
            for (int t : new int[] {INIT, INIT_ACK, SHUTDOWN_COMPLETE}) {
                if (once[t] > 0 && n > 1) {
                    fail(name(t) + " bundled with other chunks: it travels alone (RFC 9260 6.10)");
                }
            }
            for (int off = start + 12; off + 4 <= start + len; ) {
                int type = b.get(off) & 0xff;
                int clen = b.getShort(off + 2) & 0xffff;
                if (type == FORWARD_TSN || type == I_FORWARD_TSN) {
                    checkForwardTsn(flow(side, srcPort, dstPort, vtag), type, off, clen);
                } else if (type == RECONFIG) {
                    checkReconfig(c, flow(side, srcPort, dstPort, vtag), vtag, off, clen);
                } else if (type == ECNE || type == CWR) {
                    checkEcn(c, type, off, clen, srcPort, dstPort, vtag);
                } else if (type == NR_SACK) {
                    checkNrSack(c, vtag, off, clen);
                } else if (type == ASCONF) {
                    checkAsconf(c, vtag, off, clen);
                }
                off += (clen + 3) & ~3;
            }
            if (c.echoPending && (once[SACK] > 0 || once[NR_SACK] > 0 || dataSeen) && !ecneSeen) {
                fail("a packet with SACK or DATA without the ECNE while the ECNE of TSN "
                        + Integer.toUnsignedString(c.echoTsn)
                        + " is not covered by a CWR: the ECNE goes in every packet until then (RFC 9260"
                        + " appendix A)");
            }
            if (dataSeen) {
                if (state.equals("COOKIE_ECHOED")
                        && first != COOKIE_ECHO
                        && !(first == AUTH && once[COOKIE_ECHO] > 0)) {
                    fail("DATA in COOKIE-ECHOED without the COOKIE ECHO first in its packet (RFC 9260 5.1)");
                }
                checkData(srcPort, dstPort, vtag);
            }
        }

        /**
         * An NR-SACK (draft-natarajan-tsvwg-sctp-nrsack-08 sections 4.1 and 5), once negotiated:
         * its Gap Ack Blocks and NR Gap Ack Blocks each lie above the Cumulative TSN Ack (offsets
         * from 1), ascending and apart; a TSN is reported renegable or non-renegable, never both;
         * and a TSN reported non-renegable stays reported so (or below the cumulative ack) in every
         * later NR-SACK of the association: its receiver promised never to renege on it.
         */
        void checkNrSack(Conn c, int vtag, int off, int clen) {
            if (clen < 20) {
                fail("NR-SACK shorter than its 20 fixed bytes (draft-natarajan-tsvwg-sctp-nrsack-08 4.1)");
            }
            int cum = b.getInt(off + 4);
            int gaps = b.getShort(off + 12) & 0xffff;
            int nrGaps = b.getShort(off + 14) & 0xffff;
            int dups = b.getShort(off + 16) & 0xffff;
            if (20 + 4 * (gaps + nrGaps + dups) != clen) {
                fail("NR-SACK whose " + gaps + " gap blocks, " + nrGaps + " NR gap blocks and " + dups
                        + " duplicate TSNs do not fill its length " + clen
                        + " (draft-natarajan-tsvwg-sctp-nrsack-08 4.1)");
            }
            int[] g = blocks(off + 20, gaps, "Gap Ack Block");
            int[] nr = blocks(off + 20 + 4 * gaps, nrGaps, "NR Gap Ack Block");
            for (int i = 0; i < g.length; i += 2) {
                for (int k = 0; k < nr.length; k += 2) {
                    if (g[i] <= nr[k + 1] && nr[k] <= g[i + 1]) {
                        fail("NR-SACK reports TSNs both renegable and non-renegable (gap block " + g[i] + "-"
                                + g[i + 1] + ", NR gap block " + nr[k] + "-" + nr[k + 1]
                                + "; draft-natarajan-tsvwg-sctp-nrsack-08 4.1)");
                    }
                }
            }
            int[] before = c.nrPromised.get(vtag);
            if (before != null) {
                int beforeCum = before[0];
                for (int i = 1; i < before.length; i += 2) {
                    for (int t = beforeCum + before[i]; serialLe(t, beforeCum + before[i + 1]); t++) {
                        if (serialLe(t, cum)) {
                            continue;
                        }
                        int o = t - cum;
                        boolean kept = false;
                        for (int k = 0; k < nr.length && !kept; k += 2) {
                            kept = nr[k] <= o && o <= nr[k + 1];
                        }
                        if (!kept) {
                            fail("NR-SACK no longer reports TSN " + Integer.toUnsignedString(t)
                                    + " non-renegable, though an earlier NR-SACK did and the cumulative ack "
                                    + Integer.toUnsignedString(cum) + " does not cover it: a non-renegable TSN is"
                                    + " never reneged (draft-natarajan-tsvwg-sctp-nrsack-08 5)");
                        }
                    }
                }
            }
            int[] keep = new int[1 + nr.length];
            keep[0] = cum;
            System.arraycopy(nr, 0, keep, 1, nr.length);
            c.nrPromised.put(vtag, keep);
        }

        /** The offsets of {@code n} gap blocks at {@code at}, as start, end pairs, checked ascending and apart. */
        private int[] blocks(int at, int n, String what) {
            int[] out = new int[2 * n];
            int prevEnd = 0;
            for (int i = 0; i < n; i++) {
                int s0 = b.getShort(at + 4 * i) & 0xffff;
                int e0 = b.getShort(at + 4 * i + 2) & 0xffff;
                if (s0 < 1 || s0 > e0 || s0 <= prevEnd) {
                    fail(
                            "NR-SACK " + what + " #" + (i + 1) + " (" + s0 + "-" + e0 + ") is not above the cumulative"
                                    + " ack and after the block before it (" + prevEnd
                                    + "): blocks are ascending and apart (RFC 9260 3.3.4; draft-natarajan-tsvwg-sctp-nrsack-08 4.1)");
                }
                out[2 * i] = s0;
                out[2 * i + 1] = e0;
                prevEnd = e0;
            }
            return out;
        }

        /**
         * An ASCONF this node sends (RFC 5061): the first carries the sender's Initial TSN as its
         * Serial Number and each new one the previous plus one (4.1.1, 5.1); a new one goes only
         * when the previous was answered (one outstanding at a time, 5.1 A2), and only in
         * ESTABLISHED, SHUTDOWN-PENDING or SHUTDOWN-RECEIVED (this project's rule, as for RE-CONFIG);
         * a retransmission repeats the first byte for byte (5.1 C5).
         */
        void checkAsconf(Conn c, int vtag, int off, int clen) {
            if (clen < 8) {
                fail("ASCONF shorter than its 8-byte header (RFC 5061 4.1.1)");
            }
            int serial = b.getInt(off + 4);
            byte[] raw = new byte[clen];
            b.get(off, raw);
            ByteBuffer chunk = ByteBuffer.wrap(raw);
            if (c.asconfAny && c.asconfTag != vtag) {
                c.asconfAny = false; // a new incarnation (restart): numbering starts over
                c.asconfOutstanding = false;
            }
            if (c.asconfAny && serial == c.asconfSerial) {
                if (!chunk.equals(c.asconfSent)) {
                    fail("ASCONF retransmits serial " + Integer.toUnsignedString(serial) + " with other contents:"
                            + " a retransmission repeats the ASCONF (RFC 5061 5.1 C5)");
                }
                return;
            }
            Integer initial = ownInitialTsn(c, vtag);
            if (c.asconfAny ? serial != c.asconfSerial + 1 : initial != null && serial != initial) {
                fail("ASCONF with serial " + Integer.toUnsignedString(serial) + ", expected "
                        + Integer.toUnsignedString(c.asconfAny ? c.asconfSerial + 1 : initial)
                        + ": the first is the sender's Initial TSN, each new one one more (RFC 5061 4.1.1, 5.1)");
            }
            if (c.asconfOutstanding) {
                fail("a new ASCONF (serial " + Integer.toUnsignedString(serial) + ") while serial "
                        + Integer.toUnsignedString(c.asconfSerial)
                        + " is unanswered: one ASCONF outstanding at a time (RFC 5061 5.1 A2)");
            }
            if (!state.equals("ESTABLISHED")
                    && !state.equals("SHUTDOWN_PENDING")
                    && !state.equals("SHUTDOWN_RECEIVED")) {
                fail("a new ASCONF in " + state + ": requests start in ESTABLISHED, SHUTDOWN-PENDING or"
                        + " SHUTDOWN-RECEIVED only (this project's rule)");
            }
            c.asconfAny = true;
            c.asconfTag = vtag;
            c.asconfSerial = serial;
            c.asconfSent = chunk;
            c.asconfOutstanding = true;
        }

        /**
         * An AUTH chunk (RFC 4895): only on an association that negotiated AUTH (section 6.2), with
         * an HMAC Identifier the peer's HMAC-ALGO listed and an HMAC of that algorithm's length
         * (sections 3.3, 4.2: 20 bytes for SHA-1, 32 for SHA-256).
         */
        void checkAuth(Conn c, int vtag, int negotiated, int off, int clen) {
            if ((negotiated & EXT_AUTH) == 0) {
                fail("AUTH on an association that did not negotiate it: both ends must send RANDOM and HMAC-ALGO"
                        + " (RFC 4895 6.1)");
            }
            if (clen < 8) {
                fail("AUTH chunk shorter than its 8-byte header (RFC 4895 4.2)");
            }
            int hmacId = b.getShort(off + 6) & 0xffff;
            if (!c.peerHmacs.getOrDefault(vtag, Set.of()).contains(hmacId)) {
                fail("AUTH with HMAC Identifier " + hmacId
                        + ", which the peer's HMAC-ALGO does not list (RFC 4895 6.1)");
            }
            int expected = hmacId == 1 ? 20 : hmacId == 3 ? 32 : -1;
            if (expected >= 0 && clen != 8 + expected) {
                fail("AUTH with an HMAC of " + (clen - 8) + " bytes for HMAC Identifier " + hmacId + " (RFC 4895 4.2: "
                        + expected + ")");
            }
        }

        /**
         * ECNE and CWR (RFC 9260 appendix A): an ECNE reports a TSN the peer sent (at most the
         * highest TSN of the peer's DATA that reached the sender); a CWR answers an ECNE the sender
         * received, with a TSN not below the lowest such ECNE's and not beyond the highest TSN the
         * sender has sent.
         */
        void checkEcn(Conn c, int type, int off, int clen, int srcPort, int dstPort, int vtag) {
            if (clen < 8) {
                fail(name(type) + " shorter than 8 bytes (RFC 9260 appendix A)");
            }
            int tsn = b.getInt(off + 4);
            if (type == ECNE) {
                for (Map.Entry<Integer, Set<Integer>> e : c.pairs.entrySet()) {
                    if (!e.getValue().contains(vtag)) {
                        continue;
                    }
                    Flow peer = flows.get(new FlowKey(side.peer(), dstPort, srcPort, e.getKey()));
                    if (peer != null && peer.any && serialLt(peer.highest, tsn)) {
                        fail("ECNE for TSN " + Integer.toUnsignedString(tsn)
                                + ", beyond the highest TSN the peer sent, " + Integer.toUnsignedString(peer.highest)
                                + " (RFC 9260 appendix A: the TSN of a CE-marked packet)");
                    }
                }
                return;
            }
            if (!c.ecneReceived) {
                fail("CWR without an ECNE received: a CWR answers an ECNE (RFC 9260 appendix A)");
            }
            if (serialLt(tsn, c.ecneLowest)) {
                fail("CWR for TSN " + Integer.toUnsignedString(tsn) + ", below every ECNE received (lowest "
                        + Integer.toUnsignedString(c.ecneLowest) + ", RFC 9260 appendix A)");
            }
            Flow own = flows.get(new FlowKey(side, srcPort, dstPort, vtag));
            if (own != null && own.any && serialLt(own.highest, tsn)) {
                fail("CWR for TSN " + Integer.toUnsignedString(tsn) + ", beyond the highest TSN the sender sent, "
                        + Integer.toUnsignedString(own.highest) + " (RFC 9260 appendix A)");
            }
        }

        /**
         * RFC 9260 section 5.4: to a peer address the sender has not confirmed, only a HEARTBEAT
         * with a nonce, a HEARTBEAT ACK, and a COOKIE ECHO or COOKIE ACK bundled with such a
         * HEARTBEAT. An INIT ACK answers an INIT at its source (section 5.2.2) and is let through.
         * Judged only inside an association and for addresses the peer announced.
         */
        void checkDestinationConfirmed(Conn c) {
            if (state.equals(NO_ASSOCIATION)
                    || state.equals("COOKIE_WAIT")
                    || c.confirmed.isEmpty()
                    || !c.announced.contains(destination)
                    || c.confirmed.contains(destination)) {
                return;
            }
            boolean probe = false;
            for (int off = start + 12; off + 4 <= start + len; ) {
                int clen = b.getShort(off + 2) & 0xffff;
                if ((b.get(off) & 0xff) == HEARTBEAT && hasNonce(off, clen)) {
                    probe = true;
                }
                off += (clen + 3) & ~3;
            }
            for (int off = start + 12; off + 4 <= start + len; ) {
                int type = b.get(off) & 0xff;
                int clen = b.getShort(off + 2) & 0xffff;
                boolean allowed =
                        switch (type) {
                            case HEARTBEAT -> hasNonce(off, clen);
                            case HEARTBEAT_ACK, INIT_ACK, AUTH, ASCONF_ACK -> true; // ASCONF-ACK: RFC 5061 5.2
                            case COOKIE_ECHO, COOKIE_ACK -> probe;
                            default -> false;
                        };
                if (!allowed) {
                    fail(name(type) + " to " + destination.getHostAddress() + ", a peer address the sender has not"
                            + " confirmed: only a HEARTBEAT with a nonce, a HEARTBEAT ACK, and a COOKIE ECHO or"
                            + " COOKIE ACK bundled with such a HEARTBEAT may go there (RFC 9260 5.4)");
                }
                off += (clen + 3) & ~3;
            }
        }

        /** A HEARTBEAT whose Heartbeat Information has room for a 64-bit nonce (RFC 9260 5.4). */
        boolean hasNonce(int off, int clen) {
            if (clen < 8) {
                return false;
            }
            int ptype = b.getShort(off + 4) & 0xffff;
            int plen = b.getShort(off + 6) & 0xffff;
            return ptype == 1 && plen >= 4 + 8 && plen <= clen - 4;
        }

        void checkTag(Conn c, int type, int flags, int vtag) {
            if (type == INIT) {
                if (vtag != 0) {
                    fail("INIT with Verification Tag 0x" + Integer.toHexString(vtag) + ", not 0 (RFC 9260 8.5.1 A)");
                }
                return;
            }
            boolean tBit = (flags & 1) != 0;
            if ((type == ABORT || type == SHUTDOWN_COMPLETE) && tBit) {
                if (!c.receivedTags.contains(vtag) && !c.ownTags.contains(vtag)) {
                    fail(name(type) + " with the T bit must reflect a tag the sender received or owns, not 0x"
                            + Integer.toHexString(vtag) + " (RFC 9260 8.5.1 B, C)");
                }
                return;
            }
            if (!c.peerTags.contains(vtag)) {
                fail(name(type) + " with Verification Tag 0x" + Integer.toHexString(vtag)
                        + ", which is no Initiate Tag the peer announced to the sender (RFC 9260 8.5)");
            }
        }

        /**
         * RFC 3758 3.5 and RFC 8260 2.3.1: the New Cumulative TSN is the Advanced.Peer.Ack.Point,
         * which covers only TSNs sent (A2, C2), never goes back (C1, C2), and is sent only when it
         * is beyond the Cumulative TSN Ack the sender last received (C3, F1); each stream is
         * reported once (C4), with a sequence number (SSN, or MID per ordered or unordered
         * numbering) of a message that was sent (C4: the abandoned message's).
         */
        void checkForwardTsn(Flow f, int type, int off, int clen) {
            String name = name(type);
            int entry = type == FORWARD_TSN ? 4 : 8;
            if (clen < 8 || (clen - 8) % entry != 0) {
                fail(name + " of " + clen + " bytes: 8 plus " + entry + " per stream entry"
                        + (type == FORWARD_TSN ? " (RFC 3758 3.2)" : " (RFC 8260 2.3.1)"));
            }
            int cum = b.getInt(off + 4);
            String cumText = "New Cumulative TSN " + Integer.toUnsignedString(cum);
            int phantoms = 0;
            List<Long> unfinished = new java.util.ArrayList<>();
            if (!f.any || serialLt(f.highest, cum)) {
                // The unsent rest of a message begun on the wire gets a TSN to be abandoned with it
                // (A3: all its TSNs go together), one per such message at most.
                for (long key : f.openMessages.keySet()) {
                    if (listsOrNeedsNoEntry(type, key, off, clen)) {
                        unfinished.add(key);
                    }
                }
                unfinished.addAll(f.abandonedOpen);
                phantoms = f.any ? cum - f.highest : Integer.MAX_VALUE;
                if (phantoms < 0 || phantoms > unfinished.size()) {
                    fail(name + " " + cumText + " beyond the highest TSN sent"
                            + (f.any ? " " + Integer.toUnsignedString(f.highest) : " (none)") + " by more than the "
                            + unfinished.size() + " message(s) begun and abandoned before their last fragment:"
                            + " only TSNs assigned can be abandoned (RFC 3758 3.5 A2, A3, C2)");
                }
            }
            if (f.forwardSent && serialLt(cum, f.forwardCum)) {
                fail(name + " " + cumText + " behind the previous one, " + Integer.toUnsignedString(f.forwardCum)
                        + ": the Advanced.Peer.Ack.Point only moves forward (RFC 3758 3.5 C1, C2)");
            }
            if (f.peerCumKnown && serialLe(cum, f.peerCum)) {
                fail(name + " " + cumText + " not beyond the Cumulative TSN Ack "
                        + Integer.toUnsignedString(f.peerCum) + " the sender received: a FORWARD TSN is sent only"
                        + " when the Advanced.Peer.Ack.Point is beyond it (RFC 3758 3.5 C1, C3, F1)");
            }
            Set<Integer> streams = new HashSet<>();
            Map<Integer, Integer> reported = new HashMap<>();
            for (int e = off + 8; e + entry <= off + clen; e += entry) {
                int sid = b.getShort(e) & 0xffff;
                boolean unordered = type == I_FORWARD_TSN && (b.getShort(e + 2) & 1) != 0;
                int seq = type == FORWARD_TSN ? b.getShort(e + 2) & 0xffff : b.getInt(e + 4);
                reported.put(unordered ? sid | 0x10000 : sid, seq);
                if (!streams.add(unordered ? sid | 0x10000 : sid)) {
                    fail(name + " reports stream " + sid + (unordered ? " (unordered)" : "") + " twice: each"
                            + " stream once, with its highest abandoned sequence number (RFC 3758 3.5 C4)");
                }
                if (streamResetSeen) {
                    continue;
                }
                Integer last = unordered ? f.lastUnorderedMid.get(sid) : f.lastSsn.get(sid);
                int seqType = type == FORWARD_TSN ? DATA : I_DATA;
                if (last == null || newer(seqType, last, seq)) {
                    fail(name + " skips " + seqName(seqType) + " " + Integer.toUnsignedString(seq) + " on stream "
                            + sid + (unordered ? " (unordered)" : "") + ", beyond the last message sent there ("
                            + (last == null ? "none" : Integer.toUnsignedString(last)) + "): it names an abandoned"
                            + " message (RFC 3758 3.5 C4, RFC 8260 2.3.1)");
                }
                if (type == I_FORWARD_TSN) {
                    // The named messages are over (their MIDs may come again after a stream reset);
                    // the end TSN of one begun and not ended may still be beyond this New
                    // Cumulative TSN, to be covered by a later one (RFC 3758 3.5 A3, C2).
                    long prefix = (unordered ? 1L << 48 : 0) | ((long) sid << 32);
                    boolean beyond = !f.any || serialLt(f.highest, cum);
                    for (java.util.Iterator<Long> it = f.openMessages.keySet().iterator(); it.hasNext(); ) {
                        long k = it.next();
                        if ((k & ~0xffffffffL) == prefix && serialLe((int) k, seq)) {
                            it.remove();
                            if (!beyond) {
                                f.abandonedOpen.add(k);
                            }
                        }
                    }
                }
            }
            if (!streamResetSeen) {
                checkAbandonedReported(f, type, cum, reported);
            }
            for (int k = 0; k < phantoms; k++) {
                // Assigned, never sent: a later chunk with that TSN is no retransmission of it.
                if (f.count == 0) {
                    f.base = f.highest + 1;
                }
                f.push(f.highest + 1, 0, 0, NEVER_SENT);
                f.highest++;
            }
            if (phantoms > 0) {
                unfinished.forEach(f.openMessages::remove);
                f.abandonedOpen.clear(); // their end TSNs were assigned before this chunk: all covered now
            }
            f.forwardSent = true;
            f.forwardCum = cum;
            f.recomputeGaps();
        }

        /**
         * Whether the forward-TSN chunk at {@code off} lists the message {@code key} (its stream
         * with its sequence number or a later one), or the message needs no entry (unordered DATA).
         */
        boolean listsOrNeedsNoEntry(int type, long key, int off, int clen) {
            boolean unordered = (key & (1L << 48)) != 0;
            if (unordered && type == FORWARD_TSN) {
                return true;
            }
            int sid = (int) (key >>> 32) & 0xffff;
            int seq = (int) key;
            int entry = type == FORWARD_TSN ? 4 : 8;
            for (int e = off + 8; e + entry <= off + clen; e += entry) {
                boolean u = type == I_FORWARD_TSN && (b.getShort(e + 2) & 1) != 0;
                int listed = type == FORWARD_TSN ? b.getShort(e + 2) & 0xffff : b.getInt(e + 4);
                if ((b.getShort(e) & 0xffff) == sid
                        && u == unordered
                        && !newer(type == FORWARD_TSN ? DATA : I_DATA, listed, seq)) {
                    return true;
                }
            }
            return false;
        }

        /**
         * RFC 3758 3.5 C4 (and RFC 8260 2.3.1 for I-FORWARD-TSN, ordered and unordered): every
         * TSN the New Cumulative TSN passes that the peer has not acknowledged is abandoned, and
         * its message's stream must be listed with that message's sequence number or a later one;
         * otherwise the receiver keeps the stream's later messages waiting for it.
         */
        void checkAbandonedReported(Flow f, int type, int cum, Map<Integer, Integer> reported) {
            int seqType = type == FORWARD_TSN ? DATA : I_DATA;
            for (int t = f.base; f.count > 0 && serialLe(t, cum) && f.holds(t); t++) {
                long key = f.keys[t - f.base];
                boolean unordered = (key & (1L << 48)) != 0;
                if (key == NEVER_SENT || (unordered && type == FORWARD_TSN) || f.gapAcked(t)) {
                    continue;
                }
                int sid = (int) (key >>> 32) & 0xffff;
                int seq = (int) key;
                Integer listed = reported.get(unordered ? sid | 0x10000 : sid);
                if (listed == null || newer(seqType, listed, seq)) {
                    fail(name(type) + " passes TSN " + Integer.toUnsignedString(t) + " (" + seqName(seqType) + " "
                            + Integer.toUnsignedString(seq) + " on stream " + sid + (unordered ? ", unordered" : "")
                            + "), unacknowledged, so abandoned, but lists "
                            + (listed == null ? "nothing" : Integer.toUnsignedString(listed)) + " for that stream:"
                            + " an abandoned message's stream and sequence number must be listed (RFC 3758 3.5 C4,"
                            + " RFC 8260 2.3.1)");
                }
            }
        }

        /**
         * RFC 6525: a RE-CONFIG holds one or two parameters in the combinations of section 3.1; a
         * new request's sequence number is the sender's Initial TSN for its first request and one
         * more than the previous request's after that (4.1); a new request goes only when no
         * earlier one is in flight (5.1.1), and only in ESTABLISHED, SHUTDOWN-PENDING or
         * SHUTDOWN-RECEIVED (this project's rule, as for HEARTBEAT: a request started later may
         * be answered after the association closed); a retransmitted request repeats its first
         * transmission byte for byte (5.1.1: the RE-CONFIG chunk is retransmitted).
         */
        void checkReconfig(Conn c, Flow f, int vtag, int off, int clen) {
            List<Integer> types = new java.util.ArrayList<>();
            for (int p = off + 4; p + 4 <= off + clen; ) {
                int plen = b.getShort(p + 2) & 0xffff;
                if (plen < 8 || p + plen > off + clen) {
                    fail("RE-CONFIG with a parameter of length " + plen + " (RFC 6525 3.1, 4)");
                }
                types.add(b.getShort(p) & 0xffff);
                p += (plen + 3) & ~3;
            }
            if (!reconfigCombination(types)) {
                fail("RE-CONFIG with parameters " + types + ": one or two, in the combinations of RFC 6525 3.1");
            }
            boolean inFlight = !f.pendingRequests.isEmpty();
            for (int p = off + 4; p + 4 <= off + clen; ) {
                int ptype = b.getShort(p) & 0xffff;
                int plen = b.getShort(p + 2) & 0xffff;
                if (ptype != RE_CONFIG_RESPONSE) {
                    int seq = b.getInt(p + 4);
                    String seqText = "request sequence number " + Integer.toUnsignedString(seq);
                    byte[] raw = new byte[plen];
                    b.get(p, raw);
                    ByteBuffer param = ByteBuffer.wrap(raw);
                    ByteBuffer first = f.requests.get(seq);
                    if (first != null) {
                        if (!first.equals(param)) {
                            fail("RE-CONFIG retransmits " + seqText + " with other contents: a retransmitted"
                                    + " request repeats the first (RFC 6525 5.1.1)");
                        }
                    } else {
                        Integer initial = ownInitialTsn(c, vtag);
                        if (f.anyRequest ? seq != f.lastRequest + 1 : initial != null && seq != initial) {
                            fail("RE-CONFIG with new " + seqText + ", expected "
                                    + Integer.toUnsignedString(f.anyRequest ? f.lastRequest + 1 : initial)
                                    + ": the first is the sender's Initial TSN, each new request one more"
                                    + " (RFC 6525 4.1)");
                        }
                        if (ptype == OUTGOING_SSN_RESET_REQUEST && plen >= 16) {
                            checkResponseSequence(c, f, vtag, b.getInt(p + 8));
                        }
                        if (inFlight) {
                            fail("RE-CONFIG with new " + seqText + " while request "
                                    + Integer.toUnsignedString(
                                            f.pendingRequests.iterator().next())
                                    + " is unanswered: one request in flight at a time (RFC 6525 5.1.1)");
                        }
                        if (!state.equals("ESTABLISHED")
                                && !state.equals("SHUTDOWN_PENDING")
                                && !state.equals("SHUTDOWN_RECEIVED")) {
                            fail("a new RE-CONFIG request in " + state + ": requests start in ESTABLISHED,"
                                    + " SHUTDOWN-PENDING or SHUTDOWN-RECEIVED only (RFC 6525 5.1.1 with RFC 9260"
                                    + " 9.2; this project's rule)");
                        }
                        f.requests.put(seq, param);
                        f.pendingRequests.add(seq);
                        f.anyRequest = true;
                        f.lastRequest = seq;
                    }
                } else if (plen >= 20 && b.getInt(p + 8) == RESULT_PERFORMED) {
                    // A performed SSN/TSN reset: the responder's TSNs go on from its Sender's Next TSN.
                    f.resetTsn(b.getInt(p + 12));
                }
                p += (plen + 3) & ~3;
            }
        }

        /**
         * RFC 6525 4.1: an Outgoing SSN Reset Request's Re-configuration Response Sequence Number
         * is the sequence number of the peer's request it answers (an Incoming SSN Reset Request),
         * else the next one the sender expects minus 1: in both cases the peer's newest request
         * that reached the sender, or the peer's Initial TSN minus 1 before any did.
         */
        void checkResponseSequence(Conn c, Flow f, int vtag, int responseSeq) {
            Integer peerInitial = c.peerInitialTsn.get(vtag);
            if (!f.peerRequestSeen && peerInitial == null) {
                return;
            }
            int expected = f.peerRequestSeen ? f.peerLastRequest : peerInitial - 1;
            if (responseSeq != expected) {
                fail("Outgoing SSN Reset Request with Re-configuration Response Sequence Number "
                        + Integer.toUnsignedString(responseSeq) + ", expected " + Integer.toUnsignedString(expected)
                        + ": the peer's request it answers, or the next expected one minus 1 (RFC 6525 4.1)");
            }
        }

        void checkData(int srcPort, int dstPort, int vtag) {
            Flow f = flow(side, srcPort, dstPort, vtag);
            // Which chunks are new, and the window check before any of them goes.
            boolean anyNew = false;
            Set<Integer> inPacket = new HashSet<>();
            int expect = f.any ? f.highest + 1 : 0;
            boolean started = f.any;
            for (int off = start + 12; off + 4 <= start + len; ) {
                int type = b.get(off) & 0xff;
                int clen = b.getShort(off + 2) & 0xffff;
                if (type == DATA || type == I_DATA) {
                    int tsn = b.getInt(off + 4);
                    if (!inPacket.add(tsn)) {
                        fail("TSN " + Integer.toUnsignedString(tsn) + " twice in one packet (RFC 9260 6.10)");
                    }
                    if (!started || tsn == expect) {
                        anyNew = true;
                        started = true;
                        expect = tsn + 1;
                    }
                }
                off += (clen + 3) & ~3;
            }
            if (anyNew) {
                if (f.shutdownSent || state.equals("SHUTDOWN_SENT") || state.equals("SHUTDOWN_ACK_SENT")) {
                    fail("new DATA after the sender sent SHUTDOWN or SHUTDOWN ACK (RFC 9260 9.2)");
                }
                long out = f.outstanding();
                if (f.peerRwnd >= 0 && out > 0 && out >= f.peerRwnd) {
                    fail("new DATA while " + out + " bytes are outstanding and the peer's last advertised window"
                            + " is " + f.peerRwnd + " (RFC 9260 6.1 A, 6.2.1)");
                }
            }
            for (int off = start + 12; off + 4 <= start + len; ) {
                int type = b.get(off) & 0xff;
                int flags = b.get(off + 1) & 0xff;
                int clen = b.getShort(off + 2) & 0xffff;
                if (type == DATA || type == I_DATA) {
                    chunk(f, type, flags, clen, off);
                }
                off += (clen + 3) & ~3;
            }
        }

        void chunk(Flow f, int type, int flags, int clen, int off) {
            int tsn = b.getInt(off + 4);
            int sid = b.getShort(off + 8) & 0xffff;
            int ssn = type == DATA ? b.getShort(off + 10) & 0xffff : b.getInt(off + 12);
            int payload = clen - (type == DATA ? 16 : 20);
            long sig = ((long) sid << 48) ^ ((long) (ssn & 0xffff) << 32) ^ ((long) (flags & 7) << 28) ^ payload;
            if (type == I_DATA) {
                // The full MID and the PPID-or-FSN word: a retransmission repeats them too.
                sig ^= (ssn * 0x9E3779B97F4A7C15L) ^ (b.getInt(off + 16) * 0xC2B2AE3D27D4EB4FL);
            }
            if (!f.any) {
                f.any = true;
                f.highest = tsn - 1;
                f.base = tsn;
                f.count = 0;
                f.ringBytes = 0;
            }
            int skipped = tsn - f.highest - 1;
            if (f.any && (type == DATA || type == I_DATA) && skipped > 0 && skipped <= f.unfinished()) {
                // The unsent rest of a message begun on the wire and abandoned took a TSN (RFC
                // 3758 3.5 A3) that a FORWARD TSN will cover; new DATA may go before that FORWARD
                // TSN when chunks before it are still outstanding (C2 stops there). As at a FORWARD
                // TSN: one such TSN per message begun and not ended, assigned and never sent.
                for (int k = 0; k < skipped; k++) {
                    if (f.count == 0) {
                        f.base = f.highest + 1;
                    }
                    f.push(f.highest + 1, 0, 0, NEVER_SENT);
                    f.highest++;
                }
            }
            if (tsn == f.highest + 1) {
                // The ends of messages abandoned while open took their TSNs before this new one:
                // skipped just now, or before.
                f.abandonedOpen.clear();
                if (!f.holds(tsn) && f.count > 0 && tsn != f.base + f.count) {
                    fail("internal: TSN ring out of step");
                }
                if (f.count == 0) {
                    f.base = tsn;
                }
                f.push(tsn, payload, sig, messageKey((flags & 4) != 0, sid, ssn));
                f.highest = tsn;
                boolean unordered = (flags & 4) != 0;
                boolean begin = (flags & 2) != 0;
                if (type == I_DATA) {
                    fragment(f, flags, sid, ssn, b.getInt(off + 16));
                } else {
                    // A DATA message begun and not ended (its rest may be abandoned unsent).
                    long key = messageKey(unordered, sid, unordered ? 0 : ssn);
                    if ((flags & 1) != 0) {
                        f.openMessages.remove(key);
                    } else if (begin) {
                        f.openMessages.put(key, 0);
                    }
                }
                if (!unordered && !streamResetSeen) {
                    Integer last = f.lastSsn.get(sid);
                    if (begin) {
                        if (last != null && !newer(type, last, ssn)) {
                            fail("ordered message on stream " + sid + " with " + seqName(type) + " "
                                    + Integer.toUnsignedString(ssn) + " after " + Integer.toUnsignedString(last)
                                    + ": it must grow (RFC 9260 6.5)");
                        }
                        f.lastSsn.put(sid, ssn);
                    } else if (last != null && last != ssn) {
                        fail("fragment of an ordered message on stream " + sid + " with " + seqName(type) + " "
                                + Integer.toUnsignedString(ssn) + ", but its message has "
                                + Integer.toUnsignedString(last) + " (RFC 9260 6.5, 6.9)");
                    }
                }
            } else if (serialLe(tsn, f.highest)) {
                if (f.holds(tsn) && f.sigs[f.slot(tsn)] != sig) {
                    fail("TSN " + Integer.toUnsignedString(tsn) + " sent again with other contents: a"
                            + " retransmission repeats its chunk (RFC 9260 6.3.3)");
                }
            } else {
                fail("new TSN " + Integer.toUnsignedString(tsn) + " after highest "
                        + Integer.toUnsignedString(f.highest) + ": TSNs grow by one (RFC 9260 6.1)");
            }
        }

        /**
         * RFC 8260 2.1: the fragments of one I-DATA message share its stream, U flag and MID; the
         * first (B) carries the PPID where the others carry the FSN, which is 0 for the first and
         * counts up by one from there; a new first fragment never reuses the MID of a message still
         * being sent. {@code word} is the chunk's PPID-or-FSN field.
         */
        void fragment(Flow f, int flags, int sid, int mid, int word) {
            boolean unordered = (flags & 4) != 0;
            boolean begin = (flags & 2) != 0;
            boolean end = (flags & 1) != 0;
            long key = (unordered ? 1L << 48 : 0) | ((long) sid << 32) | (mid & 0xffffffffL);
            String msg =
                    "MID " + Integer.toUnsignedString(mid) + " on stream " + sid + (unordered ? " (unordered)" : "");
            if (unordered) {
                Integer last = f.lastUnorderedMid.get(sid);
                if (last == null || serialLt(last, mid)) {
                    f.lastUnorderedMid.put(sid, mid);
                }
            }
            if (begin) {
                if (f.openMessages.containsKey(key)) {
                    fail("a first fragment (B) of " + msg + " while the message with that MID is still being sent:"
                            + " a message's fragments share one MID, a new message takes a new one (RFC 8260 2.1)");
                }
                if (!end) {
                    f.openMessages.put(key, 0);
                }
                return;
            }
            Integer last = f.openMessages.get(key);
            if (word == 0
                    && linuxFragmentNumbering.containsKey(side)
                    && last != null
                    && last == 0
                    && f.linuxNumbered.add(key)) {
                return; // Linux 6.1: the second fragment has FSN 0 too, the next 1 (allowed for this node)
            }
            if (word == 0) {
                fail("I-DATA fragment without the B bit with FSN 0 (" + msg + "): FSN 0 is the first fragment's,"
                        + " whose field carries the PPID instead; the second fragment has FSN 1 (RFC 8260 2.1)");
            }
            if (last == null) {
                fail("I-DATA fragment (FSN " + Integer.toUnsignedString(word) + ") of " + msg
                        + ", whose first fragment was never sent on that stream: a message's fragments share"
                        + " its stream and MID (RFC 8260 2.1)");
            }
            if (word != last + 1) {
                fail("I-DATA fragment with FSN " + Integer.toUnsignedString(word) + " after FSN " + last + " of " + msg
                        + ": FSNs count up by one from the first fragment's 0 (RFC 8260 2.1)");
            }
            if (end) {
                f.openMessages.remove(key);
                f.linuxNumbered.remove(key);
            } else {
                f.openMessages.put(key, word);
            }
        }
    }

    /** A message's key: its U flag, stream and SSN (DATA) or MID (I-DATA). */
    static long messageKey(boolean unordered, int sid, int seq) {
        return (unordered ? 1L << 48 : 0) | ((long) sid << 32) | (seq & 0xffffffffL);
    }

    private static boolean newer(int type, int last, int now) {
        if (type == DATA) {
            int d = (now - last) & 0xffff;
            return d != 0 && d < 0x8000;
        }
        return serialLt(last, now);
    }

    private static String seqName(int type) {
        return type == DATA ? "SSN" : "MID";
    }

    /** Whether the peer whose Initiate Tag is {@code peerTag} asked for {@code type} to be authenticated. */
    private static boolean peerRequires(Conn c, int peerTag, int type) {
        boolean[] chunks = c.peerAuthChunks.get(peerTag);
        return chunks != null && chunks[type];
    }

    private static boolean onceOnly(int type) {
        return switch (type) {
            case AUTH,
                    INIT,
                    INIT_ACK,
                    SACK,
                    NR_SACK,
                    HEARTBEAT,
                    ABORT,
                    SHUTDOWN,
                    SHUTDOWN_ACK,
                    COOKIE_ECHO,
                    COOKIE_ACK,
                    SHUTDOWN_COMPLETE,
                    FORWARD_TSN,
                    I_FORWARD_TSN -> true;
            default -> false;
        };
    }

    /**
     * Why a chunk of {@code type} may not be sent on an association that negotiated the
     * extensions {@code negotiated}, or null when it may: an extension's chunks only when both ends
     * announced it (RFC 3758 3.3.2, RFC 8260 2.2, RFC 6525 5.1.1); with I-DATA, never DATA (RFC
     * 8260 2.2) and never FORWARD TSN (RFC 8260 2.3); I-FORWARD-TSN needs I-DATA and PR-SCTP (RFC
     * 8260 2.3).
     */
    static String extensionForbids(int type, int negotiated) {
        boolean pr = (negotiated & EXT_PR_SCTP) != 0;
        boolean idata = (negotiated & EXT_I_DATA) != 0;
        return switch (type) {
            case DATA -> idata
                    ? "DATA on an association that negotiated I-DATA: all user data goes in I-DATA (RFC 8260 2.2)"
                    : null;
            case I_DATA -> idata ? null : "I-DATA without I-DATA negotiated by both ends (RFC 8260 2.2)";
            case FORWARD_TSN -> !pr
                    ? "FORWARD TSN without PR-SCTP negotiated by both ends (RFC 3758 3.3.1, 3.3.2)"
                    : idata
                            ? "FORWARD TSN on an association that uses I-DATA: I-FORWARD-TSN replaces it"
                                    + " (RFC 8260 2.3)"
                            : null;
            case AUTH -> (negotiated & EXT_AUTH) != 0
                    ? null
                    : "AUTH without AUTH negotiated by both ends (RFC 4895 6.1)";
            case I_FORWARD_TSN -> pr && idata
                    ? null
                    : "I-FORWARD-TSN without both I-DATA and PR-SCTP negotiated by both ends (RFC 8260 2.3)";
            case RECONFIG -> (negotiated & EXT_RECONFIG) != 0
                    ? null
                    : "RE-CONFIG without stream reconfiguration negotiated by both ends (RFC 6525 5.1.1)";
            case NR_SACK -> (negotiated & EXT_NR_SACK) != 0
                    ? null
                    : "NR-SACK without NR-SACK announced by both ends (Supported Extensions,"
                            + " draft-natarajan-tsvwg-sctp-nrsack-08 section 4.1)";
            case ASCONF, ASCONF_ACK -> (negotiated & EXT_ASCONF) != 0 && (negotiated & EXT_AUTH) != 0
                    ? null
                    : name(type) + " without ADD-IP and AUTH negotiated by both ends (RFC 5061 4.1.1, 4.2.7)";
            case ECNE, CWR -> (negotiated & EXT_ECN) != 0
                    ? null
                    : name(type) + " without ECN announced by both ends (ECN Capable parameter, RFC 9260"
                            + " appendix A)";
            default -> null;
        };
    }

    /** The parameter combinations a RE-CONFIG may carry (RFC 6525 3.1), in either order. */
    static boolean reconfigCombination(List<Integer> types) {
        if (types.size() == 1) {
            return types.get(0) >= OUTGOING_SSN_RESET_REQUEST && types.get(0) <= ADD_INCOMING_STREAMS_REQUEST;
        }
        if (types.size() != 2) {
            return false;
        }
        int a = Math.min(types.get(0), types.get(1));
        int z = Math.max(types.get(0), types.get(1));
        return (a == OUTGOING_SSN_RESET_REQUEST && z == INCOMING_SSN_RESET_REQUEST)
                || (a == ADD_OUTGOING_STREAMS_REQUEST && z == ADD_INCOMING_STREAMS_REQUEST)
                || (a == OUTGOING_SSN_RESET_REQUEST && z == RE_CONFIG_RESPONSE)
                || (a == RE_CONFIG_RESPONSE && z == RE_CONFIG_RESPONSE);
    }

    /** The Initial TSN the sender announced with the own tag paired with {@code peerTag}, if known. */
    private static Integer ownInitialTsn(Conn c, int peerTag) {
        Integer found = null;
        for (Map.Entry<Integer, Set<Integer>> e : c.pairs.entrySet()) {
            if (e.getValue().contains(peerTag) && c.ownInitialTsn.containsKey(e.getKey())) {
                if (found != null && !found.equals(c.ownInitialTsn.get(e.getKey()))) {
                    return null; // more than one incarnation: not judged
                }
                found = c.ownInitialTsn.get(e.getKey());
            }
        }
        return found;
    }

    /** Why {@code state} may not send a chunk of {@code type}, or null when it may. */
    static String stateForbids(String state, int type) {
        switch (state) {
            case NO_ASSOCIATION -> {
                return switch (type) {
                    case INIT_ACK, ABORT, SHUTDOWN_COMPLETE, ERROR -> null;
                    default -> "without an association an endpoint only answers: INIT ACK, ABORT, SHUTDOWN COMPLETE,"
                            + " ERROR (RFC 9260 5.1, 8.4)";
                };
            }
            case "COOKIE_WAIT" -> {
                return switch (type) {
                    case INIT, INIT_ACK, ABORT -> null;
                    default -> "COOKIE-WAIT sends only INIT (INIT ACK for a collision, ABORT) (RFC 9260 5.1, 5.2.1)";
                };
            }
            case "COOKIE_ECHOED" -> {
                return switch (type) {
                    case COOKIE_ECHO, DATA, I_DATA, INIT_ACK, ABORT, AUTH -> null;
                    default -> "until the COOKIE ACK arrives only the COOKIE ECHO (with DATA bundled, and AUTH"
                            + " before them, RFC 4895 6.2) is sent (RFC 9260 5.1)";
                };
            }
            case "ESTABLISHED" -> {
                return switch (type) {
                    case INIT, COOKIE_ECHO, SHUTDOWN, SHUTDOWN_ACK, SHUTDOWN_COMPLETE -> "not a chunk of ESTABLISHED"
                            + " (RFC 9260 4, 5.1, 9.2)";
                    default -> null;
                };
            }
            case "SHUTDOWN_PENDING", "SHUTDOWN_RECEIVED", "SHUTDOWN_SENT" -> {
                if (type == HEARTBEAT) {
                    return "no HEARTBEAT in a shutdown state: its answer may come after the association closed"
                            + " and draw an out-of-the-blue ABORT (RFC 9260 8.4 rule 8; this project's rule)";
                }
                if (type == SHUTDOWN && !state.equals("SHUTDOWN_SENT")) {
                    return "SHUTDOWN is sent in SHUTDOWN-SENT only (RFC 9260 9.2)";
                }
                return switch (type) {
                    case INIT, COOKIE_ECHO, SHUTDOWN_ACK, SHUTDOWN_COMPLETE -> "not a chunk of " + state
                            + " (RFC 9260 4, 9.2)";
                    default -> null;
                };
            }
            case "SHUTDOWN_ACK_SENT" -> {
                return switch (type) {
                    case SHUTDOWN_ACK, ABORT, ERROR -> null;
                    default -> "SHUTDOWN-ACK-SENT sends only SHUTDOWN ACK (ABORT, ERROR) (RFC 9260 9.2, 5.2.6)";
                };
            }
            case "CLOSED" -> {
                return switch (type) {
                    case ABORT, SHUTDOWN_COMPLETE -> null;
                    default -> "a closed association sends only its last ABORT or SHUTDOWN COMPLETE (RFC 9260 9.1, 9.2)";
                };
            }
            default -> {
                return "unknown state";
            }
        }
    }

    // ------------------------------------------------------------------ parsing and printing

    static boolean wellFormed(ByteBuffer b, int start, int len) {
        if (len < 12 + 4) {
            return false;
        }
        int off = start + 12;
        int end = start + len;
        while (off < end) {
            if (off + 4 > end) {
                return false;
            }
            int clen = b.getShort(off + 2) & 0xffff;
            if (clen < 4 || off + clen > end) {
                return false;
            }
            off += (clen + 3) & ~3;
        }
        return true;
    }

    /** The CRC32c is right, or the field is 0 as RFC 9653's zero checksum allows where agreed. */
    static boolean checksumOk(ByteBuffer b, int start, int len) {
        return b.getInt(start + Crc32c.CHECKSUM_OFFSET) == 0 || Crc32c.verify(b, start, len);
    }

    static String name(int type) {
        return switch (type) {
            case DATA -> "DATA";
            case INIT -> "INIT";
            case INIT_ACK -> "INIT ACK";
            case SACK -> "SACK";
            case HEARTBEAT -> "HEARTBEAT";
            case HEARTBEAT_ACK -> "HEARTBEAT ACK";
            case ABORT -> "ABORT";
            case SHUTDOWN -> "SHUTDOWN";
            case SHUTDOWN_ACK -> "SHUTDOWN ACK";
            case ERROR -> "ERROR";
            case COOKIE_ECHO -> "COOKIE ECHO";
            case COOKIE_ACK -> "COOKIE ACK";
            case ECNE -> "ECNE";
            case CWR -> "CWR";
            case SHUTDOWN_COMPLETE -> "SHUTDOWN COMPLETE";
            case 15 -> "AUTH";
            case NR_SACK -> "NR-SACK";
            case I_DATA -> "I-DATA";
            case 0x80 -> "ASCONF ACK";
            case 0xc1 -> "ASCONF";
            case RECONFIG -> "RE-CONFIG";
            case 0x84 -> "PAD";
            case FORWARD_TSN -> "FORWARD TSN";
            case I_FORWARD_TSN -> "I-FORWARD-TSN";
            default -> "chunk type " + type;
        };
    }

    /** The packet as text: ports, tag and the decoded chunk list. */
    public static String describe(ByteBuffer packet) {
        ByteBuffer b = packet.duplicate();
        return describe(b, b.position(), b.remaining());
    }

    static String describe(ByteBuffer b, int start, int len) {
        if (len < 12) {
            return "(" + len + " bytes: shorter than a common header)";
        }
        StringBuilder s = new StringBuilder();
        s.append(b.getShort(start) & 0xffff)
                .append(" > ")
                .append(b.getShort(start + 2) & 0xffff)
                .append(" vtag=0x")
                .append(Integer.toHexString(b.getInt(start + 4)))
                .append(" [");
        int off = start + 12;
        int end = start + len;
        boolean firstChunk = true;
        while (off + 4 <= end) {
            int type = b.get(off) & 0xff;
            int flags = b.get(off + 1) & 0xff;
            int clen = b.getShort(off + 2) & 0xffff;
            if (!firstChunk) {
                s.append(", ");
            }
            firstChunk = false;
            s.append(name(type));
            if (clen < 4 || off + clen > end) {
                s.append(" (bad length ").append(clen).append(")");
                break;
            }
            switch (type) {
                case DATA -> {
                    if (clen >= 16) {
                        s.append(" tsn=")
                                .append(Integer.toUnsignedString(b.getInt(off + 4)))
                                .append(" sid=")
                                .append(b.getShort(off + 8) & 0xffff)
                                .append(" ssn=")
                                .append(b.getShort(off + 10) & 0xffff)
                                .append(" len=")
                                .append(clen - 16)
                                .append((flags & 4) != 0 ? " U" : "")
                                .append((flags & 2) != 0 ? " B" : "")
                                .append((flags & 1) != 0 ? " E" : "");
                    }
                }
                case I_DATA -> {
                    if (clen >= 20) {
                        s.append(" tsn=")
                                .append(Integer.toUnsignedString(b.getInt(off + 4)))
                                .append(" sid=")
                                .append(b.getShort(off + 8) & 0xffff)
                                .append(" mid=")
                                .append(Integer.toUnsignedString(b.getInt(off + 12)))
                                .append((flags & 2) != 0 ? " ppid=" : " fsn=")
                                .append(Integer.toUnsignedString(b.getInt(off + 16)))
                                .append(" len=")
                                .append(clen - 20)
                                .append((flags & 4) != 0 ? " U" : "")
                                .append((flags & 2) != 0 ? " B" : "")
                                .append((flags & 1) != 0 ? " E" : "");
                    }
                }
                case FORWARD_TSN, I_FORWARD_TSN -> {
                    if (clen >= 8) {
                        s.append(" cum=").append(Integer.toUnsignedString(b.getInt(off + 4)));
                        int entry = type == FORWARD_TSN ? 4 : 8;
                        for (int e = off + 8; e + entry <= off + clen; e += entry) {
                            s.append(" ").append(b.getShort(e) & 0xffff);
                            if (type == FORWARD_TSN) {
                                s.append("/ssn=").append(b.getShort(e + 2) & 0xffff);
                            } else {
                                s.append((b.getShort(e + 2) & 1) != 0 ? "/U" : "")
                                        .append("/mid=")
                                        .append(Integer.toUnsignedString(b.getInt(e + 4)));
                            }
                        }
                    }
                }
                case RECONFIG -> {
                    for (int p = off + 4; p + 8 <= off + clen; ) {
                        int plen = b.getShort(p + 2) & 0xffff;
                        if (plen < 8 || p + plen > off + clen) {
                            break;
                        }
                        s.append(" param=")
                                .append(b.getShort(p) & 0xffff)
                                .append("/seq=")
                                .append(Integer.toUnsignedString(b.getInt(p + 4)));
                        p += (plen + 3) & ~3;
                    }
                }
                case SACK, NR_SACK -> {
                    if (clen >= 16) {
                        s.append(" cum=")
                                .append(Integer.toUnsignedString(b.getInt(off + 4)))
                                .append(" a_rwnd=")
                                .append(Integer.toUnsignedString(b.getInt(off + 8)))
                                .append(" gaps=")
                                .append(b.getShort(off + 12) & 0xffff);
                    }
                }
                case INIT, INIT_ACK -> {
                    if (clen >= 20) {
                        s.append(" tag=0x")
                                .append(Integer.toHexString(b.getInt(off + 4)))
                                .append(" a_rwnd=")
                                .append(Integer.toUnsignedString(b.getInt(off + 8)))
                                .append(" tsn=")
                                .append(Integer.toUnsignedString(b.getInt(off + 16)));
                    }
                }
                case SHUTDOWN -> {
                    if (clen >= 8) {
                        s.append(" cum=").append(Integer.toUnsignedString(b.getInt(off + 4)));
                    }
                }
                case ABORT, SHUTDOWN_COMPLETE -> s.append((flags & 1) != 0 ? " T" : "");
                default -> {}
            }
            off += (clen + 3) & ~3;
        }
        return s.append("]").toString();
    }
}
