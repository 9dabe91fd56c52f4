package org.sctpj.llp.udp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Locale;
import jnr.ffi.LibraryLoader;
import jnr.ffi.LibraryOption;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.annotations.SaveError;
import jnr.ffi.types.size_t;
import jnr.ffi.types.ssize_t;

/**
 * The C library calls of the native UDP path ({@link NativeUdp}), bound through JNR-FFI, with the
 * Linux constants and struct layouts (LP64: x86-64 and AArch64) they need. The same approach as
 * the raw lower layer's {@code Native} (llp-raw), kept apart so that this module does not depend
 * on that one: the two share a handful of constants, not their calls.
 *
 * <p>Native memory is held in direct {@link ByteBuffer}s in native byte order; {@link #address}
 * gives the address to store in a struct. No call allocates a Java object per packet.
 */
final class UdpNative {
    private UdpNative() {}

    /** The libc functions used, with errno saved after each call. */
    public interface LibC {
        /** socket(2). */
        @SaveError
        int socket(int domain, int type, int protocol);

        /** bind(2). */
        @SaveError
        int bind(int fd, Pointer address, int length);

        /** getsockname(2); {@code length} points to a socklen_t. */
        @SaveError
        int getsockname(int fd, Pointer address, Pointer length);

        /** setsockopt(2). */
        @SaveError
        int setsockopt(int fd, int level, int option, Pointer value, int length);

        /** getsockopt(2); {@code length} points to a socklen_t. */
        @SaveError
        int getsockopt(int fd, int level, int option, Pointer value, Pointer length);

        /** sendmsg(2). */
        @SaveError
        @ssize_t
        long sendmsg(int fd, Pointer msghdr, int flags);

        /** sendmmsg(2). */
        @SaveError
        int sendmmsg(int fd, Pointer mmsghdrs, int count, int flags);

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

        /** close(2). */
        @SaveError
        int close(int fd);

        /** strerror(3). */
        String strerror(int errno);
    }

    // ---------------------------------------------------------------- constants (Linux)

    static final int AF_INET = 2;
    static final int AF_INET6 = 10;
    static final int SOCK_DGRAM = 2;
    static final int SOCK_NONBLOCK = 0x800;
    static final int SOCK_CLOEXEC = 0x80000;
    static final int IPPROTO_IPV6 = 41;
    static final int SOL_SOCKET = 1;
    static final int SOL_UDP = 17;
    static final int SO_SNDBUF = 7;
    static final int SO_RCVBUF = 8;
    static final int IPV6_V6ONLY = 26;
    /** UDP GSO: the segment size, as a socket option or a control message (Linux 4.18). */
    static final int UDP_SEGMENT = 103;
    /** UDP GRO: receive coalesced datagrams with their segment size in a control message (Linux 5.0). */
    static final int UDP_GRO = 104;
    /** The kernel's bound on the segments of one GSO send (UDP_MAX_SEGMENTS). */
    static final int UDP_MAX_SEGMENTS = 64;

    static final int EFD_NONBLOCK = 0x800;
    static final int EFD_CLOEXEC = 0x80000;
    static final short POLLIN = 1;
    static final int MSG_TRUNC = 0x20;
    static final int MSG_DONTWAIT = 0x40;

    static final int EPERM = 1;
    static final int EINTR = 4;
    static final int EIO = 5;
    static final int EAGAIN = 11;
    static final int EINVAL = 22;
    static final int EMSGSIZE = 90;
    static final int EAFNOSUPPORT = 97;
    static final int EADDRINUSE = 98;
    static final int EADDRNOTAVAIL = 99;
    static final int ENOBUFS = 105;
    static final int ECONNREFUSED = 111;

    // ---------------------------------------------------------------- struct layouts (LP64)

    /** struct msghdr: name, namelen, iov, iovlen, control, controllen, flags. */
    static final int MSG_NAME = 0;

    static final int MSG_NAMELEN = 8;
    static final int MSG_IOV = 16;
    static final int MSG_IOVLEN = 24;
    static final int MSG_CONTROL = 32;
    static final int MSG_CONTROLLEN = 40;
    static final int MSG_FLAGS = 48;
    /** struct mmsghdr: a msghdr and the length sent or received. */
    static final int MMSGHDR_SIZE = 64;

    static final int MMSG_LEN = 56;
    /** struct iovec: base, len. */
    static final int IOVEC_SIZE = 16;
    /** struct cmsghdr: len (size_t), level, type, then data aligned to 8. */
    static final int CMSG_HEADER = 16;
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
    private static volatile String unavailable;

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
        synchronized (UdpNative.class) {
            if (libc == null) {
                String os = System.getProperty("os.name", "");
                String arch = System.getProperty("os.arch", "");
                if (!os.toLowerCase(Locale.ROOT).contains("linux")
                        || !(arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64"))) {
                    throw new IOException("the native UDP path is implemented for Linux on x86-64 and AArch64 only"
                            + " (this is " + os + " on " + arch + ")");
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

    /**
     * Null when the native path can be used here: the C library binds and the kernel accepts
     * UDP_SEGMENT on a UDP socket (Linux 4.18 and later); else why not. Probed once.
     */
    static String unavailableReason() {
        String u = unavailable;
        if (u != null) {
            return u.isEmpty() ? null : u;
        }
        synchronized (UdpNative.class) {
            if (unavailable == null) {
                unavailable = probe();
            }
            return unavailable.isEmpty() ? null : unavailable;
        }
    }

    private static String probe() {
        LibC c;
        try {
            c = libc();
        } catch (IOException e) {
            return e.getMessage();
        }
        int fd = c.socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (fd < 0) {
            fd = c.socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        }
        if (fd < 0) {
            return "cannot open a UDP socket: " + describe(errno());
        }
        try {
            ByteBuffer v = allocate(8);
            v.putInt(4, 4);
            int r = c.getsockopt(fd, SOL_UDP, UDP_SEGMENT, pointer(v), Pointer.wrap(runtime, address(v) + 4));
            if (r != 0) {
                return "the kernel does not accept UDP_SEGMENT (UDP GSO needs Linux 4.18 or later): "
                        + describe(errno());
            }
            return "";
        } finally {
            c.close(fd);
        }
    }

    /** errno of the calling thread's last call. */
    static int errno() {
        return runtime.getLastError();
    }

    /** strerror(errno) with the number, e.g. {@code "Invalid argument (errno 22)"}. */
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

    /** A pointer to a native address. */
    static Pointer pointer(long address) {
        return Pointer.wrap(runtime, address);
    }
}
