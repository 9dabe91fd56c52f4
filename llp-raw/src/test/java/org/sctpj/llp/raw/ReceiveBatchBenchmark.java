package org.sctpj.llp.raw;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Measures what recvmmsg batching buys: a sender in one namespace blasts 1,200-byte packets over
 * the veth pair for two seconds per setting; the receiver drains with batches of 1 (recvmsg), 16
 * and 64 and reports packets received and its own CPU time per packet. Not a test (tests never
 * assert on speed): run with {@code -Dsctpj.bench=true -Dtest=ReceiveBatchBenchmark}, as root.
 */
@EnabledIfSystemProperty(named = "sctpj.bench", matches = "true")
class ReceiveBatchBenchmark {

    @Test
    void compareBatchSizes() throws Exception {
        VethPair.assumeRoot();
        try (VethPair pair = VethPair.create()) {
            for (boolean busy : new boolean[] {false, true}) {
                for (int round = 0; round < 2; round++) {
                    for (int batch : new int[] {1, 16, 64}) {
                        run(pair, batch, busy, round == 0);
                    }
                }
            }
        }
    }

    private static void run(VethPair pair, int batch, boolean busy, boolean warmup) throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        try (RawIpLowerLayer rx = RawIpLowerLayer.builder()
                        .ipv6(false)
                        .receiveBatch(batch)
                        .receiveBufferBytes(4 << 20)
                        .networkNamespace(pair.fileA())
                        .open();
                RawIpLowerLayer tx = RawIpLowerLayer.builder()
                        .ipv6(false)
                        .sendBatch(1) // one sendmsg per packet, as this measurement was made
                        .networkNamespace(pair.fileB())
                        .open()) {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong sent = new AtomicLong();
            Thread sender = new Thread(() -> {
                ByteBuffer p = ByteBuffer.allocate(1200);
                try {
                    while (!stop.get()) {
                        tx.send(p.clear(), VethPair.addr(VethPair.B4), VethPair.addr(VethPair.A4));
                        sent.incrementAndGet();
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            long[] received = new long[1];
            long[] calls = new long[1];
            LowerLayerSink sink = new LowerLayerSink(received);
            sender.start();
            long cpu = 0;
            long end = System.nanoTime() + 2_000_000_000L;
            while (System.nanoTime() < end) {
                if (busy) {
                    Thread.sleep(1); // an owner thread busy elsewhere: the socket queue fills meanwhile
                } else {
                    rx.await(10_000_000L);
                }
                long cpu0 = mx.getCurrentThreadCpuTime();
                rx.receive(sink, 1024);
                cpu += mx.getCurrentThreadCpuTime() - cpu0;
                calls[0]++;
            }
            stop.set(true);
            sender.join();
            if (!warmup) {
                System.out.printf(
                        "%s batch %3d: sent %,9d received %,9d (%.0f%%), receive() CPU %.0f ns/packet, %,d turns%n",
                        busy ? "busy owner" : "awaiting  ",
                        batch,
                        sent.get(),
                        received[0],
                        100.0 * received[0] / Math.max(1, sent.get()),
                        (double) cpu / Math.max(1, received[0]),
                        calls[0]);
            }
        }
    }

    private record LowerLayerSink(long[] count) implements org.sctpj.stack.llp.LowerLayer.PacketSink {
        @Override
        public void packet(ByteBuffer sctp, java.net.InetAddress from, java.net.InetAddress to) {
            count[0]++;
        }
    }
}
