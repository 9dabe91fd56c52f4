package org.sctpj.llp.raw;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import jnr.ffi.LibraryLoader;
import jnr.ffi.LibraryOption;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.annotations.SaveError;
import jnr.ffi.types.size_t;
import jnr.ffi.types.ssize_t;

/**
 * The few C library calls the raw lower layer makes, bound through JNR-FFI, with the Linux
 * constants and struct layouts (LP64: x86-64 and AArch64) they need.
 *
 * <p>Native memory is held in direct {@link ByteBuffer}s in native byte order; {@link #address}
 * gives the address to store in a struct or to wrap in a {@link Pointer} once. No call allocates
 * a Java object per packet.
 */
final class Native {
    private Native() {}

    /** The libc functions used, with errno saved after each call. */
    public interface LibC {
        /** socket(2). */
        @SaveError
        int socket(int domain, int type, int protocol);

        /** setsockopt(2). */
        @SaveError
        int setsockopt(int fd, int level, int option, Pointer value, int length);

        /** sendmsg(2). */
        @SaveError
        @ssize_t
        long sendmsg(int fd, Pointer msghdr, int flags);

        /** recvmsg(2). */
        @SaveError
        @ssize_t
        long recvmsg(int fd, Pointer msghdr, int flags);

        /** recvmmsg(2); {@code timeout} may be null. */
        @SaveError
        int recvmmsg(int fd, Pointer mmsghdrs, int count, int flags, Pointer timeout);

        /** ppoll(2); {@code timeout} null blocks without limit, {@code sigmask} is null. */
        @SaveError
        int ppoll(Pointer fds, long count, Pointer timeout, Pointer sigmask);

        /** eventfd(2). */
        @SaveError
        int eventfd(int initial, int flags);

        /** read(2). */
        @SaveError
        @ssize_t
        long read(int fd, Pointer buffer, @size_t long count);

        /** write(2). */
        @SaveError
        @ssize_t
        long write(int fd, Pointer buffer, @size_t long count);

        /** open(2) without a mode. */
        @SaveError
        int open(String path, int flags);

        /** setns(2). */
        @SaveError
        int setns(int fd, int nstype);

        /** close(2). */
        @SaveError
        int close(int fd);

        /** strerror(3). */
        String strerror(int errno);
    }

    // ---------------------------------------------------------------- constants (Linux)

    static final int AF_INET = 2;
    static final int AF_INET6 = 10;
    static final int SOCK_RAW = 3;
    static final int SOCK_NONBLOCK = 0x800;
    static final int SOCK_CLOEXEC = 0x80000;
    static final int IPPROTO_SCTP = 132;
    static final int IPPROTO_IP = 0;
    static final int IPPROTO_IPV6 = 41;
    static final int SOL_SOCKET = 1;
    static final int SO_SNDBUF = 7;
    static final int SO_RCVBUF = 8;
    static final int IP_PKTINFO = 8;
    static final int IPV6_RECVPKTINFO = 49;
    static final int IPV6_PKTINFO = 50;
    static final int EFD_NONBLOCK = 0x800;
    static final int EFD_CLOEXEC = 0x80000;
    static final int O_RDONLY = 0;
    static final int O_CLOEXEC = 0x80000;
    static final int CLONE_NEWNET = 0x40000000;
    static final short POLLIN = 1;
    static final int MSG_CTRUNC = 0x8;
    static final int MSG_TRUNC = 0x20;
    static final int MSG_DONTWAIT = 0x40;

    static final int EPERM = 1;
    static final int EINTR = 4;
    static final int EAGAIN = 11;
    static final int EACCES = 13;
    static final int EINVAL = 22;
    static final int EMSGSIZE = 90;
    static final int EPROTONOSUPPORT = 93;
    static final int EAFNOSUPPORT = 97;
    static final int EADDRNOTAVAIL = 99;
    static final int ENOBUFS = 105;

    // ---------------------------------------------------------------- struct layouts (LP64)

    /** struct msghdr: name, namelen, iov, iovlen, control, controllen, flags. */
    static final int MSGHDR_SIZE = 56;

    static final int MSG_NAME = 0;
    static final int MSG_NAMELEN = 8;
    static final int MSG_IOV = 16;
    static final int MSG_IOVLEN = 24;
    static final int MSG_CONTROL = 32;
    static final int MSG_CONTROLLEN = 40;
    static final int MSG_FLAGS = 48;
    /** struct mmsghdr: a msghdr and the received length. */
    static final int MMSGHDR_SIZE = 64;

