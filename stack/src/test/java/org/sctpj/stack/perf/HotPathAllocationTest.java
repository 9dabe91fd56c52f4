package org.sctpj.stack.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.EventHandler;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.Transmit;
import org.sctpj.stack.rx.DataReceiver;
import org.sctpj.stack.rx.SackWriter;

/**
 * Measures the bytes allocated per message of steady-state bulk transfer between two endpoints
 * wired back to back in one thread (no sockets, virtual clock), with the thread's allocation
 * counter ({@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}). A measurement, not a
 * speed test: it prints the figure (see PERFORMANCE.md) and checks only that every message
 * arrived.
 */
class HotPathAllocationTest {

    /** Two endpoints back to back, driven through the Optional-returning (compatible) API. */
    static final class LegacyPair {
        final InetAddress addr = InetAddress.getLoopbackAddress();
        final Endpoint a;
        final Endpoint z;
        final AssociationId id;
        long now = 1_000_000_000L;
        long delivered;
        long deliveredBytes;

        LegacyPair(SctpOptions options) {
            SctpOptions o = options.toBuilder().encapsulationOverhead(8).build();
            a = new Endpoint(5000, List.of(addr), o, new SplittableRandom(1), now);
            z = new Endpoint(5001, List.of(addr), o, new SplittableRandom(2), now);
            z.listen(true);
            id = a.connect(List.of(addr), 5001, now);
            for (int i = 0; i < 10; i++) {
                round();
            }
        }

        void send(SendInfo info, ByteBuffer msg) {
            while (true) {
                msg.rewind();
                if (a.send(id, info, msg, now) == SendStatus.ACCEPTED) {
                    return;
                }
                now += 2_000;
                round();
            }
        }

        void round() {
            Optional<Transmit> t;
            while ((t = a.pollTransmit(now)).isPresent()) {
                z.handleInput(ByteBuffer.wrap(t.get().packet()), addr, addr, now);
            }
            drain(z);
            while ((t = z.pollTransmit(now)).isPresent()) {
                a.handleInput(ByteBuffer.wrap(t.get().packet()), addr, addr, now);
            }
            drain(a);
            if (a.nextTimeout() <= now) {
                a.handleTimeout(now);
            }
            if (z.nextTimeout() <= now) {
                z.handleTimeout(now);
            }
        }

        void drain(Endpoint e) {
            Optional<SctpEvent> ev;
            while ((ev = e.pollEvent()).isPresent()) {
                if (ev.get() instanceof SctpEvent.MessageReceived m) {
                    delivered++;
                    deliveredBytes += m.data().length;
                }
            }
        }
    }

    /**
     * Two endpoints back to back, driven through the allocation-free forms: packets written into
     * one direct buffer per side (as a lower layer would send them), events polled without
     * Optional, messages seen in place by an {@link EventHandler}.
     */
    static final class DirectPair {
        final InetAddress addr = InetAddress.getLoopbackAddress();
        final Endpoint a;
        final Endpoint z;
        final AssociationId id;
        final ByteBuffer outA = ByteBuffer.allocateDirect(65535);
        final ByteBuffer outZ = ByteBuffer.allocateDirect(65535);
        long now = 1_000_000_000L;
        long delivered;
        long deliveredBytes;
        long checksum;

        DirectPair(SctpOptions options) {
            SctpOptions o = options.toBuilder().encapsulationOverhead(8).build();
            a = new Endpoint(5000, List.of(addr), o, new SplittableRandom(1), now);
            z = new Endpoint(5001, List.of(addr), o, new SplittableRandom(2), now);
            z.listen(true);
            z.setEventHandler(new EventHandler() {
                @Override
                public void onEvent(SctpEvent event) {}

                @Override
                public void onMessage(AssociationId assoc, int sid, int ppid, boolean unordered, ByteBuffer data) {
                    delivered++;
                    deliveredBytes += data.remaining();
                    checksum += data.get(data.position());
                }
            });
            id = a.connect(List.of(addr), 5001, now);
            for (int i = 0; i < 10; i++) {
                round();
            }
        }

        void send(SendInfo info, ByteBuffer msg) {
            while (true) {
                msg.rewind();
                if (a.send(id, info, msg, now) == SendStatus.ACCEPTED) {
                    return;
                }
                now += 2_000;
                round();
            }
        }

