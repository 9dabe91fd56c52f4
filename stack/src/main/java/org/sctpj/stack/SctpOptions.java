package org.sctpj.stack;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.sctpj.stack.cc.CongestionControllerFactory;

/**
 * Protocol options of an endpoint and of the associations it creates: one immutable value, with
 * the defaults of RFC 9260 section 16 ("Suggested SCTP Protocol Parameter Values") and two named
 * profiles from the source thesis (Table 6.1): {@link #WAN} (the RFC defaults) and {@link #LAN} (a
 * cluster profile for fast failover). Change fields through {@link #toBuilder()}:
 *
 * <pre>{@code
 * SctpOptions o = SctpOptions.LAN.toBuilder().noDelay(true).sendBufferBytes(8 << 20).build();
 * }</pre>
 *
 * <p>Options that cannot work together are refused with an {@link IllegalArgumentException} that
 * names them and says what to change: RTO.Min above RTO.Max, RTO.Initial outside [RTO.Min,
 * RTO.Max], a delayed SACK longer than half of RTO.Min (see {@code delayedAckTime}), buffers below
 * the smallest receiver window of RFC 9260 section 3.3.2 (1500 bytes), a maximum message size
 * above the send buffer, and a cookie secret that rotates faster than a cookie lives.
 *
 * @param rtoInitial RTO.Initial, the retransmission timeout before any RTT is measured (1 s);
 *     within [rtoMin, rtoMax], where every RTO is kept (RFC 9260 section 6.3.1, C6 and C7)
 * @param rtoMin RTO.Min (1 s)
 * @param rtoMax RTO.Max (60 s)
 * @param maxBurst Max.Burst, the most packets sent at once on one path in response to one event (4)
 * @param associationMaxRetrans Association.Max.Retrans, consecutive unacknowledged retransmissions
 *     and heartbeats, over all paths, after which the peer is unreachable (10)
 * @param pathMaxRetrans Path.Max.Retrans, consecutive timeouts after which a path is inactive (5)
 * @param maxInitRetransmits Max.Init.Retransmits, for INIT and COOKIE ECHO (8)
 * @param heartbeatInterval HB.interval, the idle time after which a destination is probed (30 s)
 * @param heartbeatEnabled whether idle destinations are probed at all (true)
 * @param validCookieLife Valid.Cookie.Life, how long a State Cookie is accepted (60 s)
 * @param cookieSecretRotation how often the cookie HMAC secret changes; a cookie signed with the
 *     previous secret is still accepted, so this must be at least {@code validCookieLife} (10 min)
 * @param delayedAckTime how long a SACK may be delayed (200 ms, RFC 9260 section 6.2); at most
 *     500 ms (section 6.2) and at most half of {@code rtoMin}: the sender's retransmission timer
 *     (section 6.3.1) can be as short as RTO.Min, and a lone packet's SACK arrives after the peer's
 *     delay plus the round trip, so the delay must leave RTO.Min room for the round trip, or every
 *     quiet exchange is retransmitted (the rule assumes a peer configured alike)
 * @param sackFrequency a SACK is sent at least for every this many packets with DATA received (2)
 * @param noDelay disables the Nagle-like bundling delay of small messages (false: Nagle on)
 * @param pathMtu the MTU assumed for new paths, in bytes of IP packet (1500)
 * @param encapsulationOverhead bytes the lower layer adds between IP and SCTP: 0 for raw IP, 8 for
 *     UDP encapsulation (RFC 6951); set by the lower layer
 * @param sendBufferBytes user data that may wait or be in flight per association (4 MiB)
 * @param receiveBufferBytes the receive window advertised to the peer (a_rwnd), and the bound on
 *     memory for reassembly and undelivered messages per association (4 MiB)
 * @param maxMessageSize the largest message {@code send} accepts (4 MiB, at most the send buffer)
 * @param outboundStreams streams requested towards the peer in INIT (OS, 16)
 * @param maxInboundStreams the most streams accepted from the peer (MIS, 65535); per-stream state is
 *     kept only for streams in use
 * @param shutdownGuardFactor the T5-shutdown-guard timer is this many times RTO.Max (RFC 9260
 *     section 9.2 suggests 5); raise it on very lossy paths so that the guard does not abort a
 *     shutdown the normal retransmissions would still complete
 * @param pfMaxRetrans PFMR of SCTP-PF (RFC 7829): a destination whose error count exceeds this (and
 *     not Path.Max.Retrans) is Potentially Failed: no new data goes there while another destination
 *     is active, and it is probed by a HEARTBEAT once per RTO (0: PF after the first timeout). A
 *     value at or above {@code pathMaxRetrans} disables SCTP-PF (plain RFC 9260 failover)
 * @param primarySwitchover RFC 7829 section 6 "Primary Path Switchover": when the primary becomes
 *     Potentially Failed (or inactive) and another destination is active, that destination becomes
 *     the primary, and stays so when the old primary recovers (false: data returns to the primary)
 * @param cmt Concurrent Multipath Transfer (Iyengar, Amer, Stewart): new data goes to every active
 *     destination, each within its own cwnd, with split fast retransmit, the pseudo-cumulative-ack
 *     cwnd update and per-destination fast recovery (false: one destination at a time)
 * @param retransmissionPolicy with {@code cmt}, where retransmissions go ({@link
 *     RetransmissionPolicy#LARGEST_SSTHRESH})
 * @param cmtDelayedAck the receiver keeps delaying SACKs when DATA arrives out of order (CMT's
 *     delayed-ack rule, for peers that stripe over several paths), and a CMT sender counts up to two
 *     miss indications per SACK on a destination when two later chunks sent there are newly
 *     acknowledged (false: RFC 9260's immediate SACK on every gap)
 * @param bufferSplitting with {@code cmt}, each destination may hold at most its share (1/n of n
 *     active destinations) of the peer's receive window in flight, so one failing path cannot take
 *     the whole window (true)
 * @param congestionControl which congestion controller each association uses, as a shorthand:
 *     one of the stack's two, or {@link CongestionControl#CUSTOM} when {@code congestionController}
 *     is one of the application's ({@link CongestionControl#RFC9260}: independent per-path windows)
 * @param congestionController the factory that makes each association's congestion controller
 *     ({@link org.sctpj.stack.cc.CongestionController}, RFC 9260 section 7.2), called once per
 *     association; consistent with {@code congestionControl} ({@link
 *     CongestionControllerFactory#RFC9260})
 * @param deferredReceiveRelease delivered messages keep counting against the receive window
 *     (a_rwnd, RFC 9260 section 6.2) until the application gives their bytes back with {@link
 *     Endpoint#releaseReceived}, so a reader slower than the network stops the sender instead of
 *     piling messages up in memory (false: the bytes are released when the message is handed over;
 *     the socket API turns it on)
 * @param partialDeliveryPoint RFC 6458 section 8.1.21 SCTP_PARTIAL_DELIVERY_POINT: once this many
 *     bytes of a message still being reassembled are in sequence from its first fragment (and the
 *     message is next to deliver on its stream), they are handed to the application as a part
 *     ({@link SctpEvent.MessagePart}) and the rest follows in parts as it arrives (RFC 9260 section
 *     6.9), so a message of any size passes through a receive buffer of any size. A message also
 *     starts to be delivered in parts below this point when its next fragment would otherwise be
 *     dropped for lack of room. 1 to {@code receiveBufferBytes}; 2 MiB, and unless set explicitly
 *     it follows a smaller receive buffer down to half of it. 0 turns partial delivery off: a message that
 *     cannot fit in the receive buffer then ends the association with an ABORT carrying an Out of
 *     Resource cause (RFC 9260 section 3.3.10.4) and COMMUNICATION_LOST, instead of a silent stall
 * @param extensions the protocol extensions we announce in INIT and INIT ACK (Supported Extensions,
 *     RFC 5061 section 4.2.7; for {@link Extension#PR_SCTP} also Forward-TSN-Supported, RFC 3758
 *     section 3.1); an association uses an extension only when the peer announced it too. By
 *     default {@link Extension#PR_SCTP} (partial reliability) and {@link Extension#RECONFIG} (stream
 *     reconfiguration, RFC 6525), as usrsctp offers them
 * @param adaptationIndication the Adaptation Code Point we send in the Adaptation Layer Indication
 *     parameter (RFC 5061 section 4.2.6; RFC 6458 section 8.1.10 SCTP_ADAPTATION_LAYER), or empty to
 *     send none; the peer's arrives as {@link SctpEvent.AdaptationIndication}
 * @param streamScheduler which stream scheduler of RFC 8260 section 3 orders the outgoing streams
 *     of each association ({@link StreamSchedulerKind#ROUND_ROBIN}); it can be changed per
 *     association at run time with {@link Endpoint#setStreamScheduler}
 * @param acceptedReconfigRequests the stream reconfiguration requests (RFC 6525) a peer may make of
 *     an association, SCTP_ENABLE_STREAM_RESET of RFC 6525 section 6.3.1: a request of another
 *     kind is answered Denied. All three kinds by default (RFC 6525's socket option starts with
 *     none, which leaves a peer's stream resets denied until the application asks); change it per
 *     association with {@link Endpoint#setAcceptedReconfigRequests}
 * @param iDataFragmentNumbering how an association using I-DATA numbers the fragments after a
 *     message's first one ({@link IDataFragmentNumbering#AUTO}: as RFC 8260 says until the peer
 *     shows the Linux 6.1 numbering)
 * @param icmpHandling act on ICMP errors the lower layer reports ({@link Endpoint#handleIcmp}) as
 *     RFC 9260 appendix C and RFC 6951 section 5.5 say (on by default): a verified Port
 *     Unreachable over UDP or Protocol Unreachable ends the setup or the association, a host or
 *     network unreachable counts against its path; off, every ICMP report is ignored
 * @param authChunks with {@link Extension#AUTH}, the chunk types we require the peer to send
 *     authenticated (RFC 4895 section 3.2, the CHUNKS parameter; RFC 6458 section 8.1.20
 *     SCTP_AUTH_CHUNK): a chunk of such a type that does not follow a valid AUTH chunk in its packet
 *     is discarded. 0..255 each; INIT, INIT ACK, SHUTDOWN COMPLETE and AUTH cannot be listed.
 *     Empty by default (the peer may authenticate nothing)
 * @param authHmacs with {@link Extension#AUTH}, the HMAC Identifiers we accept, most preferred
 *     first (RFC 4895 section 3.3, the HMAC-ALGO parameter; RFC 6458 section 8.1.21
 *     SCTP_HMAC_IDENT): 1 (HMAC-SHA-1, which must be listed) and/or 3 (HMAC-SHA-256). By default
 *     [3, 1]
 * @param pmtuDiscovery packetization-layer path MTU discovery per path (RFC 8899 with the probes of
 *     its section 6.2: a HEARTBEAT padded with a PAD chunk, RFC 4820): each path starts at the base
 *     of 1200 bytes and searches up to {@code pmtuMax}; repeated loss of full-size packets
 *     (black hole) drops it back to the base; a verified ICMP Packet Too Big below the path's MTU
 *     and not below the base lowers it. Off by default: every path then keeps {@code pathMtu}
 *     (or what {@link Endpoint#setPathMtu} sets) and Packet Too Big is only recorded. It needs a
 *     lower layer that sets DF on every packet and never fragments one locally ({@code
 *     RawIpLowerLayer.Builder.pathMtuProbing}, {@code UdpConfig.Builder.pathMtuProbing} on the
 *     native UDP path): elsewhere a probe larger than the path is fragmented and wrongly taken as
 *     passing. With it on, the search overrides {@link Endpoint#setPathMtu}
 * @param pmtuMax the largest path MTU the search tries (the MTU of the interface or of the
 *     network); 0, the default, means {@code pathMtu}
 * @param cmtRtxPseudoCumack with {@code cmt}, the cwnd update of CUCv2 (Iyengar et al.): each
 *     destination keeps two pseudo-cumulative acks, the earliest chunk in flight there sent once and
 *     the earliest one retransmitted there, and its cwnd may grow in slow start when a SACK
 *     acknowledges either. Off, one pseudo-cumulative ack covers both, so while a retransmission
 *     sent to a destination is in flight, new data acknowledged there does not open its slow start.
 *     On by default
 * @param sendBufferSplitting with {@code cmt}, each destination may hold at most its share (1/n
 *     of n active destinations) of {@code sendBufferBytes} in flight, as usrsctp's send buffer
 *     splitting does, so a slow path cannot take the whole send buffer (false)
 * @param pmtuRaiseInterval PMTU_RAISE_TIMER (RFC 8899 section 5.1.1): how long after a completed
 *     search path MTU discovery looks for a larger MTU again; 10 minutes by default (the RFC's
 *     suggestion, at least 1 second). A path whose MTU grows (a link raised to 9000) is found at
 *     the next search
 */