    static final int MMSG_LEN = 56;
    /** struct iovec: base, len. */
    static final int IOVEC_SIZE = 16;
    /** struct cmsghdr: len (size_t), level, type, then data aligned to 8. */
    static final int CMSG_HEADER = 16;
    /** struct in_pktinfo: ifindex, spec_dst, addr. */
    static final int IN_PKTINFO_SIZE = 12;
    /** struct in6_pktinfo: addr, ifindex. */
    static final int IN6_PKTINFO_SIZE = 20;
    /** struct sockaddr_in. */
    static final int SOCKADDR_IN_SIZE = 16;
    /** struct sockaddr_in6. */
    static final int SOCKADDR_IN6_SIZE = 28;
    /** struct pollfd: fd, events, revents. */
    static final int POLLFD_SIZE = 8;
    /** struct timespec. */
    static final int TIMESPEC_SIZE = 16;

    /** CMSG_ALIGN. */
    static int cmsgAlign(int n) {
        return (n + 7) & ~7;
    }

    /** CMSG_SPACE. */
    static int cmsgSpace(int dataLength) {
        return CMSG_HEADER + cmsgAlign(dataLength);
    }

    // ---------------------------------------------------------------- loading

    private static volatile LibC libc;
    private static volatile Runtime runtime;

    /**
     * The bound C library.
     *
     * @throws IOException if this is not Linux on a 64-bit CPU or the C library cannot be bound
     */
    static LibC libc() throws IOException {
        LibC l = libc;
        if (l != null) {
            return l;
        }
        synchronized (Native.class) {
            if (libc == null) {
                String os = System.getProperty("os.name", "");
                String arch = System.getProperty("os.arch", "");
                if (!os.toLowerCase(java.util.Locale.ROOT).contains("linux")
                        || !(arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64"))) {
                    throw new IOException("raw SCTP sockets are implemented for Linux on x86-64 and AArch64 only"
                            + " (this is " + os + " on " + arch + "): use the llp-udp-encap lower layer");
                }
                try {
                    LibC loaded = LibraryLoader.create(LibC.class)
                            .option(LibraryOption.SaveError, true)
                            .load("c");
                    runtime = Runtime.getRuntime(loaded);
                    libc = loaded;
                } catch (LinkageError | RuntimeException e) {
                    throw new IOException("cannot bind the C library through JNR-FFI: " + e, e);
                }
            }
            return libc;
        }
    }

    /** The JNR runtime of the bound library ({@link #libc()} first). */
    static Runtime runtime() {
        return runtime;
    }

    /** errno of the calling thread's last call. */
    static int errno() {
        return runtime.getLastError();
    }

    /** strerror(errno) with the number, e.g. {@code "Operation not permitted (errno 1)"}. */
    static String describe(int errno) {
        String text;
        try {
            text = libc.strerror(errno);
        } catch (RuntimeException e) {
            text = null;
        }
        return (text == null ? "error" : text) + " (errno " + errno + ")";
    }

    /** A zeroed direct buffer of {@code size} bytes in native order. */
    static ByteBuffer allocate(int size) {
        return ByteBuffer.allocateDirect(size).order(ByteOrder.nativeOrder());
    }

    /** The native address of a direct buffer's first byte. */
    static long address(ByteBuffer direct) {
        if (!direct.isDirect()) {
            throw new IllegalArgumentException("need a direct buffer");
        }
        return Pointer.wrap(runtime, direct).address();
    }

    /** A pointer to a direct buffer's first byte. */
    static Pointer pointer(ByteBuffer direct) {
        return Pointer.wrap(runtime, address(direct));
    }

    /**
     * The exception for a failed {@code socket(AF_INET[6], SOCK_RAW, 132)}: without CAP_NET_RAW it
     * says so and points to UDP encapsulation.
     */
    static IOException socketError(int errno, String family) {
        if (errno == EPERM || errno == EACCES) {
            return new RawSocketPermissionException(permissionMessage(family, describe(errno)));
        }
        if (errno == EAFNOSUPPORT || errno == EPROTONOSUPPORT) {
            return new FamilyUnsupportedException("the kernel offers no raw " + family + " sockets for protocol 132: "
                    + describe(errno) + ". Use the other address family or the llp-udp-encap lower layer.");
        }
        return new IOException("cannot open a raw " + family + " socket for SCTP (protocol 132): " + describe(errno));
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
}
