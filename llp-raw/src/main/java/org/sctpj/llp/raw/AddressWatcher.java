package org.sctpj.llp.raw;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import jnr.ffi.Pointer;
import org.sctpj.nativeio.LibC;
import org.sctpj.nativeio.Linux;
import org.sctpj.nativeio.Native;

/**
 * Watches the addresses of the host's interfaces (of the network namespace it opens in) through a
 * netlink route socket subscribed to the address groups: the kernel sends an RTM_NEWADDR or
 * RTM_DELADDR message (rtnetlink(7)) whenever an address comes or goes, so the layer learns of it
 * without polling (nothing is read, and nothing costs, while no address changes). {@link
 * #read} turns the queued messages into {@link Change}s.
 *
 * <p>Kept: unicast addresses of the families asked for, of global or site scope (not loopback,
 * not link-local), not tentative (an IPv6 address still under Duplicate Address Detection cannot
 * be used yet: it is reported once its DAD ends, by the RTM_NEWADDR that clears the flag).
 *
 * <p>Bounded: one preallocated 16 KiB buffer; a burst of changes larger than the socket's buffer
 * is lost by the kernel (ENOBUFS), which is reported as {@link #overflows()}, not thrown. Owner
 * thread only (the stack thread, through the layer's {@code receive}).
 */
final class AddressWatcher implements AutoCloseable {
    static final int AF_NETLINK = 16;
    static final int NETLINK_ROUTE = 0;
    static final int RTMGRP_IPV4_IFADDR = 0x10;
    static final int RTMGRP_IPV6_IFADDR = 0x100;
    static final int RTM_NEWADDR = 20;
    static final int RTM_DELADDR = 21;
    static final int NLMSG_HDRLEN = 16;
    static final int IFADDRMSG_LEN = 8;
    static final int IFA_ADDRESS = 1;
    static final int IFA_LOCAL = 2;
    static final int IFA_FLAGS = 8;
    static final int IFA_F_TENTATIVE = 0x40;
    static final int IFA_F_DADFAILED = 0x08;
    static final int RT_SCOPE_LINK = 253;
    static final int RT_SCOPE_HOST = 254;
    static final int ENOBUFS = 105;
    private static final int BUFFER = 16 << 10;

    /** One address that came ({@code added}) or went. */
    record Change(InetAddress address, boolean added, int interfaceIndex) {}

    /** Receives the changes {@link #read} found. */
    @FunctionalInterface
    interface Listener {
        void changed(Change c);
    }

    private final LibC libc;
    private final int fd;
    private final boolean ipv4;
    private final boolean ipv6;
    private final ByteBuffer buf = Native.allocate(BUFFER);
    private final Pointer bufPtr = Native.pointer(buf);
    private long overflows;
    private boolean closed;

    private AddressWatcher(LibC libc, int fd, boolean ipv4, boolean ipv6) {
        this.libc = libc;
        this.fd = fd;
        this.ipv4 = ipv4;
        this.ipv6 = ipv6;
    }

    /**
     * Opens the netlink socket in the calling thread's network namespace, non-blocking.
     *
     * @throws IOException if the socket cannot be opened or bound
     */
    static AddressWatcher open(boolean ipv4, boolean ipv6) throws IOException {
        LibC c = Native.libc();
        int fd = c.socket(AF_NETLINK, Linux.SOCK_RAW | Linux.SOCK_NONBLOCK | Linux.SOCK_CLOEXEC, NETLINK_ROUTE);
        if (fd < 0) {
            throw new IOException(
                    "netlink route socket (to watch interface addresses): " + Native.describe(Native.errno()));
        }
        // struct sockaddr_nl: family, pad, pid (0: the kernel picks), groups
        ByteBuffer sa = Native.allocate(12);
        sa.putShort(0, (short) AF_NETLINK);
        sa.putInt(8, (ipv4 ? RTMGRP_IPV4_IFADDR : 0) | (ipv6 ? RTMGRP_IPV6_IFADDR : 0));
        if (c.bind(fd, Native.pointer(sa), 12) < 0) {
            int e = Native.errno();
            c.close(fd);
            throw new IOException("binding the netlink route socket to the address groups: " + Native.describe(e));
        }
        return new AddressWatcher(c, fd, ipv4, ipv6);
    }

