package org.sctpj.api.socket;

import com.sun.nio.sctp.AbstractNotificationHandler;
import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.AssociationChangeNotification;
import com.sun.nio.sctp.HandlerResult;
import com.sun.nio.sctp.IllegalReceiveException;
import com.sun.nio.sctp.Notification;
import com.sun.nio.sctp.NotificationHandler;
import com.sun.nio.sctp.PeerAddressChangeNotification;
import com.sun.nio.sctp.SendFailedNotification;
import com.sun.nio.sctp.ShutdownNotification;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.UnresolvedAddressException;
import java.nio.channels.UnsupportedAddressTypeException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.sctpj.stack.AssociationId;

/** Helpers shared by the channels: receive loop, addresses, ephemeral ports. */
final class Ops {
    private Ops() {}

    private static final AtomicInteger NEXT_PORT =
            new AtomicInteger(ThreadLocalRandom.current().nextInt(16384));

    /** An SCTP port from the dynamic range, distinct within this process until the range wraps. */
    static int ephemeralPort() {
        return 49152 + Math.floorMod(NEXT_PORT.getAndIncrement(), 16384);
    }

    /** What {@link #receive} returns when the channel was closed (never handed to the application). */
    static final SctpjMessageInfo CLOSED = SctpjMessageInfo.endOfStream(null, null);

