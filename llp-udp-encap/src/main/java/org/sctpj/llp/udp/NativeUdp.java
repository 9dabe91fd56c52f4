package org.sctpj.llp.udp;

import static org.sctpj.nativeio.Layout.*;
import static org.sctpj.nativeio.Linux.*;

import java.io.IOException;
import java.lang.ref.Reference;
import java.net.BindException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import jnr.ffi.Pointer;
import org.sctpj.nativeio.ErrorQueue;
import org.sctpj.nativeio.LibC;
import org.sctpj.nativeio.MmsgArray;
import org.sctpj.nativeio.Native;
import org.sctpj.nativeio.Poller;
import org.sctpj.nativeio.SockAddr;
import org.sctpj.stack.icmp.IcmpReport;

/**
 * The native Linux path of {@link UdpEncapsulation}: non-blocking UDP sockets of its own, reached
 * through the libc binding shared with llp-raw ({@code org.sctpj.nativeio}, JNR-FFI), so that a
 * burst of packets costs few system calls.
 *
 * <ul>
 *   <li>Send: {@link #send} only copies the packet into one pre-allocated direct region and notes
 *       its socket and target. {@link #flush} groups what was held: consecutive packets to the
 *       same target through the same socket, all of one size but the last (which may be shorter),
 *       at most {@value org.sctpj.nativeio.Linux#UDP_MAX_SEGMENTS} and {@value #MAX_GSO_BYTES} bytes, go as one
 *       datagram train with a UDP_SEGMENT control message (UDP GSO: the kernel cuts it into
 *       datagrams). The groups of one socket go in one {@code sendmmsg}. A socket whose GSO send
 *       fails with EIO or EINVAL (a device that cannot do it, for example without checksum
 *       offload) sends that group again one datagram at a time, and sends every later group that
 *       way too (logged once).
 *   <li>Receive: {@code recvmmsg} of up to a batch of datagrams per call into pre-allocated slots.
 *       With UDP GRO on, the kernel may hand over several datagrams of one sender coalesced in one
 *       slot, with their segment size in a UDP_GRO control message: they are split back into
 *       packets. What is left when the caller's bound is reached is handed over on the next call.
 *   <li>Wait: {@code ppoll} on the sockets and an eventfd that {@link #wakeup} writes to; held
 *       packets are sent first.
 * </ul>
 *
 * <p>Threads: the stack thread makes every call but {@link #wakeup}. Memory: everything is
 * allocated when the sockets open; per packet nothing is, while the peers' addresses and ports
 * stay the same (decoded and encoded socket addresses are cached).
 */
final class NativeUdp {

    private static final System.Logger LOG = System.getLogger(NativeUdp.class.getName());

    /** Most bytes of SCTP packets in one GSO send: below the 65,535-byte IP payload bound. */
    static final int MAX_GSO_BYTES = 65_000;
    /** Packets held between flushes at most. */
    static final int MAX_HELD = 64;
    /** The direct region held packets are copied into. */
    static final int SEND_REGION_BYTES = 256 * 1024;
    /** Receive slots, each of {@link UdpConfig#maxDatagramBytes()}, at most. */
    static final int MAX_RECEIVE_SLOTS = 64;

    /** Per receive slot: the UDP_GRO segment size and the IP_TOS / IPV6_TCLASS of the datagram. */
    private static final int RECEIVE_CONTROL_SPACE = 96;
    /** Bytes of a quoted SCTP packet kept from an ICMP error: the common header, an INIT's tag. */
    private static final int QUOTED_BYTES = 64;
    /** Error queue entries read per socket and receive call at most (a flood waits its turn). */
    private static final int MAX_ERRORS_PER_CALL = 16;

    /** Per send entry: a UDP_SEGMENT control message, then an IP_TOS / IPV6_TCLASS one (ECN). */
    private static final int SEND_CONTROL_SPACE = cmsgSpace(2) + cmsgSpace(4);

    private static final int CACHE = 8;

    private static volatile String unavailable;

    private final LibC libc;
    private UdpEncapsulation.Sock[] socks;
    private final Poller poller;
    private final ErrorQueue errors;
    private volatile boolean closed;

    // ------------------------------------------------------------ send side
    private final ByteBuffer sendData;
    private final long sendDataAddress;
    private final UdpEncapsulation.Sock[] heldSock = new UdpEncapsulation.Sock[MAX_HELD];
    private final InetSocketAddress[] heldTarget = new InetSocketAddress[MAX_HELD];
    private final int[] heldOffset = new int[MAX_HELD];
    private final int[] heldLength = new int[MAX_HELD];
    /** DF on every datagram ({@link UdpConfig#pathMtuProbing()}). */
    private final boolean probing;
    /** The ECN codepoint each held packet goes with. */
    private final int[] heldEcn = new int[MAX_HELD];

