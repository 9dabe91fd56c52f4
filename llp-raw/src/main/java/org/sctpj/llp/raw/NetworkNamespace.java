package org.sctpj.llp.raw;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.sctpj.nativeio.LibC;
import org.sctpj.nativeio.Linux;
import org.sctpj.nativeio.Native;

/**
 * Runs code inside a Linux network namespace, on a thread of its own.
 *
 * <p>Linux keeps the network namespace per thread, and a socket stays in the namespace it was
 * created in. So a fresh thread that enters a namespace with setns(2), opens sockets and ends
 * leaves those sockets working in that namespace while every other thread of the JVM stays where
 * it was. This is how one process can run a raw-IP endpoint in each of two namespaces (see {@link
 * RawIpLowerLayer.Builder#networkNamespace}), for example the two ends of a veth pair in a test.
 *
 * <p>Entering a namespace needs CAP_SYS_ADMIN. Socket creation and {@link Interfaces} (which reads
 * IPv6 addresses from {@code /proc/thread-self/net}) see the namespace entered; anything that
 * reads {@code /proc/self/net} sees the process's.
 */
public final class NetworkNamespace {
    private NetworkNamespace() {}

    /** The file of a namespace created by {@code ip netns add NAME}: {@code /var/run/netns/NAME}. */
    public static Path named(String name) {
        if (name.isEmpty() || name.contains("/")) {
            throw new IllegalArgumentException("a namespace name is a non-empty file name, got \"" + name + "\"");
        }
        return Path.of("/var/run/netns", name);
    }

    /**
     * Runs {@code task} on a new thread that has entered the network namespace {@code namespace}
     * (a file such as {@code /var/run/netns/NAME} or {@code /proc/PID/ns/net}), and returns its
     * result. The thread ends afterwards; the caller's namespace is never changed.
     *
     * @throws IOException if the namespace cannot be entered (missing file, no CAP_SYS_ADMIN), or
     *     the task threw one
     */
    public static <T> T call(Path namespace, Callable<T> task) throws IOException {
        LibC c = Native.libc();
        Object[] result = new Object[1];
        Throwable[] failure = new Throwable[1];
        Thread t = new Thread(
                () -> {
                    try {
                        int fd = c.open(namespace.toString(), Linux.O_RDONLY | Linux.O_CLOEXEC);
                        if (fd < 0) {
                            throw new IOException("cannot open network namespace " + namespace + ": "
                                    + Native.describe(Native.errno()));
                        }
                        try {
                            if (c.setns(fd, Linux.CLONE_NEWNET) != 0) {
                                throw new IOException("cannot enter network namespace " + namespace + ": "
                                        + Native.describe(Native.errno()) + " (entering needs CAP_SYS_ADMIN)");
                            }
                        } finally {
                            c.close(fd);
                        }
                        result[0] = task.call();
                    } catch (Throwable e) {
                        failure[0] = e;
                    }
                },
                "netns-" + namespace.getFileName());
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the thread in namespace " + namespace, e);
        }
        Throwable f = failure[0];
        if (f instanceof IOException io) {
            throw io;
        }
        if (f instanceof RuntimeException re) {
            throw re;
        }
        if (f instanceof Error err) {
            throw err;
        }
        if (f != null) {
            throw new IOException("task in network namespace " + namespace + " failed: " + f, f);
        }
        @SuppressWarnings("unchecked")
        T r = (T) result[0];
        return r;
    }
}
