package org.sctpj.llp.raw;

import java.io.IOException;
import java.lang.ref.Reference;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Set;
import jnr.ffi.Pointer;
import org.sctpj.stack.llp.LowerLayer.PacketSink;

/**
 * One non-blocking raw socket of one address family for IP protocol 132, with the native
 * structures for receiving a batch of packets (recvmmsg) and for sending one (sendmsg), allocated
 * once. Used by {@link RawIpLowerLayer} on its owner thread.
 */
final class RawSocket {
    /** Largest IPv4 packet, header included; also above any IPv6 payload without jumbograms. */
    static final int SLOT_SIZE = 65_536;

    private static final int CONTROL_SPACE = 64;

    private final Native.LibC libc;
    private final boolean ipv6;
    private final int fd;
    private final int batch;
    private final Stats stats;
    private final AddressCache cache = new AddressCache();
    private final InetAddress wildcard;

    // receive side: batch slots
    private final ByteBuffer headers; // mmsghdr[batch], native order
    private final Pointer headersPtr;
    private final ByteBuffer iovs; // kept reachable: the headers point into it
    private final ByteBuffer names; // sockaddr_in6-sized slots
    private final ByteBuffer controls;
    private final ByteBuffer data; // big-endian, handed to the sink through the views
    private final ByteBuffer[] views;

    // send side
    private final ByteBuffer sendHeader;
    private final Pointer sendHeaderPtr;
    private final ByteBuffer sendName;
    private final ByteBuffer sendControl;
    private final long sendControlAddress;
    private final ByteBuffer sendData;
    private final ByteBuffer sendIov;

    /** Counters shared by the sockets of one layer. */
    static final class Stats {
        long received;
        long truncated;
        long malformed;
        long notLocal;
        long sent;
        long sendDropped;
        long filtered;
        long tooBig;
    }

    private RawSocket(boolean ipv6, int fd, int batch, Stats stats) throws IOException {
        this.libc = Native.libc();
        this.ipv6 = ipv6;
        this.fd = fd;
        this.batch = batch;
        this.stats = stats;
        this.wildcard = InetAddress.getByAddress(new byte[ipv6 ? 16 : 4]);

        headers = Native.allocate(batch * Native.MMSGHDR_SIZE);
        headersPtr = Native.pointer(headers);
        iovs = Native.allocate(batch * Native.IOVEC_SIZE);
        names = Native.allocate(batch * Native.SOCKADDR_IN6_SIZE);
        controls = Native.allocate(batch * CONTROL_SPACE);
        data = ByteBuffer.allocateDirect(batch * SLOT_SIZE);
        views = new ByteBuffer[batch];
        long iovBase = Native.address(iovs);
        long nameBase = Native.address(names);
        long controlBase = Native.address(controls);
        long dataBase = Native.address(data);
        for (int i = 0; i < batch; i++) {
            int iov = i * Native.IOVEC_SIZE;
            iovs.putLong(iov, dataBase + (long) i * SLOT_SIZE);
            iovs.putLong(iov + 8, SLOT_SIZE);
            int h = i * Native.MMSGHDR_SIZE;
            headers.putLong(h + Native.MSG_NAME, nameBase + (long) i * Native.SOCKADDR_IN6_SIZE);
            headers.putLong(h + Native.MSG_IOV, iovBase + iov);
            headers.putLong(h + Native.MSG_IOVLEN, 1);
            headers.putLong(h + Native.MSG_CONTROL, controlBase + (long) i * CONTROL_SPACE);
            views[i] = data.duplicate();
        }

        sendHeader = Native.allocate(Native.MSGHDR_SIZE);
        sendHeaderPtr = Native.pointer(sendHeader);
        sendName = Native.allocate(Native.SOCKADDR_IN6_SIZE);
        sendControl = Native.allocate(Native.cmsgSpace(Native.IN6_PKTINFO_SIZE));
        sendControlAddress = Native.address(sendControl);
        sendData = ByteBuffer.allocateDirect(SLOT_SIZE);
        sendIov = Native.allocate(Native.IOVEC_SIZE);
        sendIov.putLong(0, Native.address(sendData));
        sendHeader.putLong(Native.MSG_NAME, Native.address(sendName));
        sendHeader.putLong(Native.MSG_IOV, Native.address(sendIov));
        sendHeader.putLong(Native.MSG_IOVLEN, 1);
    }