    private int heldCount;
    private int heldBytes;

    private final MmsgArray sendArray; // owns the buffers below
    private final ByteBuffer sendHeaders; // mmsghdr[MAX_HELD]
    private final Pointer[] sendHeaderPtr = new Pointer[MAX_HELD];
    private final ByteBuffer sendIovs;
    private final ByteBuffer sendNames;
    private final ByteBuffer sendControls;
    private final long sendControlAddress;
    private final int[] entryFirst = new int[MAX_HELD];
    private final int[] entryEnd = new int[MAX_HELD];
    private final UdpEncapsulation.Sock[] entrySock = new UdpEncapsulation.Sock[MAX_HELD];

    private final MmsgArray single; // owns the buffers below
    private final ByteBuffer singleHeader; // for one datagram of a group after a GSO fallback
    private final Pointer singleHeaderPtr;
    private final ByteBuffer singleIov;

    // encoded target cache: identity of the target and the socket family -> sockaddr bytes
    private final InetSocketAddress[] encTarget = new InetSocketAddress[CACHE];
    private final boolean[] encFamily6 = new boolean[CACHE];
    private final byte[][] encBytes = new byte[CACHE][SOCKADDR_IN6_SIZE];
    private final int[] encLength = new int[CACHE];
    private int encNext;

    // ------------------------------------------------------------ receive side
    private final int slots;
    private final int slotSize;
    private final MmsgArray recv; // owns the buffers below
    private final ByteBuffer recvHeaders;
    private final Pointer recvHeaderPtr;
    private final ByteBuffer recvNames;
    private final ByteBuffer recvControls;
    private final ByteBuffer view;
    private int cursor;
    private UdpEncapsulation.Sock pendingSock;
    private int pendingCount;
    private int pendingIndex;
    private int pendingOffset;
    private InetSocketAddress pendingFrom;
    private int pendingSegment;
    /** The ECN codepoint of the datagram being handed over. */
    private int pendingEcn;

    // decoded source cache: raw sockaddr bytes -> socket address
    private final byte[][] srcRaw = new byte[CACHE][SOCKADDR_IN6_SIZE];
    private final int[] srcLength = new int[CACHE];
    private final InetSocketAddress[] srcAddress = new InetSocketAddress[CACHE];
    private final byte[] scratch = new byte[SOCKADDR_IN6_SIZE];
    private int srcNext;

    // ------------------------------------------------------------ counters
    long sent;
    long sendDropped;
    long sendCalls;
    long receiveCalls;
    long droppedZeroPort;
    long truncated;
    long gsoSends;
    long gsoFallbacks;
    long groDatagrams;
    long icmpErrors;
    long icmpReported;

    NativeUdp(UdpConfig config, UdpEncapsulation.Sock[] socks) throws IOException {
        this.probing = config.pathMtuProbing();
        this.libc = Native.libc();
        this.socks = socks;
        int[] fds = new int[socks.length];
        for (int i = 0; i < socks.length; i++) {
            fds[i] = socks[i].fd;
        }
        this.poller = new Poller(fds, "the UDP sockets");
        this.errors = new ErrorQueue(QUOTED_BYTES);

        sendData = ByteBuffer.allocateDirect(SEND_REGION_BYTES);
        sendDataAddress = Native.address(sendData);
        sendArray = new MmsgArray(MAX_HELD, SEND_CONTROL_SPACE, 0);
        sendHeaders = sendArray.headers;
        sendIovs = sendArray.iovs;
        sendNames = sendArray.names;
        sendControls = sendArray.controls;
        sendControlAddress = sendArray.controlAddress(0);
        for (int i = 0; i < MAX_HELD; i++) {
            sendHeaderPtr[i] = sendArray.headerPointer(i);
            putControlHeader(sendControls, i * SEND_CONTROL_SPACE, SOL_UDP, UDP_SEGMENT, 2);
        }
        single = new MmsgArray(1, 0, 0);
        singleHeader = single.headers;
        singleHeaderPtr = single.headerPointer(0);
        singleIov = single.iovs;

        slots = Math.min(config.receiveBatch(), MAX_RECEIVE_SLOTS);
        slotSize = config.maxDatagramBytes();
        recv = new MmsgArray(slots, RECEIVE_CONTROL_SPACE, slotSize);
        recvHeaders = recv.headers;
        recvHeaderPtr = recv.headerPointer(0);
        recvNames = recv.names;
        recvControls = recv.controls;
        view = recv.data.duplicate();
    }

