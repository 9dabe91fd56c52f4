package org.sctpj.nativeio;

import java.nio.ByteBuffer;

/**
 * The layouts of the C structs the lower layers build in direct buffers, as byte sizes and field
 * offsets, and the control-message macros (CMSG_ALIGN, CMSG_LEN, CMSG_SPACE) as methods.
 *
 * <p>LP64 Linux (x86-64 and AArch64, the only CPUs {@link Native#libc()} binds on): pointers,
 * {@code size_t} and {@code long} are 8 bytes, {@code int} and {@code socklen_t} 4, and both
 * architectures lay these structs out alike. Multi-byte fields are written in native order, except
 * where the C type is in network order (ports and addresses in sockaddrs and pktinfo). {@code
 * LayoutTest} holds the sizes and offsets against gcc's {@code sizeof} and {@code offsetof}.
 */
public final class Layout {
    private Layout() {}

    // ---------------------------------------------------------------- struct msghdr / mmsghdr

    /** struct msghdr: name, namelen, iov, iovlen, control, controllen, flags. */
    public static final int MSGHDR_SIZE = 56;

    public static final int MSG_NAME = 0;
    public static final int MSG_NAMELEN = 8;
    public static final int MSG_IOV = 16;
    public static final int MSG_IOVLEN = 24;
    public static final int MSG_CONTROL = 32;
    public static final int MSG_CONTROLLEN = 40;
    public static final int MSG_FLAGS = 48;
    /** struct mmsghdr: a msghdr and the length sent or received. */
    public static final int MMSGHDR_SIZE = 64;

    public static final int MMSG_LEN = 56;

    // ---------------------------------------------------------------- struct iovec

    /** struct iovec: base, len. */
    public static final int IOVEC_SIZE = 16;

    public static final int IOV_BASE = 0;
    public static final int IOV_LEN = 8;

    // ---------------------------------------------------------------- struct cmsghdr

    /** struct cmsghdr: len (size_t), level, type, then the data aligned to 8 (CMSG_LEN(0)). */
    public static final int CMSG_HEADER = 16;

    public static final int CMSG_LEN_FIELD = 0;
    public static final int CMSG_LEVEL = 8;
    public static final int CMSG_TYPE = 12;

    // ---------------------------------------------------------------- pktinfo

    /** struct in_pktinfo: ifindex, spec_dst, addr. */
    public static final int IN_PKTINFO_SIZE = 12;

    public static final int IPI_IFINDEX = 0;
    public static final int IPI_SPEC_DST = 4;
    public static final int IPI_ADDR = 8;
    /** struct in6_pktinfo: addr, ifindex. */
    public static final int IN6_PKTINFO_SIZE = 20;

    public static final int IPI6_ADDR = 0;
    public static final int IPI6_IFINDEX = 16;

    // ---------------------------------------------------------------- sockaddr_in / sockaddr_in6

    /** struct sockaddr_in: family (native order), port, address (network order), zero padding. */
    public static final int SOCKADDR_IN_SIZE = 16;
    /** struct sockaddr_in6: family, port, flowinfo, address, scope id (native order). */
    public static final int SOCKADDR_IN6_SIZE = 28;

    /** The family field of both, 2 bytes. */
    public static final int SA_FAMILY = 0;
    /** The port field of both, 2 bytes in network order. */
    public static final int SA_PORT = 2;

    public static final int SIN_ADDR = 4;
    public static final int SIN6_FLOWINFO = 4;
    public static final int SIN6_ADDR = 8;
    public static final int SIN6_SCOPE_ID = 24;

    // ---------------------------------------------------------------- pollfd, timespec

    /** struct pollfd: fd, events, revents. */
    public static final int POLLFD_SIZE = 8;

    public static final int POLL_FD = 0;
    public static final int POLL_EVENTS = 4;
    public static final int POLL_REVENTS = 6;
    /** struct timespec: seconds, nanoseconds. */
    public static final int TIMESPEC_SIZE = 16;

    public static final int TV_SEC = 0;
    public static final int TV_NSEC = 8;

    /** struct sock_filter (one classic BPF instruction): code u16, jt u8, jf u8, k u32. */
    public static final int SOCK_FILTER_SIZE = 8;

    public static final int FILTER_CODE = 0;
    public static final int FILTER_JT = 2;
    public static final int FILTER_JF = 3;
    public static final int FILTER_K = 4;
    /** struct sock_fprog: the instruction count (u16), then a pointer to the instructions. */
    public static final int SOCK_FPROG_SIZE = 16;

    public static final int FPROG_LEN = 0;
    public static final int FPROG_FILTER = 8;

    /** sizeof(struct sock_extended_err): the data of an IP_RECVERR / IPV6_RECVERR control message. */
    public static final int EXTENDED_ERR_SIZE = 16;
    /** Offset of ee_errno (u32) in sock_extended_err. */
    public static final int EE_ERRNO = 0;
    /** Offset of ee_origin (u8): where the error came from (SO_EE_ORIGIN_*). */
    public static final int EE_ORIGIN = 4;
    /** Offset of ee_type (u8): the ICMP type. */
    public static final int EE_TYPE = 5;
    /** Offset of ee_code (u8): the ICMP code. */
    public static final int EE_CODE = 6;
    /** Offset of ee_info (u32): the MTU of a Packet Too Big / Fragmentation Needed. */
    public static final int EE_INFO = 8;

    // ---------------------------------------------------------------- control messages

    /** CMSG_ALIGN: {@code n} rounded up to the 8-byte alignment of control messages. */
    public static int cmsgAlign(int n) {
        return (n + 7) & ~7;
    }

    /** CMSG_LEN: the cmsg_len of a control message carrying {@code dataLength} bytes. */
    public static int cmsgLen(int dataLength) {
        return CMSG_HEADER + dataLength;
    }

    /** CMSG_SPACE: the bytes a control message of {@code dataLength} bytes takes in the buffer. */
    public static int cmsgSpace(int dataLength) {
        return CMSG_HEADER + cmsgAlign(dataLength);
    }

    /**
     * Writes the header of a control message carrying {@code dataLength} bytes at {@code at} of
     * {@code b} (native order); the data goes at {@code at + CMSG_HEADER}.
     */
    public static void putControlHeader(ByteBuffer b, int at, int level, int type, int dataLength) {
        b.putLong(at + CMSG_LEN_FIELD, cmsgLen(dataLength));
        b.putInt(at + CMSG_LEVEL, level);
        b.putInt(at + CMSG_TYPE, type);
    }

    /**
     * The position in {@code b} of the data of the first control message of {@code level} and
     * {@code type} carrying at least {@code minData} bytes, among the {@code controlLength} bytes
     * of control messages at {@code base} (native order); -1 when there is none or a header is
     * malformed (the walk of CMSG_FIRSTHDR / CMSG_NXTHDR, bounded by the buffer). Allocates
     * nothing.
     */
    public static int findControl(ByteBuffer b, int base, int controlLength, int level, int type, int minData) {
        int at = 0;
        while (at + CMSG_HEADER <= controlLength) {
            long len = b.getLong(base + at + CMSG_LEN_FIELD);
            if (len < CMSG_HEADER || at + len > controlLength) {
                return -1;
            }
            if (b.getInt(base + at + CMSG_LEVEL) == level
                    && b.getInt(base + at + CMSG_TYPE) == type
                    && len >= CMSG_HEADER + minData) {
                return base + at + CMSG_HEADER;
            }
            at += cmsgAlign((int) len);
        }
        return -1;
    }
}
