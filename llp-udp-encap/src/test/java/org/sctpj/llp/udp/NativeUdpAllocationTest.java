package org.sctpj.llp.udp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.llp.LowerLayer.PacketSink;

/**
 * The native path allocates nothing per packet once warm, sending (send, flush: GSO trains) and
 * receiving (recvmmsg, GRO split, delivery) on one thread: the property the shared libc binding
 * must keep. Measured with the thread's allocation counter; prints the figure.
 */
class NativeUdpAllocationTest {

    private static final int BURST = 32;
    private static final int SIZE = 1000;

    @Test
    void sendingAndReceivingAllocateNothingPerPacket() throws Exception {
        InetAddress v4 = InetAddress.getByName("127.0.0.1");
        try (UdpEncapsulation tx = open(v4);
                UdpEncapsulation rx = open(v4)) {
            assumeTrue(tx.isNative() && rx.isNative(), "the native path is not available here");
            tx.setRemotePort(v4, rx.localPort());
            ByteBuffer packet = ByteBuffer.allocateDirect(SIZE);
            for (int i = 0; i < SIZE; i++) {
                packet.put(i, (byte) i);
            }
            long[] received = new long[1];
            PacketSink sink = (buf, from, to) -> received[0] += buf.remaining();
            rounds(tx, rx, v4, packet, sink, received, 5000); // warm up: compiled and caches filled
            int rounds = 10_000;
            long cpuBefore = cpuNanos();
            long before = allocatedBytes();
            long got = rounds(tx, rx, v4, packet, sink, received, rounds);
            long allocated = allocatedBytes() - before;
            long cpu = cpuNanos() - cpuBefore;
            long packets = (long) rounds * BURST;
            assertEquals(packets * SIZE, got, "every packet arrived");
            double perPacket = (double) allocated / packets;
            System.out.printf(
                    "NATIVE-UDP-ALLOC packets=%d allocated=%d bytes_per_packet=%.3f (thread CPU %.0f ns/packet sent"
                            + " and received, not a benchmark)%n",
                    packets, allocated, perPacket, (double) cpu / packets);
            assertTrue(perPacket < 1.0, allocated + " bytes allocated for " + packets + " packets");
        }
    }

    private static long rounds(
            UdpEncapsulation tx,
            UdpEncapsulation rx,
            InetAddress to,
            ByteBuffer packet,
            PacketSink sink,
            long[] received,
            int rounds)
            throws IOException {
        long start = received[0];
        for (int r = 0; r < rounds; r++) {
            long want = received[0] + (long) BURST * SIZE;
            for (int i = 0; i < BURST; i++) {
                tx.send(packet, to, to);
            }
            tx.flush();
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (received[0] < want && System.nanoTime() < deadline) {
                if (rx.receive(sink, 64) == 0) {
                    rx.await(1_000_000L);
                }
            }
        }
        return received[0] - start;
    }

    private static UdpEncapsulation open(InetAddress bind) throws IOException {
        return UdpEncapsulation.open(UdpConfig.builder()
                .localPort(0)
                .bind(bind)
                .nativeIo(NativeIo.AUTO)
                .build());
    }

    /** The calling thread's CPU time (user and system), by reflection as below. */
    private static long cpuNanos() throws ReflectiveOperationException {
        Class<?> factory = Class.forName("java.lang.management.ManagementFactory");
        Object bean = factory.getMethod("getThreadMXBean").invoke(null);
        Method read = Class.forName("java.lang.management.ThreadMXBean").getMethod("getCurrentThreadCpuTime");
        return (Long) read.invoke(bean);
    }

    /** The calling thread's allocated bytes, by reflection: this module does not read java.management. */
    private static long allocatedBytes() throws ReflectiveOperationException {
        Class<?> factory = Class.forName("java.lang.management.ManagementFactory");
        Object bean = factory.getMethod("getThreadMXBean").invoke(null);
        Method read = Class.forName("com.sun.management.ThreadMXBean").getMethod("getCurrentThreadAllocatedBytes");
        return (Long) read.invoke(bean);
    }
}