    /**
     * Opens a raw socket of the family for protocol 132, non-blocking, with destination address
     * recovery (IP_PKTINFO or IPV6_RECVPKTINFO) switched on.
     *
     * @param receiveBufferBytes SO_RCVBUF to ask for, 0 for the kernel's default
     * @throws RawSocketPermissionException without CAP_NET_RAW
     */
    static RawSocket open(boolean ipv6, int batch, int receiveBufferBytes, Stats stats) throws IOException {
        Native.LibC c = Native.libc();
        String family = ipv6 ? "IPv6" : "IPv4";
        int fd = c.socket(
                ipv6 ? Native.AF_INET6 : Native.AF_INET,
                Native.SOCK_RAW | Native.SOCK_NONBLOCK | Native.SOCK_CLOEXEC,
                Native.IPPROTO_SCTP);
        if (fd < 0) {
            throw Native.socketError(Native.errno(), family);
        }
        try {
            if (ipv6) {
                // No IPV6_V6ONLY: Linux refuses it on raw sockets, which never see IPv4 anyway.
                setInt(fd, Native.IPPROTO_IPV6, Native.IPV6_RECVPKTINFO, 1, "IPV6_RECVPKTINFO");
            } else {
                setInt(fd, Native.IPPROTO_IP, Native.IP_PKTINFO, 1, "IP_PKTINFO");
            }
            if (receiveBufferBytes > 0) {
                setInt(fd, Native.SOL_SOCKET, Native.SO_RCVBUF, receiveBufferBytes, "SO_RCVBUF");
            }
            return new RawSocket(ipv6, fd, batch, stats);
        } catch (IOException | RuntimeException e) {
            c.close(fd);
            throw e;
        }
    }

    private static void setInt(int fd, int level, int option, int value, String name) throws IOException {
        ByteBuffer v = Native.allocate(4);
        v.putInt(0, value);
        int r = Native.libc().setsockopt(fd, level, option, Native.pointer(v), 4);
        Reference.reachabilityFence(v);
        if (r != 0) {
            throw new IOException(
                    "setsockopt(" + name + ") failed on a raw socket: " + Native.describe(Native.errno()));
        }
    }

    /** The file descriptor. */
    int fd() {
        return fd;
    }

    /** Whether this is the IPv6 socket. */
    boolean isIpv6() {
        return ipv6;
    }

    // ---------------------------------------------------------------- receive

    /**
     * Reads at most {@code max} waiting packets (one recvmmsg, or one recvmsg for a batch of one)
     * and hands the SCTP packets to {@code sink}.
     *
     * @param local the addresses to accept packets for, or empty for any
     * @return the number of datagrams read (including ones dropped as malformed or not local)
     */
    int receive(PacketSink sink, int max, Set<InetAddress> local) throws IOException {
        int count = Math.min(max, batch);
        if (count <= 0) {
            return 0;
        }
        for (int i = 0; i < count; i++) {
            int h = i * Native.MMSGHDR_SIZE;
            headers.putInt(h + Native.MSG_NAMELEN, Native.SOCKADDR_IN6_SIZE);
            headers.putLong(h + Native.MSG_CONTROLLEN, CONTROL_SPACE);
            headers.putInt(h + Native.MSG_FLAGS, 0);
        }
        int n;
        if (count == 1) {
            long r = libc.recvmsg(fd, headersPtr, Native.MSG_DONTWAIT);
            if (r >= 0) {
                headers.putInt(Native.MMSG_LEN, (int) r);
            }
            n = r < 0 ? -1 : 1;
        } else {
            n = libc.recvmmsg(fd, headersPtr, count, Native.MSG_DONTWAIT, null);
        }
        if (n < 0) {
            int errno = Native.errno();
            if (errno == Native.EAGAIN || errno == Native.EINTR) {
                return 0;
            }
            throw new IOException(
                    "receiving on the raw " + (ipv6 ? "IPv6" : "IPv4") + " socket failed: " + Native.describe(errno));
        }
        for (int i = 0; i < n; i++) {
            deliver(i, sink, local);
        }
        return n;
    }