public record SctpOptions(
        Duration rtoInitial,
        Duration rtoMin,
        Duration rtoMax,
        int maxBurst,
        int associationMaxRetrans,
        int pathMaxRetrans,
        int maxInitRetransmits,
        Duration heartbeatInterval,
        boolean heartbeatEnabled,
        Duration validCookieLife,
        Duration cookieSecretRotation,
        Duration delayedAckTime,
        int sackFrequency,
        boolean noDelay,
        int pathMtu,
        int encapsulationOverhead,
        int sendBufferBytes,
        int receiveBufferBytes,
        int maxMessageSize,
        int outboundStreams,
        int maxInboundStreams,
        int shutdownGuardFactor,
        int pfMaxRetrans,
        boolean primarySwitchover,
        boolean cmt,
        RetransmissionPolicy retransmissionPolicy,
        boolean cmtDelayedAck,
        boolean bufferSplitting,
        CongestionControl congestionControl,
        CongestionControllerFactory congestionController,
        boolean deferredReceiveRelease,
        int partialDeliveryPoint,
        Set<Extension> extensions,
        OptionalLong adaptationIndication,
        StreamSchedulerKind streamScheduler,
        Set<ReconfigRequestKind> acceptedReconfigRequests,
        IDataFragmentNumbering iDataFragmentNumbering,
        boolean icmpHandling,
        Set<Integer> authChunks,
        List<Integer> authHmacs,
        boolean pmtuDiscovery,
        int pmtuMax,
        boolean cmtRtxPseudoCumack,
        boolean sendBufferSplitting,
        Duration pmtuRaiseInterval) {

    /** Where a CMT sender retransmits (Iyengar et al., "retransmission policies"). */
    public enum RetransmissionPolicy {
        /** To the same destination the chunk was last sent to, while it is active. */
        SAME_DESTINATION,
        /** To the active destination with the largest congestion window (RTX-CWND). */
        LARGEST_CWND,
        /** To the active destination with the largest slow-start threshold (RTX-SSTHRESH). */
        LARGEST_SSTHRESH
    }

    /**
     * The congestion controller of an association, as a shorthand for {@link
     * SctpOptions#congestionController()}.
     */
    public enum CongestionControl {
        /** RFC 9260 section 7.2 on each destination independently. */
        RFC9260,
        /**
         * RFC 9260 slow start and loss response per destination, with the coupled "linked
         * increases" of congestion avoidance of RFC 6356 (MPTCP's LIA): all destinations together
         * grow no faster than one single-path flow on the best of them, so CMT stays fair to
         * single-path flows on a shared bottleneck.
         */
        LINKED_INCREASES,
        /**
         * A controller of the application's, given with {@link Builder#congestionController}; not
         * to be passed to {@link Builder#congestionControl}.
         */
        CUSTOM;

        /** The factory of this controller; {@code null} for {@link #CUSTOM}. */
        public CongestionControllerFactory factory() {
            return switch (this) {
                case RFC9260 -> CongestionControllerFactory.RFC9260;
                case LINKED_INCREASES -> CongestionControllerFactory.LINKED_INCREASES;
                case CUSTOM -> null;
            };
        }
    }

    /** The shorthand naming {@code f}: one of the stack's controllers, else CUSTOM. */
    private static CongestionControl shorthandOf(CongestionControllerFactory f) {
        for (CongestionControl c : CongestionControl.values()) {
            if (c.factory() == f) {
                return c;
            }
        }
        return CongestionControl.CUSTOM;
    }

    /** RFC 9260 section 16 defaults, as for wide-area paths. */
    public static final SctpOptions WAN = new SctpOptions(
            Duration.ofSeconds(1),
            Duration.ofSeconds(1),
            Duration.ofSeconds(60),
            4,
            10,
            5,
            8,
            Duration.ofSeconds(30),
            true,
            Duration.ofSeconds(60),
            Duration.ofMinutes(10),
            Duration.ofMillis(200),
            2,
            false,
            1500,
            0,
            4 << 20,
            4 << 20,
            4 << 20,
            16,
            65535,
            5,
            0,
            false,
            false,
            RetransmissionPolicy.LARGEST_SSTHRESH,
            false,
            true,
            CongestionControl.RFC9260,
            CongestionControllerFactory.RFC9260,
            false,
            2 << 20,
            EnumSet.of(Extension.PR_SCTP, Extension.RECONFIG),
            OptionalLong.empty(),
            StreamSchedulerKind.ROUND_ROBIN,
            EnumSet.allOf(ReconfigRequestKind.class),
            IDataFragmentNumbering.AUTO,
            true,
            Set.of(),
            List.of(3, 1),
            false,
            0,
            true,
            false,
            Duration.ofMinutes(10));

    /** The defaults: the same as {@link #WAN}. */
    public static final SctpOptions DEFAULTS = WAN;

    /**
     * The cluster profile of the source thesis (Table 6.1): RTO.Min 20 ms, RTO.Max 100 ms,
     * HB.interval 50 ms, Path.Max.Retrans 2; RTO.Initial lowered to RTO.Max, and the delayed SACK
     * shortened to 10 ms (half of RTO.Min, see {@link #delayedAckTime()}): with the RFC's 200 ms a
     * lone packet would wait for its SACK longer than the whole RTO range and be retransmitted every
     * time. Failover within about 475 ms in the worst case (formula 6.1).
     */
    public static final SctpOptions LAN = WAN.toBuilder()
            .rtoInitial(Duration.ofMillis(100))
            .rtoMin(Duration.ofMillis(20))
            .rtoMax(Duration.ofMillis(100))
            .heartbeatInterval(Duration.ofMillis(50))
            .pathMaxRetrans(2)
            .delayedAckTime(Duration.ofMillis(10))
            .build();

    /** Validates the combination. */
    public SctpOptions {
        if (acceptedReconfigRequests == null) {
            throw new IllegalArgumentException(
                    "acceptedReconfigRequests must not be null: use an empty set to deny all");
        }
        acceptedReconfigRequests = Collections.unmodifiableSet(
                acceptedReconfigRequests.isEmpty()
                        ? EnumSet.noneOf(ReconfigRequestKind.class)
                        : EnumSet.copyOf(acceptedReconfigRequests));
        positive("rtoInitial", rtoInitial);
        positive("rtoMin", rtoMin);
        positive("rtoMax", rtoMax);
        if (rtoMin.compareTo(rtoMax) > 0) {
            throw new IllegalArgumentException("rtoMin " + rtoMin + " exceeds rtoMax " + rtoMax
                    + ": the RTO is kept within [rtoMin, rtoMax] (RFC 9260 section 6.3.1, C6 and C7);"
                    + " lower rtoMin or raise rtoMax");
        }
        if (rtoInitial.compareTo(rtoMin) < 0 || rtoInitial.compareTo(rtoMax) > 0) {
            throw new IllegalArgumentException("rtoInitial " + rtoInitial + " lies outside [rtoMin " + rtoMin
                    + ", rtoMax " + rtoMax + "]: every RTO, the first one included, is kept within that range"
                    + " (RFC 9260 section 6.3.1, C6 and C7); set rtoInitial between rtoMin and rtoMax");
        }
        atLeast("maxBurst", maxBurst, 1);
        atLeast("associationMaxRetrans", associationMaxRetrans, 0);
        atLeast("pathMaxRetrans", pathMaxRetrans, 0);
        atLeast("maxInitRetransmits", maxInitRetransmits, 0);
        positive("heartbeatInterval", heartbeatInterval);
        positive("validCookieLife", validCookieLife);
        if (cookieSecretRotation.compareTo(validCookieLife) < 0) {
            throw new IllegalArgumentException("cookieSecretRotation " + cookieSecretRotation
                    + " must be at least validCookieLife " + validCookieLife
                    + ", or valid cookies would be refused");
        }
        if (delayedAckTime == null
                || delayedAckTime.isNegative()
                || delayedAckTime.compareTo(Duration.ofMillis(500)) > 0) {
            throw new IllegalArgumentException(
                    "delayedAckTime must be 0..500 ms (RFC 9260 section 6.2), was " + delayedAckTime);
        }
        if (delayedAckTime.multipliedBy(2).compareTo(rtoMin) > 0) {
            throw new IllegalArgumentException("delayedAckTime " + delayedAckTime + " exceeds half of rtoMin " + rtoMin
                    + ": a peer with these options holds the SACK of a lone packet for up to delayedAckTime"
                    + " (RFC 9260 section 6.2), and the retransmission timer may expire after rtoMin"
                    + " (section 6.3.1), so every quiet exchange would be retransmitted; lower delayedAckTime"
                    + " to at most rtoMin / 2 (or 0) or raise rtoMin");
        }
        atLeast("sackFrequency", sackFrequency, 1);
        if (pathMtu < 576 || pathMtu > 65535) {
            throw new IllegalArgumentException("pathMtu must be 576..65535, was " + pathMtu);
        }
        if (pmtuMax != 0 && (pmtuMax < 1200 || pmtuMax > 65535)) {
            throw new IllegalArgumentException("pmtuMax must be 0 (pathMtu) or 1200..65535, was " + pmtuMax
                    + ": path MTU discovery never goes below its base of 1200 bytes (RFC 8899 section 5.1.2)");
        }
        if (pmtuRaiseInterval == null || pmtuRaiseInterval.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("pmtuRaiseInterval must be at least 1 s (RFC 8899 section 5.1.1"
                    + " suggests 600 s), was " + pmtuRaiseInterval);
        }
        if (encapsulationOverhead < 0 || encapsulationOverhead > 64) {
            throw new IllegalArgumentException("encapsulationOverhead must be 0..64, was " + encapsulationOverhead);
        }
        atLeast("sendBufferBytes", sendBufferBytes, 1500);
        atLeast("receiveBufferBytes", receiveBufferBytes, 1500);
        atLeast("maxMessageSize", maxMessageSize, 1);
        if (maxMessageSize > sendBufferBytes) {
            throw new IllegalArgumentException("maxMessageSize " + maxMessageSize + " exceeds sendBufferBytes "
                    + sendBufferBytes + ": raise the send buffer or lower the message size");
        }
        if (outboundStreams < 1 || outboundStreams > 65535) {
            throw new IllegalArgumentException("outboundStreams must be 1..65535, was " + outboundStreams);
        }
        atLeast("shutdownGuardFactor", shutdownGuardFactor, 1);
        if (maxInboundStreams < 1 || maxInboundStreams > 65535) {
            throw new IllegalArgumentException("maxInboundStreams must be 1..65535, was " + maxInboundStreams);
        }
        atLeast("pfMaxRetrans", pfMaxRetrans, 0);
        if (retransmissionPolicy == null) {
            throw new IllegalArgumentException("retransmissionPolicy must be set (e.g. LARGEST_SSTHRESH)");
        }
        if (congestionControl == null) {
            throw new IllegalArgumentException("congestionControl must be set (e.g. RFC9260)");
        }
        if (congestionController == null) {
            throw new IllegalArgumentException("congestionController must be set: pass a CongestionControllerFactory,"
                    + " or call congestionControl(RFC9260) for the standard controller");
        }
        if (congestionControl == CongestionControl.CUSTOM
                && shorthandOf(congestionController) != CongestionControl.CUSTOM) {
            throw new IllegalArgumentException("congestionControl CUSTOM names a controller of the application's: call"
                    + " congestionController(factory) with yours instead, or congestionControl(RFC9260 or"
                    + " LINKED_INCREASES) for the stack's own");
        }
        if (congestionControl != CongestionControl.CUSTOM && congestionController != congestionControl.factory()) {
            throw new IllegalArgumentException("congestionControl " + congestionControl + " and congestionController "
                    + congestionController + " disagree: set only one of them (the builder keeps them in step)");
        }
        if (partialDeliveryPoint < 0 || partialDeliveryPoint > receiveBufferBytes) {
            throw new IllegalArgumentException("partialDeliveryPoint must be 0 (off) to receiveBufferBytes "
                    + receiveBufferBytes + ", was " + partialDeliveryPoint
                    + ": a message must start to be handed over before it fills the receive buffer");
        }
        if (iDataFragmentNumbering == null) {
            throw new IllegalArgumentException("iDataFragmentNumbering must be set (e.g. AUTO, the default)");
        }
        if (streamScheduler == null) {
            throw new IllegalArgumentException("streamScheduler must be set (e.g. ROUND_ROBIN, the default)");
        }
        if (extensions == null) {
            throw new IllegalArgumentException("extensions must be a set (empty to offer none)");
        }
        // An unmodifiable EnumSet: iteration in declaration order, so INIT parameters are stable.
        extensions =
                extensions.isEmpty() ? Set.of() : java.util.Collections.unmodifiableSet(EnumSet.copyOf(extensions));
        if (authChunks == null) {
            throw new IllegalArgumentException("authChunks must be a set of chunk types (empty for none)");
        }
        for (int c : authChunks) {
            if (c < 0 || c > 255) {
                throw new IllegalArgumentException("authChunks: a chunk type is 0..255, was " + c);
            }
            if (c == 0x01 || c == 0x02 || c == 0x0E || c == 0x0F) {
                throw new IllegalArgumentException("authChunks: INIT, INIT ACK, SHUTDOWN COMPLETE and AUTH cannot be"
                        + " authenticated (RFC 4895 section 3.2), was " + c);
            }
        }
        authChunks = java.util.Collections.unmodifiableSet(new java.util.TreeSet<>(authChunks));
        if (extensions.contains(Extension.ASCONF) && !extensions.contains(Extension.AUTH)) {
            throw new IllegalArgumentException("Extension.ASCONF needs Extension.AUTH: RFC 5061 section 4.1.1"
                    + " requires ASCONF and ASCONF-ACK to be authenticated; enable both");
        }
        if (authHmacs == null || !authHmacs.contains(1)) {
            throw new IllegalArgumentException("authHmacs must list HMAC-SHA-1 (1), which RFC 4895 section 3.3"
                    + " makes mandatory, was " + authHmacs);
        }
        for (int h : authHmacs) {
            if (h != 1 && h != 3) {
                throw new IllegalArgumentException(
                        "authHmacs: 1 (HMAC-SHA-1) and 3 (HMAC-SHA-256) are supported, was " + h);
            }
        }
        authHmacs = List.copyOf(new java.util.LinkedHashSet<>(authHmacs));
        if (adaptationIndication == null) {
            throw new IllegalArgumentException("adaptationIndication must be OptionalLong.empty() to send none");
        }
        if (adaptationIndication.isPresent()
                && (adaptationIndication.getAsLong() < 0 || adaptationIndication.getAsLong() > 0xffffffffL)) {
            throw new IllegalArgumentException("adaptationIndication must be 0..4294967295 (32 bits, RFC 5061"
                    + " section 4.2.6), was " + adaptationIndication.getAsLong());
        }
    }

    /** The largest path MTU discovery tries: {@link #pmtuMax()}, or {@link #pathMtu()} when 0. */
    public int pmtuSearchMax() {
        return pmtuMax == 0 ? pathMtu : pmtuMax;
    }

    /** Whether we offer {@code e} (see {@link #extensions()}). */
    public boolean offers(Extension e) {
        return extensions.contains(e);
    }

    /**
     * Whether SCTP-PF is on: {@link #pfMaxRetrans()} below {@link #pathMaxRetrans()} (RFC 7829
     * section 5.1: a PFMR at or above Path.Max.Retrans turns the PF state off).
     */
    public boolean potentiallyFailedEnabled() {
        return pfMaxRetrans < pathMaxRetrans;
    }

    private static void positive(String name, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be a positive duration, was " + d);
        }
    }

    private static void atLeast(String name, int v, int min) {
        if (v < min) {
            throw new IllegalArgumentException(name + " must be at least " + min + ", was " + v);
        }
    }

    /** A builder starting from these values. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Mutable builder of {@link SctpOptions}; {@link #build()} validates. */
    public static final class Builder {
        private Duration rtoInitial;
        private Duration rtoMin;
        private Duration rtoMax;
        private int maxBurst;
        private int associationMaxRetrans;
        private int pathMaxRetrans;
        private int maxInitRetransmits;
        private Duration heartbeatInterval;
        private boolean heartbeatEnabled;
        private Duration validCookieLife;
        private Duration cookieSecretRotation;
        private Duration delayedAckTime;
        private int sackFrequency;
        private boolean noDelay;
        private int pathMtu;
        private int encapsulationOverhead;
        private int sendBufferBytes;
        private int receiveBufferBytes;
        private int maxMessageSize;
        private int outboundStreams;
        private int maxInboundStreams;
        private int shutdownGuardFactor;
        private int pfMaxRetrans;
        private boolean primarySwitchover;
        private boolean cmt;
        private RetransmissionPolicy retransmissionPolicy;
        private boolean cmtDelayedAck;
        private boolean deferredReceiveRelease;
        private boolean bufferSplitting;
        private CongestionControl congestionControl;
        private CongestionControllerFactory congestionController;
        private int partialDeliveryPoint;
        private Set<Extension> extensions;
        private OptionalLong adaptationIndication;
        private StreamSchedulerKind streamScheduler;
        private Set<ReconfigRequestKind> acceptedReconfigRequests;
        private IDataFragmentNumbering iDataFragmentNumbering;
        private boolean icmpHandling;
        private Set<Integer> authChunks;
        private List<Integer> authHmacs;
        private boolean pmtuDiscovery;
        private int pmtuMax;
        private boolean cmtRtxPseudoCumack;
        private boolean sendBufferSplitting;
        private Duration pmtuRaiseInterval;

        private boolean maxMessageSizeSet;
        private boolean partialDeliveryPointSet;

        private Builder(SctpOptions o) {
            rtoInitial = o.rtoInitial;
            rtoMin = o.rtoMin;
            rtoMax = o.rtoMax;
            maxBurst = o.maxBurst;
            associationMaxRetrans = o.associationMaxRetrans;
            pathMaxRetrans = o.pathMaxRetrans;
            maxInitRetransmits = o.maxInitRetransmits;
            heartbeatInterval = o.heartbeatInterval;
            heartbeatEnabled = o.heartbeatEnabled;
            validCookieLife = o.validCookieLife;
            cookieSecretRotation = o.cookieSecretRotation;
            delayedAckTime = o.delayedAckTime;
            sackFrequency = o.sackFrequency;
            noDelay = o.noDelay;
            pathMtu = o.pathMtu;
            encapsulationOverhead = o.encapsulationOverhead;
            sendBufferBytes = o.sendBufferBytes;
            receiveBufferBytes = o.receiveBufferBytes;
            maxMessageSize = o.maxMessageSize;
            outboundStreams = o.outboundStreams;
            maxInboundStreams = o.maxInboundStreams;
            shutdownGuardFactor = o.shutdownGuardFactor;
            pfMaxRetrans = o.pfMaxRetrans;
            primarySwitchover = o.primarySwitchover;
            cmt = o.cmt;
            retransmissionPolicy = o.retransmissionPolicy;
            cmtDelayedAck = o.cmtDelayedAck;
            deferredReceiveRelease = o.deferredReceiveRelease;
            bufferSplitting = o.bufferSplitting;
            congestionControl = o.congestionControl;
            congestionController = o.congestionController;
            partialDeliveryPoint = o.partialDeliveryPoint;
            extensions = o.extensions;
            adaptationIndication = o.adaptationIndication;
            streamScheduler = o.streamScheduler;
            acceptedReconfigRequests = o.acceptedReconfigRequests;
            iDataFragmentNumbering = o.iDataFragmentNumbering;
            icmpHandling = o.icmpHandling;
            authChunks = o.authChunks;
            authHmacs = o.authHmacs;
            pmtuDiscovery = o.pmtuDiscovery;
            pmtuMax = o.pmtuMax;
            cmtRtxPseudoCumack = o.cmtRtxPseudoCumack;
            sendBufferSplitting = o.sendBufferSplitting;
            pmtuRaiseInterval = o.pmtuRaiseInterval;
        }

        /** Sets {@link SctpOptions#acceptedReconfigRequests()} (an empty set: every request is denied). */
        public Builder acceptedReconfigRequests(Set<ReconfigRequestKind> v) {
            acceptedReconfigRequests = v;
            return this;
        }

        /** Sets {@link SctpOptions#rtoInitial()}. */
        public Builder rtoInitial(Duration v) {
            rtoInitial = v;
            return this;
        }

        /** Sets {@link SctpOptions#rtoMin()}. */
        public Builder rtoMin(Duration v) {
            rtoMin = v;
            return this;
        }

        /** Sets {@link SctpOptions#rtoMax()}. */
        public Builder rtoMax(Duration v) {
            rtoMax = v;
            return this;
        }

        /** Sets {@link SctpOptions#maxBurst()}. */
        public Builder maxBurst(int v) {
            maxBurst = v;
            return this;
        }

        /** Sets {@link SctpOptions#associationMaxRetrans()}. */
        public Builder associationMaxRetrans(int v) {
            associationMaxRetrans = v;
            return this;
        }

        /** Sets {@link SctpOptions#pathMaxRetrans()}. */
        public Builder pathMaxRetrans(int v) {
            pathMaxRetrans = v;
            return this;
        }

        /** Sets {@link SctpOptions#maxInitRetransmits()}. */
        public Builder maxInitRetransmits(int v) {
            maxInitRetransmits = v;
            return this;
        }

        /** Sets {@link SctpOptions#heartbeatInterval()}. */
        public Builder heartbeatInterval(Duration v) {
            heartbeatInterval = v;
            return this;
        }

        /** Sets {@link SctpOptions#heartbeatEnabled()}. */
        public Builder heartbeatEnabled(boolean v) {
            heartbeatEnabled = v;
            return this;
        }

        /** Sets {@link SctpOptions#validCookieLife()}. */
        public Builder validCookieLife(Duration v) {
            validCookieLife = v;
            return this;
        }

        /** Sets {@link SctpOptions#cookieSecretRotation()}. */
        public Builder cookieSecretRotation(Duration v) {
            cookieSecretRotation = v;
            return this;
        }

        /** Sets {@link SctpOptions#delayedAckTime()}. */
        public Builder delayedAckTime(Duration v) {
            delayedAckTime = v;
            return this;
        }

        /** Sets {@link SctpOptions#sackFrequency()}. */
        public Builder sackFrequency(int v) {
            sackFrequency = v;
            return this;
        }

        /** Sets {@link SctpOptions#noDelay()}. */
        public Builder noDelay(boolean v) {
            noDelay = v;
            return this;
        }

        /** Sets {@link SctpOptions#pathMtu()}. */
        public Builder pathMtu(int v) {
            pathMtu = v;
            return this;
        }

        /** Sets {@link SctpOptions#encapsulationOverhead()}. */
        public Builder encapsulationOverhead(int v) {
            encapsulationOverhead = v;
            return this;
        }

        /** Sets {@link SctpOptions#sendBufferBytes()}. */
        public Builder sendBufferBytes(int v) {
            sendBufferBytes = v;
            return this;
        }

        /** Sets {@link SctpOptions#receiveBufferBytes()}. */
        public Builder receiveBufferBytes(int v) {
            receiveBufferBytes = v;
            return this;
        }

        /** Sets {@link SctpOptions#maxMessageSize()}. */
        public Builder maxMessageSize(int v) {
            maxMessageSize = v;
            maxMessageSizeSet = true;
            return this;
        }

        /** Sets {@link SctpOptions#outboundStreams()}. */
        public Builder outboundStreams(int v) {
            outboundStreams = v;
            return this;
        }

        /** Sets {@link SctpOptions#maxInboundStreams()}. */
        public Builder maxInboundStreams(int v) {
            maxInboundStreams = v;
            return this;
        }

        /** Sets {@link SctpOptions#shutdownGuardFactor()}. */
        public Builder shutdownGuardFactor(int v) {
            shutdownGuardFactor = v;
            return this;
        }

        /** Sets {@link SctpOptions#pfMaxRetrans()}. */
        public Builder pfMaxRetrans(int v) {
            pfMaxRetrans = v;
            return this;
        }

        /** Sets {@link SctpOptions#primarySwitchover()}. */
        public Builder primarySwitchover(boolean v) {
            primarySwitchover = v;
            return this;
        }

        /** Sets {@link SctpOptions#cmt()}. */
        public Builder cmt(boolean v) {
            cmt = v;
            return this;
        }

        /** Sets {@link SctpOptions#retransmissionPolicy()}. */
        public Builder retransmissionPolicy(RetransmissionPolicy v) {
            retransmissionPolicy = v;
            return this;
        }

        /** Sets {@link SctpOptions#cmtDelayedAck()}. */
        public Builder cmtDelayedAck(boolean v) {
            cmtDelayedAck = v;
            return this;
        }

        /** Sets {@link SctpOptions#deferredReceiveRelease()}. */
        public Builder deferredReceiveRelease(boolean v) {
            deferredReceiveRelease = v;
            return this;
        }

        /**
         * Sets {@link SctpOptions#partialDeliveryPoint()} (RFC 6458 SCTP_PARTIAL_DELIVERY_POINT): 1
         * to the receive buffer, or 0 to turn partial delivery off.
         */
        public Builder partialDeliveryPoint(int v) {
            partialDeliveryPoint = v;
            partialDeliveryPointSet = true;
            return this;
        }

        /**
         * Sets {@link SctpOptions#streamScheduler()}: the stream scheduler (RFC 8260 section 3)
         * each association starts with.
         */
        public Builder streamScheduler(StreamSchedulerKind v) {
            streamScheduler = v;
            return this;
        }

        /**
         * Sets {@link SctpOptions#iDataFragmentNumbering()}: how an association using I-DATA
         * numbers the fragments after a message's first one (see {@link IDataFragmentNumbering}).
         */
        public Builder iDataFragmentNumbering(IDataFragmentNumbering v) {
            iDataFragmentNumbering = v;
            return this;
        }

        /** Sets {@link SctpOptions#bufferSplitting()}. */
        public Builder bufferSplitting(boolean v) {
            bufferSplitting = v;
            return this;
        }

        /**
         * Sets {@link SctpOptions#congestionControl()} and with it {@link
         * SctpOptions#congestionController()} to the stack's controller of that name ({@link
         * CongestionControl#CUSTOM} is rejected by {@link #build()}: use {@link
         * #congestionController} for an own controller).
         */
        public Builder congestionControl(CongestionControl v) {
            congestionControl = v;
            if (v != null && v != CongestionControl.CUSTOM) {
                congestionController = v.factory();
            }
            return this;
        }

        /**
         * Sets the factory of each association's congestion controller ({@link
         * SctpOptions#congestionController()}), for instance one of the application's; {@link
         * SctpOptions#congestionControl()} follows ({@link CongestionControl#CUSTOM} unless it is
         * one of the stack's factories). A null factory is rejected by {@link #build()}.
         */
        public Builder congestionController(CongestionControllerFactory factory) {
            congestionController = factory;
            congestionControl = factory == null ? congestionControl : shorthandOf(factory);
            return this;
        }

        /** Sets {@link SctpOptions#extensions()}: the extensions we offer. */
        public Builder extensions(Set<Extension> v) {
            extensions = v == null ? null : (v.isEmpty() ? Set.of() : EnumSet.copyOf(v));
            return this;
        }

        /** Adds {@code e} to the extensions we offer ({@link SctpOptions#extensions()}). */
        public Builder enable(Extension e) {
            return offer(e, true);
        }

        /** Removes {@code e} from the extensions we offer ({@link SctpOptions#extensions()}). */
        public Builder disable(Extension e) {
            return offer(e, false);
        }

        private Builder offer(Extension e, boolean on) {
            EnumSet<Extension> s = EnumSet.noneOf(Extension.class);
            s.addAll(extensions);
            if (on) {
                s.add(e);
            } else {
                s.remove(e);
            }
            extensions = s;
            return this;
        }

        /**
         * Sets {@link SctpOptions#adaptationIndication()}: the 32-bit Adaptation Code Point we send
         * (RFC 5061 section 4.2.6), 0 to 4294967295.
         */
        public Builder adaptationIndication(long v) {
            adaptationIndication = OptionalLong.of(v);
            return this;
        }

        /**
         * Sets {@link SctpOptions#icmpHandling()}: whether ICMP errors the lower layer reports are
         * acted on (RFC 9260 appendix C; true by default) or ignored.
         */
        public Builder icmpHandling(boolean on) {
            icmpHandling = on;
            return this;
        }

        /**
         * Sets {@link SctpOptions#authChunks()}: the chunk types we require the peer to send
         * authenticated when AUTH is used (RFC 4895 section 3.2).
         */
        public Builder authChunks(Set<Integer> v) {
            authChunks = v;
            return this;
        }

        /**
         * Sets {@link SctpOptions#authHmacs()}: the HMAC Identifiers we accept, most preferred
         * first (must include 1, HMAC-SHA-1).
         */
        public Builder authHmacs(List<Integer> v) {
            authHmacs = v;
            return this;
        }

        /** Sets {@link SctpOptions#pmtuDiscovery()}: path MTU discovery (RFC 8899) on or off (off by default). */
        public Builder pmtuDiscovery(boolean on) {
            pmtuDiscovery = on;
            return this;
        }

        /** Sets {@link SctpOptions#pmtuMax()}: the largest path MTU discovery tries (0: {@code pathMtu}). */
        public Builder pmtuMax(int bytes) {
            pmtuMax = bytes;
            return this;
        }

        /** Sets {@link SctpOptions#cmtRtxPseudoCumack()}: CUCv2's cwnd update under CMT (on by default). */
        public Builder cmtRtxPseudoCumack(boolean on) {
            cmtRtxPseudoCumack = on;
            return this;
        }

        /** Sets {@link SctpOptions#sendBufferSplitting()}: each CMT destination keeps its share of the send buffer. */
        public Builder sendBufferSplitting(boolean on) {
            sendBufferSplitting = on;
            return this;
        }

        /** Sets {@link SctpOptions#pmtuRaiseInterval()}: PMTU_RAISE_TIMER (RFC 8899 section 5.1.1). */
        public Builder pmtuRaiseInterval(Duration d) {
            pmtuRaiseInterval = d;
            return this;
        }

        /** Sends no Adaptation Layer Indication (the default). */
        public Builder noAdaptationIndication() {
            adaptationIndication = OptionalLong.empty();
            return this;
        }

        /**
         * Turns SCTP-PF (RFC 7829) off: sets {@link SctpOptions#pfMaxRetrans()} to {@link
         * Integer#MAX_VALUE}, at or above any Path.Max.Retrans.
         */
        public Builder potentiallyFailedOff() {
            pfMaxRetrans = Integer.MAX_VALUE;
            return this;
        }

        /**
         * The options; throws {@link IllegalArgumentException} naming the bad value. Unless set
         * explicitly, the maximum message size follows a smaller send buffer down, and the partial
         * delivery point follows a smaller receive buffer down to half of it (0, off, stays 0).
         */
        public SctpOptions build() {
            if (!maxMessageSizeSet) {
                maxMessageSize = Math.min(maxMessageSize, sendBufferBytes);
            }
            if (!partialDeliveryPointSet && partialDeliveryPoint != 0) {
                partialDeliveryPoint = Math.min(partialDeliveryPoint, Math.max(1, receiveBufferBytes / 2));
            }
            return new SctpOptions(
                    rtoInitial,
                    rtoMin,
                    rtoMax,
                    maxBurst,
                    associationMaxRetrans,
                    pathMaxRetrans,
                    maxInitRetransmits,
                    heartbeatInterval,
                    heartbeatEnabled,
                    validCookieLife,
                    cookieSecretRotation,
                    delayedAckTime,
                    sackFrequency,
                    noDelay,
                    pathMtu,
                    encapsulationOverhead,
                    sendBufferBytes,
                    receiveBufferBytes,
                    maxMessageSize,
                    outboundStreams,
                    maxInboundStreams,
                    shutdownGuardFactor,
                    pfMaxRetrans,
                    primarySwitchover,
                    cmt,
                    retransmissionPolicy,
                    cmtDelayedAck,
                    bufferSplitting,
                    congestionControl,
                    congestionController,
                    deferredReceiveRelease,
                    partialDeliveryPoint,
                    extensions,
                    adaptationIndication,
                    streamScheduler,
                    acceptedReconfigRequests,
                    iDataFragmentNumbering,
                    icmpHandling,
                    authChunks,
                    authHmacs,
                    pmtuDiscovery,
                    pmtuMax,
                    cmtRtxPseudoCumack,
                    sendBufferSplitting,
                    pmtuRaiseInterval);
        }
    }
}
