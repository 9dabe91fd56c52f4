package org.sctpj.bench.scale;

import com.sun.management.OperatingSystemMXBean;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.sctpj.api.callback.CallbackRuntime;
import org.sctpj.api.callback.CallbackSocket;
import org.sctpj.api.callback.Callbacks;
import org.sctpj.api.callback.UdpLayers;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;

/**
 * The server process of the scale benchmarks: one one-to-many {@link CallbackSocket} over UDP
 * encapsulation on 127.0.0.1 (the native path where it runs), on one stack thread, that echoes
 * every message back on its association (from the receive callback) and, with the argument {@code
 * track}, counts per association the messages it received (a map entry per association, left out
 * when heap per association is measured).
 *
 * <p>It prints {@code READY sctp=<port> udp=<port>} once listening, then answers lines on standard
 * input: {@code STAT} prints one {@code STAT key=value ...} line (heap in use after full
 * collections, direct memory, threads, open file descriptors, process and stack-thread CPU time,
 * associations up and ended, messages, associations that ended with other than one message);
 * {@code HISTO} prints the class histogram ({@link #histogram()}) and {@code HISTO-END};
 * {@code CPU} prints {@code CPU cpu_ns=... stack_cpu_ns=...} (no collection first); {@code QUIT}
 * closes the socket and exits.
 *
 * <p>With {@code shards=N} the socket's associations are spread over N stack threads sharing its
 * UDP port ({@link CallbackSocket#open(List, SctpOptions, org.sctpj.api.callback.LowerLayerFactory,
 * Callbacks)}); the stack-thread CPU is then the sum over them. With {@code selector} the server is
 * the socket API's instead: a non-blocking {@code SctpMultiChannel} served by one selector thread
 * that echoes each message ({@code track} is then ignored, and the up/ended/messages counts come
 * from that thread).
 *
 * <pre>java -cp bench/target/benchmarks.jar org.sctpj.bench.scale.ScaleServer [track] [shards=N] [selector]</pre>
 */
public final class ScaleServer {
    private ScaleServer() {}

    /** The options of both ends: RFC 9260 defaults (HB.interval 30 s), no Nagle delay. */
    static final SctpOptions OPTIONS = SctpOptions.WAN.toBuilder().noDelay(true).build();

    private static final AtomicLong UP = new AtomicLong();
    private static final AtomicLong ENDED = new AtomicLong();
    private static final AtomicLong MESSAGES = new AtomicLong();
    private static final AtomicLong NOT_ONE = new AtomicLong();
    private static final AtomicLong ECHO_REFUSED = new AtomicLong();
    /** The server's stack threads (their CPU is the stack-thread figure). */
    private static volatile List<Thread> stackThreads = List.of();

    /** Runs the server until {@code QUIT}. */
    public static void main(String[] args) throws Exception {
        InetAddress host = InetAddress.getByName("127.0.0.1");
        List<String> a = List.of(args);
        boolean track = a.contains("track");
        int shards = 1;
        for (String x : a) {
            if (x.startsWith("shards=")) {
                shards = Integer.parseInt(x.substring(7));
            }
        }
        if (a.contains("selector")) {
            SelectorServer.run(host, shards);
            return;
        }
        Map<AssociationId, int[]> counts = new HashMap<>(); // stack thread only
        Callbacks callbacks = new Callbacks() {
            @Override
            public void onMessage(CallbackSocket socket, SctpEvent.MessageReceived message) {
                throw new IllegalStateException("every message comes in place");
            }

            @Override
            public void onMessage(
                    CallbackSocket socket,
                    AssociationId association,
                    int streamId,
                    int ppid,
                    boolean unordered,
                    ByteBuffer data) {
                MESSAGES.incrementAndGet();
                int[] c = counts.get(association);
                if (c != null) {
                    c[0]++;
                }
                if (socket.send(association, SendInfo.of(streamId, ppid), data)
                        != org.sctpj.stack.SendStatus.ACCEPTED) {
                    ECHO_REFUSED.incrementAndGet();
                }
            }

            @Override
            public void onAssociationChange(CallbackSocket socket, SctpEvent.AssociationChange change) {
                switch (change.type()) {
                    case COMMUNICATION_UP -> {
                        UP.incrementAndGet();
                        if (track) {
                            counts.put(change.association(), new int[1]);
                        }
                    }
                    case COMMUNICATION_LOST, SHUTDOWN_COMPLETE -> {
                        ENDED.incrementAndGet();
                        int[] c = counts.remove(change.association());
                        if (c != null && c[0] != 1) {
                            NOT_ONE.incrementAndGet();
                        }
                    }
                    default -> {}
                }
            }
        };
        try (CallbackRuntime rt = CallbackRuntime.start(shards, "scale-server").withShardsPerSocket(shards)) {
            CallbackSocket s = rt.open(OPTIONS, UdpLayers.factory(0), callbacks);
            s.bind(5000, List.of(host));
            s.listen();
            java.util.concurrent.CountDownLatch named = new java.util.concurrent.CountDownLatch(shards);
            List<Thread> ts = new java.util.concurrent.CopyOnWriteArrayList<>();
            for (org.sctpj.timers.StackThread t : s.stackThreads()) {
                t.execute(() -> {
                    ts.add(Thread.currentThread());
                    named.countDown();
                });
            }
            named.await();
            stackThreads = List.copyOf(ts);
            System.out.println("READY sctp=5000 udp=" + s.udpLocalPort());
            System.out.flush();
            serve(() -> s.associations().size());
            s.close(false, java.time.Duration.ZERO);
        }
    }

