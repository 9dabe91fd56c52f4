package org.sctpj.llp.udp;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;

/**
 * Benchmark (not a test): two endpoints in one process over loopback UDP, each on its own {@link
 * MiniDriver} thread, in both {@link ReceiveMode}s, alternated in one invocation. Bulk: 1000-byte
 * messages as fast as the send buffer allows, bytes delivered per second. Latency: ping-pong of
 * 30-byte messages with noDelay and the I bit, round-trip times. Prints each run and the medians.
 *
 * <p>Arguments (all optional): {@code rounds} (3), {@code bulkSeconds} (10), {@code pingSeconds}
 * (5), {@code messageBytes} (1000). The module README says how to run it.
 */
public final class UdpBench {

    static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private UdpBench() {}

    /** Runs the benchmark. */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int bulkSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int pingSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        int messageBytes = args.length > 3 ? Integer.parseInt(args[3]) : 1000;
        System.out.printf(
                "java %s, %d cpus; rounds %d, bulk %d s of %d-byte messages, ping-pong %d s of 30 bytes%n",
                System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(),
                rounds,
                bulkSeconds,
                messageBytes,
                pingSeconds);
        Map<ReceiveMode, List<Double>> bulk = new EnumMap<>(ReceiveMode.class);
        Map<ReceiveMode, List<Double>> rtt = new EnumMap<>(ReceiveMode.class);
        Map<ReceiveMode, List<Double>> rtt99 = new EnumMap<>(ReceiveMode.class);
        for (int r = 0; r < rounds; r++) {
            ReceiveMode[] order = r % 2 == 0
                    ? new ReceiveMode[] {ReceiveMode.SELECTOR, ReceiveMode.RECEIVE_THREAD}
                    : new ReceiveMode[] {ReceiveMode.RECEIVE_THREAD, ReceiveMode.SELECTOR};
            for (ReceiveMode m : order) {
                double mbs = bulk(m, bulkSeconds, messageBytes);
                bulk.computeIfAbsent(m, k -> new ArrayList<>()).add(mbs);
                double[] lat = pingPong(m, pingSeconds);
                rtt.computeIfAbsent(m, k -> new ArrayList<>()).add(lat[0]);
                rtt99.computeIfAbsent(m, k -> new ArrayList<>()).add(lat[1]);
            }
        }
        System.out.println();
        System.out.println("| mode | bulk MB/s (median) | runs | RTT us (median of run medians) | p99 RTT us | runs |");
        System.out.println("|---|---|---|---|---|---|");
        for (ReceiveMode m : ReceiveMode.values()) {
            System.out.printf(
                    Locale.ROOT,
                    "| %s | %.1f | %s | %.1f | %.1f | %s |%n",
                    m,
                    median(bulk.get(m)),
                    fmt(bulk.get(m)),
                    median(rtt.get(m)),
                    median(rtt99.get(m)),
                    fmt(rtt.get(m)));
        }
    }

    static String fmt(List<Double> xs) {
        StringBuilder b = new StringBuilder();
        for (double x : xs) {
            b.append(b.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.1f", x));
        }
        return b.toString();
    }

    static double median(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = a.length;
        return n % 2 == 1 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
    }

    /** Two endpoints, A connecting to Z, over fresh UdpEncapsulations in {@code mode}. */
    static final class Pair implements AutoCloseable {
        final MiniDriver a;
        final MiniDriver z;

        Pair(ReceiveMode mode, SctpOptions o, MiniDriver.App appA, MiniDriver.App appZ) throws Exception {
            UdpConfig cfg = UdpConfig.builder()
                    .localPort(0)
                    .bind(LOOPBACK)
                    .receiveMode(mode)
                    .build();
            UdpEncapsulation la = UdpEncapsulation.open(cfg);
            UdpEncapsulation lz = UdpEncapsulation.open(cfg);
            la.setRemotePort(LOOPBACK, lz.localPort());
            SctpOptions opts = o.toBuilder()
                    .encapsulationOverhead(la.encapsulationOverhead())
                    .build();
            long now = System.nanoTime();
            Endpoint ea = new Endpoint(5001, List.of(LOOPBACK), opts, new SecureRandom(), now);
            Endpoint ez = new Endpoint(5002, List.of(LOOPBACK), opts, new SecureRandom(), now);
            ez.listen(true);
            a = new MiniDriver("bench-A", ea, la, appA).start();
            z = new MiniDriver("bench-Z", ez, lz, appZ).start();
            a.submit(d -> d.endpoint.connect(List.of(LOOPBACK), 5002, d.now()));
        }

        @Override
        public void close() {
            a.close();
            z.close();
        }
    }

    /** Counts COMMUNICATION_UP. */
    abstract static class Base implements MiniDriver.App {
        final CountDownLatch up = new CountDownLatch(1);
        volatile AssociationId id;

        @Override
        public void onEvent(MiniDriver d, SctpEvent e) {
            if (e instanceof SctpEvent.AssociationChange c && c.type() == AssociationChangeType.COMMUNICATION_UP) {
                id = c.association();
                up.countDown();
            }
            event(d, e);
        }

        void event(MiniDriver d, SctpEvent e) {}
    }

    static double bulk(ReceiveMode mode, int seconds, int size) throws Exception {
        ByteBuffer msg = ByteBuffer.allocate(size);
        Base sender = new Base() {
            @Override
            public void onTurn(MiniDriver d) {
                AssociationId i = id;
                while (i != null) {
                    msg.clear();
                    if (d.endpoint.send(i, SendInfo.DEFAULT, msg, d.now()) != SendStatus.ACCEPTED) {
                        return;
                    }
                }
            }
        };
        BulkReceiver receiver = new BulkReceiver();
        SctpOptions bulkOptions = SctpOptions.LAN.toBuilder()
                .maxBurst(Integer.getInteger("bench.maxBurst", SctpOptions.LAN.maxBurst()))
                .build();
        try (Pair p = new Pair(mode, bulkOptions, sender, receiver)) {
            if (!sender.up.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no association " + p.a.failure() + " " + p.z.failure());
            }
            Thread.sleep(1000); // warm-up
            long b0 = receiver.received;
            long t0 = System.nanoTime();
            Thread.sleep(seconds * 1000L);
            long b1 = receiver.received;
            long t1 = System.nanoTime();
            double mbs = (b1 - b0) * 1e3 / (t1 - t0);
            UdpEncapsulation la = (UdpEncapsulation) p.a.llp;
            UdpEncapsulation lz = (UdpEncapsulation) p.z.llp;
            System.out.printf(
                    Locale.ROOT,
                    "bulk %-14s %8.1f MB/s  A %s%n  Z %s  %s%n",
                    mode,
                    mbs,
                    la.stats(),
                    lz.stats(),
                    p.a.endpoint.stats());
            return mbs;
        }
    }

    /** Counts delivered bytes (written by its driver thread only). */
    static final class BulkReceiver extends Base {
        volatile long received;

        @Override
        void event(MiniDriver d, SctpEvent e) {
            if (e instanceof SctpEvent.MessageReceived m) {
                received += m.data().length;
            }
        }
    }

    /** Returns {median, p99} round-trip time in microseconds. */
    static double[] pingPong(ReceiveMode mode, int seconds) throws Exception {
        SctpOptions o = SctpOptions.LAN.toBuilder().noDelay(true).build();
        SendInfo ping = new SendInfo(0, 0, false, true);
        ByteBuffer msg = ByteBuffer.allocate(30);
        long[] rtts = new long[4_000_000];
        int[] count = new int[1];
        Base client = new Base() {
            long sentAt;

            @Override
            void event(MiniDriver d, SctpEvent e) {
                if (e instanceof SctpEvent.AssociationChange c && c.type() == AssociationChangeType.COMMUNICATION_UP) {
                    send(d);
                } else if (e instanceof SctpEvent.MessageReceived) {
                    long rtt = System.nanoTime() - sentAt;
                    if (count[0] < rtts.length) {
                        rtts[count[0]++] = rtt;
                    }
                    send(d);
                }
            }

            void send(MiniDriver d) {
                msg.clear();
                sentAt = System.nanoTime();
                d.endpoint.send(id, ping, msg, sentAt);
            }
        };
        Base server = new Base() {
            @Override
            void event(MiniDriver d, SctpEvent e) {
                if (e instanceof SctpEvent.MessageReceived m) {
                    d.endpoint.send(m.association(), ping, ByteBuffer.wrap(m.data()), d.now());
                }
            }
        };
        int n;
        try (Pair p = new Pair(mode, o, client, server)) {
            if (!client.up.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no association");
            }
            Thread.sleep(seconds * 1000L);
            CountDownLatch stopped = new CountDownLatch(1);
            int[] snap = new int[1];
            p.a.submit(d -> {
                snap[0] = count[0];
                stopped.countDown();
            });
            stopped.await(5, TimeUnit.SECONDS);
            n = snap[0];
        }
        int skip = n / 10; // warm-up
        long[] a = Arrays.copyOfRange(rtts, skip, n);
        Arrays.sort(a);
        double med = a.length == 0 ? Double.NaN : a[a.length / 2] / 1e3;
        double p99 = a.length == 0 ? Double.NaN : a[(int) (a.length * 0.99)] / 1e3;
        System.out.printf(Locale.ROOT, "ping %-14s %d round trips, median %.1f us, p99 %.1f us%n", mode, n, med, p99);
        return new double[] {med, p99};
    }
}
