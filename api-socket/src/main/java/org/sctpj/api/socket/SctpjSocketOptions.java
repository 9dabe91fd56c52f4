package org.sctpj.api.socket;

import com.sun.nio.sctp.SctpSocketOption;
import com.sun.nio.sctp.SctpStandardSocketOptions;
import com.sun.nio.sctp.SctpStandardSocketOptions.InitMaxStreams;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.Set;
import org.sctpj.stack.StreamSchedulerKind;

/**
 * The options of sctpj's SCTP channels: the JDK's ({@link SctpStandardSocketOptions}, repeated here
 * as the same objects, so either name works) and the RFC 6458 options sctpj adds. Set them with
 * {@code setOption}; each constant says when it may be set. Options that shape the protocol
 * (buffers, streams, timers) are fixed when the channel binds its endpoint, which for an {@link
 * SctpjChannel} happens at connect: set them before.
 */
public final class SctpjSocketOptions {
    private SctpjSocketOptions() {}

    private record Opt<T>(String name, Class<T> type) implements SctpSocketOption<T> {
        @Override
        public String toString() {
            return name;
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static <T> SctpSocketOption<T> opt(String name, Class<?> type) {
        return new Opt(name, type);
    }

    /**
     * Disables the Nagle-like bundling delay of small messages (RFC 6458 SCTP_NODELAY); default
     * false. The JDK's constant.
     */
    public static final SctpSocketOption<Boolean> SCTP_NODELAY = SctpStandardSocketOptions.SCTP_NODELAY;

    /**
     * Streams requested and accepted at setup (RFC 6458 SCTP_INITMSG); before bind. Default 16
     * out, 65535 in. The JDK's constant.
     */
    public static final SctpSocketOption<InitMaxStreams> SCTP_INIT_MAXSTREAMS =
            SctpStandardSocketOptions.SCTP_INIT_MAXSTREAMS;

    /** Send buffer per association in bytes (SO_SNDBUF); before bind. Default 4 MiB. The JDK's constant. */
    public static final SctpSocketOption<Integer> SO_SNDBUF = SctpStandardSocketOptions.SO_SNDBUF;

    /**
     * Receive window per association in bytes (SO_RCVBUF, the advertised a_rwnd); before bind.
     * Default 4 MiB. The JDK's constant.
     */
    public static final SctpSocketOption<Integer> SO_RCVBUF = SctpStandardSocketOptions.SO_RCVBUF;

    /**
     * Linger on close, in seconds (SO_LINGER): negative (the default) closes gracefully in the
     * background; 0 aborts the associations; a positive value closes gracefully and waits up to
     * that long, then aborts. The JDK's constant.
     */
    public static final SctpSocketOption<Integer> SO_LINGER = SctpStandardSocketOptions.SO_LINGER;

    /**
     * The primary peer address (RFC 6458 SCTP_PRIMARY_ADDR, RFC 9260 section 5.1.2). On a channel
     * that is not connected yet it picks which of the addresses given to connect is tried first; on
     * a live association it reads the current primary, and setting it makes that peer address the
     * primary path at once. The JDK's constant.
     */
    public static final SctpSocketOption<SocketAddress> SCTP_PRIMARY_ADDR = SctpStandardSocketOptions.SCTP_PRIMARY_ADDR;

    /**
     * Asks the peer to use one of our addresses as its primary (RFC 6458 SCTP_SET_PEER_PRIMARY_ADDR,
     * RFC 5061 Set Primary Address): set it on a connected association whose ends both offered
     * {@link org.sctpj.stack.Extension#ASCONF} and {@link org.sctpj.stack.Extension#AUTH}, to one of
     * the channel's bound addresses. Setting it before connect throws {@link
     * java.nio.channels.NotYetConnectedException}, on an association without ASCONF {@link
     * IllegalStateException} saying so; it cannot be read ({@link IllegalArgumentException}, as in
     * the JDK). The JDK's constant.
     */
    public static final SctpSocketOption<SocketAddress> SCTP_SET_PEER_PRIMARY_ADDR =
            SctpStandardSocketOptions.SCTP_SET_PEER_PRIMARY_ADDR;

    /** Refuse messages that need fragmentation: only {@code false} is supported. The JDK's constant. */
    public static final SctpSocketOption<Boolean> SCTP_DISABLE_FRAGMENTS =
            SctpStandardSocketOptions.SCTP_DISABLE_FRAGMENTS;

    /** Explicit message completion: only {@code false} is supported (messages are sent whole). The JDK's constant. */
    public static final SctpSocketOption<Boolean> SCTP_EXPLICIT_COMPLETE =
            SctpStandardSocketOptions.SCTP_EXPLICIT_COMPLETE;

    /** Fragment interleave level: only 0 is supported (messages are delivered whole). The JDK's constant. */
    public static final SctpSocketOption<Integer> SCTP_FRAGMENT_INTERLEAVE =
            SctpStandardSocketOptions.SCTP_FRAGMENT_INTERLEAVE;

    /** RTO.Initial, RTO.Min and RTO.Max (RFC 6458 SCTP_RTOINFO); before bind. */
    public static final SctpSocketOption<RtoInfo> SCTP_RTOINFO = opt("SCTP_RTOINFO", RtoInfo.class);

    /** Association.Max.Retrans and Valid.Cookie.Life (RFC 6458 SCTP_ASSOCINFO); before bind. */
    public static final SctpSocketOption<AssocInfo> SCTP_ASSOCINFO = opt("SCTP_ASSOCINFO", AssocInfo.class);

    /** Heartbeat interval and on/off, Path.Max.Retrans, path MTU (RFC 6458 SCTP_PEER_ADDR_PARAMS); before bind. */
    public static final SctpSocketOption<PeerAddrParams> SCTP_PEER_ADDR_PARAMS =
            opt("SCTP_PEER_ADDR_PARAMS", PeerAddrParams.class);

    /** Delayed SACK time and frequency (RFC 6458 SCTP_DELAYED_SACK); before bind. */
    public static final SctpSocketOption<DelayedSack> SCTP_DELAYED_SACK = opt("SCTP_DELAYED_SACK", DelayedSack.class);

    /**
     * Stream, PPID and unordered flag used by a send whose {@code MessageInfo} is {@code null}
     * (RFC 6458 SCTP_DEFAULT_SNDINFO); any time.
     */
    public static final SctpSocketOption<DefaultSendInfo> SCTP_DEFAULT_SNDINFO =
            opt("SCTP_DEFAULT_SNDINFO", DefaultSendInfo.class);

    /**
     * The notifications receive hands to the handler (RFC 6458 SCTP_EVENT); any time. Default: the
     * four the JDK delivers (association change, peer address change, send failed, shutdown).
     */
    public static final SctpSocketOption<Set<Event>> SCTP_EVENTS = opt("SCTP_EVENTS", Set.class);

    /**
     * The local UDP port of the UDP encapsulation (RFC 6951; RFC 6458 SCTP_REMOTE_UDP_ENCAPS_PORT
     * is its remote twin); before bind. Default: the environment variable {@code SCTPJ_UDP_PORT},
     * else 9899; 0 asks for an ephemeral port. After bind, reads the port in use.
     */
    public static final SctpSocketOption<Integer> SCTP_UDP_ENCAPS_PORT = opt("SCTP_UDP_ENCAPS_PORT", Integer.class);

    /**
     * The UDP port of the peer's encapsulation (RFC 6458 SCTP_REMOTE_UDP_ENCAPS_PORT), used for the
     * addresses given to connect (and to a one-to-many send that sets an association up); any time
     * before connect. Default 9899. Learned from the peer's datagrams afterwards.
     */
    public static final SctpSocketOption<Integer> SCTP_REMOTE_UDP_ENCAPS_PORT =
            opt("SCTP_REMOTE_UDP_ENCAPS_PORT", Integer.class);

    /**
     * The most bytes of received messages the channel holds per association for the application
     * (sctpj); before bind. Default 64 MiB. A last-resort bound only: received messages count
     * against the receive window ({@code SO_RCVBUF}) until the application reads them, so a peer
     * that respects the window stops when the application does not read, and the queue stays
     * within about {@code SO_RCVBUF}. An association that still goes past this limit is aborted.
     */
    public static final SctpSocketOption<Integer> SCTP_RECEIVE_QUEUE_LIMIT =
            opt("SCTP_RECEIVE_QUEUE_LIMIT", Integer.class);

    /**
     * How long a receive that finds nothing queued spins, looking for a message, before it sleeps
     * (sctpj); any time. Default {@link Duration#ZERO}: it sleeps at once, and the stack thread
     * wakes it (a futex wake-up and a scheduling delay, twice per round trip). A spin of tens of
     * microseconds can spare a request/response exchange those wake-ups at the cost of a busy
     * core while it spins; on a machine with fewer free cores than busy threads it makes round
     * trips slower (PERFORMANCE.md has the measurements). At most 10 ms.
     */
    public static final SctpSocketOption<Duration> SCTP_RECEIVE_SPIN = opt("SCTP_RECEIVE_SPIN", Duration.class);

    /**
     * The stream scheduler (RFC 8260 section 4.3.2 SCTP_PLUGGABLE_SS): which stream's queued
     * message goes next, one of the schedulers of RFC 8260 section 3 ({@link
     * StreamSchedulerKind}); any time. Default {@link StreamSchedulerKind#ROUND_ROBIN}. Set before
     * connect, associations start with it; set on a connected {@link SctpjChannel} (or on a {@link
     * SctpjMultiChannel} for one association) it switches the association at once, keeping every
     * queued message in its stream's order; set on a bound channel for all associations, the
     * current ones switch and later ones start with it. A switch resets the per-stream values set
     * with {@link SctpjChannel#setStreamValue} (RFC 8260 section 4.3.3 SCTP_SS_VALUE). For example:
     *
     * <pre>{@code
     * ch.setOption(SctpStandardSocketOptions.SCTP_PLUGGABLE_SS, StreamSchedulerKind.PRIORITY);
     * ch.connect(server);
     * ch.setStreamValue(1, 10); // bulk on stream 1 waits while stream 0 (priority 0) has data
     * }</pre>
     */
    public static final SctpSocketOption<StreamSchedulerKind> SCTP_PLUGGABLE_SS =
            opt("SCTP_PLUGGABLE_SS", StreamSchedulerKind.class);

    /** Notifications that can be subscribed with {@link #SCTP_EVENTS}. */
    public enum Event {
        /** {@link SctpjAssociationChangeNotification}. */
        ASSOCIATION_CHANGE,
        /** {@link SctpjPeerAddressChangeNotification}. */
        PEER_ADDRESS_CHANGE,
        /** {@link SctpjSendFailedNotification}. */
        SEND_FAILED,
        /** {@link SctpjShutdownNotification}. */
        SHUTDOWN,
        /** {@link RemoteErrorNotification}. */
        REMOTE_ERROR,
        /** {@link SenderDryNotification}. */
        SENDER_DRY,
        /** {@link AdaptationIndicationNotification}. */
        ADAPTATION_INDICATION,
        /** {@link StreamResetNotification}. */
        STREAM_RESET,
        /** {@link AssociationResetNotification}. */
        ASSOCIATION_RESET,
        /** {@link StreamChangeNotification}. */
        STREAM_CHANGE,
        /** {@link AuthenticationNotification}. */
        AUTHENTICATION,
        /** {@link PartialDeliveryAbortedNotification}. */
        PARTIAL_DELIVERY_ABORTED,
        /** {@link LocalAddressChangeNotification}. */
        LOCAL_ADDRESS_CHANGE,
        /** {@link PathMtuChangeNotification}. */
        PATH_MTU_CHANGE,
        /** {@link EcnCongestionNotification}. */
        ECN_CONGESTION
    }

    /**
     * Retransmission timeout bounds (SCTP_RTOINFO).
     *
     * @param initial RTO.Initial
     * @param min RTO.Min
     * @param max RTO.Max
     */
    public record RtoInfo(Duration initial, Duration min, Duration max) {}

    /**
     * Association parameters (SCTP_ASSOCINFO).
     *
     * @param maxRetrans Association.Max.Retrans
     * @param cookieLife Valid.Cookie.Life
     */
    public record AssocInfo(int maxRetrans, Duration cookieLife) {}

    /**
     * Per-destination parameters (SCTP_PEER_ADDR_PARAMS), applied to every path.
     *
     * @param heartbeatInterval HB.interval
     * @param heartbeatEnabled whether idle paths are probed
     * @param pathMaxRetrans Path.Max.Retrans
     * @param pathMtu the MTU assumed for new paths, bytes
     */
    public record PeerAddrParams(
            Duration heartbeatInterval, boolean heartbeatEnabled, int pathMaxRetrans, int pathMtu) {}

    /**
     * Delayed acknowledgement (SCTP_DELAYED_SACK).
     *
     * @param delay the most a SACK may be delayed (0..500 ms)
     * @param frequency a SACK at least every this many packets
     */
    public record DelayedSack(Duration delay, int frequency) {}

    /**
     * Defaults for sends without {@code MessageInfo} (SCTP_DEFAULT_SNDINFO).
     *
     * @param streamNumber the stream
     * @param ppid the payload protocol identifier
     * @param unordered unordered delivery
     */
    public record DefaultSendInfo(int streamNumber, int ppid, boolean unordered) {
        /** Validates the stream number. */
        public DefaultSendInfo {
            org.sctpj.stack.wire.Wire.checkU16("streamNumber", streamNumber);
        }
    }
}
