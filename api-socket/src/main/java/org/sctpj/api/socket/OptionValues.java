package org.sctpj.api.socket;

import static org.sctpj.api.socket.SctpjSocketOptions.*;

import com.sun.nio.sctp.SctpSocketOption;
import com.sun.nio.sctp.SctpStandardSocketOptions.InitMaxStreams;
import java.net.SocketAddress;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.StreamSchedulerKind;

/** The option values of one channel; protocol options are turned into {@link SctpOptions} at bind. */
final class OptionValues {

    /** The notifications delivered unless {@link SctpjSocketOptions#SCTP_EVENTS} says otherwise. */
    static final Set<Event> DEFAULT_EVENTS =
            EnumSet.of(Event.ASSOCIATION_CHANGE, Event.PEER_ADDRESS_CHANGE, Event.SEND_FAILED, Event.SHUTDOWN);

    static final Set<SctpSocketOption<?>> ALL = Set.of(
            SCTP_NODELAY,
            SCTP_INIT_MAXSTREAMS,
            SO_SNDBUF,
            SO_RCVBUF,
            SO_LINGER,
            SCTP_PRIMARY_ADDR,
            SCTP_SET_PEER_PRIMARY_ADDR,
            SCTP_DISABLE_FRAGMENTS,
            SCTP_EXPLICIT_COMPLETE,
            SCTP_FRAGMENT_INTERLEAVE,
            SCTP_RTOINFO,
            SCTP_ASSOCINFO,
            SCTP_PEER_ADDR_PARAMS,
            SCTP_DELAYED_SACK,
            SCTP_DEFAULT_SNDINFO,
            SCTP_EVENTS,
            SCTP_UDP_ENCAPS_PORT,
            SCTP_REMOTE_UDP_ENCAPS_PORT,
            SCTP_RECEIVE_QUEUE_LIMIT,
            SCTP_RECEIVE_SPIN,
            SCTP_PLUGGABLE_SS);

    /** Options that may change after the endpoint is bound (the rest shape the protocol core). */
    private static final Set<SctpSocketOption<?>> LIVE = Set.of(
            SO_LINGER,
            SCTP_DEFAULT_SNDINFO,
            SCTP_EVENTS,
            SCTP_REMOTE_UDP_ENCAPS_PORT,
            SCTP_PRIMARY_ADDR,
            SCTP_RECEIVE_SPIN,
            SCTP_PLUGGABLE_SS);

    private final Map<SctpSocketOption<?>, Object> values = new HashMap<>();

    OptionValues(SctpOptions base, int defaultUdpPort, int defaultRemoteUdpPort) {
        values.put(SCTP_NODELAY, base.noDelay());
        values.put(SCTP_INIT_MAXSTREAMS, InitMaxStreams.create(base.maxInboundStreams(), base.outboundStreams()));
        values.put(SO_SNDBUF, base.sendBufferBytes());
        values.put(SO_RCVBUF, base.receiveBufferBytes());
        values.put(SO_LINGER, -1);
        values.put(SCTP_DISABLE_FRAGMENTS, false);
        values.put(SCTP_EXPLICIT_COMPLETE, false);
        values.put(SCTP_FRAGMENT_INTERLEAVE, 0);
        values.put(SCTP_RTOINFO, new RtoInfo(base.rtoInitial(), base.rtoMin(), base.rtoMax()));
        values.put(SCTP_ASSOCINFO, new AssocInfo(base.associationMaxRetrans(), base.validCookieLife()));
        values.put(
                SCTP_PEER_ADDR_PARAMS,
                new PeerAddrParams(
                        base.heartbeatInterval(), base.heartbeatEnabled(), base.pathMaxRetrans(), base.pathMtu()));
        values.put(SCTP_DELAYED_SACK, new DelayedSack(base.delayedAckTime(), base.sackFrequency()));
        values.put(SCTP_DEFAULT_SNDINFO, new DefaultSendInfo(0, 0, false));
        values.put(SCTP_EVENTS, Set.copyOf(DEFAULT_EVENTS));
        values.put(SCTP_UDP_ENCAPS_PORT, defaultUdpPort);
        values.put(SCTP_REMOTE_UDP_ENCAPS_PORT, defaultRemoteUdpPort);
        values.put(SCTP_RECEIVE_QUEUE_LIMIT, 64 << 20);
        values.put(SCTP_RECEIVE_SPIN, java.time.Duration.ZERO);
        values.put(SCTP_PLUGGABLE_SS, base.streamScheduler());
    }

    private OptionValues(OptionValues o) {
        values.putAll(o.values);
    }

    synchronized OptionValues copy() {
        return new OptionValues(this);
    }

    @SuppressWarnings("unchecked")
    synchronized <T> T get(SctpSocketOption<T> name) {
        check(name);
        if (name == SCTP_SET_PEER_PRIMARY_ADDR) {
            throw new IllegalArgumentException("SCTP_SET_PEER_PRIMARY_ADDR cannot be retrieved: it only asks the"
                    + " peer to change its primary (read the peer's answer as an address event)");
        }
        return (T) values.get(name);
    }