    /**
     * Null when the native path can be used here: the C library binds and the kernel accepts
     * UDP_SEGMENT on a UDP socket (Linux 4.18 and later); else why not. Probed once.
     */
    static String unavailableReason() {
        String u = unavailable;
        if (u != null) {
            return u.isEmpty() ? null : u;
        }
        synchronized (NativeUdp.class) {
            if (unavailable == null) {
                unavailable = probe();
            }
            return unavailable.isEmpty() ? null : unavailable;
        }
    }

    private static String probe() {
        LibC c;
        try {
            c = Native.libc();
        } catch (IOException e) {
            return e.getMessage();
        }
        int fd = c.socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (fd < 0) {
            fd = c.socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        }
        if (fd < 0) {
            return "cannot open a UDP socket: " + Native.describe(Native.errno());
        }
        try {
            if (!Native.hasIntOption(fd, SOL_UDP, UDP_SEGMENT)) {
                return "the kernel does not accept UDP_SEGMENT (UDP GSO needs Linux 4.18 or later): "
                        + Native.describe(Native.errno());
            }
            return "";
        } catch (IOException e) {
            return e.getMessage();
        } finally {
            c.close(fd);
        }
    }

    // ================================================================ sockets

    /**
     * Opens a non-blocking UDP socket bound to {@code address} (null: the dual-stack wildcard, or
     * IPv4's when the kernel has no IPv6) and {@code port}, with the buffer sizes of the
     * configuration, GSO probed and GRO switched on where the kernel allows.
     */
    static UdpEncapsulation.Sock bind(UdpConfig config, InetAddress address, int port) throws IOException {
        LibC c = Native.libc();
        boolean six = address == null || address instanceof Inet6Address;
        int fd = c.socket(six ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0 && address == null && Native.errno() == EAFNOSUPPORT) {
            six = false;
            fd = c.socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        }
        if (fd < 0) {
            throw new IOException("cannot open a UDP socket: " + Native.describe(Native.errno()));
        }
        try {
            String what = "a UDP socket";
            Native.setIntOption(fd, SOL_SOCKET, SO_RCVBUF, config.receiveBufferBytes(), "SO_RCVBUF", what);
            Native.setIntOption(fd, SOL_SOCKET, SO_SNDBUF, config.sendBufferBytes(), "SO_SNDBUF", what);
            boolean wildcard = address == null || address.isAnyLocalAddress();
            if (six && wildcard) {
                // one socket for both families
                Native.setIntOption(fd, IPPROTO_IPV6, IPV6_V6ONLY, 0, "IPV6_V6ONLY", what);
            }
            ByteBuffer sa = Native.allocate(SOCKADDR_IN6_SIZE);
            InetAddress bindTo = address != null ? address : InetAddress.getByAddress(new byte[six ? 16 : 4]);
            byte[] name = new byte[SOCKADDR_IN6_SIZE];
            int length = SockAddr.encode(name, six, bindTo, port);
            sa.put(0, name, 0, length);
            if (c.bind(fd, Native.pointer(sa), length) != 0) {
                int errno = Native.errno();
                String where = bindTo.getHostAddress();
                if (errno == EADDRINUSE) {
                    throw new BindException("cannot bind UDP port " + port + " on " + where + " ("
                            + Native.describe(errno) + "): if another SCTP-over-UDP stack uses it, choose another port"
                            + " with UdpConfig.builder().localPort(p) or the environment variable "
                            + UdpConfig.PORT_ENV + ", or 0 for an ephemeral port");
                }
                if (errno == EADDRNOTAVAIL) {
                    throw new BindException(where + " is not an address of this host (" + Native.describe(errno)
                            + "): bind one of its interface addresses, or none for the wildcard address");
                }
                throw new IOException("cannot bind UDP port " + port + " on " + where + ": " + Native.describe(errno));
            }
            ByteBuffer len = Native.allocate(4);
            len.putInt(0, SOCKADDR_IN6_SIZE);
            sa.putLong(0, 0).putLong(8, 0).putLong(16, 0).putInt(24, 0);
            if (c.getsockname(fd, Native.pointer(sa), Native.pointer(len)) != 0) {
                throw new IOException("getsockname failed on a UDP socket: " + Native.describe(Native.errno()));
            }
            sa.get(0, name, 0, SOCKADDR_IN6_SIZE);
            InetSocketAddress local = SockAddr.decode(name, true);
            if (local == null) {
                throw new IOException("getsockname gave an address of an unknown family");
            }
            UdpEncapsulation.Sock s = new UdpEncapsulation.Sock(null, local, !six || wildcard, six);
            s.fd = fd;
            s.family6 = six;
            s.gso = Native.hasIntOption(fd, SOL_UDP, UDP_SEGMENT);
            s.gro = Native.trySetIntOption(fd, SOL_UDP, UDP_GRO, 1);
            // The ECN bits of each datagram (RFC 3168): IPv4 ones (also on a dual-stack socket) in
            // an IP_TOS control message, IPv6 ones in IPV6_TCLASS.
            Native.trySetIntOption(fd, IPPROTO_IP, IP_RECVTOS, 1);
            if (config.pathMtuProbing()) {
                discovery(s, IP_PMTUDISC_PROBE); // DF on every datagram, for path MTU probes (RFC 8899)
            }
            if (s.family6) {
                Native.trySetIntOption(fd, IPPROTO_IPV6, IPV6_RECVTCLASS, 1);
            }
            // ICMP errors about our datagrams onto the error queue (RFC 9260 appendix C, RFC 6951
            // section 5.5); an IPv6 socket takes both, for the IPv4 peers of a dual-stack socket.
            s.recverr = Native.trySetIntOption(fd, IPPROTO_IP, IP_RECVERR, 1);
            if (six) {
                s.recverr |= Native.trySetIntOption(fd, IPPROTO_IPV6, IPV6_RECVERR, 1);
            }
            Reference.reachabilityFence(sa);
            Reference.reachabilityFence(len);
            return s;
        } catch (IOException | RuntimeException e) {
            c.close(fd);
            throw e;
        }
    }