    private void deliver(int i, PacketSink sink, Set<InetAddress> local) {
        int h = i * Native.MMSGHDR_SIZE;
        int length = headers.getInt(h + Native.MMSG_LEN);
        int flags = headers.getInt(h + Native.MSG_FLAGS);
        stats.received++;
        if ((flags & Native.MSG_TRUNC) != 0 || length > SLOT_SIZE) {
            stats.truncated++;
            return;
        }
        int start = i * SLOT_SIZE;
        int end = start + length;
        InetAddress from = source(i);
        InetAddress to = destination(i, (int) Math.min(headers.getLong(h + Native.MSG_CONTROLLEN), CONTROL_SPACE));
        if (!ipv6) {
            int ihl = Ipv4Header.headerLength(data, start, length);
            if (ihl < 0) {
                stats.malformed++;
                return;
            }
            end = start + Ipv4Header.totalLength(data, start);
            if (from == null) {
                from = cache.ipv4(Ipv4Header.source(data, start));
            }
            if (to == null) {
                to = cache.ipv4(Ipv4Header.destination(data, start));
            }
            start += ihl;
        }
        if (from == null) {
            stats.malformed++;
            return;
        }
        if (to == null) {
            to = wildcard;
        }
        if (!local.isEmpty() && !local.contains(to)) {
            stats.notLocal++;
            return;
        }
        ByteBuffer view = views[i];
        view.limit(end).position(start);
        sink.packet(view, from, to);
    }

    /** The sender's address from msg_name, or null if the kernel gave none of our family. */
    private InetAddress source(int i) {
        int h = i * Native.MMSGHDR_SIZE;
        int nameLength = headers.getInt(h + Native.MSG_NAMELEN);
        int at = i * Native.SOCKADDR_IN6_SIZE;
        int family = names.getShort(at) & 0xffff;
        if (ipv6) {
            if (family != Native.AF_INET6 || nameLength < Native.SOCKADDR_IN6_SIZE) {
                return null;
            }
            return cache.ipv6(names, at + 8, names.getInt(at + 24));
        }
        if (family != Native.AF_INET || nameLength < 8) {
            return null;
        }
        return cache.ipv4(bigEndianInt(names, at + 4));
    }

    /** Our address the packet was sent to, from the pktinfo control message, or null. */
    private InetAddress destination(int i, int controlLength) {
        int base = i * CONTROL_SPACE;
        int at = 0;
        while (at + Native.CMSG_HEADER <= controlLength) {
            long len = controls.getLong(base + at);
            if (len < Native.CMSG_HEADER || at + len > controlLength) {
                return null;
            }
            int level = controls.getInt(base + at + 8);
            int type = controls.getInt(base + at + 12);
            int payload = base + at + Native.CMSG_HEADER;
            if (!ipv6
                    && level == Native.IPPROTO_IP
                    && type == Native.IP_PKTINFO
                    && len >= Native.CMSG_HEADER + Native.IN_PKTINFO_SIZE) {
                return cache.ipv4(bigEndianInt(controls, payload + 8)); // ipi_addr: the header's destination
            }
            if (ipv6
                    && level == Native.IPPROTO_IPV6
                    && type == Native.IPV6_PKTINFO
                    && len >= Native.CMSG_HEADER + Native.IN6_PKTINFO_SIZE) {
                return cache.ipv6(controls, payload, controls.getInt(payload + 16));
            }
            at += Native.cmsgAlign((int) len);
        }
        return null;
    }

    private static int bigEndianInt(ByteBuffer b, int at) {
        return ((b.get(at) & 0xff) << 24)
                | ((b.get(at + 1) & 0xff) << 16)
                | ((b.get(at + 2) & 0xff) << 8)
                | (b.get(at + 3) & 0xff);
    }

    // ---------------------------------------------------------------- send

