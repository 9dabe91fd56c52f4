package org.sctpj.bench.runner;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * CPU seconds per gigabyte (10^9 bytes) over a measured window of one benchmark process: of the
 * whole process (every thread: the stack thread, the JIT, the garbage collector) and of the thread
 * that moved the bytes (the stack thread for the callback API, the main thread for the kernel
 * contenders). Unlike MB/s, these hardly change with the machine's load, so they compare two
 * builds or two contenders on a shared machine. {@link #start} and {@link #stop} are called on the
 * thread that moves the bytes; {@link #stop} may also come from another thread while that thread is
 * still alive.
 */
final class CpuMeter {
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private long process0 = -1;
    private long thread0;
    private long threadId;
    private long bytes0;
    private double processSecondsPerGb = Double.NaN;
    private double threadSecondsPerGb = Double.NaN;

    CpuMeter() {
        OS.getProcessCpuTime(); // loads and binds the MXBeans before the measured window
        THREADS.getCurrentThreadCpuTime();
    }

    /** Opens the window, on the thread that moves the bytes, with the bytes moved so far. */
    void start(long bytes) {
        threadId = Thread.currentThread().getId();
        thread0 = THREADS.getCurrentThreadCpuTime();
        process0 = OS.getProcessCpuTime();
        bytes0 = bytes;
    }

    boolean started() {
        return process0 >= 0;
    }

    /** Closes the window with the bytes moved by now; does nothing if it was not opened or is closed. */
    void stop(long bytes) {
        if (process0 < 0 || !Double.isNaN(processSecondsPerGb)) {
            return;
        }
        long thread = Thread.currentThread().getId() == threadId
                ? THREADS.getCurrentThreadCpuTime()
                : THREADS.getThreadCpuTime(threadId);
        long process = OS.getProcessCpuTime();
        double gb = (bytes - bytes0) / 1e9;
        if (gb > 0) {
            processSecondsPerGb = (process - process0) / 1e9 / gb;
            threadSecondsPerGb = thread >= 0 ? (thread - thread0) / 1e9 / gb : Double.NaN;
        }
    }

    /** The result keys {@code cpu_s_per_gb} (process) and {@code thread_cpu_s_per_gb}. */
    String result() {
        return String.format(
                Locale.ROOT, " cpu_s_per_gb=%.3f thread_cpu_s_per_gb=%.3f", processSecondsPerGb, threadSecondsPerGb);
    }
}
