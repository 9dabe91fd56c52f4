package org.sctpj.nativeio;

import jnr.ffi.Pointer;
import jnr.ffi.annotations.SaveError;
import jnr.ffi.types.size_t;
import jnr.ffi.types.ssize_t;

/**
 * The C library functions sctpj's lower layers call, bound through JNR-FFI with errno saved after
 * each call (read it with {@link Native#errno()} on the same thread, before the next call). Get
 * the one instance with {@link Native#libc()}.
 *
 * <p>Structs are passed as {@link Pointer}s to native-order direct buffers laid out as {@link
 * Layout} says; constants are in {@link Linux}. All calls are the plain system-call wrappers: on
 * failure they return -1 and set errno.
 */
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

    /** recvmsg(2). */
    @SaveError
    @ssize_t
    long recvmsg(int fd, Pointer msghdr, int flags);

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