    // ================================================================ send

    /** IPV6_MTU (linux/in6.h): the size the socket's IPv6 datagrams are fragmented to; 0 the path MTU. */
    static final int IPV6_MTU = 24;
    /** The IPv6 minimum link MTU (RFC 8200 section 5): every IPv6 path carries packets this long. */
    static final int IPV6_MIN_MTU = 1280;

    /**
     * As {@link #send(UdpEncapsulation.Sock, ByteBuffer, InetSocketAddress, int)}; with path MTU
     * probing on, a {@code fragmentable} datagram goes alone with DF clear (PMTUDISC_DONT for its
     * send), after the datagrams held before it. Over IPv6 it is also fragmented here, to 1280
     * bytes (IPV6_MTU for that send): IPv6 routers never fragment, and the kernel would otherwise
     * cut it only to the path MTU it believes, which after a black hole (no Packet Too Big) is the
     * old, too large one, so the datagram would be lost at every retransmission (seen: the
     * association failed, UdpIpv6BlackHoleNamespaceTest), as raw IPv6 was before it fragmented.
     */
    void send(UdpEncapsulation.Sock s, ByteBuffer sctp, InetSocketAddress target, int ecn, boolean fragmentable)
            throws IOException {
        if (!probing || !fragmentable) {
            send(s, sctp, target, ecn);
            return;
        }
        flush();
        boolean six = target.getAddress() instanceof Inet6Address;
        discovery(s, IP_PMTUDISC_DONT);
        if (six) {
            Native.setIntOption(s.fd, IPPROTO_IPV6, IPV6_MTU, IPV6_MIN_MTU, "IPV6_MTU", "a UDP socket");
        }
        try {
            send(s, sctp, target, ecn);
            flush();
        } finally {
            if (six) {
                Native.setIntOption(s.fd, IPPROTO_IPV6, IPV6_MTU, 0, "IPV6_MTU", "a UDP socket");
            }
            discovery(s, IP_PMTUDISC_PROBE);
        }
    }

    /** Sets the socket's path MTU discovery mode, for IPv4 and (a dual-stack or IPv6 socket) IPv6. */
    private static void discovery(UdpEncapsulation.Sock s, int mode) throws IOException {
        Native.setIntOption(s.fd, IPPROTO_IP, IP_MTU_DISCOVER, mode, "IP_MTU_DISCOVER", "a UDP socket");
        if (s.family6) {
            Native.setIntOption(s.fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER, mode, "IPV6_MTU_DISCOVER", "a UDP socket");
        }
    }