    /**
     * Sends one SCTP packet to {@code destination}; the kernel builds the IP header. A specific
     * {@code source} is set with an IP_PKTINFO / IPV6_PKTINFO control message.
     */
    void send(ByteBuffer sctp, InetAddress source, InetAddress destination) throws IOException {
        int length = sctp.remaining();
        if (length > SLOT_SIZE) {
            stats.tooBig++;
            return;
        }
        sendData.put(0, sctp, sctp.position(), length);
        sendIov.putLong(8, length);
        byte[] dst = destination.getAddress();
        if (ipv6) {
            sendName.putShort(0, (short) Native.AF_INET6);
            sendName.putShort(2, (short) 0);
            sendName.putInt(4, 0);
            sendName.put(8, dst);
            sendName.putInt(24, ((Inet6Address) destination).getScopeId());
            sendHeader.putInt(Native.MSG_NAMELEN, Native.SOCKADDR_IN6_SIZE);
        } else {
            sendName.putShort(0, (short) Native.AF_INET);
            sendName.putShort(2, (short) 0);
            sendName.put(4, dst);
            sendName.putLong(8, 0);
            sendHeader.putInt(Native.MSG_NAMELEN, Native.SOCKADDR_IN_SIZE);
        }
        if (source != null && !source.isAnyLocalAddress()) {
            byte[] src = source.getAddress();
            int space;
            if (ipv6) {
                space = Native.cmsgSpace(Native.IN6_PKTINFO_SIZE);
                sendControl.putLong(0, Native.CMSG_HEADER + Native.IN6_PKTINFO_SIZE);
                sendControl.putInt(8, Native.IPPROTO_IPV6);
                sendControl.putInt(12, Native.IPV6_PKTINFO);
                sendControl.put(16, src);
                sendControl.putInt(32, source instanceof Inet6Address s6 ? s6.getScopeId() : 0);
            } else {
                space = Native.cmsgSpace(Native.IN_PKTINFO_SIZE);
                sendControl.putLong(0, Native.CMSG_HEADER + Native.IN_PKTINFO_SIZE);
                sendControl.putInt(8, Native.IPPROTO_IP);
                sendControl.putInt(12, Native.IP_PKTINFO);
                sendControl.putInt(16, 0); // ipi_ifindex: let routing choose
                sendControl.put(20, src); // ipi_spec_dst: the source address
                sendControl.putInt(24, 0);
            }
            sendHeader.putLong(Native.MSG_CONTROL, sendControlAddress);
            sendHeader.putLong(Native.MSG_CONTROLLEN, space);
        } else {
            sendHeader.putLong(Native.MSG_CONTROL, 0);
            sendHeader.putLong(Native.MSG_CONTROLLEN, 0);
        }
        sendHeader.putInt(Native.MSG_FLAGS, 0);
        for (int attempt = 0; ; attempt++) {
            long r = libc.sendmsg(fd, sendHeaderPtr, Native.MSG_DONTWAIT);
            if (r >= 0) {
                stats.sent++;
                return;
            }
            int errno = Native.errno();
            if (errno == Native.EINTR && attempt < 3) {
                continue;
            }
            if (errno == Native.EAGAIN || errno == Native.ENOBUFS || errno == Native.EINTR) {
                stats.sendDropped++; // as IP would drop it; SCTP retransmits
                return;
            }
            if (errno == Native.EMSGSIZE) {
                stats.tooBig++;
                return;
            }
            if (errno == Native.EPERM) {
                // An open raw socket gets EPERM from sendmsg only when a netfilter rule (nftables,
                // iptables) drops the packet on output: a drop on the way, as on a dead link.
                stats.filtered++;
                return;
            }
            if (errno == Native.EINVAL || errno == Native.EADDRNOTAVAIL) {
                throw new IOException("cannot send from " + source + " to " + destination + ": "
                        + Native.describe(errno) + " (is the source one of this host's addresses?)");
            }
            throw new IOException("cannot send " + (source == null ? "" : "from " + source + " ") + "to " + destination
                    + ": " + Native.describe(errno));
        }
    }

    /** Closes the socket. */
    void close() {
        libc.close(fd);
    }
}