    /** The socket, for the layer's poll set. */
    int fd() {
        return fd;
    }

    /** Times the kernel dropped notifications because the socket's buffer was full. */
    long overflows() {
        return overflows;
    }

    /** Reads every queued notification and hands each address change to {@code l}; returns how many. */
    int read(Listener l) throws IOException {
        int n = 0;
        while (!closed) {
            long r = libc.read(fd, bufPtr, BUFFER);
            if (r < 0) {
                int e = Native.errno();
                if (e == Linux.EAGAIN || e == Linux.EINTR) {
                    return n;
                }
                if (e == ENOBUFS) {
                    overflows++; // some changes were lost; the next ones still come
                    continue;
                }
                throw new IOException("reading address changes from netlink: " + Native.describe(e));
            }
            n += parse(buf, (int) r, ipv4, ipv6, l);
        }
        return n;
    }

    /**
     * Parses {@code length} bytes of netlink messages (from position 0 of {@code b}, native order)
     * and hands each kept address change to {@code l}; malformed messages end the parse (bounded:
     * every length is checked against what is left). Returns how many it handed on.
     */
    static int parse(ByteBuffer b, int length, boolean ipv4, boolean ipv6, Listener l) {
        ByteBuffer m = b.duplicate().order(ByteOrder.nativeOrder());
        int n = 0;
        int off = 0;
        while (off + NLMSG_HDRLEN <= length) {
            int len = m.getInt(off);
            int type = m.getShort(off + 4) & 0xffff;
            if (len < NLMSG_HDRLEN || off + len > length) {
                break;
            }
            if ((type == RTM_NEWADDR || type == RTM_DELADDR) && len >= NLMSG_HDRLEN + IFADDRMSG_LEN) {
                Change c = change(m, off + NLMSG_HDRLEN, off + len, type == RTM_NEWADDR, ipv4, ipv6);
                if (c != null) {
                    l.changed(c);
                    n++;
                }
            }
            off += (len + 3) & ~3;
        }
        return n;
    }

    /** One ifaddrmsg and its attributes, from {@code at} to {@code end}; null when not kept. */
    private static Change change(ByteBuffer m, int at, int end, boolean added, boolean ipv4, boolean ipv6) {
        int family = m.get(at) & 0xff;
        int flags = m.get(at + 2) & 0xff;
        int scope = m.get(at + 3) & 0xff;
        int index = m.getInt(at + 4);
        int want = family == Linux.AF_INET ? 4 : family == Linux.AF_INET6 ? 16 : 0;
        if (want == 0 || (want == 4 ? !ipv4 : !ipv6) || scope == RT_SCOPE_LINK || scope == RT_SCOPE_HOST) {
            return null;
        }
        byte[] address = null;
        byte[] local = null;
        for (int a = at + IFADDRMSG_LEN; a + 4 <= end; ) {
            int alen = m.getShort(a) & 0xffff;
            int atype = m.getShort(a + 2) & 0xffff;
            if (alen < 4 || a + alen > end) {
                break;
            }
            if ((atype == IFA_ADDRESS || atype == IFA_LOCAL) && alen - 4 == want) {
                byte[] v = new byte[want];
                m.get(a + 4, v);
                if (atype == IFA_LOCAL) {
                    local = v;
                } else {
                    address = v;
                }
            } else if (atype == IFA_FLAGS && alen >= 8) {
                flags = m.getInt(a + 4); // the 32-bit flags, when the kernel sends them
            }
            a += (alen + 3) & ~3;
        }
        if (added && (flags & (IFA_F_TENTATIVE | IFA_F_DADFAILED)) != 0) {
            return null; // not usable yet (or ever): the RTM_NEWADDR after DAD reports it
        }
        // IPv4 point-to-point: IFA_LOCAL is ours, IFA_ADDRESS the other end; else both are ours
        byte[] ours = local != null ? local : address;
        if (ours == null) {
            return null;
        }
        try {
            InetAddress x = InetAddress.getByAddress(ours);
            if (x.isLoopbackAddress() || x.isMulticastAddress() || x.isAnyLocalAddress() || x.isLinkLocalAddress()) {
                return null;
            }
            return new Change(x, added, index);
        } catch (UnknownHostException e) {
            return null; // cannot happen for 4 or 16 bytes
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            libc.close(fd);
        }
    }
}