    /** Answers the commands of the class comment on standard input until {@code QUIT}. */
    static void serve(java.util.function.IntSupplier associations) throws Exception {
        BufferedReader r = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = r.readLine()) != null) {
            if (line.equals("QUIT")) {
                break;
            }
            if (line.equals("HISTO")) {
                System.out.print(histogram());
                System.out.println("HISTO-END");
                System.out.flush();
            }
            if (line.equals("CPU")) {
                System.out.println("CPU cpu_ns=" + processCpuNanos() + " stack_cpu_ns=" + stackThreadCpuNanos());
                System.out.flush();
            }
            if (line.equals("STAT")) {
                System.out.println("STAT " + stat(associations.getAsInt()));
                System.out.flush();
            }
        }
    }

    /** The selector server's counts (see {@link SelectorServer}). */
    static void count(boolean up, boolean ended, boolean message) {
        if (up) {
            UP.incrementAndGet();
        }
        if (ended) {
            ENDED.incrementAndGet();
        }
        if (message) {
            MESSAGES.incrementAndGet();
        }
    }

    /** The threads whose CPU is the stack-thread figure. */
    static void stackThreads(List<Thread> threads) {
        stackThreads = List.copyOf(threads);
    }

    static String stat(int associations) throws Exception {
        long heap = heapAfterGc();
        return String.format(
                Locale.ROOT,
                "heap=%d direct=%d threads=%d fds=%d cpu_ns=%d stack_cpu_ns=%d up=%d ended=%d messages=%d"
                        + " not_one=%d echo_refused=%d associations=%d",
                heap,
                directBytes(),
                ManagementFactory.getThreadMXBean().getThreadCount(),
                openFds(),
                processCpuNanos(),
                stackThreadCpuNanos(),
                UP.get(),
                ENDED.get(),
                MESSAGES.get(),
                NOT_ONE.get(),
                ECHO_REFUSED.get(),
                associations);
    }

    /**
     * The heap's class histogram after a full collection ({@code jcmd GC.class_histogram}, taken
     * in-process through the DiagnosticCommand MBean): instances and bytes per class.
     */
    static String histogram() throws Exception {
        return (String) ManagementFactory.getPlatformMBeanServer()
                .invoke(
                        new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"),
                        "gcClassHistogram",
                        new Object[] {new String[0]},
                        new String[] {String[].class.getName()});
    }

    /** Heap in use after full collections: the least of five readings. */
    static long heapAfterGc() throws InterruptedException {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(50);
            best = Math.min(
                    best,
                    ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return best;
    }

    /** Bytes of direct buffers ({@code ByteBuffer.allocateDirect}) and mapped ones in use. */
    static long directBytes() {
        long n = 0;
        for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            n += b.getMemoryUsed();
        }
        return n;
    }

    static long openFds() throws IOException {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        }
    }

    static long processCpuNanos() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    static long stackThreadCpuNanos() {
        ThreadMXBean t = ManagementFactory.getThreadMXBean();
        long n = 0;
        for (Thread th : stackThreads) {
            n += t.getThreadCpuTime(th.getId());
        }
        return n;
    }
}
