package org.sctpj.nativeio;

import java.io.IOException;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Locale;
import jnr.ffi.LibraryLoader;
import jnr.ffi.LibraryOption;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/**
 * The C library bound once per process ({@link #libc()}), errno and its text, and the direct
 * memory the structs of {@link Layout} live in.
 *
 * <p>Native memory is held in direct {@link ByteBuffer}s in native byte order; {@link #address}
 * gives the address to store in a struct or to wrap in a {@link Pointer} once, when the buffers are
 * set up. Nothing here is meant to be called per packet except {@link #errno()} after a failed
 * call, which allocates nothing.
 */
public final class Native {
    private Native() {}

    private static volatile LibC libc;
    private static volatile Runtime runtime;

    /**
     * The bound C library: bound on the first call, the same instance afterwards. Thread-safe.
     *
     * @throws IOException if this is not Linux on x86-64 or AArch64 (the constants and layouts are
     *     those of these two), or the C library cannot be bound; the message says which
     */
    public static LibC libc() throws IOException {
        LibC l = libc;
        if (l != null) {
            return l;
        }
        synchronized (Native.class) {
            if (libc == null) {
                String os = System.getProperty("os.name", "");
                String arch = System.getProperty("os.arch", "");
                if (!os.toLowerCase(Locale.ROOT).contains("linux")
                        || !(arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64"))) {
                    throw new IOException("sctpj's native socket calls are implemented for Linux on x86-64 and"
                            + " AArch64 only (this is " + os + " on " + arch + ")");
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
    public static Runtime runtime() {
        return runtime;
    }

    /** errno of the calling thread's last call through {@link LibC} ({@link #libc()} first). */
    public static int errno() {
        return runtime.getLastError();
    }

    /** strerror(errno) with the number, e.g. {@code "Operation not permitted (errno 1)"}. */
    public static String describe(int errno) {
        String text;
        try {
            LibC l = libc;
            text = l == null ? null : l.strerror(errno);
        } catch (RuntimeException e) {
            text = null;
        }
        return (text == null ? "error" : text) + " (errno " + errno + ")";
    }

    /** A zeroed direct buffer of {@code size} bytes in native order. */
    public static ByteBuffer allocate(int size) {
        return ByteBuffer.allocateDirect(size).order(ByteOrder.nativeOrder());
    }

    /** The native address of a direct buffer's first byte ({@link #libc()} first). */
    public static long address(ByteBuffer direct) {
        if (!direct.isDirect()) {
            throw new IllegalArgumentException("need a direct buffer");
        }
        return Pointer.wrap(runtime, direct).address();
    }

    /** A pointer to a direct buffer's first byte. */
    public static Pointer pointer(ByteBuffer direct) {
        return Pointer.wrap(runtime, address(direct));
    }

    /** A pointer to a native address. */
    public static Pointer pointer(long address) {
        return Pointer.wrap(runtime, address);
    }

    // ---------------------------------------------------------------- int socket options

    /** setsockopt of an int option; true when the kernel accepted it (else see {@link #errno()}). */
    public static boolean trySetIntOption(int fd, int level, int option, int value) throws IOException {
        ByteBuffer v = allocate(4);
        v.putInt(0, value);
        int r = libc().setsockopt(fd, level, option, pointer(v), 4);
        Reference.reachabilityFence(v);
        return r == 0;
    }

    /**
     * setsockopt of an int option.
     *
     * @param name the option's C name, for the message
     * @param socket what the socket is ("a raw socket", "a UDP socket"), for the message
     * @throws IOException naming the option, the socket and errno when the kernel refuses it
     */
    public static void setIntOption(int fd, int level, int option, int value, String name, String socket)
            throws IOException {
        if (!trySetIntOption(fd, level, option, value)) {
            throw new IOException("setsockopt(" + name + ") failed on " + socket + ": " + describe(errno()));
        }
    }

    /** getsockopt of an int option: its value, or -1 when the kernel refuses it. */
    public static int getIntOption(int fd, int level, int option) throws IOException {
        ByteBuffer v = allocate(8);
        v.putInt(4, 4); // socklen_t after the value
        int r = libc().getsockopt(fd, level, option, pointer(v), pointer(address(v) + 4));
        Reference.reachabilityFence(v);
        return r == 0 ? v.getInt(0) : -1;
    }

    /** Whether getsockopt of an int option succeeds: the kernel knows the option on this socket. */
    public static boolean hasIntOption(int fd, int level, int option) throws IOException {
        ByteBuffer v = allocate(8);
        v.putInt(4, 4); // socklen_t after the value
        int r = libc().getsockopt(fd, level, option, pointer(v), pointer(address(v) + 4));
        Reference.reachabilityFence(v);
        return r == 0;
    }
}