    void send(UdpEncapsulation.Sock s, ByteBuffer sctp, InetSocketAddress target, int ecn) throws IOException {
        int length = sctp.remaining();
        if (length > SEND_REGION_BYTES) {
            sendDropped++;
            return;
        }
        if (heldCount == MAX_HELD || heldBytes + length > SEND_REGION_BYTES) {
            flush();
        }
        sendData.put(heldBytes, sctp, sctp.position(), length);
        int i = heldCount++;
        heldSock[i] = s;
        heldTarget[i] = target;
        heldOffset[i] = heldBytes;
        heldLength[i] = length;
        heldEcn[i] = ecn;
        heldBytes += length;
    }

    /** Sends every held packet: GSO trains where they can be, one {@code sendmmsg} per socket run. */
    void flush() throws IOException {
        if (heldCount == 0) {
            return;
        }
        int entries = 0;
        for (int i = 0; i < heldCount; ) {
            UdpEncapsulation.Sock s = heldSock[i];
            InetSocketAddress t = heldTarget[i];
            int size = heldLength[i];
            int total = size;
            int j = i + 1;
            if (s.gso) {
                while (j < heldCount
                        && j - i < UDP_MAX_SEGMENTS
                        && heldSock[j] == s
                        && same(heldTarget[j], t)
                        && heldEcn[j] == heldEcn[i]) {
                    int l = heldLength[j];
                    if (l > size || total + l > MAX_GSO_BYTES) {
                        break;
                    }
                    total += l;
                    j++;
                    if (l < size) {
                        break; // a shorter datagram ends the train
                    }
                }
            }
            prepare(entries, s, t, i, j, total, size);
            entryFirst[entries] = i;
            entryEnd[entries] = j;
            entrySock[entries] = s;
            entries++;
            i = j;
        }
        IOException failure = null;
        for (int k = 0; k < entries; ) {
            UdpEncapsulation.Sock s = entrySock[k];
            int end = k + 1;
            while (end < entries && entrySock[end] == s) {
                end++;
            }
            failure = sendRun(s, k, end, failure);
            k = end;
        }
        for (int i = 0; i < heldCount; i++) {
            heldTarget[i] = null;
            heldSock[i] = null;
        }
        heldCount = 0;
        heldBytes = 0;
        if (failure != null) {
            throw failure;
        }
    }

    private static boolean same(InetSocketAddress a, InetSocketAddress b) {
        return a == b || a.equals(b);
    }

    private void prepare(
            int e, UdpEncapsulation.Sock s, InetSocketAddress target, int first, int end, int total, int size) {
        int iov = e * IOVEC_SIZE;
        sendIovs.putLong(iov, sendDataAddress + heldOffset[first]);
        sendIovs.putLong(iov + 8, total);
        int c = cached(target, s.family6);
        sendNames.put(e * SOCKADDR_IN6_SIZE, encBytes[c], 0, encLength[c]);
        int h = e * MMSGHDR_SIZE;
        sendHeaders.putInt(h + MSG_NAMELEN, encLength[c]);
        int ctl = e * SEND_CONTROL_SPACE;
        int ecn = heldEcn[first];
        boolean train = end - first > 1;
        if (train) {
            sendControls.putShort(ctl + CMSG_HEADER, (short) size);
        }
        if (ecn != 0) {
            // RFC 3168: the ECN field of the datagram's TOS / Traffic Class (RFC 9260 appendix A).
            int tos = ctl + cmsgSpace(2);
            boolean v4 = target.getAddress() instanceof java.net.Inet4Address; // IP_TOS also on a dual-stack socket
            putControlHeader(sendControls, tos, v4 ? IPPROTO_IP : IPPROTO_IPV6, v4 ? IP_TOS : IPV6_TCLASS, 4);
            sendControls.putInt(tos + CMSG_HEADER, ecn);
        }
        int from = train ? ctl : ctl + cmsgSpace(2);
        int length = (train ? cmsgSpace(2) : 0) + (ecn != 0 ? cmsgSpace(4) : 0);
        sendHeaders.putLong(h + MSG_CONTROL, length == 0 ? 0 : sendControlAddress + from);
        sendHeaders.putLong(h + MSG_CONTROLLEN, length);
        sendHeaders.putInt(h + MSG_FLAGS, 0);
    }

    /** The cache slot holding {@code target} encoded for a socket of the family. */
    private int cached(InetSocketAddress target, boolean family6) {
        for (int i = 0; i < CACHE; i++) {
            if (encTarget[i] == target && encFamily6[i] == family6) {
                return i;
            }
        }
        int i = encNext;
        encNext = (encNext + 1) % CACHE;
        encLength[i] = SockAddr.encode(encBytes[i], family6, target.getAddress(), target.getPort());
        encTarget[i] = target;
        encFamily6[i] = family6;
        return i;
    }

