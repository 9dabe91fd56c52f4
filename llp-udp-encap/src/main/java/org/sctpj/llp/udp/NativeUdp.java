package org.sctpj.llp.udp;

import static org.sctpj.llp.udp.UdpNative.*;

import java.io.IOException;
import java.lang.ref.Reference;
import java.net.BindException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import jnr.ffi.Pointer;

/**
 * The native Linux path of {@link UdpEncapsulation}: non-blocking UDP sockets of its own, reached
 * through JNR-FFI, so that a burst of packets costs few system calls.
 *
 * <ul>
 *   <li>Send: {@link #send} only copies the packet into one pre-allocated direct region and notes
 *       its socket and target. {@link #flush} groups what was held: consecutive packets to the
 *       same target through the same socket, all of one size but the last (which may be shorter),
 *       at most {@value UdpNative#UDP_MAX_SEGMENTS} and {@value #MAX_GSO_BYTES} bytes, go as one
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

    private static final int RECEIVE_CONTROL_SPACE = 64;
    private static final int SEND_CONTROL_SPACE = cmsgSpace(2);
    private static final int CACHE = 8;

    private final LibC libc;
    private final UdpEncapsulation.Sock[] socks;
    private final int eventFd;
    private volatile boolean closed;

    // ------------------------------------------------------------ send side
    private final ByteBuffer sendData;
    private final long sendDataAddress;
    private final UdpEncapsulation.Sock[] heldSock = new UdpEncapsulation.Sock[MAX_HELD];
    private final InetSocketAddress[] heldTarget = new InetSocketAddress[MAX_HELD];
    private final int[] heldOffset = new int[MAX_HELD];
    private final int[] heldLength = new int[MAX_HELD];
    private int heldCount;
    private int heldBytes;

    private final ByteBuffer sendHeaders; // mmsghdr[MAX_HELD]
    private final Pointer[] sendHeaderPtr = new Pointer[MAX_HELD];
    private final ByteBuffer sendIovs;
    private final ByteBuffer sendNames;
    private final ByteBuffer sendControls;
    private final long sendControlAddress;
    private final int[] entryFirst = new int[MAX_HELD];
    private final int[] entryEnd = new int[MAX_HELD];
    private final UdpEncapsulation.Sock[] entrySock = new UdpEncapsulation.Sock[MAX_HELD];

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
    private final ByteBuffer recvHeaders;
    private final Pointer recvHeaderPtr;
    private final ByteBuffer recvIovs;
    private final ByteBuffer recvNames;
    private final ByteBuffer recvControls;
    private final ByteBuffer recvData;
    private final ByteBuffer view;
    private int cursor;
    private UdpEncapsulation.Sock pendingSock;
    private int pendingCount;
    private int pendingIndex;
    private int pendingOffset;
    private InetSocketAddress pendingFrom;
    private int pendingSegment;

    // decoded source cache: raw sockaddr bytes -> socket address
    private final byte[][] srcRaw = new byte[CACHE][SOCKADDR_IN6_SIZE];
    private final int[] srcLength = new int[CACHE];
    private final InetSocketAddress[] srcAddress = new InetSocketAddress[CACHE];
    private final byte[] scratch = new byte[SOCKADDR_IN6_SIZE];
    private int srcNext;

    // ------------------------------------------------------------ wait
    private final ByteBuffer pollFds;
    private final Pointer pollFdsPtr;
    private final int pollCount;
    private final ByteBuffer timespec;
    private final Pointer timespecPtr;
    private final ByteBuffer drain;
    private final Pointer drainPtr;
    private final Pointer onePtr;
    private final ByteBuffer one;

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

    NativeUdp(UdpConfig config, UdpEncapsulation.Sock[] socks) throws IOException {
        this.libc = UdpNative.libc();
        this.socks = socks;
        int efd = libc.eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        if (efd < 0) {
            throw new IOException("eventfd failed: " + describe(errno()));
        }
        this.eventFd = efd;

        sendData = ByteBuffer.allocateDirect(SEND_REGION_BYTES);
        sendDataAddress = address(sendData);
        sendHeaders = allocate(MAX_HELD * MMSGHDR_SIZE);
        sendIovs = allocate(MAX_HELD * IOVEC_SIZE);
        sendNames = allocate(MAX_HELD * SOCKADDR_IN6_SIZE);
        sendControls = allocate(MAX_HELD * SEND_CONTROL_SPACE);
        sendControlAddress = address(sendControls);
        long headerBase = address(sendHeaders);
        long iovBase = address(sendIovs);
        long nameBase = address(sendNames);
        for (int i = 0; i < MAX_HELD; i++) {
            int h = i * MMSGHDR_SIZE;
            sendHeaders.putLong(h + MSG_NAME, nameBase + (long) i * SOCKADDR_IN6_SIZE);
            sendHeaders.putLong(h + MSG_IOV, iovBase + (long) i * IOVEC_SIZE);
            sendHeaders.putLong(h + MSG_IOVLEN, 1);
            sendHeaderPtr[i] = pointer(headerBase + h);
            int c = i * SEND_CONTROL_SPACE;
            sendControls.putLong(c, CMSG_HEADER + 2);
            sendControls.putInt(c + 8, SOL_UDP);
            sendControls.putInt(c + 12, UDP_SEGMENT);
        }
        singleHeader = allocate(MMSGHDR_SIZE);
        singleHeaderPtr = pointer(singleHeader);
        singleIov = allocate(IOVEC_SIZE);
        singleHeader.putLong(MSG_IOV, address(singleIov));
        singleHeader.putLong(MSG_IOVLEN, 1);

        slots = Math.min(config.receiveBatch(), MAX_RECEIVE_SLOTS);
        slotSize = config.maxDatagramBytes();
        recvHeaders = allocate(slots * MMSGHDR_SIZE);
        recvHeaderPtr = pointer(recvHeaders);
        recvIovs = allocate(slots * IOVEC_SIZE);
        recvNames = allocate(slots * SOCKADDR_IN6_SIZE);
        recvControls = allocate(slots * RECEIVE_CONTROL_SPACE);
        recvData = ByteBuffer.allocateDirect(slots * slotSize);
        view = recvData.duplicate();
        long rIov = address(recvIovs);
        long rName = address(recvNames);
        long rControl = address(recvControls);
        long rData = address(recvData);
        for (int i = 0; i < slots; i++) {
            recvIovs.putLong(i * IOVEC_SIZE, rData + (long) i * slotSize);
            recvIovs.putLong(i * IOVEC_SIZE + 8, slotSize);
            int h = i * MMSGHDR_SIZE;
            recvHeaders.putLong(h + MSG_NAME, rName + (long) i * SOCKADDR_IN6_SIZE);
            recvHeaders.putLong(h + MSG_IOV, rIov + (long) i * IOVEC_SIZE);
            recvHeaders.putLong(h + MSG_IOVLEN, 1);
            recvHeaders.putLong(h + MSG_CONTROL, rControl + (long) i * RECEIVE_CONTROL_SPACE);
        }

        pollCount = socks.length + 1;
        pollFds = allocate(pollCount * POLLFD_SIZE);
        pollFdsPtr = pointer(pollFds);
        for (int i = 0; i < socks.length; i++) {
            pollFds.putInt(i * POLLFD_SIZE, socks[i].fd);
            pollFds.putShort(i * POLLFD_SIZE + 4, POLLIN);
        }
        pollFds.putInt(socks.length * POLLFD_SIZE, eventFd);
        pollFds.putShort(socks.length * POLLFD_SIZE + 4, POLLIN);
        timespec = allocate(TIMESPEC_SIZE);
        timespecPtr = pointer(timespec);
        drain = allocate(8);
        drainPtr = pointer(drain);
        one = allocate(8);
        one.putLong(0, 1);
        onePtr = pointer(one);
    }

    // ================================================================ sockets

    /**
     * Opens a non-blocking UDP socket bound to {@code address} (null: the dual-stack wildcard, or
     * IPv4's when the kernel has no IPv6) and {@code port}, with the buffer sizes of the
     * configuration, GSO probed and GRO switched on where the kernel allows.
     */
    static UdpEncapsulation.Sock bind(UdpConfig config, InetAddress address, int port) throws IOException {
        LibC c = UdpNative.libc();
        boolean six = address == null || address instanceof Inet6Address;
        int fd = c.socket(six ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0 && address == null && errno() == EAFNOSUPPORT) {
            six = false;
            fd = c.socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        }
        if (fd < 0) {
            throw new IOException("cannot open a UDP socket: " + describe(errno()));
        }
        try {
            setInt(c, fd, SOL_SOCKET, SO_RCVBUF, config.receiveBufferBytes(), "SO_RCVBUF");
            setInt(c, fd, SOL_SOCKET, SO_SNDBUF, config.sendBufferBytes(), "SO_SNDBUF");
            boolean wildcard = address == null || address.isAnyLocalAddress();
            if (six && wildcard) {
                setInt(c, fd, IPPROTO_IPV6, IPV6_V6ONLY, 0, "IPV6_V6ONLY"); // one socket for both families
            }
            ByteBuffer sa = allocate(SOCKADDR_IN6_SIZE);
            InetAddress bindTo = address != null ? address : InetAddress.getByAddress(new byte[six ? 16 : 4]);
            byte[] name = new byte[SOCKADDR_IN6_SIZE];
            int length = encode(name, six, bindTo, port);
            sa.put(0, name, 0, length);
            if (c.bind(fd, pointer(sa), length) != 0) {
                int errno = errno();
                String where = bindTo.getHostAddress();
                if (errno == EADDRINUSE) {
                    throw new BindException("cannot bind UDP port " + port + " on " + where + " ("
                            + describe(errno) + "): if another SCTP-over-UDP stack uses it, choose another port"
                            + " with UdpConfig.builder().localPort(p) or the environment variable "
                            + UdpConfig.PORT_ENV + ", or 0 for an ephemeral port");
                }
                if (errno == EADDRNOTAVAIL) {
                    throw new BindException(where + " is not an address of this host (" + describe(errno)
                            + "): bind one of its interface addresses, or none for the wildcard address");
                }
                throw new IOException("cannot bind UDP port " + port + " on " + where + ": " + describe(errno));
            }
            ByteBuffer len = allocate(4);
            len.putInt(0, SOCKADDR_IN6_SIZE);
            sa.putLong(0, 0).putLong(8, 0).putLong(16, 0).putInt(24, 0);
            if (c.getsockname(fd, pointer(sa), pointer(len)) != 0) {
                throw new IOException("getsockname failed on a UDP socket: " + describe(errno()));
            }
            sa.get(0, name, 0, SOCKADDR_IN6_SIZE);
            InetSocketAddress local = decode(name, sa.getShort(0) & 0xffff, sa.getInt(24), true);
            if (local == null) {
                throw new IOException("getsockname gave an address of an unknown family");
            }
            UdpEncapsulation.Sock s = new UdpEncapsulation.Sock(null, local, !six || wildcard, six);
            s.fd = fd;
            s.family6 = six;
            s.gso = getInt(c, fd, SOL_UDP, UDP_SEGMENT);
            s.gro = trySetInt(c, fd, SOL_UDP, UDP_GRO, 1);
            Reference.reachabilityFence(sa);
            Reference.reachabilityFence(len);
            return s;
        } catch (IOException | RuntimeException e) {
            c.close(fd);
            throw e;
        }
    }

    private static void setInt(LibC c, int fd, int level, int option, int value, String name) throws IOException {
        if (!trySetInt(c, fd, level, option, value)) {
            throw new IOException("setsockopt(" + name + ") failed on a UDP socket: " + describe(errno()));
        }
    }

    static boolean trySetInt(LibC c, int fd, int level, int option, int value) {
        ByteBuffer v = allocate(4);
        v.putInt(0, value);
        int r = c.setsockopt(fd, level, option, pointer(v), 4);
        Reference.reachabilityFence(v);
        return r == 0;
    }

    private static boolean getInt(LibC c, int fd, int level, int option) {
        ByteBuffer v = allocate(8);
        v.putInt(4, 4);
        int r = c.getsockopt(fd, level, option, pointer(v), pointer(address(v) + 4));
        Reference.reachabilityFence(v);
        return r == 0;
    }

    /**
     * Writes a sockaddr_in, or a sockaddr_in6 when {@code family6} (an IPv4 address then as
     * IPv4-mapped), into {@code out} in native order for the family and network order for port
     * and address; returns its length.
     */
    static int encode(byte[] out, boolean family6, InetAddress address, int port) {
        Arrays.fill(out, (byte) 0);
        short family = (short) (family6 ? AF_INET6 : AF_INET);
        boolean little = java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN;
        out[0] = (byte) (little ? family : family >> 8);
        out[1] = (byte) (little ? family >> 8 : family);
        out[2] = (byte) (port >> 8);
        out[3] = (byte) port;
        byte[] a = address.getAddress();
        if (!family6) {
            System.arraycopy(a, 0, out, 4, 4);
            return SOCKADDR_IN_SIZE;
        }
        if (a.length == 4) {
            out[18] = (byte) 0xff;
            out[19] = (byte) 0xff;
            System.arraycopy(a, 0, out, 20, 4);
        } else {
            System.arraycopy(a, 0, out, 8, 16);
            int scope = ((Inet6Address) address).getScopeId();
            for (int i = 0; i < 4; i++) {
                int shift = little ? 8 * i : 8 * (3 - i);
                out[24 + i] = (byte) (scope >> shift);
            }
        }
        return SOCKADDR_IN6_SIZE;
    }

    /**
     * The socket address in {@code raw} (a sockaddr of {@code family}; {@code scope} read in native
     * order), or null for another family. An IPv4-mapped IPv6 address comes back as IPv4 unless
     * {@code keepMapped}.
     */
    static InetSocketAddress decode(byte[] raw, int family, int scope, boolean keepMapped) throws UnknownHostException {
        int port = ((raw[2] & 0xff) << 8) | (raw[3] & 0xff);
        if (family == AF_INET) {
            return new InetSocketAddress(InetAddress.getByAddress(Arrays.copyOfRange(raw, 4, 8)), port);
        }
        if (family != AF_INET6) {
            return null;
        }
        byte[] a = Arrays.copyOfRange(raw, 8, 24);
        InetAddress ip = scope != 0 ? Inet6Address.getByAddress(null, a, scope) : InetAddress.getByAddress(a);
        if (keepMapped && ip instanceof Inet4Address) {
            ip = Inet6Address.getByAddress(null, a, -1); // getsockname of a v6 socket: keep its family
        }
        return new InetSocketAddress(ip, port);
    }

    // ================================================================ send

    /** Holds one packet for the next {@link #flush}, flushing first when the batch is full. */
    void send(UdpEncapsulation.Sock s, ByteBuffer sctp, InetSocketAddress target) throws IOException {
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
                while (j < heldCount && j - i < UDP_MAX_SEGMENTS && heldSock[j] == s && same(heldTarget[j], t)) {
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
        if (end - first > 1) {
            int ctl = e * SEND_CONTROL_SPACE;
            sendControls.putShort(ctl + CMSG_HEADER, (short) size);
            sendHeaders.putLong(h + MSG_CONTROL, sendControlAddress + ctl);
            sendHeaders.putLong(h + MSG_CONTROLLEN, SEND_CONTROL_SPACE);
        } else {
            sendHeaders.putLong(h + MSG_CONTROL, 0);
            sendHeaders.putLong(h + MSG_CONTROLLEN, 0);
        }
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
        encLength[i] = encode(encBytes[i], family6, target.getAddress(), target.getPort());
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
            int errno = r == 0 ? EAGAIN : errno(); // sendmmsg sent none without an error: treat as full
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
                failure = new IOException("cannot send to " + heldTarget[entryFirst[at]] + ": " + describe(errno));
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
                describe(errno));
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
            int errno = errno();
            sendDropped++;
            if (errno != EAGAIN
                    && errno != ENOBUFS
                    && errno != EINTR
                    && errno != EMSGSIZE
                    && errno != EPERM
                    && errno != ECONNREFUSED
                    && failure == null) {
                failure = new IOException("cannot send to " + heldTarget[p] + ": " + describe(errno));
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
        if (pendingCount > 0) {
            n += deliverPending(delivery, max);
        }
        int count = socks.length;
        for (int k = 0; k < count && n < max && pendingCount == 0; k++) {
            UdpEncapsulation.Sock s = socks[(cursor + k) % count];
            while (n < max && pendingCount == 0) {
                int want = Math.min(slots, max - n);
                for (int i = 0; i < want; i++) {
                    int h = i * MMSGHDR_SIZE;
                    recvHeaders.putInt(h + MSG_NAMELEN, SOCKADDR_IN6_SIZE);
                    recvHeaders.putLong(h + MSG_CONTROLLEN, RECEIVE_CONTROL_SPACE);
                    recvHeaders.putInt(h + MSG_FLAGS, 0);
                }
                receiveCalls++;
                int r = libc.recvmmsg(s.fd, recvHeaderPtr, want, MSG_DONTWAIT, null);
                if (r < 0) {
                    int errno = errno();
                    if (errno == EAGAIN || errno == EINTR) {
                        break;
                    }
                    if (errno == ECONNREFUSED) {
                        continue; // an ICMP error queued on the socket: not about reading
                    }
                    throw new IOException(
                            "receiving on the UDP socket bound to " + s.local + " failed: " + describe(errno));
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
                    break; // the socket is empty
                }
            }
        }
        cursor = count == 1 ? 0 : (cursor + 1) % count;
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
            delivery.deliver(view, pendingFrom, to);
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
        int family = recvNames.getShort(at) & 0xffff;
        int length = family == AF_INET ? 8 : family == AF_INET6 ? SOCKADDR_IN6_SIZE : 0;
        if (length == 0) {
            return null;
        }
        recvNames.get(at, scratch, 0, length);
        for (int k = 0; k < CACHE; k++) {
            if (srcLength[k] == length && Arrays.equals(srcRaw[k], 0, length, scratch, 0, length)) {
                return srcAddress[k];
            }
        }
        InetSocketAddress a = decode(scratch, family, family == AF_INET6 ? recvNames.getInt(at + 24) : 0, false);
        int k = srcNext;
        srcNext = (srcNext + 1) % CACHE;
        System.arraycopy(scratch, 0, srcRaw[k], 0, length);
        srcLength[k] = length;
        srcAddress[k] = a;
        return a;
    }

    /** The UDP_GRO segment size of slot {@code i}, or 0 when the datagram came alone. */
    private int groSegment(int i) {
        int base = i * RECEIVE_CONTROL_SPACE;
        int controlLength =
                (int) Math.min(recvHeaders.getLong(i * MMSGHDR_SIZE + MSG_CONTROLLEN), RECEIVE_CONTROL_SPACE);
        int at = 0;
        while (at + CMSG_HEADER <= controlLength) {
            long len = recvControls.getLong(base + at);
            if (len < CMSG_HEADER || at + len > controlLength) {
                return 0;
            }
            if (recvControls.getInt(base + at + 8) == SOL_UDP
                    && recvControls.getInt(base + at + 12) == UDP_GRO
                    && len >= CMSG_HEADER + 4) {
                return Math.max(0, recvControls.getInt(base + at + CMSG_HEADER));
            }
            at += cmsgAlign((int) len);
        }
        return 0;
    }

    // ================================================================ wait

    /** Sends what is held, then blocks in ppoll until a socket is readable, a wakeup, or the timeout. */
    void await(long timeoutNanos) throws IOException {
        flush();
        if (pendingCount > 0) {
            return;
        }
        for (int i = 0; i < pollCount; i++) {
            pollFds.putShort(i * POLLFD_SIZE + 6, (short) 0);
        }
        Pointer timeout = null;
        if (timeoutNanos < Long.MAX_VALUE) {
            long t = Math.max(0, timeoutNanos);
            timespec.putLong(0, t / 1_000_000_000L);
            timespec.putLong(8, t % 1_000_000_000L);
            timeout = timespecPtr;
        }
        int r = libc.ppoll(pollFdsPtr, pollCount, timeout, null);
        if (r < 0) {
            int errno = errno();
            if (errno == EINTR) {
                return;
            }
            throw new IOException("ppoll on the UDP sockets failed: " + describe(errno));
        }
        if (pollFds.getShort((pollCount - 1) * POLLFD_SIZE + 6) != 0) {
            libc.read(eventFd, drainPtr, 8); // resets the counter
        }
    }

    /** Makes a concurrent or the next {@link #await} return. Any thread. */
    void wakeup() {
        if (!closed) {
            libc.write(eventFd, onePtr, 8);
        }
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
        libc.close(eventFd);
        heldCount = 0;
        heldBytes = 0;
    }

    /** Closes sockets opened before the layer could be built. */
    static void closeAll(Iterable<UdpEncapsulation.Sock> socks) {
        try {
            LibC c = UdpNative.libc();
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
