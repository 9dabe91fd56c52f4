package org.sctpj.llp.raw;

import static org.sctpj.nativeio.Layout.*;
import static org.sctpj.nativeio.Linux.*;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.Optional;
import java.util.Set;
import jnr.ffi.Pointer;
import org.sctpj.nativeio.ErrorQueue;
import org.sctpj.nativeio.LibC;
import org.sctpj.nativeio.MmsgArray;
import org.sctpj.nativeio.Native;
import org.sctpj.nativeio.SockAddr;
import org.sctpj.nativeio.SocketFilter;
import org.sctpj.stack.icmp.IcmpReport;
import org.sctpj.stack.llp.LowerLayer.PacketSink;

/**
 * One non-blocking raw socket of one address family for IP protocol 132, with the native
 * structures for receiving a batch of packets (recvmmsg) and for sending a batch (sendmmsg),
 * allocated once. {@link #send} holds each packet (copied into a direct region, with its own
 * mmsghdr, destination and control messages) until {@link #flush}, which hands them all to the
 * kernel in one sendmmsg; a batch of one sends at once with sendmsg. Used by {@link RawIpLowerLayer}
 * on its owner thread.
 */
final class RawSocket {
    /** The IPv6 minimum link MTU (RFC 8200 section 5): every IPv6 path carries packets this long. */
    static final int IPV6_MIN_MTU = 1280;
    /** IPv6 header (RFC 8200 section 3). */
    private static final int IPV6_HEADER = 40;
    /** Fragment header (RFC 8200 section 4.5). */
    private static final int FRAGMENT_HEADER = 8;
    /**
     * SCTP bytes per fragment: what fits in {@link #IPV6_MIN_MTU} after the IPv6 and Fragment
     * headers, a multiple of 8 as every fragment but the last must be (RFC 8200 section 4.5).
     */
    static final int FRAGMENT_DATA = (IPV6_MIN_MTU - IPV6_HEADER - FRAGMENT_HEADER) & ~7;
    /** IP protocol number of the IPv6 Fragment header. */
    private static final int IPPROTO_FRAGMENT = 44;

    /** Largest IPv4 packet, header included; also above any IPv6 payload without jumbograms. */
    static final int SLOT_SIZE = 65_536;

    /** Per slot: the pktinfo control message, the SO_RXQ_OVFL drop count and (IPv6) the traffic class. */
    private static final int CONTROL_SPACE = 96;
    /** Error queue entries read per call at most (a flood waits its turn). */
    private static final int MAX_ERRORS_PER_CALL = 16;
    /** Bytes of held packets at most: 256 KiB, at least one packet of {@link #SLOT_SIZE}. */
    static final int SEND_REGION_BYTES = 256 * 1024;
    /** Per held packet: a pktinfo control message (the source), then an IP_TOS / IPV6_TCLASS one (ECN). */
    private static final int SEND_CONTROL_SPACE = cmsgSpace(IN6_PKTINFO_SIZE) + cmsgSpace(4);

    private final LibC libc;
    private final boolean ipv6;
    private final int fd;
    private final int batch;
    private final Stats stats;
    private final AddressCache cache = new AddressCache();
    private final InetAddress wildcard;

    // receive side: batch slots
    private final MmsgArray recv; // owns the buffers below: the headers point into them
    private final ByteBuffer headers; // mmsghdr[batch], native order
    private final Pointer headersPtr;
    private final ByteBuffer names; // sockaddr_in6-sized slots
    private final ByteBuffer controls;
    private final ByteBuffer data; // big-endian, handed to the sink through the views
    private final ByteBuffer[] views;

    // send side: up to sendBatch held packets, sent by flush()
    private final int sendBatch;
    private final MmsgArray out; // owns the buffers below but sendData
    private final ByteBuffer sendHeaders;
    private final Pointer[] sendHeaderPtr;
    private final ByteBuffer sendNames;
    private final ByteBuffer sendControls;
    private final ByteBuffer sendIovs;
    private final ByteBuffer sendData;
    private final long sendDataAddress;
    private final InetAddress[] heldSource;
    private final InetAddress[] heldDestination;
    private int heldCount;
    private int heldBytes;
    // the last destination and source encoded (identity): a burst goes to one peer from one address
    private InetAddress lastDestination;
    private final byte[] lastName = new byte[SOCKADDR_IN6_SIZE];
    private int lastNameLength;
    private InetAddress lastSource;
    private byte[] lastSourceBytes;

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