    private int packets(int e) {
        return entryEnd[e] - entryFirst[e];
    }

    private IOException sendRun(UdpEncapsulation.Sock s, int first, int end, IOException failure) {
        int at = first;
        int interrupted = 0;
        while (at < end) {
            int n = end - at;
            int r;
            sendCalls++;
            if (n == 1) {
                r = libc.sendmsg(s.fd, sendHeaderPtr[at], MSG_DONTWAIT) >= 0 ? 1 : -1;
            } else {
                r = libc.sendmmsg(s.fd, sendHeaderPtr[at], n, MSG_DONTWAIT);
            }
            if (r > 0) {
                for (int e = at; e < at + r; e++) {
                    sent += packets(e);
                    if (packets(e) > 1) {
                        gsoSends++;
                    }
                }
                at += r;
                continue;
            }
            int errno = r == 0 ? EAGAIN : Native.errno(); // sendmmsg sent none without an error: treat as full
            if (errno == EINTR && interrupted++ < 3) {
                continue;
            }
            if ((errno == EIO || errno == EINVAL) && s.gso && packets(at) > 1) {
                gsoOff(s, errno);
                failure = sendSingly(s, at, failure);
                at++;
                continue;
            }
            if (errno == EAGAIN || errno == ENOBUFS || errno == EINTR) {
                for (int e = at; e < end; e++) {
                    sendDropped += packets(e); // the send buffer is full: as IP would, drop; SCTP retransmits
                }
                return failure;
            }
            sendDropped += packets(at);
            if (errno != EMSGSIZE && errno != EPERM && errno != ECONNREFUSED && failure == null) {
                failure =
                        new IOException("cannot send to " + heldTarget[entryFirst[at]] + ": " + Native.describe(errno));
            }
            at++;
        }
        return failure;
    }

    private void gsoOff(UdpEncapsulation.Sock s, int errno) {
        s.gso = false;
        gsoFallbacks++;
        LOG.log(
                System.Logger.Level.WARNING,
                "UDP GSO send failed on the socket bound to {0} ({1}): sending one datagram per system call"
                        + " on it from now on",
                s.local,
                Native.describe(errno));
    }

    /** Sends the packets of entry {@code e} one datagram per sendmsg. */
    private IOException sendSingly(UdpEncapsulation.Sock s, int e, IOException failure) {
        int h = e * MMSGHDR_SIZE;
        singleHeader.putLong(MSG_NAME, sendHeaders.getLong(h + MSG_NAME));
        singleHeader.putInt(MSG_NAMELEN, sendHeaders.getInt(h + MSG_NAMELEN));
        singleHeader.putLong(MSG_CONTROL, 0);
        singleHeader.putLong(MSG_CONTROLLEN, 0);
        for (int p = entryFirst[e]; p < entryEnd[e]; p++) {
            singleIov.putLong(0, sendDataAddress + heldOffset[p]);
            singleIov.putLong(8, heldLength[p]);
            singleHeader.putInt(MSG_FLAGS, 0);
            sendCalls++;
            if (libc.sendmsg(s.fd, singleHeaderPtr, MSG_DONTWAIT) >= 0) {
                sent++;
                continue;
            }
            int errno = Native.errno();
            sendDropped++;
            if (errno != EAGAIN
                    && errno != ENOBUFS
                    && errno != EINTR
                    && errno != EMSGSIZE
                    && errno != EPERM
                    && errno != ECONNREFUSED
                    && failure == null) {
                failure = new IOException("cannot send to " + heldTarget[p] + ": " + Native.describe(errno));
            }
        }
        return failure;
    }

    // ================================================================ receive