    /**
     * The receive loop of every channel: notifications go to {@code handler} (RETURN ends with
     * null), the first message is copied to {@code dst}. Returns the message's info; null when the
     * handler returned RETURN or nothing came in time; {@link #CLOSED} when the channel was closed.
     * {@code endOf} non-null: once that association has ended or the peer shut it down and
     * nothing is queued, the end of stream ({@code bytes() == -1}).
     */
    static <T> SctpjMessageInfo receive(
            Inbox inbox,
            ByteBuffer dst,
            T attachment,
            NotificationHandler<T> handler,
            long timeoutNanos,
            AssocState endOf,
            ThreadLocal<Boolean> inHandler)
            throws InterruptedException {
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("the receive buffer is read-only");
        }
        if (!dst.hasRemaining()) {
            throw new IllegalArgumentException("the receive buffer has no room (position == limit)");
        }
        // The clock is read only once a notification was handed out (take reads it only when it
        // waits): a clock read costs about 90 ns on a VM's kvm-clock, three per message measured
        // as much as the rest of the reader's work. So the time before the first notification is
        // not counted: a receive that hands out notifications may wait up to twice its timeout.
        long wait = timeoutNanos;
        long deadline = 0;
        while (true) {
            Object t = inbox.take(dst, wait, endOf);
            if (t instanceof SctpjMessageInfo info) {
                return info;
            } else if (t instanceof Notification n) {
                if (handler != null) {
                    inHandler.set(Boolean.TRUE);
                    HandlerResult hr;
                    try {
                        hr = dispatch(handler, n, attachment);
                    } finally {
                        inHandler.set(Boolean.FALSE);
                    }
                    if (hr == HandlerResult.RETURN) {
                        return null;
                    }
                }
                if (timeoutNanos > 0) {
                    long now = System.nanoTime();
                    if (deadline == 0) {
                        deadline = now + timeoutNanos;
                    }
                    wait = deadline - now <= 0 ? 0 : deadline - now;
                }
            } else if (t == Inbox.END) {
                return endOf == null ? null : SctpjMessageInfo.endOfStream(endOf.view, endOf.primary);
            } else if (t == Inbox.CLOSED) {
                return CLOSED;
            } else {
                return null;
            }
        }
    }

    /**
     * Hands a notification to the handler as the JDK's channels do: an {@link
     * AbstractNotificationHandler} gets the typed method of the JDK's four notifications, and
     * {@code handleNotification(Notification, T)} for the others (which {@link
     * SctpjNotificationHandler} hands on to its own typed methods).
     */
    @SuppressWarnings("unchecked")
    static <T> HandlerResult dispatch(NotificationHandler<T> handler, Notification n, T attachment) {
        if (handler instanceof AbstractNotificationHandler<?> h0) {
            AbstractNotificationHandler<T> h = (AbstractNotificationHandler<T>) h0;
            if (n instanceof AssociationChangeNotification a) {
                return h.handleNotification(a, attachment);
            } else if (n instanceof PeerAddressChangeNotification p) {
                return h.handleNotification(p, attachment);
            } else if (n instanceof SendFailedNotification f) {
                return h.handleNotification(f, attachment);
            } else if (n instanceof ShutdownNotification s) {
                return h.handleNotification(s, attachment);
            }
        }
        HandlerResult r = handler.handleNotification(n, attachment);
        return r == null ? HandlerResult.CONTINUE : r;
    }

    /**
     * The core's id of an association handed out by sctpj's channels.
     *
     * @throws IllegalArgumentException for another implementation's association
     */
    static AssociationId id(Association a) {
        if (a instanceof SctpjAssociation s) {
            return s.id();
        }
        throw new IllegalArgumentException(a + " is not an association of an sctpj channel: use the Association"
                + " that sctpj's receive, notifications or associations() handed out");
    }

    static void checkNotInHandler(ThreadLocal<Boolean> inHandler) {
        if (Boolean.TRUE.equals(inHandler.get())) {
            throw new IllegalReceiveException(
                    "receive was called from inside a notification handler: return from the handler first");
        }
    }

    static InetSocketAddress inet(SocketAddress a) {
        if (!(a instanceof InetSocketAddress i)) {
            throw new UnsupportedAddressTypeException();
        }
        if (i.isUnresolved()) {
            throw new UnresolvedAddressException();
        }
        return i;
    }

    /**
     * The concrete addresses a bind to {@code a} means: itself, or for the wildcard every usable
     * address of the host (no link-local; loopback only if {@code loopback}), of {@code family}
     * (null: both).
     */
    static List<InetAddress> expand(InetAddress a, Class<? extends InetAddress> family, boolean loopback)
            throws IOException {
        if (!a.isAnyLocalAddress()) {
            return List.of(a);
        }
        Set<InetAddress> out = new LinkedHashSet<>();
        try {
            for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!ni.isUp()) {
                    continue;
                }
                for (InetAddress x : Collections.list(ni.getInetAddresses())) {
                    if (x.isLinkLocalAddress()
                            || (x.isLoopbackAddress() && !loopback)
                            || (family != null && !family.isInstance(x))) {
                        continue;
                    }
                    if (x instanceof Inet6Address six && six.getScopeId() != 0) {
                        x = InetAddress.getByAddress(x.getAddress());
                    }
                    out.add(x);
                }
            }
        } catch (SocketException e) {
            throw new IOException("cannot list the host's addresses: " + e.getMessage(), e);
        }
        if (out.isEmpty()) {
            throw new java.net.BindException("the host has no usable address"
                    + (family == null ? "" : " of family " + family.getSimpleName()) + " to bind");
        }
        return new ArrayList<>(out);
    }

    /** The local addresses for a client bound to {@code local} (maybe wildcard) reaching {@code remote}. */
    static List<InetAddress> clientAddresses(InetAddress local, InetAddress remote) throws IOException {
        if (!local.isAnyLocalAddress()) {
            return List.of(local);
        }
        Class<? extends InetAddress> fam = remote instanceof Inet4Address ? Inet4Address.class : Inet6Address.class;
        if (remote.isLoopbackAddress()) {
            return List.of(
                    remote instanceof Inet4Address ? InetAddress.getByName("127.0.0.1") : InetAddress.getByName("::1"));
        }
        return expand(local, fam, false);
    }

    /** A channel's bound addresses with its port, empty before the endpoint exists ({@code c} null). */
    static Set<SocketAddress> localAddresses(Core c) {
        return c == null ? Set.of() : withPort(c.localAddresses, c.localPort);
    }

    /** A channel's local UDP encapsulation port, 0 before the endpoint exists or for another lower layer. */
    static int udpPort(Core c) {
        return c == null ? 0 : c.udpPort();
    }

    static Set<SocketAddress> withPort(List<InetAddress> addrs, int port) {
        Set<SocketAddress> s = new LinkedHashSet<>();
        for (InetAddress a : addrs) {
            s.add(new InetSocketAddress(a, port));
        }
        return s;
    }

    static long nanos(java.time.Duration d) {
        if (d == null) {
            return -1;
        }
        if (d.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative, was " + d);
        }
        return d.isZero() ? -1 : d.toNanos();
    }
}
