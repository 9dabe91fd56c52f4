package org.sctpj.bench.core;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Locale;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;

/**
 * Bytes allocated per message in steady-state bulk transfer, split into the sender's and the
 * receiver's share: the {@link BackToBack} loop of {@link org.sctpj.bench.micro.BulkAllocBench},
 * with the thread's allocation counter ({@code com.sun.management.ThreadMXBean}) read whenever the
 * work switches sides.
 *
 * <pre>java -cp bench/target/benchmarks.jar org.sctpj.bench.core.BulkAllocation [size] [messages]</pre>
 */
public final class BulkAllocation {

    private BulkAllocation() {}

    private static final com.sun.management.ThreadMXBean MX =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static final class Counter implements BackToBack.SideProbe {
        boolean on;
        boolean current = true;
        long mark;
        final long[] bytes = new long[2];

        @Override
        public void side(boolean sender) {
            if (!on || sender == current) {
                return;
            }
            long t = MX.getCurrentThreadAllocatedBytes();
            bytes[current ? 0 : 1] += t - mark;
            mark = MX.getCurrentThreadAllocatedBytes();
            current = sender;
        }

        void start() {
            on = true;
            current = true;
            bytes[0] = 0;
            bytes[1] = 0;
            mark = MX.getCurrentThreadAllocatedBytes();
        }

        void stop() {
            long t = MX.getCurrentThreadAllocatedBytes();
            bytes[current ? 0 : 1] += t - mark;
            on = false;
        }
    }

    /** Runs the loop and prints bytes per message, total and per side. */
    public static void main(String[] args) {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 2_000_000;
        Counter c = new Counter();
        BackToBack pair = new BackToBack(SctpOptions.LAN, c);
        ByteBuffer msg = ByteBuffer.allocate(size);
        SendInfo info = SendInfo.of(0, 51);
        for (int i = 0; i < n; i++) { // warm-up: the JIT compiles the loop, escape analysis applies
            pair.advance(2_000);
            pair.send(info, msg, 2_000);
            pair.round();
        }
        long d0 = pair.delivered();
        long start = MX.getCurrentThreadAllocatedBytes();
        c.start();
        for (int i = 0; i < n; i++) {
            pair.advance(2_000);
            pair.send(info, msg, 2_000);
            pair.round();
        }
        c.stop();
        long total = MX.getCurrentThreadAllocatedBytes() - start;
        pair.settle(100_000, 100_000);
        long delivered = pair.delivered() - d0;
        System.out.printf(
                Locale.ROOT,
                "BULK-ALLOC size=%d messages=%d delivered=%d bytes_per_msg_total=%.1f sender=%.1f receiver=%.1f"
                        + " (receiver's share includes the delivered byte[] of %d bytes + header)%n",
                size,
                n,
                delivered,
                (double) total / n,
                (double) c.bytes[0] / n,
                (double) c.bytes[1] / n,
                size);
    }
}
