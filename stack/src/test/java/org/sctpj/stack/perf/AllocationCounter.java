package org.sctpj.stack.perf;

import java.lang.reflect.Method;

/**
 * The current thread's allocated bytes ({@code com.sun.management.ThreadMXBean
 * #getCurrentThreadAllocatedBytes}), reached by reflection because the stack module (whose tests
 * run on the module path) does not read {@code java.management}. Each read allocates a boxed Long;
 * read it only around a measured loop.
 */
final class AllocationCounter {

    private static final Object BEAN;
    private static final Method READ;

    static {
        try {
            Class<?> factory = Class.forName("java.lang.management.ManagementFactory");
            BEAN = factory.getMethod("getThreadMXBean").invoke(null);
            Class<?> sunBean = Class.forName("com.sun.management.ThreadMXBean");
            READ = sunBean.getMethod("getCurrentThreadAllocatedBytes");
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private AllocationCounter() {}

    /** Bytes allocated by the calling thread since it started. */
    static long now() {
        try {
            return (Long) READ.invoke(BEAN);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read the thread allocation counter", e);
        }
    }
}