    /**
     * Hands at most {@code max} packets to {@code delivery}: first what the last call left, then
     * from the sockets in turn, each read with {@code recvmmsg} until it is empty.
     */
    int receive(UdpEncapsulation.Delivery delivery, int max) throws IOException {
        int n = 0;
        boolean woke = afterWait;
        afterWait = false;
        if (pendingCount > 0) {
            n += deliverPending(delivery, max);
        }
        int count = socks.length;
        for (int k = 0; k < count && n < max && pendingCount == 0; k++) {
            int index = (cursor + k) % count;
            UdpEncapsulation.Sock s = socks[index];
            if (poller.takeError(index)) {
                readErrors(s, delivery);
            }
            if (s.skipAfterReply) {
                s.skipAfterReply = false;
                continue;
            }
            int errorRounds = 0;
            while (n < max && pendingCount == 0) {
                int want = Math.min(slots, max - n);
                recv.prepareReceive(want);
                receiveCalls++;
                int r = libc.recvmmsg(s.fd, recvHeaderPtr, want, MSG_DONTWAIT, null);
                if (r < 0) {
                    int errno = Native.errno();
                    if (errno == EAGAIN || errno == EINTR) {
                        break;
                    }
                    // An ICMP error about a datagram we sent (ECONNREFUSED, EHOSTUNREACH, EMSGSIZE...):
                    // with IP_RECVERR its details wait on the error queue.
                    if ((readErrors(s, delivery) > 0 || errno == ECONNREFUSED) && errorRounds++ < 4) {
                        continue; // not about reading
                    }
                    throw new IOException(
                            "receiving on the UDP socket bound to " + s.local + " failed: " + Native.describe(errno));
                }
                if (r == 0) {
                    break;
                }
                pendingSock = s;
                pendingCount = r;
                pendingIndex = 0;
                pendingOffset = 0;
                n += deliverPending(delivery, max - n);
                if (r < want) {
                    // The socket is empty. When this was the first read after a wait, a request
                    // has most likely just come in: the turn that handles it sends the answer, and
                    // the turn after it would read the socket for nothing before it waits again.
                    // So that one skips it; the wait that follows asks ppoll, which sees anything
                    // that came meanwhile, and a thread that has more to do reads again one turn
                    // later. Reads not after a wait (a busy receiver) are never skipped.
                    s.skipAfterReply = woke;
                    break;
                }
            }
        }
        cursor = count == 1 ? 0 : (cursor + 1) % count;
        return n;
    }

    /**
     * Reads the socket's error queue (at most {@value #MAX_ERRORS_PER_CALL} entries) and hands
     * each ICMP error that quoted enough of our SCTP packet to the core as an {@link IcmpReport}
     * (RFC 9260 appendix C; over UDP a Port Unreachable means no SCTP endpoint, RFC 6951 section
     * 5.5). The MTU is passed on for a Packet Too Big.
     *
     * @return the entries read
     */
    private int readErrors(UdpEncapsulation.Sock s, UdpEncapsulation.Delivery delivery) {
        if (!s.recverr) {
            return 0;
        }
        int n = 0;
        while (n < MAX_ERRORS_PER_CALL && errors.read(s.fd)) {
            n++;
            icmpErrors++;
            if (!errors.isIcmp() || errors.target == null) {
                continue;
            }
            InetAddress local = s.local.getAddress();
            IcmpReport.fromQuoted(
                            errors.origin == SO_EE_ORIGIN_ICMP6,
                            errors.type,
                            errors.code,
                            errors.info,
                            true,
                            local.isAnyLocalAddress() ? null : local,
                            errors.target.getAddress(),
                            errors.quoted())
                    .ifPresent(r -> {
                        icmpReported++;
                        delivery.icmp(r);
                    });
        }
        return n;
    }

    /** True when datagrams read earlier are still to be handed over. */
    boolean hasPending() {
        return pendingCount > 0;
    }

    private int deliverPending(UdpEncapsulation.Delivery delivery, int max) throws IOException {
        int n = 0;
        InetAddress to = pendingSock.local.getAddress();
        while (pendingIndex < pendingCount && n < max) {
            int i = pendingIndex;
            int h = i * MMSGHDR_SIZE;
            int length = recvHeaders.getInt(h + MMSG_LEN);
            if (pendingOffset == 0) {
                if ((recvHeaders.getInt(h + MSG_FLAGS) & MSG_TRUNC) != 0 || length > slotSize) {
                    truncated++;
                    pendingIndex++;
                    continue;
                }
                pendingFrom = source(i);
                pendingSegment = groSegment(i);
                pendingEcn = receivedEcn(i);
                if (pendingFrom == null || pendingFrom.getPort() == 0) {
                    droppedZeroPort += pendingSegment > 0 ? (length + pendingSegment - 1) / pendingSegment : 1;
                    pendingIndex++;
                    continue;
                }
                if (pendingSegment > 0 && length > pendingSegment) {
                    groDatagrams++;
                }
            }
            int base = i * slotSize;
            int rest = length - pendingOffset;
            int seg = pendingSegment > 0 ? Math.min(pendingSegment, rest) : rest;
            view.limit(base + pendingOffset + seg).position(base + pendingOffset);
            pendingOffset += seg;
            if (pendingOffset >= length) {
                pendingIndex++;
                pendingOffset = 0;
            }
            n++;
            delivery.deliver(view, pendingFrom, to, pendingEcn);
        }
        if (pendingIndex >= pendingCount) {
            pendingCount = 0;
            pendingSock = null;
            pendingFrom = null;
        }
        return n;
    }