        void round() {
            outA.clear();
            while (a.pollTransmit(outA, now) != null) {
                z.handleInput(outA, addr, addr, now);
                outA.clear();
            }
            drain(z);
            outZ.clear();
            while (z.pollTransmit(outZ, now) != null) {
                a.handleInput(outZ, addr, addr, now);
                outZ.clear();
            }
            drain(a);
            if (a.nextTimeout() <= now) {
                a.handleTimeout(now);
            }
            if (z.nextTimeout() <= now) {
                z.handleTimeout(now);
            }
        }

        void drain(Endpoint e) {
            SctpEvent ev;
            while ((ev = e.pollEventOrNull()) != null) {
                if (ev instanceof SctpEvent.MessageReceived m) {
                    delivered++;
                    deliveredBytes += m.data().length;
                }
            }
        }
    }

    static String run(String label, int size, int messages, Runnable warmUp, Runnable measured) {
        warmUp.run();
        long before = AllocationCounter.now();
        long t0 = System.nanoTime();
        measured.run();
        long t1 = System.nanoTime();
        long bytes = AllocationCounter.now() - before;
        String line = String.format(
                Locale.ROOT,
                "HOTPATH-ALLOC %s size=%d messages=%d bytes_per_msg=%.1f (wall %.0f ns/msg, not a benchmark)",
                label,
                size,
                messages,
                (double) bytes / messages,
                (double) (t1 - t0) / messages);
        System.out.println(line);
        return line;
    }

    @Test
    void legacyApiBulkThousandByteMessages() {
        int size = 1000;
        int n = 200_000;
        LegacyPair pair = new LegacyPair(SctpOptions.LAN);
        ByteBuffer msg = ByteBuffer.allocate(size);
        SendInfo info = SendInfo.of(0, 51);
        Runnable loop = () -> {
            for (int i = 0; i < n; i++) {
                pair.now += 2_000;
                pair.send(info, msg);
                pair.round();
            }
        };
        run("legacy-api", size, n, loop, loop);
        for (int i = 0; i < 100; i++) {
            pair.now += 1_000_000;
            pair.round();
        }
        assertEquals(2L * n, pair.delivered);
        assertTrue(pair.deliveredBytes == 2L * n * size);
    }

    /**
     * The receiver alone on the fragmented path: three fragments per 4000-byte message (as the
     * 4000-byte bulk case cuts them), in order, taken through a sink as the association does.
     */
    @Test
    void receiverAloneFragmented() {
        DataReceiver rx = new DataReceiver(SctpOptions.LAN, 1, 4);
        rx.keepReferences(true);
        ByteBuffer packet = ByteBuffer.allocate(1500);
        long[] bytes = {0};
        DataReceiver.MessageSink sink = (sid, ppid, unordered, array, buf, offset, length) -> bytes[0] += length;
        SackWriter sacks = (cum, rwnd, starts, ends, gaps, dups, dupCount) -> {};
        int n = 300_000;
        int[] tsn = {1};
        int[] ssn = {0};
        Runnable loop = () -> {
            for (int i = 0; i < n; i++) {
                rx.onData(tsn[0]++, 0, ssn[0], 51, 0x02, packet, 16, 1452, 0);
                rx.onData(tsn[0]++, 0, ssn[0], 51, 0x00, packet, 16, 1452, 0);
                rx.onData(tsn[0]++, 0, ssn[0], 51, 0x01, packet, 16, 1096, 0);
                ssn[0]++;
                rx.onPacketProcessed(true, false, 0);
                while (rx.pollMessage(sink)) {
                    // counted
                }
                if (rx.sackNeeded(0)) {
                    rx.writeSack(sacks, 1400);
                }
            }
        };
        run("receiver-alone-fragmented", 4000, n, loop, loop);
        assertEquals(2L * n * 4000, bytes[0]);
        assertEquals(0, rx.bufferedBytes());
    }

    @ParameterizedTest
    @ValueSource(ints = {100, 1000, 4000})
    void allocationFreeApiBulk(int size) {
        int n = size > 1000 ? 50_000 : 200_000;
        DirectPair pair = new DirectPair(SctpOptions.LAN);
        ByteBuffer msg = ByteBuffer.allocate(size);
        SendInfo info = SendInfo.of(0, 51);
        Runnable loop = () -> {
            for (int i = 0; i < n; i++) {
                pair.now += 2_000;
                pair.send(info, msg);
                pair.round();
            }
        };
        run("allocation-free-api", size, n, loop, loop);
        // Messages over one packet are reassembled into the receiver's reused reassembly buffer.
        for (int i = 0; i < 100; i++) {
            pair.now += 1_000_000;
            pair.round();
        }
        assertEquals(2L * n, pair.delivered);
        assertEquals(2L * n * size, pair.deliveredBytes);
    }
}