        /** IPv6 packets sent as fragments cut here. */
        long fragmented;

        long icmpErrors;
        long icmpReported;
    }

    /** The kernel's count of packets it dropped for this socket (SO_RXQ_OVFL), last seen. */
    private long kernelDropped;
    /** SO_RCVBUF as the kernel set it (it doubles the request for its bookkeeping). */
    private int receiveBuffer;

    private final ErrorQueue errors;
    private boolean recverr;
    private boolean probing;

    /**
     * IPv6 only, while probing: a raw socket for IP protocol 44 (the Fragment header, RFC 8200
     * section 4.5), through which {@link #sendFragments} sends the fragments it cuts; -1 when
     * none. The kernel builds the IPv6 header (source, Traffic Class) as for the main socket.
     */
    private int fragmentFd = -1;
    /** The Identification of the last packet fragmented here (RFC 8200 section 4.5). */
    private int fragmentId;
    /** One fragment being built: its Fragment header and data (RFC 8200 section 4.5). */
    private final ByteBuffer fragment = ByteBuffer.allocate(FRAGMENT_HEADER + FRAGMENT_DATA);

    private RawSocket(boolean ipv6, int fd, int batch, int sendBatch, Stats stats) throws IOException {
        this.libc = Native.libc();
        this.ipv6 = ipv6;
        this.fd = fd;
        this.batch = batch;
        this.stats = stats;
        this.wildcard = InetAddress.getByAddress(new byte[ipv6 ? 16 : 4]);
        this.errors = new ErrorQueue(64);

        recv = new MmsgArray(batch, CONTROL_SPACE, SLOT_SIZE);
        headers = recv.headers;
        headersPtr = recv.headerPointer(0);
        names = recv.names;
        controls = recv.controls;
        data = recv.data;
        views = new ByteBuffer[batch];
        for (int i = 0; i < batch; i++) {
            views[i] = data.duplicate();
        }

        this.sendBatch = sendBatch;
        out = new MmsgArray(sendBatch, SEND_CONTROL_SPACE, 0);
        sendHeaders = out.headers;
        sendHeaderPtr = new Pointer[sendBatch];
        for (int i = 0; i < sendBatch; i++) {
            sendHeaderPtr[i] = out.headerPointer(i);
        }
        sendNames = out.names;
        sendControls = out.controls;
        sendIovs = out.iovs;
        sendData = ByteBuffer.allocateDirect(sendBatch == 1 ? SLOT_SIZE : SEND_REGION_BYTES);
        sendDataAddress = Native.address(sendData);
        heldSource = new InetAddress[sendBatch];
        heldDestination = new InetAddress[sendBatch];
    }

    /**
     * Opens a raw socket of the family for protocol 132, non-blocking, with destination address
     * recovery (IP_PKTINFO or IPV6_RECVPKTINFO) switched on.
     *
     * @param receiveBufferBytes SO_RCVBUF to ask for, 0 for the kernel's default
     * @param sendBatch packets held for one sendmmsg at most (1: each is sent at once)
     * @throws RawSocketPermissionException without CAP_NET_RAW
     */
    static RawSocket open(boolean ipv6, int batch, int sendBatch, int receiveBufferBytes, Stats stats)
            throws IOException {
        LibC c = libc();
        String family = ipv6 ? "IPv6" : "IPv4";
        int fd = c.socket(ipv6 ? AF_INET6 : AF_INET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_SCTP);
        if (fd < 0) {
            throw socketError(Native.errno(), family);
        }
        try {
            String what = "a raw socket";
            if (ipv6) {
                // No IPV6_V6ONLY: Linux refuses it on raw sockets, which never see IPv4 anyway.
                Native.setIntOption(fd, IPPROTO_IPV6, IPV6_RECVPKTINFO, 1, "IPV6_RECVPKTINFO", what);
                // The traffic class (ECN bits) of each packet; IPv4 raw sockets see the header.
                Native.trySetIntOption(fd, IPPROTO_IPV6, IPV6_RECVTCLASS, 1);
            } else {
                Native.setIntOption(fd, IPPROTO_IP, IP_PKTINFO, 1, "IP_PKTINFO", what);
            }
            if (receiveBufferBytes > 0 && !Native.trySetIntOption(fd, SOL_SOCKET, SO_RCVBUFFORCE, receiveBufferBytes)) {
                // without CAP_NET_ADMIN: SO_RCVBUF, which the kernel caps at net.core.rmem_max
                Native.setIntOption(fd, SOL_SOCKET, SO_RCVBUF, receiveBufferBytes, "SO_RCVBUF", what);
            }
            // The kernel's drop count with each packet once it is not 0; ICMP errors about our
            // packets on the error queue (RFC 9260 appendix C).
            Native.trySetIntOption(fd, SOL_SOCKET, SO_RXQ_OVFL, 1);
            boolean recverr = ipv6
                    ? Native.trySetIntOption(fd, IPPROTO_IPV6, IPV6_RECVERR, 1)
                    : Native.trySetIntOption(fd, IPPROTO_IP, IP_RECVERR, 1);
            RawSocket s = new RawSocket(ipv6, fd, batch, sendBatch, stats);
            s.recverr = recverr;
            s.receiveBuffer = Native.getIntOption(fd, SOL_SOCKET, SO_RCVBUF);
            return s;
        } catch (IOException | RuntimeException e) {
            c.close(fd);
            throw e;
        }
    }

    /**
     * The bound C library, or an exception that says the raw lower layer cannot work here and
     * points to UDP encapsulation.
     */
    static LibC libc() throws IOException {
        try {
            return Native.libc();
        } catch (IOException e) {
            throw new IOException(
                    "raw SCTP sockets cannot be used: " + e.getMessage() + ". Use the llp-udp-encap lower layer.", e);
        }
    }

    /**
     * The exception for a failed {@code socket(AF_INET[6], SOCK_RAW, 132)}: without CAP_NET_RAW it
     * says so and points to UDP encapsulation.
     */
    static IOException socketError(int errno, String family) {
        if (errno == EPERM || errno == EACCES) {
            return new RawSocketPermissionException(permissionMessage(family, Native.describe(errno)));
        }
        if (errno == EAFNOSUPPORT || errno == EPROTONOSUPPORT) {
            return new FamilyUnsupportedException("the kernel offers no raw " + family + " sockets for protocol 132: "
                    + Native.describe(errno) + ". Use the other address family or the llp-udp-encap lower layer.");
        }
        return new IOException(
                "cannot open a raw " + family + " socket for SCTP (protocol 132): " + Native.describe(errno));
    }

    /** socket() failed because the kernel lacks the address family (e.g. IPv6 disabled). */
    static final class FamilyUnsupportedException extends IOException {
        private static final long serialVersionUID = 1L;

        FamilyUnsupportedException(String message) {
            super(message);
        }
    }

    /** The message of {@link RawSocketPermissionException}. */
    static String permissionMessage(String family, String cause) {
        return "cannot open a raw " + family + " socket for SCTP (protocol 132): " + cause
                + ". Raw SCTP needs CAP_NET_RAW: run as root, or grant the capability to the JVM"
                + " (setcap cap_net_raw+ep on the java binary, or AmbientCapabilities=CAP_NET_RAW in a"
                + " systemd unit). Without privileges, use UDP encapsulation (RFC 6951): the llp-udp-encap"
                + " lower layer.";
    }

    /** The file descriptor. */
    int fd() {
        return fd;
    }

    /**
     * Lets the kernel queue only the packets to {@code local} on this socket (a BPF socket filter,
     * {@link SocketFilter}), or removes the filter when one of them is this family's wildcard or
     * there are more than a filter holds. Returns whether a filter is attached now. On a refusal
     * the filter is removed: user space still checks every packet.
     */
    boolean filterDestinations(Set<InetAddress> local) {
        int mine = 0;
        boolean any = false;
        for (InetAddress a : local) {
            if ((a instanceof Inet6Address) == ipv6) {
                mine++;
                any |= a.isAnyLocalAddress();
            }
        }
        try {
            if (any || mine > SocketFilter.MAX_ADDRESSES) {
                SocketFilter.detach(fd);
                return false;
            }
            SocketFilter.acceptDestinations(fd, ipv6, local);
            return true;
        } catch (IOException | RuntimeException e) {
            try {
                SocketFilter.detach(fd);
            } catch (IOException ignored) {
                // the library bound when the socket was opened: detach cannot fail to bind
            }
            return false;
        }
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
        recv.prepareReceive(count);
        int n;
        if (count == 1) {
            long r = libc.recvmsg(fd, headersPtr, MSG_DONTWAIT);
            if (r >= 0) {
                headers.putInt(MMSG_LEN, (int) r);
            }
            n = r < 0 ? -1 : 1;
        } else {
            n = libc.recvmmsg(fd, headersPtr, count, MSG_DONTWAIT, null);
        }
        if (n < 0) {
            int errno = Native.errno();
            if (errno == EAGAIN || errno == EINTR) {
                return 0;
            }
            // The pending error of an ICMP about a packet we sent: its details on the error queue.
            if (readErrors(sink) > 0 || isIcmpErrno(errno)) {
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
        int h = i * MMSGHDR_SIZE;
        int length = headers.getInt(h + MMSG_LEN);
        int flags = headers.getInt(h + MSG_FLAGS);
        stats.received++;
        if ((flags & MSG_TRUNC) != 0 || length > SLOT_SIZE) {
            stats.truncated++;
            return;
        }
        int start = i * SLOT_SIZE;
        int end = start + length;
        InetAddress from = source(i);
        int controlLength = (int) Math.min(headers.getLong(h + MSG_CONTROLLEN), CONTROL_SPACE);
        InetAddress to = destination(i, controlLength);
        int drops = findControl(controls, i * CONTROL_SPACE, controlLength, SOL_SOCKET, SO_RXQ_OVFL, 4);
        if (drops >= 0) {
            kernelDropped = Math.max(kernelDropped, controls.getInt(drops) & 0xffff_ffffL);
        }
        int ecn = 0;
        if (ipv6) {
            int tc = findControl(controls, i * CONTROL_SPACE, controlLength, IPPROTO_IPV6, IPV6_TCLASS, 4);
            if (tc >= 0) {
                ecn = controls.getInt(tc) & 3;
            }
        } else {
            int ihl = Ipv4Header.headerLength(data, start, length);
            if (ihl < 0) {
                stats.malformed++;
                return;
            }
            ecn = data.get(start + 1) & 3; // the ECN field of the TOS octet (RFC 3168 section 5)
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
        sink.packet(view, from, to, ecn);
    }

    /**
     * Reads the error queue (IP_RECVERR / IPV6_RECVERR, at most {@value #MAX_ERRORS_PER_CALL}
     * entries) and hands each ICMP error that quoted at least our SCTP common header to the sink
     * as an {@link IcmpReport} (RFC 9260 appendix C). The stack thread calls it when ppoll reports
     * an error on the socket, and {@link #receive} when the pending error surfaces.
     *
     * @return the entries read
     */
    int readErrors(PacketSink sink) {
        if (!recverr) {
            return 0;
        }
        int n = 0;
        while (n < MAX_ERRORS_PER_CALL && errors.read(fd)) {
            n++;
            stats.icmpErrors++;
            if (!errors.isIcmp() || errors.target == null) {
                continue;
            }
            Optional<IcmpReport> r = IcmpReport.fromQuoted(
                    errors.origin == SO_EE_ORIGIN_ICMP6,
                    errors.type,
                    errors.code,
                    errors.info,
                    false,
                    null,
                    errors.target.getAddress(),
                    errors.quoted());
            if (r.isPresent()) {
                stats.icmpReported++;
                sink.icmp(r.get());
            }
        }
        return n;
    }

    /** The kernel's count of packets dropped on this socket (a full receive buffer), last seen. */
    long kernelDropped() {
        return kernelDropped;
    }

    /** SO_RCVBUF as the kernel set it (twice the bytes asked for, within its limits). */
    int receiveBuffer() {
        return receiveBuffer;
    }

    /** The sender's address from msg_name, or null if the kernel gave none of our family. */
    private InetAddress source(int i) {
        int h = i * MMSGHDR_SIZE;
        int nameLength = headers.getInt(h + MSG_NAMELEN);
        int at = i * SOCKADDR_IN6_SIZE;
        int family = names.getShort(at + SA_FAMILY) & 0xffff;
        if (ipv6) {
            if (family != AF_INET6 || nameLength < SOCKADDR_IN6_SIZE) {
                return null;
            }
            return cache.ipv6(names, at + SIN6_ADDR, names.getInt(at + SIN6_SCOPE_ID));
        }
        if (family != AF_INET || nameLength < SIN_ADDR + 4) {
            return null;
        }
        return cache.ipv4(bigEndianInt(names, at + SIN_ADDR));
    }

    /** Our address the packet was sent to, from the pktinfo control message, or null. */
    private InetAddress destination(int i, int controlLength) {
        int base = i * CONTROL_SPACE;
        if (ipv6) {
            int at = findControl(controls, base, controlLength, IPPROTO_IPV6, IPV6_PKTINFO, IN6_PKTINFO_SIZE);
            return at < 0 ? null : cache.ipv6(controls, at + IPI6_ADDR, controls.getInt(at + IPI6_IFINDEX));
        }
        int at = findControl(controls, base, controlLength, IPPROTO_IP, IP_PKTINFO, IN_PKTINFO_SIZE);
        return at < 0 ? null : cache.ipv4(bigEndianInt(controls, at + IPI_ADDR)); // the header's destination
    }

    private static int bigEndianInt(ByteBuffer b, int at) {
        return ((b.get(at) & 0xff) << 24)
                | ((b.get(at + 1) & 0xff) << 16)
                | ((b.get(at + 2) & 0xff) << 8)
                | (b.get(at + 3) & 0xff);
    }

    // ---------------------------------------------------------------- send

    /**
     * DF on every packet, no local fragmentation ({@code PMTUDISC_PROBE}), for path MTU probes
     * (RFC 8899 section 3); off: the kernel's default. On an IPv6 socket this also opens the
     * socket {@link #sendFragments} sends fragments through.
     */
    void pathMtuProbing(boolean on) throws IOException {
        probing = on;
        if (on) {
            setDiscovery(IP_PMTUDISC_PROBE);
            if (ipv6 && fragmentFd < 0) {
                fragmentFd = openFragmentSocket();
                fragmentId = new SecureRandom().nextInt(); // unpredictable (RFC 7739 section 5)
            }
        }
    }

    /**
     * A raw IPv6 socket for protocol 44, sending only: PMTUDISC_PROBE (the kernel never fragments
     * the fragments again) and the smallest receive buffer, as it also gets a copy of each
     * fragment that arrives, which nobody reads.
     */
    private int openFragmentSocket() throws IOException {
        int f = libc.socket(AF_INET6, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_FRAGMENT);
        if (f < 0) {
            throw new IOException("cannot open a raw IPv6 socket for the Fragment header (protocol 44): "
                    + Native.describe(Native.errno()));
        }
        try {
            String what = "the raw IPv6 socket for fragments";
            Native.setIntOption(f, IPPROTO_IPV6, IPV6_MTU_DISCOVER, IPV6_PMTUDISC_PROBE, "IPV6_MTU_DISCOVER", what);
            Native.setIntOption(f, SOL_SOCKET, SO_RCVBUF, 1, "SO_RCVBUF", what); // the kernel's minimum
            return f;
        } catch (IOException | RuntimeException e) {
            libc.close(f);
            throw e;
        }
    }

    private void setDiscovery(int mode) throws IOException {
        Native.setIntOption(
                fd,
                ipv6 ? IPPROTO_IPV6 : IPPROTO_IP,
                ipv6 ? IPV6_MTU_DISCOVER : IP_MTU_DISCOVER,
                mode,
                ipv6 ? "IPV6_MTU_DISCOVER" : "IP_MTU_DISCOVER",
                "a raw socket");
    }

    /**
     * As {@link #send(ByteBuffer, InetAddress, InetAddress, int)}, for a {@code fragmentable}
     * packet when the socket probes. IPv4: DF clear (PMTUDISC_DONT for this one packet: what was
     * held before it is flushed first, and it is flushed alone), so that the kernel or a router on
     * the way fragments it. IPv6: a packet longer than {@link #IPV6_MIN_MTU} is fragmented here
     * ({@link #sendFragments}), since IPv6 routers never fragment (RFC 8200 section 5) and the
     * kernel fragments only above the path MTU it knows, which a black hole (no Packet Too Big)
     * leaves at the link's.
     */
    void send(ByteBuffer sctp, InetAddress source, InetAddress destination, int ecn, boolean fragmentable)
            throws IOException {
        if (!probing || !fragmentable) {
            send(sctp, source, destination, ecn);
            return;
        }
        if (ipv6) {
            if (IPV6_HEADER + sctp.remaining() > IPV6_MIN_MTU) {
                sendFragments(sctp, source, destination, ecn);
            } else {
                send(sctp, source, destination, ecn);
            }
            return;
        }
        flush();
        setDiscovery(IP_PMTUDISC_DONT);
        try {
            send(sctp, source, destination, ecn);
            flush();
        } finally {
            setDiscovery(IP_PMTUDISC_PROBE);
        }
    }

    /**
     * Sends one SCTP packet over IPv6 as fragments of at most {@link #IPV6_MIN_MTU} bytes, each a
     * Fragment header (RFC 8200 section 4.5: next header SCTP, offset in 8-octet units, M flag,
     * one Identification for all) and {@link #FRAGMENT_DATA} bytes of the packet, the last fewer;
     * the destination reassembles them. What was held before goes first, on the main socket; each
     * fragment is then held alone and flushed through the fragment socket.
     */
    private void sendFragments(ByteBuffer sctp, InetAddress source, InetAddress destination, int ecn)
            throws IOException {
        int length = sctp.remaining();
        if (length > SLOT_SIZE - FRAGMENT_HEADER) {
            stats.tooBig++;
            return;
        }
        flush();
        int id = ++fragmentId;
        for (int offset = 0; offset < length; offset += FRAGMENT_DATA) {
            int part = Math.min(FRAGMENT_DATA, length - offset);
            boolean more = offset + part < length;
            fragment.clear();
            fragment.put((byte) IPPROTO_SCTP); // Next Header
            fragment.put((byte) 0); // Reserved
            fragment.putShort((short) (offset | (more ? 1 : 0))); // offset/8 in the top 13 bits; M
            fragment.putInt(id);
            fragment.put(FRAGMENT_HEADER, sctp, sctp.position() + offset, part);
            fragment.position(FRAGMENT_HEADER + part).flip();
            hold(fragment, source, destination, ecn);
            flushTo(fragmentFd);
        }
        stats.fragmented++;
    }

    /**
     * Holds one SCTP packet for {@code destination} until {@link #flush} (at once with a send
     * batch of one; first flushing what is held when the batch or the region is full); the kernel
     * builds the IP header. A specific {@code source} is set with an IP_PKTINFO / IPV6_PKTINFO
     * control message, the ECN codepoint with IP_TOS / IPV6_TCLASS.
     */
    void send(ByteBuffer sctp, InetAddress source, InetAddress destination, int ecn) throws IOException {
        hold(sctp, source, destination, ecn);
        if (sendBatch == 1) {
            flush();
        }
    }

    /** Holds one SCTP packet for the next flush, first flushing what is held when the batch or the region is full. */
    private void hold(ByteBuffer sctp, InetAddress source, InetAddress destination, int ecn) throws IOException {
        int length = sctp.remaining();
        if (length > SLOT_SIZE) {
            stats.tooBig++;
            return;
        }
        if (heldCount == sendBatch || heldBytes + length > sendData.capacity()) {
            flush();
        }
        int i = heldCount;
        sendData.put(heldBytes, sctp, sctp.position(), length);
        sendIovs.putLong(i * IOVEC_SIZE + IOV_BASE, sendDataAddress + heldBytes);
        sendIovs.putLong(i * IOVEC_SIZE + IOV_LEN, length);
        if (destination != lastDestination) {
            lastNameLength = SockAddr.encode(lastName, ipv6, destination, 0); // port 0: raw
            lastDestination = destination;
        }
        int h = i * MMSGHDR_SIZE;
        sendNames.put(i * SOCKADDR_IN6_SIZE, lastName, 0, lastNameLength);
        sendHeaders.putInt(h + MSG_NAMELEN, lastNameLength);
        int base = i * SEND_CONTROL_SPACE;
        int control = 0;
        if (source != null && !source.isAnyLocalAddress()) {
            if (source != lastSource) {
                lastSourceBytes = source.getAddress();
                lastSource = source;
            }
            int d = base + CMSG_HEADER;
            if (ipv6) {
                putControlHeader(sendControls, base, IPPROTO_IPV6, IPV6_PKTINFO, IN6_PKTINFO_SIZE);
                sendControls.put(d + IPI6_ADDR, lastSourceBytes);
                sendControls.putInt(d + IPI6_IFINDEX, source instanceof Inet6Address s6 ? s6.getScopeId() : 0);
                control = cmsgSpace(IN6_PKTINFO_SIZE);
            } else {
                putControlHeader(sendControls, base, IPPROTO_IP, IP_PKTINFO, IN_PKTINFO_SIZE);
                sendControls.putInt(d + IPI_IFINDEX, 0); // let routing choose
                sendControls.put(d + IPI_SPEC_DST, lastSourceBytes); // the source address
                sendControls.putInt(d + IPI_ADDR, 0);
                control = cmsgSpace(IN_PKTINFO_SIZE);
            }
        }
        if (ecn != 0) {
            // RFC 3168: the ECN field of this packet's TOS / Traffic Class (RFC 9260 appendix A).
            int at = base + control;
            putControlHeader(sendControls, at, ipv6 ? IPPROTO_IPV6 : IPPROTO_IP, ipv6 ? IPV6_TCLASS : IP_TOS, 4);
            sendControls.putInt(at + CMSG_HEADER, ecn);
            control += cmsgSpace(4);
        }
        sendHeaders.putLong(h + MSG_CONTROL, control == 0 ? 0 : out.controlAddress(i));
        sendHeaders.putLong(h + MSG_CONTROLLEN, control);
        sendHeaders.putInt(h + MSG_FLAGS, 0);
        heldSource[i] = source;
        heldDestination[i] = destination;
        heldCount++;
        heldBytes += length;
    }

    /** Whether packets are held for the next {@link #flush}. */
    boolean holds() {
        return heldCount > 0;
    }

    /**
     * Sends every held packet: one sendmmsg (sendmsg for one packet), again after a packet the
     * kernel refused. What the socket cannot take now (EAGAIN, ENOBUFS) is dropped, as IP would;
     * a packet too big (EMSGSIZE) or dropped by a local firewall rule (EPERM) is counted and
     * dropped; any other error is thrown once the rest was sent.
     *
     * @throws IOException on a permanent error (no route, a source not of this host)
     */
    void flush() throws IOException {
        flushTo(fd);
    }

    /** As {@link #flush}, through {@code socket} (the main one, or the IPv6 fragment socket). */
    private void flushTo(int socket) throws IOException {
        int n = heldCount;
        if (n == 0) {
            return;
        }
        IOException failure = null;
        try {
            int at = 0;
            int interrupted = 0;
            while (at < n) {
                int r = n - at == 1
                        ? (libc.sendmsg(socket, sendHeaderPtr[at], MSG_DONTWAIT) >= 0 ? 1 : -1)
                        : libc.sendmmsg(socket, sendHeaderPtr[at], n - at, MSG_DONTWAIT);
                if (r > 0) {
                    stats.sent += r;
                    at += r;
                    continue;
                }
                int errno = r == 0 ? EAGAIN : Native.errno(); // none sent without an error: as full
                if (errno == EINTR && interrupted++ < 3) {
                    continue;
                }
                if (errno == EAGAIN || errno == ENOBUFS || errno == EINTR) {
                    stats.sendDropped += n - at; // as IP would drop them; SCTP retransmits
                    break;
                }
                if (errno == EMSGSIZE) {
                    stats.tooBig++;
                } else if (errno == EPERM) {
                    // An open raw socket gets EPERM from sendmsg only when a netfilter rule (nftables,
                    // iptables) drops the packet on output: a drop on the way, as on a dead link.
                    stats.filtered++;
                } else if (failure == null) {
                    failure = sendError(errno, heldSource[at], heldDestination[at]);
                }
                at++;
            }
        } finally {
            for (int i = 0; i < n; i++) {
                heldSource[i] = null;
                heldDestination[i] = null;
            }
            heldCount = 0;
            heldBytes = 0;
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static IOException sendError(int errno, InetAddress source, InetAddress destination) {
        if (errno == EINVAL || errno == EADDRNOTAVAIL) {
            return new IOException("cannot send from " + source + " to " + destination + ": " + Native.describe(errno)
                    + " (is the source one of this host's addresses?)");
        }
        return new IOException("cannot send " + (source == null ? "" : "from " + source + " ") + "to " + destination
                + ": " + Native.describe(errno));
    }

    /** Closes the socket. */
    void close() {
        libc.close(fd);
        if (fragmentFd >= 0) {
            libc.close(fragmentFd);
        }
    }
}
