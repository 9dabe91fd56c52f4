package org.sctpj.nativeio;

/**
 * The Linux constants the lower layers pass to {@link LibC}: address families, socket types and
 * flags, option levels and names, message flags, and the errno values they test.
 *
 * <p>The values are those of x86-64 and AArch64 (the only CPUs {@link Native#libc()} binds on):
 * both use the kernel's generic definitions for every name here, so no value depends on the
 * architecture. {@code LayoutTest} checks them against a C program's view when gcc is present.
 */
public final class Linux {
    private Linux() {}

    // ---------------------------------------------------------------- sockets

    public static final int AF_INET = 2;
    public static final int AF_INET6 = 10;
    public static final int SOCK_DGRAM = 2;
    public static final int SOCK_RAW = 3;
    public static final int SOCK_NONBLOCK = 0x800;
    public static final int SOCK_CLOEXEC = 0x80000;
    public static final int IPPROTO_IP = 0;
    public static final int IPPROTO_IPV6 = 41;
    public static final int IPPROTO_SCTP = 132;

    // ---------------------------------------------------------------- socket options

    public static final int SOL_SOCKET = 1;
    /** The UDP option level (IPPROTO_UDP). */
    public static final int SOL_UDP = 17;

    public static final int SO_SNDBUF = 7;
    public static final int SO_RCVBUF = 8;
    /** SO_RCVBUF beyond net.core.rmem_max (needs CAP_NET_ADMIN). */
    public static final int SO_RCVBUFFORCE = 33;
    /** Ask for the count of packets the socket dropped (a control message with each datagram). */
    public static final int SO_RXQ_OVFL = 40;
    /** Queue ICMP errors about our packets on the socket's error queue (level IPPROTO_IP). */
    public static final int IP_RECVERR = 11;
    /** Queue ICMPv6 (and, on a dual-stack socket, ICMP) errors on the error queue (level IPPROTO_IPV6). */
    public static final int IPV6_RECVERR = 25;
    /** recvmsg flag: read the socket's error queue. */
    public static final int MSG_ERRQUEUE = 0x2000;
    /** sock_extended_err.ee_origin of an ICMP error. */
    public static final int SO_EE_ORIGIN_ICMP = 2;
    /** sock_extended_err.ee_origin of an ICMPv6 error. */
    public static final int SO_EE_ORIGIN_ICMP6 = 3;
    /** IPv4 destination address and interface of a received packet; source of a sent one. */
    public static final int IP_PKTINFO = 8;

    /** The IPv4 TOS octet: its low two bits are the ECN field (RFC 3168), as a socket option or a control message. */
    public static final int IP_TOS = 1;
    /** Ask for the TOS octet of each received IPv4 datagram in an IP_TOS control message. */
    public static final int IP_RECVTOS = 13;
    /** Path MTU discovery mode of an IPv4 socket (one of the IP_PMTUDISC_ values). */
    public static final int IP_MTU_DISCOVER = 10;
    /** Clear DF: the kernel fragments packets above the path MTU. */
    public static final int IP_PMTUDISC_DONT = 0;
    /** Set DF, and refuse (EMSGSIZE) packets above the path MTU the kernel knows. */
    public static final int IP_PMTUDISC_DO = 2;
    /** Set DF and send at any size up to the interface MTU, whatever the kernel's path MTU: for probes. */
    public static final int IP_PMTUDISC_PROBE = 3;
    /** The path MTU the kernel knows for a connected socket (getsockopt). */
    public static final int IP_MTU = 14;
    /** The IPv6 Traffic Class: its low two bits are the ECN field, as a socket option or a control message. */
    public static final int IPV6_TCLASS = 67;
    /** Ask for the Traffic Class of each received IPv6 datagram in an IPV6_TCLASS control message. */
    public static final int IPV6_RECVTCLASS = 66;
    /** Path MTU discovery mode of an IPv6 socket (one of the IPV6_PMTUDISC_ values). */
    public static final int IPV6_MTU_DISCOVER = 23;
    /** As IP_PMTUDISC_PROBE, for IPv6. */
    public static final int IPV6_PMTUDISC_PROBE = 3;