    /** The sender of slot {@code i}, from a small cache of decoded addresses. */
    private InetSocketAddress source(int i) throws UnknownHostException {
        int at = i * SOCKADDR_IN6_SIZE;
        int family = recvNames.getShort(at + SA_FAMILY) & 0xffff;
        int length = family == AF_INET ? SIN_ADDR + 4 : family == AF_INET6 ? SOCKADDR_IN6_SIZE : 0;
        if (length == 0) {
            return null;
        }
        recvNames.get(at, scratch, 0, length);
        for (int k = 0; k < CACHE; k++) {
            if (srcLength[k] == length && Arrays.equals(srcRaw[k], 0, length, scratch, 0, length)) {
                return srcAddress[k];
            }
        }
        InetSocketAddress a = SockAddr.decode(scratch, false);
        int k = srcNext;
        srcNext = (srcNext + 1) % CACHE;
        System.arraycopy(scratch, 0, srcRaw[k], 0, length);
        srcLength[k] = length;
        srcAddress[k] = a;
        return a;
    }

    /**
     * The ECN field of slot {@code i}'s IP header, from its IP_TOS (one byte) or IPV6_TCLASS (an
     * int) control message; 0 (Not-ECT) when there is none.
     */
    private int receivedEcn(int i) {
        int base = i * RECEIVE_CONTROL_SPACE;
        int controlLength =
                (int) Math.min(recvHeaders.getLong(i * MMSGHDR_SIZE + MSG_CONTROLLEN), RECEIVE_CONTROL_SPACE);
        int at = findControl(recvControls, base, controlLength, IPPROTO_IP, IP_TOS, 1);
        if (at >= 0) {
            return recvControls.get(at) & 3;
        }
        at = findControl(recvControls, base, controlLength, IPPROTO_IPV6, IPV6_TCLASS, 4);
        return at < 0 ? 0 : recvControls.getInt(at) & 3;
    }

    /** The UDP_GRO segment size of slot {@code i}, or 0 when the datagram came alone. */
    private int groSegment(int i) {
        int base = i * RECEIVE_CONTROL_SPACE;
        int controlLength =
                (int) Math.min(recvHeaders.getLong(i * MMSGHDR_SIZE + MSG_CONTROLLEN), RECEIVE_CONTROL_SPACE);
        int at = findControl(recvControls, base, controlLength, SOL_UDP, UDP_GRO, 4);
        return at < 0 ? 0 : Math.max(0, recvControls.getInt(at));
    }

    // ================================================================ wait

    /** Sends what is held, then blocks in ppoll until a socket is readable, a wakeup, or the timeout. */
    /** Set by {@link #await}: the next {@link #receive} is the first after a wait. */
    private boolean afterWait;

    void await(long timeoutNanos) throws IOException {
        flush();
        // ppoll is asked (or a coalesced slot is pending): the next receive reads every socket
        afterWait = true;
        for (UdpEncapsulation.Sock s : socks) {
            s.skipAfterReply = false;
        }
        if (pendingCount > 0) {
            return;
        }
        poller.await(timeoutNanos);
    }

    /**
     * Stack thread: the layer's sockets changed (an address added or removed after open, RFC 5061);
     * nothing is held ({@link #flush} first) and no read is pending on a socket that went.
     */
    void setSockets(UdpEncapsulation.Sock[] now) {
        int[] fds = new int[now.length];
        for (int i = 0; i < now.length; i++) {
            fds[i] = now[i].fd;
        }
        poller.setFds(fds);
        socks = now;
        cursor = 0;
    }

    /** Makes a concurrent or the next {@link #await} return. Any thread. */
    void wakeup() {
        poller.wakeup();
    }

    /** Closes the sockets and the eventfd; held packets are dropped. */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (UdpEncapsulation.Sock s : socks) {
            libc.close(s.fd);
        }
        poller.close();
        heldCount = 0;
        heldBytes = 0;
    }

    /** Closes sockets opened before the layer could be built. */
    static void closeAll(Iterable<UdpEncapsulation.Sock> socks) {
        try {
            LibC c = Native.libc();
            for (UdpEncapsulation.Sock s : socks) {
                if (s.fd >= 0) {
                    c.close(s.fd);
                }
            }
        } catch (IOException e) {
            // nothing was opened through a library that does not load
        }
    }
}