    /** Sets an option; {@code bound}: the endpoint exists, so only the live options may change. */
    @SuppressWarnings("unchecked")
    synchronized <T> void set(SctpSocketOption<T> name, T value, boolean bound) {
        check(name);
        if (name == SCTP_SET_PEER_PRIMARY_ADDR) {
            // Only a live association can ask its peer (the channels call Core.setPeerPrimary).
            throw new java.nio.channels.NotYetConnectedException();
        }
        if (value == null && name != SCTP_PRIMARY_ADDR) {
            throw new IllegalArgumentException(name + " needs a value (null given)");
        }
        if (bound && !LIVE.contains(name) && java.util.Objects.equals(values.get(name), value)) {
            return; // the value it has already (Netty sets SCTP_NODELAY on accepted channels)
        }
        if (bound && !LIVE.contains(name)) {
            throw new IllegalStateException(name + " shapes the protocol and is fixed once the channel is bound"
                    + " (for SctpChannel: at connect): set it before");
        }
        if (name == SCTP_DISABLE_FRAGMENTS || name == SCTP_EXPLICIT_COMPLETE) {
            if ((Boolean) value) {
                throw new UnsupportedOperationException(name + " is not supported by sctpj: only false");
            }
        } else if (name == SCTP_FRAGMENT_INTERLEAVE) {
            if ((Integer) value != 0) {
                throw new UnsupportedOperationException(name + " is not supported by sctpj: only 0");
            }
        } else if (name == SCTP_INIT_MAXSTREAMS) {
            // The JDK's InitMaxStreams allows 0: keep the current count.
            InitMaxStreams now = (InitMaxStreams) values.get(SCTP_INIT_MAXSTREAMS);
            InitMaxStreams v = (InitMaxStreams) value;
            value = (T) InitMaxStreams.create(
                    v.maxInStreams() == 0 ? now.maxInStreams() : v.maxInStreams(),
                    v.maxOutStreams() == 0 ? now.maxOutStreams() : v.maxOutStreams());
        } else if (name == SCTP_EVENTS) {
            Set<?> s = (Set<?>) value;
            for (Object e : s) {
                if (!(e instanceof Event)) {
                    throw new IllegalArgumentException("SCTP_EVENTS takes a Set<SctpjSocketOptions.Event>");
                }
            }
            value = (T) Set.copyOf(s);
        } else if (name == SCTP_UDP_ENCAPS_PORT || name == SCTP_REMOTE_UDP_ENCAPS_PORT) {
            int p = (Integer) value;
            int min = name == SCTP_UDP_ENCAPS_PORT ? 0 : 1;
            if (p < min || p > 65535) {
                throw new IllegalArgumentException(name + " must be " + min + "..65535, was " + p);
            }
        } else if (name == SCTP_RECEIVE_SPIN
                && (((java.time.Duration) value).isNegative()
                        || ((java.time.Duration) value).compareTo(java.time.Duration.ofMillis(10)) > 0)) {
            throw new IllegalArgumentException(name + " must be 0 to 10 ms, was " + value);
        } else if (name == SCTP_RECEIVE_QUEUE_LIMIT && (Integer) value < 1500) {
            throw new IllegalArgumentException(name + " must be at least 1500 bytes, was " + value);
        } else if (name == SCTP_PLUGGABLE_SS && !(value instanceof StreamSchedulerKind)) {
            throw new IllegalArgumentException(name + " takes a StreamSchedulerKind (e.g. PRIORITY)");
        } else if (name == SCTP_PRIMARY_ADDR && value != null && !(value instanceof SocketAddress)) {
            throw new IllegalArgumentException(name + " takes a SocketAddress");
        }
        Object old = values.put(name, value);
        try {
            sctpOptions(SctpOptions.DEFAULTS); // validate the combination now, not at bind
        } catch (IllegalArgumentException e) {
            values.put(name, old);
            throw e;
        }
    }

    private static void check(SctpSocketOption<?> name) {
        if (!ALL.contains(name)) {
            throw new UnsupportedOperationException(name + " is not an option of sctpj channels");
        }
    }

    /** The protocol options these values give, starting from {@code base} for the rest. */
    synchronized SctpOptions sctpOptions(SctpOptions base) {
        InitMaxStreams s = (InitMaxStreams) values.get(SCTP_INIT_MAXSTREAMS);
        RtoInfo r = (RtoInfo) values.get(SCTP_RTOINFO);
        AssocInfo a = (AssocInfo) values.get(SCTP_ASSOCINFO);
        PeerAddrParams p = (PeerAddrParams) values.get(SCTP_PEER_ADDR_PARAMS);
        DelayedSack d = (DelayedSack) values.get(SCTP_DELAYED_SACK);
        int sndbuf = (Integer) values.get(SO_SNDBUF);
        SctpOptions.Builder b = base.toBuilder()
                .noDelay((Boolean) values.get(SCTP_NODELAY))
                .outboundStreams(s.maxOutStreams())
                .maxInboundStreams(s.maxInStreams())
                .sendBufferBytes(sndbuf)
                .maxMessageSize(Math.min(base.maxMessageSize(), sndbuf))
                .receiveBufferBytes((Integer) values.get(SO_RCVBUF))
                // Messages count against the window until the application has read them (Inbox
                // releases them), so a slow reader stops the peer instead of filling memory.
                .deferredReceiveRelease(true)
                .rtoInitial(r.initial())
                .rtoMin(r.min())
                .rtoMax(r.max())
                .associationMaxRetrans(a.maxRetrans())
                .validCookieLife(a.cookieLife())
                .heartbeatInterval(p.heartbeatInterval())
                .heartbeatEnabled(p.heartbeatEnabled())
                .pathMaxRetrans(p.pathMaxRetrans())
                .pathMtu(p.pathMtu())
                .delayedAckTime(d.delay())
                .sackFrequency(d.frequency())
                .streamScheduler((StreamSchedulerKind) values.get(SCTP_PLUGGABLE_SS));
        if (a.cookieLife().compareTo(base.cookieSecretRotation()) > 0) {
            b.cookieSecretRotation(a.cookieLife());
        }
        return b.build();
    }
}