    public static final int IPV6_V6ONLY = 26;
    public static final int IPV6_RECVPKTINFO = 49;
    public static final int IPV6_PKTINFO = 50;
    /** UDP GSO: the segment size, as a socket option or a control message (Linux 4.18). */
    public static final int UDP_SEGMENT = 103;
    /** UDP GRO: receive coalesced datagrams with their segment size in a control message (Linux 5.0). */
    public static final int UDP_GRO = 104;
    /**
     * Segments of one GSO send that every kernel with UDP GSO accepts: the kernel's internal
     * UDP_MAX_SEGMENTS was 64 when GSO came (Linux 4.18). Not in the user-space headers.
     */
    public static final int UDP_MAX_SEGMENTS = 64;

    // ---------------------------------------------------------------- socket filters (classic BPF)

    /** Attach a classic BPF program (struct sock_fprog) that decides which packets the socket queues. */
    public static final int SO_ATTACH_FILTER = 26;
    /** Remove the socket's filter. */
    public static final int SO_DETACH_FILTER = 27;
    /** BPF load offset base: offsets from it address the packet's network (IP) header (linux/filter.h). */
    public static final int SKF_NET_OFF = -0x100000;
    /** BPF_LD | BPF_W | BPF_ABS: load the 32-bit word at k (network byte order) into A. */
    public static final int BPF_LD_W_ABS = 0x20;
    /** BPF_JMP | BPF_JEQ | BPF_K: jump jt ahead if A == k, else jf ahead. */
    public static final int BPF_JEQ_K = 0x15;
    /** BPF_RET | BPF_K: end; k bytes of the packet are kept (0: the packet is dropped). */
    public static final int BPF_RET_K = 0x06;

    // ---------------------------------------------------------------- other flags

    public static final int EFD_NONBLOCK = 0x800;
    public static final int EFD_CLOEXEC = 0x80000;
    public static final int O_RDONLY = 0;
    public static final int O_CLOEXEC = 0x80000;
    public static final int CLONE_NEWNET = 0x40000000;
    public static final short POLLIN = 1;
    /** poll revents: an error is pending (for a socket, sk_err or its error queue). */
    public static final short POLLERR = 8;

    public static final int MSG_CTRUNC = 0x8;
    public static final int MSG_TRUNC = 0x20;
    public static final int MSG_DONTWAIT = 0x40;

    // ---------------------------------------------------------------- errno

    public static final int EPERM = 1;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int EPROTO = 71;
    public static final int EAGAIN = 11;
    public static final int EACCES = 13;
    public static final int EINVAL = 22;
    public static final int EMSGSIZE = 90;
    public static final int EPROTONOSUPPORT = 93;
    public static final int EAFNOSUPPORT = 97;
    public static final int EADDRINUSE = 98;
    public static final int EADDRNOTAVAIL = 99;
    public static final int ENOBUFS = 105;
    public static final int ECONNREFUSED = 111;
    public static final int ENONET = 64;
    public static final int ENOPROTOOPT = 92;
    public static final int EOPNOTSUPP = 95;
    public static final int ENETUNREACH = 101;
    public static final int EHOSTDOWN = 112;
    public static final int EHOSTUNREACH = 113;

    /**
     * Whether a socket call's {@code errno} is one the kernel maps an ICMP error to (the pending
     * socket error of ip(7) / ipv6(7)): the packet that caused it was sent earlier; the call itself
     * did not fail for its own reasons. With IP_RECVERR the details wait on the error queue.
     */
    public static boolean isIcmpErrno(int errno) {
        return errno == ECONNREFUSED
                || errno == EHOSTUNREACH
                || errno == ENETUNREACH
                || errno == ENOPROTOOPT
                || errno == EMSGSIZE
                || errno == EHOSTDOWN
                || errno == ENONET
                || errno == EOPNOTSUPP
                || errno == EACCES
                || errno == EPROTO;
    }
}
